/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Run folders name their front end (mg-run-folder.h): a live one is left
 * alone, one whose front end has ended (or whose process id now belongs to
 * a later process) is removed by the sweep with a note on stderr, a kept
 * one is never swept. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/mg-record-format.h"
#include "record-fixture.h"
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

static char *
this_boot (void)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents ("/proc/sys/kernel/random/boot_id", &text, NULL, NULL));
  return g_strdup (g_strstrip (text));
}

static guint64
this_pid_namespace (void)
{
  GStatBuf st;

  g_assert_cmpint (g_stat ("/proc/self/ns/pid", &st), ==, 0);
  return st.st_ino;
}

/* An owner file naming @pid and @start_time in this boot, in PID namespace
 * @pidns (0: ours), that says whether its owner holds a lock (nobody holds
 * it: the file is new). */
static void
write_owner_in (const char *folder, int pid, guint64 start_time, const char *boot,
                guint64 pidns, gboolean lock)
{
  g_autofree char *path = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *ours = this_boot ();
  g_autofree char *text = g_strdup_printf (MG_RUN_FOLDER_OWNER_FORMAT, pid,
                                           (unsigned long long) start_time,
                                           boot != NULL ? boot : ours,
                                           (unsigned long long) (pidns != 0 ? pidns
                                                                 : this_pid_namespace ()),
                                           "elsewhere", lock ? 1 : 0);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
write_owner (const char *folder, int pid, guint64 start_time)
{
  write_owner_in (folder, pid, start_time, NULL, 0, FALSE);
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
  {
    g_autofree char *owner = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
    g_autofree char *text = NULL, *boot = this_boot ();
    g_autofree char *expected = g_strdup_printf ("boot %s\npidns %" G_GUINT64_FORMAT "\n", boot,
                                                 this_pid_namespace ());

    g_assert_true (g_file_get_contents (owner, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, expected));
    g_assert_nonnull (strstr (text, "\nlock 1\n"));
  }

  /* Without a lock, in our namespace, the pid and its start say: the same
   * process id with another start time is a later process (a recycled
   * pid). */
  write_owner (folder, getpid (), start_time);
  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_LIVE);
  write_owner (folder, getpid (), start_time + 1);
  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_DEAD);
  write_owner (folder, ended_process (), start_time);
  g_assert_false (mg_run_folder_is_live (folder));
  /* With a lock, the lock says, whatever the pid: a free lock is an ended
   * owner even when its pid (recycled) names a live process. */
  write_owner_in (folder, getpid (), start_time, NULL, 0, TRUE);
  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_DEAD);

  mg_run_folder_keep (folder);
  g_assert_false (mg_run_folder_read_owner (folder, &pid, &start_time));
  g_assert_false (mg_run_folder_is_live (folder));
  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_NONE);
}

/* An owner that cannot be asked is never taken for dead, and the reason
 * is said: another boot or machine, another PID namespace without a lock,
 * an owner file of an older Metrograph. */
static void
test_owner_unknown (Fixture *f, gconstpointer data)
{
  g_autofree char *folder = mg_run_folder_create (NULL);
  g_autofree char *why = NULL;
  g_autofree char *old_owner = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);

  write_owner_in (folder, ended_process (), 1, "0f0f0f0f-other-boot", 0, TRUE);
  g_assert_cmpint (mg_run_folder_owner_state (folder, &why), ==, MG_RUN_FOLDER_OWNER_UNKNOWN);
  g_assert_nonnull (strstr (why, "on host “elsewhere”"));
  g_assert_nonnull (strstr (why, "another machine or an earlier boot (boot id 0f0f0f0f-other-boot)"));
  g_clear_pointer (&why, g_free);

  write_owner_in (folder, ended_process (), 1, NULL, this_pid_namespace () + 1, FALSE);
  g_assert_cmpint (mg_run_folder_owner_state (folder, &why), ==, MG_RUN_FOLDER_OWNER_UNKNOWN);
  g_assert_nonnull (strstr (why, "another PID namespace"));
  g_clear_pointer (&why, g_free);

  g_assert_true (g_file_set_contents (old_owner, "pid 999999\nstart 1\n", -1, NULL));
  g_assert_cmpint (mg_run_folder_owner_state (folder, &why), ==, MG_RUN_FOLDER_OWNER_UNKNOWN);
  g_assert_nonnull (strstr (why, "older Metrograph"));
  g_assert_cmpint (mg_run_folder_sweep (), ==, 0);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
  mg_run_folder_remove (folder);
}

/* --hold-run-folder: makes a run folder (in METROGRAPH_TMPDIR), prints its
 * path, and ends without removing it when its stdin closes, as a front end
 * killed would. */
