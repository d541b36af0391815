/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Report metric values from the profile's aggregates. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mg-report-value.h"

double
mg_report_value_aggregate (const double *values, const double *starts, const double *ends,
                           guint n, MgReportPick aggregation)
{
  double result = NAN, weighted = 0, total = 0;

  for (guint i = 0; i < n; i++)
    {
      double v = values[i];

      if (isnan (v))
        continue;
      switch (aggregation)
        {
        case MG_REPORT_PICK_MIN:
          result = isnan (result) || v < result ? v : result;
          break;
        case MG_REPORT_PICK_MAX:
          result = isnan (result) || v > result ? v : result;
          break;
        case MG_REPORT_PICK_MEAN:
        case MG_REPORT_PICK_SUM:
        default:
          weighted += v * (ends[i] - starts[i]);
          total += ends[i] - starts[i];
          break;
        }
    }
  if (aggregation == MG_REPORT_PICK_MEAN || aggregation == MG_REPORT_PICK_SUM)
    return total > 0 ? weighted / total : NAN;
  return result;
}

static const double *
series_array (const MgSeries *series, MgReportPick sample_value)
{
  switch (sample_value)
    {
    case MG_REPORT_PICK_MIN:
      return series->mins;
    case MG_REPORT_PICK_MAX:
      return series->maxs;
    case MG_REPORT_PICK_SUM:
      return series->sums;
    case MG_REPORT_PICK_MEAN:
    default:
      return series->means;
    }
}

/* With one process, the lowest and the highest process in a window are
 * that process, and its value there is its mean: the series' mins and
 * maxs are the lowest and highest of its samples within the window (the
 * envelope the graphs draw), which made "least busy process" read 40.1 %
 * beside a mean of 41.3 % for a single process. */
static MgReportPick
one_process (MgProfile *profile, MgReportPick sample_value)
{
  /* Helpers are in no statistic across processes: one besides them too. */
  if (mg_profile_get_n_processes (profile) - mg_profile_get_n_helpers (profile) == 1
      && (sample_value == MG_REPORT_PICK_MIN || sample_value == MG_REPORT_PICK_MAX))
    return MG_REPORT_PICK_MEAN;
  return sample_value;
}

static double
single_value (const MgSingleValue *value, MgReportPick sample_value)
{
  if (value->count == 0)
    return NAN;
  switch (sample_value)
    {
    case MG_REPORT_PICK_MIN:
      return value->min;
    case MG_REPORT_PICK_MAX:
      return value->max;
    case MG_REPORT_PICK_SUM:
      return value->sum;
    case MG_REPORT_PICK_MEAN:
    default:
      return value->mean;
    }
}

/* The first error the profile holds about the metric or its source. */
static const char *
error_for (MgProfile *profile, const char *metric_ref, const char *source_ref)
{
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      if (g_strcmp0 (e->metric_id, metric_ref) == 0 && e->message != NULL)
        return e->message;
    }
  for (guint i = 0; source_ref != NULL && i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (profile, i);

      if (g_strcmp0 (e->source_id, source_ref) == 0 && e->message != NULL)
        return e->message;
    }
  return NULL;
}

double
mg_report_value_compute (MgProfile *profile, const char *metric_ref, MgReportPick sample_value,
                         MgReportPick aggregation, char **why_not)
{
  int m = mg_profile_find_metric (profile, metric_ref);
  const MgMetricDef *def = m >= 0 ? mg_profile_get_metric (profile, (guint) m) : NULL;
  double value = NAN;
  const char *error;

  if (def != NULL && def->domain == MG_DOMAIN_SINGLE_VALUE)
    value = single_value (mg_profile_get_single_value (profile, (guint) m), sample_value);
  else if (def != NULL)
    value = mg_report_value_aggregate (series_array (mg_profile_get_series (profile, (guint) m),
                                                     one_process (profile, sample_value)),
                                       mg_profile_get_window_starts (profile),
                                       mg_profile_get_window_ends (profile),
                                       mg_profile_get_n_windows (profile), aggregation);
  if (!isnan (value) || why_not == NULL)
    return value;
  error = error_for (profile, metric_ref, def != NULL ? def->source_ref : NULL);
  *why_not = error != NULL ? g_strdup_printf (_("not recorded in this run: %s"), error)
                           : g_strdup (_("not recorded in this run"));
  return value;
}
