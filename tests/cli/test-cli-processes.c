/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the profile calls a process, end to end: an exec keeps its process
 * and its images (docs/profile-format.md, "A process is a process"). */
#include "mg-config.h"

#include <math.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "cli-harness.h"
#include "profile/mg-process-images.h"
#include "profile/mg-profile.h"

/* Each test's own folder (cli-harness.h). */
typedef CliTestFolder Fixture;

/* Profiles argv (after "--profile -o out.mgprof") and loads the profile. */
static MgProfile *
processes_test_profile (Fixture *f, const char *const *argv, CliTestRun **run_out)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *path = g_build_filename (f->dir, "out.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  MgProfile *profile;

  g_ptr_array_add (args, "--profile");
  g_ptr_array_add (args, "--interval=10");
  g_ptr_array_add (args, "-o");
  g_ptr_array_add (args, "out.mgprof");
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, (char *) argv[i]);
  g_ptr_array_add (args, NULL);
  g_remove (path);
  run = cli_test_run (f->dir, (const char *const *) args->pdata);
  if (run->status != 0)
    g_error ("metrograph exited with %d; stderr:\n%s", run->status, run->err);
  profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  if (run_out != NULL)
    *run_out = g_steal_pointer (&run);
  return profile;
}

/* The file names of the process's images, joined with spaces. */
static char *
processes_test_images (MgProfile *profile, guint p)
{
  g_autoptr (GPtrArray) images = mg_profile_dup_process_images (profile, p);
  g_autoptr (GString) names = g_string_new (NULL);

  for (guint i = 0; i < images->len; i++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (images, i));

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "", base);
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static guint count_helpers (MgProfile *profile);

/* `env true`: one process, which ran env and then true, named by true. */
static void
test_exec_env (Fixture *f, gconstpointer data)
{
  const char *argv[] = { "env", "true", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = processes_test_profile (f, argv, &run);
  g_autofree char *images = NULL;
  g_autofree char *name = NULL;
  const MgProcessInfo *info;

  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpuint (mg_profile_get_run_info (profile)->n_processes, ==, 1);
  g_assert_true (mg_profile_has_process_images (profile));
  g_assert_cmpuint (count_helpers (profile), ==, 0);
  info = mg_profile_get_process (profile, 0);
  images = processes_test_images (profile, 0);
  g_assert_cmpstr (images, ==, "env true");
  g_assert_true (g_str_has_suffix (info->program, "/true"));
  g_assert_cmpint (info->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (info->status, ==, 0);
  name = mg_profile_describe_process_program (profile, 0);
  g_assert_cmpstr (name, ==, "true (via env)");
  g_assert_nonnull (strstr (run->err, "1 process"));
}

/* --verbose counts processes, not images: `env workload` is one process
 * whose two images each report the plugins that cannot measure here (an
 * MPI plugin outside MPI, at least): "(in 1 of 1 process)", where it read
 * "(in 2 of 1 process)". */
static void
test_exec_verbose_counts (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "-v", "--interval=10", "-o", "v.mgprof", "env",
                         f->workload, "sleep=0.1", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->err, " (in 1 of 1 process)\n"));
  g_assert_null (strstr (run->err, " (in 2 of 1 process)"));
}

/* `sh -c 'exec workload'`: one process, sh then the workload, which ran
 * for its whole time (the samples of both images, in one series). */
static void
test_exec_shell (Fixture *f, gconstpointer data)
{
  g_autofree char *script = g_strdup_printf ("exec %s work=0.3", f->workload);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr (MgProfile) profile = processes_test_profile (f, argv, NULL);
  g_autofree char *images = NULL;
  g_auto (GStrv) words = NULL;
  const MgProcessInfo *info;
  guint n_execs = 0;

  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpuint (count_helpers (profile), ==, 0);
  images = processes_test_images (profile, 0);
  g_assert_true (g_str_has_suffix (images, " mg-cli-workload"));
  /* Two images: the shell (dash, bash: whatever /bin/sh is) and the workload. */
  words = g_strsplit (images, " ", -1);
  g_assert_cmpuint (g_strv_length (words), ==, 2);
  info = mg_profile_get_process (profile, 0);
  g_assert_cmpfloat (info->end_s - info->start_s, >=, 0.3);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    n_execs += mg_profile_get_event (profile, i)->kind == MG_EVENT_EXEC;
  g_assert_cmpuint (n_execs, ==, 1);
}

/* A script in the test's folder, executable. */
static char *
processes_test_script (Fixture *f, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return g_steal_pointer (&path);
}

/* No aggregate's lowest or highest value comes from a helper: they are
 * left out of the statistics across processes. */
