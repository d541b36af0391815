/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks by sample window (docs/profile-format.md,
 * member 15): for a selection of processes, each distinct stack once (its
 * frames) and every (window, stack, count) the processes recorded, so that
 * a share over time (a function's row, issue 30) is one pass over the
 * counts rather than a stack set per window. Module indices are the
 * profile's, as in an MgStackSet of the same profile. */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-set.h"

G_BEGIN_DECLS

typedef struct {
  double start_s, end_s; /* the process's sample window (seconds from the run's start) */
  guint stack;           /* index of the stack in the MgStackWindows */
  guint64 count;
} MgStackWindowCount;

typedef struct _MgStackWindows MgStackWindows;

/* The stacks of process (-1: every process) over the whole run. */
MgStackWindows *mg_stack_windows_new (MgProfile *profile, int process);
void mg_stack_windows_free (MgStackWindows *self);

guint mg_stack_windows_get_n_stacks (const MgStackWindows *self);
/* Frames innermost first. */
const MgStackFrame *mg_stack_windows_get_frames (const MgStackWindows *self, guint stack,
                                                 guint *n_frames);
/* The stack's flags as stored (MG_STACK_MPI, …), the thread ordinal's
 * bits included (MG_STACK_THREAD_SHIFT): the same frames sampled in two
 * threads are two stacks here. */
guint32 mg_stack_windows_get_flags (const MgStackWindows *self, guint stack);
guint mg_stack_windows_get_n_counts (const MgStackWindows *self);
const MgStackWindowCount *mg_stack_windows_get_count (const MgStackWindows *self, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackWindows, mg_stack_windows_free)

G_END_DECLS
