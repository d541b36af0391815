/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>

#include "mg-export-selection.h"

struct _MgExportSeries {
  guint n;
  double *starts;
  double *ends;
  guint n_metrics;
  MgSeries *series;          /* n_metrics; mins NULL: no series */
  double *values;            /* the rows the series point into */
};

gboolean
mg_export_selection_has_window (const MgExportSelection *selection, double start_s,
                                double end_s)
{
  return selection == NULL || (end_s > selection->start_s && start_s < selection->end_s);
}

gboolean
mg_export_selection_has_process (const MgExportSelection *selection, guint process)
{
  return selection == NULL || selection->processes == NULL || selection->processes[process];
}

/* The kept window holding time t (start < t <= end), -1 if none. */
static int
window_of (const MgExportSeries *self, double t)
{
  guint lo = 0, hi = self->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->ends[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n && self->starts[lo] < t ? (int) lo : -1;
}

/* Per window: the process's samples there folded into its value, added
 * to the aggregate (mins, maxs, sums, counts; the means kept for the
 * variance). */
static void
add_process (const MgExportSeries *self, const MgProcessSeries *ps, double *mins, double *maxs,
             double *sums, guint *counts, double *pv)
{
  g_autofree double *psum = g_new0 (double, MAX (self->n, 1));
  g_autofree double *pmin = g_new (double, MAX (self->n, 1));
  g_autofree double *pmax = g_new (double, MAX (self->n, 1));
  g_autofree guint *pn = g_new0 (guint, MAX (self->n, 1));

  for (guint w = 0; w < self->n; w++)
    pmin[w] = INFINITY, pmax[w] = -INFINITY;
  for (guint i = 0; i < ps->n; i++)
    {
      int w = window_of (self, ps->times[i]);

      if (w < 0 || isnan (ps->means[i]))
        continue;
      psum[w] += ps->means[i];
      pn[w]++;
      pmin[w] = MIN (pmin[w], ps->mins[i]);
      pmax[w] = MAX (pmax[w], ps->maxs[i]);
    }
  for (guint w = 0; w < self->n; w++)
    {
      pv[w] = pn[w] > 0 ? psum[w] / pn[w] : NAN;
      if (pn[w] == 0)
        continue;
      counts[w]++;
      sums[w] += pv[w];
      mins[w] = MIN (mins[w], pmin[w]);
      maxs[w] = MAX (maxs[w], pmax[w]);
    }
}

static gboolean
aggregate (MgExportSeries *self, MgProfile *profile, const gboolean *processes, guint m,
           GError **error)
{
  MgSeries *s = &self->series[m];
  double *mins = (double *) s->mins, *maxs = (double *) s->maxs, *means = (double *) s->means,
         *vars = (double *) s->vars, *sums = (double *) s->sums;
  guint n_proc = mg_profile_get_n_processes (profile);
  g_autofree guint *counts = g_new0 (guint, MAX (self->n, 1));
  g_autofree double *pv = g_new (double, (gsize) MAX (self->n, 1) * MAX (n_proc, 1));

  for (guint w = 0; w < self->n; w++)
    mins[w] = INFINITY, maxs[w] = -INFINITY, sums[w] = vars[w] = 0.0;
  for (guint p = 0; p < n_proc; p++)
    {
      double *row = pv + (gsize) p * self->n;

      for (guint w = 0; w < self->n; w++)
        row[w] = NAN;
      /* A helper of the launch counts here when chosen: the list names
       * it, unlike the profile's aggregates, which leave it out. */
      if (!processes[p])
        continue;
      g_autofree MgProcessSeries *ps = mg_profile_dup_process_series (profile, p, m, error);
      if (ps == NULL)
        return FALSE;
      add_process (self, ps, mins, maxs, sums, counts, row);
    }
  for (guint w = 0; w < self->n; w++)
    means[w] = counts[w] > 0 ? sums[w] / counts[w] : NAN;
  for (guint p = 0; p < n_proc; p++)
    for (guint w = 0; w < self->n; w++)
      {
        double v = pv[(gsize) p * self->n + w];

        if (!isnan (v))
          vars[w] += (v - means[w]) * (v - means[w]);
      }
  for (guint w = 0; w < self->n; w++)
    {
      if (counts[w] > 0)
        vars[w] /= counts[w];
      else
        mins[w] = maxs[w] = means[w] = vars[w] = sums[w] = NAN;
    }
  return TRUE;
}

MgExportSeries *
mg_export_series_new (MgProfile *profile, const MgExportSelection *selection, GError **error)
{
  g_autoptr (MgExportSeries) self = g_new0 (MgExportSeries, 1);
  guint n_all = mg_profile_get_n_windows (profile);
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  g_autofree guint *kept = g_new (guint, MAX (n_all, 1));
  double *row;

  for (guint w = 0; w < n_all; w++)
    if (mg_export_selection_has_window (selection, starts[w], ends[w]))
      kept[self->n++] = w;
  self->starts = g_new (double, MAX (self->n, 1));
  self->ends = g_new (double, MAX (self->n, 1));
  for (guint i = 0; i < self->n; i++)
    self->starts[i] = starts[kept[i]], self->ends[i] = ends[kept[i]];
  self->n_metrics = mg_profile_get_n_metrics (profile);
  self->series = g_new0 (MgSeries, MAX (self->n_metrics, 1));
  self->values = g_new (double, (gsize) MAX (self->n, 1) * 5 * MAX (self->n_metrics, 1));
  row = self->values;
  for (guint m = 0; m < self->n_metrics; m++)
    {
      const MgSeries *all = mg_profile_get_series (profile, m);
      MgSeries *s = &self->series[m];
      double *rows[5];

      if (all == NULL)
        continue;
      for (guint k = 0; k < 5; k++, row += self->n)
        rows[k] = row;
      s->mins = rows[0], s->maxs = rows[1], s->means = rows[2], s->vars = rows[3];
      s->sums = rows[4];
      if (selection != NULL && selection->processes != NULL)
        {
          if (!aggregate (self, profile, selection->processes, m, error))
            return NULL;
          continue;
        }
      for (guint i = 0; i < self->n; i++)
        {
          rows[0][i] = all->mins[kept[i]];
          rows[1][i] = all->maxs[kept[i]];
          rows[2][i] = all->means[kept[i]];
          rows[3][i] = all->vars[kept[i]];
          rows[4][i] = all->sums[kept[i]];
        }
    }
  return g_steal_pointer (&self);
}

void
mg_export_series_free (MgExportSeries *self)
{
  if (self == NULL)
    return;
  g_free (self->starts);
  g_free (self->ends);
  g_free (self->series);
  g_free (self->values);
  g_free (self);
}

guint
mg_export_series_get_n_windows (const MgExportSeries *self)
{
  return self->n;
}

const double *
mg_export_series_get_starts (const MgExportSeries *self)
{
  return self->starts;
}

const MgSeries *
mg_export_series_get (const MgExportSeries *self, guint metric)
{
  g_return_val_if_fail (metric < self->n_metrics, NULL);
  return self->series[metric].mins != NULL ? &self->series[metric] : NULL;
}
