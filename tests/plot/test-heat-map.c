/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's grid and picture (mg-heat-map.h) from profiles of
 * known values: a spike of one rank among 64 (and 1024), a rank idle for a
 * while, a gap, windows finer and coarser than the columns. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "plot/mg-heat-map.h"
#include "heat-map-fixture.h"

#define N_WINDOWS 100
#define WINDOW HEAT_MAP_FIXTURE_WINDOW

typedef struct {
  guint n_ranks;
  int spike_rank;
  int idle_rank;
  gboolean with_gap;
} Shape;

static MgProfile *
shape_profile (const Shape *shape)
{
  return heat_map_fixture_profile (shape->n_ranks, N_WINDOWS, shape->spike_rank,
                                   shape->idle_rank, shape->with_gap);
}

static guint *
all_processes (guint n)
{
  guint *processes = g_new (guint, n);

  for (guint i = 0; i < n; i++)
    processes[i] = i;
  return processes;
}

/* Metric 0 of every process. */
static MgHeatSource *
source_of (MgProfile *profile)
{
  guint n = mg_profile_get_n_processes (profile);
  g_autofree guint *processes = all_processes (n);
  g_autoptr (GError) error = NULL;
  MgHeatSource *source = mg_heat_source_new (profile, 0, processes, n, NULL, &error);

  g_assert_no_error (error);
  return source;
}

static MgHeatMap *
whole_run (MgProfile *profile, guint n_columns, MgHeatSort sort)
{
  g_autoptr (MgHeatSource) source = source_of (profile);
  double d = N_WINDOWS * WINDOW;

  return mg_heat_map_new (source, 0, d, n_columns, 0, d, sort);
}

static guint32
pixel_at (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);

  return *(const guint32 *) (data + (gsize) y * cairo_image_surface_get_stride (surface) + x * 4);
}

static guint32
ramp_pixel (double fraction)
{
  guint8 rgb[3];

  mg_heat_map_colour (fraction, rgb);
  return 0xff000000u | (guint32) rgb[0] << 16 | (guint32) rgb[1] << 8 | rgb[2];
}

/* Rank 37 of 64 spikes at 0.50-0.51 s: its cell there is the top of the
 * scale, drawn in the hot colour; sorted by max it comes first, and the
 * rest keep their rank order behind it (ties by order). */
static void
test_spike_64 (void)
{
  Shape shape = { 64, 37, -1, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) by_rank = whole_run (profile, N_WINDOWS, MG_HEAT_SORT_PROCESS);
  g_autoptr (MgHeatMap) by_max = whole_run (profile, N_WINDOWS, MG_HEAT_SORT_MAX);
  cairo_surface_t *picture;

  g_assert_cmpuint (by_rank->n_rows, ==, 64);
  g_assert_cmpuint (by_rank->processes[37], ==, 37);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (by_rank, 37, 50), 90, 1e-6);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (by_rank, 37, 49), 10.37, 1e-5);
  g_assert_cmpfloat_with_epsilon (by_rank->lo, 10, 1e-6);
  g_assert_cmpfloat_with_epsilon (by_rank->hi, 90, 1e-6);
  g_assert_cmpfloat (mg_heat_map_fraction (by_rank, 90), ==, 1);

  /* One pixel per cell and 4 pixel rows per rank. */
  picture = mg_heat_map_render (by_rank, 256);
  g_assert_cmpint (cairo_image_surface_get_width (picture), ==, N_WINDOWS);
  g_assert_cmphex (pixel_at (picture, 50, 37 * 4), ==, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 50, 37 * 4 + 3), ==, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 50, 36 * 4 + 3), !=, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 49, 37 * 4), !=, 0xff000000u | MG_HEAT_HOT);
  /* Rank 0 at 10 is the cold end. */
  g_assert_cmphex (pixel_at (picture, 10, 0), ==, 0xff000000u | MG_HEAT_COLD);
  cairo_surface_destroy (picture);

  /* The figures' bars: rank 37's (first by max) full and hot, the others
   * short. */
  picture = mg_heat_map_render_figures (by_max, 40, 64);
  g_assert_cmpint (mg_heat_map_extreme_row (by_max), ==, 0);
  g_assert_cmpfloat (mg_heat_map_row_figure (by_max, 0), ==, 90);
  g_assert_cmphex (pixel_at (picture, 39, 0), ==, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 0, 1), !=, 0);
  g_assert_cmphex (pixel_at (picture, 6, 1), ==, 0);
  cairo_surface_destroy (picture);

  g_assert_cmpuint (by_max->processes[0], ==, 37);
  g_assert_cmpfloat_with_epsilon (by_max->row_maxs[0], 90, 1e-9);
  g_assert_cmpuint (by_max->processes[1], ==, 63);
  g_assert_cmpuint (by_max->processes[63], ==, 0);
  g_assert_cmpint (mg_heat_map_row_of_process (by_max, 37), ==, 0);
  picture = mg_heat_map_render (by_max, 64);
  g_assert_cmphex (pixel_at (picture, 50, 0), ==, 0xff000000u | MG_HEAT_HOT);
  cairo_surface_destroy (picture);
}

