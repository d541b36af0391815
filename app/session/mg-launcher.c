/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The child runs in its own process group so that --stop-after and forwarded
 * signals reach everything it started, and not us or whoever started us. When
 * we own the terminal, the child's group gets it for the run (as a shell
 * does), so Ctrl-C and terminal input go straight to the program. The parent
 * waits on a signalfd and the program's pidfd: terminating signals sent to us
 * are forwarded, the pidfd (or SIGCHLD) ends the wait, a timeout implements
 * --stop-after. */
/* posix_spawn_file_actions_addchdir_np */
#define _GNU_SOURCE
#include "mg-config.h"

#include "mg-launcher.h"

#include "format/mg-mpi-handoff.h"
#include "format/mg-node-id.h"
#include "mg-install-paths.h"
#include "mg-mpi.h"
#include "mg-record-finish.h"
#include "mg-run-folder.h"
#include "mg-stopper.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

struct _MgLauncher
{
  GObject parent_instance;

  GStrv argv;
  guint n_processes;
  char *sampler;
  GPtrArray *preloads;
  double stop_after_s;
  double grace_s;
  char *working_folder;     /* NULL: ours */
  GStrv environment;        /* the program's, before LD_PRELOAD; NULL: ours */

  char *run_id;
  char *run_dir;
  char *record_dir;
  char *plan_path;
  char *exec_path;          /* command[0] resolved */
  char *program_path;
  MgProgramKind program_kind;
  GStrv command;

  gint64 start_time_us;
  gint64 start_mono_us;
  gint64 end_mono_us;
  gboolean stopped;
  int killed_signal;        /* the signal that ended the program we started, 0 if none */
  gboolean keep_run_dir;
  gboolean run_dir_done;    /* removed, or kept for good */
};

G_DEFINE_TYPE (MgLauncher, mg_launcher, G_TYPE_OBJECT)

G_DEFINE_QUARK (mg-launcher-error-quark, mg_launcher_error)

static const int forwarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* Dispositions at the time signals were first blocked: an ignored signal
 * stays ignored in the child, as it would without us. */
static gboolean signal_was_ignored[NSIG];
static gsize signals_blocked;

static gboolean
keep_run_dir (void)
{
  const char *keep = g_getenv ("METROGRAPH_KEEP_RUN_DIR");

  return keep != NULL && *keep != '\0' && strcmp (keep, "0") != 0;
}

void
mg_launcher_remove_run_dir (MgLauncher *self)
{
  if (self->run_dir == NULL || self->run_dir_done)
    return;
  self->run_dir_done = TRUE;
  if (self->keep_run_dir || keep_run_dir ())
    {
      mg_run_folder_keep (self->run_dir);
      g_printerr (_("metrograph: kept the run folder %s\n"), self->run_dir);
    }
  else
    mg_run_folder_remove (self->run_dir);
}

static void
mg_launcher_finalize (GObject *object)
{
  MgLauncher *self = MG_LAUNCHER (object);

  mg_launcher_remove_run_dir (self);
  g_strfreev (self->argv);
  g_free (self->working_folder);
  g_strfreev (self->environment);
  g_free (self->sampler);
  g_ptr_array_unref (self->preloads);
  g_free (self->run_id);
  g_free (self->run_dir);
  g_free (self->record_dir);
  g_free (self->plan_path);
  g_free (self->program_path);
  g_free (self->exec_path);
  g_strfreev (self->command);

  G_OBJECT_CLASS (mg_launcher_parent_class)->finalize (object);
}

static void
mg_launcher_class_init (MgLauncherClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_launcher_finalize;
}

static void
mg_launcher_init (MgLauncher *self)
{
  self->preloads = g_ptr_array_new_with_free_func (g_free);
  self->grace_s = MG_STOPPER_GRACE_S;
  self->program_kind = MG_PROGRAM_UNREADABLE;
}

MgLauncher *
mg_launcher_new (const char *const *argv)
{
  MgLauncher *self = g_object_new (MG_TYPE_LAUNCHER, NULL);

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, self);
  self->argv = g_strdupv ((char **) argv);
  return self;
}

