/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrograph executable end to end: options, metric toggles, profiling
 * the workload with the example plugins, exit statuses, signals, MPI, export
 * (the session's helpers are tested directly in tests/session). */
#include "mg-config.h"

#include <elf.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli-harness.h"
#include "mg-test-common.h"
#include "profile/mg-profile.h"
#include "session/mg-rank-list.h"
#include "profile/mg-record-reader.h"
#include "session/mg-run-folder.h"

#define CUSTOM1_ID "com.allinea.metrics.custom1.interrupts"
#define BACKFILL1_ID "com.allinea.metrics.backfill1.events"

/* Each test's own folder (cli-harness.h). */
typedef CliTestFolder Fixture;

static char *
in_dir (Fixture *f, const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

/* Metrograph's own errors are one line starting with "metrograph: ". */
static void
assert_one_error_line (const char *err, const char *needle)
{
  g_autofree char *last = NULL;
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);
  gboolean found = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "metrograph: ") && strstr (lines[i], needle) != NULL)
      found = TRUE;
  if (!found)
    g_error ("no line “metrograph: …%s…” in stderr:\n%s", needle, err);
}

/* On a wrong status, show what metrograph said (a sanitizer report, say). */
#define assert_status(run, expected)                                                  \
  G_STMT_START                                                                        \
  {                                                                                   \
    if ((run)->status != (expected))                                                  \
      g_error ("metrograph exited with %d, expected %d; stderr:\n%s", (run)->status,   \
               (int) (expected), (run)->err);                                         \
  }                                                                                   \
  G_STMT_END

static MgProfile *
load_profile (const char *path)
{
  g_autoptr (GError) error = NULL;
  MgProfile *profile = mg_profile_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* ---- usage ---- */

static void
test_usage_help (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--help", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, "--profile"));
  g_assert_nonnull (strstr (run->out, "--list-metrics"));
  g_assert_nonnull (strstr (run->out, "--export"));
  g_assert_nonnull (strstr (run->out, "--stop-after"));
  g_assert_nonnull (strstr (run->out, "PROFILE.mgprof"));
}

static void
test_usage_version (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--version", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  g_assert_cmpstr (run->out, ==, "metrograph " MG_VERSION "\n");
}

static void
test_usage_errors (Fixture *f, gconstpointer data)
{
  const struct {
    const char *args[8];
    const char *needle;
  } cases[] = {
    { { "--interval=5", NULL }, "--profile" },
    { { "--profile", NULL }, "needs a program" },
    { { "--profile", "--np=0", "true", NULL }, "--np" },
    { { "--profile", "-n", "2", "mpirun", "-n", "2", NULL }, "--np starts mpirun itself" },
    { { "--profile", "--samples=3", "true", NULL }, "--samples" },
    { { "--profile", "--stop-after=-1", "true", NULL }, "--stop-after" },
    /* As the run dialog's line: never is written by leaving it out. */
    { { "--profile", "--stop-after=0", "true", NULL },
      "--stop-after=0: give a number of seconds greater than 0" },
    /* Values attached to short options, as the dialog's line reads them. */
    { { "--profile", "-n0", "true", NULL }, "--np=0: give a number of processes of at least 1" },
    { { "--profile", "-n2", "--select-ranks=2", "true", NULL },
      "--select-ranks=2 selects none of the ranks of --np=2" },
    { { "--profile", "--interval=ten", "true", NULL }, "--interval" },
    { { "--list-metrics", "--export=a.json", "b.mgprof", NULL }, "cannot be combined" },
    { { "--no-such-option", NULL }, "--no-such-option" },
    /* The form of the option that was meant. */
    { { "--export-json", "a.mgprof", NULL },
      "Unknown option --export-json; did you mean --export=FILE.json? (see metrograph --help)" },
    { { "--report-html", "a.mgprof", NULL },
      "Unknown option --report-html; did you mean --report=FILE.html?" },
    { { "--profile", "--select-ranks=1,x", "true", NULL }, "--select-ranks=1,x: “x” is not a rank" },
    { { "--profile", "--select-ranks=4-2", "true", NULL }, "“4-2” is not a rank" },
    { { "--profile", "--select-ranks=1,,2", "true", NULL }, "--select-ranks=1,,2: an empty entry" },
    { { "--profile", "--select-ranks=-1", "true", NULL }, "“-1” is not a rank" },
    { { "--profile", "-n", "2", "--select-ranks=2-5", "true", NULL },
      "--select-ranks=2-5 selects none of the ranks of --np=2 (0 to 1)" },
    { { "--list-metrics", "--select-ranks=1", NULL }, "--select-ranks go with --profile" },
    { { "--list-metrics", "--verbose", NULL },
      "-o, --process-precision and --verbose go with --profile or --recover" },
    { { "--export=a.json", "-o", "b.mgprof", "c.mgprof", NULL },
      "-o, --process-precision and --verbose go with --profile or --recover" },
    { { "--recover", "run", "--interval=5", NULL }, "--interval, --samples" },
    { { "--profile", "--process-precision=double", "true", NULL },
      "--process-precision=double: give exact or single" },
    { { "--export=a.json", "--process-precision=single", "c.mgprof", NULL },
      "-o, --process-precision and --verbose go with --profile or --recover" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, cases[i].args);

      assert_status (run, 2);
      assert_one_error_line (run->err, cases[i].needle);
    }
}

/* ---- --list-metrics and toggles ---- */

static void
test_list_examples (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--list-metrics", "--metrics-path", f->examples, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, CUSTOM1_ID));
  g_assert_nonnull (strstr (run->out, "Custom1"));
  g_assert_nonnull (strstr (run->out, BACKFILL1_ID));
  g_assert_nonnull (strstr (run->out, "Backfill1"));
}

static void
test_list_unknown_id (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--list-metrics", "--metrics-path", f->examples,
                         "--enable-metrics=com.allinea.metrics.custom1.interupts", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  const char *profile_args[] = { "--profile", "--metrics-path", f->examples,
                                 "--enable-metrics=com.allinea.metrics.custom1.interupts",
                                 f->workload, "work=0.1", NULL };
  g_autoptr (CliTestRun) profile_run = NULL;

  assert_status (run, 3);
  /* The misspelt id and the closest known one. */
  assert_one_error_line (run->err, "com.allinea.metrics.custom1.interupts");
  assert_one_error_line (run->err, CUSTOM1_ID);
  /* --profile says it alike (the run applies the toggles), before the
   * program starts. */
  profile_run = cli_test_run (f->dir, profile_args);
  assert_status (profile_run, 3);
  assert_one_error_line (profile_run->err, "(see metrograph --list-metrics)");
  assert_one_error_line (profile_run->err, CUSTOM1_ID);
  g_assert_null (strstr (profile_run->out, "work=0.1"));
}

static void
test_list_conflict (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--list-metrics", "--metrics-path", f->examples,
                         "--enable-metrics=" BACKFILL1_ID "," CUSTOM1_ID,
                         "--disable-metrics", CUSTOM1_ID, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 3);
  assert_one_error_line (run->err, CUSTOM1_ID);
}

static void
test_list_missing_path (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--list-metrics", "--metrics-path", "/no/such/folder", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 2);
  assert_one_error_line (run->err, "/no/such/folder");
}

/* A definition file whose bytes do not convert from its declared encoding
 * (found by fuzzing): one line naming the file and line, and none of
 * libxml2's own ("encoding error : …") on stderr. */
static void
test_list_bad_encoding (Fixture *f, gconstpointer data)
{
  static const char xml[] =
    "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<metricdefinition version=\"1\">\x8e\x1e\n"
    "<metric id=\"x.y\"/></metricdefinition>\n";
  g_autofree char *dir = in_dir (f, "encoding");
  g_autofree char *file = g_build_filename (dir, "bad.xml", NULL);
  const char *args[] = { "--list-metrics", "--metrics-path", dir, NULL };
  g_autoptr (CliTestRun) run = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, xml, sizeof xml - 1, NULL));
  run = cli_test_run (f->dir, args);
  /* --list-metrics lists the definition problems, indented, with the rest. */
  g_assert_nonnull (strstr (run->out, "bad.xml:2: error: not well-formed XML")
                    ? run->out : strstr (run->err, "bad.xml:2: error: not well-formed XML"));
  g_assert_null (strstr (run->err, "encoding error"));
  g_assert_null (strstr (run->err, "I/O error"));
}

/* ---- --profile ---- */

static void
test_profile_examples (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "examples.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=20",
                         "-o", "examples.mgprof", f->workload, "work=2", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  const MgSeries *custom, *backfill;
  guint n_windows, n_values = 0, n_positive = 0, n_backfill = 0;
  int custom_index, backfill_index;

  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, "arg: work=2"));
  assert_one_error_line (run->err, "examples.mgprof");

  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 0);
  custom_index = mg_profile_find_metric (profile, CUSTOM1_ID);
  backfill_index = mg_profile_find_metric (profile, BACKFILL1_ID);
  g_assert_cmpint (custom_index, >=, 0);
  g_assert_cmpint (backfill_index, >=, 0);
  n_windows = mg_profile_get_n_windows (profile);
  /* About 2 s at 20 ms: plenty of windows even on a loaded machine. */
  g_assert_cmpuint (n_windows, >=, 10);
  custom = mg_profile_get_series (profile, custom_index);
  backfill = mg_profile_get_series (profile, backfill_index);
  for (guint i = 0; i < n_windows; i++)
    {
      if (!isnan (custom->means[i]))
        {
          n_values++;
          /* Interrupts per second of the whole machine: positive, and far
           * below what any machine does. */
          g_assert_cmpfloat (custom->means[i], >=, 0);
          g_assert_cmpfloat (custom->means[i], <, 1e8);
          n_positive += custom->means[i] > 0;
        }
      if (!isnan (backfill->means[i]))
        {
          n_backfill++;
          /* Exact up to the rounding of windows onto the common grid. */
          g_assert_cmpfloat_with_epsilon (backfill->means[i], 5, 1e-9);
          g_assert_cmpfloat_with_epsilon (backfill->mins[i], 5, 1e-9);
          g_assert_cmpfloat_with_epsilon (backfill->maxs[i], 5, 1e-9);
        }
    }
  g_assert_cmpuint (n_values, >=, n_windows / 2);
  g_assert_cmpuint (n_positive, >, n_values / 2);
  g_assert_cmpuint (n_backfill, >=, n_windows / 2);
}

static guint
count_default_names (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (d)) != NULL)
    if (g_regex_match_simple ("^mg-cli-workload_1p_1n_\\d{4}-\\d\\d-\\d\\d_\\d\\d-\\d\\d(-1)?"
                              "\\.mgprof$", name, 0, 0))
      n++;
  return n;
}

static void
test_profile_default_name (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, f->workload, "work=0.5",
                         NULL };

  for (guint i = 1; i <= 2; i++)
    {
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

      assert_status (run, 0);
      /* The second run never overwrites the first. */
      g_assert_cmpuint (count_default_names (f->dir), ==, i);
    }
}

static void
test_profile_args_and_stdio (Fixture *f, gconstpointer data)
{
  g_autofree char *foo = in_dir (f, "foo");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "a.mgprof",
                         f->workload, "--verbose", "-x", "--output=foo", "--", "work=0.3", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  g_assert_true (g_str_has_prefix (run->out, "arg: --verbose\narg: -x\narg: --output=foo\n"
                                   "arg: --\narg: work=0.3\n"));
  g_assert_nonnull (strstr (run->err, "workload: on stderr\n"));
  g_assert_false (g_file_test (foo, G_FILE_TEST_EXISTS));
}

/* What the program and the sampler get: the plan's settings, LD_PRELOAD with
 * the user's own library kept last, METROGRAPH_PLAN; the run folder kept on
 * request. */
static void
test_profile_environment (Fixture *f, gconstpointer data)
{
  g_autofree char *user_lib = in_dir (f, "libuser.so");
  g_autofree char *user_preload = g_strconcat ("LD_PRELOAD=", user_lib, NULL);
  g_autofree char *sampler = cli_test_build_path ("sampler/libmetrograph-sampler.so");
  g_autofree char *layout = cli_test_build_path ("sampler/preload/i686");
  g_autofree char *through_layout
      = cli_test_build_path ("sampler/preload/$PLATFORM/libmetrograph-sampler.so");
  g_autofree char *expected_preload = NULL;
  const char *env[] = { user_preload, "METROGRAPH_KEEP_RUN_DIR=1", NULL };
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=7",
                         "--samples=64", "--start-after=0.25", "--stop-after=30",
                         "--disable-metrics=Backfill1", "-o", "env.mgprof", f->workload,
                         "env=LD_PRELOAD", "env=METROGRAPH_PLAN", "work=1", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GRegex) kept = g_regex_new ("kept the run folder (\\S+)", 0, 0, NULL);
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *run_dir = NULL, *plan_path = NULL, *plan = NULL, *plan_line = NULL;
  g_autofree char *user_tail = NULL, *output = in_dir (f, "env.mgprof");

  /* An empty ELF-less file: the loader complains but the program runs. */
  g_assert_true (g_file_set_contents (user_lib, "", 0, NULL));
  run = cli_test_run_with_env (f->dir, args, env);
  assert_status (run, 0);

  /* Through the preload layout where it was built (sampler/meson.build). */
  if (g_file_test (layout, G_FILE_TEST_IS_DIR))
    expected_preload = g_strdup_printf ("env LD_PRELOAD=%s:", through_layout);
  else
    expected_preload = g_strdup_printf ("env LD_PRELOAD=%s:", sampler);
  g_assert_nonnull (strstr (run->out, expected_preload));
  user_tail = g_strconcat (":", user_lib, "\n", NULL);
  g_assert_nonnull (strstr (run->out, user_tail));

  g_assert_true (g_regex_match (kept, run->err, 0, &match));
  run_dir = g_match_info_fetch (match, 1);
  plan_path = g_build_filename (run_dir, "run.plan", NULL);
  plan_line = g_strdup_printf ("env METROGRAPH_PLAN=%s\n", plan_path);
  g_assert_nonnull (strstr (run->out, plan_line));
  g_assert_true (g_file_get_contents (plan_path, &plan, NULL, NULL));
  g_assert_true (g_str_has_prefix (plan, "metrograph-plan 1\n"));
  g_assert_nonnull (strstr (plan, "\ninterval_ms\t7\n"));
  g_assert_nonnull (strstr (plan, "\nsamples\t64\n"));
  g_assert_nonnull (strstr (plan, "\nstart_after_ms\t250\n"));
  g_assert_nonnull (strstr (plan, "\nstop_after_ms\t30000\n"));
  g_assert_nonnull (strstr (plan, "\nskip_program\tmpirun\n"));
  g_assert_nonnull (strstr (plan, "\nskip_program\torted\n"));
  g_assert_nonnull (strstr (plan, CUSTOM1_ID));
  g_assert_null (strstr (plan, BACKFILL1_ID));

  profile = load_profile (output);
  g_assert_cmpfloat (mg_profile_get_run_info (profile)->interval_start_ms, ==, 7);
  g_assert_cmpuint (mg_profile_get_run_info (profile)->max_samples, ==, 64);
  g_assert_cmpint (mg_profile_find_metric (profile, BACKFILL1_ID), ==, -1);
  g_assert_cmpint (mg_profile_find_metric (profile, CUSTOM1_ID), >=, 0);
  cli_test_tmpdir_remove (run_dir);
}

/* -o FOLDER/ (or an existing folder): MAP's default name in that folder,
 * never replacing a file, the name the run dialog's "Save in" gives; a
 * folder that does not exist is said before the run. */
