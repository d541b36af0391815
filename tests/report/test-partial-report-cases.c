/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The partial report parser driven by fixture files: every
 * tests/fixtures/report/cases/NAME.xml is parsed and the dump of everything
 * read (each report metric, subsection and entry, then each diagnostic)
 * must equal NAME.expected. A refused file dumps only its diagnostics. A
 * new case is a new file; print its expected text with
 *
 *   test-partial-report-cases --print NAME.xml > NAME.expected
 *
 * and read it through against docs/reports.md before committing it. */
#include "mg-config.h"

#include "defs/mg-diagnostic.h"
#include "mg-test-cases.h"
#include "report/mg-partial-report.h"

static void
put_metric (GString *out, const MgReportMetric *metric)
{
  g_autofree char *id = mg_test_cases_escape (metric->id != NULL ? metric->id : "");

  g_string_append_printf (out, "reportMetric \"%s\" at line %d\n", id, metric->line);
  mg_test_cases_put_str (out, "displayName", metric->display_name);
  mg_test_cases_put_str (out, "tooltip", metric->tooltip);
  mg_test_cases_put_str (out, "units", metric->units);
  mg_test_cases_put_bool (out, "colour given", metric->has_colour);
  if (metric->has_colour)
    mg_test_cases_put_colour (out, "colour", metric->colour);
  mg_test_cases_put_str (out, "metricRef", metric->metric_ref);
  g_string_append_printf (out, "  sampleValue: %s\n",
                          mg_report_pick_to_string (metric->sample_value));
  g_string_append_printf (out, "  aggregation: %s\n",
                          mg_report_pick_to_string (metric->aggregation));
}

static void
put_subsection (GString *out, const MgReportSubsection *subsection)
{
  g_autofree char *id = mg_test_cases_escape (subsection->id != NULL ? subsection->id : "");

  g_string_append_printf (out, "subsection \"%s\" at line %d\n", id, subsection->line);
  mg_test_cases_put_str (out, "heading", subsection->heading);
  mg_test_cases_put_bool (out, "colour given", subsection->has_colour);
  if (subsection->has_colour)
    mg_test_cases_put_colour (out, "colour", subsection->colour);
  mg_test_cases_put_str (out, "text", subsection->text);
  for (guint i = 0; i < subsection->entries->len; i++)
    {
      const MgReportEntry *entry = g_ptr_array_index (subsection->entries, i);
      g_autofree char *metric = mg_test_cases_escape (entry->metric->id);
      g_autofree char *group = entry->group != NULL ? mg_test_cases_escape (entry->group) : NULL;

      g_string_append_printf (out, "  entry at line %d: reportMetric \"%s\" (line %d), group %s%s%s\n",
                              entry->line, metric, entry->metric->line,
                              group != NULL ? "\"" : "", group != NULL ? group : "(none)",
                              group != NULL ? "\"" : "");
    }
}

static char *
dump_partial_report (const char *path)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgPartialReport) report = mg_partial_report_load (path, diagnostics);
  g_autofree char *base = g_path_get_basename (path);
  GString *out = g_string_new (NULL);

  if (report == NULL)
    g_string_append_printf (out, "file %s: refused\n", base);
  else
    {
      g_autofree char *name = mg_test_cases_escape (report->name);
      g_autofree char *file = g_path_get_basename (report->file);

      g_string_append_printf (out, "file %s: partial report \"%s\" from %s%s, %u report metrics, "
                              "%u subsections\n", base, name, file,
                              report->builtin ? " (built in)" : "", report->metrics->len,
                              report->subsections->len);
      for (guint i = 0; i < report->metrics->len; i++)
        put_metric (out, g_ptr_array_index (report->metrics, i));
      for (guint i = 0; i < report->subsections->len; i++)
        put_subsection (out, g_ptr_array_index (report->subsections, i));
    }
  mg_test_cases_put_diagnostics (out, diagnostics, path);
  return g_string_free (out, FALSE);
}

int
main (int argc, char **argv)
{
  return mg_test_cases_main (argc, argv, "/report/partial-cases", "report", dump_partial_report);
}
