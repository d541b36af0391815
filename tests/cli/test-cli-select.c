/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --export's --range and --processes on a 2-process profile (a fork child
 * that execs): every format exported whole, per process and per range,
 * the files read back and checked against the profile and each other. */
#include "mg-config.h"

#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "cli-harness.h"
#include "profile/mg-profile.h"
#include "profile/mg-stack-set.h"

typedef CliTestFolder Fixture;

#define assert_status(run, expected)                                                  \
  G_STMT_START                                                                        \
  {                                                                                   \
    if ((run)->status != (expected))                                                  \
      g_error ("metrograph exited with %d, expected %d; stderr:\n%s", (run)->status,   \
               (int) (expected), (run)->err);                                         \
  }                                                                                   \
  G_STMT_END

#define assert_err_has(run, text)                                                     \
  G_STMT_START                                                                        \
  {                                                                                   \
    if (strstr ((run)->err, (text)) == NULL)                                          \
      g_error ("no “%s” in:\n%s", (text), (run)->err);                                \
  }                                                                                   \
  G_STMT_END

static CliTestRun *
export (Fixture *f, const char *file, const char *range, const char *processes)
{
  g_autofree char *e = g_strdup_printf ("--export=%s", file);
  g_autofree char *r = range != NULL ? g_strdup_printf ("--range=%s", range) : NULL;
  g_autofree char *p = processes != NULL ? g_strdup_printf ("--processes=%s", processes) : NULL;
  const char *args[5] = { e, NULL };
  guint n = 1;

  if (r != NULL)
    args[n++] = r;
  if (p != NULL)
    args[n++] = p;
  args[n++] = "run.mgprof";
  return cli_test_run (f->dir, args);
}

/* Sum of the counts of a folded file. */
static guint64
folded_total (Fixture *f, const char *file)
{
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  g_autofree char *text = NULL;
  guint64 total = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');

      if (lines[i][0] == '\0')
        continue;
      g_assert_nonnull (space);
      total += g_ascii_strtoull (space + 1, NULL, 10);
    }
  return total;
}

static guint64
stacks_total (MgProfile *profile, const gboolean *processes, double start_s, double end_s)
{
  MgStackSet *set = mg_stack_set_new_for_processes (profile, processes, start_s, end_s);
  guint64 total = mg_stack_set_get_total (set);

  mg_stack_set_free (set);
  return total;
}

static JsonParser *
read_json (Fixture *f, const char *file)
{
  g_autofree char *path = g_build_filename (f->dir, file, NULL);
  g_autoptr (GError) error = NULL;
  JsonParser *parser = json_parser_new ();

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return parser;
}

static JsonObject *
samples_of (JsonParser *parser)
{
  return json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                        "samples");
}

static double
value_at (JsonObject *metric, const char *row, guint w)
{
  JsonNode *node = json_array_get_element (json_object_get_array_member (metric, row), w);

  return JSON_NODE_HOLDS_NULL (node) ? NAN : json_node_get_double (node);
}

/* The aggregates of processes 0 and 1 chosen together against each alone:
 * sums add up, min and max are the lower and higher, wherever both have
 * a value; where one has none, the pair has the other's. */
static guint
check_pair (JsonObject *pair, JsonObject *p0, JsonObject *p1, guint n)
{
  guint both = 0;

  for (guint w = 0; w < n; w++)
    {
      double s0 = value_at (p0, "sums", w), s1 = value_at (p1, "sums", w);
      double s = value_at (pair, "sums", w);

      if (isnan (s0) && isnan (s1))
        {
          g_assert_true (isnan (s));
          continue;
        }
      if (isnan (s0) || isnan (s1))
        {
          g_assert_cmpfloat_with_epsilon (s, isnan (s0) ? s1 : s0, 1e-9 * (1 + fabs (s)));
          continue;
        }
      both++;
      g_assert_cmpfloat_with_epsilon (s, s0 + s1, 1e-9 * (1 + fabs (s)));
      g_assert_cmpfloat (value_at (pair, "mins", w), ==,
                         MIN (value_at (p0, "mins", w), value_at (p1, "mins", w)));
      g_assert_cmpfloat (value_at (pair, "maxs", w), ==,
                         MAX (value_at (p0, "maxs", w), value_at (p1, "maxs", w)));
      g_assert_cmpfloat_with_epsilon (value_at (pair, "means", w), (s0 + s1) / 2,
                                      1e-9 * (1 + fabs (s)));
    }
  return both;
}