void
mg_launcher_set_n_processes (MgLauncher *self, guint n_processes)
{
  self->n_processes = n_processes;
}

void
mg_launcher_set_sampler (MgLauncher *self, const char *sampler_path)
{
  g_free (self->sampler);
  self->sampler = g_strdup (sampler_path);
}

void
mg_launcher_add_preload (MgLauncher *self, const char *library_path)
{
  g_ptr_array_add (self->preloads, g_strdup (library_path));
}

void
mg_launcher_set_stop_after (MgLauncher *self, double seconds)
{
  self->stop_after_s = MAX (seconds, 0.0);
}

void
mg_launcher_set_grace_period (MgLauncher *self, double seconds)
{
  self->grace_s = MAX (seconds, 0.0);
}

void
mg_launcher_set_working_folder (MgLauncher *self, const char *folder)
{
  g_free (self->working_folder);
  self->working_folder = folder != NULL ? g_canonicalize_filename (folder, NULL) : NULL;
}

void
mg_launcher_set_environment (MgLauncher *self, const char *const *environment)
{
  g_strfreev (self->environment);
  self->environment = g_strdupv ((char **) environment);
}

/* A name without a slash is looked up on PATH; with one, it must exist
 * (taken from the working folder). */
static char *
resolve_program (const char *name, const char *folder, GError **error)
{
  g_autofree char *path = NULL;

  if (strchr (name, '/') == NULL)
    {
      path = g_find_program_in_path (name);
      if (path == NULL)
        {
          g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NOT_FOUND,
                       _("cannot find the program “%s” on PATH (check its name, or give its path "
                         "as ./%s)"), name, name);
          return NULL;
        }
      return g_steal_pointer (&path);
    }
  path = g_canonicalize_filename (name, folder);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NOT_FOUND,
                   _("the program “%s” does not exist (check the path)"), name);
      return NULL;
    }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NOT_EXECUTABLE,
                   _("“%s” is a folder, not a program (check the path)"), name);
      return NULL;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NOT_EXECUTABLE,
                   _("“%s” is not an executable program (check the path, or chmod +x it)"), name);
      return NULL;
    }
  return g_steal_pointer (&path);
}

static gboolean
make_run_dir (MgLauncher *self, GError **error)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autoptr (GError) local_error = NULL;

  self->run_dir = mg_run_folder_create (&local_error);
  if (self->run_dir == NULL)
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_RUN_DIR,
                   _("cannot create the run folder: %s (set METROGRAPH_TMPDIR or TMPDIR to a "
                     "writable folder)"), local_error->message);
      return FALSE;
    }
  self->record_dir = g_build_filename (self->run_dir, MG_RUN_FOLDER_RECORDS, NULL);
  self->plan_path = g_build_filename (self->run_dir, MG_RUN_FOLDER_PLAN, NULL);
  self->run_id = g_strdup_printf ("%s-%d", stamp, (int) getpid ());
  if (g_mkdir (self->record_dir, MG_RUN_FOLDER_MODE) != 0)
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_RUN_DIR,
                   _("cannot create the folder %s: %s (check the free space)"),
                   self->record_dir, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static gboolean
