/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity metrics as four stacked classes. */
#include "mg-config.h"

#include "mg-activity-series.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* plugins/activity.xml's ids, after "org.metrograph.activity.<scope>.". */
static const char *const class_parts[MG_ACTIVITY_N_CLASSES][MG_ACTIVITY_MAX_PARTS] = {
  [MG_ACTIVITY_COMPUTING] = { "computing" },
  [MG_ACTIVITY_MPI] = { "mpi" },
  [MG_ACTIVITY_IO] = { "io" },
  [MG_ACTIVITY_WAITING] = { "sleep", "lock", "other" },
};

const char *
mg_activity_metric_id (MgActivityScope scope, MgActivityClass klass, guint part)
{
  static const char *const ids[2][MG_ACTIVITY_N_CLASSES][MG_ACTIVITY_MAX_PARTS] = {
    {
      { "org.metrograph.activity.main.computing" },
      { "org.metrograph.activity.main.mpi" },
      { "org.metrograph.activity.main.io" },
      { "org.metrograph.activity.main.sleep", "org.metrograph.activity.main.lock",
        "org.metrograph.activity.main.other" },
    },
    {
      { "org.metrograph.activity.threads.computing" },
      { "org.metrograph.activity.threads.mpi" },
      { "org.metrograph.activity.threads.io" },
      { "org.metrograph.activity.threads.sleep", "org.metrograph.activity.threads.lock",
        "org.metrograph.activity.threads.other" },
    },
  };

  g_return_val_if_fail (klass < MG_ACTIVITY_N_CLASSES, NULL);
  if (part >= MG_ACTIVITY_MAX_PARTS || class_parts[klass][part] == NULL)
    return NULL;
  return ids[scope == MG_ACTIVITY_ALL_THREADS][klass][part];
}

const char *
mg_activity_class_name (MgActivityClass klass)
{
  switch (klass)
    {
    case MG_ACTIVITY_COMPUTING:
      return _("Computing");
    case MG_ACTIVITY_MPI:
      return _("MPI");
    case MG_ACTIVITY_IO:
      return _("I/O");
    case MG_ACTIVITY_WAITING:
      return _("Waiting");
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
mg_activity_is_metric (MgProfile *profile, guint metric, MgActivityScope scope)
{
  const char *id = mg_profile_get_metric (profile, metric)->id;

  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    for (guint i = 0; mg_activity_metric_id (scope, k, i) != NULL; i++)
      if (g_strcmp0 (id, mg_activity_metric_id (scope, k, i)) == 0)
        return TRUE;
  return FALSE;
}

gboolean
mg_activity_profile_is_multithreaded (MgProfile *profile)
{
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    for (guint i = 0; mg_activity_metric_id (MG_ACTIVITY_MAIN_THREAD, k, i) != NULL; i++)
      {
        int main_metric = mg_profile_find_metric (profile,
                                                  mg_activity_metric_id (MG_ACTIVITY_MAIN_THREAD, k, i));
        int all_metric = mg_profile_find_metric (profile,
                                                 mg_activity_metric_id (MG_ACTIVITY_ALL_THREADS, k, i));
        MgSeriesView main_view, all_view;

        if (main_metric < 0 || all_metric < 0
            || !mg_series_view_init (&main_view, profile, (guint) main_metric, -1)
            || !mg_series_view_init (&all_view, profile, (guint) all_metric, -1))
          continue;
        /* One thread: the two are the same samples, within rounding. */
        for (guint w = 0; w < MIN (main_view.n, all_view.n); w++)
          if (fabs (main_view.means[w] - all_view.means[w]) > 0.5)
            return TRUE;
      }
  return FALSE;
}

gboolean
mg_activity_series_init (MgActivitySeries *series, MgProfile *profile, MgActivityScope scope,
                         int process)
{
  memset (series, 0, sizeof *series);
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    for (guint i = 0; mg_activity_metric_id (scope, k, i) != NULL; i++)
      {
        int metric = mg_profile_find_metric (profile, mg_activity_metric_id (scope, k, i));
        MgSeriesView *part = &series->parts[k][series->n_parts[k]];

        /* A part the profile lacks (disabled by hand) is left out. */
        if (metric >= 0 && mg_series_view_init (part, profile, (guint) metric, process))
          series->n_parts[k]++;
      }
  if (series->n_parts[MG_ACTIVITY_COMPUTING] == 0)
    return FALSE;
  series->one_process = series->parts[MG_ACTIVITY_COMPUTING][0].one_process;
  return TRUE;
}

void
mg_activity_columns_free (MgActivityColumns *columns)
{
  if (columns == NULL)
    return;
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    g_free (columns->shares[k]);
  g_free (columns->computing_min);
  g_free (columns->computing_max);
  g_free (columns);
}

MgActivityColumns *
mg_activity_columns_new (const MgActivitySeries *series, double t0, double t1, guint n_columns)
{
  MgActivityColumns *columns = g_new0 (MgActivityColumns, 1);
  g_autoptr (MgLod) lod = mg_lod_new (MAX (n_columns, 1));

  columns->n = n_columns;
  columns->computing_min = g_new (double, MAX (n_columns, 1));
  columns->computing_max = g_new (double, MAX (n_columns, 1));
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    {
      double *share = columns->shares[k] = g_new (double, MAX (n_columns, 1));

      for (guint c = 0; c < n_columns; c++)
        share[c] = NAN;
      for (guint i = 0; i < series->n_parts[k]; i++)
        {
          mg_lod_compute_columns (lod, &series->parts[k][i], t0, t1);
          for (guint c = 0; c < n_columns && c < lod->n_points; c++)
            {
              if (mg_lod_is_gap (lod, c))
                continue;
              share[c] = (isnan (share[c]) ? 0 : share[c]) + lod->means[c];
              if (k == MG_ACTIVITY_COMPUTING)
                {
                  columns->computing_min[c] = lod->mins[c];
                  columns->computing_max[c] = lod->maxs[c];
                }
            }
          if (k == MG_ACTIVITY_COMPUTING)
            for (guint c = 0; c < n_columns; c++)
              if (c >= lod->n_points || mg_lod_is_gap (lod, c))
                columns->computing_min[c] = columns->computing_max[c] = NAN;
        }
    }
  return columns;
}

gboolean
mg_activity_series_snap (const MgActivitySeries *series, double t_lo, double t_hi, double *start,
                         double *end)
{
  const MgSeriesView *view = &series->parts[MG_ACTIVITY_COMPUTING][0];
  guint first, last;

  if (series->n_parts[MG_ACTIVITY_COMPUTING] == 0 || view->n == 0)
    return FALSE;
  first = mg_series_view_find (view, t_lo);
  if (first >= view->n || mg_series_view_window_start (view, first) > t_hi)
    return FALSE;
  last = mg_series_view_find (view, t_hi);
  last = MIN (last, view->n - 1);
  /* A window starting at t_hi is not under the pixel. */
  if (last > first && mg_series_view_window_start (view, last) >= t_hi)
    last--;
  *start = mg_series_view_window_start (view, first);
  *end = view->ends[last];
  return TRUE;
}