/* One process chosen: a window's mean is the mean of the process's own
 * samples that end in it, its variance 0, its sum the mean. */
static guint
check_alone (JsonObject *agg, const MgProcessSeries *ps, MgProfile *profile)
{
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  guint checked = 0;

  for (guint w = 0; w < mg_profile_get_n_windows (profile); w++)
    {
      double sum = 0, lo = INFINITY;
      guint n = 0;

      for (guint i = 0; i < ps->n; i++)
        if (ps->times[i] > starts[w] && ps->times[i] <= ends[w] && !isnan (ps->means[i]))
          sum += ps->means[i], n++, lo = MIN (lo, ps->mins[i]);
      if (n == 0)
        {
          g_assert_true (isnan (value_at (agg, "means", w)));
          continue;
        }
      checked++;
      g_assert_cmpfloat_with_epsilon (value_at (agg, "means", w), sum / n,
                                      1e-9 * (1 + fabs (sum / n)));
      g_assert_cmpfloat_with_epsilon (value_at (agg, "sums", w), sum / n,
                                      1e-9 * (1 + fabs (sum / n)));
      g_assert_cmpfloat (value_at (agg, "vars", w), ==, 0.0);
      g_assert_cmpfloat (value_at (agg, "mins", w), ==, lo);
    }
  return checked;
}

static void
check_json (Fixture *f, MgProfile *profile)
{
  guint alone = 0;
  g_autoptr (JsonParser) j0 = read_json (f, "p0.json");
  g_autoptr (JsonParser) j1 = read_json (f, "p1.json");
  g_autoptr (JsonParser) j01 = read_json (f, "p01.json");
  guint n = mg_profile_get_n_windows (profile), both = 0;
  JsonObject *s0 = samples_of (j0), *s1 = samples_of (j1), *s01 = samples_of (j01);

  g_assert_cmpint (json_object_get_int_member (s0, "count"), ==, n);
  g_assert_cmpint (json_object_get_int_member (s01, "count"), ==, n);
  g_assert_cmpint (json_object_get_int_member (
                     json_object_get_object_member (
                       json_node_get_object (json_parser_get_root (j1)), "info"),
                     "number_of_processes"), ==, 1);
  /* Each file names its own process, with its own samples: all of them. */
  for (guint p = 0; p < 2; p++)
    {
      JsonArray *procs = json_object_get_array_member (p == 0 ? s0 : s1, "processes");
      JsonObject *proc = json_array_get_object_element (procs, 0);

      g_assert_cmpuint (json_array_get_length (procs), ==, 1);
      g_assert_cmpint (json_object_get_int_member (proc, "index"), ==, p);
      g_assert_cmpint (json_object_get_int_member (proc, "pid"), ==,
                       mg_profile_get_process (profile, p)->pid);
      for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
        {
          const char *id = mg_profile_get_metric (profile, m)->id;
          g_autofree MgProcessSeries *ps = NULL;

          if (mg_profile_get_series (profile, m) == NULL)
            continue;
          ps = mg_profile_dup_process_series (profile, p, m, NULL);
          g_assert_nonnull (ps);
          JsonObject *own = json_object_get_object_member (
            json_object_get_object_member (proc, "metrics"), id);
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (own, "means")),
                            ==, ps->n);
          for (guint i = 0; i < ps->n; i++)
            {
              double v = value_at (own, "means", i);

              if (isnan (ps->means[i]))
                g_assert_true (isnan (v));
              else
                g_assert_cmpfloat_with_epsilon (v, ps->means[i], 1e-9 * (1 + fabs (v)));
            }
          alone += check_alone (json_object_get_object_member (
                                  json_object_get_object_member (p == 0 ? s0 : s1, "metrics"),
                                  id),
                                ps, profile);
        }
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (s01, "processes")), ==,
                    2);
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const char *id = mg_profile_get_metric (profile, m)->id;
      JsonObject *metrics0 = json_object_get_object_member (s0, "metrics");

      g_assert_cmpint (json_object_has_member (metrics0, id), ==,
                       mg_profile_get_series (profile, m) != NULL);
      if (!json_object_has_member (metrics0, id))
        continue;
      JsonObject *m0 = json_object_get_object_member (metrics0, id);
      both += check_pair (
        json_object_get_object_member (json_object_get_object_member (s01, "metrics"), id), m0,
        json_object_get_object_member (json_object_get_object_member (s1, "metrics"), id), n);
    }
  g_test_message ("%u windows where both processes had a value, %u of one alone checked", both,
                  alone);
  g_assert_cmpuint (alone, >, 0);
  g_assert_cmpuint (both, >, 0);
}