build_command (MgLauncher *self, GError **error)
{
  const char *pass_env[] = { MG_PLAN_ENV, MG_PLAN_TEXT_ENV, MG_MPI_MERGE_NODE_ENV, "LD_PRELOAD",
                             "ASAN_OPTIONS", "TSAN_OPTIONS", NULL };
  g_autofree char *first = resolve_program (self->argv[0], self->working_folder, error);

  if (first == NULL)
    return FALSE;

  if (self->n_processes > 0)
    {
      g_autofree char *mpirun = g_find_program_in_path ("mpirun");

      if (mpirun == NULL)
        {
          g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NOT_FOUND,
                       _("--np needs mpirun, which is not on PATH (install Open MPI, e.g. "
                         "scripts/install-deps, or start your own launcher: metrograph "
                         "--profile mpirun -n N PROGRAM)"));
          return FALSE;
        }
      self->program_path = g_steal_pointer (&first);
      self->exec_path = g_strdup (mpirun);
      self->command = mg_mpi_build_command (mpirun, self->n_processes, pass_env,
                                            (const char *const *) self->argv);
    }
  else if (mg_mpi_is_launcher (self->argv[0]))
    {
      self->program_path = mg_mpi_guess_program ((const char *const *) self->argv);
      /* Guessed from the words after the launcher's options. */
      if (self->program_path != NULL && !g_path_is_absolute (self->program_path))
        {
          char *absolute = g_canonicalize_filename (self->program_path, self->working_folder);

          g_free (self->program_path);
          self->program_path = absolute;
        }
      self->command = g_strdupv (self->argv);
      self->exec_path = g_steal_pointer (&first);
    }
  else
    {
      self->program_path = g_strdup (first);
      self->command = g_strdupv (self->argv);
      self->exec_path = g_steal_pointer (&first);
    }
  if (self->program_path != NULL)
    self->program_kind = mg_program_check (self->program_path);
  return TRUE;
}

gboolean
mg_launcher_prepare (MgLauncher *self, GError **error)
{
  g_return_val_if_fail (self->run_dir == NULL, FALSE);

  if (self->sampler == NULL || !g_file_test (self->sampler, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_NO_SAMPLER,
                   _("the sampler library %s is missing (build Metrograph with ninja, or "
                     "reinstall it)"), self->sampler != NULL ? self->sampler : "(none)");
      return FALSE;
    }
  if (!build_command (self, error))
    return FALSE;
  return make_run_dir (self, error);
}

const char *
mg_launcher_get_run_id (MgLauncher *self)
{
  return self->run_id;
}

const char *
mg_launcher_get_run_dir (MgLauncher *self)
{
  return self->run_dir;
}

const char *
mg_launcher_get_record_dir (MgLauncher *self)
{
  return self->record_dir;
}

const char *
mg_launcher_get_plan_path (MgLauncher *self)
{
  return self->plan_path;
}

const char *const *
mg_launcher_get_skip_programs (MgLauncher *self)
{
  return mg_mpi_get_skip_programs ();
}

const char *
mg_launcher_get_program_path (MgLauncher *self)
{
  return self->program_path;
}

MgProgramKind
mg_launcher_get_program_kind (MgLauncher *self)
{
  return self->program_kind;
}

const char *const *
mg_launcher_get_argv (MgLauncher *self)
{
  return (const char *const *) self->argv;
}

const char *const *
mg_launcher_get_command (MgLauncher *self)
{
  return (const char *const *) self->command;
}

void
mg_launcher_keep_run_dir (MgLauncher *self)
{
  self->keep_run_dir = TRUE;
}

gint64
mg_launcher_get_start_time_us (MgLauncher *self)
{
  return self->start_time_us;
}

int
mg_launcher_get_killed_signal (MgLauncher *self)
{
  return self->killed_signal;
}

double
mg_launcher_get_duration_s (MgLauncher *self)
{
  return (self->end_mono_us - self->start_mono_us) / 1e6;
}

gboolean
mg_launcher_get_stopped (MgLauncher *self)
{
  return self->stopped;
}

static void
watched_signals (sigset_t *set)
{
  sigemptyset (set);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_signals); i++)
    sigaddset (set, forwarded_signals[i]);
  sigaddset (set, SIGCHLD);
}

void
mg_launcher_block_signals (void)
{
  if (g_once_init_enter (&signals_blocked))
    {
      sigset_t set;

      int recorded[G_N_ELEMENTS (forwarded_signals) + 1];

      memcpy (recorded, forwarded_signals, sizeof forwarded_signals);
      recorded[G_N_ELEMENTS (forwarded_signals)] = SIGPIPE;
      for (guint i = 0; i < G_N_ELEMENTS (recorded); i++)
        {
          struct sigaction old;

          if (sigaction (recorded[i], NULL, &old) == 0)
            signal_was_ignored[recorded[i]] = old.sa_handler == SIG_IGN;
        }
      watched_signals (&set);
      pthread_sigmask (SIG_BLOCK, &set, NULL);
      /* A reader of our output that goes away (| head) must not end us
       * before the run folder is removed; the program gets SIGPIPE's
       * disposition back (mg_launcher_spawn). */
      signal (SIGPIPE, SIG_IGN);
      g_once_init_leave (&signals_blocked, 1);
    }
}

