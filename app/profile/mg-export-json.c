/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Streams the profile as JSON: {"info": {...}, "samples": {...}}. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-shell-line.h"
#include "mg-export-json.h"
#include "mg-export-selection.h"
#include "mg-export-writer.h"

/* JSON is UTF-8: a name's bytes that are not (a host) are written as
 * U+FFFD; the command line keeps them, quoted (mg-command-line.c). */
static void
put_string (MgExportWriter *w, const char *s)
{
  GString *out = g_string_new ("\"");
  g_autofree char *valid = g_utf8_make_valid (s != NULL ? s : "", -1);

  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
  mg_export_writer_puts (w, out->str);
  g_string_free (out, TRUE);
}

static void
put_number (MgExportWriter *w, double value)
{
  if (isfinite (value))
    mg_export_writer_double (w, value);
  else
    mg_export_writer_puts (w, "null");
}

static void
put_array (MgExportWriter *w, const double *values, guint n, double scale)
{
  mg_export_writer_puts (w, "[");
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        mg_export_writer_puts (w, ",");
      put_number (w, values[i] * scale);
    }
  mg_export_writer_puts (w, "]");
}

static char *
start_time (const MgRunInfo *run)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (run->start_time_us / G_USEC_PER_SEC);
  g_autoptr(GDateTime) exact = NULL;

  if (time == NULL)
    return g_strdup ("");
  exact = g_date_time_add (time, run->start_time_us % G_USEC_PER_SEC);
  return g_date_time_format_iso8601 (exact);
}

static guint
n_selected (MgProfile *profile, const MgExportSelection *selection)
{
  guint n = 0;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    n += mg_export_selection_has_process (selection, p);
  return n;
}

static void
put_info (MgExportWriter *w, MgProfile *profile, const MgExportSelection *selection)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  g_autofree char *cmd = mg_shell_line_from_run (run);
  g_autofree char *start = start_time (run);
  g_autofree char *version = g_strdup_printf ("Metrograph %s", run->metrograph_version);
  gboolean first = TRUE;

  mg_export_writer_puts (w, "\"info\":{\"command_line\":");
  put_string (w, cmd);
  mg_export_writer_puts (w, ",\"machine\":");
  put_string (w, run->hosts != NULL && run->hosts[0] != NULL ? run->hosts[0] : "");
  mg_export_writer_puts (w, ",\"notes\":\"\"");
  mg_export_writer_printf (w, ",\"number_of_nodes\":%u,\"number_of_processes\":%u,\"runtime\":",
                           run->n_nodes,
                           selection != NULL && selection->processes != NULL
                             ? n_selected (profile, selection) : run->n_processes);
  put_number (w, round (run->duration_s * 1000.0));
  mg_export_writer_puts (w, ",\"start_time\":");
  put_string (w, start);
  mg_export_writer_puts (w, ",\"create_version\":");
  put_string (w, version);
  mg_export_writer_puts (w, ",\"metrics\":{");
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSingleValue *v = mg_profile_get_single_value (profile, m);

      if (v == NULL)
        continue;
      if (!first)
        mg_export_writer_puts (w, ",");
      first = FALSE;
      put_string (w, mg_profile_get_metric (profile, m)->id);
      if (v->count == 0)
        {
          mg_export_writer_puts (w, ":null");
          continue;
        }
      mg_export_writer_puts (w, ":{\"max\":");
      put_number (w, v->max);
      mg_export_writer_puts (w, ",\"min\":");
      put_number (w, v->min);
      mg_export_writer_puts (w, ",\"mean\":");
      put_number (w, v->mean);
      mg_export_writer_puts (w, ",\"var\":");
      put_number (w, v->var);
      mg_export_writer_puts (w, ",\"sums\":");
      put_number (w, v->sum);
      mg_export_writer_puts (w, "}");
    }
  mg_export_writer_puts (w, "}}");
}

/* One selected process's own samples of each time-domain metric, those
 * whose time is in the range: "times" their end times in ms. */
