/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>

void
cli_test_run_free (CliTestRun *run)
{
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

char *
cli_test_build_path (const char *relative)
{
  const char *root = g_getenv ("MG_BUILD_ROOT");

  g_assert_nonnull (root);
  return g_build_filename (root, relative, NULL);
}

char *
cli_test_tmpdir_new (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("mg-test-cli-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
cli_test_tmpdir_remove (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        cli_test_tmpdir_remove (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

GStrv
cli_test_environ (const char *home)
{
  g_auto (GStrv) env = g_get_environ ();
  g_autofree char *allinea = g_build_filename (home, "allinea", NULL);
  g_autofree char *xdg = g_build_filename (home, "xdg", NULL);

  env = g_environ_setenv (env, "ALLINEA_CONFIG_DIR", allinea, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", xdg, TRUE);
  env = g_environ_unsetenv (env, "METROGRAPH_METRICS_PATH");
  env = g_environ_unsetenv (env, "METROGRAPH_REPORTS_PATH");
  env = g_environ_unsetenv (env, "ALLINEA_PARTIAL_REPORT_SOURCE");
  env = g_environ_unsetenv (env, "METROGRAPH_KEEP_RUN_DIR");
  env = g_environ_unsetenv (env, "LD_PRELOAD");
  /* No run needs a display, and OpenMPI's hwloc connects to one in every
   * process it starts (its GL component): a virtual server that resets
   * between clients then breaks an MPI run ("X connection to :0 broken"). */
  env = g_environ_unsetenv (env, "DISPLAY");
  return g_steal_pointer (&env);
}

static GStrv
full_argv (const char *const *args)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *metrograph = cli_test_build_path ("app/cli/metrograph");

  g_strv_builder_add (builder, metrograph);
  g_strv_builder_addv (builder, (const char **) args);
  return g_strv_builder_end (builder);
}

static GStrv
add_env (GStrv env, const char *const *extra_env)
{
  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
    {
      g_auto (GStrv) pair = g_strsplit (extra_env[i], "=", 2);

      env = g_environ_setenv (env, pair[0], pair[1], TRUE);
    }
  return env;
}

static int
wait_status_to_exit (int wait_status)
{
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  if (WIFSIGNALED (wait_status))
    return 128 + WTERMSIG (wait_status);
  return -1;
}

CliTestRun *
cli_test_run (const char *cwd, const char *const *args)
{
  return cli_test_run_with_env (cwd, args, NULL);
}

CliTestRun *
cli_test_run_with_env (const char *cwd, const char *const *args, const char *const *extra_env)
{
  g_auto (GStrv) argv = full_argv (args);
  g_auto (GStrv) env = cli_test_environ (cwd);
  g_autoptr (GError) error = NULL;
  CliTestRun *run = g_new0 (CliTestRun, 1);
  gint64 start = g_get_monotonic_time ();
  int wait_status = 0;

  env = add_env (g_steal_pointer (&env), extra_env);

  g_spawn_sync (cwd, argv, env, G_SPAWN_STDIN_FROM_DEV_NULL, NULL, NULL, &run->out, &run->err,
                &wait_status, &error);
  g_assert_no_error (error);
  run->seconds = (g_get_monotonic_time () - start) / 1e6;
  run->status = wait_status_to_exit (wait_status);
  if (g_test_verbose ())
    g_printerr ("metrograph exit %d in %.1f s\nstdout:\n%s\nstderr:\n%s\n", run->status,
                run->seconds, run->out, run->err);
  return run;
}

GPid
cli_test_spawn (const char *cwd, const char *const *args, const char *const *extra_env)
{
  g_auto (GStrv) argv = full_argv (args);
  g_auto (GStrv) env = add_env (cli_test_environ (cwd), extra_env);
  g_autoptr (GError) error = NULL;
  GPid pid = 0;

  g_spawn_async (cwd, argv, env, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL
                 | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

int
cli_test_wait (GPid pid, double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  int wait_status;

  for (;;)
    {
      pid_t done = waitpid (pid, &wait_status, WNOHANG);

      if (done == pid)
        return wait_status_to_exit (wait_status);
      if (g_get_monotonic_time () > deadline)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &wait_status, 0);
          return -1;
        }
      g_usleep (50 * 1000);
    }
}

void
cli_test_folder_setup (CliTestFolder *f, gconstpointer data)
{
  f->dir = cli_test_tmpdir_new ();
  f->runs = g_build_filename (f->dir, "runs", NULL);
  g_assert_cmpint (g_mkdir (f->runs, 0700), ==, 0);
  g_setenv ("METROGRAPH_TMPDIR", f->runs, TRUE);
  f->examples = cli_test_build_path ("examples");
  f->workload = cli_test_build_path ("tests/cli/mg-cli-workload");
  g_assert_true (g_file_test (f->workload, G_FILE_TEST_IS_EXECUTABLE));
}

void
cli_test_folder_teardown (CliTestFolder *f, gconstpointer data)
{
  g_autoptr (GDir) runs = g_dir_open (f->runs, 0, NULL);
  const char *left = runs != NULL ? g_dir_read_name (runs) : NULL;

  g_unsetenv ("METROGRAPH_TMPDIR");
  if (left != NULL)
    g_error ("a run folder was left behind: %s/%s", f->runs, left);
  cli_test_tmpdir_remove (f->dir);
  g_free (f->runs);
  g_free (f->dir);
  g_free (f->examples);
  g_free (f->workload);
}

char *
cli_test_build_fixture (const char *compiler, const char *dir, const char *fixture,
                        const char *name, const char *const *flags, const char *const *run_args,
                        char **out)
{
  g_autofree char *path = g_find_program_in_path (compiler);
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures", "cli", fixture, NULL);
  g_autofree char *binary = g_build_filename (dir, name, NULL);
  g_autofree char *shown = g_strjoinv (" ", (char **) flags);
  g_autoptr (GPtrArray) cc = g_ptr_array_new ();
  g_autoptr (GPtrArray) run = g_ptr_array_new ();
  g_autofree char *err = NULL;
  int status = -1;

  if (path == NULL)
    {
      g_test_skip_printf ("no %s here to build %s with %s", compiler, fixture, shown);
      return NULL;
    }
  g_ptr_array_add (cc, path);
  for (guint i = 0; flags[i] != NULL; i++)
    g_ptr_array_add (cc, (char *) flags[i]);
  g_ptr_array_add (cc, "-o");
  g_ptr_array_add (cc, binary);
  g_ptr_array_add (cc, source);
  g_ptr_array_add (cc, NULL);
  if (!g_spawn_sync (dir, (char **) cc->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                     NULL, &err, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip_printf ("%s cannot build %s with %s: %s", compiler, fixture, shown, err);
      return NULL;
    }
  if (run_args == NULL)
    return g_steal_pointer (&binary);
  g_clear_pointer (&err, g_free);
  g_ptr_array_add (run, binary);
  for (guint i = 0; run_args[i] != NULL; i++)
    g_ptr_array_add (run, (char *) run_args[i]);
  g_ptr_array_add (run, NULL);
  if (!g_spawn_sync (dir, (char **) run->pdata, NULL, out != NULL ? 0 : G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, out, &err, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip_printf ("%s built with %s does not run here: %s", fixture, shown, err);
      if (out != NULL)
        g_clear_pointer (out, g_free);
      return NULL;
    }
  return g_steal_pointer (&binary);
}
