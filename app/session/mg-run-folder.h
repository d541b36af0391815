/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run folder: where a run's plan and the processes' records live while
 * it runs, in METROGRAPH_TMPDIR (else TMPDIR, else /tmp) as
 * metrograph-XXXXXX. It names its front end in a file "owner" (process id,
 * the process's start time from /proc, the boot id, PID namespace and host
 * name), which the front end holds locked for its life, so that a folder
 * whose front end ended without removing it (SIGKILL, a crash) is told
 * from one whose front end still runs, even when the process id has been
 * reused or belongs to another namespace. Such folders are removed when
 * the next run starts (mg_run_folder_sweep), with one line on stderr,
 * unless their records hold samples: those are kept for `metrograph
 * --recover` (mg-run-recovery.h). A folder whose owner cannot be asked
 * (another machine sharing the folder, another boot) is never removed:
 * the sweep says why it kept it. A folder kept on purpose (METROGRAPH_KEEP_RUN_DIR,
 * records that could not be merged) loses its "owner" and is never swept.
 * GTK-free. */
#pragma once

#include <glib.h>

#include "format/mg-run-folder-layout.h"

G_BEGIN_DECLS

/* The run plan and the run's settings as the
 * `metrograph --profile` line that repeats it (mg-run-settings-line.h),
 * which recovery reads (mg-run-recovery.h). */
#define MG_RUN_FOLDER_PLAN "run.plan"
#define MG_RUN_FOLDER_COMMAND "command"
/* What a run folder's name gets while it is removed
 * (metrograph-XXXXXX.removing): one left so by a kill is finished by the
 * sweep and never recovered. */
#define MG_RUN_FOLDER_RETIRED ".removing"

/* A new run folder owned by this process. */
char *mg_run_folder_create (GError **error);
/* Removes @path and everything in it (a run folder is renamed first:
 * MG_RUN_FOLDER_RETIRED). */
void mg_run_folder_remove (const char *path);
/* Keeps @path for good: it no longer has a front end. */
void mg_run_folder_keep (const char *path);

/* The front end @path names; FALSE when it names none (kept, or not a run
 * folder). */
gboolean mg_run_folder_read_owner (const char *path, int *pid, guint64 *start_time);
typedef enum {
  MG_RUN_FOLDER_OWNER_NONE,     /* no owner file: kept on purpose, not a run folder */
  MG_RUN_FOLDER_OWNER_LIVE,     /* its owner runs */
  MG_RUN_FOLDER_OWNER_DEAD,     /* its owner is proven to have ended */
  MG_RUN_FOLDER_OWNER_UNKNOWN,  /* its owner cannot be asked (another machine or boot,
                                 * another PID namespace without a lock, an older
                                 * owner file): *why says which */
} MgRunFolderOwnerState;

/* Whether the owner @path names runs: its lock (same kernel, any
 * namespace), else its pid and start (same PID namespace). @why, when not
 * NULL, gets the reason of MG_RUN_FOLDER_OWNER_UNKNOWN. */
MgRunFolderOwnerState mg_run_folder_owner_state (const char *path, char **why);
/* TRUE while the front end @path names is known to run. */
gboolean mg_run_folder_is_live (const char *path);
/* When process @pid started (clock ticks since boot, /proc/PID/stat), 0
 * when there is no such process. */
guint64 mg_run_folder_process_start_time (int pid);
/* TRUE when @path holds a record with at least one sample: worth a
 * recovery (mg-run-recovery.h) rather than a sweep. */
gboolean mg_run_folder_has_samples (const char *path);
/* The run folders (of our user, in the run folders' parent) whose front
 * end no longer runs and that hold samples: their paths, for recovery. */
GStrv mg_run_folder_find_recoverable (void);
/* Removes the run folders (of our user, in the run folders' parent) whose
 * front end no longer runs, saying so on stderr; those that hold samples
 * are kept instead, with a line saying how to recover them. Returns how
 * many were removed. */
guint mg_run_folder_sweep (void);

G_END_DECLS
