/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Streams the aggregate series as CSV (RFC 4180: CRLF, quoted fields), then
 * the single values as constant columns (docs/export.md). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-export-csv.h"
#include "mg-export-selection.h"
#include "mg-export-writer.h"

static void
put_field (MgExportWriter *w, const char *text)
{
  GString *out;

  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      mg_export_writer_puts (w, text);
      return;
    }
  out = g_string_new ("\"");
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  mg_export_writer_puts (w, out->str);
  g_string_free (out, TRUE);
}

static void
put_value (MgExportWriter *w, double value)
{
  mg_export_writer_puts (w, ",");
  if (isfinite (value))
    mg_export_writer_double (w, value);
}

static void
put_header (MgExportWriter *w, MgProfile *profile, gboolean single_values)
{
  static const char *const suffixes[] = { "_min", "_mean", "_max" };

  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      if ((mg_profile_get_single_value (profile, m) != NULL) != single_values)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (suffixes); k++)
        {
          g_autofree char *name = g_strconcat (mg_profile_get_metric (profile, m)->id,
                                               suffixes[k], NULL);

          mg_export_writer_puts (w, ",");
          put_field (w, name);
        }
    }
}

/* Single-value metrics come after every time-domain column (so a script
 * that reads columns by position still finds those where they were), and
 * repeat their whole-run value on every row: the file stays a plain table. */
static void
put_single_values (MgExportWriter *w, MgProfile *profile)
{
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSingleValue *v = mg_profile_get_single_value (profile, m);

      if (v == NULL)
        continue;
      put_value (w, v->count > 0 ? v->min : NAN);
      put_value (w, v->count > 0 ? v->mean : NAN);
      put_value (w, v->count > 0 ? v->max : NAN);
    }
}

static gboolean
write_csv (MgProfile *profile, const MgExportSeries *series, MgExportWriter *w, GError **error)
{
  guint n = mg_export_series_get_n_windows (series);
  guint n_metrics = mg_profile_get_n_metrics (profile);
  const double *starts = mg_export_series_get_starts (series);

  mg_export_writer_puts (w, "time_s");
  put_header (w, profile, FALSE);
  put_header (w, profile, TRUE);
  mg_export_writer_puts (w, "\r\n");

  for (guint i = 0; i < n; i++)
    {
      mg_export_writer_double (w, starts[i]);
      for (guint m = 0; m < n_metrics; m++)
        {
          const MgSeries *s = mg_export_series_get (series, m);

          if (s == NULL)
            continue;
          put_value (w, s->mins[i]);
          put_value (w, s->means[i]);
          put_value (w, s->maxs[i]);
        }
      put_single_values (w, profile);
      mg_export_writer_puts (w, "\r\n");
    }
  return mg_export_writer_close (w, error);
}

gboolean
mg_export_csv_to_stream (MgProfile *profile, GOutputStream *out, GError **error)
{
  g_autoptr (MgExportSeries) series = NULL;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  series = mg_export_series_new (profile, NULL, error);
  return series != NULL && write_csv (profile, series, mg_export_writer_new (out), error);
}

gboolean
mg_export_csv (MgProfile *profile, const char *path, GError **error)
{
  return mg_export_csv_selected (profile, path, NULL, error);
}

gboolean
mg_export_csv_selected (MgProfile *profile, const char *path, const MgExportSelection *selection,
                        GError **error)
{
  g_autoptr (MgExportSeries) series = NULL;
  MgExportWriter *w;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  /* Made before the file is opened: one that cannot be read leaves none. */
  series = mg_export_series_new (profile, selection, error);
  if (series == NULL)
    return FALSE;
  w = mg_export_writer_new_for_path (path, error);
  return w != NULL && write_csv (profile, series, w, error);
}
