/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile of known activity phases, for the activity row's tests. */
#pragma once

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* ACTIVITY_FIXTURE_WINDOWS equal windows over ACTIVITY_FIXTURE_DURATION s,
 * in four phases of a quarter each. The main thread of process 0:
 * computing, then in MPI, then asleep, then in I/O (100 % each). Process 1
 * (when there are two) is the same except in the first phase, where it
 * computes half of the samples and is in MPI for the other half. All
 * threads: 50 % computing, 50 % waiting on a lock, throughout. Ranks 0 and
 * 1, pids 2000 + rank. One more metric, "memory" (rising), in a group of
 * its own ("memoryGroup", named "Default") before the activity groups ("mainThreadActivity",
 * "allThreadsActivity", as plugins/activity.xml has them). */
#define ACTIVITY_FIXTURE_WINDOWS 100
#define ACTIVITY_FIXTURE_DURATION 4.0
MgProfile *activity_fixture_profile (guint n_processes);
/* The same phases over n_windows (the benchmark); processes past 1 as
 * process 1. */
MgProfile *activity_fixture_profile_sized (guint n_processes, guint n_windows);

/* activity_fixture_profile (1) with call stacks in three threads of
 * process 0, one sample a window (the interval), by phase:
 *   main thread (0): computing, MPI, none, none (asleep, in I/O);
 *   thread 1: computing throughout;
 *   thread 2: computing, MPI, none (off CPU), computing. */
#define ACTIVITY_FIXTURE_THREADS 3
MgProfile *activity_fixture_threads_profile (void);

G_END_DECLS