/* Sorted by mean and by min: the idle rank (1 for a tenth of the run) has
 * the lowest min and comes first by min, last by mean (mean 9.1...). */
static void
test_sort_mean_min (void)
{
  Shape shape = { 64, -1, 5, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) by_min = whole_run (profile, 50, MG_HEAT_SORT_MIN);
  g_autoptr (MgHeatMap) by_mean = whole_run (profile, 50, MG_HEAT_SORT_MEAN);
  cairo_surface_t *picture;

  g_assert_cmpint (mg_heat_map_extreme_row (by_min), ==, 0);
  g_assert_cmpint (mg_heat_map_extreme_row (by_mean), ==, 0);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_row_figure (by_mean, 0), 10.63, 1e-9);
  g_assert_cmpuint (by_min->processes[0], ==, 5);
  g_assert_cmpfloat_with_epsilon (by_min->row_mins[0], 1, 1e-9);
  g_assert_cmpuint (by_min->processes[1], ==, 0);
  g_assert_cmpuint (by_mean->processes[0], ==, 63);
  g_assert_cmpuint (by_mean->processes[63], ==, 5);
  g_assert_cmpfloat_with_epsilon (by_mean->row_means[63], 0.9 * 10.05 + 0.1 * 1, 1e-9);
  /* Sorted by min, the cells hold mins and the idle cell is the cold end. */
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (by_min, 0, 12), 1, 1e-6);
  picture = mg_heat_map_render (by_min, 64);
  g_assert_cmphex (pixel_at (picture, 12, 0), ==, 0xff000000u | MG_HEAT_COLD);
  cairo_surface_destroy (picture);
}

/* Two windows a column: the mean weighs both (rank 37's column 25 holds
 * windows 50 and 51: (90 + 10.37) / 2); by max the spike stays whole. */
static void
test_columns_wider_than_windows (void)
{
  Shape shape = { 64, 37, -1, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) mean = whole_run (profile, 50, MG_HEAT_SORT_PROCESS);
  g_autoptr (MgHeatMap) max = whole_run (profile, 50, MG_HEAT_SORT_MAX);

  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (mean, 37, 25), (90 + 10.37) / 2, 1e-5);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (max, 0, 25), 90, 1e-6);
}

/* Zoomed in on [0.495, 0.515] with 200 columns: the spike's window
 * (0.50-0.51) fills columns 50-149, the figures describe a selection
 * [0.2, 0.3] where only the idle rank differs. */
static void
test_zoomed_range (void)
{
  Shape shape = { 8, 3, 6, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatSource) source = source_of (profile);
  g_autoptr (MgHeatMap) map = mg_heat_map_new (source, 0.495, 0.515, 200,
                                               0.2, 0.3, MG_HEAT_SORT_MIN);
  int row = mg_heat_map_row_of_process (map, 3);

  g_assert_cmpuint (map->processes[0], ==, 6);
  g_assert_cmpfloat_with_epsilon (map->row_mins[0], 1, 1e-9);
  g_assert_cmpint (row, >=, 0);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, row, 49), 10.03, 1e-5);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, row, 50), 90, 1e-6);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, row, 149), 90, 1e-6);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, row, 150), 10.03, 1e-5);
  g_assert_cmpuint (mg_heat_map_column_at (map, 0.505), ==, 100);
}

/* A new figures' range re-sorts the kept cells as a new map would: by
 * min over [0.6, 0.7] rank order, over [0.2, 0.3] the idle rank first,
 * its cells moved with it. */
