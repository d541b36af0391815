/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's drawing cost (mg-heat-map.h):
 *   <build>/tests/bench/bench-heat-map [RANKS WINDOWS WIDTH HEIGHT]
 * Builds a profile (default 1024 ranks × 4096 windows of one metric, one
 * rank spiking), then times, over the whole run and zoomed to a quarter
 * and to a hundredth while panning, in rank order and sorted by max:
 * - a full picture: the grid at one column per device pixel (default
 *   1600 × 900), its order and its image (what a change of range, size,
 *   metric or order costs);
 * - a redraw from the kept picture (what hover costs);
 * - the kept cells re-sorted by a selection a tenth of the range wide,
 *   and drawn (what dragging a selection costs).
 * Goal: a full picture under 16 ms (a frame at 60 fps), a redraw far
 * under it. The grid's rows are shared between up to 8 threads, so both
 * the process's CPU time (all threads: what one core alone would take)
 * and the wall time are shown; the goal is judged on the CPU time's
 * median, the wall time being at the mercy of other work on the machine.
 * Each line says whether its goal is met. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <time.h>

#include "heat-map-fixture.h"
#include "plot/mg-heat-map.h"

#define GOAL_PICTURE_MS 16.0
#define GOAL_REDRAW_MS 2.0
#define FRAMES 30

static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *ms, guint n)
{
  qsort (ms, n, sizeof (double), compare_double);
  return ms[n / 2];
}

static void
report (const char *what, double *cpu, double *wall, double goal)
{
  double c = median (cpu, FRAMES), w = median (wall, FRAMES);

  g_print ("%-44s cpu median %7.3f ms  wall median %7.3f ms  max %7.3f ms  goal %.0f ms: %s\n",
           what, c, w, wall[FRAMES - 1], goal, c < goal ? "met" : "NOT met");
}

int
main (int argc, char **argv)
{
  guint n_ranks = argc > 1 ? (guint) atoi (argv[1]) : 1024;
  guint n_windows = argc > 2 ? (guint) atoi (argv[2]) : 4096;
  int width = argc > 3 ? atoi (argv[3]) : 1600;
  int height = argc > 4 ? atoi (argv[4]) : 900;
  gint64 start = g_get_monotonic_time ();
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (n_ranks, n_windows,
                                                            (int) n_ranks * 2 / 3,
                                                            (int) n_ranks / 3, TRUE);
  double duration = n_windows * HEAT_MAP_FIXTURE_WINDOW;
  g_autofree guint *processes = g_new (guint, n_ranks);
  const double zooms[] = { 1.0, 0.25, 0.01 };
  const MgHeatSort sorts[] = { MG_HEAT_SORT_PROCESS, MG_HEAT_SORT_MAX };
  double cpu[FRAMES], wall[FRAMES];

  g_autoptr (MgHeatSource) source = NULL;

  for (guint i = 0; i < n_ranks; i++)
    processes[i] = i;
  g_print ("profile %u ranks x %u windows built in %.0f ms; pictures %d x %d px\n", n_ranks,
           n_windows, (g_get_monotonic_time () - start) / 1000.0, width, height);
  start = g_get_monotonic_time ();
  source = mg_heat_source_new (profile, 0, processes, n_ranks, NULL, NULL);
  g_print ("%-44s %7.3f ms (once per metric)\n", "series copied (from memory)",
           (g_get_monotonic_time () - start) / 1000.0);
  {
    /* The same from a saved file: every process's block decoded once. */
    g_autofree char *dir = g_dir_make_tmp ("mg-heat-bench-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "ranks.mgprof", NULL);
    g_autoptr (MgProfile) loaded = NULL;
    MgHeatSource *from_file;

    if (mg_profile_save (profile, path, NULL) && (loaded = mg_profile_load (path, NULL)) != NULL)
      {
        double c = cpu_ms ();

        start = g_get_monotonic_time ();
        from_file = mg_heat_source_new (loaded, 0, processes, n_ranks, NULL, NULL);
        g_print ("%-44s %7.3f ms wall, %7.3f ms cpu (once per metric)\n",
                 "series copied (from a saved file)", (g_get_monotonic_time () - start) / 1000.0,
                 cpu_ms () - c);
        mg_heat_source_free (from_file);
      }
    g_unlink (path);
    g_rmdir (dir);
  }

  for (guint s = 0; s < G_N_ELEMENTS (sorts); s++)
    for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
      {
        double span = duration * zooms[z];
        g_autofree char *what = NULL;
        cairo_surface_t *kept = NULL;
        cairo_surface_t *target = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

        for (guint f = 0; f < FRAMES; f++)
          {
            double t0 = (duration - span) * f / (FRAMES - 1);
            gint64 w = g_get_monotonic_time ();
            double c = cpu_ms ();
            MgHeatMap *map = mg_heat_map_new (source, t0, t0 + span,
                                              (guint) width, t0, t0 + span, sorts[s]);
            cairo_surface_t *picture = mg_heat_map_render (map, height);

            cpu[f] = cpu_ms () - c;
            wall[f] = (g_get_monotonic_time () - w) / 1000.0;
            mg_heat_map_free (map);
            if (kept != NULL)
              cairo_surface_destroy (kept);
            kept = picture;
          }
        what = g_strdup_printf ("picture, %s, %g of the run", sorts[s] == MG_HEAT_SORT_MAX
                                ? "by max" : "rank order", zooms[z]);
        report (what, cpu, wall, GOAL_PICTURE_MS);

        /* A redraw: the kept picture painted as the widget does. */
        for (guint f = 0; f < FRAMES; f++)
          {
            gint64 w = g_get_monotonic_time ();
            double c = cpu_ms ();
            cairo_t *cr = cairo_create (target);

            cairo_set_source_surface (cr, kept, 0, 0);
            cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
            cairo_paint (cr);
            cairo_destroy (cr);
            cpu[f] = cpu_ms () - c;
            wall[f] = (g_get_monotonic_time () - w) / 1000.0;
          }
        g_clear_pointer (&what, g_free);
        what = g_strdup_printf ("redraw from the kept picture, %g", zooms[z]);
        report (what, cpu, wall, GOAL_REDRAW_MS);

        /* A selection dragged over a tenth of the range: the kept cells
         * re-sorted by it and drawn anew. */
        {
          MgHeatMap *map = mg_heat_map_new (source, 0, span,
                                            (guint) width, 0, span, sorts[s]);

          for (guint f = 0; f < FRAMES; f++)
            {
              double f0 = span * 0.9 * f / (FRAMES - 1);
              gint64 w = g_get_monotonic_time ();
              double c = cpu_ms ();
              cairo_surface_t *picture;

              mg_heat_map_set_figures_range (map, source, f0, f0 + span / 10);
              picture = mg_heat_map_render (map, height);
              cpu[f] = cpu_ms () - c;
              wall[f] = (g_get_monotonic_time () - w) / 1000.0;
              cairo_surface_destroy (picture);
            }
          mg_heat_map_free (map);
          g_clear_pointer (&what, g_free);
          what = g_strdup_printf ("re-sorted for a selection, %g", zooms[z]);
          report (what, cpu, wall, GOAL_PICTURE_MS);
        }
        cairo_surface_destroy (kept);
        cairo_surface_destroy (target);
      }
  return 0;
}