/* path as LD_PRELOAD names it: through the preload layout beside it
 * (sampler/mg-preload-layout.sh) with the loader's $PLATFORM token when
 * that layout is there and leads this machine's platform to path itself,
 * so that the 32-bit programs the program starts load an empty library
 * of their class, and their loader says nothing on their stderr ("wrong
 * ELF class: ELFCLASS64"); path itself otherwise. */
static char *
preload_entry (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *own = NULL;
  g_autofree char *other = NULL;
  struct utsname machine;
  GStatBuf library, through, stub;

  if (uname (&machine) != 0)
    return g_strdup (path);
  own = g_build_filename (dir, "preload", machine.machine, base, NULL);
  other = g_build_filename (dir, "preload", "i686", base, NULL);
  if (g_stat (path, &library) != 0 || g_stat (own, &through) != 0
      || library.st_dev != through.st_dev || library.st_ino != through.st_ino
      || g_stat (other, &stub) != 0)
    return g_strdup (path);
  return g_build_filename (dir, "preload", "$PLATFORM", base, NULL);
}

/* The sampler, the plugins' preloads, then whatever the program's
 * environment already had. A program of another class or machine (a
 * 32-bit one) gets none of ours: its loader would refuse each and say so
 * on the program's stderr ("wrong ELF class … ignored"); the run warned up
 * front that it is not sampled. */
static char *
build_ld_preload (MgLauncher *self, const char *const *env)
{
  g_autoptr (GStrvBuilder) parts = g_strv_builder_new ();
  const char *user = g_environ_getenv ((char **) env, "LD_PRELOAD");
  g_auto (GStrv) joined = NULL;

  if (self->program_kind != MG_PROGRAM_WRONG_CLASS)
    {
      g_autofree char *sampler = preload_entry (self->sampler);

      g_strv_builder_add (parts, sampler);
      for (guint i = 0; i < self->preloads->len; i++)
        {
          g_autofree char *preload = preload_entry (g_ptr_array_index (self->preloads, i));

          g_strv_builder_add (parts, preload);
        }
    }
  if (user != NULL && *user != '\0')
    g_strv_builder_add (parts, user);
  joined = g_strv_builder_end (parts);
  return g_strjoinv (":", joined);
}

/* AddressSanitizer's runtime ends a program at once ("ASan runtime does
 * not come first in initial library list") when a preloaded library comes
 * before it, as the sampler does: every program built with
 * -fsanitize=address (GCC links the runtime as a library) would end so,
 * the one started and any it starts. Its own option lets it run; the
 * options the program already had are kept, before it. */
static char *
asan_options_beside_preload (const char *user)
{
  static const char order_off[] = "verify_asan_link_order=0";

  if (user == NULL || *user == '\0')
    return g_strdup (order_off);
  return g_strconcat (user, ":", order_off, NULL);
}

/* ThreadSanitizer's runtime ends a fork child of a process with more than
 * one thread when the child starts one ("starting new threads after
 * multi-threaded fork is not supported. Dying"): the sampler's thread
 * makes every process so, and a fork child's sampler starts its own, so
 * every fork child of a program built with -fsanitize=thread ended with
 * status 66. Its own option lets them run (silently); before the
 * program's options, so that a die_after_fork it set itself holds. */
static char *
tsan_options_beside_sampler (const char *user)
{
  static const char fork_ok[] = "die_after_fork=0";

  if (user == NULL || *user == '\0')
    return g_strdup (fork_ok);
  return g_strconcat (fork_ok, ":", user, NULL);
}

