/* Streams the aggregate series as CSV (RFC 4180: CRLF, quoted fields). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-export-csv.h"
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

static gboolean
write_csv (MgProfile *profile, MgExportWriter *w, GError **error)
{
  guint n = mg_profile_get_n_windows (profile);
  guint n_metrics = mg_profile_get_n_metrics (profile);
  const double *starts = mg_profile_get_window_starts (profile);
  static const char *const suffixes[] = { "_min", "_mean", "_max" };

  mg_export_writer_puts (w, "time_s");
  for (guint m = 0; m < n_metrics; m++)
    {
      if (mg_profile_get_series (profile, m) == NULL)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (suffixes); k++)
        {
          g_autofree char *name = g_strconcat (mg_profile_get_metric (profile, m)->id,
                                               suffixes[k], NULL);

          mg_export_writer_puts (w, ",");
          put_field (w, name);
        }
    }
  mg_export_writer_puts (w, "\r\n");

  for (guint i = 0; i < n; i++)
    {
      mg_export_writer_double (w, starts[i]);
      for (guint m = 0; m < n_metrics; m++)
        {
          const MgSeries *s = mg_profile_get_series (profile, m);

          if (s == NULL)
            continue;
          put_value (w, s->mins[i]);
          put_value (w, s->means[i]);
          put_value (w, s->maxs[i]);
        }
      mg_export_writer_puts (w, "\r\n");
    }
  return mg_export_writer_close (w, error);
}

gboolean
mg_export_csv_to_stream (MgProfile *profile, GOutputStream *out, GError **error)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);
  return write_csv (profile, mg_export_writer_new (out), error);
}

gboolean
mg_export_csv (MgProfile *profile, const char *path, GError **error)
{
  MgExportWriter *w;

  g_return_val_if_fail (MG_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  w = mg_export_writer_new_for_path (path, error);
  return w != NULL && write_csv (profile, w, error);
}