static void
assert_helpers_left_out (MgProfile *profile)
{
  guint n_windows = mg_profile_get_n_windows (profile);
  guint n_checked = 0;

  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSeries *series = mg_profile_get_series (profile, m);

      for (guint w = 0; series != NULL && w < n_windows; w++)
        {
          if (series->min_process[w] < 0)
            continue;
          g_assert_false (mg_profile_get_process (profile, series->min_process[w])->helper);
          g_assert_false (mg_profile_get_process (profile, series->max_process[w])->helper);
          n_checked++;
        }
    }
  g_assert_cmpuint (n_checked, >, 0);
}

static guint
count_helpers (MgProfile *profile)
{
  guint n = 0;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    n += mg_profile_get_process (profile, p)->helper;
  g_assert_cmpuint (n, ==, mg_profile_get_n_helpers (profile));
  return n;
}

/* The profile written under its default name (one of them in the folder). */
static char *
processes_test_default_output (Fixture *f, const char *prefix)
{
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".mgprof"))
      return g_build_filename (f->dir, name, NULL);
  g_error ("no profile named %s… in %s", prefix, f->dir);
  return NULL;
}

/* A wrapper script that runs the program (a child: the script goes on
 * after it): the script is a helper, the program the one process, which
 * names the profile, and the script's idle time is in no statistic. */
static void
test_helper_wrapper (Fixture *f, gconstpointer data)
{
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n'%s' work=0.6\nstatus=$?\nexit $status\n",
                                           f->workload);
  g_autofree char *script = processes_test_script (f, "wrap.sh", text);
  const char *args[] = { "--profile", "--interval=10", script, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *path = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  guint program = 0;

  g_assert_cmpint (run->status, ==, 0);
  path = processes_test_default_output (f, "wrap.sh_");
  g_assert_true (g_str_has_prefix (strrchr (path, '/') + 1, "wrap.sh_1p_1n_"));
  profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  g_assert_cmpuint (count_helpers (profile), ==, 1);
  program = mg_profile_get_process (profile, 0)->helper ? 1 : 0;
  g_assert_true (g_str_has_suffix (mg_profile_get_process (profile, program)->program,
                                   "/mg-cli-workload"));
  g_assert_cmpint (mg_profile_get_process (profile, 1 - program)->pid, ==,
                   mg_profile_get_process (profile, program)->ppid);
  assert_helpers_left_out (profile);
  g_assert_nonnull (strstr (run->err, "1 process (mg-cli-workload) and 1 helper process"));
}

/* The value of a line of a text report ("CPU time (mean process)  15.5 %"). */
static double
processes_test_report_value (Fixture *f, const char *profile, const char *label)
{
  const char *args[] = { "--report=-", profile, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  const char *line;

  g_assert_cmpint (run->status, ==, 0);
  line = strstr (run->out, label);
  if (line == NULL)
    g_error ("no line '%s' in the report:\n%s", label, run->out);
  return g_ascii_strtod (line + strlen (label), NULL);
}

/* A program that computes 0.2 s of CPU time, then runs system ("sleep 1 |
 * cat"): by its times the shell's wrapper, but it computed, so it is a
 * process: counted in the summary and the profile's name, its CPU time in
 * the report (the shell, which runs two children, sleep and cat too). */
static void
test_helper_busy (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--interval=10", f->workload, "cpu=0.2",
                         "system=sleep 1 | cat", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_autofree char *path = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (run->status, ==, 0);
  path = processes_test_default_output (f, "mg-cli-workload_");
  g_assert_true (g_str_has_prefix (strrchr (path, '/') + 1, "mg-cli-workload_4p_1n_"));
  profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 4);
  g_assert_cmpuint (count_helpers (profile), ==, 0);
  g_assert_nonnull (strstr (run->err, "4 processes (mg-cli-workload, "));
  g_assert_null (strstr (run->err, "helper"));
  /* The workload's 0.2 s in a mean over processes: well above nothing. */
  g_assert_cmpfloat (processes_test_report_value (f, path, "CPU time (mean process)"), >, 1.0);
}

/* A shim: short steps (readlink, dirname, one after the other), then an
 * exec of the program: the steps are helpers, the shim one process with
 * the program. */
