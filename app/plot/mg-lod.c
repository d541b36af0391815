/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Level of detail: per-pixel columns, or the windows when zoomed in. */
#include "mg-lod.h"

#include <math.h>

#include "format/mg-bounded-mean.h"

MgLod *
mg_lod_new (guint n_columns)
{
  MgLod *lod = g_new0 (MgLod, 1);

  mg_lod_set_n_columns (lod, n_columns);
  return lod;
}

void
mg_lod_set_n_columns (MgLod *lod, guint n_columns)
{
  /* Room for the two windows outside the range in window mode. */
  guint needed = MAX (n_columns, 1) + 2;

  if (needed > lod->capacity)
    {
      double **arrays[] = { &lod->times, &lod->starts, &lod->ends, &lod->mins, &lod->maxs,
                            &lod->means, &lod->stddevs, &lod->weights };
      for (guint i = 0; i < G_N_ELEMENTS (arrays); i++)
        *arrays[i] = g_renew (double, *arrays[i], needed);
      lod->capacity = needed;
    }
  lod->n_columns = MAX (n_columns, 1);
}

static void
set_range (MgLod *lod, double t0, double t1)
{
  lod->t0 = t0;
  lod->t1 = t1 > t0 ? t1 : t0 + 1e-9;
}

static void
clear_columns (MgLod *lod)
{
  double dt = (lod->t1 - lod->t0) / lod->n_columns;

  lod->by_window = FALSE;
  lod->n_points = lod->n_columns;
  for (guint c = 0; c < lod->n_columns; c++)
    {
      lod->starts[c] = lod->t0 + c * dt;
      lod->ends[c] = lod->t0 + (c + 1) * dt;
      lod->times[c] = lod->t0 + (c + 0.5) * dt;
      lod->mins[c] = INFINITY;
      lod->maxs[c] = -INFINITY;
      lod->means[c] = 0;
      lod->stddevs[c] = 0;
      lod->weights[c] = 0;
    }
}

/* The column holding time t, starting from column c: windows come in
 * order, so the last window's column is close (usually the same or the
 * next). Settled against the columns' own edges, so a window and its
 * columns agree exactly on which column a time falls in. */
static inline guint
column_from (const MgLod *lod, guint c, double t)
{
  while (c > 0 && t < lod->starts[c])
    c--;
  while (c + 1 < lod->n_columns && t >= lod->starts[c + 1])
    c++;
  return c;
}

/* Accumulates one window [s, e] (inside the range) into the columns it
 * overlaps, from column c0 (which holds s) on; means and variances are
 * summed weighted by overlap, then divided once in finish_columns. A window
 * ending exactly on a column edge does not reach into the next column; an
 * instantaneous one counts, with a tiny weight, in the column it is in. */
static inline void
add_window (MgLod *lod, double dt, guint c0, double s, double e, double wmin, double wmax,
            double wmean, double wvar)
{
  guint c1 = c0;

  while (c1 + 1 < lod->n_columns && e > lod->ends[c1])
    c1++;
  for (guint c = c0; c <= c1; c++)
    {
      double overlap = MIN (e, lod->ends[c]) - MAX (s, lod->starts[c]);
      double w = MAX (overlap, dt * 1e-9);

      if (wmin < lod->mins[c])
        lod->mins[c] = wmin;
      if (wmax > lod->maxs[c])
        lod->maxs[c] = wmax;
      lod->means[c] += wmean * w;
      lod->stddevs[c] += wvar * w;
      lod->weights[c] += w;
    }
}

static void
finish_columns (MgLod *lod)
{
  lod->data_min = INFINITY;
  lod->data_max = -INFINITY;
  for (guint c = 0; c < lod->n_columns; c++)
    {
      double w = lod->weights[c];

      if (w <= 0)
        {
          lod->mins[c] = lod->maxs[c] = lod->means[c] = lod->stddevs[c] = NAN;
          continue;
        }
      lod->means[c] = mg_bounded_mean (lod->means[c], w, lod->mins[c], lod->maxs[c]);
      lod->stddevs[c] = mg_bounded_stddev (lod->stddevs[c] / w, lod->mins[c], lod->maxs[c]);
      if (lod->mins[c] < lod->data_min)
        lod->data_min = lod->mins[c];
      if (lod->maxs[c] > lod->data_max)
        lod->data_max = lod->maxs[c];
    }
  if (!isfinite (lod->data_min))
    lod->data_min = lod->data_max = NAN;
}