GStrv
mg_launcher_build_environment (MgLauncher *self)
{
  g_auto (GStrv) env = self->environment != NULL ? g_strdupv (self->environment) : g_get_environ ();
  g_autofree char *preload = build_ld_preload (self, (const char *const *) env);

  g_autofree char *plan = NULL;
  gsize plan_len = 0;
  char node[128];

  env = g_environ_setenv (env, MG_PLAN_ENV, self->plan_path, TRUE);
  /* For nodes whose /tmp is their own (format/mg-run-folder-layout.h). */
  if (g_file_get_contents (self->plan_path, &plan, &plan_len, NULL) && plan_len <= MG_PLAN_TEXT_MAX)
    env = g_environ_setenv (env, MG_PLAN_TEXT_ENV, plan, TRUE);
  else
    env = g_environ_unsetenv (env, MG_PLAN_TEXT_ENV);
  /* A sampler that sees this node's files never makes the run folder
   * again once the run has ended (a daemon that outlived the program);
   * not passed to other nodes, which may need to make it. */
  if (mg_node_id (node, sizeof node))
    env = g_environ_setenv (env, MG_LAUNCH_NODE_ENV, node, TRUE);
  else
    env = g_environ_unsetenv (env, MG_LAUNCH_NODE_ENV);
  if (*preload != '\0')
    env = g_environ_setenv (env, "LD_PRELOAD", preload, TRUE);
  else
    env = g_environ_unsetenv (env, "LD_PRELOAD");
  if (self->program_kind != MG_PROGRAM_WRONG_CLASS)
    {
      g_autofree char *asan = asan_options_beside_preload (g_environ_getenv (env, "ASAN_OPTIONS"));
      g_autofree char *tsan = tsan_options_beside_sampler (g_environ_getenv (env, "TSAN_OPTIONS"));

      env = g_environ_setenv (env, "ASAN_OPTIONS", asan, TRUE);
      env = g_environ_setenv (env, "TSAN_OPTIONS", tsan, TRUE);
    }
  /* For the node summaries made at MPI_Finalize; a site may name another. */
  if (g_environ_getenv (env, MG_MPI_MERGE_NODE_ENV) == NULL)
    {
      g_autofree char *metrograph = mg_install_paths_get_metrograph ();

      env = g_environ_setenv (env, MG_MPI_MERGE_NODE_ENV, metrograph, TRUE);
    }
  return g_steal_pointer (&env);
}

/* The terminal we own as its foreground group, or -1. */
static int
find_own_terminal (void)
{
  for (int fd = 0; fd <= 2; fd++)
    if (isatty (fd) && tcgetpgrp (fd) == getpgrp ())
      return fd;
  return -1;
}

static void
give_terminal (int tty, pid_t pgid)
{
  struct sigaction ign = { .sa_handler = SIG_IGN }, old;

  /* A background group may not call tcsetpgrp without SIGTTOU stopping it. */
  sigaction (SIGTTOU, &ign, &old);
  tcsetpgrp (tty, pgid);
  sigaction (SIGTTOU, &old, NULL);
}

/* Standard input from /dev/null, standard output and error into a new
 * pipe whose reading end is *output_fd. */