static void
test_helper_shim (Fixture *f, gconstpointer data)
{
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\nreadlink -f /bin/sh >/dev/null\n"
                                           "dirname /a/b >/dev/null\nexec '%s' work=0.6\n",
                                           f->workload);
  g_autofree char *script = processes_test_script (f, "shim", text);
  const char *argv[] = { script, NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = processes_test_profile (f, argv, &run);
  g_autofree char *name = NULL;
  guint n_real = 0;

  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 3);
  g_assert_cmpuint (count_helpers (profile), ==, 2);
  for (guint p = 0; p < 3; p++)
    {
      const MgProcessInfo *info = mg_profile_get_process (profile, p);

      if (info->helper)
        {
          g_autofree char *images = processes_test_images (profile, p);

          g_assert_true (g_str_equal (images, "readlink") || g_str_equal (images, "dirname"));
          continue;
        }
      n_real++;
      name = mg_profile_describe_process_program (profile, p);
      g_assert_true (g_str_has_prefix (name, "mg-cli-workload (via "));
    }
  g_assert_cmpuint (n_real, ==, 1);
  assert_helpers_left_out (profile);
  g_assert_nonnull (strstr (run->err, "1 process (mg-cli-workload (via "));
  g_assert_nonnull (strstr (run->err, ") and 2 helper processes"));
}

/* make -j2 runs two jobs at once: each is work, and so is make, which
 * runs more than one: nothing is a helper. */
static void
test_helper_make (Fixture *f, gconstpointer data)
{
  g_autofree char *makefile = g_strdup_printf ("all: a b\na:\n\t'%s' work=0.5\nb:\n\t'%s' "
                                               "work=0.5\n.PHONY: all a b\n",
                                               f->workload, f->workload);
  g_autofree char *path = processes_test_script (f, "Makefile", makefile);
  g_autofree char *make = g_find_program_in_path ("make");
  const char *argv[] = { "make", "-s", "-j2", "-f", path, NULL };
  g_autoptr (MgProfile) profile = NULL;
  guint n_workloads = 0;

  if (make == NULL)
    {
      g_test_skip ("make is not installed");
      return;
    }
  profile = processes_test_profile (f, argv, NULL);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 3);
  g_assert_cmpuint (count_helpers (profile), ==, 0);
  for (guint p = 0; p < 3; p++)
    n_workloads += g_str_has_suffix (mg_profile_get_process (profile, p)->program,
                                     "/mg-cli-workload");
  g_assert_cmpuint (n_workloads, ==, 2);
}

/* A build that a compile error stops (a stand-in for lz4's make with one
 * broken file): the recipe's compiler fails (1), make after it (2). The
 * profiled make prints the same messages and ends with the same status as
 * the unprofiled one, and the summary names the compiler that failed first
 * among the processes: it was a helper, hidden, and no line said which
 * process failed. */
static void
test_first_failure (Fixture *f, gconstpointer data)
{
  g_autofree char *compiler = processes_test_script (
    f, "cc-broken", "#!/bin/sh\necho \"broken.c:1:5: error: expected ';'\" >&2\nexit 1\n");
  g_autofree char *makefile = g_strdup_printf ("all: ok broken\nok:\n\t@true\nbroken:\n\t@'%s'\n"
                                               ".PHONY: all ok broken\n", compiler);
  g_autofree char *path = processes_test_script (f, "Makefile", makefile);
  g_autofree char *make = g_find_program_in_path ("make");
  const char *args[] = { "--profile", "--interval=10", "-o", "failed.mgprof", "make", "-f", path,
                         NULL };
  const char *plain_argv[] = { "make", "-f", path, NULL };
  g_autofree char *plain_out = NULL, *plain_err = NULL, *program = NULL;
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  int plain_status = 0;
  guint n_lines = 0;

  if (make == NULL)
    {
      g_test_skip ("make is not installed");
      return;
    }
  g_assert_true (g_spawn_sync (f->dir, (char **) plain_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &plain_out, &plain_err, &plain_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (plain_status));
  g_assert_cmpint (WEXITSTATUS (plain_status), ==, 2);
  run = cli_test_run (f->dir, args);
  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpstr (run->out, ==, plain_out);
  /* The program's stderr first, unchanged, then the summary's lines. */
  g_assert_true (g_str_has_prefix (run->err, plain_err));
  lines = g_strsplit (run->err + strlen (plain_err), "\n", -1);
  program = g_path_get_basename (compiler);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      g_assert_true (g_str_has_prefix (lines[i], "metrograph: "));
      if (strstr (lines[i], "failed; the first") == NULL)
        continue;
      n_lines++;
      g_assert_true (g_str_has_prefix (lines[i], "metrograph: 2 processes failed; the first, after "
                                                 "no child of its own: "));
      /* The script ran by its shell: "cc-broken (via sh)" or "sh", by
       * what /bin/sh made of it; its status in any case. */
      g_assert_nonnull (strstr (lines[i], ") exited with status 1 at "));
      g_assert_null (strstr (lines[i], "make ("));
    }
  g_assert_cmpuint (n_lines, ==, 1);
}

/* MPI ranks through mpirun (not sampled) are never helpers; through a
 * wrapper script that runs the program, each rank's script is. */