static int
hold_run_folder (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = mg_run_folder_create (&error);
  char c;

  if (folder == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  printf ("%s\n", folder);
  fflush (stdout);
  while (read (STDIN_FILENO, &c, 1) > 0)
    ;
  _exit (0);
}

/* A front end started through @prefix (unshare ...) that holds a run
 * folder of the fixture's parent: while it runs, its folder is live and
 * the sweep leaves it; once it ended, the sweep removes it. Skipped when
 * the namespace cannot be made here (no privilege, a chroot). */
static void
check_held_elsewhere (Fixture *f, const char *const *prefix, const char *host,
                      gboolean other_pid_namespace)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree char *owner = NULL, *text = NULL, *folder = NULL;
  g_autofree char *ns = g_strdup_printf ("\npidns %" G_GUINT64_FORMAT "\n", this_pid_namespace ());
  GPid pid;
  int in, out, status;
  char c;

  for (guint i = 0; prefix[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) prefix[i]);
  g_ptr_array_add (argv, self);
  g_ptr_array_add (argv, (char *) "--hold-run-folder");
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_async_with_pipes (NULL, (char **) argv->pdata, NULL,
                                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH
                                 | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &in, &out,
                                 NULL, &error))
    {
      g_test_skip_printf ("%s cannot run here: %s", prefix[0], error->message);
      return;
    }
  while (read (out, &c, 1) == 1 && c != '\n')
    g_string_append_c (line, c);
  if (line->len == 0)
    {
      close (in);
      close (out);
      waitpid (pid, &status, 0);
      g_autofree char *command = g_strjoinv (" ", (char **) prefix);

      g_test_skip_printf ("“%s” is not available here (status %d): no namespace of that kind "
                          "can be made (a chroot, no privilege)", command, status);
      return;
    }
  folder = g_strdup (line->str);
  owner = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  g_assert_true (g_file_get_contents (owner, &text, NULL, NULL));
  g_test_message ("owner of %s:\n%s", folder, text);
  if (host != NULL)
    {
      g_autofree char *host_line = g_strdup_printf ("\nhost %s\n", host);

      g_assert_nonnull (strstr (text, host_line));
    }
  g_assert_true ((strstr (text, ns) == NULL) == other_pid_namespace);

  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_LIVE);
  g_assert_cmpuint (mg_run_folder_sweep (), ==, 0);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));

  close (in);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close (out);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpint (mg_run_folder_owner_state (folder, NULL), ==, MG_RUN_FOLDER_OWNER_DEAD);
  g_assert_cmpuint (mg_run_folder_sweep (), ==, 1);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
}

/* A front end in another PID namespace (a container sharing the temporary
 * folder): its pid means nothing here (it is 1 there), but its lock says
 * that it runs, then that it ended. */
static void
test_other_pid_namespace (Fixture *f, gconstpointer data)
{
  /* Without root, in a user namespace of its own. */
  const char *as_root[] = { "unshare", "-p", "-f", NULL };
  const char *as_user[] = { "unshare", "-U", "-r", "-p", "-f", NULL };

  check_held_elsewhere (f, geteuid () == 0 ? as_root : as_user, NULL, TRUE);
}

/* A front end under another host name (a UTS namespace: another "host"
 * sharing the folder on this kernel). */
static void
test_other_host_name (Fixture *f, gconstpointer data)
{
  const char *as_root[] = { "unshare", "-u", "sh", "-c",
                            "hostname mg-other-host && exec \"$0\" \"$1\"", NULL };
  const char *as_user[] = { "unshare", "-U", "-r", "-u", "sh", "-c",
                            "hostname mg-other-host && exec \"$0\" \"$1\"", NULL };

  check_held_elsewhere (f, geteuid () == 0 ? as_root : as_user, "mg-other-host", FALSE);
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

/* The first name g_dir_read_name gives in @folder: the first file a
 * removal deletes there. */
static char *
first_entry (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);

  g_assert_nonnull (dir);
  return g_build_filename (folder, g_dir_read_name (dir), NULL);
}

/* A front end that removes its run folder of @n_records records with
 * samples, SIGKILLed as soon as the removal is under way (the folder is
 * gone from its name, or the first record is). FALSE when the removal
 * ended before the kill. */
