/* Level of detail: per-pixel columns. */
#include "mg-lod.h"

#include <math.h>

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
  n_columns = MAX (n_columns, 1);
  if (n_columns > lod->capacity)
    {
      lod->mins = g_renew (double, lod->mins, n_columns);
      lod->maxs = g_renew (double, lod->maxs, n_columns);
      lod->means = g_renew (double, lod->means, n_columns);
      lod->stddevs = g_renew (double, lod->stddevs, n_columns);
      lod->weights = g_renew (double, lod->weights, n_columns);
      lod->capacity = n_columns;
    }
  lod->n_columns = n_columns;
}

static void
clear_columns (MgLod *lod)
{
  for (guint c = 0; c < lod->n_columns; c++)
    {
      lod->mins[c] = INFINITY;
      lod->maxs[c] = -INFINITY;
      lod->means[c] = 0;
      lod->stddevs[c] = 0;
      lod->weights[c] = 0;
    }
}

/* Accumulates one window [s, e] with its values into the columns it
 * overlaps; means and variances are summed weighted by overlap, then
 * divided once in finish_columns. */
static void
add_window (MgLod *lod, double s, double e, double wmin, double wmax, double wmean,
            double wvar)
{
  double dt = (lod->t1 - lod->t0) / lod->n_columns;
  double fc0 = (s - lod->t0) / dt;
  double fc1 = (e - lod->t0) / dt;
  guint c0, c1;

  fc0 = CLAMP (fc0, 0, lod->n_columns - 1);
  c0 = (guint) fc0;
  /* A window ending exactly on a column edge does not reach into it. */
  fc1 = ceil (fc1) - 1;
  fc1 = CLAMP (fc1, c0, lod->n_columns - 1);
  c1 = (guint) fc1;

  for (guint c = c0; c <= c1; c++)
    {
      double col_start = lod->t0 + c * dt;
      double overlap = MIN (e, col_start + dt) - MAX (s, col_start);
      /* Instantaneous windows still count, with a tiny weight. */
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
      lod->means[c] /= w;
      lod->stddevs[c] = sqrt (MAX (lod->stddevs[c] / w, 0));
      if (lod->mins[c] < lod->data_min)
        lod->data_min = lod->mins[c];
      if (lod->maxs[c] > lod->data_max)
        lod->data_max = lod->maxs[c];
    }
  if (!isfinite (lod->data_min))
    lod->data_min = lod->data_max = NAN;
}

void
mg_lod_compute (MgLod *lod, const MgSeriesView *series, double t0, double t1)
{
  lod->t0 = t0;
  lod->t1 = t1 > t0 ? t1 : t0 + 1e-9;
  clear_columns (lod);

  for (guint i = mg_series_view_find (series, lod->t0); i < series->n; i++)
    {
      double s = mg_series_view_window_start (series, i);
      double e = series->ends[i];
      double mean = series->means[i];
      double wmin = series->mins ? series->mins[i] : mean;
      double wmax = series->maxs ? series->maxs[i] : mean;
      double var = series->vars ? series->vars[i] : 0;

      if (s >= lod->t1)
        break;
      if (isnan (mean))
        continue;
      if (isnan (wmin))
        wmin = mean;
      if (isnan (wmax))
        wmax = mean;
      if (!isfinite (var))
        var = 0;
      add_window (lod, MAX (s, lod->t0), MIN (e, lod->t1), wmin, wmax, mean, var);
    }
  finish_columns (lod);
}

gboolean
mg_lod_is_gap (const MgLod *lod, guint column)
{
  return column >= lod->n_columns || isnan (lod->means[column]);
}

void
mg_lod_free (MgLod *lod)
{
  if (lod == NULL)
    return;
  g_free (lod->mins);
  g_free (lod->maxs);
  g_free (lod->means);
  g_free (lod->stddevs);
  g_free (lod->weights);
  g_free (lod);
}
