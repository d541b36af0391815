/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the samples of a stack set went, by function (issue 30): the
 * functions table (self and total samples of each function, total counted
 * once per stack however deep a recursion goes), the top-down call tree
 * (main → what it called → …) and the bottom-up tree (each function where
 * a sample landed → its callers → theirs…). Frames are named through an
 * MgFrameNamer, inlined functions as calls of their own. Built on any
 * thread (from a stack set, by hand, or as a query of a profile's
 * MgCallIndex); then read from one thread at a time: a node's children
 * are sorted when first read. */
#pragma once

#include <glib.h>

#include "plot/mg-frame-namer.h"
#include "profile/mg-stack-set.h"

G_BEGIN_DECLS

typedef struct _MgCallTree MgCallTree;

typedef enum {
  MG_CALL_TREE_TOP_DOWN,
  MG_CALL_TREE_BOTTOM_UP,
} MgCallTreeKind;

/* The root of both trees: no function, the set's total. */
#define MG_CALL_TREE_ROOT 0u

/* Every stack of SET (NULL: an empty tree). */
MgCallTree *mg_call_tree_new (MgFrameNamer *namer, const MgStackSet *set);
/* An empty tree to add stacks to by hand (the tests), then finish. */
MgCallTree *mg_call_tree_new_empty (MgFrameNamer *namer);
/* FRAMES innermost first; SET names their modules (NULL: none). */
void mg_call_tree_add_stack (MgCallTree *self, const MgStackSet *set, const MgStackFrame *frames,
                             guint n_frames, guint64 count);
/* The same with the stack's FLAGS (mg_stack_set_get_frames): MG_STACK_MPI
 * counts its samples as waiting in MPI. */
void mg_call_tree_add_stack_flags (MgCallTree *self, const MgStackSet *set,
                                   const MgStackFrame *frames, guint n_frames, guint64 count,
                                   guint flags);
/* Sorts the functions and every node's children by total, largest first. */
void mg_call_tree_finish (MgCallTree *self);
void mg_call_tree_free (MgCallTree *self);

MgFrameNamer *mg_call_tree_get_namer (const MgCallTree *self);
guint64 mg_call_tree_get_total (const MgCallTree *self);

/* The functions table, by total, largest first, ties by name (mg-function-order.h). */
guint mg_call_tree_get_n_functions (const MgCallTree *self);
const MgCallFunction *mg_call_tree_get_function (const MgCallTree *self, guint i,
                                                 guint64 *self_samples, guint64 *total_samples);
/* The line of FUNCTION that the views show, by mg-hot-line.h's rule
 * over the tree's samples: in its file, the line most of its own
 * samples were on, else the one most samples passed (each stack once on
 * a line, however often a recursion passes it), then the lowest; the
 * line of its first address where no sample's line is known; 0 when
 * that is unknown too. */
guint mg_call_tree_get_line (const MgCallTree *self, const MgCallFunction *function);
/* The row of the functions table naming NAME, or -1 (the tests). */
int mg_call_tree_find_function (const MgCallTree *self, const char *name);

/* Nodes of either tree: children of NODE (MG_CALL_TREE_ROOT at the top),
 * largest total first. Self of a top-down node: samples whose innermost
 * function it is; of a bottom-up node: 0 below the first level, where
 * total is the samples of that function's self time reached through
 * the path. */
guint mg_call_tree_get_n_children (const MgCallTree *self, MgCallTreeKind kind, guint node);
guint mg_call_tree_get_child (const MgCallTree *self, MgCallTreeKind kind, guint node, guint i);
const MgCallFunction *mg_call_tree_get_node (const MgCallTree *self, MgCallTreeKind kind,
                                             guint node, guint64 *self_samples,
                                             guint64 *total_samples);
/* Of NODE's total, the samples taken while its thread waited in MPI
 * (stacks flagged MG_STACK_MPI); the rest were computing. Summed for
 * every node of KIND when first asked (as children are sorted). */
guint64 mg_call_tree_get_waiting (const MgCallTree *self, MgCallTreeKind kind, guint node);
/* The parent of NODE (G_MAXUINT for the root). */
guint mg_call_tree_get_parent (const MgCallTree *self, MgCallTreeKind kind, guint node);
/* The child of NODE naming NAME, or G_MAXUINT (the tests). */
guint mg_call_tree_find_child (const MgCallTree *self, MgCallTreeKind kind, guint node,
                               const char *name);

/* A search (issue 30, point 4): MATCHES[id] is TRUE for each namer id of
 * a function found (N_MATCHES long; ids past it match nothing). Per node
 * of KIND (g_free), TRUE where a node under it, with samples, is of such a
 * function: the rows to expand to show the matches. */
guint8 *mg_call_tree_find_matches (const MgCallTree *self, MgCallTreeKind kind,
                                   const guint8 *matches, guint n_matches);
/* The samples of stacks holding a function of MATCHES. */
guint64 mg_call_tree_count_matching (const MgCallTree *self, const guint8 *matches,
                                     guint n_matches);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCallTree, mg_call_tree_free)

G_END_DECLS