static gboolean
capture_output (posix_spawn_file_actions_t *actions, int pipe_fds[2], GError **error)
{
  if (!g_unix_open_pipe (pipe_fds, FD_CLOEXEC, error))
    return FALSE;
  posix_spawn_file_actions_addopen (actions, 0, "/dev/null", O_RDONLY, 0);
  /* dup2 clears close-on-exec on the child's copies. */
  posix_spawn_file_actions_adddup2 (actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2 (actions, pipe_fds[1], 2);
  return TRUE;
}

gboolean
mg_launcher_spawn (MgLauncher *self, int *output_fd, GPid *pid_out, GError **error)
{
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  sigset_t empty, defaults;
  g_auto (GStrv) env = mg_launcher_build_environment (self);
  int pipe_fds[2] = { -1, -1 };
  pid_t pid;
  int rc;

  g_return_val_if_fail (self->run_dir != NULL, FALSE);

  sigemptyset (&empty);
  sigemptyset (&defaults);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_signals); i++)
    if (!signal_was_ignored[forwarded_signals[i]])
      sigaddset (&defaults, forwarded_signals[i]);
  sigaddset (&defaults, SIGCHLD);
  /* Ours is ignored so that a closed pipe cannot kill us mid-run; the
   * program gets the default it would have had. */
  if (!signal_was_ignored[SIGPIPE])
    sigaddset (&defaults, SIGPIPE);

  posix_spawn_file_actions_init (&actions);
  if (self->working_folder != NULL)
    posix_spawn_file_actions_addchdir_np (&actions, self->working_folder);
  if (output_fd != NULL && !capture_output (&actions, pipe_fds, error))
    {
      posix_spawn_file_actions_destroy (&actions);
      return FALSE;
    }
  posix_spawnattr_init (&attr);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
                                   | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup (&attr, 0);
  posix_spawnattr_setsigmask (&attr, &empty);
  posix_spawnattr_setsigdefault (&attr, &defaults);
  self->start_time_us = g_get_real_time ();
  self->start_mono_us = g_get_monotonic_time ();
  rc = posix_spawn (&pid, self->exec_path, &actions, &attr, self->command, env);
  posix_spawnattr_destroy (&attr);
  posix_spawn_file_actions_destroy (&actions);
  if (pipe_fds[1] >= 0)
    close (pipe_fds[1]);
  if (rc != 0)
    {
      if (pipe_fds[0] >= 0)
        close (pipe_fds[0]);
      self->end_mono_us = g_get_monotonic_time ();
      g_autofree char *why = mg_program_describe_start_failure (self->exec_path, self->command[0], rc);

      g_set_error_literal (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_SPAWN, why);
      return FALSE;
    }
  /* Also in the parent, so the group exists before we signal it. */
  setpgid (pid, pid);
  if (output_fd != NULL)
    *output_fd = pipe_fds[0];
  *pid_out = pid;
  return TRUE;
}

/* With --select-ranks some ranks leave no record: a rank that crashed or
 * exited with 128 + signal may be one of them, so no open record can be
 * blamed for the launcher's status. */
static gboolean
every_rank_recorded (MgLauncher *self)
{
  g_autofree char *plan = NULL;

  if (!g_file_get_contents (self->plan_path, &plan, NULL, NULL))
    return FALSE;
  return strstr (plan, "\nselect_ranks\t") == NULL;
}

/* How the process @pid that ended with @status left its records when it
 * could not close them: a program killed by a signal, or one that ended
 * by a raw exit_group (Go's runtime), which we reaped, so we know the
 * signal or the status. Ranks under mpirun or srun are not our children:
 * their launcher's 128 + signal status is used when it names one rank for
 * certain (@whose 0: mg_record_finish). False when there is nothing to
 * write in (an MPI launcher's own exit status). */
static gboolean
ended_how (MgLauncher *self, GPid pid, int status, gboolean through_mpi, GPid *whose,
           MgRecordState *state, int *end_status)
{
  *whose = through_mpi ? 0 : pid;
  *state = MG_RECORD_STATE_SIGNALLED;
  if (WIFSIGNALED (status) && !through_mpi)
    *end_status = WTERMSIG (status);
  else if (WIFEXITED (status) && through_mpi && WEXITSTATUS (status) > 128
           && every_rank_recorded (self))
    *end_status = WEXITSTATUS (status) - 128;
  else if (WIFEXITED (status) && !through_mpi)
    {
      *state = MG_RECORD_STATE_EXITED;
      *end_status = WEXITSTATUS (status);
    }
  else
    return FALSE;
  return TRUE;
}

/* Whether pid is our child and a GPU reader (its command, cut to 15
 * bytes, which a zombie keeps). */
