/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text report: aligned columns and bars of '#'. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "profile/mg-display-text.h"
#include "mg-report-markup.h"
#include "mg-report-writer.h"

#define BAR_WIDTH 20
#define VALUE_WIDTH 12
#define MAX_NAME_WIDTH 50

/* Widths in display columns (mg_display_width): a name with wide
 * characters (計算) keeps its value and bar in their columns. */
static void
pad_to (GString *out, const char *text, glong width)
{
  g_string_append (out, text);
  for (glong n = mg_display_width (text); n < width; n++)
    g_string_append_c (out, ' ');
}

static void
heading (GString *out, const char *text, char underline)
{
  g_string_append_printf (out, "%s\n", text);
  for (glong n = mg_display_width (text); n > 0; n--)
    g_string_append_c (out, underline);
  g_string_append (out, "\n\n");
}

/* "(was 12.0 %, +5 %)", with "!" after a change beyond the noise. */
static char *
change_text (const MgReportLine *line)
{
  if (isnan (line->change))
    return g_strdup_printf (_("(was %s)"), line->baseline_text);
  return g_strdup_printf (_("(was %s, %+.0f %%%s)"), line->baseline_text, line->change * 100,
                          mg_report_line_changed (line) ? " !" : "");
}

static void
line_out (GString *out, const MgReportLine *line, glong name_width)
{
  /* A name from the run (a function named after a module called with a
   * newline) on one line, so that the columns stay. */
  g_autofree char *name = mg_display_one_line (line->name);

  g_string_append (out, "  ");
  /* A name wider than the column (a C++ function's signature with its
   * file:line, a function's figures across processes) gets a line of its
   * own, so its value and bar stay in their columns under the others'. */
  if (mg_display_width (name) > name_width)
    {
      g_string_append_printf (out, "%s\n  ", name);
      pad_to (out, "", name_width);
    }
  else
    pad_to (out, name, name_width);
  g_string_append (out, "  ");
  if (isnan (line->value))
    {
      g_string_append_printf (out, "%s\n", line->value_text);
      return;
    }
  for (glong n = mg_display_width (line->value_text); n < VALUE_WIDTH; n++)
    g_string_append_c (out, ' ');
  g_string_append (out, line->value_text);
  if (!isnan (line->bar))
    {
      int filled = (int) lround (CLAMP (line->bar, 0.0, 1.0) * BAR_WIDTH);

      g_string_append (out, "  |");
      for (int i = 0; i < BAR_WIDTH; i++)
        g_string_append_c (out, i < filled ? '#' : ' ');
      g_string_append_c (out, '|');
      if (line->scale_text != NULL)
        g_string_append_printf (out, " %s", line->scale_text);
    }
  if (line->baseline_text != NULL)
    {
      g_autofree char *change = change_text (line);

      g_string_append_printf (out, "  %s", change);
    }
  g_string_append_c (out, '\n');
}

/* A name as line_out () shows it, in display columns. */
static glong
shown_width (const MgReportLine *line)
{
  g_autofree char *name = mg_display_one_line (line->name);

  return mg_display_width (name);
}

static glong
name_width (const MgReport *report)
{
  glong width = 0;

  for (guint i = 0; i < report->summary->len; i++)
    width = MAX (width, shown_width (report->summary->pdata[i]));
  for (guint s = 0; s < report->sections->len; s++)
    {
      const MgReportSection *section = g_ptr_array_index (report->sections, s);

      for (guint i = 0; i < section->lines->len; i++)
        width = MAX (width, shown_width (section->lines->pdata[i]));
    }
  return MIN (width, MAX_NAME_WIDTH);
}

char *
mg_report_to_text (const MgReport *report)
{
  GString *out = g_string_new (NULL);
  glong fact_width = 0, width = name_width (report);

  heading (out, _("Performance report"), '=');
  for (guint i = 0; i < report->facts->len; i++)
    fact_width = MAX (fact_width,
                      mg_display_width (((MgReportFact *) report->facts->pdata[i])->label));
  for (guint i = 0; i < report->facts->len; i++)
    {
      const MgReportFact *fact = g_ptr_array_index (report->facts, i);

      pad_to (out, fact->label, fact_width + 2);
      g_string_append_printf (out, "%s\n", fact->value);
    }
  g_string_append_c (out, '\n');

  heading (out, _("Summary"), '-');
  g_string_append_printf (out, "%s\n\n", report->sentence);
  for (guint i = 0; i < report->summary->len; i++)
    line_out (out, g_ptr_array_index (report->summary, i), width);

  for (guint s = 0; s < report->sections->len; s++)
    {
      const MgReportSection *section = g_ptr_array_index (report->sections, s);

      g_string_append_c (out, '\n');
      heading (out, section->heading, '-');
      if (section->text != NULL && *section->text != '\0')
        {
          g_autofree char *text = mg_report_markup_to_text (section->text);

          g_string_append_printf (out, "%s\n\n", text);
        }
      for (guint i = 0; i < section->lines->len; i++)
        line_out (out, g_ptr_array_index (section->lines, i), width);
    }
  return g_string_free (out, FALSE);
}

gboolean
mg_report_save (const MgReport *report, const char *path, GError **error)
{
  g_autofree char *content = NULL;

  g_return_val_if_fail (report != NULL && path != NULL, FALSE);
  if (g_str_has_suffix (path, ".html") || g_str_has_suffix (path, ".htm"))
    content = mg_report_to_html (report);
  else
    content = mg_report_to_text (report);
  return g_file_set_contents (path, content, (gssize) strlen (content), error);
}

/* PROFILE.mgprof → PROFILE.txt, PROFILE.html */
static char *
beside (const char *profile_path, const char *extension)
{
  g_autofree char *stem = g_str_has_suffix (profile_path, ".mgprof")
                            ? g_strndup (profile_path, strlen (profile_path) - strlen (".mgprof"))
                            : g_strdup (profile_path);

  return g_strconcat (stem, extension, NULL);
}

gboolean
mg_report_save_for_profile (const MgReport *report, const char *profile_path,
                            const char *report_file, GError **error)
{
  g_autofree char *text = NULL, *html = NULL;

  g_return_val_if_fail (report != NULL && profile_path != NULL, FALSE);
  if (report_file != NULL && *report_file != '\0')
    return mg_report_save (report, report_file, error);
  text = beside (profile_path, ".txt");
  html = beside (profile_path, ".html");
  return mg_report_save (report, text, error) && mg_report_save (report, html, error);
}