static void
test_helper_mpi (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n'%s' work=0.6\nstatus=$?\nexit $status\n",
                                           f->workload);
  g_autofree char *script = processes_test_script (f, "rank.sh", text);
  const char *direct[] = { "-n", "2", f->workload, "work=0.6", NULL };
  const char *wrapped[] = { "-n", "2", script, NULL };
  g_autoptr (MgProfile) plain = NULL;
  g_autoptr (MgProfile) through_script = NULL;
  gboolean seen[2] = { FALSE, FALSE };

  if (mpirun == NULL)
    {
      g_test_skip ("mpirun is not installed");
      return;
    }
  plain = processes_test_profile (f, direct, NULL);
  g_assert_cmpuint (mg_profile_get_n_processes (plain), ==, 2);
  g_assert_cmpuint (count_helpers (plain), ==, 0);

  through_script = processes_test_profile (f, wrapped, NULL);
  g_assert_cmpuint (mg_profile_get_n_processes (through_script), ==, 4);
  g_assert_cmpuint (count_helpers (through_script), ==, 2);
  for (guint p = 0; p < 4; p++)
    {
      const MgProcessInfo *info = mg_profile_get_process (through_script, p);

      g_assert_cmpint (info->rank, >=, 0);
      g_assert_cmpint (info->rank, <, 2);
      if (info->helper)
        continue;
      g_assert_true (g_str_has_suffix (info->program, "/mg-cli-workload"));
      g_assert_false (seen[info->rank]);
      seen[info->rank] = TRUE;
    }
  assert_helpers_left_out (through_script);
}

/* A program of one thread that enters a user namespace of its own
 * (`unshare -U`, bubblewrap, rootless containers): the kernel refuses
 * unshare (CLONE_NEWUSER) with EINVAL to a process of more than one
 * thread, so the sampler's thread steps aside for the call and a new one
 * samples on. It failed under Metrograph ("unshare: Invalid argument"),
 * and `unshare -U -r PROGRAM` ended with status 1 without running it. */
static void
test_unshare_user (Fixture *f, gconstpointer data)
{
  const char *plain[] = { f->workload, "cpu=0.3", "unshare-user", "cpu=0.6", NULL };
  const char *argv[] = { f->workload, "cpu=0.3", "unshare-user", "cpu=0.6", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  const MgProcessSeries *cpu;
  int status = 0;
  int metric;
  double peak = 0;

  g_assert_true (g_spawn_sync (f->dir, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  if (strstr (out, "unshare: ok\n") == NULL)
    {
      g_test_skip ("this machine does not let a user create a user namespace");
      return;
    }
  profile = processes_test_profile (f, argv, &run);
  g_assert_cmpstr (run->out, ==, out);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  metric = mg_profile_find_metric (profile, "cpu_time_percentage");
  g_assert_cmpint (metric, >=, 0);
  cpu = mg_profile_get_process_series (profile, 0, (guint) metric);
  /* 0.6 s of CPU (0.3 s after the unshare) at 10 ms: sampled on after
   * the unshare, to its end. */
  g_assert_cmpuint (cpu->n, >=, 30);
  g_assert_cmpfloat (cpu->times[cpu->n - 1], >=, 0.55);
  /* One thread of the program: never much above 100 %, the sampler's
   * first thread's CPU time carried on by the second rather than read as
   * the program's in one sample. */
  for (guint i = 0; i < cpu->n; i++)
    peak = MAX (peak, cpu->means[i]);
  g_assert_cmpfloat (peak, <=, 115);
}

/* A program that installs a seccomp filter killing the process at a
 * system call it never makes itself, as sandboxes do once set up
 * (timer_create on its own thread; openat, with TSYNC, on every thread).
 * It died of SIGSYS under Metrograph (status 159: the plugin watch's
 * timer_create at its exit, the sampler thread's openat at its next
 * round) where it exits 0 unprofiled; now its output and status are its
 * own, the profile keeps its samples until then, and the summary says
 * why its recording stopped. */
static void
test_seccomp_kill (Fixture *f, gconstpointer data)
{
  const char *spec = data;
  g_autofree char *arg = g_strconcat ("seccomp-kill=", spec, NULL);
  const char *plain[] = { f->workload, "cpu=0.1", arg, "cpu=0.2", NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;
  int status = -1;

  g_assert_true (g_spawn_sync (f->dir, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  if (strstr (out, "seccomp: ok\n") == NULL)
    {
      g_test_skip ("seccomp filters cannot be installed here");
      return;
    }
  g_assert_cmpint (status, ==, 0);
  profile = processes_test_profile (f, plain, &run);
  g_assert_cmpstr (run->out, ==, out);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->end, ==, MG_PROCESS_END_EXITED);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->status, ==, 0);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), >=, 1);
  g_assert_nonnull (strstr (run->err, " stopped recording: the program installed a seccomp "
                                      "filter"));
}

/* A program killed by its own filter (it opens a file after forbidding
 * openat) dies so under Metrograph too; where the sampler cannot keep out
 * of a filter's way (one installed in the middle of its round), the
 * death looks the same: the summary says what SIGSYS means and how to
 * tell the two apart, where it gave the status only. */
static void
test_seccomp_sigsys (Fixture *f, gconstpointer data)
{
  const char *args[] = { "--profile", "--interval=10", "-o", "out.mgprof", f->workload, "cpu=0.1",
                         "seccomp-kill=openat", "fds", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);

  if (strstr (run->out, "seccomp: ok\n") == NULL)
    {
      g_test_skip ("seccomp filters cannot be installed here");
      return;
    }
  g_assert_cmpint (run->status, ==, 128 + SIGSYS);
  g_assert_nonnull (strstr (run->err, "metrograph: 1 process was killed by SIGSYS, a system call "
                                      "refused by a seccomp filter: if it is not killed so "
                                      "without Metrograph, the filter refused a call of the "
                                      "sampler's"));
}

/* A program that closes every descriptor it did not open (close_range:
 * daemons and sandboxes do) closes the node leader's lock too, and with
 * it the flock: its child, which loads its plugins 0.2 s later, won the
 * election as well, and the run had two leaders of one node (each
 * sampling the onePerNode metrics). */
static void
test_leader_closed_lock (Fixture *f, gconstpointer data)
{
  g_autofree char *child = g_strdup_printf ("system=%s sleep=0.3", f->workload);
  const char *argv[] = { f->workload, "close-fds", "sleep=0.1", child, NULL };
  g_autoptr (MgProfile) profile = NULL;
  guint leaders = 0;

  profile = processes_test_profile (f, argv, NULL);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), >=, 2);
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    leaders += mg_profile_get_process (profile, p)->node_leader;
  g_assert_cmpuint (leaders, ==, 1);
  g_assert_true (mg_profile_get_process (profile, 0)->node_leader);
}

