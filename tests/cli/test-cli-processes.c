/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the profile calls a process, end to end: an exec keeps its process
 * and its images (docs/profile-format.md, "A process is a process"). */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "cli-harness.h"
#include "profile/mg-process-images.h"
#include "profile/mg-profile.h"

/* A folder of its own (runs/ for the run folders) and the workload. */
typedef struct {
  char *dir;
  char *runs;
  char *workload;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = cli_test_tmpdir_new ();
  f->runs = g_build_filename (f->dir, "runs", NULL);
  g_assert_cmpint (g_mkdir (f->runs, 0700), ==, 0);
  g_setenv ("METROGRAPH_TMPDIR", f->runs, TRUE);
  f->workload = cli_test_build_path ("tests/cli/mg-cli-workload");
  g_assert_true (g_file_test (f->workload, G_FILE_TEST_IS_EXECUTABLE));
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_unsetenv ("METROGRAPH_TMPDIR");
  cli_test_tmpdir_remove (f->dir);
  g_free (f->runs);
  g_free (f->dir);
  g_free (f->workload);
}

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

/* `sh -c 'exec workload'`: one process, sh then the workload, which ran
 * for its whole time (the samples of both images, in one series). */
static void
test_exec_shell (Fixture *f, gconstpointer data)
{
  g_autofree char *script = g_strdup_printf ("exec %s work=0.3", f->workload);
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr (MgProfile) profile = processes_test_profile (f, argv, NULL);
  g_autofree char *images = NULL;
  const MgProcessInfo *info;
  guint n_execs = 0;

  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  images = processes_test_images (profile, 0);
  g_assert_true (g_str_has_suffix (images, " mg-cli-workload"));
  /* Two images: the shell (dash, bash: whatever /bin/sh is) and the workload. */
  g_assert_cmpuint (g_strv_length (g_strsplit (images, " ", -1)), ==, 2);
  info = mg_profile_get_process (profile, 0);
  g_assert_cmpfloat (info->end_s - info->start_s, >=, 0.3);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    n_execs += mg_profile_get_event (profile, i)->kind == MG_EVENT_EXEC;
  g_assert_cmpuint (n_execs, ==, 1);
}

#define add(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add ("/cli/processes/exec-env", test_exec_env);
  add ("/cli/processes/exec-shell", test_exec_shell);
  return g_test_run ();
}
