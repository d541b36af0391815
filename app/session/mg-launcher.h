/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs one program under the sampler: a private run folder (records and the
 * run plan), LD_PRELOAD and METROGRAPH_PLAN in its environment, optionally
 * through mpirun; stdio passes through, terminating signals are forwarded,
 * --stop-after ends it. GTK-free.
 *
 * Use: mg_launcher_new (), the setters, mg_launcher_prepare () (resolves the
 * program and creates the run folder), write the plan to
 * mg_launcher_get_plan_path (), then mg_launcher_run (). The run folder
 * (mg-run-folder.h) is removed by mg_launcher_remove_run_dir () or when the
 * launcher is finalised, unless METROGRAPH_KEEP_RUN_DIR=1. */
#pragma once

#include <gio/gio.h>

#include "mg-program-check.h"

G_BEGIN_DECLS

#define MG_LAUNCHER_ERROR (mg_launcher_error_quark ())
GQuark mg_launcher_error_quark (void);

typedef enum {
  MG_LAUNCHER_ERROR_NOT_FOUND,      /* program (or mpirun) not on PATH / no such file */
  MG_LAUNCHER_ERROR_NOT_EXECUTABLE, /* exists but cannot be run */
  MG_LAUNCHER_ERROR_NO_SAMPLER,     /* libmetrograph-sampler.so missing */
  MG_LAUNCHER_ERROR_RUN_DIR,        /* the run folder cannot be created */
  MG_LAUNCHER_ERROR_SPAWN,          /* the program could not be started */
  MG_LAUNCHER_ERROR_FAILED,
} MgLauncherError;

#define MG_TYPE_LAUNCHER (mg_launcher_get_type ())
G_DECLARE_FINAL_TYPE (MgLauncher, mg_launcher, MG, LAUNCHER, GObject)

/* argv: the program and its arguments, or an MPI launcher (mpirun, mpiexec,
 * srun, …) followed by its own arguments and the program. */
MgLauncher *mg_launcher_new (const char *const *argv);

/* The folder the program runs in (NULL, the default: ours); a program
 * named with a "/" is taken from there. */
void mg_launcher_set_working_folder (MgLauncher *self, const char *folder);
/* The program's environment before LD_PRELOAD and METROGRAPH_PLAN are
 * added (NULL, the default: ours). */
void mg_launcher_set_environment (MgLauncher *self, const char *const *environment);
/* 0 (the default): run argv directly; N: run it through "mpirun -n N". */
void mg_launcher_set_n_processes (MgLauncher *self, guint n_processes);
void mg_launcher_set_sampler (MgLauncher *self, const char *sampler_path);
/* Appended to LD_PRELOAD after the sampler, in call order. */
void mg_launcher_add_preload (MgLauncher *self, const char *library_path);
/* 0: never. Then SIGTERM to the program's process group, SIGKILL after the
 * grace period. */
void mg_launcher_set_stop_after (MgLauncher *self, double seconds);
void mg_launcher_set_grace_period (MgLauncher *self, double seconds);

/* Resolves the program on PATH, checks the sampler, builds the command line
 * and creates the run folder with its records/ folder. */
gboolean mg_launcher_prepare (MgLauncher *self, GError **error);

const char *mg_launcher_get_run_id (MgLauncher *self);
const char *mg_launcher_get_run_dir (MgLauncher *self);
const char *mg_launcher_get_record_dir (MgLauncher *self);
const char *mg_launcher_get_plan_path (MgLauncher *self);
/* Program basenames the sampler must not sample (MPI launchers and daemons). */
const char *const *mg_launcher_get_skip_programs (MgLauncher *self);
/* The profiled program's path as resolved (for an explicit mpirun: a best
 * guess, or NULL). */
const char *mg_launcher_get_program_path (MgLauncher *self);
MgProgramKind mg_launcher_get_program_kind (MgLauncher *self);
/* The command line as the user gave it (without the mpirun added by -n). */
const char *const *mg_launcher_get_argv (MgLauncher *self);
/* The command line as run (with mpirun and its options when -n was given). */
const char *const *mg_launcher_get_command (MgLauncher *self);

/* Keeps the run folder when the launcher is finalised (e.g. its records could
 * not be merged or saved: they are the only copy). */
void mg_launcher_keep_run_dir (MgLauncher *self);

/* Removes the run folder now (or keeps it, as finalising would): the
 * records are no longer needed. */
void mg_launcher_remove_run_dir (MgLauncher *self);

/* Blocks the signals the launcher forwards (and ignores SIGPIPE), in the calling thread and (when
 * called first thing in main) every thread started later. Idempotent. */
void mg_launcher_block_signals (void);

/* The program's environment with the sampler, the preloads and then the
 * environment's own LD_PRELOAD in LD_PRELOAD, and METROGRAPH_PLAN. */
GStrv mg_launcher_build_environment (MgLauncher *self);

/* The one way the program is started: posix_spawn in its own process
 * group, with mg_launcher_build_environment (), signal dispositions reset
 * (those ignored before mg_launcher_block_signals () stay ignored). With
 * @output_fd, its standard input is /dev/null and its standard output and
 * error go to a pipe whose reading end is returned there; else stdio is
 * ours. */
gboolean mg_launcher_spawn (MgLauncher *self, int *output_fd, GPid *pid, GError **error);
/* The program @pid ended with the wait status @status: a process killed by
 * a signal gets it written into its record (for runs through an MPI
 * launcher, when it names one rank for certain). Returns the exit status
 * (128 + signal number for a signal). */
int mg_launcher_child_ended (MgLauncher *self, GPid pid, int status);

/* Starts the program (mg_launcher_spawn) and waits for it, forwarding
 * signals and passing it the terminal. exit_status: the program's exit
 * status, 128 + signal number when a signal ended it. */
gboolean mg_launcher_run (MgLauncher *self, int *exit_status, GError **error);

gint64 mg_launcher_get_start_time_us (MgLauncher *self);
double mg_launcher_get_duration_s (MgLauncher *self);
/* The signal that ended the program the launcher started (not a rank
 * under mpirun, which is the launcher's child), 0 when it exited. */
int mg_launcher_get_killed_signal (MgLauncher *self);
/* TRUE when --stop-after ended the program. */
gboolean mg_launcher_get_stopped (MgLauncher *self);

G_END_DECLS
