/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit tests of the run plan parser (sampler/mg-plan.c), linked directly. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mg-plan.h"

static char *plan_path;

/* Parses text; returns 0 or -1 with the message in err. */
static int
parse (const char *text, MgPlan *plan, char *err, size_t err_len)
{
  g_autoptr(GError) error = NULL;
  g_file_set_contents (plan_path, text, -1, &error);
  g_assert_no_error (error);
  err[0] = '\0';
  return mg_plan_load (plan_path, plan, err, err_len);
}

#define HEAD "metrograph-plan 1\nrun_id\tr\nrecord_dir\t/tmp/x\n"

static void
test_full_plan (void)
{
  MgPlan plan;
  char err[512];
  g_unsetenv ("FORGE_SAMPLER_INTERVAL");
  g_unsetenv ("ALLINEA_SAMPLER_INTERVAL");
  g_unsetenv ("FORGE_SAMPLER_NUM_SAMPLES");
  g_unsetenv ("ALLINEA_SAMPLER_NUM_SAMPLES");
  int rc = parse (HEAD "# comment\nrun_id\tr\n\nfuture_keyword\ta\tb\tc\n"
                  "interval_ms\t7\nsamples\t64\nstart_after_ms\t0\nstop_after_ms\t900\n"
                  "skip_program\tmpirun\nskip_program\torted\n"
                  "source\t0\ts.id\t/lib/a\\tb.so\tgo\t\n"
                  "metric\t0\t0\tm.id\tget\tdouble\t%\t1\t1\t0\tsingle_value\tMY_ENV\ta\\\\b\\nc\\td\n",
                  &plan, err, sizeof err);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (rc, ==, 0);
  g_assert_cmpstr (plan.run_id, ==, "r");
  g_assert_cmpstr (plan.record_dir, ==, "/tmp/x");
  g_assert_cmpint (plan.interval_ms, ==, 7);
  g_assert_cmpint (plan.samples, ==, 64);
  g_assert_cmpint (plan.stop_after_ms, ==, 900);
  g_assert_cmpuint (plan.n_skip, ==, 2);
  g_assert_true (mg_plan_skips (&plan, "/usr/bin/orted"));
  g_assert_true (mg_plan_skips (&plan, "mpirun"));
  g_assert_false (mg_plan_skips (&plan, "/usr/bin/mpirun.real"));
  g_assert_cmpuint (plan.n_sources, ==, 1);
  g_assert_cmpstr (plan.sources[0].library, ==, "/lib/a\tb.so");
  g_assert_cmpstr (plan.sources[0].start_fn, ==, "go");
  g_assert_cmpstr (plan.sources[0].stop_fn, ==, "");
  g_assert_cmpuint (plan.n_metrics, ==, 1);
  MgPlanMetric *m = &plan.metrics[0];
  g_assert_true (m->is_double && m->divide && m->one_per_node && !m->backfill);
  g_assert_true (m->single_value);
  g_assert_cmpstr (m->units, ==, "%");
  g_assert_true (m->percent);
  g_assert_cmpstr (m->config_env, ==, "MY_ENV");
  g_assert_cmpstr (m->custom_data, ==, "a\\b\nc\td");
  mg_plan_clear (&plan);
  g_assert_null (plan.metrics);
}

static void
test_environment_fallbacks (void)
{
  MgPlan plan;
  char err[512];
  g_setenv ("FORGE_SAMPLER_INTERVAL", "junk", TRUE);
  g_setenv ("ALLINEA_SAMPLER_INTERVAL", "3", TRUE);
  g_setenv ("FORGE_SAMPLER_NUM_SAMPLES", "100", TRUE);
  g_setenv ("ALLINEA_SAMPLER_NUM_SAMPLES", "200", TRUE);
  g_assert_cmpint (parse (HEAD, &plan, err, sizeof err), ==, 0);
  g_assert_cmpint (plan.interval_ms, ==, 3);
  g_assert_cmpint (plan.samples, ==, 100);
  mg_plan_clear (&plan);
  g_unsetenv ("ALLINEA_SAMPLER_INTERVAL");
  g_unsetenv ("FORGE_SAMPLER_NUM_SAMPLES");
  g_setenv ("ALLINEA_SAMPLER_NUM_SAMPLES", "8", TRUE); /* below 16: ignored */
  g_assert_cmpint (parse (HEAD, &plan, err, sizeof err), ==, 0);
  g_assert_cmpint (plan.interval_ms, ==, 20);
  g_assert_cmpint (plan.samples, ==, 4096);
  mg_plan_clear (&plan);
  g_unsetenv ("FORGE_SAMPLER_INTERVAL");
  g_unsetenv ("ALLINEA_SAMPLER_NUM_SAMPLES");
}

