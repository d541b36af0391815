/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text report against a golden file, and the HTML report: complete,
 * self-contained, the same facts, hostile partial reports made harmless. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "defs/mg-diagnostic.h"
#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"
#include "report-fixture.h"

/* The fixture's report with the built-in sections and examples/report.xml,
 * nothing else from this machine. */
static MgReport *
fixture_report (const char *extra_file)
{
  g_autofree char *example = report_fixture_source_path ("examples/report.xml");
  g_autofree char *installed = report_fixture_source_path ("data/reports");
  const char *paths[] = { example, extra_file, NULL };
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  g_autoptr (MgReportSet) set = NULL;

  g_setenv ("XDG_DATA_HOME", "/nonexistent", TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", "/nonexistent", TRUE);
  g_unsetenv ("METROGRAPH_REPORTS_PATH");
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
  set = mg_report_set_load (paths, installed);
  return mg_report_new (profile, "/runs/solver.mgprof", set->reports);
}

static void
test_golden_text (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  g_autofree char *text = mg_report_to_text (report);
  g_autofree char *golden_path = report_fixture_source_path ("tests/report/golden/report.txt");
  g_autofree char *golden = NULL;
  g_auto (GStrv) parts = NULL;
  g_autofree char *expected = NULL;

  if (g_getenv ("MG_WRITE_GOLDEN") != NULL)
    {
      g_auto (GStrv) split = g_strsplit (text, MG_VERSION, -1);
      g_autofree char *templated = g_strjoinv ("@VERSION@", split);

      g_assert_true (g_file_set_contents (golden_path, templated, -1, NULL));
    }
  g_assert_true (g_file_get_contents (golden_path, &golden, NULL, NULL));
  parts = g_strsplit (golden, "@VERSION@", -1);
  expected = g_strjoinv (MG_VERSION, parts);
  g_assert_cmpstr (text, ==, expected);
}

/* A name wider than the name column (LULESH's "CommSend(Domain&, int, …)
 * (lulesh-comm.cc:843)") has a line of its own; its value and bar follow
 * on the next line, in the same columns as every other line's. */
static void
test_long_name (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  const char *long_name = "CommSend(Domain&, int, int, double& (Domain::**)(int), int, int, int, "
                          "bool, bool) (lulesh-comm.cc:843)";
  MgReportSection *section = g_ptr_array_index (report->sections, 0);
  MgReportLine *line = mg_report_line_new (long_name, 26.8, "%", NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *first_bar = NULL;
  glong bar_column = -1;

  mg_report_line_set_scale (line, 100, FALSE, "%");
  g_ptr_array_add (section->lines, line);
  text = mg_report_to_text (report);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *bar = strstr (lines[i], "  |");

      if (bar != NULL && first_bar == NULL)
        {
          first_bar = lines[i];
          bar_column = bar - lines[i];
        }
      if (strstr (lines[i], long_name) != NULL)
        {
          g_autofree char *alone = g_strdup_printf ("  %s", long_name);

          g_assert_cmpstr (lines[i], ==, alone);
          g_assert_nonnull (lines[i + 1]);
          g_assert_true (g_str_has_suffix (lines[i + 1], "26.8 %  |#####               | of 100 %"));
          g_assert_cmpint (strstr (lines[i + 1], "  |") - lines[i + 1], ==, bar_column);
          return;
        }
    }
  g_error ("the long name is not in the text report:\n%s", text);
}

/* Names with wide characters (each two columns in a terminal) and a
 * combining accent (none) keep their values and bars in the columns of
 * the others': the bar's byte offset is the plain lines' plus the bytes
 * the name has beyond its columns. Counted in characters, the bar of
 * "計算負荷関数" stood 6 columns right of the others, that of
 * "cafe\u0301" one column left. */
static void
test_wide_names (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  MgReportSection *section = g_ptr_array_index (report->sections, 0);
  const struct {
    const char *name;
    glong extra_bytes; /* its UTF-8 bytes less its columns */
  } names[] = {
    { "\u8a08\u7b97\u8ca0\u8377\u95a2\u6570 (a.c:1)", 18 - 12 },
    { "cafe\u0301 (b.c:2)", 6 - 4 },
    { "plain (c.c:3)", 0 },
  };
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  glong bar_column = -1;
  guint found = 0;

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      MgReportLine *line = mg_report_line_new (names[k].name, 10.0 * (k + 1), "%", NULL);

      mg_report_line_set_scale (line, 100, FALSE, "%");
      g_ptr_array_add (section->lines, line);
    }
  text = mg_report_to_text (report);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "  plain (c.c:3)"))
      bar_column = strstr (lines[i], "  |") - lines[i];
  g_assert_cmpint (bar_column, >, 0);
  for (guint i = 0; lines[i] != NULL; i++)
    for (guint k = 0; k < G_N_ELEMENTS (names); k++)
      if (g_str_has_prefix (lines[i], "  ") && g_str_has_prefix (lines[i] + 2, names[k].name))
        {
          const char *bar = strstr (lines[i], "  |");

          g_assert_nonnull (bar);
          g_assert_cmpint (bar - lines[i], ==, bar_column + names[k].extra_bytes);
          found++;
        }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (names));
}

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found", needle);
}