static void
test_profile_output_folder (Fixture *f, gconstpointer data)
{
  g_autofree char *sub = in_dir (f, "profiles");
  const char *slash[] = { "--profile", "--metrics-path", f->examples, "-o", "profiles/",
                          f->workload, "work=0.2", NULL };
  const char *plain[] = { "--profile", "--metrics-path", f->examples, "-o", "profiles",
                          f->workload, "work=0.2", NULL };
  const char *missing[] = { "--profile", "-o", "nowhere/", f->workload, "work=0.2", NULL };
  g_autoptr (CliTestRun) first = NULL;
  g_autoptr (CliTestRun) second = NULL;
  g_autoptr (CliTestRun) none = NULL;

  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  first = cli_test_run (f->dir, slash);
  assert_status (first, 0);
  g_assert_cmpuint (count_default_names (sub), ==, 1);
  g_assert_cmpuint (count_default_names (f->dir), ==, 0);
  second = cli_test_run (f->dir, plain);
  assert_status (second, 0);
  g_assert_cmpuint (count_default_names (sub), ==, 2);

  none = cli_test_run (f->dir, missing);
  assert_status (none, 2);
  assert_one_error_line (none->err, "-o nowhere/: there is no such folder");
  g_assert_null (strstr (none->err, "profile written"));
}

static guint count_run_folders (Fixture *f, char **last);
static void wait_for_sample (const char *dir, double timeout_s);

/* An output folder that is not there is said before the program starts
 * (a long run is not lost at its end): usage status, the program never
 * ran, no run folder left. */
static void
test_profile_unwritable_output (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o",
                         "no/such/folder/out.mgprof", f->workload, "work=0.5", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *folder = in_dir (f, "no/such/folder");
  g_autofree char *expected = g_strdup_printf ("-o no/such/folder/out.mgprof: %s is not a "
                                               "folder, so the profile cannot be saved there",
                                               folder);
  g_autofree char *left = NULL;

  assert_status (run, 2);
  assert_one_error_line (run->err, expected);
  g_assert_null (strstr (run->out, "arg: work=0.5"));
  g_assert_cmpuint (count_run_folders (f, &left), ==, 0);
}

/* -o with a name that is neither a folder nor FILE.mgprof (a new name,
 * an existing file, a named pipe): the ending decides, and the message
 * says so and gives the name to use, before the program starts. */
static void
test_profile_output_without_suffix (Fixture *f, gconstpointer data)
{
  g_autofree char *file = in_dir (f, "results");
  g_autofree char *fifo = in_dir (f, "pipe");
  const char *names[] = { "profile", "results", "pipe" };

  g_assert_true (g_file_set_contents (file, "kept", -1, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", names[i],
                             f->workload, "work=0.2", NULL };
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
      g_autofree char *expected = g_strdup_printf (
        "-o %s: a profile file's name ends in .mgprof, and %s is no folder to save in "
        "(checked before the program starts); give %s.mgprof, or a folder that exists",
        names[i], names[i], names[i]);
      g_autofree char *left = NULL;

      assert_status (run, 2);
      assert_one_error_line (run->err, expected);
      g_assert_null (strstr (run->err, "is not a folder"));
      g_assert_null (strstr (run->out, "arg: work=0.2"));
      g_assert_cmpuint (count_run_folders (f, &left), ==, 0);
    }
  g_autofree char *text = NULL;

  g_assert_true (g_file_test (fifo, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "kept");
}

/* The output folder removed during the run: the save fails after it, the
 * records are kept, with the save's status, and --recover on the kept
 * folder writes the profile elsewhere. */
static void
test_profile_output_folder_removed (Fixture *f, gconstpointer data)
{
  g_autofree char *folder = in_dir (f, "gone");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "gone/out.mgprof",
                         f->workload, "sleep=0.8", NULL };
  g_autofree char *output = in_dir (f, "recovered.mgprof");
  g_autofree char *left = NULL, *records = NULL;
  g_autoptr (CliTestRun) recover = NULL;
  g_autoptr (MgProfile) profile = NULL;
  GPid pid;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  pid = cli_test_spawn (f->dir, args, NULL);
  wait_for_sample (f->runs, 60);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  g_assert_cmpint (cli_test_wait (pid, 60), ==, 6);
  g_assert_cmpuint (count_run_folders (f, &left), ==, 1);
  records = g_build_filename (left, "records", NULL);
  g_assert_true (g_file_test (records, G_FILE_TEST_IS_DIR));
  recover = cli_test_run (f->dir, (const char *[]) { "--recover", left, "-o", "recovered.mgprof",
                                                NULL });
  assert_status (recover, 0);
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_false (g_file_test (left, G_FILE_TEST_EXISTS));
}

/* Records that cannot be merged (the program spoilt them): exit 6, kept. */
static void
test_profile_merge_fails (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "spoilt.mgprof",
                         f->workload, "work=0.5", "spoil-records", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *run_dir = NULL;
  g_autofree char *output = in_dir (f, "spoilt.mgprof");

  assert_status (run, 6);
  g_assert_nonnull (strstr (run->out, "spoiled 1 records"));
  assert_one_error_line (run->err, "cannot merge the records: No record could be read");
  assert_one_error_line (run->err, "wrong magic");
  run_dir = mg_test_kept_run_folder (run->err);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
  cli_test_tmpdir_remove (run_dir);
}

static void
test_profile_exit_status (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "exit.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "exit.mgprof",
                         f->workload, "work=0.5", "exit=3", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;

  assert_status (run, 3);
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 3);
}

static void
test_profile_crash (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "crash.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "crash.mgprof",
                         f->workload, "work=0.5", "crash", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  const MgProcessInfo *process;

  assert_status (run, 128 + SIGSEGV);
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 128 + SIGSEGV);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  process = mg_profile_get_process (profile, 0);
  g_assert_cmpint (process->end, ==, MG_PROCESS_END_SIGNALLED);
  g_assert_cmpint (process->status, ==, SIGSEGV);
}

/* A program that ends by the exit_group system call itself, as every Go
 * program does (os.Exit and the return from main): the sampler's end never
 * runs, so its record stayed RUNNING, and the summary said the process "had
 * not ended when the run did (still running, as a daemon is, or killed
 * without trace ...)" beside its real exit status. The launcher, which
 * reaped it, closes the record EXITED with that status. */
static void
test_profile_exit_group (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "group.mgprof");
  const char *args[] = { "--profile", "-o", "group.mgprof", f->workload, "work=0.3",
                         "exit-group=11", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  const MgProcessInfo *process;

  assert_status (run, 11);
  g_assert_null (strstr (run->err, "had not ended"));
  g_assert_nonnull (strstr (run->err, "exit status 11"));
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 11);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  process = mg_profile_get_process (profile, 0);
  g_assert_cmpint (process->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (process->status, ==, 11);
  /* Its end is when it was reaped: after the 0.3 s of work. */
  g_assert_cmpfloat (process->end_s - process->start_s, >=, 0.3);

  /* A descendant that ends so (a Go program the program started) was
   * reaped by its parent, not by us: its record stays open, and the
   * summary's count of processes that had not ended names the cause. */
  g_autofree char *script = g_strdup_printf ("'%s' work=0.3 exit-group=3; echo status $?",
                                             f->workload);
  const char *by_shell[] = { "--profile", "-o", "group-child.mgprof", "sh", "-c", script, NULL };
  g_autoptr (CliTestRun) child_run = cli_test_run (f->dir, by_shell);
  assert_status (child_run, 0);
  g_assert_nonnull (strstr (child_run->out, "status 3\n"));
  assert_one_error_line (child_run->err, "1 process had not ended when the run did (still "
                                         "running, as a daemon is, killed without trace by "
                                         "SIGKILL, or ended by the exit_group system call "
                                         "itself, as Go programs do): recorded up to its last "
                                         "sample");
}

/* Something removes the run folder during the run (a cleaner of /tmp; here
 * the program itself): the records went with it, and the message says so
 * in one line. It said "kept the run folder DIR" of a folder that was
 * gone, and that "metrograph --recover DIR writes the profile". */