static void
test_figures_range (void)
{
  Shape shape = { 64, 37, 5, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatSource) source = source_of (profile);
  g_autoptr (MgHeatMap) map = mg_heat_map_new (source, 0, 1, 100, 0.6, 0.7,
                                               MG_HEAT_SORT_MIN);
  g_autoptr (MgHeatMap) fresh = mg_heat_map_new (source, 0, 1, 100, 0.2, 0.3,
                                                 MG_HEAT_SORT_MIN);

  /* Over [0.6, 0.7] rank order (all at their base value). */
  g_assert_cmpuint (map->processes[0], ==, 0);
  g_assert_cmpuint (map->processes[5], ==, 5);
  mg_heat_map_set_figures_range (map, source, 0.2, 0.3);
  g_assert_cmpfloat (map->f0, ==, 0.2);
  for (guint r = 0; r < 64; r++)
    {
      g_assert_cmpuint (map->processes[r], ==, fresh->processes[r]);
      g_assert_cmpfloat (map->row_mins[r], ==, fresh->row_mins[r]);
      for (guint c = 0; c < 100; c += 7)
        g_assert_cmpfloat (mg_heat_map_get (map, r, c), ==, mg_heat_map_get (fresh, r, c));
    }
  g_assert_cmpuint (map->processes[0], ==, 5);
  g_assert_cmpuint (map->processes[1], ==, 0);
  g_assert_cmpuint (map->processes[6], ==, 6);
  /* The idle rank's cells moved with it: 1 in its idle windows. */
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, 0, 25), 1, 1e-6);
}

/* 1024 ranks in 256 pixel rows: four ranks a pixel row, and the pixel row
 * of ranks 700-703 is hot at the spike's column (rank 702's), in rank
 * order: the extreme of the four, not the first. */
static void
test_spike_1024_rows_merged (void)
{
  Shape shape = { 1024, 702, -1, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) map = whole_run (profile, N_WINDOWS, MG_HEAT_SORT_PROCESS);
  cairo_surface_t *picture = mg_heat_map_render (map, 256);

  g_assert_cmpuint (mg_heat_map_row_at (map, 175, 256), ==, 700);
  g_assert_cmphex (pixel_at (picture, 50, 175), ==, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 50, 174), !=, 0xff000000u | MG_HEAT_HOT);
  g_assert_cmphex (pixel_at (picture, 51, 175), !=, 0xff000000u | MG_HEAT_HOT);
  cairo_surface_destroy (picture);
}

/* A grid large enough to be shared between threads (512 ranks × 1000
 * windows) holds the same values: every cell of rank r is 10 + r / 100
 * but rank 400's at the spike (window 500: column 150 of 300), and sorted
 * by max rank 400 comes first, then 511 down to 0. */
static void
test_threads_agree (void)
{
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (512, 1000, 400, -1, FALSE);
  g_autoptr (MgHeatSource) source = source_of (profile);
  g_autoptr (MgHeatMap) map = mg_heat_map_new (source, 0, 10, 300, 0, 10,
                                               MG_HEAT_SORT_MAX);

  g_assert_cmpuint (map->processes[0], ==, 400);
  for (guint r = 1; r < 512; r++)
    {
      guint rank = r <= 111 ? 512 - r : 511 - r;
      g_assert_cmpuint (map->processes[r], ==, rank);
      g_assert_cmpfloat_with_epsilon (map->row_maxs[r], 10 + rank / 100.0, 1e-9);
      for (guint c = 0; c < 300; c++)
        g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, r, c), 10 + rank / 100.0, 1e-5);
    }
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, 0, 150), 90, 1e-6);
  g_assert_cmpfloat_with_epsilon (mg_heat_map_get (map, 0, 149), 14, 1e-5);

  /* Its picture (300 × 1000 pixels, drawn in bands by threads): the spike
   * hot on the top lines, the bottom line (rank 0, the lowest) cold, every
   * line drawn. */
  {
    cairo_surface_t *picture = mg_heat_map_render (map, 1000);

    g_assert_cmphex (pixel_at (picture, 150, 0), ==, 0xff000000u | MG_HEAT_HOT);
    g_assert_cmphex (pixel_at (picture, 149, 0), !=, 0xff000000u | MG_HEAT_HOT);
    g_assert_cmphex (pixel_at (picture, 10, 999), ==, 0xff000000u | MG_HEAT_COLD);
    for (int y = 0; y < 1000; y++)
      g_assert_cmphex (pixel_at (picture, 299, y) >> 24, ==, 0xff);
    cairo_surface_destroy (picture);
  }
}