static void
expect_error (const char *text, const char *message)
{
  MgPlan plan;
  char err[512];
  g_assert_cmpint (parse (text, &plan, err, sizeof err), ==, -1);
  g_autofree char *expect = g_strdup_printf ("%s:%s", plan_path, message);
  g_assert_cmpstr (err, ==, expect);
}

static void
test_errors (void)
{
  expect_error ("metrograph-plan 2\n", "1: first line is not 'metrograph-plan 1'");
  expect_error ("", "0: empty file, not a plan");
  expect_error ("metrograph-plan 1\nrecord_dir\t/x\n", "2: no 'run_id' line");
  expect_error ("metrograph-plan 1\nrun_id\tr\n", "2: no 'record_dir' line");
  expect_error (HEAD "samples\t15\n", "4: samples '15' is not an integer >= 16");
  expect_error (HEAD "interval_ms\t0\n", "4: interval_ms '0' is not an integer >= 1");
  expect_error (HEAD "interval_ms\t5\t6\n", "4: 'interval_ms' needs 1 field, found 2");
  expect_error (HEAD "run_id\ta\\qb\n", "4: unknown escape (only \\\\, \\t and \\n exist)");
  expect_error (HEAD "source\t1\ts\t/a.so\t\t\n", "4: source index '1' should be 0");
  expect_error (HEAD "source\t0\ts\ta.so\t\t\n", "4: source library 'a.so' is not an absolute path");
  expect_error (HEAD "metric\t0\t0\tm\tg\tuint64_t\t\t0\t0\t0\ttime\t\t\n",
                "4: metric source index '0' names no earlier source line");
  expect_error (HEAD "source\t0\ts\t/a.so\t\t\nmetric\t0\t0\tm\tg\tint\t\t0\t0\t0\ttime\t\t\n",
                "5: data type 'int' is neither uint64_t nor double");
  expect_error (HEAD "source\t0\ts\t/a.so\t\t\nmetric\t0\t0\tm\tg\tdouble\t\t2\t0\t0\ttime\t\t\n",
                "5: divide, one per node and backfill must be 0 or 1");
  expect_error (HEAD "source\t0\ts\t/a.so\t\t\nmetric\t0\t0\tm\tg\tdouble\t\t0\t0\t0\n",
                "5: 'metric' needs 12 fields, found 9");
  g_autofree char *longline = g_strnfill (5000, 'x');
  g_autofree char *text = g_strdup_printf (HEAD "# %s\n", longline);
  expect_error (text, "4: line longer than 4096 bytes");
  g_autofree char *missing = g_strdup_printf ("%s.missing", plan_path);
  MgPlan plan;
  char err[512];
  g_assert_cmpint (mg_plan_load (missing, &plan, err, sizeof err), ==, -1);
  g_assert_nonnull (strstr (err, "No such file or directory"));
}

static void
test_select_ranks (void)
{
  MgPlan plan;
  char err[512];
  g_assert_cmpint (parse (HEAD, &plan, err, sizeof err), ==, 0);
  g_assert_false (plan.select_ranks);
  g_assert_true (mg_plan_selects_rank (&plan, 0));
  g_assert_true (mg_plan_selects_rank (&plan, 12345));
  mg_plan_clear (&plan);

  g_assert_cmpint (parse (HEAD "select_ranks\t1,3-5,9\n", &plan, err, sizeof err), ==, 0);
  g_assert_true (plan.select_ranks);
  g_assert_cmpuint (plan.n_ranks, ==, 3);
  g_assert_cmpint (plan.ranks[1].first, ==, 3);
  g_assert_cmpint (plan.ranks[1].last, ==, 5);
  static const long in[] = { -1, 1, 3, 4, 5, 9 }, out[] = { 0, 2, 6, 8, 10, 100000 };
  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    g_assert_true (mg_plan_selects_rank (&plan, in[i]));
  for (guint i = 0; i < G_N_ELEMENTS (out); i++)
    g_assert_false (mg_plan_selects_rank (&plan, out[i]));
  mg_plan_clear (&plan);
  g_assert_null (plan.ranks);

  expect_error (HEAD "select_ranks\t1,x\n", "4: select_ranks: 'x' is not a rank or a range FIRST-LAST");
  expect_error (HEAD "select_ranks\t5-3\n", "4: select_ranks: '5-3' is not a rank or a range FIRST-LAST");
  expect_error (HEAD "select_ranks\t-2\n", "4: select_ranks: '-2' is not a rank or a range FIRST-LAST");
  expect_error (HEAD "select_ranks\t,\n", "4: select_ranks: the list is empty");
  expect_error (HEAD "select_ranks\t1\nselect_ranks\t2\n", "5: more than one 'select_ranks' line");
}