static void
test_profile_run_folder_removed (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "-o", "gone.mgprof", "sh", "-c",
                         "rm -rf \"$(dirname \"$METROGRAPH_PLAN\")\"; echo ran", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *output = in_dir (f, "gone.mgprof");

  assert_status (run, 6);
  g_assert_cmpstr (run->out, ==, "ran\n");
  assert_one_error_line (run->err, "cannot merge the records: the folder ");
  g_assert_true (g_str_has_suffix (run->err, "/records was removed during the run, and the "
                                   "records with it, so no profile can be written (if something "
                                   "cleans the temporary folder, set METROGRAPH_TMPDIR to a folder "
                                   "nothing else cleans)\n"));
  g_assert_null (strstr (run->err, "kept"));
  g_assert_null (strstr (run->err, "--recover"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* A relative TMPDIR (METROGRAPH_TMPDIR unset) is taken from the current
 * folder, as a relative METROGRAPH_TMPDIR is: the run works and leaves
 * nothing there. It refused to start: "cannot write the run plan: the
 * record folder is not an absolute path" (status 4). */
static void
test_profile_relative_tmpdir (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "-o", "rel.mgprof", "sh", "-c", "cd / && echo ran", NULL };
  const char *env[] = { "METROGRAPH_TMPDIR=", "TMPDIR=scratch", NULL };
  g_autofree char *scratch = in_dir (f, "scratch");
  g_autofree char *output = in_dir (f, "rel.mgprof");
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GDir) left = NULL;

  g_assert_cmpint (g_mkdir (scratch, 0700), ==, 0);
  run = cli_test_run_with_env (f->dir, args, env);
  assert_status (run, 0);
  g_assert_cmpstr (run->out, ==, "ran\n");
  g_assert_true (g_file_test (output, G_FILE_TEST_EXISTS));
  left = g_dir_open (scratch, 0, NULL);
  g_assert_nonnull (left);
  g_assert_null (g_dir_read_name (left));
}

/* A program that crashes at once leaves no sample (a signal's death takes
 * no last sample): the run says so, with the signal and the program's
 * status, instead of "no process of the run was sampled: the program (or
 * a program it started) cleared LD_PRELOAD…", which blamed the
 * environment. */
static void
test_profile_crash_at_once (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "crash.mgprof",
                         f->workload, "crash", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *output = in_dir (f, "crash.mgprof");
  g_autofree char *expected = g_strdup_printf (
    "metrograph: no samples were recorded, so no profile was written: the program was killed "
    "by signal %d (%s) ", SIGSEGV, g_strsignal (SIGSEGV));
  const char *line;

  assert_status (run, 128 + SIGSEGV);
  line = strstr (run->err, "metrograph: ");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, expected));
  g_assert_true (g_str_has_suffix (line, " ms after it started, before its first sample, and a "
                                   "process that a signal kills takes no last sample (one that "
                                   "exits does)\n"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* A folder holding the faulty test plugin and a definition of its metrics:
 * ft_crash (on; crashes at its 20th call), ft_hang (off; never returns from
 * its 5th). */
static char *
faulty_metrics_dir (Fixture *f)
{
  static const char xml[] =
    "<?xml version=\"1.0\"?>\n<metricdefinition version=\"1\">\n"
    "  <metric id=\"ft_crash\"><enabled>default_yes</enabled><units>calls</units>\n"
    "    <dataType>uint64_t</dataType><domain>time</domain>\n"
    "    <source ref=\"ft_src\" functionName=\"faulty_crash\"/>\n"
    "    <display><displayName>Crashes at 20</displayName><type>other</type></display>\n"
    "  </metric>\n"
    "  <metric id=\"ft_hang\"><enabled>default_no</enabled><units>calls</units>\n"
    "    <dataType>uint64_t</dataType><domain>time</domain>\n"
    "    <source ref=\"ft_src\" functionName=\"faulty_hang\"/>\n"
    "    <display><displayName>Hangs at 5</displayName><type>other</type></display>\n"
    "  </metric>\n"
    "  <source id=\"ft_src\"><sharedLibrary>libmg-test-faulty.so</sharedLibrary></source>\n"
    "</metricdefinition>\n";
  char *dir = in_dir (f, "faulty");
  g_autofree char *built = cli_test_build_path ("tests/sampler/libmg-test-faulty.so");
  g_autofree char *xml_path = g_build_filename (dir, "faulty.xml", NULL);
  g_autofree char *lib_path = g_build_filename (dir, "libmg-test-faulty.so", NULL);
  g_autofree char *lib = NULL;
  gsize len;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_file_get_contents (built, &lib, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (lib_path, lib, (gssize) len, &error);
  g_assert_no_error (error);
  g_file_set_contents (xml_path, xml, -1, &error);
  g_assert_no_error (error);
  return dir;
}

/* A plugin that crashes inside the program: the program runs to its own
 * end and status, the profile holds the plugin's values up to the crash,
 * the other metrics to the end, and an event naming the plugin, the
 * function, the signal and the sample, which the summary prints. */
static void
test_profile_plugin_crash (Fixture *f, gconstpointer data)
{
  g_autofree char *metrics = faulty_metrics_dir (f);
  g_autofree char *output = in_dir (f, "faulty.mgprof");
  const char *args[] = { "--profile", "--metrics-path", metrics, "--interval=5", "-o",
                         "faulty.mgprof", f->workload, "sleep=0.4", "exit=4", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  const char *expected = "ft_src crashed in faulty_crash with SIGSEGV at sample 20; its "
                         "metrics stop there";
  const MgProcessEvent *fault = NULL;
  int crash, cpu;
  const MgSeries *series;
  guint n_windows, last_crash = 0, last_cpu = 0;

  assert_status (run, 4);
  assert_one_error_line (run->err, expected);
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 4);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    if (mg_profile_get_event (profile, i)->kind == MG_EVENT_PLUGIN_FAULT)
      fault = mg_profile_get_event (profile, i);
  g_assert_nonnull (fault);
  g_assert_cmpstr (fault->message, ==, expected);
  g_assert_cmpint (fault->status, ==, SIGSEGV);

  crash = mg_profile_find_metric (profile, "ft_crash");
  cpu = mg_profile_find_metric (profile, "cpu_time_percentage");
  g_assert_cmpint (crash, >=, 0);
  g_assert_cmpint (cpu, >=, 0);
  n_windows = mg_profile_get_n_windows (profile);
  series = mg_profile_get_series (profile, (guint) crash);
  for (guint w = 0; w < n_windows; w++)
    if (!isnan (series->means[w]))
      {
        last_crash = w;
        g_assert_cmpfloat (series->maxs[w], <=, 19.0);
      }
  g_assert_cmpfloat (series->maxs[last_crash], ==, 19.0);
  series = mg_profile_get_series (profile, (guint) cpu);
  for (guint w = 0; w < n_windows; w++)
    if (!isnan (series->means[w]))
      last_cpu = w;
  g_assert_cmpuint (last_cpu, >, last_crash);
}

/* A getter that never returns: the program still ends at once with its
 * own status, and the summary and the profile say where it hung. */
static void
test_profile_plugin_hang (Fixture *f, gconstpointer data)
{
  g_autofree char *metrics = faulty_metrics_dir (f);
  g_autofree char *output = in_dir (f, "hang.mgprof");
  const char *args[] = { "--profile", "--metrics-path", metrics, "--interval=5",
                         "--enable-metrics=ft_hang", "--disable-metrics=ft_crash", "-o",
                         "hang.mgprof", f->workload, "sleep=2", "exit=0", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  const MgProcessEvent *fault = NULL;

  assert_status (run, 0);
  /* Abandoned at the hang bound, 50 intervals of 5 ms. */
  assert_one_error_line (run->err, "ft_src hung in faulty_hang at sample 5 (called at ");
  g_assert_nonnull (strstr (run->err, "no return within 0.25 s); its metrics stop there"));
  /* 2 s of sleep; the old wait for the getter alone was 3 s more. */
  g_assert_cmpfloat (run->seconds, <, 4.9);
  profile = load_profile (output);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    if (mg_profile_get_event (profile, i)->kind == MG_EVENT_PLUGIN_FAULT)
      fault = mg_profile_get_event (profile, i);
  g_assert_nonnull (fault);
  g_assert_cmpint (fault->status, ==, 0);
  g_assert_true (g_str_has_suffix (fault->message, "no return within 0.25 s); its metrics stop there"));
  g_assert_cmpfloat (fault->time_s, <, 0.5);
}

/* A plugin whose initialise never returns (on the sampler thread, which
 * loads the plugins): abandoned at METROGRAPH_PLUGIN_LIMIT_MS, the program
 * runs to its own end and status, and the summary and the profile name the
 * plugin and why. */
static void
test_profile_plugin_init_hangs (Fixture *f, gconstpointer data)
{
  g_autofree char *metrics = faulty_metrics_dir (f);
  g_autofree char *output = in_dir (f, "init.mgprof");
  const char *args[] = { "--profile", "--metrics-path", metrics, "--interval=5", "-o",
                         "init.mgprof", f->workload, "sleep=0.8", "exit=6", NULL };
  const char *env[] = { "MG_TEST_FAULTY_INIT=hang", "METROGRAPH_PLUGIN_LIMIT_MS=500", NULL };
  g_autoptr (CliTestRun) run = cli_test_run_with_env (f->dir, args, env);
  g_autoptr (MgProfile) profile = NULL;
  const char *expected = "did not return from allinea_plugin_initialise within 0.5 s; nothing "
                         "of it is called again";
  gboolean named = FALSE;

  assert_status (run, 6);
  g_test_message ("an initialise that never returns: --profile of a 0.8 s program took %.2f s",
                  run->seconds);
  g_assert_cmpfloat (run->seconds, <, 5.0);
  g_assert_nonnull (strstr (run->err, "ft_src"));
  g_assert_nonnull (strstr (run->err, expected));
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 6);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *e = mg_profile_get_event (profile, i);
      named |= e->message != NULL && strstr (e->message, expected) != NULL;
    }
  for (guint i = 0; !named && i < mg_profile_get_n_plugin_errors (profile); i++)
    named = strstr (mg_profile_get_plugin_error (profile, i)->message, expected) != NULL;
  g_assert_true (named);
}

/* A program that daemonises: its child outlives it and, after the run has
 * ended, starts programs of its own (an exec, a fork). The records made
 * while the program ran are merged; nothing the daemon does afterwards
 * makes the run folder again, so no folder is left that a later run would
 * advertise (the fixture's teardown checks runs/ too). */
static void
test_profile_daemon (Fixture *f, gconstpointer data)
{
  g_autofree char *done = in_dir (f, "daemon-done");
  g_autofree char *output = in_dir (f, "daemon.mgprof");
  g_autofree char *script = g_strdup_printf ("(sleep 0.5; /bin/true; sh -c 'sleep 0.1'; "
                                             "echo x > '%s') >/dev/null 2>&1 & "
                                             "echo parent; exit 3", done);
  const char *args[] = { "--profile", "-o", "daemon.mgprof", "/bin/sh", "-c", script, NULL };
  const char *later[] = { "--profile", "-o", "later.mgprof", "/bin/true", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (CliTestRun) again = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GDir) runs = NULL;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  assert_status (run, 3);
  g_assert_cmpstr (run->out, ==, "parent\n");
  g_assert_null (strstr (run->err, "--recover"));
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 3);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), >=, 1);
  while (!g_file_test (done, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_usleep (20000);
  g_assert_true (g_file_test (done, G_FILE_TEST_EXISTS));
  /* The daemon's last shell may still be ending (a loaded machine): what
   * counts is that no folder is left, so wait for the runs to empty. */
  deadline = g_get_monotonic_time () + 15 * G_USEC_PER_SEC;
  do
    {
      g_clear_pointer (&runs, g_dir_close);
      g_usleep (50000);
      runs = g_dir_open (f->runs, 0, NULL);
      g_assert_nonnull (runs);
    }
  while (g_dir_read_name (runs) != NULL && g_get_monotonic_time () < deadline);
  g_dir_rewind (runs);
  {
    const char *left = g_dir_read_name (runs);

    if (left != NULL)
      {
        g_autofree char *path = g_build_filename (f->runs, left, NULL);
        g_autofree char *listing = NULL;
        g_autofree char *ls = g_strdup_printf ("ls -laR '%s'", path);

        g_spawn_command_line_sync (ls, &listing, NULL, NULL, NULL);
        g_error ("a run folder is left 15 s after the daemon ended: %s", listing);
      }
  }

  again = cli_test_run (f->dir, later);
  assert_status (again, 0);
  g_assert_null (strstr (again->err, "--recover"));
}

/* Records on a full disk: METROGRAPH_TMPDIR is a 16 MiB tmpfs in a mount
 * namespace of its own. The program fills it, leaving 16 KiB, and starts a
 * child, whose record (the exec'd image's: the fork's was still in memory
 * at the exec) cannot be written, less than its header and tables being
 * left: it holds only the reason, which the summary prints; then it
 * fills the rest and starts another, whose records stay empty, which the
 * summary says too. The program carries on to its own end and the profile
 * holds all of its own samples (its record was allocated at the start). */
static void
test_profile_full_disk (Fixture *f, gconstpointer data)
{
  g_autofree char *tmpfs = in_dir (f, "tmpfs");
  g_autofree char *filler = g_build_filename (tmpfs, "filler", NULL);
  g_autofree char *filler2 = g_build_filename (tmpfs, "filler2", NULL);
  g_autofree char *fill = g_strconcat ("fill=", filler, NULL);
  g_autofree char *fillup = g_strconcat ("fillup=", filler2, NULL);
  g_autofree char *child = g_strconcat ("run=", f->workload, NULL);
  g_autofree char *metrograph = cli_test_build_path ("app/cli/metrograph");
  g_autofree char *unshare = g_find_program_in_path ("unshare");
  g_autofree char *output = in_dir (f, "full.mgprof");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_auto (GStrv) env = cli_test_environ (f->dir);
  const char *script = "mount -t tmpfs -o size=16m tmpfs \"$1\" || exit 99; shift; "
                       "METROGRAPH_TMPDIR=$1; export METROGRAPH_TMPDIR; shift; exec \"$@\"";
  const char *argv[] = { unshare, "--mount", "sh", "-c", script, "sh", tmpfs, tmpfs, metrograph,
                         "--profile", "--metrics-path", f->examples, "-o", output, f->workload,
                         "work=0.3", fill, child, fillup, child, "work=0.3", NULL };
  const MgProcessInfo *main_process;
  int wait_status;

  if (getuid () != 0 || unshare == NULL)
    {
      g_test_skip ("needs root and unshare(1) to mount a small tmpfs in a mount namespace");
      return;
    }
  {
    /* In a chroot whose root is no mount point, unshare cannot make its
     * mounts private (scripts/fresh-check runs the suite in one). */
    const char *probe[] = { unshare, "--mount", "true", NULL };
    g_autofree char *probe_err = NULL;

    g_spawn_sync (NULL, (char **) probe, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                  &probe_err, &wait_status, NULL);
    if (!WIFEXITED (wait_status) || WEXITSTATUS (wait_status) != 0)
      {
        g_autofree char *why = g_strdup_printf ("unshare --mount does not work here: %s",
                                                probe_err != NULL ? g_strstrip (probe_err) : "");

        g_test_skip (why);
        return;
      }
  }
  g_assert_cmpint (g_mkdir (tmpfs, 0700), ==, 0);
  g_spawn_sync (f->dir, (char **) argv, env, G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, &out, &err,
                &wait_status, &error);
  g_assert_no_error (error);
  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 99)
    {
      g_test_skip ("cannot mount a tmpfs here (a container without CAP_SYS_ADMIN?)");
      return;
    }
  if (!WIFEXITED (wait_status) || WEXITSTATUS (wait_status) != 0)
    g_error ("metrograph ended with wait status %d; stderr:\n%s", wait_status, err);
  assert_one_error_line (err, "stopped recording: cannot allocate record ");
  assert_one_error_line (err, "No space left on device");
  {
    /* The line names the full folder and the bytes the record needed. */
    g_autofree char *folder = g_strconcat ("cannot allocate record ", tmpfs, "/metrograph-",
                                           NULL);
    g_autoptr (GRegex) needed = g_regex_new ("\\.mgrec \\([0-9]+ bytes\\): No space left on "
                                             "device", 0, 0, NULL);

    assert_one_error_line (err, folder);
    g_assert_true (g_regex_match (needed, err, 0, NULL));
  }
  assert_one_error_line (err, "is empty: its process could not write it (is the record "
                              "folder's disk full?)");

  profile = load_profile (output);
  /* The program and its first child's record (its exec'd image). */
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  main_process = mg_profile_get_process (profile, 0);
  g_assert_cmpint (main_process->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (main_process->status, ==, 0);
  /* 0.6 s of work at 20 ms: its samples run to its end. */
  g_assert_cmpfloat (main_process->end_s, >=, 0.55);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), >=, 20);
  g_assert_cmpfloat (mg_profile_get_run_info (profile)->duration_s, >=, 0.55);
}

static void
test_profile_missing_program (Fixture *f, gconstpointer data)
{
  const char *by_path[] = { "--profile", "./no-such-program", NULL };
  const char *by_name[] = { "--profile", "no-such-program-on-path", NULL };
  const char *not_exec[] = { "--profile", "./data.txt", NULL };
  const char *garbage[] = { "--profile", "./garbage", NULL };
  g_autofree char *data_path = in_dir (f, "data.txt");
  g_autofree char *garbage_path = in_dir (f, "garbage");
  g_autoptr (CliTestRun) run1 = cli_test_run (f->dir, by_path);
  g_autoptr (CliTestRun) run2 = cli_test_run (f->dir, by_name);
  g_autoptr (CliTestRun) run3 = NULL, run4 = NULL;

  g_assert_true (g_file_set_contents (data_path, "data\n", -1, NULL));
  g_assert_cmpint (g_chmod (data_path, 0644), ==, 0);
  g_assert_true (g_file_set_contents (garbage_path, "\x01\x02 not a program\n", -1, NULL));
  g_assert_cmpint (g_chmod (garbage_path, 0755), ==, 0);
  run3 = cli_test_run (f->dir, not_exec);
  run4 = cli_test_run (f->dir, garbage);

  assert_status (run1, 4);
  assert_one_error_line (run1->err, "./no-such-program");
  assert_one_error_line (run1->err, "does not exist");
  assert_status (run2, 4);
  assert_one_error_line (run2->err, "cannot find the program");
  assert_status (run3, 4);
  assert_one_error_line (run3->err, "not an executable");
  assert_status (run4, 4);
  assert_one_error_line (run4->err, "cannot start ./garbage");
}