/* The metrics of a program that closes every descriptor from 3 up and
 * then runs threads: the plugins open their files again (and the perf
 * counters of the new threads), each at the lowest free number of the
 * sampler's band, so a number the I/O plugin still held named another
 * file. It read that file without its keys and failed its 12 metrics
 * ("cannot read /proc/self/io (errno 22)", 4 rounds, in 3 runs of 3)
 * until a periodic check; it checks and reopens at once now. */
static void
test_closed_fds_metrics (Fixture *f, gconstpointer data)
{
  const char *argv[] = { f->workload, "close-fds", "threads=3:0.4", "work=0.2", NULL };
  g_autoptr (MgProfile) profile = NULL;
  const MgProcessSeries *written;
  int metric;

  profile = processes_test_profile (f, argv, NULL);
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      if (strstr (e->message, "/proc/self/io") != NULL)
        g_error ("%s: %s (%u times)", e->metric_id, e->message, e->count);
    }
  /* The work writes 4 KiB blocks: counted. */
  metric = mg_profile_find_metric (profile, "wchar_total");
  g_assert_cmpint (metric, >=, 0);
  written = mg_profile_get_process_series (profile, 0, (guint) metric);
  g_assert_cmpuint (written->n, >=, 10);
  g_assert_cmpfloat (written->means[written->n - 1], >=, 4096);
}

/* A program that puts a pipe of its own at the numbers of the perf
 * counters (dup2 closes them): a counter can only be read with read(2),
 * which took 14 KB of the 64000 bytes the program wrote there and read
 * back. Each read checks the counter's id first; the counters are opened
 * again and count on. */
static void
test_pipe_over_perf (Fixture *f, gconstpointer data)
{
  const char *argv[] = { f->workload, "cpu=0.2", "pipe-over-perf", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = processes_test_profile (f, argv, &run);
  const MgProcessSeries *clock;
  int counters = -1, metric;
  long got = -1, written = -1;
  const char *line = strstr (run->out, "perf counters ");
  guint after = 0;

  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "perf counters %d, read back %ld of %ld", &counters, &got,
                           &written),
                   ==, 3);
  if (counters == 0)
    {
      g_test_skip ("no perf counter could be opened here");
      return;
    }
  g_assert_cmpint (written, ==, 64000);
  g_assert_cmpint (got, ==, written);
  /* The last 0.3 s of the 0.5 s of work are counted by new counters. */
  metric = mg_profile_find_metric (profile, "org.metrograph.perf.task_clock");
  g_assert_cmpint (metric, >=, 0);
  clock = mg_profile_get_process_series (profile, 0, (guint) metric);
  for (guint w = clock->n / 2; w < clock->n; w++)
    if (!isnan (clock->means[w]) && clock->means[w] > 50)
      after++;
  g_assert_cmpuint (after, >=, 3);
}

