/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Partial report files: every rule of seed 000 section 3, each reported as
 * file:line with the rule named; the shipped files load cleanly. */
#include "mg-config.h"

#include <string.h>

#include "defs/mg-diagnostic.h"
#include "report/mg-partial-report.h"
#include "report-fixture.h"

#define HEAD "<partialReport name=\"org.example.r\" xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\">\n"

/* One report metric (line 3) and one subsection (line 7) around @metric_attrs,
 * @details and @entry. */
static char *
document (const char *id, const char *details, const char *entry)
{
  return g_strdup_printf (HEAD
                          "<reportMetrics>\n"
                          "<reportMetric id=\"%s\" displayName=\"X\" units=\"/s\" source=\"metric\">\n"
                          "<sourceDetails %s/>\n"
                          "</reportMetric>\n"
                          "</reportMetrics>\n"
                          "<subsections><subsection id=\"s1\" heading=\"H\">\n"
                          "<entry reportMetric=\"%s\"/>\n"
                          "</subsection></subsections>\n"
                          "</partialReport>\n",
                          id, details, entry);
}

static const char *good_details = "metricRef=\"m\" sampleValue=\"mean\" aggregation=\"max\"";

/* Loads @xml as "t.xml" and returns every diagnostic as text, one a line. */
static char *
load (const char *xml, MgPartialReport **out)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  GString *text = g_string_new (NULL);
  MgPartialReport *report = mg_partial_report_load_data (xml, strlen (xml), "t.xml", diagnostics);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *line = mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_string_append_printf (text, "%s\n", line);
    }
  if (out != NULL)
    *out = report;
  else
    mg_partial_report_free (report);
  return g_string_free (text, FALSE);
}

static void
assert_refused (const char *xml, const char *expected)
{
  MgPartialReport *report = NULL;
  g_autofree char *text = load (xml, &report);

  if (strstr (text, expected) == NULL)
    g_error ("expected “%s” in:\n%s", expected, text);
  g_assert_null (report);
}

static void
test_good (void)
{
  g_autofree char *xml = document ("org.example.rate", good_details, "org.example.rate");
  MgPartialReport *report = NULL;
  g_autofree char *text = load (xml, &report);
  const MgReportMetric *metric;
  const MgReportSubsection *subsection;

  g_assert_cmpstr (text, ==, "");
  g_assert_nonnull (report);
  g_assert_cmpstr (report->name, ==, "org.example.r");
  metric = g_ptr_array_index (report->metrics, 0);
  g_assert_cmpstr (metric->metric_ref, ==, "m");
  g_assert_cmpint (metric->sample_value, ==, MG_REPORT_PICK_MEAN);
  g_assert_cmpint (metric->aggregation, ==, MG_REPORT_PICK_MAX);
  g_assert_cmpint (metric->line, ==, 3);
  subsection = g_ptr_array_index (report->subsections, 0);
  g_assert_true (((MgReportEntry *) g_ptr_array_index (subsection->entries, 0))->metric == metric);
  mg_partial_report_free (report);
}

static void
test_xmlns (void)
{
  assert_refused ("<partialReport name=\"a\">\n</partialReport>",
                  "t.xml:1: error: xmlns missing");
  assert_refused ("<partialReport name=\"a\" xmlns=\"http://example.org/other\"/>",
                  "t.xml:1: error: wrong xmlns \"http://example.org/other\"");
  assert_refused ("<report xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\"/>",
                  "t.xml:1: error: the root element is <report>");
  assert_refused ("<partialReport", "t.xml:1: error: not well-formed XML");
}

