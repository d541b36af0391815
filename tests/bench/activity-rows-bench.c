/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity and function rows on a big profile (issue 30, points 2, 3
 * and 5): 64 processes x 4096 windows with the activity metrics, stacks
 * of 100 000 distinct frames lists (each process holding 2000 of them,
 * 8 counts per window). Prints the median of: the stacked activity row
 * drawn at 1600 x 100 (aggregate), the stacks' windows read
 * (MgStackWindows), and a function's share per window with every address
 * named for the first time, then with the names cached, and the strips
 * per thread of one process (up to 16 threads) built and their columns
 * computed at 1600 px. Times are the thread's CPU time.
 * By hand: <build>/tests/bench/bench-activity-rows [PROCESSES WINDOWS]. */
#include <stdlib.h>
#include <time.h>

#include "activity-fixture.h"
#include "graph-fixture.h"
#include "plot/mg-activity-render.h"
#include "plot/mg-function-share.h"
#include "plot/mg-thread-strips.h"
#include "profile/mg-profile-internal.h"

#define N_STACKS 100000
#define STACKS_PER_PROCESS 2000
#define COUNTS_PER_WINDOW 8
#define N_FUNCTIONS 5000
#define RUNS 5

static guint
bench_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
            gpointer user_data)
{
  static char name[32];

  g_snprintf (name, sizeof name, "function_%u", (guint) (vaddr >> 8));
  entries[0] = (MgFrameNameEntry) { name, "/src/f.c", 1 };
  return 1;
}

/* Stack s: 8 to 23 frames, "function_0" (main) outermost, sampled in
 * thread ordinal s % 16 (the strips per thread). */
static GVariant *
make_stack (guint s)
{
  GVariantBuilder frames;
  guint n = 8 + s % 16;
  guint32 h = s * 2654435761u;

  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  for (guint f = 0; f + 1 < n; f++)
    {
      h = h * 1103515245u + 12345u;
      g_variant_builder_add (&frames, "(ut)", (guint32) MG_STACK_MODULE_UNKNOWN,
                             (guint64) (1 + h % (N_FUNCTIONS - 1)) << 8 | (f + 1));
    }
  g_variant_builder_add (&frames, "(ut)", (guint32) MG_STACK_MODULE_UNKNOWN, (guint64) 1);
  return g_variant_new ("(a(ut)u)", &frames, (guint32) (s % 16 + 1) << MG_STACK_THREAD_SHIFT);
}

static void
add_stacks (MgProfile *profile, guint n_processes, guint n_windows)
{
  double duration = mg_profile_get_run_info (profile)->duration_s;
  GVariantBuilder procs;
  g_autofree double *starts = g_new (double, n_windows);
  g_autofree double *ends = g_new (double, n_windows);

  for (guint w = 0; w < n_windows; w++)
    {
      starts[w] = duration * w / n_windows;
      ends[w] = duration * (w + 1) / n_windows;
    }
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  for (guint p = 0; p < n_processes; p++)
    {
      GVariantBuilder stacks, counts;

      g_variant_builder_init (&stacks, G_VARIANT_TYPE ("a(a(ut)u)"));
      for (guint i = 0; i < STACKS_PER_PROCESS; i++)
        g_variant_builder_add_value (&stacks, make_stack ((p * 1567 + i) % N_STACKS));
      g_variant_builder_init (&counts, G_VARIANT_TYPE ("a(uuu)"));
      for (guint w = 0; w < n_windows; w++)
        for (guint c = 0; c < COUNTS_PER_WINDOW; c++)
          g_variant_builder_add (&counts, "(uuu)", w, (w * 7 + c * 131 + p) % STACKS_PER_PROCESS,
                                 1 + c);
      g_variant_builder_add (&procs, "(ittu@a(a(ut)u)@ad@ad@a(uuu))", (gint32) p,
                             (guint64) n_windows * 36, (guint64) 0, 0u,
                             g_variant_builder_end (&stacks),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, n_windows,
                                                        sizeof (double)),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, n_windows,
                                                        sizeof (double)),
                             g_variant_builder_end (&counts));
    }
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (
    g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                   g_variant_new_array (G_VARIANT_TYPE ("(ayay)"), NULL, 0),
                   g_variant_builder_end (&procs)));
  /* Serialised once, as a profile read from its file is (in place):
   * otherwise every child taken would serialise its part again. */
  g_variant_get_data (profile->stacks);
}