static gboolean
kill_during_removal (guint n_records)
{
  int to_child[2], from_child[2];
  char folder[4096] = "", go = 'g';
  g_autofree char *records = NULL, *first = NULL, *owner = NULL;
  pid_t pid;
  int status;
  ssize_t n;

  g_assert_cmpint (pipe (to_child), ==, 0);
  g_assert_cmpint (pipe (from_child), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      g_autofree char *path = mg_run_folder_create (NULL);
      g_autofree char *dir = g_build_filename (path, MG_RUN_FOLDER_RECORDS, NULL);
      g_autofree char *record = g_build_filename (dir, "host.1.1" MG_RECORD_SUFFIX, NULL);
      /* Freed before the child's _exit, which would leave its folder. */
      RecordFixture *fixture = record_fixture_new (0, 0, 16);

      record_fixture_add_sample (fixture, 0, 20000000, NULL);
      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      record_fixture_write (fixture, record);
      record_fixture_free (fixture);
      for (guint i = 1; i < n_records; i++)
        {
          g_autofree char *name = g_strdup_printf ("host.1.%u" MG_RECORD_SUFFIX, i + 1);
          g_autofree char *link_path = g_build_filename (dir, name, NULL);

          g_assert_cmpint (link (record, link_path), ==, 0);
        }
      g_assert_cmpint (write (from_child[1], path, strlen (path) + 1), >, 0);
      g_assert_cmpint (read (to_child[0], &go, 1), ==, 1);
      mg_run_folder_remove (path);
      _exit (0);
    }
  n = read (from_child[0], folder, sizeof folder - 1);
  g_assert_cmpint (n, >, 0);
  records = g_build_filename (folder, MG_RUN_FOLDER_RECORDS, NULL);
  owner = g_build_filename (folder, MG_RUN_FOLDER_OWNER, NULL);
  first = first_entry (records);
  g_assert_cmpint (write (to_child[1], &go, 1), ==, 1);
  while (g_file_test (folder, G_FILE_TEST_EXISTS) && g_file_test (first, G_FILE_TEST_EXISTS)
         && g_file_test (owner, G_FILE_TEST_EXISTS))
    ;
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  close (to_child[0]);
  close (to_child[1]);
  close (from_child[0]);
  close (from_child[1]);
  return WIFSIGNALED (status);
}

/* mg_run_folder_sweep (), with what it wrote on stderr in *@said. */
static guint
sweep_saying (char **said)
{
  g_autofree char *path = NULL;
  int saved = dup (STDERR_FILENO);
  int fd = g_file_open_tmp ("mg-sweep-stderr-XXXXXX", &path, NULL);
  guint n;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (dup2 (fd, STDERR_FILENO), ==, STDERR_FILENO);
  n = mg_run_folder_sweep ();
  g_assert_cmpint (dup2 (saved, STDERR_FILENO), ==, STDERR_FILENO);
  close (saved);
  close (fd);
  g_assert_true (g_file_get_contents (path, said, NULL, NULL));
  g_unlink (path);
  return n;
}

/* A front end killed while it removes its run folder, after the profile
 * was written: the half-removed folder is not a run whose profile is
 * missing (a recovery would write a second, partial one); the next sweep
 * finishes it, with a line that says so. */
static void
test_removal_cut_short (Fixture *f, gconstpointer data)
{
  g_auto (GStrv) recoverable = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autofree char *said = NULL;
  gboolean cut = FALSE;

  for (guint n = 2000; n <= 32000 && !cut; n *= 2)
    cut = kill_during_removal (n);
  if (!cut)
    {
      g_test_skip ("the removal always ended before the kill");
      return;
    }
  recoverable = mg_run_folder_find_recoverable ();
  g_assert_cmpstrv (recoverable, ((const char *const[]) { NULL }));
  g_assert_cmpuint (sweep_saying (&said), ==, 1);
  g_assert_true (g_pattern_match_simple ("metrograph: removed */metrograph-??????.removing, a run "
                                         "folder whose removal was cut short after its profile "
                                         "was written\n", said));
  dir = g_dir_open (f->parent, 0, NULL);
  g_assert_nonnull (dir);
  g_assert_null (g_dir_read_name (dir));
  g_assert_cmpuint (mg_run_folder_sweep (), ==, 0);
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "--hold-run-folder") == 0)
    return hold_run_folder ();
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/session/run-folder/owner", Fixture, NULL, fixture_setup, test_owner,
              fixture_teardown);
  g_test_add ("/session/run-folder/sweep", Fixture, NULL, fixture_setup, test_sweep,
              fixture_teardown);
  g_test_add ("/session/run-folder/removal-cut-short", Fixture, NULL, fixture_setup,
              test_removal_cut_short, fixture_teardown);
  g_test_add ("/session/run-folder/owner-unknown", Fixture, NULL, fixture_setup,
              test_owner_unknown, fixture_teardown);
  g_test_add ("/session/run-folder/other-pid-namespace", Fixture, NULL, fixture_setup,
              test_other_pid_namespace, fixture_teardown);
  g_test_add ("/session/run-folder/other-host-name", Fixture, NULL, fixture_setup,
              test_other_host_name, fixture_teardown);
  return g_test_run ();
}
