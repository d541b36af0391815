/* Time from start to the first frame drawn for a large profile: the window
 * opens the file (loading off the main thread), builds its rows and draws.
 * Run by hand under a display: xvfb-run <build>/tests/bench/bench-window
 * [PROCESSES METRICS SAMPLES [KEEP.mgprof]]; prints the times in ms (goal:
 * < 300 ms); with KEEP the profile is written there once and reused, which
 * makes repeated runs quicker,
 * the renderer GTK chose (GSK_RENDERER is honoured as in any GTK app) and
 * a timeline of the first frames (layout, paint, after paint). */
#include "mg-config.h"

#include <time.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-fixtures.h"
#include "mg-application.h"
#include "mg-resources.h"
#include "mg-window.h"

static gint64 start_us;
static gint64 shown_us;
static gint64 first_frame_us;
/* The main thread's CPU time at the same points: steadier than the wall
 * clock on a busy machine (the wall clock is what users see). */
static double start_cpu_ms;
static double first_frame_cpu_ms;
static guint frames_painted;

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
    g_print ("  %7.1f ms  %s\n", (g_get_monotonic_time () - start_us) / 1000.0, what);
}

static void
on_layout (GdkFrameClock *clock, gpointer user_data)
{
  if (first_frame_us == 0)
    stamp ("frame: layout");
}

static void
on_paint (GdkFrameClock *clock, gpointer user_data)
{
  if (first_frame_us == 0)
    stamp ("frame: paint (snapshot and render)");
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
  g_print ("panning at 25 %%: pan to frame drawn, median %.1f ms (p95 %.1f), main thread CPU "
           "median %.1f ms\n", wall[FRAMES / 2], wall[FRAMES * 95 / 100], cpu[FRAMES / 2]);
}

int
main (int argc, char **argv)
{
  guint n_processes = argc > 3 ? (guint) atoi (argv[1]) : 64;
  guint n_metrics = argc > 3 ? (guint) atoi (argv[2]) : 32;
  guint n_samples = argc > 3 ? (guint) atoi (argv[3]) : 4096;
  const char *keep = argc > 4 ? argv[4] : NULL;
  g_autofree char *dir = keep ? NULL : g_dir_make_tmp ("mg-bench-XXXXXX", NULL);
  g_autofree char *path = keep ? g_strdup (keep) : g_build_filename (dir, "large.mgprof", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GtkApplication) app = NULL;
  MgWindow *window;
  gint64 deadline;

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

  gtk_init ();
  g_assert_nonnull (mg_resources_get_resource ());
  app = GTK_APPLICATION (mg_application_new ());
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    g_error ("%s", error->message);

  start_us = g_get_monotonic_time ();
  start_cpu_ms = thread_cpu_ms ();
  window = mg_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  g_signal_connect (window, "notify::profile", G_CALLBACK (on_profile), NULL);
  g_print ("window created: %.1f ms\n", (g_get_monotonic_time () - start_us) / 1000.0);
  mg_window_open_file (window, file);
  gtk_window_present (GTK_WINDOW (window));
  g_print ("window presented: %.1f ms\n", (g_get_monotonic_time () - start_us) / 1000.0);

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
  g_print ("start to first frame: %.1f ms (goal < 300 ms)\n", (first_frame_us - start_us) / 1000.0);
  g_print ("main thread CPU until then: %.1f ms\n", first_frame_cpu_ms - start_cpu_ms);

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
