/* The report as text (.txt, --report=-) and as one self-contained HTML
 * page (inline CSS, no scripts, no external resources). GTK-free. */
#pragma once

#include "mg-report.h"

G_BEGIN_DECLS

char *mg_report_to_text (const MgReport *report);
char *mg_report_to_html (const MgReport *report);
/* Writes HTML when @path ends in .html or .htm, else text; atomically. */
gboolean mg_report_save (const MgReport *report, const char *path, GError **error);

G_END_DECLS