/* --range on the CSV: the rows are the windows overlapping it, in order;
 * one process's CSV has that process's aggregates (its JSON's means). */
static void
check_csv (Fixture *f, MgProfile *profile, double start, double end)
{
  g_autofree char *path = g_build_filename (f->dir, "r1.csv", NULL);
  g_autofree char *text = NULL;
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  g_autoptr (GArray) expected = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint w = 0; w < mg_profile_get_n_windows (profile); w++)
    if (ends[w] > start && starts[w] < end)
      g_array_append_val (expected, starts[w]);
  g_assert_cmpuint (expected->len, >, 0);
  g_assert_cmpuint (expected->len, <, mg_profile_get_n_windows (profile));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) rows = g_strsplit (text, "\r\n", -1);
  g_assert_true (g_str_has_prefix (rows[0], "time_s,"));
  g_assert_cmpuint (g_strv_length (rows), ==, expected->len + 2);
  for (guint i = 0; i < expected->len; i++)
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (rows[i + 1], NULL),
                                    g_array_index (expected, double, i), 1e-6);
}

static void
test_select (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-stacks-workload");
  const char *args[] = { "--profile", "-o", "run.mgprof", workload, "forkexec", "0.6", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *path = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  const gboolean only[2][2] = { { TRUE, FALSE }, { FALSE, TRUE } };

  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  guint n = mg_profile_get_n_windows (profile);
  g_assert_cmpuint (n, >=, 4);
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  /* A range from inside the second window to inside the middle one. */
  double r_start = (starts[1] + ends[1]) / 2, r_end = (starts[n / 2] + ends[n / 2]) / 2;
  g_autofree char *range = g_strdup_printf ("%.6f-%.6f", r_start, r_end);

  /* Folded: each process's stacks alone, together the whole run's. */
  g_autoptr (CliTestRun) fa = export (f, "all.folded", NULL, NULL);
  g_autoptr (CliTestRun) f0 = export (f, "p0.folded", NULL, "0");
  g_autoptr (CliTestRun) f1 = export (f, "p1.folded", NULL, "1");
  g_autoptr (CliTestRun) fr = export (f, "r1.folded", range, "1");
  assert_status (fa, 0);
  assert_status (f0, 0);
  assert_status (f1, 0);
  assert_status (fr, 0);
  guint64 ta = folded_total (f, "all.folded"), t0 = folded_total (f, "p0.folded");
  guint64 t1 = folded_total (f, "p1.folded"), tr = folded_total (f, "r1.folded");
  g_test_message ("stacks: all %" G_GUINT64_FORMAT ", 0: %" G_GUINT64_FORMAT ", 1: %"
                  G_GUINT64_FORMAT ", 1 in %s: %" G_GUINT64_FORMAT, ta, t0, t1, range, tr);
  g_assert_cmpuint (t0, >, 0);
  g_assert_cmpuint (t1, >, 0);
  g_assert_cmpuint (t0 + t1, ==, ta);
  g_assert_cmpuint (t0, ==, stacks_total (profile, only[0], -INFINITY, INFINITY));
  g_assert_cmpuint (t1, ==, stacks_total (profile, only[1], -INFINITY, INFINITY));
  g_assert_cmpuint (tr, ==, stacks_total (profile, only[1], r_start, r_end));
  g_assert_cmpuint (tr, <, t1);

  /* pprof: written, gzip. */
  g_autoptr (CliTestRun) pp = export (f, "r1.pb.gz", range, "1");
  assert_status (pp, 0);
  g_autofree char *pb_path = g_build_filename (f->dir, "r1.pb.gz", NULL);
  g_autofree char *pb = NULL;
  gsize pb_len;
  g_assert_true (g_file_get_contents (pb_path, &pb, &pb_len, NULL));
  g_assert_cmpuint (pb_len, >, 2);
  g_assert_cmpint ((guchar) pb[0], ==, 0x1f);
  g_assert_cmpint ((guchar) pb[1], ==, 0x8b);

  /* JSON: per process and both chosen (aggregates made again). */
  g_autoptr (CliTestRun) j0 = export (f, "p0.json", NULL, "0");
  g_autoptr (CliTestRun) j1 = export (f, "p1.json", NULL, "1");
  g_autoptr (CliTestRun) j01 = export (f, "p01.json", NULL, "1,0");
  assert_status (j0, 0);
  assert_status (j1, 0);
  assert_status (j01, 0);
  check_json (f, profile);

  /* CSV with a range. */
  g_autoptr (CliTestRun) c1 = export (f, "r1.csv", range, "1");
  assert_status (c1, 0);
  check_csv (f, profile, r_start, r_end);

  /* Bad input: named, with what to do; no file written. */
  g_autoptr (CliTestRun) e1 = export (f, "bad.json", NULL, "5");
  assert_status (e1, 2);
  assert_err_has (e1, "--processes=5");
  assert_err_has (e1, "processes 0-1");
  g_autoptr (CliTestRun) e2 = export (f, "bad.csv", NULL, "1-x");
  assert_status (e2, 2);
  assert_err_has (e2, "--processes=1-x");
  assert_err_has (e2, "“1-x” is not a rank");
  g_autoptr (CliTestRun) e3 = export (f, "bad.folded", "1000-2000", NULL);
  assert_status (e3, 2);
  assert_err_has (e3, "--range=1000-2000");
  assert_err_has (e3, "no sample window");
  /* An end before the start is named as such, not as a non-number. */
  g_autoptr (CliTestRun) e5 = export (f, "bad.folded", "5-3", NULL);
  assert_status (e5, 2);
  assert_err_has (e5, "--range=5-3: the end (3 s) is not after the start (5 s)");
  g_autoptr (CliTestRun) e6 = export (f, "bad.folded", "1-2x", NULL);
  assert_status (e6, 2);
  assert_err_has (e6, "--range=1-2x: the end “2x” is not a number of seconds");
  const char *e4_args[] = { "--processes=0", "run.mgprof", NULL };
  g_autoptr (CliTestRun) e4 = cli_test_run (f->dir, e4_args);
  assert_status (e4, 2);
  assert_err_has (e4, "--processes goes with --export");
  for (guint i = 0; i < 3; i++)
    {
      const char *names[] = { "bad.json", "bad.csv", "bad.folded" };
      g_autofree char *bad = g_build_filename (f->dir, names[i], NULL);
      g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
    }
}

/* An MPI run: --processes takes ranks, not positions in the profile. */
static void
test_ranks (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-mpi-workload");
  g_autofree char *path = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GError) error = NULL;

  if (mpirun == NULL || !g_file_test (workload, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mpirun or the MPI workload is not there");
      return;
    }
  const char *args[] = { "--profile", "-n", "2", "-o", "run.mgprof", workload, "late", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  guint n = mg_profile_get_n_processes (profile);
  g_autofree gboolean *rank1 = g_new0 (gboolean, n);
  int p1 = -1;
  for (guint p = 0; p < n; p++)
    if (mg_profile_get_process (profile, p)->rank == 1)
      rank1[p] = TRUE, p1 = (int) p;
  g_assert_cmpint (p1, >=, 0);

  g_autoptr (CliTestRun) fr = export (f, "r1.folded", NULL, "1");
  assert_status (fr, 0);
  guint64 total = folded_total (f, "r1.folded");
  g_assert_cmpuint (total, >, 0);
  g_assert_cmpuint (total, ==, stacks_total (profile, rank1, -INFINITY, INFINITY));
  g_assert_cmpuint (total, <, stacks_total (profile, NULL, -INFINITY, INFINITY));

  g_autoptr (CliTestRun) jr = export (f, "r1.json", NULL, "1");
  assert_status (jr, 0);
  g_autoptr (JsonParser) parser = read_json (f, "r1.json");
  JsonArray *procs = json_object_get_array_member (samples_of (parser), "processes");
  g_assert_cmpuint (json_array_get_length (procs), ==, 1);
  JsonObject *proc = json_array_get_object_element (procs, 0);
  g_assert_cmpint (json_object_get_int_member (proc, "rank"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (proc, "index"), ==, p1);

  g_autoptr (CliTestRun) bad = export (f, "bad.folded", NULL, "1,9");
  assert_status (bad, 2);
  assert_err_has (bad, "--processes=1,9: the profile has no such rank: its ranks are 0-1");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/cli/select/export", Fixture, NULL, cli_test_folder_setup, test_select,
              cli_test_folder_teardown);
  g_test_add ("/cli/select/ranks", Fixture, NULL, cli_test_folder_setup, test_ranks,
              cli_test_folder_teardown);
  return g_test_run ();
}
