/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The HTML that partial reports may put in their text fields (spec 3.6):
 * headings, ol/ul/li, span, div, p, a, b, i, img and br. Anything else is
 * dropped: script, style and the like with their content, other tags
 * keeping their text; every attribute but a few, and links other than
 * http(s) or relative (images may also be data: pictures). GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Safe HTML to put inside a <div> of the HTML report. */
char *mg_report_markup_to_html (const char *markup);
/* The text without tags, for the .txt report and the viewer: blocks on
 * lines of their own, list items with "- ", white space collapsed. */
char *mg_report_markup_to_text (const char *markup);

/* A text field parsed once, for both forms (the above parse each time). */
typedef struct _MgReportMarkup MgReportMarkup;

MgReportMarkup *mg_report_markup_parse (const char *markup);
char *mg_report_markup_get_html (MgReportMarkup *self);
char *mg_report_markup_get_text (MgReportMarkup *self);
void mg_report_markup_free (MgReportMarkup *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgReportMarkup, mg_report_markup_free)

G_END_DECLS