static void
test_profile_static (Fixture *f, gconstpointer data)
{
  g_autofree char *program = cli_test_build_path ("tests/cli/mg-cli-static");
  const char *args[] = { "--profile", "-o", "static.mgprof", program, NULL };
  g_autofree char *output = in_dir (f, "static.mgprof");
  g_autoptr (CliTestRun) run = NULL;

  if (!g_file_test (program, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no libc.a: cannot link a static program");
      return;
    }
  run = cli_test_run (f->dir, args);
  assert_status (run, 5);
  g_assert_nonnull (strstr (run->out, "static: done"));
  assert_one_error_line (run->err, "statically linked");
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* A minimal dynamic i386 program, written byte by byte (no 32-bit compiler
 * is needed): the loader /lib/ld-linux.so.2, an empty symbol table, and
 * code that writes "hello32\n" and exits with 7 through int 0x80. */
static void
write_elf32_program (const char *path)
{
  enum { BASE = 0x08048000, EH = 52, PH = 32, N_PH = 3 };
  static const char interp[] = "/lib/ld-linux.so.2";
  static const char msg[] = "hello32\n";
  guint8 image[512] = { 0 };
  guint32 off_interp = EH + PH * N_PH;
  guint32 off_str = (off_interp + sizeof interp + 3) & ~3u;
  guint32 off_sym = off_str + 4, off_dyn = off_sym + 16;
  guint32 dyn[12] = { DT_STRTAB, BASE + off_str, DT_SYMTAB, BASE + off_sym, DT_STRSZ, 4,
                      DT_SYMENT, 16, DT_DEBUG, 0, DT_NULL, 0 };
  guint32 off_code = off_dyn + sizeof dyn, off_msg = off_code + 34;
  guint32 total = off_msg + sizeof msg - 1;
  Elf32_Ehdr eh = { .e_type = ET_EXEC, .e_machine = EM_386, .e_version = EV_CURRENT,
                    .e_entry = BASE + off_code, .e_phoff = EH, .e_ehsize = EH,
                    .e_phentsize = PH, .e_phnum = N_PH, .e_shentsize = 40 };
  Elf32_Phdr ph[N_PH] = {
    { PT_INTERP, off_interp, BASE + off_interp, BASE + off_interp, sizeof interp,
      sizeof interp, PF_R, 1 },
    { PT_LOAD, 0, BASE, BASE, total, total, PF_R | PF_W | PF_X, 0x1000 },
    { PT_DYNAMIC, off_dyn, BASE + off_dyn, BASE + off_dyn, sizeof dyn, sizeof dyn,
      PF_R | PF_W, 4 },
  };
  guint8 *code = image + off_code;
  guint32 word;

  memcpy (eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS32;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  memcpy (image, &eh, sizeof eh);
  memcpy (image + EH, ph, sizeof ph);
  memcpy (image + off_interp, interp, sizeof interp);
  memcpy (image + off_dyn, dyn, sizeof dyn);
  /* mov eax, 4; mov ebx, 1; mov ecx, msg; mov edx, len; int 0x80 (write);
   * mov eax, 1; mov ebx, 7; int 0x80 (exit). */
#define MOV(op, value) (*code++ = (op), word = (value), memcpy (code, &word, 4), code += 4)
  MOV (0xb8, 4), MOV (0xbb, 1), MOV (0xb9, BASE + off_msg), MOV (0xba, sizeof msg - 1);
  *code++ = 0xcd, *code++ = 0x80;
  MOV (0xb8, 1), MOV (0xbb, 7);
  *code++ = 0xcd, *code++ = 0x80;
#undef MOV
  g_assert_cmpuint (code - image, ==, off_msg);
  memcpy (image + off_msg, msg, sizeof msg - 1);
  g_assert_true (g_file_set_contents (path, (const char *) image, total, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
}

/* A 32-bit program is warned about up front and runs untouched: its own
 * output, and nothing of its loader's about a sampler of the wrong class
 * on its stderr (none was offered to it). */
static void
test_profile_32bit (Fixture *f, gconstpointer data)
{
  g_autofree char *program = in_dir (f, "hello32");
  const char *args[] = { "--profile", "-o", "hello32.mgprof", program, NULL };
  g_autofree char *output = in_dir (f, "hello32.mgprof");
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *plain_out = NULL;
  const char *argv[] = { program, NULL };
  int plain_status = -1;

  write_elf32_program (program);
  if (!g_file_test ("/lib/ld-linux.so.2", G_FILE_TEST_EXISTS)
      || !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                        &plain_out, NULL, &plain_status, NULL)
      || !WIFEXITED (plain_status) || WEXITSTATUS (plain_status) != 7)
    {
      g_test_skip ("cannot run a 32-bit program here (no /lib/ld-linux.so.2: Debian's "
                   "libc6-i386 provides it)");
      return;
    }
  g_assert_cmpstr (plain_out, ==, "hello32\n");
  run = cli_test_run (f->dir, args);
  g_assert_cmpstr (run->out, ==, "hello32\n");
  assert_one_error_line (run->err, "will not be sampled");
  assert_one_error_line (run->err, "runs unprofiled");
  g_assert_null (strstr (run->err, "ELF class"));
  g_assert_null (strstr (run->err, "ld.so"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* A 32-bit program started by a 64-bit one: its loader finds the empty
 * library of its class that LD_PRELOAD's $PLATFORM leads it to, and says
 * nothing on its stderr ("wrong ELF class: ELFCLASS64" for each 64-bit
 * library it was offered); the shell around it is profiled as usual. */
static void
test_profile_32bit_child (Fixture *f, gconstpointer data)
{
  g_autofree char *program = in_dir (f, "hello32");
  g_autofree char *layout = cli_test_build_path ("sampler/preload/i686");
  g_autofree char *script = NULL;
  g_autofree char *output = in_dir (f, "child32.mgprof");
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  const char *argv[] = { program, NULL };
  int plain_status = -1;

  write_elf32_program (program);
  if (!g_file_test ("/lib/ld-linux.so.2", G_FILE_TEST_EXISTS)
      || !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL
                        | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &plain_status,
                        NULL)
      || !WIFEXITED (plain_status) || WEXITSTATUS (plain_status) != 7)
    {
      g_test_skip ("cannot run a 32-bit program here (no /lib/ld-linux.so.2: Debian's "
                   "libc6-i386 provides it)");
      return;
    }
  if (!g_file_test (layout, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no 32-bit preload layout was built (the compiler cannot make a 32-bit "
                   "library)");
      return;
    }
  script = g_strdup_printf ("%s; echo status $?", program);
  {
    const char *args[] = { "--profile", "-o", "child32.mgprof", "sh", "-c", script, NULL };

    run = cli_test_run (f->dir, args);
  }
  assert_status (run, 0);
  g_assert_cmpstr (run->out, ==, "hello32\nstatus 7\n");
  g_assert_null (strstr (run->err, "ELF class"));
  g_assert_null (strstr (run->err, "ld.so"));
  g_assert_null (strstr (run->err, "will not be sampled"));
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), >=, 1);
}

/* A program that ends before the first interval still gets a profile (the
 * sample each process takes as it ends), and --profile exits with its
 * status: "metrograph --profile ./quicktest && next-step" works. */
static void
test_profile_short_program (Fixture *f, gconstpointer data)
{
  const struct {
    const char *program;
    int status;
  } cases[] = { { "/bin/true", 0 }, { "/bin/false", 1 } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *output = in_dir (f, "short.mgprof");
      const char *args[] = { "--profile", "--interval=1000", "-o", "short.mgprof",
                             cases[i].program, NULL };
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
      g_autoptr (MgProfile) profile = NULL;

      assert_status (run, cases[i].status);
      g_assert_null (strstr (run->err, "no samples"));
      profile = load_profile (output);
      g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
      g_assert_cmpuint (mg_profile_get_n_windows (profile), >=, 1);
      g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, cases[i].status);
      g_assert_cmpint (g_unlink (output), ==, 0);
    }
}

/* Children that end within the first interval are in the profile with
 * their life and status but no metrics, and the summary counts them: two
 * /bin/true of a shell, not the shell nor its sleep, which lived on. */
static void
test_profile_short_children (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--interval=500", "-o", "kids.mgprof", "sh", "-c",
                         "/bin/true; /bin/true; sleep 1.2", NULL };
  g_autofree char *output = in_dir (f, "kids.mgprof");
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  guint n_true = 0;

  assert_status (run, 0);
  assert_one_error_line (run->err, "2 processes ended before their first sample (500 ms): "
                                   "counted, with their start, end and status, but no metrics");
  profile = load_profile (output);
  /* Counted again in the saved profile, from its reported flags. */
  g_assert_cmpuint (mg_profile_get_n_unsampled (profile), ==, 2);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);

      if (!g_str_has_suffix (process->program, "/true"))
        continue;
      n_true++;
      g_assert_cmpint (process->end, ==, MG_PROCESS_END_EXITED);
      g_assert_cmpint (process->status, ==, 0);
      g_assert_cmpfloat (process->end_s, >=, process->start_s);
      g_assert_cmpfloat (process->end_s - process->start_s, <, 0.5);
    }
  g_assert_cmpuint (n_true, ==, 2);
}

/* A descendant that outlives the program (a daemon, here a background
 * sleep that has lived past its first round): the run ends with the
 * program, and the summary says that one process had not ended, where
 * before it said nothing of it. The profile holds it as ended without
 * trace, up to its last sample. */
static void
test_profile_daemon_summary (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "-o", "unended.mgprof", "sh", "-c",
                         "sleep 1.5 >/dev/null 2>&1 & sleep 0.4", NULL };
  g_autofree char *output = in_dir (f, "unended.mgprof");
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;
  guint unended = 0;

  assert_status (run, 0);
  assert_one_error_line (run->err, "1 process had not ended when the run did (still running, as "
                                   "a daemon is, killed without trace by SIGKILL, or ended by the "
                                   "exit_group system call itself, as Go programs do): recorded "
                                   "up to its last sample");
  profile = load_profile (output);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);

      if (process->end != MG_PROCESS_END_UNKNOWN)
        continue;
      unended++;
      g_assert_true (g_str_has_suffix (process->program, "/sleep"));
      g_assert_cmpfloat (process->end_s - process->start_s, <, 1.0);
    }
  g_assert_cmpuint (unended, ==, 1);
  /* Let the sleep end before the folder goes. */
  g_usleep (1300000);
}

/* A program that clears LD_PRELOAD before exec'ing the real work: the
 * shell around it is never sampled at its exec, so nothing was, and that
 * is said (exit 5, no profile). */
static void
test_profile_cleared_preload (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--interval=1000", "-o", "none.mgprof", "env", "-u",
                         "LD_PRELOAD", "/bin/true", NULL };
  g_autofree char *output = in_dir (f, "none.mgprof");
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 5);
  assert_one_error_line (run->err, "no samples were recorded");
  assert_one_error_line (run->err, "cleared LD_PRELOAD");
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static guint
count_stderr_lines (const char *err)
{
  guint n = 0;

  for (const char *c = err; *c != '\0'; c++)
    n += *c == '\n';
  return n;
}

/* The line "metrograph: not available here: …", or NULL. */
static char *
unavailable_line (const char *err)
{
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "metrograph: not available here: "))
      return g_strdup (lines[i]);
  return NULL;
}

/* A default run is quiet: at most 4 lines, what this machine cannot measure
 * in one of them (energy without RAPL, forced here by an empty powercap
 * folder, with its short reason; MPI in a program without MPI, not an
 * error); --verbose gives every plugin message in full. */
static void
test_profile_summary (Fixture *f, gconstpointer data)
{
  g_autofree char *no_rapl = in_dir (f, "no-powercap");
  g_autofree char *env_rapl = g_strconcat ("METROGRAPH_POWERCAP_DIR=", no_rapl, NULL);
  const char *env[] = { env_rapl, NULL };
  const char *args[] = { "--profile", "-o", "quiet.mgprof", "sleep", "0.3", NULL };
  const char *verbose_args[] = { "--profile", "--verbose", "-o", "verbose.mgprof", "sleep",
                                 "0.1", NULL };
  g_autoptr (CliTestRun) run = cli_test_run_with_env (f->dir, args, env);
  g_autoptr (CliTestRun) verbose = cli_test_run_with_env (f->dir, verbose_args, env);
  g_autofree char *output = in_dir (f, "quiet.mgprof");
  g_autofree char *line = NULL;
  g_autoptr (MgProfile) profile = NULL;

  assert_status (run, 0);
  g_assert_cmpuint (count_stderr_lines (run->err), <=, 4);
  line = unavailable_line (run->err);
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "Energy (no RAPL)"));
  g_assert_nonnull (strstr (line, "; --verbose or the viewer says more"));
  g_assert_null (strstr (run->err, "seen 1 times"));
  g_assert_null (strstr (run->err, no_rapl));

  /* Every plugin problem of the profile is named on that line, and given
   * in full with --verbose. */
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), >=, 1);
  assert_status (verbose, 0);
  g_assert_null (unavailable_line (verbose->err));
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (profile, i);
      g_autofree char *name = g_strndup (e->message, strcspn (e->message, ":"));

      g_assert_nonnull (strstr (line, name));
      g_assert_nonnull (strstr (verbose->err, e->message));
      /* A program without MPI is no MPI error: the plugin declines (code 0). */
      if (strstr (e->message, "not an MPI program") != NULL)
        {
          g_assert_cmpint (e->code, ==, 0);
          g_assert_nonnull (strstr (line, "MPI (not an MPI program)"));
        }
    }
}

/* Enabling a metric this machine cannot provide is only known once its
 * plugin ran in the program: the profile is written without it, the
 * metric is named with the plugin's reason, and the status is 3 unless the
 * program failed (its own status then). A group enabled by name alike. */
static void
test_profile_enable_unavailable (Fixture *f, gconstpointer data)
{
  g_autofree char *no_rapl = in_dir (f, "no-powercap");
  g_autofree char *env_rapl = g_strconcat ("METROGRAPH_POWERCAP_DIR=", no_rapl, NULL);
  const char *env[] = { env_rapl, NULL };
  const char *metric[] = { "--profile", "--enable-metrics=RAPL_POWER", "-o", "m.mgprof",
                           "/bin/true", NULL };
  const char *group[] = { "--profile", "--enable-metrics=energy", "-o", "g.mgprof", "/bin/false",
                          NULL };
  const char *other[] = { "--profile", "--enable-metrics=io", "-o", "o.mgprof", "/bin/true",
                          NULL };
  g_autoptr (CliTestRun) run_metric = cli_test_run_with_env (f->dir, metric, env);
  g_autoptr (CliTestRun) run_group = cli_test_run_with_env (f->dir, group, env);
  g_autoptr (CliTestRun) run_other = cli_test_run_with_env (f->dir, other, env);
  g_autofree char *m_path = in_dir (f, "m.mgprof");
  g_autofree char *g_path = in_dir (f, "g.mgprof");
  g_autoptr (MgProfile) profile = NULL;

  assert_status (run_metric, 3);
  assert_one_error_line (run_metric->err, "--enable-metrics=RAPL_POWER: not available on this "
                                          "machine: Energy: no RAPL: ");
  assert_one_error_line (run_metric->err, "(the profile is written without it)");
  profile = load_profile (m_path);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 0);
  assert_status (run_group, 1);
  assert_one_error_line (run_group->err, "--enable-metrics=energy: not available");
  g_assert_true (g_file_test (g_path, G_FILE_TEST_EXISTS));
  assert_status (run_other, 0);
  g_assert_null (strstr (run_other->err, "--enable-metrics"));
}

/* ---- signals ---- */

static void
test_signals_stop_after (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "stop.mgprof");
  /* 2 s: on a machine whose host took most of its CPU, the program had not
   * taken its first sample after 1 s. */
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--stop-after=2",
                         "-o", "stop.mgprof", f->workload, "work=0.3", "sleep=30", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;

  /* SIGTERM ended the program long before its 30 s. */
  assert_status (run, 128 + SIGTERM);
  g_assert_cmpfloat (run->seconds, <, 20);
  assert_one_error_line (run->err, "--stop-after");
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpfloat (mg_profile_get_run_info (profile)->duration_s, <, 20);
}

/* The run folder's file system cannot take a record (the file size limit
 * here, as a full disk would): the message names the sampler's reason and
 * what to do, not a program that cleared LD_PRELOAD. */
static void
test_profile_record_not_made (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "unmade.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "unmade.mgprof",
                         f->workload, "sleep=0.2", NULL };
  g_autoptr (CliTestRun) run = NULL;
  struct rlimit saved, limit;

  /* 1 MiB: the plan and the owner file fit, a record of 4096 slots does
   * not. */
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = (struct rlimit) { 1 << 20, saved.rlim_max };
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  run = cli_test_run (f->dir, args);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);

  assert_status (run, 5);
  assert_one_error_line (run->err, "no samples were recorded, so no profile was written: the "
                                   "sampler could not make the process's record (cannot "
                                   "allocate record ");
  assert_one_error_line (run->err, "bytes): File too large): the file size limit the program "
                                   "runs with is smaller than a record; raise it (ulimit -f) or "
                                   "lower --samples");
  g_assert_null (strstr (run->err, "LD_PRELOAD"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* A fork child under an address-space limit (ulimit -v) that leaves no
 * room for its record (10 MB mapped): it runs unprofiled, as before, but
 * is counted and its line says why. It used to vanish from the run ("1
 * process"), and its reason was only in METROGRAPH_SAMPLER_VERBOSE's
 * output. */
static void
test_profile_record_no_address_space (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "-o", "aslimit.mgprof", f->workload, "cpu=0.2",
                         "aslimit=2048", "forked=0.3", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, "aslimit set\n"));
  g_assert_nonnull (strstr (run->out, "forked 0\n"));
  assert_one_error_line (run->err, ": 2 processes (mg-cli-workload) on 1 node, ");
  assert_one_error_line (run->err, " stopped recording: cannot lay out record ");
  assert_one_error_line (run->err, "Cannot allocate memory (the program's address-space limit, "
                                   "ulimit -v, may leave no room for it)");
  g_assert_null (strstr (run->err, "had not ended"));
  g_assert_null (strstr (run->err, "helper"));
}

/* Stopped before its first sample (a 3 s interval): the reason is Stop
 * after, not a program that cannot be sampled, and nothing is left behind. */
static void
test_signals_stop_before_first_sample (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "early.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=3000",
                         "--stop-after=1", "-o", "early.mgprof", f->workload, "sleep=30", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 128 + SIGTERM);
  g_assert_cmpfloat (run->seconds, <, 20);
  assert_one_error_line (run->err, "no samples were recorded, so no profile was written: "
                                   "--stop-after=1 ended the program before its first sample; "
                                   "give it longer");
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static void
wait_for_record (const char *dir, double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *records = g_build_filename (dir, name, "records", NULL);
          g_autoptr (GDir) r = g_dir_open (records, 0, NULL);
          const char *record;

          while (r != NULL && (record = g_dir_read_name (r)) != NULL)
            if (g_str_has_suffix (record, ".mgrec"))
              return;
        }
      g_usleep (50 * 1000);
    }
  g_error ("no record appeared in %s within %g s", dir, timeout_s);
}

/* A signal sent to metrograph (Ctrl-C through kill, a batch system's
 * SIGTERM) reaches the program; the profile is still written. */
