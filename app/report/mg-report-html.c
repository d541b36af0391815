/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The HTML report: one page, inline CSS, no scripts; bars are boxes whose
 * width is the value's share of the line's scale, so it prints as shown. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "defs/mg-colour.h"
#include "profile/mg-display-text.h"
#include "mg-report-markup.h"
#include "mg-report-writer.h"

static const char style[] =
  "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Cantarell,sans-serif;color:#222;"
  "background:#fff;max-width:60em;margin:2em auto;padding:0 1.5em}"
  "h1{font-size:1.6em;margin:0 0 .6em}"
  "h2{font-size:1.2em;margin:1.6em 0 .4em;padding-bottom:.2em;border-bottom:1px solid #ddd}"
  "table{border-collapse:collapse;width:100%}"
  "th,td{text-align:left;vertical-align:top;padding:.2em .6em .2em 0}"
  "table.facts th{width:11em;font-weight:600;color:#555}"
  "table.facts td{font-family:ui-monospace,monospace;word-break:break-all}"
  "table.lines th{font-weight:normal;width:40%}"
  "table.lines td.value{text-align:right;white-space:nowrap;width:8em;"
  "font-variant-numeric:tabular-nums}"
  "td.missing{color:#777;font-style:italic}"
  ".bar{height:.9em;margin-top:.25em;background:#eee;border-radius:2px}"
  ".bar span{display:block;height:100%;border-radius:2px;background:#3465a4}"
  ".scale{font-size:.75em;color:#666;text-align:right}"
  ".sentence{font-size:1.1em;font-weight:600}"
  ".text{color:#444;margin:.3em 0 .6em}"
  "footer{margin-top:2.5em;color:#888;font-size:.85em}"
  "td.baseline{color:#777;white-space:nowrap;font-size:.9em}"
  "td.baseline b{color:#c64600}"
  "@media print{body{margin:0;max-width:none}"
  ".bar,.bar span{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
  "section{break-inside:avoid}}";

/* The page says it is UTF-8: bytes from the run that are not (a module
 * called caf\xe9 naming a frame) are written as U+FFFD. */
static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  g_autofree char *escaped = g_markup_escape_text (valid, -1);

  g_string_append (out, escaped);
}

/* A name from the run as the text report shows it: control characters
 * (a function named with ESC or CR) as escapes, which HTML would
 * otherwise drop, fold into a space or refuse as a character reference. */
static void
append_name (GString *out, const char *name)
{
  g_autofree char *shown = mg_display_one_line (name);

  append_escaped (out, shown);
}

/* The baseline's value and the change, bold beyond the noise. */
static void
baseline_out (GString *out, const MgReportLine *line)
{
  if (line->baseline_text == NULL)
    return;
  g_string_append (out, "<td class=\"baseline\">");
  append_escaped (out, line->baseline_text);
  if (!isnan (line->change))
    g_string_append_printf (out, mg_report_line_changed (line) ? " <b>%+.0f %%</b>" : " %+.0f %%",
                            line->change * 100);
  g_string_append (out, "</td>");
}

static void
line_out (GString *out, const MgReportLine *line)
{
  g_string_append (out, "<tr><th");
  if (line->tooltip != NULL)
    {
      g_autofree char *tooltip = mg_report_markup_to_text (line->tooltip);

      g_string_append (out, " title=\"");
      append_escaped (out, tooltip);
      g_string_append_c (out, '"');
    }
  g_string_append_c (out, '>');
  append_name (out, line->name);
  if (isnan (line->value))
    {
      g_string_append (out, "</th><td class=\"missing\" colspan=\"2\">");
      append_escaped (out, line->value_text);
      g_string_append (out, "</td>");
      baseline_out (out, line);
      g_string_append (out, "</tr>\n");
      return;
    }
  g_string_append (out, "</th><td class=\"value\">");
  append_escaped (out, line->value_text);
  g_string_append (out, "</td><td>");
  if (!isnan (line->bar))
    {
      g_autofree char *colour = line->has_colour ? mg_colour_to_string (&line->colour) : NULL;
      char width[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (width, sizeof width, "%.1f", CLAMP (line->bar, 0.0, 1.0) * 100.0);
      g_string_append_printf (out, "<div class=\"bar\"><span style=\"width:%s%%%s%s\"></span>"
                              "</div>", width, colour != NULL ? ";background:" : "",
                              colour != NULL ? colour : "");
      if (line->scale_text != NULL)
        {
          g_string_append (out, "<div class=\"scale\">");
          append_escaped (out, line->scale_text);
          g_string_append (out, "</div>");
        }
    }
  g_string_append (out, "</td>");
  baseline_out (out, line);
  g_string_append (out, "</tr>\n");
}

static void
lines_out (GString *out, GPtrArray *lines)
{
  if (lines->len == 0)
    return;
  g_string_append (out, "<table class=\"lines\">\n");
  for (guint i = 0; i < lines->len; i++)
    line_out (out, g_ptr_array_index (lines, i));
  g_string_append (out, "</table>\n");
}

static void
section_out (GString *out, const MgReportSection *section)
{
  g_string_append (out, "<section>\n<h2");
  if (section->has_colour)
    {
      g_autofree char *colour = mg_colour_to_string (&section->colour);

      g_string_append_printf (out, " style=\"color:%s\"", colour);
    }
  g_string_append_c (out, '>');
  append_escaped (out, section->heading);
  g_string_append (out, "</h2>\n");
  if (section->text != NULL && *section->text != '\0')
    {
      g_autofree char *html = mg_report_markup_to_html (section->text);

      g_string_append_printf (out, "<div class=\"text\">%s</div>\n", html);
    }
  lines_out (out, section->lines);
  g_string_append (out, "</section>\n");
}

char *
mg_report_to_html (const MgReport *report)
{
  GString *out = g_string_new ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                               "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");

  append_escaped (out, _("Performance report"));
  if (report->facts->len > 0)
    {
      g_string_append (out, ": ");
      append_escaped (out, ((MgReportFact *) report->facts->pdata[0])->value);
    }
  g_string_append_printf (out, "</title>\n<style>%s</style>\n</head><body>\n<header><h1>", style);
  append_escaped (out, _("Performance report"));
  g_string_append (out, "</h1>\n<table class=\"facts\">\n");
  for (guint i = 0; i < report->facts->len; i++)
    {
      const MgReportFact *fact = g_ptr_array_index (report->facts, i);

      g_string_append (out, "<tr><th>");
      append_escaped (out, fact->label);
      g_string_append (out, "</th><td>");
      append_escaped (out, fact->value);
      g_string_append (out, "</td></tr>\n");
    }
  g_string_append (out, "</table></header>\n<section>\n<h2>");
  append_escaped (out, _("Summary"));
  g_string_append (out, "</h2>\n<p class=\"sentence\">");
  append_escaped (out, report->sentence);
  g_string_append (out, "</p>\n");
  lines_out (out, report->summary);
  g_string_append (out, "</section>\n");
  for (guint s = 0; s < report->sections->len; s++)
    section_out (out, g_ptr_array_index (report->sections, s));
  g_string_append (out, "<footer>");
  append_escaped (out, _("Written by Metrograph from the profile named above."));
  g_string_append (out, "</footer>\n</body></html>\n");
  return g_string_free (out, FALSE);
}
