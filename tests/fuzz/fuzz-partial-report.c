/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Partial report files (app/report/mg-partial-report.c): any bytes as the
 * XML of one file. A file that is taken has its text fields written as the
 * reports write them (HTML and plain text), and every diagnostic is turned
 * into its message. */
#include <glib.h>

#include "fuzz-input.h"
#include "defs/mg-diagnostic.h"
#include "report/mg-partial-report.h"
#include "report/mg-report-markup.h"

/* Both forms from one parse (fuzz-report-markup checks the HTML). */
static void
write_markup (const char *markup)
{
  g_autoptr(MgReportMarkup) parsed = mg_report_markup_parse (markup);

  g_free (mg_report_markup_get_html (parsed));
  g_free (mg_report_markup_get_text (parsed));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgPartialReport) report = mg_partial_report_load_data ((const char *) data, size,
                                                                    "fuzz.xml", diagnostics);

  /* Refused only with the reason as a diagnostic. */
  g_assert (report != NULL || diagnostics->len > 0);
  for (guint i = 0; i < diagnostics->len; i++)
    g_free (mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i)));
  if (report == NULL)
    return 0;
  g_assert (report->name != NULL);
  for (guint i = 0; i < report->metrics->len; i++)
    {
      const MgReportMetric *metric = g_ptr_array_index (report->metrics, i);

      g_assert (metric->id != NULL && metric->metric_ref != NULL);
      write_markup (metric->tooltip);
    }
  for (guint i = 0; i < report->subsections->len; i++)
    {
      const MgReportSubsection *subsection = g_ptr_array_index (report->subsections, i);

      write_markup (subsection->text);
      for (guint e = 0; e < subsection->entries->len; e++)
        g_assert (((MgReportEntry *) g_ptr_array_index (subsection->entries, e))->metric != NULL);
    }
  return 0;
}
