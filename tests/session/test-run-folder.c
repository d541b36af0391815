/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Run folders name their front end (mg-run-folder.h): a live one is left
 * alone, one whose front end has ended (or whose process id now belongs to
 * a later process) is removed by the sweep with a note on stderr, a kept
 * one is never swept. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session/mg-run-folder.h"

typedef struct {
  char *parent;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->parent = g_dir_make_tmp ("mg-run-folder-test-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("METROGRAPH_TMPDIR", f->parent, TRUE);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_unsetenv ("METROGRAPH_TMPDIR");
  mg_run_folder_remove (f->parent);
  g_assert_false (g_file_test (f->parent, G_FILE_TEST_EXISTS));
  g_free (f->parent);
}

static void
write_owner (const char *folder, int pid, guint64 start_time)
{
  g_autofree char *path = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *text = g_strdup_printf ("pid %d\nstart %" G_GUINT64_FORMAT "\n", pid,
                                           start_time);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* A process that has ended and been reaped: its id names nobody (for a
 * while). */
static int
ended_process (void)
{
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  return pid;
}

static void
test_owner (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = mg_run_folder_create (&error);
  g_autofree char *parent = NULL;
  int pid = 0;
  guint64 start_time = 0;

  g_assert_no_error (error);
  parent = g_path_get_dirname (folder);
  g_assert_cmpstr (parent, ==, f->parent);
  g_assert_true (g_str_has_prefix (folder + strlen (parent), "/metrograph-"));
  g_assert_true (mg_run_folder_read_owner (folder, &pid, &start_time));
  g_assert_cmpint (pid, ==, getpid ());
  g_assert_cmpuint (start_time, >, 0);
  g_assert_true (mg_run_folder_is_live (folder));

  /* The same process id with another start time: a later process. */
  write_owner (folder, getpid (), start_time + 1);
  g_assert_false (mg_run_folder_is_live (folder));
  write_owner (folder, ended_process (), start_time);
  g_assert_false (mg_run_folder_is_live (folder));

  mg_run_folder_keep (folder);
  g_assert_false (mg_run_folder_read_owner (folder, &pid, &start_time));
  g_assert_false (mg_run_folder_is_live (folder));
}

/* The sweep, in a child so that its stderr can be read (the child has a
 * fixture of its own). */
static void
test_sweep (Fixture *f, gconstpointer data)
{
  g_autofree char *live = NULL, *dead = NULL, *reused = NULL, *kept = NULL;
  g_autofree char *other = g_build_filename (f->parent, "not-a-run", NULL);
  g_autofree char *records = NULL, *record = NULL;
  int pid;
  guint64 start_time;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDOUT);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stderr ("metrograph: removed */metrograph-??????, left by metrograph "
                                 "process *, which ended without removing it\n"
                                 "metrograph: removed */metrograph-??????, left by metrograph "
                                 "process *, which ended without removing it\n");
      return;
    }
  live = mg_run_folder_create (NULL);
  dead = mg_run_folder_create (NULL);
  reused = mg_run_folder_create (NULL);
  kept = mg_run_folder_create (NULL);
  g_assert_true (mg_run_folder_read_owner (live, &pid, &start_time));
  write_owner (dead, ended_process (), start_time);
  write_owner (reused, getpid (), start_time + 1);
  mg_run_folder_keep (kept);
  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  /* A run's contents go with it. */
  records = g_build_filename (dead, "records", NULL);
  record = g_build_filename (records, "1.mgrec", NULL);
  g_assert_cmpint (g_mkdir (records, 0700), ==, 0);
  g_assert_true (g_file_set_contents (record, "x", 1, NULL));

  g_assert_cmpuint (mg_run_folder_sweep (), ==, 2);
  g_assert_false (g_file_test (dead, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (reused, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (live, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_DIR));
  /* Nothing more to sweep. */
  g_assert_cmpuint (mg_run_folder_sweep (), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/session/run-folder/owner", Fixture, NULL, fixture_setup, test_owner,
              fixture_teardown);
  g_test_add ("/session/run-folder/sweep", Fixture, NULL, fixture_setup, test_sweep,
              fixture_teardown);
  return g_test_run ();
}
