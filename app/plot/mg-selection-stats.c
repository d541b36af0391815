/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The figures of a row and of the hover tooltip. */
#include "mg-config.h"

#include "mg-selection-stats.h"

#include <glib/gi18n.h>
#include <math.h>

#include "format/mg-bounded-mean.h"
#include "defs/mg-units.h"

static void
stats_clear (MgSelectionStats *out)
{
  out->min = out->mean = out->max = NAN;
  out->min_process = out->max_process = -1;
  out->n_windows = 0;
}

static double
window_value (const double *values, const double *means, guint i)
{
  double v = values ? values[i] : NAN;
  return isnan (v) ? means[i] : v;
}

/* Folds window i (with weight w) into the running figures. */
static void
stats_add (MgSelectionStats *out, const MgSeriesView *series, guint i, double w,
           double *weighted, double *weights)
{
  double wmin = window_value (series->mins, series->means, i);
  double wmax = window_value (series->maxs, series->means, i);

  if (out->n_windows == 0 || wmin < out->min)
    {
      out->min = wmin;
      out->min_process = series->min_process ? series->min_process[i] : series->process;
    }
  if (out->n_windows == 0 || wmax > out->max)
    {
      out->max = wmax;
      out->max_process = series->max_process ? series->max_process[i] : series->process;
    }
  *weighted += series->means[i] * w;
  *weights += w;
  out->n_windows++;
}

gboolean
mg_selection_stats_compute (const MgSeriesView *series, double t0, double t1,
                            MgSelectionStats *out)
{
  double weighted = 0, weights = 0;

  stats_clear (out);
  if (t1 < t0)
    {
      double tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
  if (t1 == t0)
    return mg_selection_stats_at (series, t0, out);

  for (guint i = mg_series_view_find (series, t0); i < series->n; i++)
    {
      double s = mg_series_view_window_start (series, i);
      double e = series->ends[i];
      double overlap = MIN (e, t1) - MAX (s, t0);

      if (s >= t1)
        break;
      if (isnan (series->means[i]) || overlap <= 0)
        continue;
      stats_add (out, series, i, overlap, &weighted, &weights);
    }
  if (out->n_windows == 0)
    return FALSE;
  out->mean = mg_bounded_mean (weighted, weights, out->min, out->max);
  return TRUE;
}

gboolean
mg_selection_stats_at (const MgSeriesView *series, double t, MgSelectionStats *out)
{
  int i = mg_series_view_window_at (series, t);
  double weighted = 0, weights = 0;

  stats_clear (out);
  if (i < 0 || isnan (series->means[i]))
    return FALSE;
  stats_add (out, series, (guint) i, 1, &weighted, &weights);
  out->mean = mg_bounded_mean (weighted, weights, out->min, out->max);
  return TRUE;
}

char *
mg_selection_stats_describe_process (MgProfile *profile, int process)
{
  const MgProcessInfo *info;

  if (process < 0 || (guint) process >= mg_profile_get_n_processes (profile))
    return NULL;
  info = mg_profile_get_process (profile, (guint) process);
  if (info->rank >= 0)
    return g_strdup_printf (_("rank %d"), info->rank);
  return g_strdup_printf (_("pid %d"), info->pid);
}

static void
append_figure (GString *out, MgProfile *profile, const MgMetricDef *def, const char *label,
               double value, int process, gboolean with_process)
{
  g_autofree char *text = mg_units_format_value (def, value);
  g_autofree char *who = with_process ? mg_selection_stats_describe_process (profile, process)
                                      : NULL;

  g_string_append_c (out, '\n');
  if (who != NULL)
    /* TRANSLATORS: e.g. "Max: 1.50 GiB (rank 3)" */
    g_string_append_printf (out, _("%s: %s (%s)"), label, text, who);
  else
    g_string_append_printf (out, _("%s: %s"), label, text);
}

char *
mg_selection_stats_describe_point (MgProfile *profile, guint metric, int process, double t)
{
  const MgMetricDef *def;
  MgSeriesView series;
  MgSelectionStats stats;
  g_autofree char *time = mg_units_format_time (t);
  GString *out = g_string_new (NULL);
  gboolean many;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);

  def = metric < mg_profile_get_n_metrics (profile) ? mg_profile_get_metric (profile, metric)
                                                   : NULL;
  if (def != NULL && def->display_name != NULL)
    /* TRANSLATORS: "<metric name> at <time>" */
    g_string_append_printf (out, _("%s at %s"), def->display_name, time);
  else
    g_string_append (out, time);

  if (!mg_series_view_init (&series, profile, metric, process)
      || !mg_selection_stats_at (&series, t, &stats))
    {
      g_string_append_c (out, '\n');
      g_string_append (out, _("No value"));
      return g_string_free (out, FALSE);
    }
  many = process < 0 && mg_profile_get_n_processes (profile) > 1;
  if (process >= 0)
    {
      g_autofree char *who = mg_selection_stats_describe_process (profile, process);
      if (who != NULL)
        g_string_append_printf (out, " (%s)", who);
    }
  append_figure (out, profile, def, _("Max"), stats.max, stats.max_process, many);
  append_figure (out, profile, def, _("Mean"), stats.mean, -1, FALSE);
  append_figure (out, profile, def, _("Min"), stats.min, stats.min_process, many);
  return g_string_free (out, FALSE);
}
