/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's file choosers (GtkFileChooserNative, GTK 4.8): opening a
 * profile (Metrograph profiles or all files) and exporting the view or the
 * data (PNG, SVG, PDF, JSON, CSV), saving the report (HTML, text). Each calls back with the chosen file
 * only when the user accepted. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MG_PROFILE_MIME_TYPE "application/x-metrograph-profile"

typedef void (*MgFileChosen) (GFile *file, gpointer user_data);

/* user_data must outlive the chooser (it is modal to parent). */
void mg_file_chooser_open_profile (GtkWindow *parent, MgFileChosen chosen, gpointer user_data);
/* The file and the PNG scale chosen (1 or 2: the chooser's "PNG size"). */
typedef void (*MgExportChosen) (GFile *file, double scale, gpointer user_data);

/* suggested_name: the file name offered, e.g. "run.png". */
void mg_file_chooser_export (GtkWindow *parent, const char *suggested_name, MgExportChosen chosen,
                             gpointer user_data);
/* The scale a choice's id ("1", "2") names; 1 for anything else. */
double mg_file_chooser_parse_scale (const char *choice);
/* The performance report: HTML or text. */
void mg_file_chooser_save_report (GtkWindow *parent, const char *suggested_name,
                                  MgFileChosen chosen, gpointer user_data);

G_END_DECLS
