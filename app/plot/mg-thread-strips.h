/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's threads, each as a strip of activity over time (issue 30
 * point 2): per pixel column the class its samples there mostly were.
 *
 * Where the classes come from, without a series per thread in the
 * profile: the call stacks say each sample's thread ordinal, window and
 * whether it was an MPI wait (docs/profile-format.md, member 15). A stack
 * sampled on a CPU-time timer is **Computing**; one flagged MPI (sampled
 * in wall-clock time) is **MPI**; the samples a thread lacks in a window
 * against one per sampling interval are **Off CPU**: blocked in I/O,
 * asleep, waiting on a lock, or ready but waiting for a CPU (a CPU-time
 * timer counts only the time the thread ran), which the stacks do not
 * tell apart (the
 * activity plugin reads /proc per thread but stores only the main thread's
 * class and all threads' shares). The main thread's strip reads the
 * activity plugin's main-thread series instead when the process has
 * them, so it tells I/O from Waiting as the activity row does.
 *
 * A thread's strip runs from its first window with a sample to its last
 * (before and after, the thread may not have existed). GTK-free. */
#pragma once

#include <glib.h>

#include "mg-activity-series.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* The activity row's four classes, and one the stacks alone give. */
typedef enum {
  MG_THREAD_COMPUTING = MG_ACTIVITY_COMPUTING,
  MG_THREAD_MPI = MG_ACTIVITY_MPI,
  MG_THREAD_IO = MG_ACTIVITY_IO,
  MG_THREAD_WAITING = MG_ACTIVITY_WAITING,
  MG_THREAD_OFF_CPU, /* I/O, waiting or waiting for a CPU, not told apart */
  MG_THREAD_N_CLASSES,
  MG_THREAD_NONE = 0xff, /* no sample there */
} MgThreadClass;

typedef struct _MgThreadStrips MgThreadStrips;

/* The threads of process (an index of profile; it must be >= 0). Threads
 * whose stacks do not say their ordinal (profiles of records from before)
 * are left out. */
MgThreadStrips *mg_thread_strips_new (MgProfile *profile, int process);
void mg_thread_strips_free (MgThreadStrips *self);

int mg_thread_strips_get_process (const MgThreadStrips *self);
/* Rows, top to bottom: the main thread, then by ordinal. */
guint mg_thread_strips_get_n_rows (const MgThreadStrips *self);
int mg_thread_strips_get_ordinal (const MgThreadStrips *self, guint row);
/* Whether the row's classes come from the activity plugin (the main
 * thread's, I/O and Waiting told apart) rather than the stacks. */
gboolean mg_thread_strips_row_has_activity (const MgThreadStrips *self, guint row);
/* Where the row's first and last windows start and end. */
void mg_thread_strips_get_extent (const MgThreadStrips *self, guint row, double *start,
                                  double *end);

/* The row's class per column of [t0, t1] split in n equal columns: the
 * class with the most of the samples of the windows overlapping the
 * column (the first in class order on a tie), MG_THREAD_NONE where none. */
void mg_thread_strips_columns (const MgThreadStrips *self, guint row, double t0, double t1,
                               guint n, guint8 *classes);

/* The row's windows holding [t_lo, t_hi] (at least the one holding t_lo):
 * their span and each class's share of their samples, in percent (NaN for
 * a class the row cannot know: I/O and Waiting of a row from the stacks,
 * Off CPU of one from the activity plugin). FALSE outside every window. */
gboolean mg_thread_strips_shares (const MgThreadStrips *self, guint row, double t_lo, double t_hi,
                                  double *start, double *end, double shares[MG_THREAD_N_CLASSES]);

/* The label of the strips' thread by its ordinal: the profile's one label
 * for a thread (mg_profile_dup_thread_label: "worker-3 (thread 2)", "Main
 * Thread", "Thread 2"), of the strips' process. */
char *mg_thread_strips_thread_name (const MgThreadStrips *self, int ordinal);
/* A class's legend name, translated ("Computing", …, "Off CPU"). */
const char *mg_thread_class_name (MgThreadClass klass);

/* The process the strips show when the header shows every process: rank
 * 0's, else the first process that is not a helper; -1 when there is none. */
int mg_thread_strips_default_process (MgProfile *profile);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgThreadStrips, mg_thread_strips_free)

G_END_DECLS