static gboolean
is_our_gpu_reader (const char *pid)
{
  g_autofree char *path = g_build_filename ("/proc", pid, "stat", NULL);
  g_autofree char *text = NULL;
  const char *open_paren, *close_paren;

  if (!g_file_get_contents (path, &text, NULL, NULL)
      || (open_paren = strchr (text, '(')) == NULL
      || (close_paren = strrchr (text, ')')) == NULL || close_paren[1] == '\0')
    return FALSE;
  /* ") S PPID": the state, then the parent. */
  return g_str_has_prefix (open_paren + 1, "metrograph-gpu-") /* MG_GPU_READER_COMM */
         && (pid_t) g_ascii_strtoll (close_paren + 4, NULL, 10) == getpid ();
}

/* Our children, as the kernel lists them for each of our threads
 * (/proc/self/task/TID/children); FALSE where it does not (a kernel
 * without CONFIG_PROC_CHILDREN). */
static gboolean
list_children (GArray *pids)
{
  g_autoptr (GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  gboolean listed = FALSE;

  while (tasks != NULL && (tid = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "children", NULL);
      g_autofree char *text = NULL;
      g_auto (GStrv) words = NULL;

      if (!g_file_get_contents (path, &text, NULL, NULL))
        continue;
      listed = TRUE;
      words = g_strsplit (g_strstrip (text), " ", -1);
      for (guint i = 0; words[i] != NULL; i++)
        if (g_ascii_isdigit (words[i][0]))
          {
            pid_t pid = (pid_t) g_ascii_strtoll (words[i], NULL, 10);
            g_array_append_val (pids, pid);
          }
    }
  return listed;
}

/* The GPU plugin's reader (plugins/gpu-reader.c) is the program's sibling,
 * so our child: the kernel gives a CLONE_PARENT child its caller's exit
 * signal, SIGCHLD, which comes to us, never to the program. It ends with
 * the program's process; reaped here by its pid (a wait for any child
 * would take the window's other children from GLib), waiting a little for
 * one that has not quite ended. Only our children are looked at: every
 * process of /proc only where the kernel does not list them (one stat file
 * read per process of the machine, at every run's end). */
static void
reap_gpu_readers (void)
{
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autoptr (GDir) proc = NULL;
  const char *name;

  if (!list_children (pids) && (proc = g_dir_open ("/proc", 0, NULL)) != NULL)
    while ((name = g_dir_read_name (proc)) != NULL)
      if (g_ascii_isdigit (name[0]))
        {
          pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);
          g_array_append_val (pids, pid);
        }
  for (guint i = 0; i < pids->len; i++)
    {
      pid_t pid = g_array_index (pids, pid_t, i);
      char text[16];

      g_snprintf (text, sizeof text, "%d", (int) pid);
      if (!is_our_gpu_reader (text))
        continue;
      for (int tries = 0; tries < 40 && waitpid (pid, NULL, __WALL | WNOHANG) == 0; tries++)
        g_usleep (5000);
    }
}

int
mg_launcher_child_ended (MgLauncher *self, GPid pid, int status)
{
  gboolean through_mpi = self->n_processes > 0 || mg_mpi_is_launcher (self->argv[0]);
  MgRecordState state;
  int end_status;
  GPid whose;

  self->end_mono_us = g_get_monotonic_time ();
  self->killed_signal = WIFSIGNALED (status) ? WTERMSIG (status) : 0;
  reap_gpu_readers ();
  if (ended_how (self, pid, status, through_mpi, &whose, &state, &end_status))
    mg_record_finish (self->record_dir, self->run_id, whose, state, end_status,
                      g_get_monotonic_time () * 1000);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return 1;
}

/* Ctrl-Z stopped the program (we own the terminal): stop ourselves too, as
 * a shell job would, and carry on together when continued. */
static void
follow_stop (pid_t pid, int tty)
{
  if (tty >= 0)
    give_terminal (tty, getpgrp ());
  raise (SIGSTOP);
  if (tty >= 0)
    give_terminal (tty, pid);
  kill (-pid, SIGCONT);
}

static int
poll_timeout_ms (gint64 deadline_us)
{
  gint64 left;

  if (deadline_us == 0)
    return -1;
  left = deadline_us - g_get_monotonic_time ();
  return left <= 0 ? 0 : (int) MIN ((left + 999) / 1000, G_MAXINT);
}

