/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run folder: where a run's plan and the processes' records live while
 * it runs, in METROGRAPH_TMPDIR (else TMPDIR, else /tmp) as
 * metrograph-XXXXXX. It names its front end in a file "owner" (process id
 * and the process's start time from /proc), so that a folder whose front
 * end ended without removing it (SIGKILL, a crash) is told from one whose
 * front end still runs, even when the process id has been reused. Such
 * folders are removed when the next run starts (mg_run_folder_sweep), with
 * one line on stderr, unless their records hold samples: those are kept for
 * `metrograph --recover` (mg-run-recovery.h). A folder kept on purpose (METROGRAPH_KEEP_RUN_DIR,
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

/* A new run folder owned by this process. */
char *mg_run_folder_create (GError **error);
/* Removes @path and everything in it. */
void mg_run_folder_remove (const char *path);
/* Keeps @path for good: it no longer has a front end. */
void mg_run_folder_keep (const char *path);

/* The front end @path names; FALSE when it names none (kept, or not a run
 * folder). */
gboolean mg_run_folder_read_owner (const char *path, int *pid, guint64 *start_time);
/* TRUE while the front end @path names runs. */
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
