/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shape of a set of call stacks, counts aside (issue 30, point 5):
 * each stack as a path of function ids (the namer's), the nodes of the
 * top-down and bottom-up trees over every stack (found through one hash
 * of (parent, function) in flat arrays), each stack's leaf node in both,
 * and its distinct functions. Built once (per profile: MgCallIndex; per
 * tree: mg_call_tree_new_empty ()); an MgCallTree is then a count per
 * stack summed over this shape, without hashing or naming again.
 * Internal to the plot core. */
#pragma once

#include <glib.h>

#include "plot/mg-call-tree.h"

G_BEGIN_DECLS

typedef struct _MgCallShape MgCallShape;

MgCallShape *mg_call_shape_new (MgFrameNamer *namer);
MgCallShape *mg_call_shape_ref (MgCallShape *self);
void mg_call_shape_unref (MgCallShape *self);

/* The functions of FRAMES (innermost first) as the namer names them,
 * appended to PATH (guint ids; inlined functions as calls of their own),
 * and their lines to LINES (NULL: not wanted; see
 * mg_frame_namer_name_lines ()). MODULES: the table the frames' module
 * indices point into. */
void mg_call_shape_name_frames (MgCallShape *self, const MgStackModule *modules,
                                guint n_modules, const MgStackFrame *frames, guint n_frames,
                                GArray *path, GArray *lines);
/* Adds a stack of function ids, innermost first; returns its index. */
guint mg_call_shape_add_path (MgCallShape *self, const guint *path, guint len);
/* The same with the stack's FLAGS: MG_STACK_MPI marks a wait in MPI. */
guint mg_call_shape_add_path_flags (MgCallShape *self, const guint *path, guint len,
                                    guint flags);
/* The same with each function's line in LINES (NULL: none known), which
 * the functions' hottest lines are counted from. */
guint mg_call_shape_add_path_lines (MgCallShape *self, const guint *path, const guint *lines,
                                    guint len, guint flags);
/* Done adding: groups the nodes by parent. */
void mg_call_shape_seal (MgCallShape *self);

MgFrameNamer *mg_call_shape_get_namer (MgCallShape *self);
guint mg_call_shape_get_n_stacks (MgCallShape *self);
guint mg_call_shape_get_n_nodes (MgCallShape *self, MgCallTreeKind kind);

/* The tree of a sealed SHAPE with COUNTS[s] samples of stack s (taken:
 * g_free'd by the tree), total TOTAL (which may count frameless samples
 * beyond them). */
MgCallTree *mg_call_tree_new_for_shape (MgCallShape *shape, guint64 *counts, guint64 total);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCallShape, mg_call_shape_unref)

G_END_DECLS