/* Names from the run in the HTML: a module called caf\xe9 naming an
 * unresolved frame, a function with a tab, ESC and markup in its name.
 * The page, which says it is UTF-8, is (it held the byte \xe9), and the
 * control characters are the text report's escapes (ESC was the
 * character reference &#x1b;, which HTML forbids, the tab a space). */
static void
test_html_names (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  MgReportSection *section = g_ptr_array_index (report->sections, 0);
  g_autofree char *html = NULL;

  g_ptr_array_add (section->lines, mg_report_line_new ("strip;caf\xe9+0x1640", 12.5, "%", NULL));
  g_ptr_array_add (section->lines,
                   mg_report_line_new ("ctl\t\x1b[31m<script>&\"'", 10.0, "%", NULL));
  html = mg_report_to_html (report);
  g_assert_true (g_utf8_validate (html, -1, NULL));
  assert_contains (html, "<th>strip;caf\xef\xbf\xbd+0x1640</th>");
  assert_contains (html, "<th>ctl\\t\\x1b[31m&lt;script&gt;&amp;&quot;&apos;</th>");
  g_assert_null (strstr (html, "&#x1b;"));
  g_assert_null (strstr (html, "<script"));
}

static const MgReportLine *
find_summary_line (const MgReport *report, const char *name)
{
  for (guint i = 0; i < report->summary->len; i++)
    {
      const MgReportLine *line = g_ptr_array_index (report->summary, i);

      if (g_str_equal (line->name, name))
        return line;
    }
  g_error ("no summary line “%s”", name);
}

/* Each bar against its own maximum, which it states (issue #32): shares
 * against 100 %, a rate against the run's peak of that rate. The fixture
 * reads 6 (k + 1) MiB/s in window k of 8 (mean 27, peak 48) and writes a
 * steady 24 KiB/s, which the read rate's scale drew as an empty bar. */
static void
test_bar_scales (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  g_autofree char *html = mg_report_to_html (report);
  const MgReportLine *read = find_summary_line (report, "I/O read rate (all processes)");
  const MgReportLine *written = find_summary_line (report, "I/O write rate (all processes)");
  const MgReportLine *compute = find_summary_line (report, "Compute (on the CPU)");

  g_assert_cmpfloat_with_epsilon (read->value, 27.0 * 1048576, 1e-6);
  g_assert_cmpfloat_with_epsilon (read->bar, 27.0 / 48.0, 1e-9);
  g_assert_cmpstr (read->scale_text, ==, "of the peak, 48.0 MiB/s");
  g_assert_cmpfloat_with_epsilon (written->bar, 1.0, 1e-9);
  g_assert_cmpstr (written->scale_text, ==, "of the peak, 24.0 KiB/s");
  g_assert_cmpfloat_with_epsilon (compute->bar, 0.735, 1e-9);
  g_assert_cmpstr (compute->scale_text, ==, "of 100 %");
  /* A line without a value has no bar and no scale. */
  g_assert_true (isnan (find_summary_line (report, "MPI calls")->bar));
  g_assert_null (find_summary_line (report, "MPI calls")->scale_text);
  assert_contains (html, "<div class=\"scale\">of the peak, 48.0 MiB/s</div>");
  assert_contains (html, "<div class=\"scale\">of 100 %</div>");
}

