/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window's export: the view as an image or document, the data as
 * JSON or CSV (action win.export and mg_window_export), and the performance
 * report as HTML or text (action win.save-report and mg_window_save_report). */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "profile/mg-export-csv.h"
#include "profile/mg-export-json.h"
#include "mg-file-choosers.h"
#include "session/mg-install-paths.h"
#include "mg-metric-row.h"
#include "mg-metric-rows.h"
#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"
#include "symbols/mg-code-callbacks.h"
#include "gui/graph/mg-theme.h"
#include "plot/mg-view-export.h"
#include "mg-window-internal.h"

gboolean
mg_window_export (MgWindow *self, const char *path, GError **error)
{
  return mg_window_export_at_scale (self, path, 1, error);
}

gboolean
mg_window_export_at_scale (MgWindow *self, const char *path, double scale, GError **error)
{
  g_autoptr (GPtrArray) groups = NULL;
  g_autofree char *title = NULL;
  gboolean dark = FALSE;
  MgViewFormat format;

  g_return_val_if_fail (self->profile != NULL, FALSE);

  /* The data: the core's exporters write the whole profile. */
  if (g_str_has_suffix (path, ".json") || g_str_has_suffix (path, ".JSON"))
    return mg_export_json (self->profile, path, error);
  if (g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".CSV"))
    return mg_export_csv (self->profile, path, error);

  if (!mg_view_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot export to “%s”: name the file .png, .svg or .pdf for the view, "
                     ".json or .csv for the data"), path);
      return FALSE;
    }

  /* The image in the window's own theme: light or dark, as the graphs are. */
  groups = mg_metric_rows_dup_view_groups (MG_METRIC_ROWS (self->rows));
  for (guint g = 0; g < groups->len; g++)
    {
      MgViewGroup *group = g_ptr_array_index (groups, g);
      int metric = group->metrics->len > 0 ? (int) g_array_index (group->metrics, guint, 0) : -1;

      if (metric >= 0)
        {
          const char *id = mg_profile_get_metric (self->profile, (guint) metric)->id;
          MgMetricRow *row = mg_metric_rows_find_row (MG_METRIC_ROWS (self->rows), id);

          dark = mg_theme_is_dark (mg_metric_row_get_graph (row));
          break;
        }
    }
  /* Translators: an exported image's title: the window's title — its subtitle */
  title = g_strdup_printf (_("%s — %s"), gtk_label_get_text (GTK_LABEL (self->title_label)),
                           gtk_label_get_text (GTK_LABEL (self->subtitle_label)));
  return mg_view_export_save (self->profile, self->view, (MgViewGroup *const *) groups->pdata,
                              groups->len, title, dark, scale, path, error);
}

/* The profile's file name with @extension in place of its own; NULL for a
 * profile not opened from a file. */
static char *
suggested_name (MgWindow *self, const char *extension)
{
  g_autofree char *base = NULL;
  char *dot;

  if (self->file == NULL)
    return NULL;
  /* The chooser takes the name as text. */
  base = mg_window_file_display_name (self->file);
  dot = strrchr (base, '.');
  if (dot != NULL)
    *dot = '\0';
  return g_strconcat (base, extension, NULL);
}

static void
on_export_chosen (GFile *file, double scale, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;

  if (path == NULL || !mg_window_export_at_scale (self, path, scale, &error))
    mg_window_show_message (self, _("Export Failed"),
                  error ? error->message : _("Choose a folder on this computer."));
}

void
mg_window_export_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *name = NULL;

  if (self->profile == NULL)
    return;
  name = suggested_name (self, ".png");
  mg_file_chooser_export (GTK_WINDOW (self), name ? name : "profile.png", on_export_chosen, self);
}

gboolean
mg_window_save_report (MgWindow *self, const char *path, GError **error)
{
  g_autofree char *installed = mg_install_paths_get_reports_dir ();
  g_autofree char *profile_path = NULL;
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReport) report = NULL;

  g_return_val_if_fail (self->profile != NULL, FALSE);
  if (!g_str_has_suffix (path, ".html") && !g_str_has_suffix (path, ".txt"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot save the report as “%s”: name the file .html or .txt"), path);
      return FALSE;
    }
  profile_path = self->file != NULL ? g_file_get_path (self->file) : NULL;
  set = mg_report_set_load (NULL, installed);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  report = mg_report_new_named (self->profile, profile_path, set->reports, &namer);
  return mg_report_save (report, path, error);
}

static void
on_report_chosen (GFile *file, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;

  if (path == NULL || !mg_window_save_report (self, path, &error))
    mg_window_show_message (self, _("Saving the Report Failed"),
                            error ? error->message : _("Choose a folder on this computer."));
}

void
mg_window_save_report_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *name = NULL;

  if (self->profile == NULL)
    return;
  name = suggested_name (self, ".html");
  mg_file_chooser_save_report (GTK_WINDOW (self), name ? name : "report.html", on_report_chosen,
                               self);
}
