/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One series as the graphs read it. */
#include "mg-series-view.h"

#include <math.h>
#include <string.h>

gboolean
mg_series_view_init (MgSeriesView *view, MgProfile *profile, guint metric, int process)
{
  memset (view, 0, sizeof *view);
  view->process = process < 0 ? -1 : process;
  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  /* The aggregates leave the helpers out. */
  view->one_process = process >= 0
                      || mg_profile_get_n_processes (profile) - mg_profile_get_n_helpers (profile) <= 1;

  if (metric >= mg_profile_get_n_metrics (profile))
    return FALSE;
  if (process < 0)
    {
      const MgSeries *series = mg_profile_get_series (profile, metric);

      if (series == NULL)
        return FALSE;
      view->n = mg_profile_get_n_windows (profile);
      view->starts = mg_profile_get_window_starts (profile);
      view->ends = mg_profile_get_window_ends (profile);
      view->mins = series->mins;
      view->maxs = series->maxs;
      view->means = series->means;
      view->vars = series->vars;
      view->min_process = series->min_process;
      view->max_process = series->max_process;
    }
  else
    {
      const MgProcessSeries *series;
      const MgProcessInfo *info;

      if ((guint) process >= mg_profile_get_n_processes (profile))
        return FALSE;
      series = mg_profile_get_process_series (profile, process, metric);
      if (series == NULL || series->n == 0)
        return FALSE;
      info = mg_profile_get_process (profile, process);
      mg_series_view_init_process (view, series, info, process);
    }
  return TRUE;
}

void
mg_series_view_init_process (MgSeriesView *view, const MgProcessSeries *series,
                             const MgProcessInfo *info, int process)
{
  memset (view, 0, sizeof *view);
  view->process = process;
  view->one_process = TRUE;
  view->n = series->n;
  view->ends = series->times;
  view->mins = series->mins;
  view->maxs = series->maxs;
  view->means = series->means;
  /* The first window runs from the process's start (times are window
   * ends), or has the length of the next one when the start is unknown. */
  if (info != NULL && info->start_s < series->times[0])
    view->first_start = info->start_s;
  else if (series->n > 1)
    view->first_start = series->times[0] - (series->times[1] - series->times[0]);
  else
    view->first_start = 0;
  view->first_start = MAX (view->first_start, 0);
  view->first_start = MIN (view->first_start, series->times[0]);
}

double
mg_series_view_window_start (const MgSeriesView *view, guint i)
{
  if (view->starts != NULL)
    return view->starts[i];
  return i == 0 ? view->first_start : view->ends[i - 1];
}

guint
mg_series_view_find (const MgSeriesView *view, double t)
{
  guint lo = 0, hi = view->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (view->ends[mid] > t)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

int
mg_series_view_window_at (const MgSeriesView *view, double t)
{
  guint i = mg_series_view_find (view, t);

  /* t exactly on the last window's end still belongs to it. */
  if (i == view->n && view->n > 0 && t == view->ends[view->n - 1])
    i = view->n - 1;
  if (i < view->n && mg_series_view_window_start (view, i) <= t)
    return (int) i;
  return -1;
}

gboolean
mg_series_view_get_extent (const MgSeriesView *view, double *min, double *max)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < view->n; i++)
    {
      double a = view->mins ? view->mins[i] : NAN;
      double b = view->maxs ? view->maxs[i] : NAN;
      double m = view->means ? view->means[i] : NAN;

      if (isnan (a))
        a = m;
      if (isnan (b))
        b = m;
      if (a < lo)
        lo = a;
      if (b > hi)
        hi = b;
    }
  *min = isfinite (lo) ? lo : NAN;
  *max = isfinite (hi) ? hi : NAN;
  return isfinite (lo) && isfinite (hi);
}