/* Whether `unshare -U -r` works here (not in a root that has no user
 * namespaces to give: scripts/fresh-check's). */
static gboolean
user_namespace_works (const char *unshare)
{
  const char *probe[] = { unshare, "-U", "-r", "true", NULL };
  int status = -1;

  return g_spawn_sync (NULL, (char **) probe, NULL,
                       G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL,
                       NULL, &status, NULL)
         && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* Copies @from into @root at the same path, its folders made. */
static gboolean
copy_into_root (const char *root, const char *from)
{
  g_autofree char *to = g_build_filename (root, from, NULL);
  g_autofree char *folder = g_path_get_dirname (to);
  g_autofree char *bytes = NULL;
  gsize len = 0;

  if (!g_file_get_contents (from, &bytes, &len, NULL))
    return FALSE;
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (to, bytes, (gssize) len, NULL));
  g_assert_cmpint (g_chmod (to, 0755), ==, 0);
  return TRUE;
}

/* A program that chroots into a root without Metrograph's folder, then
 * runs a dynamic program there (its loader and libc copied in): ld.so
 * found LD_PRELOAD naming a file it could not open and printed "ERROR:
 * ld.so: object … from LD_PRELOAD cannot be preloaded … ignored." on the
 * program's stderr. The exec now passes LD_PRELOAD without the sampler:
 * the program runs as unprofiled, its stderr its own. */
static void
test_chroot_exec (Fixture *f, gconstpointer data)
{
  g_autofree char *unshare = g_find_program_in_path ("unshare");
  g_autofree char *root = g_build_filename (f->dir, "small-root", NULL);
  g_autofree char *chroot_arg = g_strconcat ("chroot=", root, NULL);
  const char *argv[] = { unshare != NULL ? unshare : "unshare", "-U", "-r", f->workload,
                         "cpu=0.1", chroot_arg, "status=/bin/false", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (MgProfile) profile = NULL;

  if (unshare == NULL || !user_namespace_works (unshare))
    {
      g_test_skip ("unshare -U -r (util-linux) does not work here");
      return;
    }
  if (!copy_into_root (root, "/bin/false") || !copy_into_root (root, "/lib64/ld-linux-x86-64.so.2")
      || !copy_into_root (root, "/lib/x86_64-linux-gnu/libc.so.6"))
    {
      g_test_skip ("not an x86-64 Debian layout (/lib64/ld-linux-x86-64.so.2, "
                   "/lib/x86_64-linux-gnu/libc.so.6)");
      return;
    }
  profile = processes_test_profile (f, argv, &run);
  if (strstr (run->out, "chroot: ok\n") == NULL)
    {
      g_test_skip ("this machine does not let a user chroot in a user namespace");
      return;
    }
  /* It ran there: false's status, not the 127 of a failed exec. */
  g_assert_nonnull (strstr (run->out, "status 1\n"));
  g_assert_null (strstr (run->err, "cannot be preloaded"));
  g_assert_null (strstr (run->err, "ld.so"));
}

/* A program that chroots into a root without /proc, then starts threads:
 * the sampler's thread shares the process's root, so /proc/self/task was
 * gone for it and the new threads got no timer (no stack sample of them
 * in 4 runs of 4); it lists them in the folder it keeps open for the
 * thread count. Their stacks are the leaf only ([unknown] above it): the
 * new stacks' mappings cannot be read there. */
static void
test_chroot_threads (Fixture *f, gconstpointer data)
{
  g_autofree char *unshare = g_find_program_in_path ("unshare");
  g_autofree char *root = g_build_filename (f->dir, "empty-root", NULL);
  g_autofree char *chroot_arg = g_strconcat ("chroot=", root, NULL);
  const char *argv[] = { unshare != NULL ? unshare : "unshare", "-U", "-r", f->workload,
                         "cpu=0.1", chroot_arg, "threads=2:0.5", NULL };
  const char *export_args[] = { "--export", "out.folded", "out.mgprof", NULL };
  g_autofree char *folded_path = g_build_filename (f->dir, "out.folded", NULL);
  g_autofree char *folded = NULL;
  g_autoptr (CliTestRun) run = NULL, exported = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_auto (GStrv) lines = NULL;
  guint64 in_threads = 0;

  if (unshare == NULL || !user_namespace_works (unshare))
    {
      g_test_skip ("unshare -U -r (util-linux) does not work here");
      return;
    }
  g_assert_cmpint (g_mkdir (root, 0700), ==, 0);
  profile = processes_test_profile (f, argv, &run);
  if (strstr (run->out, "chroot: ok\n") == NULL)
    {
      g_test_skip ("this machine does not let a user chroot in a user namespace");
      return;
    }
  exported = cli_test_run (f->dir, export_args);
  g_assert_cmpint (exported->status, ==, 0);
  g_assert_true (g_file_get_contents (folded_path, &folded, NULL, NULL));
  lines = g_strsplit (folded, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "busy_thread") != NULL)
      in_threads += g_ascii_strtoull (strrchr (lines[i], ' ') + 1, NULL, 10);
  /* 2 x 0.5 s of CPU at 10 ms, on a loaded machine: well above 5. */
  g_assert_cmpuint (in_threads, >=, 5);
}