/* Window i's values with the fallbacks: NaN mean = no value; a missing
 * min / max is the mean; no variance is 0. */
static inline gboolean
window_values (const MgSeriesView *series, guint i, double *wmin, double *wmax,
               double *mean, double *var)
{
  *mean = series->means[i];
  if (isnan (*mean))
    return FALSE;
  *wmin = series->mins ? series->mins[i] : *mean;
  *wmax = series->maxs ? series->maxs[i] : *mean;
  *var = series->vars ? series->vars[i] : 0;
  if (isnan (*wmin))
    *wmin = *mean;
  if (isnan (*wmax))
    *wmax = *mean;
  if (!isfinite (*var))
    *var = 0;
  return TRUE;
}

static void
compute_columns_from (MgLod *lod, const MgSeriesView *series, guint first)
{
  double dt = (lod->t1 - lod->t0) / lod->n_columns;
  guint c = 0;

  clear_columns (lod);
  for (guint i = first; i < series->n; i++)
    {
      /* mg_series_view_window_start, inline: this loop runs for every
       * window in view on every frame. */
      double s = series->starts != NULL ? series->starts[i]
                 : i == 0              ? series->first_start
                                       : series->ends[i - 1];
      double e = series->ends[i];
      double wmin, wmax, mean, var;

      if (s >= lod->t1)
        break;
      if (!window_values (series, i, &wmin, &wmax, &mean, &var))
        continue;
      s = MAX (s, lod->t0);
      c = column_from (lod, c, s);
      add_window (lod, dt, c, s, MIN (e, lod->t1), wmin, wmax, mean, var);
    }
  finish_columns (lod);
}

void
mg_lod_compute_columns (MgLod *lod, const MgSeriesView *series, double t0, double t1)
{
  set_range (lod, t0, t1);
  compute_columns_from (lod, series, mg_series_view_find (series, lod->t0));
}

/* Zoomed in: one point per window in [first, last), plus a neighbour on
 * each side so lines reach the edges of the view. */
static void
compute_windows (MgLod *lod, const MgSeriesView *series, guint first, guint last)
{
  guint from = first > 0 ? first - 1 : 0;
  guint to = MIN (last + 1, series->n);
  guint k = 0;

  lod->by_window = TRUE;
  lod->data_min = INFINITY;
  lod->data_max = -INFINITY;
  for (guint i = from; i < to; i++, k++)
    {
      double wmin, wmax, mean, var;

      lod->starts[k] = mg_series_view_window_start (series, i);
      lod->ends[k] = series->ends[i];
      lod->times[k] = (lod->starts[k] + lod->ends[k]) / 2;
      lod->weights[k] = lod->ends[k] - lod->starts[k];
      if (!window_values (series, i, &wmin, &wmax, &mean, &var))
        {
          lod->mins[k] = lod->maxs[k] = lod->means[k] = lod->stddevs[k] = NAN;
          continue;
        }
      lod->mins[k] = wmin;
      lod->maxs[k] = wmax;
      lod->means[k] = mean;
      lod->stddevs[k] = mg_bounded_stddev (var, wmin, wmax);
      if (i >= first && i < last)
        {
          lod->data_min = MIN (lod->data_min, wmin);
          lod->data_max = MAX (lod->data_max, wmax);
        }
    }
  lod->n_points = k;
  if (!isfinite (lod->data_min))
    lod->data_min = lod->data_max = NAN;
}

void
mg_lod_compute (MgLod *lod, const MgSeriesView *series, double t0, double t1)
{
  guint first, last;

  set_range (lod, t0, t1);
  first = mg_series_view_find (series, lod->t0);
  /* Windows in range: those starting before t1. */
  last = first;
  while (last < series->n && mg_series_view_window_start (series, last) < lod->t1
         && (last - first) * 2 <= lod->n_columns)
    last++;
  if ((last - first) * 2 <= lod->n_columns && last > first)
    compute_windows (lod, series, first, last);
  else
    compute_columns_from (lod, series, first);
}

gboolean
mg_lod_is_gap (const MgLod *lod, guint point)
{
  return point >= lod->n_points || isnan (lod->means[point]);
}

void
mg_lod_free (MgLod *lod)
{
  if (lod == NULL)
    return;
  g_free (lod->times);
  g_free (lod->starts);
  g_free (lod->ends);
  g_free (lod->mins);
  g_free (lod->maxs);
  g_free (lod->means);
  g_free (lod->stddevs);
  g_free (lod->weights);
  g_free (lod);
}
