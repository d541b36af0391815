/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report as text (.txt, --report=-) and as one self-contained HTML
 * page (inline CSS, no scripts, no external resources). GTK-free. */
#pragma once

#include "mg-report.h"

G_BEGIN_DECLS

char *mg_report_to_text (const MgReport *report);
char *mg_report_to_html (const MgReport *report);
/* Writes HTML when @path ends in .html or .htm, else text; atomically. */
gboolean mg_report_save (const MgReport *report, const char *path, GError **error);
/* What --report asks for, for a profile saved at @profile_path: with
 * @report_file NULL or "", the text and the HTML report beside it (its name
 * with .txt and .html instead of .mgprof); else that one file. */
gboolean mg_report_save_for_profile (const MgReport *report, const char *profile_path,
                                     const char *report_file, GError **error);

G_END_DECLS
