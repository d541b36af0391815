/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Time from start to the first frame drawn for a large profile: GTK is
 * initialised as the viewer does it (mg_renderer_init_gtk), the window
 * opens the file (loading off the main thread), builds its rows and draws;
 * plus the process's own start (exec, libraries) up to main.
 * The accessibility bus is asked to start right after, as mg_gui_run does
 * (mg-a11y-bus.c; not with --gtk-default).
 * Run by hand under a display: xvfb-run <build>/tests/bench/bench-window
 * [--gtk-default] [PROCESSES METRICS SAMPLES [KEEP.mgprof]]; prints the
 * times in ms, each
 * goal with whether it is met, the renderer chosen as the viewer chooses it
 * (mg-renderer-choice.c: cairo where GL would be software, unless GSK_RENDERER
 * names one; --gtk-default: plain gtk_init, GTK's own choice, for
 * comparison) and a timeline of the first frames (layout, paint, after
 * paint). With KEEP the profile is written there once and reused, which
 * makes repeated runs quicker. Each timeline line gives the wall time and the
 * main thread's CPU time since GTK's set-up began (their difference: waiting
 * for the X server, D-Bus, the loader thread, or for a core). With
 * MG_BENCH_T0 set it prints the clock's start, to line up
 * `perf record -k CLOCK_MONOTONIC` samples with the timeline. */
#include "mg-config.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-fixtures.h"
#include "gui/mg-a11y-bus.h"
#include "gui/mg-application.h"
#include "gui/mg-renderer-choice.h"
#include "mg-resources.h"
#include "gui/mg-window-private.h"

/* The goals: first frame within 300 ms, panning at 60 frames a
 * second (a frame every 16.7 ms; 5 % allowed for the clock's jitter). */
#define GOAL_FIRST_FRAME_MS 300.0
#define GOAL_FRAME_MS (1000.0 / 60 * 1.05)

static gint64 start_us;
static gint64 shown_us;
static gint64 first_frame_us;
/* The main thread's CPU time at the same points: steadier than the wall
 * clock on a busy machine (the wall clock is what users see). */
static double start_cpu_ms;
static double first_frame_cpu_ms;
static guint frames_painted;

/* How long ago this process started (exec, loading the libraries), from
 * /proc (in clock ticks: 10 ms steps); -1 if unknown. */
static double
process_age_ms (void)
{
  g_autofree char *stat = NULL;
  g_auto (GStrv) fields = NULL;
  struct timespec now;
  const char *end;

  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL)
      || (end = strrchr (stat, ')')) == NULL)
    return -1;
  /* After "pid (comm)": state is field 3, starttime field 22. */
  fields = g_strsplit (end + 2, " ", 21);
  if (g_strv_length (fields) < 21)
    return -1;
  clock_gettime (CLOCK_BOOTTIME, &now);
  return now.tv_sec * 1e3 + now.tv_nsec / 1e6
         - g_ascii_strtod (fields[19], NULL) * 1e3 / sysconf (_SC_CLK_TCK);
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
static gboolean print_timeline = TRUE;

static void
stamp (const char *what)
{
  if (print_timeline)
    g_print ("  %7.1f ms  (main thread CPU %6.1f ms)  %s\n",
             (g_get_monotonic_time () - start_us) / 1000.0, thread_cpu_ms () - start_cpu_ms, what);
}

/* Connected after GTK's own handlers (the window connects them when it is
 * realized, before "realize" is emitted to us): each stamp marks the end
 * of its phase. */
static void
on_layout (GdkFrameClock *clock, gpointer user_data)
{
  if (first_frame_us == 0)
    stamp ("frame: layout done");
}

static void
on_paint (GdkFrameClock *clock, gpointer user_data)
{
  if (first_frame_us == 0)
    stamp ("frame: paint done (snapshot and render)");
}