static void
test_signals_forwarded (Fixture *f, gconstpointer data)
{
  int signal_number = GPOINTER_TO_INT (data);
  g_autofree char *output = in_dir (f, "int.mgprof");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "int.mgprof",
                         f->workload, "work=0.5", "sleep=60", NULL };
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_autoptr (MgProfile) profile = NULL;
  int status;

  /* Let the program start and sample (its record appears in the run folder,
   * however loaded the machine). */
  wait_for_record (f->runs, 60);
  g_usleep (G_USEC_PER_SEC / 2);
  g_assert_cmpint (kill (pid, signal_number), ==, 0);
  status = cli_test_wait (pid, 60);
  g_assert_cmpint (status, ==, 128 + signal_number);
  profile = load_profile (output);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 128 + signal_number);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
}

/* `metrograph --profile … 2>&1 | head -3`: the reader goes away. The
 * program gets SIGPIPE as it would without us; metrograph does not, so it
 * ends its run (and removes its run folder, which the teardown checks)
 * with the program's status. */
static void
test_signals_sigpipe (Fixture *f, gconstpointer data)
{
  g_autofree char *metrograph = cli_test_build_path ("app/cli/metrograph");
  const char *argv[] = { metrograph, "--profile", "--metrics-path", f->examples, "-o",
                         "pipe.mgprof", f->workload, "work=0.3", NULL };
  g_auto (GStrv) env = cli_test_environ (f->dir);
  g_autoptr (GError) error = NULL;
  GPid pid;
  int out, err;

  g_spawn_async_with_pipes (f->dir, (char **) argv, env,
                            G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL,
                            &pid, NULL, &out, &err, &error);
  g_assert_no_error (error);
  close (out);
  close (err);
  g_assert_cmpint (cli_test_wait (pid, 60), ==, 128 + SIGPIPE);
}

static guint
count_run_folders (Fixture *f, char **last)
{
  g_autoptr (GDir) dir = g_dir_open (f->runs, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      n++;
      g_free (*last);
      *last = g_build_filename (f->runs, name, NULL);
    }
  return n;
}

/* Waits until a record of a run folder in @dir holds a sample. */
static void
wait_for_sample (const char *dir, double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);

          if (mg_run_folder_has_samples (path))
            return;
        }
      g_usleep (20 * 1000);
    }
  g_error ("no sample appeared in %s within %g s", dir, timeout_s);
}

/* A child that drops root (setuid) and runs a program can no longer read
 * the run folder: it runs unprofiled, and nothing of Metrograph's is on
 * its stderr (it said "metrograph-sampler: … cannot read the plan:
 * Permission denied"). Needs root and setpriv. */
static void
test_profile_setuid_child_quiet (Fixture *f, gconstpointer data)
{
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "setuid.mgprof",
                         f->workload, NULL, NULL };
  g_autofree char *run_arg = NULL, *script = in_dir (f, "drop.sh");
  g_autofree char *text = NULL;
  g_autoptr (CliTestRun) run = NULL;

  if (geteuid () != 0 || setpriv == NULL)
    {
      g_test_skip ("needs root and setpriv to drop privileges");
      return;
    }
  /* An installed sampler is world-readable; a build tree under a private
   * home (root's, in scripts/fresh-check's root) is not, and then ld.so
   * itself says it cannot preload the library, which is no message of the
   * sampler's. */
  {
    g_autofree char *sampler = cli_test_build_path ("sampler/libmetrograph-sampler.so");
    const char *probe[] = { setpriv, "--reuid=65534", "test", "-r", sampler, NULL };
    int readable = -1;

    g_assert_true (g_spawn_sync (NULL, (char **) probe, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                 NULL, NULL, NULL, &readable, NULL));
    if (!g_spawn_check_wait_status (readable, NULL))
      {
        g_test_skip_printf ("uid 65534 cannot read %s (a build tree in a private folder)",
                            sampler);
        return;
      }
  }
  text = g_strdup_printf ("#!/bin/sh\nexec %s --reuid=65534 /bin/sh -c "
                          "'echo dropped; echo on stderr >&2'\n", setpriv);
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  run_arg = g_strconcat ("run=", script, NULL);
  args[6] = run_arg;
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, "dropped\n"));
  g_assert_nonnull (strstr (run->err, "on stderr\n"));
  g_assert_null (strstr (run->err, "metrograph-sampler"));
}

/* The sampler's descriptors are out of the program's way: its first open
 * gets 3, and under a tight RLIMIT_NOFILE (16, lowered by the program
 * itself or before it starts, the hard limit higher) it opens as many
 * files as without Metrograph. */
static void
test_profile_invisible_fds (Fixture *f, gconstpointer data)
{
  g_autofree char *script = g_strdup_printf ("%s sleep=0.2 fds nofile=16; "
                                             "ulimit -Sn 16 && exec %s sleep=0.2 fds nofile=16",
                                             f->workload, f->workload);
  const char *plain[] = { "sh", "-c", script, NULL };
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "fds.mgprof", "sh", "-c", script, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CliTestRun) run = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (f->dir, (char **) plain, NULL, G_SPAWN_SEARCH_PATH
                               | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "first fd 3\nopened 13\n"));
  g_assert_nonnull (strstr (strstr (out, "opened 13\n") + 1, "first fd 3\nopened 13\n"));

  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_assert_cmpstr (strstr (run->out, "first fd"), ==, strstr (out, "first fd"));
}

/* Whether a software perf counter opens here (no perf_event_paranoid
 * refusal, perf events in the kernel). */
static gboolean
software_counters_open (void)
{
  struct perf_event_attr attr = { 0 };
  long fd;

  attr.type = PERF_TYPE_SOFTWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    return FALSE;
  close ((int) fd);
  return TRUE;
}

/* The number after "opened " in @out, -1 when there is none. */
static int
files_opened (const char *out)
{
  const char *at = strstr (out, "opened ");

  return at != NULL ? atoi (at + strlen ("opened ")) : -1;
}

/* The metric @id of @profile has a value in one of its last @last
 * windows at least, and every value is at least @min. */
static void
assert_recent_values (MgProfile *profile, const char *id, guint last, double min)
{
  int m = mg_profile_find_metric (profile, id);
  guint n_windows = mg_profile_get_n_windows (profile);
  const MgSeries *series;
  guint with_value = 0;

  if (m < 0)
    g_error ("no metric %s in the profile", id);
  series = mg_profile_get_series (profile, (guint) m);
  for (guint w = n_windows > last ? n_windows - last : 0; w < n_windows; w++)
    if (!isnan (series->means[w]))
      {
        with_value++;
        if (series->means[w] < min)
          g_error ("metric %s: %g in window %u, expected at least %g", id,
                   series->means[w], w, min);
      }
  if (with_value == 0)
    g_error ("metric %s has no value in its last %u of %u windows", id, last, n_windows);
}

/* The metric @id of @profile reaches at least @least in one of its last
 * @last windows. */
static void
assert_recent_max (MgProfile *profile, const char *id, guint last, double least)
{
  int m = mg_profile_find_metric (profile, id);
  guint n_windows = mg_profile_get_n_windows (profile);
  const MgSeries *series;
  double most = -1;

  if (m < 0)
    g_error ("no metric %s in the profile", id);
  series = mg_profile_get_series (profile, (guint) m);
  for (guint w = n_windows > last ? n_windows - last : 0; w < n_windows; w++)
    if (!isnan (series->means[w]) && series->means[w] > most)
      most = series->means[w];
  if (most < least)
    g_error ("metric %s: at most %g in its last %u of %u windows, expected %g", id, most,
             last, n_windows, least);
}

/* Under a hard RLIMIT_NOFILE that leaves no room above the soft one
 * (`ulimit -n 16` and `ulimit -n 40` set both), the program that opens
 * files once the rounds run (0.3 s in) opens as many as without
 * Metrograph: the plugins' /proc files and the threads' folder are
 * opened for each reading, the perf counters are unavailable with the
 * reason, and the node leader's lock is held by a mapping of its file.
 * It opened 0 of 12 and 21 of 36 (the sampler and the plugins kept up to
 * 12 descriptors at the top of its range, 15 at a limit of 40). The
 * /proc-based metrics (Activity's per-thread files too) still have values; then, while the program holds
 * every descriptor (0.2 s), the readings fail quietly: nothing on the
 * program's stderr, and the values come back once it closes them. */
static void
test_profile_invisible_fds_hard (Fixture *f, gconstpointer data)
{
  const int limits[] = { 16, 40 };
  gboolean counters = software_counters_open ();

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      int limit = limits[i];
      g_autofree char *script
        = g_strdup_printf ("ulimit -n %d && exec %s sleep=0.3 fds hold=0.2 nofile=%d sleep=0.3",
                           limit, f->workload, limit);
      g_autofree char *output = g_strdup_printf ("fds-hard-%d.mgprof", limit);
      g_autofree char *output_path = in_dir (f, output);
      g_autofree char *reason
        = g_strdup_printf ("Software Events (the hard descriptor limit of %d leaves no room "
                           "for counters)", limit);
      const char *plain[] = { "sh", "-c", script, NULL };
      const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                             output, "sh", "-c", script, NULL };
      g_autofree char *out = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (CliTestRun) run = NULL;
      g_autoptr (MgProfile) profile = NULL;
      g_auto (GStrv) lines = NULL;
      int status = 0;

      g_assert_true (g_spawn_sync (f->dir, (char **) plain, NULL, G_SPAWN_SEARCH_PATH
                                   | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                                   &status, &error));
      g_assert_no_error (error);
      g_assert_nonnull (strstr (out, "first fd 3\n"));
      g_assert_cmpint (files_opened (out), >=, limit - 6);

      run = cli_test_run (f->dir, args);
      assert_status (run, 0);
      g_assert_nonnull (strstr (run->out, "first fd 3\n"));
      g_assert_cmpint (files_opened (run->out), ==, files_opened (out));
      /* Of the program's stderr, its own line only. */
      lines = g_strsplit (run->err, "\n", -1);
      for (guint l = 0; lines[l] != NULL; l++)
        if (*lines[l] != '\0' && !g_str_has_prefix (lines[l], "metrograph: "))
          g_assert_cmpstr (lines[l], ==, "workload: on stderr");
      if (counters)
        g_assert_nonnull (strstr (run->err, reason));

      profile = load_profile (output_path);
      /* After the 0.2 s the program held every descriptor: /proc/self/statm,
       * /proc/meminfo, /proc/self/io, /proc/loadavg, /proc/self/task. */
      assert_recent_values (profile, "rss", 15, 100000);
      assert_recent_values (profile, "node_mem_percent", 15, 0.001);
      assert_recent_values (profile, "wchar_total", 15, 1);
      assert_recent_values (profile, "loadavg", 15, 0);
      assert_recent_values (profile, "org.metrograph.threads", 15, 1);
      assert_recent_values (profile, "cpu_time_percentage", 15, 0);
      /* Its thread's syscall file, by its whole path: asleep at the end. */
      assert_recent_max (profile, "org.metrograph.activity.main.sleep", 15, 50);
    }
}

/* A program that cannot start says why: a script's #! interpreter is
 * missing (it read "No such file or directory (check that it is a program
 * for this machine)", of a script that is there), a script has no #! line
 * at all ("Exec format error"), or the path is a folder. */
static void
test_profile_cannot_start (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = in_dir (f, "missing.sh");
  g_autofree char *plain = in_dir (f, "plain.sh");
  const char *args_missing[] = { "--profile", "-o", "x.mgprof", "./missing.sh", NULL };
  const char *args_plain[] = { "--profile", "-o", "x.mgprof", "./plain.sh", NULL };
  g_autoptr (CliTestRun) run_missing = NULL;
  g_autoptr (CliTestRun) run_plain = NULL;

  g_assert_true (g_file_set_contents (missing, "#!/no/such/interp\necho hi\n", -1, NULL));
  g_assert_true (g_file_set_contents (plain, "echo hi\n", -1, NULL));
  g_assert_cmpint (g_chmod (missing, 0755), ==, 0);
  g_assert_cmpint (g_chmod (plain, 0755), ==, 0);
  run_missing = cli_test_run (f->dir, args_missing);
  assert_status (run_missing, 4);
  g_assert_cmpstr (run_missing->err, ==, "metrograph: cannot start ./missing.sh: its #! line "
                   "names the interpreter /no/such/interp, which does not exist here (correct "
                   "the script's first line, or install that interpreter)\n");
  run_plain = cli_test_run (f->dir, args_plain);
  assert_status (run_plain, 4);
  g_assert_cmpstr (run_plain->err, ==, "metrograph: cannot start ./plain.sh: it is neither a "
                   "program nor a script with a #! line (a shell runs such a file with /bin/sh: "
                   "add “#!/bin/sh” as its first line, or profile “sh ./plain.sh”)\n");
  /* A folder: "is not an executable program (check the path, or chmod +x
   * it)" advised chmod. */
  {
    g_autofree char *folder = in_dir (f, "sub");
    const char *args_folder[] = { "--profile", "-o", "x.mgprof", "./sub", NULL };
    g_autoptr (CliTestRun) run_folder = NULL;

    g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
    run_folder = cli_test_run (f->dir, args_folder);
    assert_status (run_folder, 4);
    g_assert_cmpstr (run_folder->err, ==, "metrograph: “./sub” is a folder, not a program "
                     "(check the path)\n");
  }
}

/* The process whose parent is @parent (the program metrograph started),
 * or 0. */
static GPid
child_of (GPid parent)
{
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
      g_autofree char *text = NULL;
      const char *after;
      int ppid = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &text, NULL, NULL)
          || (after = strrchr (text, ')')) == NULL)
        continue;
      if (sscanf (after + 2, "%*c %d", &ppid) == 1 && ppid == parent)
        return (GPid) atoi (name);
    }
  return 0;
}

/* The state letter of /proc/PID/stat (R, S, T, Z...). */
static char
process_state (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *text = NULL;
  const char *after;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (after = strrchr (text, ')')) == NULL)
    return '?';
  return after[2];
}

/* The program stopped (SIGSTOP) by someone else while metrograph has no
 * terminal: metrograph does not stop itself (nobody would continue it)
 * but waits; continued by that someone, the program ends, and metrograph
 * writes the profile with the program's status. */
static void
test_signals_stopped_without_terminal (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "stopped.mgprof", f->workload, "sleep=0.6", "exit=5", NULL };
  g_autofree char *out = in_dir (f, "stopped.mgprof");
  g_autoptr (MgProfile) profile = NULL;
  GPid pid = cli_test_spawn (f->dir, args, NULL), program = 0;

  wait_for_sample (f->runs, 60);
  for (int i = 0; i < 100 && program == 0; i++, g_usleep (10 * 1000))
    program = child_of (pid);
  g_assert_cmpint (program, >, 0);
  g_assert_cmpint (kill (program, SIGSTOP), ==, 0);
  g_usleep (G_USEC_PER_SEC);
  g_assert_cmpint (process_state (program), ==, 'T');
  g_assert_cmpint (process_state (pid), !=, 'T');
  g_assert_cmpint (kill (program, SIGCONT), ==, 0);
  g_assert_cmpint (cli_test_wait (pid, 60), ==, 5);
  profile = load_profile (out);
  g_assert_cmpint (mg_profile_get_run_info (profile)->exit_status, ==, 5);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->status, ==, 5);
}

/* Kills the front end with SIGKILL once its program has sampled, as the
 * out-of-memory killer would; the run folder it leaves, into *left. */
static void
kill_front_end (Fixture *f, GPid pid, char **left)
{
  wait_for_sample (f->runs, 60);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (cli_test_wait (pid, 60), ==, 128 + SIGKILL);
  g_assert_cmpuint (count_run_folders (f, left), ==, 1);
}