/* Without a pidfd, how often the program's end is looked for when no
 * SIGCHLD came. */
#define END_CHECK_MS 100

/* A descriptor that becomes readable when the program ends, whichever of
 * our threads the kernel hands its SIGCHLD to (close-on-exec); -1 where the
 * kernel has none (before Linux 5.3). */
static int
open_pidfd (pid_t pid)
{
#ifdef SYS_pidfd_open
  return (int) syscall (SYS_pidfd_open, pid, 0);
#else
  return -1;
#endif
}

/* The signals sent to us go to the program's group. */
static void
forward_signals (int sfd, pid_t pid)
{
  struct signalfd_siginfo info;

  while (read (sfd, &info, sizeof info) == sizeof info)
    if (info.ssi_signo != SIGCHLD)
      kill (-pid, (int) info.ssi_signo);
}

/* --stop-after's SIGTERM and SIGKILL come from the stopper, as in the
 * window's runs (mg-stopper.h). The end is not waited for through SIGCHLD
 * alone: it is sent to the process, and a thread of ours that does not
 * block it (a thread pool's, started before mg_launcher_block_signals) may
 * take and discard it before the signalfd is read, which left this wait
 * asleep for ever beside a program that had ended. The pidfd says the end
 * whoever took the signal; without one the end is looked for every
 * END_CHECK_MS. */
static int
wait_child (MgLauncher *self, pid_t pid, int sfd, int tty)
{
  MgStopper stopper;
  int pidfd = open_pidfd (pid);
  int exit_status = 1;

  mg_stopper_init (&stopper, self->stop_after_s, self->grace_s);
  mg_stopper_start (&stopper, pid, self->start_mono_us);
  for (;;)
    {
      struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN },
                               { .fd = pidfd, .events = POLLIN } };
      int timeout = poll_timeout_ms (mg_stopper_get_deadline (&stopper));
      int status;
      pid_t done;

      if (pidfd < 0 && (timeout < 0 || timeout > END_CHECK_MS))
        timeout = END_CHECK_MS;
      if (poll (pfd, G_N_ELEMENTS (pfd), timeout) < 0 && errno != EINTR)
        break;
      if (pfd[0].revents & POLLIN)
        forward_signals (sfd, pid);

      done = waitpid (pid, &status, WNOHANG | WUNTRACED);
      /* Without a terminal to hand back there is nobody to continue us:
       * whoever stopped the program (a debugger, kill -STOP) continues it,
       * and we go on waiting for its end. */
      if (done == pid && WIFSTOPPED (status))
        {
          if (tty >= 0)
            follow_stop (pid, tty);
        }
      else if (done == pid)
        {
          exit_status = mg_launcher_child_ended (self, pid, status);
          break;
        }
      else if (done < 0 && errno != EINTR)
        break; /* no longer ours to wait for: the pidfd would wake us for ever */

      mg_stopper_check (&stopper, g_get_monotonic_time ());
      self->stopped = stopper.stopped_after;
    }
  if (pidfd >= 0)
    close (pidfd);
  return exit_status;
}

gboolean
mg_launcher_run (MgLauncher *self, int *exit_status, GError **error)
{
  sigset_t set;
  pid_t pid;
  int sfd, tty;

  g_return_val_if_fail (self->run_dir != NULL, FALSE);

  mg_launcher_block_signals ();
  watched_signals (&set);
  sfd = signalfd (-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sfd < 0)
    {
      g_set_error (error, MG_LAUNCHER_ERROR, MG_LAUNCHER_ERROR_FAILED,
                   _("cannot watch signals: %s"), g_strerror (errno));
      return FALSE;
    }

  if (!mg_launcher_spawn (self, NULL, &pid, error))
    {
      close (sfd);
      return FALSE;
    }
  tty = find_own_terminal ();
  if (tty >= 0)
    give_terminal (tty, pid);

  *exit_status = wait_child (self, pid, sfd, tty);

  if (tty >= 0)
    give_terminal (tty, getpgrp ());
  close (sfd);
  return TRUE;
}