/* Checks the n metrics of a plan made by many_lines (). */
static void
assert_many_lines (const MgPlan *plan, guint n)
{
  g_assert_cmpuint (plan->n_sources, ==, 2);
  g_assert_cmpstr (plan->sources[1].id, ==, "s1");
  g_assert_cmpstr (plan->sources[1].library, ==, "/lib/s\\1.so");
  g_assert_cmpuint (plan->n_metrics, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("metric-%u", i);
      g_autofree char *data = g_strdup_printf ("%u\tx\n%s", i, i % 2 ? "odd" : "even");
      g_assert_cmpstr (plan->metrics[i].id, ==, id);
      g_assert_cmpuint (plan->metrics[i].source, ==, i % 2);
      g_assert_cmpstr (plan->metrics[i].custom_data, ==, data);
      g_assert_cmpstr (plan->metrics[i].getter, ==, "get");
    }
  g_assert_cmpuint (plan->n_skip, ==, 3);
  g_assert_true (mg_plan_skips (plan, "/bin/skip-2"));
  g_assert_cmpstr (plan->run_id, ==, "last");
}

/* A plan of n metric lines, each with escapes, the last line without its
 * newline; run_id given twice (the last counts). */
static char *
many_lines (guint n)
{
  GString *text = g_string_new ("metrograph-plan 1\nrun_id\tfirst\nrecord_dir\t/tmp/x\n"
                                "source\t0\ts0\t/lib/s0.so\t\t\n"
                                "source\t1\ts1\t/lib/s\\\\1.so\t\t\n");
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (text, "skip_program\tskip-%u\n", i);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "metric\t%u\t%u\tmetric-%u\tget\tuint64_t\tB\t0\t0\t0\t"
                            "time\t\t%u\\tx\\n%s\n", i, i % 2, i, i, i % 2 ? "odd" : "even");
  g_string_append (text, "run_id\tlast");
  return g_string_free (text, FALSE);
}

/* Every string points into one copy of the text, parsed in place: a plan
 * of many lines (over 16 KiB, the file reader's first buffer) keeps each
 * line's fields intact, read from the file and from the text alike, and
 * the text given (the environment's) is left as it was. */
static void
test_many_lines (void)
{
  const guint n = 300;
  g_autofree char *text = many_lines (n);
  g_autofree char *copy = g_strdup (text);
  MgPlan plan;
  char err[512];
  g_assert_cmpuint (strlen (text), >, 16384);
  g_assert_cmpint (parse (text, &plan, err, sizeof err), ==, 0);
  assert_many_lines (&plan, n);
  mg_plan_clear (&plan);
  g_assert_null (plan.text);
  g_assert_cmpint (mg_plan_load_text (plan_path, text, &plan, err, sizeof err), ==, 0);
  g_assert_cmpstr (text, ==, copy);
  assert_many_lines (&plan, n);
  mg_plan_clear (&plan);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("mg-plan-XXXXXX", &error);
  g_assert_no_error (error);
  plan_path = g_build_filename (dir, "plan", NULL);
  g_test_add_func ("/sampler/plan/full", test_full_plan);
  g_test_add_func ("/sampler/plan/environment", test_environment_fallbacks);
  g_test_add_func ("/sampler/plan/errors", test_errors);
  g_test_add_func ("/sampler/plan/select-ranks", test_select_ranks);
  g_test_add_func ("/sampler/plan/many-lines", test_many_lines);
  int rc = g_test_run ();
  g_unlink (plan_path);
  g_rmdir (dir);
  g_free (plan_path);
  return rc;
}