/* A metrograph that cannot clean up (SIGKILL, a crash) leaves its run
 * folder, which names its front end. The next run keeps it, since its
 * records hold samples, and says how to recover it; --recover writes the
 * profile and removes the folder. A left folder without samples is
 * removed by the next run, which says so. */
static void
test_signals_left_behind (Fixture *f, gconstpointer data)
{
  int signal_number = GPOINTER_TO_INT (data);
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "killed.mgprof",
                         f->workload, "work=0.5", NULL };
  const char *next[] = { "--profile", "--metrics-path", f->examples, "-o", "next.mgprof",
                         f->workload, "work=0.1", NULL };
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_autofree char *left = NULL, *owner = NULL, *owner_text = NULL, *expected = NULL;
  g_autofree char *note = NULL, *killed = in_dir (f, "killed.mgprof");
  g_autofree char *empty = g_build_filename (f->runs, "metrograph-empty1", NULL);
  g_autofree char *empty_records = g_build_filename (empty, "records", NULL);
  g_autofree char *empty_owner = g_build_filename (empty, "owner", NULL);
  g_autofree char *boot = NULL, *empty_text = NULL;
  g_autoptr (CliTestRun) run = NULL, recover = NULL, third = NULL;
  const char *recover_args[] = { "--recover", NULL, NULL };
  int status;

  wait_for_sample (f->runs, 60);
  g_assert_cmpint (kill (pid, signal_number), ==, 0);
  status = cli_test_wait (pid, 60);
  /* A sanitized metrograph reports the SIGSEGV and aborts. */
  if (status != 128 + signal_number && !(signal_number == SIGSEGV && status == 128 + SIGABRT))
    g_error ("metrograph ended with %d after signal %d", status, signal_number);
  g_assert_cmpuint (count_run_folders (f, &left), ==, 1);
  owner = g_build_filename (left, "owner", NULL);
  g_assert_true (g_file_get_contents (owner, &owner_text, NULL, NULL));
  expected = g_strdup_printf ("pid %d\nstart ", (int) pid);
  g_assert_true (g_str_has_prefix (owner_text, expected));
  /* The program ends on its own (it is not ours to wait for). */
  g_usleep (G_USEC_PER_SEC);

  run = cli_test_run (f->dir, next);
  assert_status (run, 0);
  note = g_strdup_printf ("metrograph: %s holds the records of a run whose metrograph (process "
                          "%d) ended before writing its profile; metrograph --recover %s writes "
                          "it\n", left, (int) pid, left);
  g_assert_nonnull (strstr (run->err, note));
  g_assert_true (g_file_test (left, G_FILE_TEST_IS_DIR));

  /* Given as a profile, the folder says what it is and names --recover
   * (it said "not a regular file, not a Metrograph profile"). */
  {
    const char *report_args[] = { "--report=-", left, NULL };
    g_autoptr (CliTestRun) report = cli_test_run (f->dir, report_args);
    g_autofree char *said = g_strdup_printf (
      "metrograph: cannot read the profile: “%s” is the folder of a run whose profile was "
      "never written (Metrograph ended before the program) (write its profile with "
      "metrograph --recover %s, then open that)\n", left, left);

    assert_status (report, 6);
    g_assert_cmpstr (report->err, ==, said);
  }

  recover_args[1] = left;
  recover = cli_test_run (f->dir, recover_args);
  assert_status (recover, 0);
  assert_one_error_line (recover->err, "profile written to");
  g_assert_null (strstr (recover->err, "still running"));
  g_assert_false (g_file_test (left, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (killed, G_FILE_TEST_IS_REGULAR));

  g_assert_cmpint (g_mkdir_with_parents (empty_records, 0700), ==, 0);
  /* An owner of this boot whose lock nobody holds: proven ended. */
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/random/boot_id", &boot, NULL, NULL));
  empty_text = g_strdup_printf ("pid 999999\nstart 1\nboot %s\npidns 1\nhost h\nlock 1\n",
                                g_strstrip (boot));
  g_assert_true (g_file_set_contents (empty_owner, empty_text, -1, NULL));
  g_clear_pointer (&note, g_free);
  third = cli_test_run (f->dir, next);
  assert_status (third, 0);
  note = g_strdup_printf ("metrograph: removed %s, left by metrograph process 999999, which "
                          "ended without removing it\n", empty);
  g_assert_nonnull (strstr (third->err, note));
  g_assert_false (g_file_test (empty, G_FILE_TEST_EXISTS));
}

/* Waits until no record in run folder @run_dir is RUNNING: the program
 * has ended (its sampler closed them). */
static void
wait_for_records_closed (const char *run_dir, double timeout_s)
{
  g_autofree char *records = g_build_filename (run_dir, "records", NULL);
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (GDir) d = g_dir_open (records, 0, NULL);
      const char *name;
      gboolean open = FALSE;

      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (records, name, NULL);
          MgRecordHeader h;

          if (g_str_has_suffix (name, ".mgrec") && mg_record_file_read_header (path, &h, NULL))
            open |= h.state == MG_RECORD_STATE_RUNNING;
        }
      if (!open)
        return;
      g_usleep (50 * 1000);
    }
  g_error ("the records of %s were still open after %g s", run_dir, timeout_s);
}

/* The front end killed while the program runs: the program goes on to its
 * own end; --recover at once writes what was recorded and names the
 * process still running, keeping the folder; once the program ended,
 * --recover again writes the whole run (its status, every sample) and
 * removes the folder. */
static void
test_recover_sigkill (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "run.mgprof", f->workload, "sleep=1.5", "exit=3", NULL };
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_autofree char *left = NULL, *first = in_dir (f, "run.mgprof");
  g_autofree char *second = in_dir (f, "run-1.mgprof");
  g_autoptr (CliTestRun) early = NULL, late = NULL;
  g_autoptr (MgProfile) partial = NULL, whole = NULL;
  const char *recover_args[] = { "--recover", NULL, NULL };
  const MgProcessInfo *process;

  kill_front_end (f, pid, &left);
  recover_args[1] = left;

  early = cli_test_run (f->dir, recover_args);
  assert_status (early, 0);
  assert_one_error_line (early->err, "still running, its record ends here: process ");
  assert_one_error_line (early->err, "mg-cli-workload)");
  g_assert_true (g_file_test (left, G_FILE_TEST_IS_DIR));
  partial = load_profile (first);
  process = mg_profile_get_process (partial, 0);
  g_assert_cmpint (process->end, !=, MG_PROCESS_END_EXITED);

  wait_for_records_closed (left, 60);
  late = cli_test_run (f->dir, recover_args);
  assert_status (late, 0);
  g_assert_null (strstr (late->err, "still running"));
  g_assert_false (g_file_test (left, G_FILE_TEST_EXISTS));
  whole = load_profile (second);
  g_assert_cmpint (mg_profile_get_run_info (whole)->exit_status, ==, 3);
  process = mg_profile_get_process (whole, 0);
  g_assert_cmpint (process->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (process->status, ==, 3);
  g_assert_cmpuint (mg_profile_get_n_windows (whole), >, mg_profile_get_n_windows (partial));
  g_assert_cmpfloat (mg_profile_get_run_info (whole)->duration_s, >=, 1.4);
}

/* --recover takes -o and --verbose as --profile does: the profile goes to
 * the -o given now (a file there is replaced), not to the run's own, and
 * the summary gives every plugin problem in full. */
static void
test_recover_output_verbose (Fixture *f, gconstpointer data)
{
  g_autofree char *no_rapl = in_dir (f, "no-powercap");
  g_autofree char *env_rapl = g_strconcat ("METROGRAPH_POWERCAP_DIR=", no_rapl, NULL);
  const char *env[] = { env_rapl, NULL };
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "run.mgprof", f->workload, "sleep=0.5", NULL };
  GPid pid = cli_test_spawn (f->dir, args, env);
  g_autofree char *left = NULL, *given = in_dir (f, "given.mgprof");
  g_autofree char *own = in_dir (f, "run.mgprof"), *written = NULL;
  g_autoptr (CliTestRun) recover = NULL;
  g_autoptr (MgProfile) profile = NULL;
  const char *recover_args[] = { "--recover", NULL, "-o", "given.mgprof", "--verbose", NULL };

  g_assert_true (g_file_set_contents (given, "old", -1, NULL));
  kill_front_end (f, pid, &left);
  wait_for_records_closed (left, 60);
  recover_args[1] = left;
  recover = cli_test_run (f->dir, recover_args);
  assert_status (recover, 0);
  written = g_strdup_printf ("profile written to %s", given);
  assert_one_error_line (recover->err, written);
  g_assert_false (g_file_test (own, G_FILE_TEST_EXISTS));
  profile = load_profile (given);
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), >=, 1);
  g_assert_null (unavailable_line (recover->err));
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    g_assert_nonnull (strstr (recover->err, mg_profile_get_plugin_error (profile, i)->message));
}

/* Folders that are not runs to recover are refused with the reason. */
static void
test_recover_errors (Fixture *f, gconstpointer data)
{
  const char *missing[] = { "--recover", "no-such-folder", NULL };
  const char *not_run[] = { "--recover", f->dir, NULL };
  g_autoptr (CliTestRun) run1 = cli_test_run (f->dir, missing);
  g_autoptr (CliTestRun) run2 = cli_test_run (f->dir, not_run);

  assert_status (run1, 2);
  assert_one_error_line (run1->err, "is not a Metrograph run folder (no such folder)");
  assert_status (run2, 2);
  assert_one_error_line (run2->err, "is not a Metrograph run folder (no records folder)");

  /* A run folder whose command file was lost: its records are named, and
   * what to write where. */
  {
    g_autofree char *run = g_build_filename (f->runs, "metrograph-nocmd", NULL);
    g_autofree char *records = g_build_filename (run, "records", NULL);
    g_autofree char *plan = g_build_filename (run, "run.plan", NULL);
    g_autofree char *expected = g_strdup_printf (
      "%s holds the records of a run but not its command file %s/command (the metrograph "
      "--profile line that repeats the run, from which --recover takes its program, options "
      "and working folder); write that line there (cd FOLDER && metrograph --profile OPTIONS "
      "PROGRAM ARGS) and run metrograph --recover %s again", run, run, run);
    const char *no_command[] = { "--recover", run, NULL };
    g_autoptr (CliTestRun) run3 = NULL;

    g_assert_cmpint (g_mkdir_with_parents (records, 0700), ==, 0);
    g_assert_true (g_file_set_contents (plan, "run_id\tlost-command\n", -1, NULL));
    run3 = cli_test_run (f->dir, no_command);
    assert_status (run3, 2);
    assert_one_error_line (run3->err, expected);
    g_assert_null (strstr (run3->err, "not a Metrograph run folder"));
    g_assert_true (g_file_test (records, G_FILE_TEST_IS_DIR));
    mg_test_remove_tree (run);
  }
}

/* Files of a folder ending in suffix. */
static guint
count_suffix (const char *dir, const char *suffix)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_suffix (name, suffix);
  return n;
}

static char *
read_text (Fixture *f, const char *name, gsize *len)
{
  g_autofree char *path = in_dir (f, name);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, len, NULL));
  return text;
}

/* --merge-node reduces the node's records of a run folder into its
 * summary (twice is once); --recover of that folder then writes the same
 * profile as of a copy that kept the records (JSON exports alike); a
 * folder that is no run folder is refused. */
static void
test_recover_merge_node (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "run.mgprof", f->workload, "sleep=0.4", NULL };
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_autofree char *left = NULL, *records = NULL, *a = NULL, *b = NULL;
  g_autofree char *copy = g_build_filename (f->runs, "metrograph-copy", NULL);
  g_autoptr (CliTestRun) merged = NULL, again = NULL, bad = NULL, ra = NULL, rb = NULL;
  g_autoptr (CliTestRun) ea = NULL, eb = NULL;
  const char *copy_args[] = { "cp", "-a", NULL, copy, NULL };
  const char *merge_args[] = { "--merge-node", NULL, NULL };
  const char *recover_a[] = { "--recover", NULL, "-o", "a.mgprof", NULL };
  const char *recover_b[] = { "--recover", copy, "-o", "b.mgprof", NULL };
  const char *export_a[] = { "--export=a.json", "a.mgprof", NULL };
  const char *export_b[] = { "--export=b.json", "b.mgprof", NULL };
  const char *bad_args[] = { "--merge-node", f->dir, NULL };
  gsize la, lb;
  int status;

  kill_front_end (f, pid, &left);
  wait_for_records_closed (left, 60);
  records = g_build_filename (left, "records", NULL);
  copy_args[2] = left;
  g_assert_true (g_spawn_sync (NULL, (char **) copy_args, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);

  merge_args[1] = left;
  merged = cli_test_run (f->dir, merge_args);
  assert_status (merged, 0);
  assert_one_error_line (merged->err, " record reduced into ");
  g_assert_cmpuint (count_suffix (records, ".mgrec"), ==, 0);
  g_assert_cmpuint (count_suffix (records, ".mgnode"), ==, 1);
  again = cli_test_run (f->dir, merge_args);
  assert_status (again, 0);
  assert_one_error_line (again->err, "no record of this node to reduce");
  g_assert_cmpuint (count_suffix (records, ".mgnode"), ==, 1);
  bad = cli_test_run (f->dir, bad_args);
  assert_status (bad, 2);
  assert_one_error_line (bad->err, "not a run folder, it has no records/ folder");

  recover_a[1] = left;
  ra = cli_test_run (f->dir, recover_a);
  assert_status (ra, 0);
  rb = cli_test_run (f->dir, recover_b);
  assert_status (rb, 0);
  ea = cli_test_run (f->dir, export_a);
  assert_status (ea, 0);
  eb = cli_test_run (f->dir, export_b);
  assert_status (eb, 0);
  a = read_text (f, "a.json", &la);
  b = read_text (f, "b.json", &lb);
  g_assert_cmpuint (la, >, 100);
  g_assert_cmpuint (la, ==, lb);
  g_assert_true (memcmp (a, b, la) == 0);
}

/* Linux names are bytes: a program, an argument, an environment value
 * and a working folder that are not UTF-8 go through --profile and
 * --recover unchanged (the program sees them; the profile keeps them), and
 * the exported JSON and the report stay UTF-8, the command line quoted so
 * that a shell gives the bytes back. */
