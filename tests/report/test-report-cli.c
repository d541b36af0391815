/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrograph --report and --list-reports end to end: a profile of the
 * workload with the custom1 example plugin, reported with
 * examples/report.xml. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "cli-harness.h"
#include "profile/mg-profile.h"
#include "report/mg-report-value.h"
#include "defs/mg-units.h"
#include "report-fixture.h"

#define CUSTOM1_ID "com.allinea.metrics.custom1.interrupts"

typedef struct {
  char *dir;
  char *example_report;
} Fixture;

#define assert_status(run, expected)                                                 \
  G_STMT_START                                                                       \
  {                                                                                  \
    if ((run)->status != (expected))                                                 \
      g_error ("metrograph exited with %d, expected %d; stderr:\n%s", (run)->status,  \
               (int) (expected), (run)->err);                                        \
  }                                                                                  \
  G_STMT_END

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autofree char *runs = NULL;

  f->dir = cli_test_tmpdir_new ();
  runs = g_build_filename (f->dir, "runs", NULL);
  g_assert_cmpint (g_mkdir (runs, 0700), ==, 0);
  g_setenv ("METROGRAPH_TMPDIR", runs, TRUE);
  f->example_report = report_fixture_source_path ("examples/report.xml");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_unsetenv ("METROGRAPH_TMPDIR");
  cli_test_tmpdir_remove (f->dir);
  g_free (f->dir);
  g_free (f->example_report);
}

static char *
read_file (Fixture *f, const char *name)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_end_to_end (Fixture *f, gconstpointer data)
{
  g_autofree char *examples = cli_test_build_path ("examples");
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-workload");
  g_autofree char *reports_path = g_strconcat ("--reports-path=", f->example_report, NULL);
  const char *profile_args[] = { "--profile", "--metrics-path", examples, "-o", "p.mgprof",
                                 workload, "work=1", NULL };
  const char *report_args[] = { "--report", reports_path, "p.mgprof", NULL };
  const char *stdout_args[] = { "--report=-", reports_path, "p.mgprof", NULL };
  const char *html_args[] = { "--report=only.html", reports_path, "p.mgprof", NULL };
  g_autoptr (CliTestRun) profiled = cli_test_run (f->dir, profile_args);
  g_autoptr (CliTestRun) reported = NULL, printed = NULL, html_only = NULL;
  g_autofree char *text = NULL, *html = NULL, *path = NULL, *expected = NULL, *line = NULL;
  g_autoptr (MgProfile) profile = NULL;
  MgMetricDef per_second = { .units = (char *) "/s", .display_factor = 1.0,
                             .decimal_places = -1 };
  double mean;

  assert_status (profiled, 0);
  reported = cli_test_run (f->dir, report_args);
  assert_status (reported, 0);
  g_assert_cmpstr (reported->err, ==, "");
  text = read_file (f, "p.txt");
  html = read_file (f, "p.html");
  assert_contains (text, "Interrupts\n----------\n");
  assert_contains (html, "Interrupts</h2>");
  assert_contains (text, "Command ");
  assert_contains (text, "mg-cli-workload work=1");

  /* The value shown is the profile's, computed as the spec says. */
  path = g_build_filename (f->dir, "p.mgprof", NULL);
  profile = mg_profile_load (path, NULL);
  g_assert_nonnull (profile);
  mean = mg_report_value_compute (profile, CUSTOM1_ID, MG_REPORT_PICK_MEAN, MG_REPORT_PICK_MEAN,
                                  NULL);
  g_assert_false (isnan (mean));
  expected = mg_units_format_value (&per_second, mean);
  line = g_strdup_printf ("%s  |", expected);
  assert_contains (strstr (text, "Mean interrupts"), line);

  printed = cli_test_run (f->dir, stdout_args);
  assert_status (printed, 0);
  g_assert_cmpstr (printed->out, ==, text);
  {
    const char *baseline_args[] = { "--report=-", "--baseline=p.mgprof", reports_path,
                                    "p.mgprof", NULL };
    g_autoptr (CliTestRun) compared = cli_test_run (f->dir, baseline_args);

    assert_status (compared, 0);
    assert_contains (compared->out, "Baseline         p.mgprof (changes under 5 %");
    assert_contains (compared->out, ", +0 %)\n");
  }

  html_only = cli_test_run (f->dir, html_args);
  assert_status (html_only, 0);
  g_free (html);
  html = read_file (f, "only.html");
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>"));
}

