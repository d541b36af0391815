/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Streams the profile as JSON: {"info": {...}, "samples": {...}}. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-shell-line.h"
#include "mg-export-json.h"
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

static void
put_info (MgExportWriter *w, MgProfile *profile)
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
                           run->n_nodes, run->n_processes);
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

static void
put_samples (MgExportWriter *w, MgProfile *profile)
{
  guint n = mg_profile_get_n_windows (profile);
  gboolean first = TRUE;

  mg_export_writer_printf (w, "\"samples\":{\"count\":%u,\"window_start_offsets\":", n);
  put_array (w, mg_profile_get_window_starts (profile), n, 1000.0);
  mg_export_writer_puts (w, ",\"metrics\":{");
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSeries *s = mg_profile_get_series (profile, m);

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
  mg_export_writer_puts (w, "}}");
}

static gboolean
write_json (MgProfile *profile, MgExportWriter *w, GError **error)
{
  mg_export_writer_puts (w, "{");
  put_info (w, profile);
  mg_export_writer_puts (w, ",\n");
  put_samples (w, profile);
  mg_export_writer_puts (w, "}\n");
  return mg_export_writer_close (w, error);
}

gboolean
mg_export_json_to_stream (MgProfile *profile, GOutputStream *out, GError **error)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  return write_json (profile, mg_export_writer_new (out), error);
}

gboolean
mg_export_json (MgProfile *profile, const char *path, GError **error)
{
  MgExportWriter *w;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  w = mg_export_writer_new_for_path (path, error);
  return w != NULL && write_json (profile, w, error);
}