static void
on_after_paint (GdkFrameClock *clock, gpointer user_data)
{
  MgWindow *window = user_data;

  frames_painted++;
  if (first_frame_us == 0)
    stamp ("frame: after paint");
  if (first_frame_us == 0 && g_str_equal (mg_window_get_page (window), "profile"))
    {
      first_frame_us = g_get_monotonic_time ();
      first_frame_cpu_ms = thread_cpu_ms ();
    }
}

static void
on_profile (MgWindow *window)
{
  if (shown_us == 0 && mg_window_get_profile (window) != NULL)
    {
      shown_us = g_get_monotonic_time ();
      stamp ("loaded and rows built");
    }
}

static void
on_realize (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  stamp ("window realized");
  g_print ("renderer: %s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (widget))));
  g_signal_connect (clock, "layout", G_CALLBACK (on_layout), widget);
  g_signal_connect (clock, "paint", G_CALLBACK (on_paint), widget);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), widget);
}

static const char *
verdict (gboolean met)
{
  return met ? "met" : "NOT met";
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Frames while panning at 25 % of the run: from the pan to the frame drawn
 * (every graph on screen redrawn, plus GTK's own work), wall and CPU. */
static void
measure_panning (MgWindow *window)
{
  MgTimeView *view = mg_window_get_time_view (window);
  double duration = mg_time_view_get_duration (view);
  enum { FRAMES = 60 };
  double wall[FRAMES], cpu[FRAMES];
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  guint before;

  mg_time_view_set_range (view, 0, duration / 4);
  before = frames_painted;
  while (frames_painted == before && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  for (guint f = 0; f < FRAMES; f++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = thread_cpu_ms ();

      before = frames_painted;
      mg_time_view_pan (view, duration / 4 * 0.01);
      while (frames_painted == before && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, TRUE);
      wall[f] = (g_get_monotonic_time () - t0) / 1000.0;
      cpu[f] = thread_cpu_ms () - c0;
    }
  qsort (wall, FRAMES, sizeof (double), compare_double);
  qsort (cpu, FRAMES, sizeof (double), compare_double);
  g_print ("panning at 25 %%: pan to frame drawn, median %.1f ms (p95 %.1f) (goal 60 fps, "
           "< %.1f ms: %s), main thread CPU median %.1f ms\n", wall[FRAMES / 2],
           wall[FRAMES * 95 / 100], GOAL_FRAME_MS, verdict (wall[FRAMES / 2] < GOAL_FRAME_MS),
           cpu[FRAMES / 2]);
}

int
main (int argc, char **argv)
{
  gboolean gtk_default = argc > 1 && g_str_equal (argv[1], "--gtk-default");
  /* P M N [KEEP], after the option if given. */
  char **args = argv + gtk_default;
  int n_args = argc - gtk_default;
  guint n_processes = n_args > 3 ? (guint) atoi (args[1]) : 64;
  guint n_metrics = n_args > 3 ? (guint) atoi (args[2]) : 32;
  guint n_samples = n_args > 3 ? (guint) atoi (args[3]) : 4096;
  const char *keep = n_args > 4 ? args[4] : NULL;
  g_autofree char *dir = keep ? NULL : g_dir_make_tmp ("mg-bench-XXXXXX", NULL);
  g_autofree char *path = keep ? g_strdup (keep) : g_build_filename (dir, "large.mgprof", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GtkApplication) app = NULL;
  MgWindow *window;
  gint64 deadline;
  double exec_ms = process_age_ms ();
  const char *renderer = NULL, *why = NULL;

  g_setenv ("GSETTINGS_SCHEMA_DIR", MG_GUI_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (keep == NULL || !g_file_test (keep, G_FILE_TEST_EXISTS))
    {
      profile = gui_fixture_large (n_processes, n_metrics, n_samples);
      if (!mg_profile_save (profile, path, &error))
        g_error ("cannot save %s: %s", path, error->message);
      g_clear_object (&profile);
    }

  /* The core's share, for comparison (also warms the page cache). */
  {
    gint64 t0 = g_get_monotonic_time ();
    g_autoptr (MgProfile) alone = mg_profile_load (path, &error);

    if (alone == NULL)
      g_error ("cannot load %s: %s", path, error->message);
    g_print ("mg_profile_load alone: %.1f ms\n", (g_get_monotonic_time () - t0) / 1000.0);
  }

  /* The clock starts where mg_gui_run would: GTK's set-up is part of the
   * wait (with GL, most of it). */
  start_us = g_get_monotonic_time ();
  start_cpu_ms = thread_cpu_ms ();
  if (gtk_default ? !gtk_init_check () : !mg_renderer_init_gtk (&renderer, &why))
    g_error ("cannot open the display");
  if (!gtk_default)
    mg_a11y_bus_prestart ();
  if (gtk_default)
    why = "--gtk-default: plain gtk_init";
  stamp ("GTK initialised");
  /* To line up `perf record -k CLOCK_MONOTONIC` samples with the timeline. */
  if (g_getenv ("MG_BENCH_T0") != NULL)
    g_print ("clock start: %" G_GINT64_FORMAT " µs (CLOCK_MONOTONIC)\n", start_us);
  g_print ("renderer asked for: %s (%s)\n", renderer != NULL ? renderer : "GTK's choice", why);
  g_assert_nonnull (mg_resources_get_resource ());
  app = GTK_APPLICATION (mg_application_new ());
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("%s", error->message);
  stamp ("application registered");

  window = mg_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  g_signal_connect (window, "notify::profile", G_CALLBACK (on_profile), NULL);
  stamp ("window created");
  mg_window_open_file (window, file);
  gtk_window_present (GTK_WINDOW (window));
  stamp ("window presented");

  deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (first_frame_us == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  print_timeline = FALSE;
  g_print ("profile: %u processes × %u metrics × %u samples\n", n_processes, n_metrics, n_samples);
  if (first_frame_us == 0)
    {
      g_print ("no frame drawn within 60 s\n");
      return 1;
    }
  g_print ("loaded and rows built: %.1f ms\n", (shown_us - start_us) / 1000.0);
  g_print ("GTK set-up to first frame: %.1f ms (main thread CPU %.1f ms)\n",
           (first_frame_us - start_us) / 1000.0, first_frame_cpu_ms - start_cpu_ms);
  if (exec_ms >= 0)
    {
      double total = exec_ms + (first_frame_us - start_us) / 1000.0;

      g_print ("process start to main (exec, libraries): %.0f ms (in 10 ms steps)\n", exec_ms);
      g_print ("start to first frame: %.1f ms (goal < %.0f ms: %s)\n", total,
               GOAL_FIRST_FRAME_MS, verdict (total < GOAL_FIRST_FRAME_MS));
    }

  /* The same profile again, already in memory: the window's own share. */
  {
    g_autoptr (MgProfile) loaded = g_object_ref (mg_window_get_profile (window));
    MgWindow *second;
    gint64 t0, t1;

    gtk_window_destroy (GTK_WINDOW (window));
    first_frame_us = 0;
    second = mg_window_new (app);
    gtk_window_set_default_size (GTK_WINDOW (second), 1280, 800);
    g_signal_connect (second, "realize", G_CALLBACK (on_realize), NULL);
    t0 = g_get_monotonic_time ();
    start_cpu_ms = thread_cpu_ms ();
    mg_window_set_profile (second, loaded, NULL);
    t1 = g_get_monotonic_time ();
    gtk_window_present (GTK_WINDOW (second));
    while (first_frame_us == 0 && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, TRUE);
    g_print ("in memory: rows built %.1f ms, first frame %.1f ms after (main thread CPU %.1f ms "
             "in all)\n", (t1 - t0) / 1000.0, (first_frame_us - t1) / 1000.0,
             first_frame_cpu_ms - start_cpu_ms);
    measure_panning (second);
    gtk_window_destroy (GTK_WINDOW (second));
  }
  if (keep == NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return 0;
}