/* A program built with AddressSanitizer, whose runtime ends it at once
 * when a preloaded library comes before it ("ASan runtime does not come
 * first in initial library list"), runs as it does unprofiled: started
 * directly and by a shell, with no ASAN_OPTIONS of the user's; and the
 * user's options still hold (exitcode=42 for the error it reports). */
static void
test_asan_program (Fixture *f, gconstpointer data)
{
  const char *flags[] = { "-O0", "-fsanitize=address", NULL };
  g_autofree char *binary = cli_test_build_fixture (CLI_TEST_CC, f->dir, "mg-asan-program.c",
                                                    "asan-program", flags, NULL, NULL);
  g_autofree char *saved = g_strdup (g_getenv ("ASAN_OPTIONS"));
  g_autofree char *twice = NULL;
  g_autoptr (CliTestRun) run = NULL, by_shell = NULL, overflow = NULL;
  g_autoptr (MgProfile) profile = NULL, by_shell_profile = NULL;

  if (binary == NULL)
    return;
  /* As a user who never heard of ASAN_OPTIONS runs it. */
  g_unsetenv ("ASAN_OPTIONS");
  const char *direct[] = { binary, NULL };
  profile = processes_test_profile (f, direct, &run);
  g_assert_cmpstr (run->out, ==, "asan program: ok\n");
  g_assert_null (strstr (run->err, "ASan runtime"));
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), >=, 5);

  twice = g_strdup_printf ("'%s' && '%s'", binary, binary);
  const char *shell[] = { "sh", "-c", twice, NULL };
  by_shell_profile = processes_test_profile (f, shell, &by_shell);
  g_assert_cmpstr (by_shell->out, ==, "asan program: ok\nasan program: ok\n");
  g_assert_null (strstr (by_shell->err, "ASan runtime"));
  g_assert_cmpuint (mg_profile_get_n_processes (by_shell_profile), ==, 3);

  /* The user's options are kept: the report, then exit status 42. */
  const char *args[] = { "--profile", "-o", "overflow.mgprof", binary, "overflow", NULL };
  const char *env[] = { "ASAN_OPTIONS=exitcode=42", NULL };
  overflow = cli_test_run_with_env (f->dir, args, env);
  g_assert_cmpint (overflow->status, ==, 42);
  g_assert_nonnull (strstr (overflow->err, "ERROR: AddressSanitizer: heap-buffer-overflow"));
  g_assert_nonnull (strstr (overflow->err, "metrograph: profile written to "));
  g_assert_cmpstr (overflow->out, ==, "");
  if (saved != NULL)
    g_setenv ("ASAN_OPTIONS", saved, TRUE);
}

/* A program built with ThreadSanitizer forks children that end as they
 * do unprofiled. Its runtime ends a fork child of a process with more
 * than one thread when the child starts one: the sampler's thread makes
 * every process so and starts its own in every fork child, so each child
 * printed "ThreadSanitizer: starting new threads after multi-threaded
 * fork is not supported. Dying" and ended with status 66. TSAN_OPTIONS
 * gets die_after_fork=0 before the user's options: one of the user's own
 * still holds. */