static void
test_recover_any_bytes (Fixture *f, gconstpointer data)
{
  g_autofree char *folder = in_dir (f, "d\xe9" "f");
  g_autofree char *program = g_build_filename (folder, "w\xe9", NULL);
  g_autofree char *direct = in_dir (f, "direct.mgprof"), *recovered = in_dir (f, "rec.mgprof");
  g_autofree char *binary = NULL, *json = NULL, *report = NULL, *json_path = in_dir (f, "d.json");
  g_autofree char *report_path = in_dir (f, "d.txt"), *left = NULL;
  gsize binary_len = 0;
  const char *env[] = { "FOO=v\xff", NULL };
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         direct, "./w\xe9", "caf\xe9", "env=FOO", NULL };
  const char *slow[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         recovered, "./w\xe9", "caf\xe9", "sleep=0.5", NULL };
  const char *export_args[] = { "--export", json_path, direct, NULL };
  const char *report_args[] = { NULL, direct, NULL };
  const char *recover_args[] = { "--recover", NULL, NULL };
  g_autoptr (CliTestRun) run = NULL, exported = NULL, reported = NULL, recover = NULL;
  g_autoptr (MgProfile) profile = NULL, again = NULL;
  g_autofree char *report_arg = g_strconcat ("--report=", report_path, NULL);
  GPid pid;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_true (g_file_get_contents (f->workload, &binary, &binary_len, NULL));
  g_assert_true (g_file_set_contents (program, binary, binary_len, NULL));
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);

  run = cli_test_run_with_env (folder, args, env);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->out, "caf\xe9"));
  g_assert_nonnull (strstr (run->out, "env FOO=v\xff"));
  g_assert_null (strstr (run->err, "CRITICAL"));
  profile = load_profile (direct);
  g_assert_cmpstr (mg_profile_get_run_info (profile)->argv[0], ==, "./w\xe9");
  g_assert_cmpstr (mg_profile_get_run_info (profile)->argv[1], ==, "caf\xe9");
  g_assert_true (g_str_has_suffix (mg_profile_get_run_info (profile)->working_dir, "/d\xe9" "f"));
  g_assert_true (g_str_has_suffix (mg_profile_get_process (profile, 0)->program, "/w\xe9"));

  exported = cli_test_run (f->dir, export_args);
  assert_status (exported, 0);
  g_assert_true (g_file_get_contents (json_path, &json, NULL, NULL));
  g_assert_true (g_utf8_validate (json, -1, NULL));
  g_assert_nonnull (strstr (json, "\"command_line\":\"$'./w\\\\xe9' $'caf\\\\xe9' env=FOO\""));
  report_args[0] = report_arg;
  reported = cli_test_run (f->dir, report_args);
  assert_status (reported, 0);
  g_assert_true (g_file_get_contents (report_path, &report, NULL, NULL));
  g_assert_true (g_utf8_validate (report, -1, NULL));
  g_assert_nonnull (strstr (report, "$'./w\\xe9' $'caf\\xe9' env=FOO"));

  pid = cli_test_spawn (folder, slow, env);
  kill_front_end (f, pid, &left);
  wait_for_records_closed (left, 60);
  recover_args[1] = left;
  recover = cli_test_run (f->dir, recover_args);
  assert_status (recover, 0);
  g_assert_null (strstr (recover->err, "CRITICAL"));
  again = load_profile (recovered);
  g_assert_cmpstr (mg_profile_get_run_info (again)->argv[1], ==, "caf\xe9");
  g_assert_true (g_str_has_suffix (mg_profile_get_run_info (again)->working_dir, "/d\xe9" "f"));
  g_assert_true (g_str_has_suffix (mg_profile_get_process (again, 0)->program, "/w\xe9"));
}

/* A program whose name holds a newline and a tab (Linux names are bytes):
 * the summary names it on its one line, with the two as escapes, and the
 * report's command line quotes them as $'...', where both were written
 * as they are, breaking the summary line in two and the report's
 * "Command" line (and its function rows named after the module). */
static void
test_profile_control_chars (Fixture *f, gconstpointer data)
{
  g_autofree char *program = in_dir (f, "w\nork\tload");
  g_autofree char *report_path = in_dir (f, "r.txt"), *report = NULL, *binary = NULL;
  gsize binary_len = 0;
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "c.mgprof", "--report=r.txt", "./w\nork\tload", "cpu=0.1", NULL };
  g_autoptr (CliTestRun) run = NULL;

  g_assert_true (g_file_get_contents (f->workload, &binary, &binary_len, NULL));
  g_assert_true (g_file_set_contents (program, binary, binary_len, NULL));
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->err, "metrograph: 1 process (w\\nork\\tload) on 1 node"));
  g_assert_true (g_file_get_contents (report_path, &report, NULL, NULL));
  g_assert_nonnull (strstr (report, "$'./w\\x0aork\\x09load' cpu=0.1\n"));
  g_assert_null (strstr (report, "\nork"));
}

/* A program that sets a tight RLIMIT_SIGPENDING (16 more than the user's
 * queued signals) counts its queued signals, and each POSIX timer holds
 * one for its life: the sampler makes none then (the call stacks' per
 * thread), ends the plugin guard's tick (made when the sampler's thread
 * started, before main) at its next check, and the summary says why there
 * are no stacks. The program had 3 timers of ours (and its sigqueue failed with
 * EAGAIN after 1 where it queued 6 under a limit of 8). */
static void
test_profile_sigpending_room (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", "q.mgprof",
                         f->workload, "sigpending=16", "threads=2:0.6", "timers", NULL };
  g_autoptr (CliTestRun) run = NULL;
  const char *limit;

  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  limit = strstr (run->out, "sigpending limit ");
  if (limit == NULL || strstr (run->out, "timers unknown") != NULL)
    {
      g_test_skip ("no SigQ in /proc/self/status or no /proc/self/timers here");
      return;
    }
  /* The user's queued signals count every process's timers (this
   * machine's other runs'): only a limit below 256 is tight. */
  if (atol (limit + strlen ("sigpending limit ")) >= 256)
    {
      g_test_skip ("the user has 240 signals queued or more: no tight limit to set");
      return;
    }
  g_assert_nonnull (strstr (run->out, "timers 0\n"));
  g_assert_nonnull (strstr (run->err, "metrograph: call stacks failed in 1 process: its timers "
                                      "could not be made (a soft RLIMIT_SIGPENDING below 256"));
}

/* --recover --process-precision=single writes the same run with each
 * process's series at single precision: the summary says so, the file
 * records it, its JSON and CSV exports (the aggregates) are the same bytes
 * as the exact profile's, and every process value is within 2^-24 of the
 * exact one. A bad keyword names the option and the valid ones. */
static void
test_recover_single_precision (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "--interval=10", "-o",
                         "run.mgprof", f->workload, "sleep=0.4", NULL };
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_autofree char *left = NULL;
  g_autofree char *copy = g_build_filename (f->runs, "metrograph-copy", NULL);
  g_autofree char *exact_path = in_dir (f, "exact.mgprof"), *single_path = in_dir (f, "single.mgprof");
  const char *copy_args[] = { "cp", "-a", NULL, copy, NULL };
  const char *recover_exact[] = { "--recover", NULL, "-o", "exact.mgprof", NULL };
  const char *recover_single[] = { "--recover", copy, "-o", "single.mgprof",
                                   "--process-precision=single", NULL };
  const char *exports[][3] = { { "--export=e.json", "exact.mgprof", NULL },
                               { "--export=s.json", "single.mgprof", NULL },
                               { "--export=e.csv", "exact.mgprof", NULL },
                               { "--export=s.csv", "single.mgprof", NULL } };
  g_autoptr (CliTestRun) re = NULL, rs = NULL;
  g_autoptr (MgProfile) exact = NULL, single = NULL;
  int status;

  kill_front_end (f, pid, &left);
  wait_for_records_closed (left, 60);
  copy_args[2] = left;
  g_assert_true (g_spawn_sync (NULL, (char **) copy_args, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);

  recover_exact[1] = left;
  re = cli_test_run (f->dir, recover_exact);
  assert_status (re, 0);
  g_assert_null (strstr (re->err, "precision"));
  rs = cli_test_run (f->dir, recover_single);
  assert_status (rs, 0);
  assert_one_error_line (rs->err, "each process's own series are stored at single precision "
                                  "(--process-precision), off by at most 2^-24 of each value");
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autoptr (CliTestRun) run = cli_test_run (f->dir, exports[i]);

      assert_status (run, 0);
    }
  for (guint i = 0; i < 2; i++)
    {
      gsize le, ls;
      g_autofree char *e = read_text (f, i == 0 ? "e.json" : "e.csv", &le);
      g_autofree char *s = read_text (f, i == 0 ? "s.json" : "s.csv", &ls);

      g_assert_cmpuint (le, >, 100);
      g_assert_cmpuint (le, ==, ls);
      g_assert_true (memcmp (e, s, le) == 0);
    }

  exact = load_profile (exact_path);
  single = load_profile (single_path);
  g_assert_cmpint (mg_profile_get_process_precision (exact), ==, MG_PROCESS_PRECISION_EXACT);
  g_assert_cmpint (mg_profile_get_process_precision (single), ==, MG_PROCESS_PRECISION_SINGLE);
  g_assert_cmpuint (mg_profile_get_n_processes (single), ==, mg_profile_get_n_processes (exact));
  for (guint p = 0; p < mg_profile_get_n_processes (exact); p++)
    for (guint m = 0; m < mg_profile_get_n_metrics (exact); m++)
      {
        const MgProcessSeries *a = mg_profile_get_process_series (exact, p, m);
        const MgProcessSeries *b = mg_profile_get_process_series (single, p, m);

        g_assert_cmpuint (b->n, ==, a->n);
        for (gsize k = 0; k < a->n; k++)
          {
            g_assert_cmpfloat (b->times[k], ==, a->times[k]);
            if (isnan (a->means[k]))
              g_assert_true (isnan (b->means[k]));
            else
              g_assert_cmpfloat (fabs (b->means[k] - a->means[k]), <=,
                                 ldexp (fabs (a->means[k]), -24));
          }
      }
}

/* ---- --export ---- */

static char *
make_profile (Fixture *f, const char *name)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, "-o", name, f->workload,
                         "work=1", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  assert_status (run, 0);
  return in_dir (f, name);
}

/* Checks the JSON with Python's parser, which every meson installation has. */
static void
check_json (const char *json_path, guint n_windows, guint n_processes)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *windows = g_strdup_printf ("%u", n_windows);
  g_autofree char *processes = g_strdup_printf ("%u", n_processes);
  const char *script =
    "import json, sys\n"
    "d = json.load(open(sys.argv[1]))\n"
    "n, p = int(sys.argv[2]), int(sys.argv[3])\n"
    "info, s = d['info'], d['samples']\n"
    "assert info['number_of_processes'] == p, info['number_of_processes']\n"
    "assert info['number_of_nodes'] == 1\n"
    "assert 'command_line' in info and 'mg-cli-workload' in str(info['command_line'])\n"
    "assert s['count'] == n, (s['count'], n)\n"
    "assert len(s['window_start_offsets']) == n\n"
    "for mid in sys.argv[4:]:\n"
    "    m = s['metrics'][mid]\n"
    "    for k in ('mins', 'maxs', 'means', 'vars', 'sums'):\n"
    "        assert len(m[k]) == n, (mid, k, len(m[k]))\n"
    "b = s['metrics'][sys.argv[5]]\n"
    "assert any(v == 5 for v in b['means']), b['means']\n"
    "print('ok')\n";
  const char *argv[] = { python, "-c", script, json_path, windows, processes, CUSTOM1_ID,
                         BACKFILL1_ID, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int wait_status = 0;

  if (python == NULL)
    {
      g_test_skip ("python3 is missing: cannot parse the JSON");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &wait_status, NULL));
  if (!g_spawn_check_wait_status (wait_status, NULL))
    g_error ("the JSON export does not hold: %s", err);
  g_assert_cmpstr (out, ==, "ok\n");
}