static void
test_ids (void)
{
  static const struct {
    const char *id;
    const char *message;
  } cases[] = {
    { "rate$1", "t.xml:3: error: invalid id: the report metric id 'rate$1' contains '$'" },
    { "my rate", "contains ' '" },
    { ".rate", "begins with '.'" },
    { "_rate", "begins with '_'" },
    { "1rate", "is not an XML NCName" },
    { "-rate", "is not an XML NCName" },
    { "", "t.xml:3: error: missing id" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *xml = document (cases[i].id, good_details, cases[i].id);

      assert_refused (xml, cases[i].message);
    }
}

static void
test_dotted_substring (void)
{
  const char *xml =
    HEAD "<reportMetrics>\n"
    "<reportMetric id=\"org.example.sample\" displayName=\"A\" source=\"metric\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "<reportMetric id=\"org.example.sample.average\" displayName=\"B\" source=\"metric\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "<reportMetric id=\"org.example.sample\" displayName=\"C\" source=\"metric\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "</reportMetrics></partialReport>\n";
  /* Undotted ids may contain each other. */
  const char *plain =
    HEAD "<reportMetrics>\n"
    "<reportMetric id=\"rate\" displayName=\"A\" source=\"metric\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "<reportMetric id=\"rate_peak\" displayName=\"B\" source=\"metric\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "</reportMetrics></partialReport>\n";
  MgPartialReport *report = NULL;
  g_autofree char *text = NULL;

  assert_refused (xml, "t.xml:4: error: dotted id is a substring: 'org.example.sample' (line 3) "
                       "is part of 'org.example.sample.average'");
  assert_refused (xml, "t.xml:5: error: duplicate id: the report metric id 'org.example.sample' "
                       "is also used on line 3");
  text = load (plain, &report);
  g_assert_cmpstr (text, ==, "");
  g_assert_nonnull (report);
  mg_partial_report_free (report);
}

static void
test_sample_value_aggregation (void)
{
  g_autofree char *bad_sample = document ("r", "metricRef=\"m\" sampleValue=\"median\" "
                                               "aggregation=\"mean\"", "r");
  g_autofree char *bad_aggregation = document ("r", "metricRef=\"m\" sampleValue=\"sum\" "
                                                    "aggregation=\"sum\"", "r");
  g_autofree char *no_ref = document ("r", "sampleValue=\"sum\" aggregation=\"mean\"", "r");
  static const char *const picks[] = { "min", "max", "mean", "sum" };

  assert_refused (bad_sample, "t.xml:4: error: unknown sampleValue 'median': write min, max, "
                              "mean or sum");
  assert_refused (bad_aggregation, "t.xml:4: error: unknown aggregation 'sum': write min, max "
                                   "or mean");
  assert_refused (no_ref, "t.xml:4: error: no metricRef");
  for (guint s = 0; s < G_N_ELEMENTS (picks); s++)
    for (guint a = 0; a < 3; a++)
      {
        g_autofree char *details = g_strdup_printf ("metricRef=\"m\" sampleValue=\"%s\" "
                                                    "aggregation=\"%s\"", picks[s], picks[a]);
        g_autofree char *xml = document ("r", details, "r");
        MgPartialReport *report = NULL;
        g_autofree char *text = load (xml, &report);
        const MgReportMetric *metric;

        g_assert_nonnull (report);
        metric = g_ptr_array_index (report->metrics, 0);
        g_assert_cmpstr (mg_report_pick_to_string (metric->sample_value), ==, picks[s]);
        g_assert_cmpstr (mg_report_pick_to_string (metric->aggregation), ==, picks[a]);
        mg_partial_report_free (report);
      }
}

static void
test_entry_and_source (void)
{
  g_autofree char *unknown = document ("r", good_details, "nothing");
  g_autofree char *xml = document ("r", good_details, "r");
  char *source = strstr (xml, "source=\"metric\"");

  assert_refused (unknown, "t.xml:8: error: unknown report metric: the entry names 'nothing'");
  memcpy (source, "source=\"other\" ", 15);
  assert_refused (xml, "t.xml:3: error: source must be \"metric\", not \"other\"");
}

/* Reserved names warn but the file is used: the spec's own example and
 * vendors' files use them. */
static void
test_reserved (void)
{
  g_autofree char *xml = document ("com.allinea.metrics.sample.average", good_details,
                                   "com.allinea.metrics.sample.average");
  MgPartialReport *report = NULL;
  g_autofree char *text = NULL;
  char *name = strstr (xml, "org.example.r");

  memcpy (name, "allinea.exam", 12);
  text = load (xml, &report);
  g_assert_nonnull (report);
  g_assert_nonnull (strstr (text, "t.xml:1: warning: reserved name: the report name "
                                  "'allinea.examr'"));
  g_assert_nonnull (strstr (text, "t.xml:3: warning: reserved name: the report metric id "
                                  "'com.allinea.metrics.sample.average'"));
  mg_partial_report_free (report);
}

static void
test_colours_and_text (void)
{
  const char *xml =
    HEAD "<reportMetrics>\n"
    "<reportMetric id=\"r\" displayName=\"A\" source=\"metric\" colour=\"hsv(120, 100, 50)\">"
    "<sourceDetails metricRef=\"m\" sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
    "</reportMetrics><subsections>\n"
    "<subsection id=\"s\" heading=\"H\" colour=\"nocolour\">"
    "<text>Some <b>bold</b> &amp; <![CDATA[<i>it</i>]]></text></subsection>\n"
    "</subsections></partialReport>\n";
  MgPartialReport *report = NULL;
  g_autofree char *text = load (xml, &report);
  const MgReportMetric *metric;
  const MgReportSubsection *subsection;

  g_assert_nonnull (report);
  metric = g_ptr_array_index (report->metrics, 0);
  g_assert_true (metric->has_colour);
  g_assert_cmpfloat_with_epsilon (metric->colour.g, 0.5, 0.01);
  g_assert_cmpfloat_with_epsilon (metric->colour.r, 0.0, 0.01);
  subsection = g_ptr_array_index (report->subsections, 0);
  g_assert_false (subsection->has_colour);
  g_assert_nonnull (strstr (text, "t.xml:5: warning: "));
  g_assert_nonnull (strstr (text, "the default colour is used"));
  g_assert_cmpstr (subsection->text, ==, "Some <b>bold</b> &amp; <i>it</i>");
  mg_partial_report_free (report);
}

/* examples/report.xml and the built-in sections load without a word. */
static void
test_shipped_files (void)
{
  static const char *const files[] = {
    "examples/report.xml", "data/reports/10-cpu.xml", "data/reports/20-mpi.xml",
    "data/reports/30-io.xml", "data/reports/40-memory.xml", "data/reports/50-energy.xml",
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
  g_test_add_func ("/report/partial/good", test_good);
  g_test_add_func ("/report/partial/xmlns", test_xmlns);
  g_test_add_func ("/report/partial/ids", test_ids);
  g_test_add_func ("/report/partial/dotted-substring", test_dotted_substring);
  g_test_add_func ("/report/partial/sample-value-aggregation", test_sample_value_aggregation);
  g_test_add_func ("/report/partial/entry-and-source", test_entry_and_source);
  g_test_add_func ("/report/partial/reserved", test_reserved);
  g_test_add_func ("/report/partial/colours-and-text", test_colours_and_text);
  g_test_add_func ("/report/partial/shipped-files", test_shipped_files);
  return g_test_run ();
}