static gboolean
put_process (MgExportWriter *w, MgProfile *profile, const MgExportSelection *selection,
             guint p, GError **error)
{
  const MgProcessInfo *info = mg_profile_get_process (profile, p);
  gboolean first = TRUE;

  mg_export_writer_printf (w, "{\"index\":%u,\"pid\":%d,\"rank\":%d,\"metrics\":{", p,
                           info->pid, info->rank);
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      g_autofree MgProcessSeries *ps = NULL;
      g_autoptr (GArray) kept = g_array_new (FALSE, FALSE, sizeof (guint));
      const double *rows[4];
      static const char *const names[] = { "times", "mins", "maxs", "means" };

      if (mg_profile_get_series (profile, m) == NULL)
        continue;
      ps = mg_profile_dup_process_series (profile, p, m, error);
      if (ps == NULL)
        return FALSE;
      for (guint i = 0; i < ps->n; i++)
        if (ps->times[i] > selection->start_s && ps->times[i] <= selection->end_s)
          g_array_append_val (kept, i);
      if (!first)
        mg_export_writer_puts (w, ",");
      first = FALSE;
      put_string (w, mg_profile_get_metric (profile, m)->id);
      rows[0] = ps->times, rows[1] = ps->mins, rows[2] = ps->maxs, rows[3] = ps->means;
      for (guint k = 0; k < G_N_ELEMENTS (names); k++)
        {
          mg_export_writer_printf (w, "%s\"%s\":[", k == 0 ? ":{" : ",", names[k]);
          for (guint i = 0; i < kept->len; i++)
            {
              if (i > 0)
                mg_export_writer_puts (w, ",");
              put_number (w, rows[k][g_array_index (kept, guint, i)] * (k == 0 ? 1000.0 : 1.0));
            }
          mg_export_writer_puts (w, "]");
        }
      mg_export_writer_puts (w, "}");
    }
  mg_export_writer_puts (w, "}}");
  return TRUE;
}

static gboolean
put_processes (MgExportWriter *w, MgProfile *profile, const MgExportSelection *selection,
               GError **error)
{
  gboolean first = TRUE;

  mg_export_writer_puts (w, ",\"processes\":[");
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      if (!mg_export_selection_has_process (selection, p))
        continue;
      if (!first)
        mg_export_writer_puts (w, ",\n");
      first = FALSE;
      if (!put_process (w, profile, selection, p, error))
        return FALSE;
    }
  mg_export_writer_puts (w, "]");
  return TRUE;
}

static gboolean
put_samples (MgExportWriter *w, MgProfile *profile, const MgExportSelection *selection,
             const MgExportSeries *series, GError **error)
{
  guint n = mg_export_series_get_n_windows (series);
  gboolean first = TRUE;

  mg_export_writer_printf (w, "\"samples\":{\"count\":%u,\"window_start_offsets\":", n);
  put_array (w, mg_export_series_get_starts (series), n, 1000.0);
  mg_export_writer_puts (w, ",\"metrics\":{");
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSeries *s = mg_export_series_get (series, m);

      if (s == NULL)
        continue;
      if (!first)
        mg_export_writer_puts (w, ",");
      first = FALSE;
      put_string (w, mg_profile_get_metric (profile, m)->id);
      mg_export_writer_puts (w, ":{\"mins\":");
      put_array (w, s->mins, n, 1.0);
      mg_export_writer_puts (w, ",\"maxs\":");
      put_array (w, s->maxs, n, 1.0);
      mg_export_writer_puts (w, ",\"means\":");
      put_array (w, s->means, n, 1.0);
      mg_export_writer_puts (w, ",\"vars\":");
      put_array (w, s->vars, n, 1.0);
      mg_export_writer_puts (w, ",\"sums\":");
      put_array (w, s->sums, n, 1.0);
      mg_export_writer_puts (w, "}\n");
    }
  mg_export_writer_puts (w, "}");
  /* Only with a selection of processes: the file MAP's layout describes
   * stays as it was otherwise. */
  if (selection != NULL && selection->processes != NULL
      && !put_processes (w, profile, selection, error))
    return FALSE;
  mg_export_writer_puts (w, "}");
  return TRUE;
}

/* The series are made before the writer opens the file: one that cannot
 * be read leaves no file behind. */
static gboolean
write_json (MgProfile *profile, const MgExportSelection *selection,
            const MgExportSeries *series, MgExportWriter *w, GError **error)
{
  mg_export_writer_puts (w, "{");
  put_info (w, profile, selection);
  mg_export_writer_puts (w, ",\n");
  if (!put_samples (w, profile, selection, series, error))
    {
      mg_export_writer_close (w, NULL);
      return FALSE;
    }
  mg_export_writer_puts (w, "}\n");
  return mg_export_writer_close (w, error);
}

gboolean
mg_export_json_to_stream (MgProfile *profile, GOutputStream *out, GError **error)
{
  g_autoptr (MgExportSeries) series = NULL;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  series = mg_export_series_new (profile, NULL, error);
  return series != NULL && write_json (profile, NULL, series, mg_export_writer_new (out), error);
}

gboolean
mg_export_json (MgProfile *profile, const char *path, GError **error)
{
  return mg_export_json_selected (profile, path, NULL, error);
}

gboolean
mg_export_json_selected (MgProfile *profile, const char *path, const MgExportSelection *selection,
                         GError **error)
{
  g_autoptr (MgExportSeries) series = NULL;
  MgExportWriter *w;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  series = mg_export_series_new (profile, selection, error);
  if (series == NULL)
    return FALSE;
  w = mg_export_writer_new_for_path (path, error);
  return w != NULL && write_json (profile, selection, series, w, error);
}
