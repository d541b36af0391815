/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Level of detail and selection figures on crafted series. */
#include <math.h>

#include "graph-fixture.h"
#include "plot/mg-lod.h"
#include "plot/mg-selection-stats.h"

/* Eight windows of one second each; windows 4 and 5 are a gap. */
static const double starts[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static const double ends[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static const double mins[] = { 1, 2, 0, 5, NAN, NAN, 3, 4 };
static const double maxs[] = { 3, 6, 4, 9, NAN, NAN, 7, 4 };
static const double means[] = { 2, 4, 2, 7, NAN, NAN, 5, 4 };
static const double vars[] = { 1, 4, 1, 0, NAN, NAN, 9, 0 };
static const gint32 min_proc[] = { 0, 1, 2, 3, -1, -1, 1, 0 };
static const gint32 max_proc[] = { 3, 2, 1, 0, -1, -1, 2, 0 };

static MgSeriesView
crafted (void)
{
  return (MgSeriesView) {
    .n = G_N_ELEMENTS (ends),
    .starts = starts,
    .ends = ends,
    .mins = mins,
    .maxs = maxs,
    .means = means,
    .vars = vars,
    .min_process = min_proc,
    .max_process = max_proc,
    .process = -1,
  };
}

static void
test_two_windows_per_column (void)
{
  MgSeriesView series = crafted ();
  g_autoptr (MgLod) lod = mg_lod_new (4);

  mg_lod_compute (lod, &series, 0, 8);
  /* Column 0 = windows 0-1: min of mins, max of maxs, time-weighted mean,
   * sqrt of the mean variance. */
  g_assert_cmpfloat (lod->mins[0], ==, 1);
  g_assert_cmpfloat (lod->maxs[0], ==, 6);
  g_assert_cmpfloat_with_epsilon (lod->means[0], 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (lod->stddevs[0], sqrt (2.5), 1e-12);
  g_assert_cmpfloat (lod->mins[1], ==, 0);
  g_assert_cmpfloat (lod->maxs[1], ==, 9);
  g_assert_cmpfloat_with_epsilon (lod->means[1], 4.5, 1e-12);
  /* Windows 4-5 are both gaps: a gap column. */
  g_assert_true (mg_lod_is_gap (lod, 2));
  g_assert_true (isnan (lod->mins[2]) && isnan (lod->maxs[2]));
  g_assert_false (mg_lod_is_gap (lod, 3));
  g_assert_cmpfloat (lod->mins[3], ==, 3);
  g_assert_cmpfloat (lod->maxs[3], ==, 7);
  g_assert_cmpfloat_with_epsilon (lod->means[3], 4.5, 1e-12);
  g_assert_cmpfloat (lod->data_min, ==, 0);
  g_assert_cmpfloat (lod->data_max, ==, 9);
}

static void
test_columns_narrower_than_windows (void)
{
  MgSeriesView series = crafted ();
  g_autoptr (MgLod) lod = mg_lod_new (8);

  /* Forced columns: [3.5, 5.5) over 8 columns of 0.25 s: window 3 fills
   * the first two columns, then six gap columns. */
  mg_lod_compute_columns (lod, &series, 3.5, 5.5);
  g_assert_false (lod->by_window);
  g_assert_cmpuint (lod->n_points, ==, 8);
  g_assert_cmpfloat (lod->means[0], ==, 7);
  g_assert_cmpfloat (lod->means[1], ==, 7);
  for (guint c = 2; c < 8; c++)
    g_assert_true (mg_lod_is_gap (lod, c));
  g_assert_cmpfloat (lod->data_min, ==, 5);
  g_assert_cmpfloat (lod->data_max, ==, 9);
}

static void
test_zoomed_in_uses_windows (void)
{
  MgSeriesView series = crafted ();
  g_autoptr (MgLod) lod = mg_lod_new (8);

  /* Three windows (3, 4, 5) in range over 8 pixels: the points are the
   * windows, with a neighbour on each side (2 and 6). */
  mg_lod_compute (lod, &series, 3.5, 5.5);
  g_assert_true (lod->by_window);
  g_assert_cmpuint (lod->n_points, ==, 5);
  g_assert_cmpfloat (lod->times[0], ==, 2.5);
  g_assert_cmpfloat (lod->means[0], ==, 2);
  g_assert_cmpfloat (lod->times[1], ==, 3.5);
  g_assert_cmpfloat (lod->starts[1], ==, 3);
  g_assert_cmpfloat (lod->ends[1], ==, 4);
  g_assert_cmpfloat (lod->mins[1], ==, 5);
  g_assert_cmpfloat (lod->maxs[1], ==, 9);
  g_assert_cmpfloat (lod->stddevs[1], ==, 0);
  g_assert_true (mg_lod_is_gap (lod, 2));
  g_assert_true (mg_lod_is_gap (lod, 3));
  g_assert_cmpfloat (lod->means[4], ==, 5);
  /* The neighbour outside the range does not count for the extent. */
  g_assert_cmpfloat (lod->data_min, ==, 5);
  g_assert_cmpfloat (lod->data_max, ==, 9);

  /* Whole run over 100 pixels: 8 windows, no neighbours. */
  mg_lod_compute (lod, &series, 0, 8);
  g_assert_cmpuint (lod->n_columns, ==, 8);
  mg_lod_set_n_columns (lod, 100);
  mg_lod_compute (lod, &series, 0, 8);
  g_assert_true (lod->by_window);
  g_assert_cmpuint (lod->n_points, ==, 8);
  g_assert_cmpfloat (lod->stddevs[6], ==, 3);
}

static void
test_partial_overlap_weights (void)
{
  MgSeriesView series = crafted ();
  g_autoptr (MgLod) lod = mg_lod_new (1);

  /* One column over [0.5, 2): half of window 0 (mean 2), all of window 1
   * (mean 4): (2 * 0.5 + 4 * 1) / 1.5. */
  mg_lod_compute (lod, &series, 0.5, 2);
  g_assert_cmpfloat_with_epsilon (lod->means[0], 5.0 / 1.5, 1e-12);
  /* Resizing reuses the arrays. */
  mg_lod_set_n_columns (lod, 16);
  mg_lod_compute_columns (lod, &series, 0, 8);
  g_assert_cmpuint (lod->n_columns, ==, 16);
  g_assert_cmpfloat (lod->means[15], ==, 4);
  g_assert_true (mg_lod_is_gap (lod, 9));
}

/* The columns as the definition gives them, the slow way: every window
 * against every column. A window counts in a column it overlaps by more
 * than nothing (one ending on a column's edge does not reach into the
 * next); an instantaneous one in the column it is in. */
static void
reference_column (const MgSeriesView *series, const MgLod *lod, guint c, double *lo, double *hi,
                  double *mean, double *sd)
{
  double dt = (lod->t1 - lod->t0) / lod->n_columns;
  double w_sum = 0, m_sum = 0, v_sum = 0;

  *lo = INFINITY;
  *hi = -INFINITY;
  for (guint i = 0; i < series->n; i++)
    {
      double s = MAX (mg_series_view_window_start (series, i), lod->t0);
      double e = MIN (series->ends[i], lod->t1);
      double overlap = MIN (e, lod->ends[c]) - MAX (s, lod->starts[c]);
      gboolean in = s == e ? s >= lod->starts[c] && (s < lod->ends[c] || c + 1 == lod->n_columns)
                           : overlap > 0;
      double w = MAX (overlap, dt * 1e-9);

      if (!in || isnan (series->means[i]) || s > e)
        continue;
      *lo = MIN (*lo, isnan (series->mins[i]) ? series->means[i] : series->mins[i]);
      *hi = MAX (*hi, isnan (series->maxs[i]) ? series->means[i] : series->maxs[i]);
      m_sum += series->means[i] * w;
      v_sum += series->vars[i] * w;
      w_sum += w;
    }
  if (w_sum == 0)
    {
      *lo = *hi = *mean = *sd = NAN;
      return;
    }
  *mean = m_sum / w_sum;
  *sd = sqrt (v_sum / w_sum);
}

/* Uneven windows (some instantaneous, some ending exactly on column edges,
 * holes between them, gaps) against the reference, at several ranges. */
static void
test_columns_match_reference (void)
{
  enum { N = 400 };
  double w_starts[N], w_ends[N], w_mins[N], w_maxs[N], w_means[N], w_vars[N];
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (MgLod) lod = mg_lod_new (37);
  const double ranges[][2] = { { 0, 100 }, { 12.5, 40 }, { 33.3, 33.9 }, { -5, 120 } };
  /* 400 and 200 columns over 0–100 s put column edges on the quarter grid. */
  const guint widths[] = { 37, 200, 400, 401 };
  MgSeriesView series = { .n = N, .starts = w_starts, .ends = w_ends, .mins = w_mins,
                          .maxs = w_maxs, .means = w_means, .vars = w_vars, .process = -1 };
  double t = 0;
  guint checked = 0;

  for (guint i = 0; i < N; i++)
    {
      guint kind = g_rand_int_range (rand, 0, 6);

      /* A hole before some windows; lengths on a quarter grid or random. */
      if (kind == 0)
        t += 0.25;
      w_starts[i] = t;
      t += kind == 1 ? 0 : kind == 2 ? g_rand_double_range (rand, 0.01, 0.6)
                                     : 0.25 * g_rand_int_range (rand, 1, 3);
      w_ends[i] = t;
      w_means[i] = kind == 3 && g_rand_boolean (rand) ? NAN : g_rand_double_range (rand, -5, 5);
      w_mins[i] = kind == 4 ? NAN : w_means[i] - g_rand_double_range (rand, 0, 3);
      w_maxs[i] = kind == 5 ? NAN : w_means[i] + g_rand_double_range (rand, 0, 3);
      w_vars[i] = g_rand_double_range (rand, 0, 2);
    }

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
      {
        guint n_columns = widths[k];

        mg_lod_set_n_columns (lod, n_columns);
        mg_lod_compute_columns (lod, &series, ranges[r][0], ranges[r][1]);
        g_assert_cmpuint (lod->n_points, ==, n_columns);
        for (guint c = 0; c < n_columns; c++)
          {
            double lo, hi, mean, sd;

            reference_column (&series, lod, c, &lo, &hi, &mean, &sd);
            if (isnan (mean))
              {
                g_assert_true (mg_lod_is_gap (lod, c));
                continue;
              }
            g_assert_false (mg_lod_is_gap (lod, c));
            g_assert_cmpfloat (lod->mins[c], ==, lo);
            g_assert_cmpfloat (lod->maxs[c], ==, hi);
            g_assert_cmpfloat_with_epsilon (lod->means[c], mean, 1e-9);
            g_assert_cmpfloat_with_epsilon (lod->stddevs[c], sd, 1e-9);
            checked++;
          }
      }
  g_assert_cmpuint (checked, >, 1000);
}

static void
test_all_gaps (void)
{
  MgSeriesView series = crafted ();
  g_autoptr (MgLod) lod = mg_lod_new (10);

  mg_lod_compute_columns (lod, &series, 4.1, 5.9);
  for (guint c = 0; c < 10; c++)
    g_assert_true (mg_lod_is_gap (lod, c));
  g_assert_true (isnan (lod->data_min));
  /* By window: the neighbours have values, but nothing visible does. */
  mg_lod_compute (lod, &series, 4.1, 5.9);
  g_assert_true (lod->by_window);
  g_assert_cmpuint (lod->n_points, ==, 4);
  g_assert_false (mg_lod_is_gap (lod, 0));
  g_assert_true (mg_lod_is_gap (lod, 1) && mg_lod_is_gap (lod, 2));
  g_assert_true (isnan (lod->data_min) && isnan (lod->data_max));
}

static void
test_implicit_starts (void)
{
  /* A process's own series: only window ends, no variance. */
  static const double times[] = { 2, 4, 6 };
  static const double values[] = { 10, 20, 30 };
  MgSeriesView series = {
    .n = 3, .ends = times, .first_start = 1, .mins = values, .maxs = values,
    .means = values, .process = 2,
  };
  g_autoptr (MgLod) lod = mg_lod_new (6);
  MgSelectionStats stats;

  mg_lod_compute_columns (lod, &series, 0, 6);
  g_assert_true (mg_lod_is_gap (lod, 0)); /* before the process started */
  g_assert_cmpfloat (lod->means[1], ==, 10);
  g_assert_cmpfloat (lod->means[2], ==, 20);
  g_assert_cmpfloat (lod->stddevs[2], ==, 0);
  g_assert_cmpint (mg_series_view_window_at (&series, 0.5), ==, -1);
  g_assert_cmpint (mg_series_view_window_at (&series, 3), ==, 1);

  g_assert_true (mg_selection_stats_compute (&series, 0, 6, &stats));
  g_assert_cmpfloat (stats.min, ==, 10);
  g_assert_cmpfloat (stats.max, ==, 30);
  g_assert_cmpint (stats.min_process, ==, 2);
  g_assert_cmpint (stats.max_process, ==, 2);
  /* (10*1 + 20*2 + 30*2) / 5 */
  g_assert_cmpfloat_with_epsilon (stats.mean, 22, 1e-12);
}

static void
test_stats_whole_run (void)
{
  MgSeriesView series = crafted ();
  MgSelectionStats stats;

  g_assert_true (mg_selection_stats_compute (&series, 0, 8, &stats));
  g_assert_cmpfloat (stats.min, ==, 0);
  g_assert_cmpint (stats.min_process, ==, 2);
  g_assert_cmpfloat (stats.max, ==, 9);
  g_assert_cmpint (stats.max_process, ==, 0);
  /* Gap windows do not count: (2+4+2+7+5+4) / 6 */
  g_assert_cmpfloat_with_epsilon (stats.mean, 24.0 / 6, 1e-12);
  g_assert_cmpuint (stats.n_windows, ==, 6);
}

static void
test_stats_selection (void)
{
  MgSeriesView series = crafted ();
  MgSelectionStats stats;

  /* [1.5, 3.25]: half of window 1, all of 2, a quarter of 3. */
  g_assert_true (mg_selection_stats_compute (&series, 3.25, 1.5, &stats));
  g_assert_cmpfloat (stats.min, ==, 0);
  g_assert_cmpint (stats.min_process, ==, 2);
  g_assert_cmpfloat (stats.max, ==, 9);
  g_assert_cmpint (stats.max_process, ==, 0);
  g_assert_cmpfloat_with_epsilon (stats.mean, (4 * 0.5 + 2 * 1 + 7 * 0.25) / 1.75, 1e-12);
  g_assert_cmpuint (stats.n_windows, ==, 3);

  /* Inside the gap: no figures. */
  g_assert_false (mg_selection_stats_compute (&series, 4.2, 5.8, &stats));
  g_assert_true (isnan (stats.min) && isnan (stats.mean) && isnan (stats.max));
  g_assert_cmpint (stats.min_process, ==, -1);

  /* At one point in time. */
  g_assert_true (mg_selection_stats_at (&series, 6.5, &stats));
  g_assert_cmpfloat (stats.min, ==, 3);
  g_assert_cmpfloat (stats.mean, ==, 5);
  g_assert_cmpfloat (stats.max, ==, 7);
  g_assert_cmpint (stats.min_process, ==, 1);
  g_assert_cmpint (stats.max_process, ==, 2);
  g_assert_false (mg_selection_stats_at (&series, 4.5, &stats));
  g_assert_false (mg_selection_stats_at (&series, 9, &stats));
}

/* Windows of one constant value, with edges that split the columns and the
 * selection unevenly: the mean is that value exactly, the spread 0. */
static void
test_constant_exact (void)
{
  static const double c_starts[] = { 0.0, 0.013, 0.29, 0.7071, 1.1, 1.4142, 1.9, 2.2, 2.71 };
  static const double c_ends[] = { 0.013, 0.29, 0.7071, 1.1, 1.4142, 1.9, 2.2, 2.71, 3.0 };
  static const double c_vals[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
  static const double c_vars[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  MgSeriesView series = { .n = G_N_ELEMENTS (c_ends), .starts = c_starts, .ends = c_ends,
                          .mins = c_vals, .maxs = c_vals, .means = c_vals, .vars = c_vars,
                          .process = 0 };
  MgSelectionStats stats;

  for (guint n_columns = 2; n_columns < 40; n_columns += 3)
    {
      g_autoptr (MgLod) lod = mg_lod_new (n_columns);

      mg_lod_compute_columns (lod, &series, 0.0017, 2.93);
      for (guint c = 0; c < n_columns; c++)
        {
          g_assert_cmpfloat (lod->means[c], ==, 0.1);
          g_assert_cmpfloat (lod->stddevs[c], ==, 0.0);
        }
    }
  for (double t0 = 0.0; t0 < 1.5; t0 += 0.0937)
    {
      g_assert_true (mg_selection_stats_compute (&series, t0, 3.0 - t0 / 3, &stats));
      g_assert_cmpfloat (stats.mean, ==, 0.1);
      g_assert_cmpfloat (stats.min, ==, 0.1);
      g_assert_cmpfloat (stats.max, ==, 0.1);
    }
}

static void
test_extent (void)
{
  MgSeriesView series = crafted ();
  double lo, hi;

  g_assert_true (mg_series_view_get_extent (&series, &lo, &hi));
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 9);
  g_assert_cmpuint (mg_series_view_find (&series, 0), ==, 0);
  g_assert_cmpuint (mg_series_view_find (&series, 1), ==, 1);
  g_assert_cmpuint (mg_series_view_find (&series, 7.5), ==, 7);
  g_assert_cmpuint (mg_series_view_find (&series, 8), ==, 8);
}

/* On a real profile: the figures match the aggregate arrays, and one
 * process's own series gives that process as holder of min and max. */
static void
test_stats_profile (void)
{
  g_autoptr (MgProfile) profile = graph_fixture_profile (4, 4, 100, 10, TRUE);
  const MgSeries *agg = mg_profile_get_series (profile, 2);
  MgSeriesView series;
  MgSelectionStats stats;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  int lo_p = -1, hi_p = -1;
  guint n = 0;

  g_assert_true (mg_series_view_init (&series, profile, 2, -1));
  g_assert_cmpuint (series.n, ==, 100);
  /* Whole run: equal windows, so the time-weighted mean is the plain mean
   * of the windows with a value. */
  for (guint i = 0; i < series.n; i++)
    {
      if (isnan (agg->means[i]))
        continue;
      if (agg->mins[i] < lo)
        lo = agg->mins[i], lo_p = agg->min_process[i];
      if (agg->maxs[i] > hi)
        hi = agg->maxs[i], hi_p = agg->max_process[i];
      sum += agg->means[i];
      n++;
    }
  g_assert_cmpuint (n, ==, 90); /* the gap is [4, 5) s: 10 windows */
  g_assert_true (mg_selection_stats_compute (&series, 0, 10, &stats));
  g_assert_cmpfloat (stats.min, ==, lo);
  g_assert_cmpfloat (stats.max, ==, hi);
  g_assert_cmpint (stats.min_process, ==, lo_p);
  g_assert_cmpint (stats.max_process, ==, hi_p);
  g_assert_cmpfloat_with_epsilon (stats.mean, sum / n, 1e-9 * fabs (sum / n));
  g_assert_false (mg_selection_stats_compute (&series, 4.05, 4.95, &stats));

  /* Process 2's own series. */
  g_assert_true (mg_series_view_init (&series, profile, 2, 2));
  g_assert_true (mg_selection_stats_compute (&series, 0, 10, &stats));
  g_assert_cmpint (stats.min_process, ==, 2);
  g_assert_cmpint (stats.max_process, ==, 2);
  g_assert_cmpfloat (stats.min, >=, lo);
  g_assert_cmpfloat (stats.max, <=, hi);
  /* A process that does not exist, a metric that does not exist. */
  g_assert_false (mg_series_view_init (&series, profile, 2, 9));
  g_assert_cmpuint (series.n, ==, 0);
  g_assert_false (mg_series_view_init (&series, profile, 17, -1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lod/two-windows-per-column", test_two_windows_per_column);
  g_test_add_func ("/lod/columns-narrower-than-windows", test_columns_narrower_than_windows);
  g_test_add_func ("/lod/zoomed-in-uses-windows", test_zoomed_in_uses_windows);
  g_test_add_func ("/lod/partial-overlap-weights", test_partial_overlap_weights);
  g_test_add_func ("/lod/columns-match-reference", test_columns_match_reference);
  g_test_add_func ("/lod/all-gaps", test_all_gaps);
  g_test_add_func ("/lod/implicit-starts", test_implicit_starts);
  g_test_add_func ("/stats/whole-run", test_stats_whole_run);
  g_test_add_func ("/stats/selection", test_stats_selection);
  g_test_add_func ("/series/extent", test_extent);
  g_test_add_func ("/plot/lod/constant-exact", test_constant_exact);
  g_test_add_func ("/stats/profile", test_stats_profile);
  return g_test_run ();
}