static void
test_html (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  g_autofree char *html = mg_report_to_html (report);

  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
  assert_contains (html, "<style>");
  assert_contains (html, "<td>./solver --grid &apos;big input&apos;</td>");
  /* The summary: CPU 73.5 %, MPI not recorded with its error. */
  assert_contains (html, "<td class=\"value\">73.5 %</td><td><div class=\"bar\"><span "
                         "style=\"width:73.5%;background:");
  assert_contains (html, "<th>MPI calls</th><td class=\"missing\" colspan=\"2\">not recorded in "
                         "this run: the MPI library is not loaded</td>");
  assert_contains (html, "<h2>CPU</h2>");
  assert_contains (html, "<h2>I/O</h2>");
  assert_contains (html, "<h2>Memory</h2>");
  /* hsl(21, 70, 71) */
  assert_contains (html, "<h2 style=\"color:#E9A681\">Interrupts</h2>");
  /* Built-in sections with nothing recorded are left out. */
  g_assert_null (strstr (html, "<h2>MPI</h2>"));
  g_assert_null (strstr (html, "<h2>Energy</h2>"));
  /* Self-contained. */
  g_assert_null (strstr (html, "<script"));
  g_assert_null (strstr (html, "src="));
  g_assert_null (strstr (html, "href="));
  g_assert_null (strstr (html, "@import"));
  g_assert_null (strstr (html, "url("));
}