static void
test_export_json (Fixture *f, gconstpointer data)
{
  g_autofree char *profile_path = make_profile (f, "e.mgprof");
  g_autofree char *json_path = in_dir (f, "e.json");
  const char *args[] = { "--export=e.json", "e.mgprof", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = load_profile (profile_path);

  assert_status (run, 0);
  check_json (json_path, mg_profile_get_n_windows (profile),
              mg_profile_get_n_processes (profile));
}

static void
test_export_csv (Fixture *f, gconstpointer data)
{
  g_autofree char *profile_path = make_profile (f, "c.mgprof");
  g_autofree char *csv_path = in_dir (f, "c.csv");
  const char *args[] = { "--export=c.csv", "c.mgprof", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = load_profile (profile_path);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  guint n_rows = 0;

  assert_status (run, 0);
  g_assert_true (g_file_get_contents (csv_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_nonnull (strstr (lines[0], CUSTOM1_ID));
  g_assert_nonnull (strstr (lines[0], BACKFILL1_ID));
  for (guint i = 1; lines[i] != NULL; i++)
    if (*lines[i] != '\0' && *lines[i] != '#')
      n_rows++;
  /* One row per sample window. */
  g_assert_cmpuint (n_rows, ==, mg_profile_get_n_windows (profile));
}

static void
test_export_errors (Fixture *f, gconstpointer data)
{
  g_autofree char *garbage = in_dir (f, "garbage.mgprof");
  const char *txt[] = { "--export=out.txt", "garbage.mgprof", NULL };
  const char *foreign[] = { "--export=out.json", "garbage.mgprof", NULL };
  const char *missing[] = { "--export=out.json", NULL };
  g_autoptr (CliTestRun) run1 = NULL, run2 = NULL, run3 = NULL;

  g_assert_true (g_file_set_contents (garbage, "not a profile at all\n", -1, NULL));
  run1 = cli_test_run (f->dir, txt);
  assert_status (run1, 2);
  assert_one_error_line (run1->err, "--export=out.txt");
  run2 = cli_test_run (f->dir, foreign);
  assert_status (run2, 6);
  assert_one_error_line (run2->err, "garbage.mgprof");
  run3 = cli_test_run (f->dir, missing);
  assert_status (run3, 2);
}

/* ---- MPI ---- */

static void
test_mpi_four (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *output = in_dir (f, "mpi.mgprof");
  const char *args[] = { "--profile", "-n", "4", "--metrics-path", f->examples,
                         "-o", "mpi.mgprof", f->workload, "work=2", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  gboolean seen[4] = { FALSE };
  guint n_one_per_node = 0;

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 4);
  for (guint p = 0; p < 4; p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);

      g_assert_cmpint (process->rank, >=, 0);
      g_assert_cmpint (process->rank, <, 4);
      g_assert_false (seen[process->rank]);
      seen[process->rank] = TRUE;
    }
  /* onePerNode metrics come from one process of the node at most (none when
   * the plugin fails everywhere, e.g. no RAPL in a virtual machine), and at
   * least one such metric (memory) works everywhere. */
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgMetricDef *def = mg_profile_get_metric (profile, m);
      guint reporters = 0;

      if (!def->one_per_node || def->domain != MG_DOMAIN_TIME)
        continue;
      for (guint p = 0; p < 4; p++)
        if (mg_profile_get_process_series (profile, p, m) != NULL
            && mg_profile_get_process_series (profile, p, m)->n > 0)
          reporters++;
      g_assert_cmpuint (reporters, <=, 1);
      n_one_per_node += reporters == 1;
    }
  g_assert_cmpuint (n_one_per_node, >, 0);
}

/* mpirun given by the user: it passes the environment on, is not sampled
 * itself (skip_program), and the default name is the program's. */
static void
test_mpi_explicit_launcher (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  const char *args[] = { "--profile", "--metrics-path", f->examples, "mpirun", "-n", "2",
                         "--allow-run-as-root", "--oversubscribe", f->workload, "work=1.5", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *output = NULL;
  const char *name;

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  dir = g_dir_open (f->dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_regex_match_simple ("^mg-cli-workload_2p_1n_.*\\.mgprof$", name, 0, 0))
      output = in_dir (f, name);
  g_assert_nonnull (output);
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  for (guint p = 0; p < 2; p++)
    g_assert_nonnull (strstr (mg_profile_get_process (profile, p)->program, "mg-cli-workload"));
}

static guint
count_lines (const char *text, const char *line)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += strcmp (lines[i], line) == 0;
  return n;
}

/* The ranks of the profile's processes as a canonical list ("1,3"). */
static char *
profile_ranks (MgProfile *profile)
{
  g_autoptr (GArray) ranks = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    g_array_append_val (ranks, mg_profile_get_process (profile, p)->rank);
  return mg_rank_list_from_ranks ((const int *) (void *) ranks->data, ranks->len);
}

/* --select-ranks with -n: the profile holds exactly the selected ranks, one
 * process each; the unselected ones ran (the program's output shows all
 * four) but left nothing. */
static void
test_mpi_select_ranks (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *output = in_dir (f, "sel.mgprof");
  const char *args[] = { "--profile", "-n", "4", "--select-ranks=3,1", "--metrics-path",
                         f->examples, "-o", "sel.mgprof", f->workload, "work=1", NULL };
  const char *env[] = { "METROGRAPH_KEEP_RUN_DIR=1", NULL };
  g_autoptr (GRegex) kept = g_regex_new ("kept the run folder (\\S+)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *ranks = NULL, *run_dir = NULL, *plan_path = NULL, *plan = NULL;

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  run = cli_test_run_with_env (f->dir, args, env);
  assert_status (run, 0);
  /* The plan carries the selection in canonical form. */
  g_assert_true (g_regex_match (kept, run->err, 0, &match));
  run_dir = g_match_info_fetch (match, 1);
  plan_path = g_build_filename (run_dir, "run.plan", NULL);
  g_assert_true (g_file_get_contents (plan_path, &plan, NULL, NULL));
  g_assert_nonnull (strstr (plan, "\nselect_ranks\t1,3\n"));
  cli_test_tmpdir_remove (run_dir);
  g_assert_cmpuint (count_lines (run->out, "arg: work=1"), ==, 4);
  g_assert_null (strstr (run->err, "warning"));
  g_assert_nonnull (strstr (run->err, "metrograph: ranks selected: 1,3 (--select-ranks); "
                                      "ranks in the profile: 1,3\n"));
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  g_assert_cmpuint (mg_profile_get_run_info (profile)->n_processes, ==, 2);
  ranks = profile_ranks (profile);
  g_assert_cmpstr (ranks, ==, "1,3");
  for (guint p = 0; p < 2; p++)
    g_assert_cmpint (mg_profile_get_process (profile, p)->end, ==, MG_PROCESS_END_EXITED);
}

/* A real MPI program: the unselected ranks take part in every call (the
 * run ends normally) but only ranks 0 and 2 are in the profile, with their
 * MPI calls counted by the wrapper. */
static void
test_mpi_select_ranks_real_mpi (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *program = cli_test_build_path ("tests/cli/mg-cli-mpi-workload");
  g_autofree char *output = in_dir (f, "mpi.mgprof");
  const char *args[] = { "--profile", "-n", "4", "--select-ranks=2,0", "-o", "mpi.mgprof",
                         program, NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *ranks = NULL;
  int calls;

  if (mpirun == NULL || !g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no mpirun or no MPI development files at configure time");
      return;
    }
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  profile = load_profile (output);
  ranks = profile_ranks (profile);
  g_assert_cmpstr (ranks, ==, "0,2");
  calls = mg_profile_find_metric (profile, "mpi_calls");
  g_assert_cmpint (calls, >=, 0);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessSeries *series = mg_profile_get_process_series (profile, p, (guint) calls);
      double most = 0;

      g_assert_cmpint (mg_profile_get_process (profile, p)->end, ==, MG_PROCESS_END_EXITED);
      g_assert_nonnull (series);
      for (guint i = 0; i < series->n; i++)
        if (!isnan (series->maxs[i]))
          most = MAX (most, series->maxs[i]);
      /* 7 calls every 20 ms: a rate of about 350 per second. */
      g_assert_cmpfloat (most, >, 100);
    }
}

/* The same through the user's own mpirun. */
static void
test_mpi_select_ranks_explicit (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *output = in_dir (f, "sel.mgprof");
  const char *args[] = { "--profile", "--select-ranks=0,2-9", "--metrics-path", f->examples,
                         "-o", "sel.mgprof", "mpirun", "-n", "3", "--allow-run-as-root",
                         "--oversubscribe", f->workload, "work=1", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *ranks = NULL;

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "warning"));
  profile = load_profile (output);
  ranks = profile_ranks (profile);
  g_assert_cmpstr (ranks, ==, "0,2");
}

/* A rank script: rank 1 runs the workload with @rank1_args, the others with
 * @other_args (exec, so each rank is one process with its rank). */
static char *
write_rank_script (Fixture *f, const char *rank1_args, const char *other_args)
{
  g_autofree char *path = in_dir (f, "ranks.sh");
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n"
                                           "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then\n"
                                           "  exec '%s' %s\n"
                                           "fi\n"
                                           "exec '%s' %s\n",
                                           f->workload, rank1_args, f->workload, other_args);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return g_steal_pointer (&path);
}

/* mpirun exits with 128 + signal when a rank is killed: when that rank is
 * the only one whose record is left open, it is marked killed by that
 * signal; when mpirun also killed the others, nothing is guessed. */
static void
test_mpi_killed_rank (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *lone = NULL, *many = NULL;
  g_autofree char *lone_path = in_dir (f, "lone.mgprof");
  g_autofree char *many_path = in_dir (f, "many.mgprof");
  g_autoptr (CliTestRun) run = NULL, run_many = NULL;
  g_autoptr (MgProfile) profile = NULL, profile_many = NULL;
  guint n_signalled = 0, n_unknown = 0;

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  lone = write_rank_script (f, "sleep=0.6 crash", "exit=0");
  {
    const char *args[] = { "--profile", "-n", "2", "--metrics-path", f->examples,
                           "-o", "lone.mgprof", lone, NULL };

    run = cli_test_run (f->dir, args);
  }
  assert_status (run, 139);
  profile = load_profile (lone_path);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile, p);

      if (process->end == MG_PROCESS_END_EXECED)
        continue; /* the shell before its exec */
      if (process->rank == 1)
        {
          g_assert_cmpint (process->end, ==, MG_PROCESS_END_SIGNALLED);
          g_assert_cmpint (process->status, ==, SIGSEGV);
          n_signalled++;
        }
      else
        {
          g_assert_cmpint (process->end, ==, MG_PROCESS_END_EXITED);
          g_assert_cmpint (process->status, ==, 0);
        }
    }
  g_assert_cmpuint (n_signalled, ==, 1);

  /* Rank 1 crashes while ranks 0 and 2 still run: mpirun terminates them,
   * so three records are left open and none can be told apart. */
  many = write_rank_script (f, "sleep=0.6 crash", "sleep=20");
  {
    const char *args[] = { "--profile", "-n", "3", "--metrics-path", f->examples,
                           "-o", "many.mgprof", many, NULL };

    run_many = cli_test_run (f->dir, args);
  }
  assert_status (run_many, 139);
  g_assert_cmpfloat (run_many->seconds, <, 15);
  profile_many = load_profile (many_path);
  for (guint p = 0; p < mg_profile_get_n_processes (profile_many); p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (profile_many, p);

      g_assert_cmpint (process->end, !=, MG_PROCESS_END_SIGNALLED);
      n_unknown += process->end == MG_PROCESS_END_UNKNOWN;
    }
  g_assert_cmpuint (n_unknown, ==, 3);

  /* With --select-ranks an unrecorded rank could be the one: no guess, even
   * though one record is left open (rank 1's). */
  {
    const char *args[] = { "--profile", "-n", "2", "--select-ranks=0-1", "--metrics-path",
                           f->examples, "-o", "selected.mgprof", lone, NULL };
    g_autofree char *selected_path = in_dir (f, "selected.mgprof");
    g_autoptr (CliTestRun) run_selected = cli_test_run (f->dir, args);
    g_autoptr (MgProfile) profile_selected = NULL;
    guint n_rank1 = 0;

    assert_status (run_selected, 139);
    profile_selected = load_profile (selected_path);
    for (guint p = 0; p < mg_profile_get_n_processes (profile_selected); p++)
      {
        const MgProcessInfo *process = mg_profile_get_process (profile_selected, p);

        if (process->rank != 1 || process->end == MG_PROCESS_END_EXECED)
          continue;
        g_assert_cmpint (process->end, ==, MG_PROCESS_END_UNKNOWN);
        n_rank1++;
      }
    g_assert_cmpuint (n_rank1, ==, 1);
  }
}

/* Without MPI a rank selection means nothing: a warning, and the program is
 * sampled as usual. */
static void
test_profile_select_ranks_without_mpi (Fixture *f, gconstpointer data)
{
  g_autofree char *output = in_dir (f, "one.mgprof");
  const char *args[] = { "--profile", "--select-ranks=1", "--metrics-path", f->examples,
                         "-o", "one.mgprof", f->workload, "work=0.3", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autoptr (MgProfile) profile = NULL;

  assert_status (run, 0);
  assert_one_error_line (run->err, "warning: --select-ranks=1 has no effect without MPI");
  profile = load_profile (output);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->rank, ==, -1);
}

/* MAP's _<T>t part: OMP_NUM_THREADS in the program's environment. */
static void
test_profile_threads_name (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--metrics-path", f->examples, f->workload, "work=0.2",
                         NULL };
  const char *three[] = { "OMP_NUM_THREADS=3", NULL };
  g_autoptr (CliTestRun) with = cli_test_run_with_env (f->dir, args, three);
  g_autoptr (CliTestRun) without = NULL;
  g_autoptr (GDir) dir = NULL;
  guint n_with = 0, n_without = 0;
  const char *name;

  assert_status (with, 0);
  without = cli_test_run (f->dir, args);
  assert_status (without, 0);
  dir = g_dir_open (f->dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      n_with += g_regex_match_simple ("^mg-cli-workload_1p_1n_3t_\\d{4}-\\d\\d-\\d\\d_"
                                      "\\d\\d-\\d\\d(-1)?\\.mgprof$", name, 0, 0);
      n_without += g_regex_match_simple ("^mg-cli-workload_1p_1n_\\d{4}-\\d\\d-\\d\\d_"
                                         "\\d\\d-\\d\\d(-1)?\\.mgprof$", name, 0, 0);
    }
  g_assert_cmpuint (n_with, ==, 1);
  g_assert_cmpuint (n_without, ==, 1);
}

static void
add (const char *path, void (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, cli_test_folder_setup, func, cli_test_folder_teardown);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  add ("/cli/usage/help", test_usage_help);
  add ("/cli/usage/version", test_usage_version);
  add ("/cli/usage/errors", test_usage_errors);
  add ("/cli/list-metrics/examples", test_list_examples);
  add ("/cli/list-metrics/unknown-id", test_list_unknown_id);
  add ("/cli/list-metrics/conflict", test_list_conflict);
  add ("/cli/list-metrics/missing-path", test_list_missing_path);
  add ("/cli/list-metrics/bad-encoding", test_list_bad_encoding);
  add ("/cli/profile/examples", test_profile_examples);
  add ("/cli/profile/default-name", test_profile_default_name);
  add ("/cli/profile/args-and-stdio", test_profile_args_and_stdio);
  add ("/cli/profile/environment", test_profile_environment);
  add ("/cli/profile/output-folder", test_profile_output_folder);
  add ("/cli/profile/record-not-made", test_profile_record_not_made);
  add ("/cli/profile/record-no-address-space", test_profile_record_no_address_space);
  add ("/cli/profile/output-without-suffix", test_profile_output_without_suffix);
  add ("/cli/profile/unwritable-output", test_profile_unwritable_output);
  add ("/cli/profile/merge-fails", test_profile_merge_fails);
  add ("/cli/profile/output-folder-removed", test_profile_output_folder_removed);
  add ("/cli/profile/exit-status", test_profile_exit_status);
  add ("/cli/profile/crash", test_profile_crash);
  add ("/cli/profile/exit-group", test_profile_exit_group);
  add ("/cli/profile/plugin-crash", test_profile_plugin_crash);
  add ("/cli/profile/plugin-hang", test_profile_plugin_hang);
  add ("/cli/profile/plugin-init-hangs", test_profile_plugin_init_hangs);
  add ("/cli/profile/daemon", test_profile_daemon);
  add ("/cli/profile/full-disk", test_profile_full_disk);
  add ("/cli/profile/missing-program", test_profile_missing_program);
  add ("/cli/profile/static", test_profile_static);
  add ("/cli/profile/32bit", test_profile_32bit);
  add ("/cli/profile/32bit-child", test_profile_32bit_child);
  add ("/cli/profile/short-program", test_profile_short_program);
  add ("/cli/profile/short-children", test_profile_short_children);
  add ("/cli/profile/daemon-summary", test_profile_daemon_summary);
  add ("/cli/profile/cleared-preload", test_profile_cleared_preload);
  add ("/cli/profile/summary", test_profile_summary);
  add ("/cli/profile/invisible-fds", test_profile_invisible_fds);
  add ("/cli/profile/invisible-fds-hard", test_profile_invisible_fds_hard);
  add ("/cli/profile/cannot-start", test_profile_cannot_start);
  add ("/cli/profile/crash-at-once", test_profile_crash_at_once);
  add ("/cli/profile/run-folder-removed", test_profile_run_folder_removed);
  add ("/cli/profile/relative-tmpdir", test_profile_relative_tmpdir);
  add ("/cli/profile/setuid-child-quiet", test_profile_setuid_child_quiet);
  add ("/cli/profile/enable-unavailable", test_profile_enable_unavailable);
  add ("/cli/signals/stop-after", test_signals_stop_after);
  add ("/cli/signals/stop-before-first-sample", test_signals_stop_before_first_sample);
  g_test_add ("/cli/signals/sigint", Fixture, GINT_TO_POINTER (SIGINT), cli_test_folder_setup,
              test_signals_forwarded, cli_test_folder_teardown);
  g_test_add ("/cli/signals/sigterm", Fixture, GINT_TO_POINTER (SIGTERM), cli_test_folder_setup,
              test_signals_forwarded, cli_test_folder_teardown);
  add ("/cli/signals/sigpipe", test_signals_sigpipe);
  add ("/cli/signals/stopped-without-terminal", test_signals_stopped_without_terminal);
  g_test_add ("/cli/signals/sigkill-left-behind", Fixture, GINT_TO_POINTER (SIGKILL),
              cli_test_folder_setup, test_signals_left_behind, cli_test_folder_teardown);
  g_test_add ("/cli/signals/crash-left-behind", Fixture, GINT_TO_POINTER (SIGSEGV),
              cli_test_folder_setup, test_signals_left_behind, cli_test_folder_teardown);
  add ("/cli/recover/sigkill", test_recover_sigkill);
  add ("/cli/recover/errors", test_recover_errors);
  add ("/cli/recover/output-verbose", test_recover_output_verbose);
  add ("/cli/recover/merge-node", test_recover_merge_node);
  add ("/cli/recover/single-precision", test_recover_single_precision);
  add ("/cli/recover/any-bytes", test_recover_any_bytes);
  add ("/cli/profile/control-chars", test_profile_control_chars);
  add ("/cli/profile/sigpending-room", test_profile_sigpending_room);
  add ("/cli/export/json", test_export_json);
  add ("/cli/export/csv", test_export_csv);
  add ("/cli/export/errors", test_export_errors);
  add ("/cli/mpi/four", test_mpi_four);
  add ("/cli/mpi/explicit-launcher", test_mpi_explicit_launcher);
  add ("/cli/mpi/select-ranks", test_mpi_select_ranks);
  add ("/cli/mpi/select-ranks-real-mpi", test_mpi_select_ranks_real_mpi);
  add ("/cli/mpi/killed-rank", test_mpi_killed_rank);
  add ("/cli/mpi/select-ranks-explicit-launcher", test_mpi_select_ranks_explicit);
  add ("/cli/profile/select-ranks-without-mpi", test_profile_select_ranks_without_mpi);
  add ("/cli/profile/threads-name", test_profile_threads_name);
  return g_test_run ();
}
