/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-file-choosers.h"

#include <glib/gi18n.h>

typedef struct {
  MgFileChosen chosen;
  MgExportChosen export_chosen; /* instead of chosen: with the PNG scale */
  gpointer user_data;
} Chooser;

#define SCALE_CHOICE "scale"

double
mg_file_chooser_parse_scale (const char *choice)
{
  return g_strcmp0 (choice, "2") == 0 ? 2.0 : 1.0;
}

static void
on_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  Chooser *chooser = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (chooser->export_chosen != NULL)
        chooser->export_chosen (file,
                                mg_file_chooser_parse_scale (
                                  gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog),
                                                               SCALE_CHOICE)),
                                chooser->user_data);
      else
        chooser->chosen (file, chooser->user_data);
    }
  g_free (chooser);
  g_object_unref (dialog);
}

static GtkFileFilter *
new_filter (const char *name, const char *pattern, const char *mime_type)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  if (mime_type != NULL)
    gtk_file_filter_add_mime_type (filter, mime_type);
  return filter;
}

static void
show_chooser (GtkFileChooserNative *dialog, Chooser *chooser)
{
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_response), chooser);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
show (GtkFileChooserNative *dialog, MgFileChosen chosen, gpointer user_data)
{
  Chooser *chooser = g_new0 (Chooser, 1);

  chooser->chosen = chosen;
  chooser->user_data = user_data;
  show_chooser (dialog, chooser);
}

void
mg_file_chooser_open_profile (GtkWindow *parent, MgFileChosen chosen, gpointer user_data)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Open a Profile"), parent,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  g_autoptr (GtkFileFilter) profiles = new_filter (_("Metrograph profiles"), "*.mgprof",
                                                   MG_PROFILE_MIME_TYPE);
  g_autoptr (GtkFileFilter) all = new_filter (_("All files"), "*", NULL);

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), profiles);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), profiles);
  show (dialog, chosen, user_data);
}

void
mg_file_chooser_export (GtkWindow *parent, const char *suggested_name, MgExportChosen chosen,
                        gpointer user_data)
{
  const char *scale_ids[] = { "1", "2", NULL };
  /* Translators: the PNG export's sizes: 1× and 2× the page's 1200 points */
  const char *scale_labels[] = { N_("1× (1200 px wide)"), N_("2× (2400 px wide)"), NULL };
  const char *translated[G_N_ELEMENTS (scale_labels)] = { NULL };
  Chooser *chooser = g_new0 (Chooser, 1);
  const char *filters[][2] = {
    { N_("PNG image"), "*.png" },
    { N_("SVG image"), "*.svg" },
    { N_("PDF document"), "*.pdf" },
    { N_("JSON data"), "*.json" },
    { N_("CSV data"), "*.csv" },
  };
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Export"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Export"), _("_Cancel"));

  for (guint i = 0; i < G_N_ELEMENTS (filters); i++)
    {
      g_autoptr (GtkFileFilter) filter = new_filter (_(filters[i][0]), filters[i][1], NULL);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  for (guint i = 0; scale_labels[i] != NULL; i++)
    translated[i] = _(scale_labels[i]);
  /* Translators: the export dialog's choice of a PNG's size */
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), SCALE_CHOICE, _("PNG size"), scale_ids,
                               translated);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), SCALE_CHOICE, "1");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested_name);
  chooser->export_chosen = chosen;
  chooser->user_data = user_data;
  show_chooser (dialog, chooser);
}

void
mg_file_chooser_save_report (GtkWindow *parent, const char *suggested_name, MgFileChosen chosen,
                             gpointer user_data)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Save Report"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Save"), _("_Cancel"));
  g_autoptr (GtkFileFilter) html = new_filter (_("HTML report"), "*.html", NULL);
  g_autoptr (GtkFileFilter) text = new_filter (_("Text report"), "*.txt", NULL);

  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), html);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), text);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested_name);
  show (dialog, chosen, user_data);
}
