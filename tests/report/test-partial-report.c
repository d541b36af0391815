/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Partial report files read from memory, and the shipped files load
 * cleanly; every rule of seed 000 section 3 is a fixture case
 * (test-partial-report-cases.c). */
#include "mg-config.h"

#include <string.h>

#include "defs/mg-diagnostic.h"
#include "report/mg-partial-report.h"
#include "report-fixture.h"

/* Every rule of the spec is a fixture case (tests/fixtures/report/cases,
 * test-partial-report-cases.c); here, what a case can't show: a report read
 * from memory under a name, and the files Metrograph ships. */
static void
test_from_memory (void)
{
  static const char xml[] =
    "<partialReport name=\"org.example.r\" xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\">\n"
    "<reportMetrics>\n"
    "<reportMetric id=\"rate\" displayName=\"X\" source=\"metric\">\n"
    "<sourceDetails metricRef=\"m\" sampleValue=\"sum\"/></reportMetric>\n"
    "</reportMetrics></partialReport>\n";
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgPartialReport) report = mg_partial_report_load_data (xml, strlen (xml), "t.xml",
                                                                    diagnostics);
  g_autofree char *text = NULL;

  g_assert_nonnull (report);
  g_assert_cmpstr (report->file, ==, "t.xml");
  g_assert_false (report->builtin);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  text = mg_diagnostic_to_string (g_ptr_array_index (diagnostics, 0));
  g_assert_cmpstr (text, ==, "t.xml:4: warning: no aggregation: 'mean' is used");
}

/* examples/report.xml and the built-in sections load without a word. */
static void
test_shipped_files (void)
{
  static const char *const files[] = {
    "examples/report.xml", "data/reports/10-cpu.xml", "data/reports/20-mpi.xml",
    "data/reports/30-io.xml", "data/reports/40-memory.xml", "data/reports/50-energy.xml",
    "data/reports/60-gpu.xml",
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = report_fixture_source_path (files[i]);
      g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
      g_autoptr (MgPartialReport) report = mg_partial_report_load (path, diagnostics);

      g_assert_nonnull (report);
      g_assert_cmpuint (diagnostics->len, ==, 0);
      g_assert_cmpuint (report->subsections->len, ==, 1);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/partial/from-memory", test_from_memory);
  g_test_add_func ("/report/partial/shipped-files", test_shipped_files);
  return g_test_run ();
}
