/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks made ready for the code views (issue 30, point
 * 5): every distinct stack of every process named once and placed once in
 * both call trees (mg-call-shape.h), each process's (window, stack, count)
 * entries mapped to those stacks. A selection change is then a pass over
 * the entries of the windows it covers and one over the trees' nodes: no
 * hashing, naming or GVariant reading. Built once per profile on any
 * thread; queries may run on any thread, one at a time per namer. */
#pragma once

#include <glib.h>

#include "plot/mg-call-tree.h"
#include "plot/mg-line-figures.h"
#include "plot/mg-series-view.h"
#include "profile/mg-stack-table.h"

G_BEGIN_DECLS

typedef struct _MgCallIndex MgCallIndex;

/* PROFILE's stacks (none: every query is empty). */
MgCallIndex *mg_call_index_new (MgFrameNamer *namer, MgProfile *profile);
/* The same from a table (taken), for the benches. */
MgCallIndex *mg_call_index_new_for_table (MgFrameNamer *namer, MgStackTable *table);
MgCallIndex *mg_call_index_ref (MgCallIndex *self);
void mg_call_index_unref (MgCallIndex *self);

/* Distinct stacks over all processes. */
guint mg_call_index_get_n_stacks (const MgCallIndex *self);
/* Nodes of either tree over every stack (the root included). */
guint mg_call_index_get_n_nodes (const MgCallIndex *self, MgCallTreeKind kind);
/* The call tree of process (-1: every process) over the windows that
 * overlap (start_s, end_s] (-INFINITY, INFINITY: the whole run), as
 * mg_call_tree_new () of that selection's MgStackSet would build it.
 * N_PROCESSES (may be NULL): processes of the selection with stacks. */
MgCallTree *mg_call_index_query (const MgCallIndex *self, int process, double start_s,
                                 double end_s, guint *n_processes);

/* 1 + the highest thread ordinal of the stacks (0: none named), counted
 * while the index was built. */
guint mg_call_index_get_n_threads (const MgCallIndex *self);

/* A function's share of the stack samples per window of GRID, as
 * mg_function_share_compute () of process's MgStackWindows gives it
 * (the stacks holding FUNCTION in any frame, inlined ones included, once
 * each; a process window counted in the grid window of its middle), from
 * the stacks the index lists for the function: no frame named again. */
double *mg_call_index_function_share (const MgCallIndex *self, int process,
                                      const char *function, const MgSeriesView *grid);
/* The stacks of process (-1: every process) counted in windows that
 * overlap (START_S, END_S] added to FIGURES, as
 * mg_line_figures_add_stack_windows () adds them: every sample to the
 * totals, the lines of the stacks holding a function named in the
 * figures' file (the others pass none of its lines). FIGURES names the
 * frames with its own callback, the index's namer only chose the
 * stacks: both need to name files alike (the same symboliser). */
void mg_call_index_add_line_figures (const MgCallIndex *self, MgLineFigures *figures,
                                     int process, double start_s, double end_s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCallIndex, mg_call_index_unref)

G_END_DECLS