/* --profile --report: the profile and both reports with the same stem;
 * the word after --report is the program. */
static void
test_profile_and_report (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-workload");
  const char *args[] = { "--profile", "--report", "-o", "run.mgprof", workload, "--report", NULL };
  const char *bare[] = { "--profile", "--report", workload, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (CliTestRun) bare_run = NULL;
  g_autofree char *text = NULL, *html = NULL, *output = NULL;

  assert_status (run, 0);
  text = read_file (f, "run.txt");
  html = read_file (f, "run.html");
  assert_contains (text, "mg-cli-workload --report\n");
  assert_contains (html, "<h2>CPU</h2>");
  /* The program's own output: it got --report as its argument. */
  assert_contains (run->out, "--report");
  bare_run = cli_test_run (f->dir, bare);
  assert_status (bare_run, 0);
  {
    g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
    const char *name;
    guint reports = 0;

    while ((name = g_dir_read_name (dir)) != NULL)
      if (g_str_has_prefix (name, "mg-cli-workload_1p_1n_")
          && (g_str_has_suffix (name, ".txt") || g_str_has_suffix (name, ".html")))
        reports++;
    g_assert_cmpuint (reports, ==, 2);
  }
}

static void
test_list_and_refused (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = g_build_filename (f->dir, "a-bad.xml", NULL);
  g_autofree char *installed = report_fixture_source_path ("data/reports/10-cpu.xml");
  g_autofree char *folder_arg = g_strconcat ("--reports-path=", f->dir, NULL);
  g_autofree char *example_arg = g_strconcat ("--reports-path=", f->example_report, NULL);
  const char *list_args[] = { "--list-reports", folder_arg, example_arg, NULL };
  g_autoptr (CliTestRun) listed = NULL;
  g_autofree char *first = NULL, *error_line = NULL, *cpu = NULL;

  g_assert_true (g_file_set_contents (bad, "<partialReport name=\"x\">\n</partialReport>\n", -1,
                                      NULL));
  listed = cli_test_run (f->dir, list_args);
  assert_status (listed, 0);
  first = g_strdup_printf ("1. %s (from --reports-path): refused\n", bad);
  error_line = g_strdup_printf ("   %s:1: error: xmlns missing", bad);
  cpu = g_strdup_printf ("%s (from installed): used [org.metrograph.report.cpu]", installed);
  g_assert_true (g_str_has_prefix (listed->out, first));
  assert_contains (listed->out, error_line);
  assert_contains (listed->out, "/examples/report.xml (from --reports-path): used "
                                "[InterruptsReport]");
  assert_contains (listed->out, cpu);
}

/* A partial report whose bytes do not convert from its declared encoding is
 * one diagnostic naming the file and line; libxml2 prints nothing itself
 * (its generic handler is silenced for reports as for definition files). */
static void
test_bad_encoding (Fixture *f, gconstpointer data)
{
  static const char xml[] =
    "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<partialReport name=\"x\">\x8e\x1e\n"
    "</partialReport>\n";
  g_autofree char *bad = g_build_filename (f->dir, "bad.xml", NULL);
  g_autofree char *folder_arg = g_strconcat ("--reports-path=", bad, NULL);
  const char *list_args[] = { "--list-reports", folder_arg, NULL };
  g_autoptr (CliTestRun) listed = NULL;
  g_autofree char *error_line = NULL;

  g_assert_true (g_file_set_contents (bad, xml, sizeof xml - 1, NULL));
  listed = cli_test_run (f->dir, list_args);
  assert_status (listed, 0);
  error_line = g_strdup_printf ("   %s:2: error: not well-formed XML (", bad);
  assert_contains (listed->out, error_line);
  g_assert_null (strstr (listed->err, "encoding error"));
  g_assert_null (strstr (listed->err, "I/O error"));
}

/* A refused partial report is said on stderr, naming the file; the report
 * is written with the others. */
static void
test_report_with_refused_file (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = g_build_filename (f->dir, "bad.xml", NULL);
  g_autofree char *profile = g_build_filename (f->dir, "fixture.mgprof", NULL);
  g_autoptr (MgProfile) fixture = report_fixture_profile ();
  const char *args[] = { "--report=out.txt", "--reports-path=bad.xml", "fixture.mgprof", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *expected = NULL, *text = NULL;

  g_assert_true (mg_profile_save (fixture, profile, NULL));
  g_assert_true (g_file_set_contents (bad, "<partialReport xmlns=\"http://www.allinea.com/2016/"
                                      "AllineaReports\" name=\"b\">\n<reportMetrics>\n"
                                      "<reportMetric id=\"_x\" source=\"metric\"/>\n"
                                      "</reportMetrics></partialReport>\n", -1, NULL));
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  expected = g_strdup_printf ("metrograph: %s:3: error: invalid id: the report metric id '_x' "
                              "begins with '_'", bad);
  assert_contains (run->err, expected);
  text = read_file (f, "out.txt");
  assert_contains (text, "CPU\n---\n");
}

/* --profile with a report that cannot be written: the profile is saved
 * all the same, the exit status says the report failed, and the message
 * gives the command that writes it from the profile. */
static void
test_profile_report_fails (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-workload");
  const char *args[] = { "--profile", "--report=nodir/r.txt", "-o", "run.mgprof", workload,
                         NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *profile_path = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;

  assert_status (run, 6);
  assert_contains (run->err, "metrograph: cannot write the report: ");
  assert_contains (run->err, "; the profile is saved: metrograph --report=nodir/r.txt ");
  assert_contains (run->err, "run.mgprof writes the report from it\n");
  profile = mg_profile_load (profile_path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
}

static void
test_usage (Fixture *f, gconstpointer data)
{
  const char *pdf[] = { "--report=x.pdf", "p.mgprof", NULL };
  const char *none[] = { "--report", NULL };
  const char *two[] = { "--report", "a.mgprof", "b.mgprof", NULL };
  const char *missing[] = { "--report", "missing.mgprof", NULL };
  const char *lonely[] = { "--reports-path=x", NULL };
  const char *with_export[] = { "--report", "--export=x.json", "p.mgprof", NULL };
  const char *lonely_baseline[] = { "--baseline=a.mgprof", "b.mgprof", NULL };
  const char *bad_baseline[] = { "--report=-", "--baseline=missing.mgprof", "fixture.mgprof",
                                 NULL };
  g_autofree char *fixture_path = g_build_filename (f->dir, "fixture.mgprof", NULL);
  g_autoptr (MgProfile) fixture = report_fixture_profile ();
  struct {
    const char *const *args;
    int status;
    const char *message;
  } cases[] = {
    { pdf, 2, "--report=x.pdf: the file name must end in .txt or .html" },
    { none, 2, "--report needs exactly one profile" },
    { two, 2, "--report needs exactly one profile" },
    { missing, 6, "cannot read the profile" },
    { lonely, 2, "--reports-path goes with --report or --list-reports" },
    { with_export, 2, "cannot be combined" },
    { lonely_baseline, 2, "--baseline goes with --report" },
    { bad_baseline, 6, "cannot read the baseline" },
  };

  g_assert_true (mg_profile_save (fixture, fixture_path, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, cases[i].args);

      assert_status (run, cases[i].status);
      assert_contains (run->err, cases[i].message);
      g_assert_true (g_str_has_prefix (run->err, "metrograph: "));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/report/cli/end-to-end", Fixture, NULL, fixture_setup, test_end_to_end,
              fixture_teardown);
  g_test_add ("/report/cli/profile-and-report", Fixture, NULL, fixture_setup,
              test_profile_and_report, fixture_teardown);
  g_test_add ("/report/cli/list-and-refused", Fixture, NULL, fixture_setup,
              test_list_and_refused, fixture_teardown);
  g_test_add ("/report/cli/bad-encoding", Fixture, NULL, fixture_setup, test_bad_encoding,
              fixture_teardown);
  g_test_add ("/report/cli/refused-file", Fixture, NULL, fixture_setup,
              test_report_with_refused_file, fixture_teardown);
  g_test_add ("/report/cli/profile-report-fails", Fixture, NULL, fixture_setup,
              test_profile_report_fails, fixture_teardown);
  g_test_add ("/report/cli/usage", Fixture, NULL, fixture_setup, test_usage, fixture_teardown);
  return g_test_run ();
}
