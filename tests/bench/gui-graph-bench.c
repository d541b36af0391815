/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs' drawing cost (run by hand):
 *   <build>/tests/bench/bench-gui-graph [PROCESSES METRICS WINDOWS WIDTH HEIGHT]
 * Builds a profile (default 64 processes x 32 metrics x 4096 windows), then
 * times full redraws of every row with mg_graph_render into image surfaces
 * (default 1600x80 each) while panning, at several zoom levels, and the
 * level-of-detail computation alone. Goal: a full redraw under 8 ms (the
 * median of this thread's CPU time, what an idle machine would take), so a
 * frame while panning leaves room for GTK's own work at 60 fps; each
 * redraw's line says whether it is met. */
#include "mg-config.h"

#include <stdlib.h>
#include <time.h>

#include "graph-fixture.h"
#include "plot/mg-graph-render.h"

#define GOAL_REDRAW_MS 8.0

typedef struct {
  guint n;
  double *ms;   /* wall clock */
  double *cpu;  /* this thread's CPU time: what an idle machine would show */
} Timings;

static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Prints the figures; returns the median. */
static double
report_one (const char *what, const char *clock, guint n, double *ms)
{
  double sum = 0;

  qsort (ms, n, sizeof (double), compare_double);
  for (guint i = 0; i < n; i++)
    sum += ms[i];
  g_print ("%-40s %-4s mean %7.3f ms  median %7.3f ms  p95 %7.3f ms  max %7.3f ms\n", what,
           clock, sum / n, ms[n / 2], ms[(guint) (n * 0.95)], ms[n - 1]);
  return ms[n / 2];
}

static double
report (const char *what, Timings *t)
{
  double median = report_one (what, "cpu", t->n, t->cpu);

  report_one ("", "wall", t->n, t->ms);
  return median;
}

int
main (int argc, char **argv)
{
  guint n_processes = argc > 1 ? (guint) atoi (argv[1]) : 64;
  guint n_metrics = argc > 2 ? (guint) atoi (argv[2]) : 32;
  guint n_windows = argc > 3 ? (guint) atoi (argv[3]) : 4096;
  int width = argc > 4 ? atoi (argv[4]) : 1600;
  int height = argc > 5 ? atoi (argv[5]) : 80;
  const guint frames = 120;
  double duration = 600;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (MgProfile) profile = graph_fixture_profile (n_processes, n_metrics, n_windows,
                                                         duration, TRUE);
  MgSeriesView *series = g_new0 (MgSeriesView, n_metrics);
  MgAxis **axes = g_new0 (MgAxis *, n_metrics);
  MgLod **lods = g_new0 (MgLod *, n_metrics);
  cairo_surface_t **surfaces = g_new0 (cairo_surface_t *, n_metrics);
  const double zooms[] = { 1.0, 0.25, 0.01 };
  Timings t = { frames, g_new (double, frames), g_new (double, frames) };

  g_print ("profile %u processes x %u metrics x %u windows built in %.0f ms\n", n_processes,
           n_metrics, n_windows, (g_get_monotonic_time () - start) / 1000.0);
  g_print ("rows %u x %dx%d px\n", n_metrics, width, height);

  /* What a graph row keeps between frames: its series, its whole-run axis,
   * its LOD buffers and (in GTK) its surface. */
  start = g_get_monotonic_time ();
  for (guint m = 0; m < n_metrics; m++)
    {
      mg_series_view_init (&series[m], profile, m, -1);
      axes[m] = mg_graph_render_fit_axis (mg_profile_get_metric (profile, m), &series[m], NULL,
                                          FALSE, height);
      lods[m] = mg_lod_new ((guint) width);
      surfaces[m] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    }
  g_print ("%-44s %7.3f ms\n", "set-up of all rows (axes over the whole run)",
           (g_get_monotonic_time () - start) / 1000.0);

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      double span = duration * zooms[z];
      g_autofree char *what = NULL;
      double median;

      /* LOD alone: one column per pixel for every row. */
      for (guint f = 0; f < frames; f++)
        {
          double t0 = (duration - span) * f / (frames - 1);
          gint64 s = g_get_monotonic_time ();
          double c = cpu_ms ();

          for (guint m = 0; m < n_metrics; m++)
            mg_lod_compute (lods[m], &series[m], t0, t0 + span);
          t.ms[f] = (g_get_monotonic_time () - s) / 1000.0;
          t.cpu[f] = cpu_ms () - c;
        }
      what = g_strdup_printf ("LOD, %u rows, %.0f %% of the run", n_metrics, zooms[z] * 100);
      report (what, &t);
      g_clear_pointer (&what, g_free);

      /* Full redraws while panning across the run. */
      for (guint f = 0; f < frames; f++)
        {
          double t0 = (duration - span) * f / (frames - 1);
          gint64 s = g_get_monotonic_time ();
          double c = cpu_ms ();

          for (guint m = 0; m < n_metrics; m++)
            {
              cairo_t *cr = cairo_create (surfaces[m]);
              MgGraphRenderParams params;

              mg_lod_compute (lods[m], &series[m], t0, t0 + span);
              mg_graph_render_params_init (&params);
              params.width = width;
              params.height = height;
              params.def = mg_profile_get_metric (profile, m);
              params.series = &series[m];
              params.t0 = t0;
              params.t1 = t0 + span;
              params.lod = lods[m];
              params.axis = axes[m];
              params.hover_time = t0 + span / 2;
              mg_graph_render (cr, &params);
              cairo_destroy (cr);
            }
          t.ms[f] = (g_get_monotonic_time () - s) / 1000.0;
          t.cpu[f] = cpu_ms () - c;
        }
      what = g_strdup_printf ("full redraw, %u rows, %.0f %% of the run", n_metrics,
                              zooms[z] * 100);
      median = report (what, &t);
      g_print ("%-40s      median %.2f ms (goal < %.0f ms: %s)\n", "", median, GOAL_REDRAW_MS,
               median < GOAL_REDRAW_MS ? "met" : "NOT met");
    }

  for (guint m = 0; m < n_metrics; m++)
    {
      mg_axis_free (axes[m]);
      mg_lod_free (lods[m]);
      cairo_surface_destroy (surfaces[m]);
    }
  g_free (axes);
  g_free (lods);
  g_free (surfaces);
  g_free (series);
  g_free (t.ms);
  g_free (t.cpu);
  return 0;
}