static void
test_tsan_fork (Fixture *f, gconstpointer data)
{
  const char *flags[] = { "-O1", "-pthread", "-fsanitize=thread", NULL };
  const char *no_args[] = { NULL };
  g_autofree char *unprofiled = NULL;
  g_autofree char *binary = cli_test_build_fixture (CLI_TEST_CC, f->dir, "mg-tsan-fork.c",
                                                    "tsan-fork", flags, no_args, &unprofiled);
  g_autoptr (CliTestRun) run = NULL, strict = NULL;

  if (binary == NULL)
    return;
  /* Unprofiled, as the user sees it: every child ends as it meant to. */
  g_assert_cmpstr (unprofiled, ==, "tsan fork: 4 5 6\n");
  const char *args[] = { "--profile", "--interval=5", "-o", "tsan.mgprof", binary, NULL };
  const char *no_options[] = { "TSAN_OPTIONS=", NULL };
  run = cli_test_run_with_env (f->dir, args, no_options);
  if (run->status != 0)
    g_error ("metrograph exited with %d; stderr:\n%s", run->status, run->err);
  g_assert_cmpstr (run->out, ==, "tsan fork: 4 5 6\n");
  g_assert_null (strstr (run->err, "ThreadSanitizer"));
  /* The children computed, one after the other, most of the run: they
   * are its work, not helpers (docs/profile-format.md, rule 2). */
  if (strstr (run->err, "4 processes (tsan-fork) on 1 node") == NULL)
    g_error ("unexpected summary:\n%s", run->err);

  /* The user's own choice: their children die, as they asked. */
  const char *die[] = { "TSAN_OPTIONS=die_after_fork=1", NULL };
  strict = cli_test_run_with_env (f->dir, args, die);
  g_assert_cmpint (strict->status, ==, 0);
  g_assert_cmpstr (strict->out, ==, "tsan fork: 66 66 66\n");
  g_assert_nonnull (strstr (strict->err, "multi-threaded fork is not supported"));
}

/* A program built by clang with -fsanitize=memory runs as it does
 * unprofiled. MemorySanitizer checks the memory handed to the C library,
 * and what the sampler's code (not built with it) writes stays
 * uninitialised to it: the program ended at once ("use-of-uninitialized-
 * value in mg_plan_skips", status 1). The sampler leaves it unprofiled. */
static void
test_msan_program (Fixture *f, gconstpointer data)
{
  const char *flags[] = { "-O1", "-fsanitize=memory", NULL };
  const char *no_args[] = { NULL };
  g_autofree char *out = NULL;
  g_autofree char *binary = cli_test_build_fixture ("clang", f->dir, "mg-asan-program.c",
                                                    "msan-program", flags, no_args, &out);

  if (binary == NULL)
    return;
  g_assert_cmpstr (out, ==, "asan program: ok\n");

  const char *args[] = { "--profile", "-o", "msan.mgprof", binary, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  g_assert_cmpstr (run->out, ==, "asan program: ok\n");
  g_assert_null (strstr (run->err, "WARNING: MemorySanitizer"));
  g_assert_null (strstr (run->err, "use-of-uninitialized-value"));
  /* Unprofiled: no samples, and the front end says why, first as it
   * starts it (status 5). */
  g_assert_cmpint (run->status, ==, 5);
  g_assert_nonnull (strstr (run->err, "msan-program will not be sampled: the program is built "
                                      "with MemorySanitizer (-fsanitize=memory)"));
  g_assert_nonnull (strstr (run->err, "no samples were recorded, so no profile was written: the "
                                      "program is built with MemorySanitizer"));
}

#define add(path, fn) g_test_add (path, Fixture, NULL, cli_test_folder_setup, fn, cli_test_folder_teardown)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add ("/cli/processes/exec-env", test_exec_env);
  add ("/cli/processes/exec-shell", test_exec_shell);
  add ("/cli/processes/exec-verbose-counts", test_exec_verbose_counts);
  add ("/cli/processes/helper-wrapper", test_helper_wrapper);
  add ("/cli/processes/helper-busy", test_helper_busy);
  add ("/cli/processes/helper-shim", test_helper_shim);
  add ("/cli/processes/helper-make", test_helper_make);
  add ("/cli/processes/helper-mpi", test_helper_mpi);
  add ("/cli/processes/first-failure", test_first_failure);
  add ("/cli/processes/unshare-user", test_unshare_user);
  g_test_add ("/cli/processes/seccomp-kill-own-thread", Fixture, "timer_create",
              cli_test_folder_setup, test_seccomp_kill, cli_test_folder_teardown);
  g_test_add ("/cli/processes/seccomp-kill-tsync", Fixture, "openat,tsync",
              cli_test_folder_setup, test_seccomp_kill, cli_test_folder_teardown);
  add ("/cli/processes/seccomp-sigsys", test_seccomp_sigsys);
  add ("/cli/processes/leader-closed-lock", test_leader_closed_lock);
  add ("/cli/processes/closed-fds-metrics", test_closed_fds_metrics);
  add ("/cli/processes/chroot-threads", test_chroot_threads);
  add ("/cli/processes/chroot-exec", test_chroot_exec);
  add ("/cli/processes/pipe-over-perf", test_pipe_over_perf);
  add ("/cli/processes/asan-program", test_asan_program);
  add ("/cli/processes/tsan-fork", test_tsan_fork);
  add ("/cli/processes/msan-program", test_msan_program);
  return g_test_run ();
}