/* From a saved profile (its processes' series packed in the file, read
 * when asked for): the same grid as from memory, and the process the
 * graphs show stays decoded where it was. */
static void
test_from_file (void)
{
  Shape shape = { 64, 37, 5, FALSE };
  g_autoptr (MgProfile) built = shape_profile (&shape);
  g_autofree char *dir = g_dir_make_tmp ("mg-heat-map-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "ranks.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) loaded = NULL;
  g_autoptr (MgHeatMap) expected = whole_run (built, N_WINDOWS, MG_HEAT_SORT_MAX);
  g_autoptr (MgHeatMap) map = NULL;
  const MgProcessSeries *shown;
  const double *shown_means;

  g_assert_true (mg_profile_save (built, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  shown = mg_profile_get_process_series (loaded, 10, 0);
  shown_means = shown->means;
  map = whole_run (loaded, N_WINDOWS, MG_HEAT_SORT_MAX);
  g_assert_cmpuint (map->processes[0], ==, 37);
  for (guint r = 0; r < 64; r++)
    {
      g_assert_cmpuint (map->processes[r], ==, expected->processes[r]);
      for (guint c = 0; c < N_WINDOWS; c++)
        g_assert_cmpfloat (mg_heat_map_get (map, r, c), ==, mg_heat_map_get (expected, r, c));
    }
  g_assert_true (shown->means == shown_means);
  g_assert_cmpfloat_with_epsilon (shown->means[3], 10.1, 1e-9);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A gap is NaN and transparent; the scale ignores it. */
static void
test_gap (void)
{
  Shape shape = { 4, -1, -1, TRUE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) map = whole_run (profile, N_WINDOWS, MG_HEAT_SORT_PROCESS);
  cairo_surface_t *picture = mg_heat_map_render (map, 4);

  g_assert_true (isnan (mg_heat_map_get (map, 2, 82)));
  g_assert_cmphex (pixel_at (picture, 82, 2), ==, 0);
  g_assert_cmphex (pixel_at (picture, 79, 3), ==, ramp_pixel (1));
  g_assert_cmpfloat_with_epsilon (map->lo, 10, 1e-6);
  g_assert_cmpfloat_with_epsilon (map->hi, 10.03, 1e-5);
  cairo_surface_destroy (picture);
}

/* The ramp's ends and its middle, and a scale of one value. */
static void
test_ramp (void)
{
  Shape shape = { 1, -1, -1, FALSE };
  g_autoptr (MgProfile) profile = shape_profile (&shape);
  g_autoptr (MgHeatMap) map = whole_run (profile, 10, MG_HEAT_SORT_MEAN);
  guint8 rgb[3];

  mg_heat_map_colour (0, rgb);
  g_assert_cmphex ((guint32) rgb[0] << 16 | rgb[1] << 8 | rgb[2], ==, MG_HEAT_COLD);
  mg_heat_map_colour (2, rgb);
  g_assert_cmphex ((guint32) rgb[0] << 16 | rgb[1] << 8 | rgb[2], ==, MG_HEAT_HOT);
  mg_heat_map_colour (0.5, rgb);
  g_assert_cmphex ((guint32) rgb[0] << 16 | rgb[1] << 8 | rgb[2], ==, 0x21918c);
  g_assert_cmpuint (map->n_rows, ==, 1);
  g_assert_cmpfloat (mg_heat_map_fraction (map, 10), ==, 0.5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/heat-map/spike-64", test_spike_64);
  g_test_add_func ("/heat-map/sort-mean-min", test_sort_mean_min);
  g_test_add_func ("/heat-map/columns-wider-than-windows", test_columns_wider_than_windows);
  g_test_add_func ("/heat-map/zoomed-range", test_zoomed_range);
  g_test_add_func ("/heat-map/figures-range", test_figures_range);
  g_test_add_func ("/heat-map/spike-1024-rows-merged", test_spike_1024_rows_merged);
  g_test_add_func ("/heat-map/threads-agree", test_threads_agree);
  g_test_add_func ("/heat-map/from-file", test_from_file);
  g_test_add_func ("/heat-map/gap", test_gap);
  g_test_add_func ("/heat-map/ramp", test_ramp);
  return g_test_run ();
}
