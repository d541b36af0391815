/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks (docs/profile-format.md, member 15) as the
 * stored arrays, per process and unmerged: each process's own stack
 * table, its sample windows and its (window, stack, count) entries in
 * window order. For indexes built once per profile (the code views'
 * MgCallIndex), where MgStackSet merges one selection at a time. The
 * arrays point into the profile's member, which the table keeps. */
#pragma once

#include <glib.h>

#include "mg-profile.h"
#include "mg-stack-set.h"

G_BEGIN_DECLS

/* One entry of a process: count samples of stack in window. */
typedef struct {
  guint32 window;
  guint32 stack;
  guint32 count;
} MgStackCount;

typedef struct _MgStackTable MgStackTable;

MgStackTable *mg_stack_table_new (MgProfile *profile);
void mg_stack_table_free (MgStackTable *self);

guint mg_stack_table_get_n_modules (const MgStackTable *self);
const MgStackModule *mg_stack_table_get_module (const MgStackTable *self, guint module);

/* 1 + the highest thread ordinal of any process's stacks, 0 where the
 * profile names no thread (as mg_stack_set_get_n_threads () of every
 * process and the whole run), read while the table is: no second pass. */
guint mg_stack_table_get_n_threads (const MgStackTable *self);

/* Processes with stacks (entries of the member, not profile indices). */
guint mg_stack_table_get_n_processes (const MgStackTable *self);
/* The profile's index of entry i. */
int mg_stack_table_get_process (const MgStackTable *self, guint i);
guint mg_stack_table_get_n_stacks (const MgStackTable *self, guint i);
/* Frames innermost first. */
const MgStackFrame *mg_stack_table_get_frames (const MgStackTable *self, guint i, guint stack,
                                               guint *n_frames);
/* The stack's flags (MG_STACK_MPI…) without the thread bits. */
guint mg_stack_table_get_flags (const MgStackTable *self, guint i, guint stack);
/* The windows' (start, end] in seconds from the run's start, in order. */
const double *mg_stack_table_get_windows (const MgStackTable *self, guint i, const double **ends,
                                          guint *n_windows);
const MgStackCount *mg_stack_table_get_counts (const MgStackTable *self, guint i, guint *n_counts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgStackTable, mg_stack_table_free)

G_END_DECLS