/* The thread's CPU time in microseconds: the figures stay comparable on a
 * machine shared with other work (wall time there measures the others). */
static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *ms, guint n)
{
  qsort (ms, n, sizeof *ms, compare);
  return ms[n / 2];
}

int
main (int argc, char **argv)
{
  guint n_processes = argc > 1 ? (guint) atoi (argv[1]) : 64;
  guint n_windows = argc > 2 ? (guint) atoi (argv[2]) : 4096;
  g_autoptr (MgProfile) activity = NULL;
  g_autoptr (MgProfile) profile = NULL;
  MgActivitySeries series;
  MgSeriesView grid;
  double ms[RUNS];

  activity = activity_fixture_profile_sized (n_processes, n_windows);
  g_assert_true (mg_activity_series_init (&series, activity, MG_ACTIVITY_MAIN_THREAD, -1));
  for (guint r = 0; r < RUNS; r++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 100);
      cairo_t *cr = cairo_create (surface);
      MgActivityRenderParams params;
      gint64 t = cpu_us ();

      mg_activity_render_params_init (&params);
      params.width = 1600;
      params.height = 100;
      params.series = &series;
      params.t1 = ACTIVITY_FIXTURE_DURATION;
      mg_activity_render (cr, &params);
      ms[r] = (cpu_us () - t) / 1000.0;
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  g_print ("activity row, %u processes x %u windows, 1600 x 100: %.2f ms median (goal 8 ms)\n",
           n_processes, n_windows, median (ms, RUNS));

  profile = graph_fixture_profile (n_processes, 1, n_windows, 60, FALSE);
  add_stacks (profile, n_processes, n_windows);
  g_assert_true (mg_series_view_init (&grid, profile, 0, -1));
  for (guint r = 0; r < RUNS; r++)
    {
      gint64 t = cpu_us ();
      g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, -1);

      ms[r] = (cpu_us () - t) / 1000.0;
      g_assert_cmpuint (mg_stack_windows_get_n_counts (windows), ==,
                        n_processes * n_windows * COUNTS_PER_WINDOW);
    }
  g_print ("stacks' windows, %u counts: %.1f ms median\n",
           n_processes * n_windows * COUNTS_PER_WINDOW, median (ms, RUNS));
  {
    g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, -1);
    g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, -1, 0, 0);
    double cached = 0;

    for (guint r = 0; r < RUNS; r++)
      {
        g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (bench_name, NULL, NULL);
        gint64 t = cpu_us ();
        g_autofree double *share = mg_function_share_compute (namer, modules, windows,
                                                              "function_17", &grid);

        ms[r] = (cpu_us () - t) / 1000.0;
        g_free (mg_function_share_compute (namer, modules, windows, "function_17", &grid));
        t = cpu_us ();
        g_free (mg_function_share_compute (namer, modules, windows, "function_18", &grid));
        cached = (cpu_us () - t) / 1000.0;
      }
    g_print ("function share, %u distinct stacks: %.1f ms median with every address named "
             "first, %.1f ms with the names cached (goal 100 ms)\n",
             mg_stack_windows_get_n_stacks (windows), median (ms, RUNS), cached);
  }
  {
    double drawn[RUNS];
    guint n_rows = 0;

    for (guint r = 0; r < RUNS; r++)
      {
        gint64 t = cpu_us ();
        g_autoptr (MgThreadStrips) strips = mg_thread_strips_new (profile, 0);
        guint8 classes[1600];

        ms[r] = (cpu_us () - t) / 1000.0;
        n_rows = mg_thread_strips_get_n_rows (strips);
        t = cpu_us ();
        for (guint row = 0; row < n_rows; row++)
          mg_thread_strips_columns (strips, row, 0, mg_profile_get_run_info (profile)->duration_s,
                                    G_N_ELEMENTS (classes), classes);
        drawn[r] = (cpu_us () - t) / 1000.0;
      }
    g_assert_cmpuint (n_rows, >, 8);
    g_print ("strips per thread, one process of %u windows, %u threads: %.1f ms median to build "
             "(at a process change), %.2f ms to compute their 1600 columns (goal 8 ms)\n",
             n_windows, n_rows, median (ms, RUNS), median (drawn, RUNS));
  }
  return 0;
}