static void
test_hostile_report (void)
{
  g_autofree char *dir = g_dir_make_tmp ("metrograph-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "evil.xml", NULL);
  const char *xml =
    "<partialReport name=\"org.example.evil\" xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\">\n"
    "<reportMetrics><reportMetric id=\"r\" source=\"metric\" units=\"/s\" "
    "displayName=\"&lt;script&gt;alert(1)&lt;/script&gt;Rate\" "
    "tooltip=\"&lt;img src=x onerror=alert(2)&gt;tip\">"
    "<sourceDetails metricRef=\"rchar_rate\" sampleValue=\"sum\" aggregation=\"mean\"/>"
    "</reportMetric></reportMetrics>\n"
    "<subsections><subsection id=\"s\" heading=\"&lt;/h2&gt;&lt;script&gt;x()&lt;/script&gt;\">"
    "<text><![CDATA[<p onclick=\"x()\">Hi <a href=\"javascript:x()\">there</a></p>"
    "<script>alert(3)</script><iframe src=\"https://evil.example\"></iframe>]]></text>"
    "<entry reportMetric=\"r\"/></subsection></subsections></partialReport>\n";
  g_autoptr (MgReport) report = NULL;
  g_autofree char *html = NULL, *text = NULL;

  g_assert_true (g_file_set_contents (path, xml, -1, NULL));
  report = fixture_report (path);
  html = mg_report_to_html (report);
  text = mg_report_to_text (report);
  g_assert_null (strstr (html, "<script"));
  g_assert_null (strstr (html, "<iframe"));
  g_assert_null (strstr (html, "onclick"));
  g_assert_null (strstr (html, "onerror=alert"));
  g_assert_null (strstr (html, "javascript:"));
  assert_contains (html, "<h2>&lt;/h2&gt;&lt;script&gt;x()&lt;/script&gt;</h2>");
  assert_contains (html, "<div class=\"text\"><p>Hi <a rel=\"noopener noreferrer\">there</a>"
                         "</p></div>");
  assert_contains (html, "<th title=\"tip\">&lt;script&gt;alert(1)&lt;/script&gt;Rate</th>");
  /* The text report shows the text without tags. */
  assert_contains (text, "\nHi there\n");
  g_unlink (path);
  g_rmdir (dir);
}

/* --baseline: each line gets the baseline's value and the change; only
 * changes beyond the stated noise are marked. */
static void
test_baseline (void)
{
  g_autoptr (MgReport) report = fixture_report (NULL);
  g_autoptr (MgReport) same = fixture_report (NULL);
  g_autofree char *text = NULL, *html = NULL;
  MgReportLine *compute;
  MgReportLine probe = { .value = 105, .baseline = 100, .change = 0.05 };

  mg_report_compare (report, same, "/runs/old.mgprof");
  text = mg_report_to_text (report);
  html = mg_report_to_html (report);
  assert_contains (text, "Baseline         /runs/old.mgprof (changes under 5 % are within "
                         "run-to-run noise and not marked)\n");
  assert_contains (text, "73.5 %  |###############     | of 100 %  (was 73.5 %, +0 %)\n");
  g_assert_null (strstr (text, " !)"));
  assert_contains (html, "<td class=\"baseline\">73.5 % +0 %</td>");
  g_assert_null (strstr (html, "<b>"));

  /* A change beyond the noise is marked, in both formats. */
  compute = g_ptr_array_index (report->summary, 0);
  compute->baseline = 50.0;
  g_free (compute->baseline_text);
  compute->baseline_text = g_strdup ("50.0 %");
  compute->change = (compute->value - 50.0) / 50.0;
  g_free (text);
  g_free (html);
  text = mg_report_to_text (report);
  html = mg_report_to_html (report);
  assert_contains (text, "(was 50.0 %, +47 % !)");
  assert_contains (html, "<td class=\"baseline\">50.0 % <b>+47 %</b></td>");
  g_assert_true (mg_report_line_changed (&probe));
  probe.change = 0.049;
  g_assert_false (mg_report_line_changed (&probe));
  probe.change = NAN;
  g_assert_false (mg_report_line_changed (&probe));
}

/* A user's section of which nothing was recorded is one line, with the
 * reason its metrics share, not a line per metric. */
static void
test_nothing_recorded (void)
{
  static const char xml[] =
    "<partialReport name=\"MpiReport\" xmlns=\"http://www.allinea.com/2016/AllineaReports\">\n"
    "  <reportMetrics>\n"
    "    <reportMetric id=\"calls.mean\" displayName=\"Mean MPI calls\" units=\"/s\" source=\"metric\">\n"
    "      <sourceDetails metricRef=\"mpi_calls\" sampleValue=\"mean\" aggregation=\"mean\"/>\n"
    "    </reportMetric>\n"
    "    <reportMetric id=\"calls.peak\" displayName=\"Peak MPI calls\" units=\"/s\" source=\"metric\">\n"
    "      <sourceDetails metricRef=\"mpi_calls\" sampleValue=\"max\" aggregation=\"max\"/>\n"
    "    </reportMetric>\n"
    "  </reportMetrics>\n"
    "  <subsections>\n"
    "    <subsection id=\"mpi\" heading=\"MPI calls\">\n"
    "      <text>Calls per second</text>\n"
    "      <entry reportMetric=\"calls.mean\"/>\n"
    "      <entry reportMetric=\"calls.peak\"/>\n"
    "    </subsection>\n"
    "  </subsections>\n"
    "</partialReport>\n";
  g_autofree char *dir = g_dir_make_tmp ("mg-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mpi.xml", NULL);

  g_assert_true (g_file_set_contents (path, xml, -1, NULL));
  g_autoptr (MgReport) report = fixture_report (path);
  const MgReportSection *mpi = NULL;
  for (guint i = 0; i < report->sections->len; i++)
    if (g_strcmp0 (((MgReportSection *) report->sections->pdata[i])->heading, "MPI calls") == 0)
      mpi = report->sections->pdata[i];
  g_assert_nonnull (mpi);
  g_assert_cmpuint (mpi->lines->len, ==, 1);
  const MgReportLine *line = g_ptr_array_index (mpi->lines, 0);
  g_assert_cmpstr (line->name, ==, "2 metrics");
  g_assert_cmpstr (line->value_text, ==, "not recorded in this run: the MPI library is not loaded");
  g_assert_null (mpi->text);
  g_autofree char *text = mg_report_to_text (report);
  g_assert_null (strstr (text, "Mean MPI calls"));
  /* The example's section, recorded, keeps its lines. */
  assert_contains (text, "Mean interrupts");
  g_unlink (path);
  g_rmdir (dir);
}

/* Two ranks for 4 windows of 1 s: rank 0 blocked in MPI all along, its
 * library spinning on the CPU (100 % CPU, 100 % MPI time, no call
 * returned, so no call counted), rank 1 computing. */
static MgProfile *
blocked_rank_profile (gboolean with_mpi_time)
{
  static const char *const ids[] = { "cpu_time_percentage", "mpi_call_time", "mpi_calls",
                                     "mpi_time_percentage" };
  static const char *const units[] = { "%", "ns", "calls/s", "%" };
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "./ring", NULL };
  guint n_metrics = with_mpi_time ? 4 : 3;

  mg_profile_builder_set_command (builder, argv, "/work");
  mg_profile_builder_set_interval (builder, 1000.0, 1000.0, 100);
  for (guint m = 0; m < n_metrics; m++)
    {
      g_autoptr (MgMetricDef) def = mg_metric_def_new ();
      def->id = g_strdup (ids[m]);
      g_free (def->units);
      def->units = g_strdup (units[m]);
      def->domain = MG_DOMAIN_TIME;
      def->display_name = g_strdup (ids[m]);
      def->source_ref = g_strdup ("org.example.source");
      mg_profile_builder_add_metric (builder, def);
    }
  for (guint p = 0; p < 2; p++)
    {
      MgProcessInfo info = { 100 + (int) p, 1, (int) p, (char *) "node-a", (char *) "./ring",
                             0.0, 4.0, MG_PROCESS_END_EXITED, 0, p == 0 };
      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 4; k++)
        {
          double v[4] = { 100.0, 0.0, 0.0, p == 0 ? 100.0 : 0.0 };
          mg_profile_builder_add_sample (builder, p, k, k + 1.0, v, v, v);
        }
    }
  MgProfile *profile = mg_profile_builder_finish (builder, 4, &error);
  g_assert_no_error (error);
  return profile;
}

