/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One row of the code views (mg-code-view.h): a function of the functions
 * table or a node of the call tree, with its samples and shares as
 * properties, so that the column views sort by them. Each item keeps its
 * call tree alive. */
#pragma once

#include <gio/gio.h>

#include "plot/mg-call-tree.h"
#include "profile/mg-process-spread.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* A call tree shared by the items made from it. */
typedef struct _MgCodeTree MgCodeTree;
MgCodeTree *mg_code_tree_new (MgCallTree *tree);  /* takes tree */
MgCodeTree *mg_code_tree_ref (MgCodeTree *self);
void mg_code_tree_unref (MgCodeTree *self);
const MgCallTree *mg_code_tree_get (MgCodeTree *self);
/* Figures across the processes of PROFILE for the tree's functions (a
 * selection of several processes; mg-function-spread.h, built with the
 * tree's namer): takes SPREAD. */
void mg_code_tree_set_spread (MgCodeTree *self, MgProcessSpread *spread, MgProfile *profile);
gboolean mg_code_tree_has_spread (MgCodeTree *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCodeTree, mg_code_tree_unref)

#define MG_TYPE_CODE_ITEM (mg_code_item_get_type ())
G_DECLARE_FINAL_TYPE (MgCodeItem, mg_code_item, MG, CODE_ITEM, GObject)

/* Row i of the functions table. */
MgCodeItem *mg_code_item_new_function (MgCodeTree *tree, guint i);
/* A node of the top-down or bottom-up tree. */
MgCodeItem *mg_code_item_new_node (MgCodeTree *tree, MgCallTreeKind kind, guint node);

const char *mg_code_item_get_name (MgCodeItem *self);
guint64 mg_code_item_get_self (MgCodeItem *self);
guint64 mg_code_item_get_total (MgCodeItem *self);
/* Percent of the tree's samples. */
double mg_code_item_get_self_share (MgCodeItem *self);
double mg_code_item_get_total_share (MgCodeItem *self);
/* "file:line" (the file's base name), or "" when unknown. */
const char *mg_code_item_get_location (MgCodeItem *self);
/* The module's base name, or "" outside every module. */
const char *mg_code_item_get_module (MgCodeItem *self);
/* The node of a tree row; G_MAXUINT for a table row. */
guint mg_code_item_get_node (MgCodeItem *self);
/* The functions table's row of a table item; G_MAXUINT for a node. */
guint mg_code_item_get_row (MgCodeItem *self);
/* The function's id in the tree's namer; G_MAXUINT for none. */
guint mg_code_item_get_function_id (MgCodeItem *self);
/* The function's total share of each process's samples across processes
 * (min, mean, max and the process of each extreme); FALSE when the tree
 * has no such figures (one process) or for a tree node. */
gboolean mg_code_item_get_spread (MgCodeItem *self, MgSpreadFigures *out);
/* The Min (0), Mean (1) or Max (2) column's text: "12.5 %", min and max
 * with their process ("97.0 % (rank 3)"); "" without figures. */
char *mg_code_item_format_spread (MgCodeItem *self, guint which);
/* The children of a node, as items (NULL for a leaf or a table row). */
GListModel *mg_code_item_dup_children (MgCodeItem *self);

G_END_DECLS