/* The summary's MPI share is MPI time, calls in flight included, and CPU
 * time spent spinning in MPI is not computation. */
static void
test_summary_mpi_in_flight (void)
{
  g_autoptr (MgProfile) profile = blocked_rank_profile (TRUE);
  MgReport *report = mg_report_new (profile, NULL, NULL);
  const MgReportLine *compute = g_ptr_array_index (report->summary, 0);
  const MgReportLine *mpi = g_ptr_array_index (report->summary, 1);
  const MgReportLine *neither = g_ptr_array_index (report->summary, 2);

  g_assert_cmpfloat_with_epsilon (mpi->value, 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (compute->value, 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (neither->value, 0.0, 1e-9);
  g_assert_cmpstr (report->sentence, ==,
                   "This run is MPI-bound: its processes spend 50 % of their time in MPI calls.");
  mg_report_free (report);

  /* Without MPI time, the calls that returned are all the summary sees. */
  g_autoptr (MgProfile) old = blocked_rank_profile (FALSE);
  report = mg_report_new (old, NULL, NULL);
  mpi = g_ptr_array_index (report->summary, 1);
  compute = g_ptr_array_index (report->summary, 0);
  g_assert_cmpfloat_with_epsilon (mpi->value, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (compute->value, 100.0, 1e-9);
  mg_report_free (report);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/writers/golden-text", test_golden_text);
  g_test_add_func ("/report/writers/long-name", test_long_name);
  g_test_add_func ("/report/writers/wide-names", test_wide_names);
  g_test_add_func ("/report/writers/html-names", test_html_names);
  g_test_add_func ("/report/writers/html", test_html);
  g_test_add_func ("/report/writers/bar-scales", test_bar_scales);
  g_test_add_func ("/report/writers/hostile-report", test_hostile_report);
  g_test_add_func ("/report/writers/baseline", test_baseline);
  g_test_add_func ("/report/writers/nothing-recorded", test_nothing_recorded);

  g_test_add_func ("/report/writers/summary-mpi-in-flight", test_summary_mpi_in_flight);
  return g_test_run ();
}
