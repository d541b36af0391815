/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane's flame graph (an icicle or a flame:
 * plot/mg-flame-graph.h): a click
 * on a function zooms to it, a click on one of the rows above it (its
 * callers, or "All") zooms back out; the tooltip gives the function's
 * shares and samples. Signals "function-selected" (the clicked box's
 * function, NULL for "All") and "function-activated" (double click),
 * each with one const char *. */
#pragma once

#include <gtk/gtk.h>

#include "mg-code-item.h"
#include "plot/mg-flame-graph.h"

G_BEGIN_DECLS

#define MG_TYPE_FLAME_VIEW (mg_flame_view_get_type ())
G_DECLARE_FINAL_TYPE (MgFlameView, mg_flame_view, MG, FLAME_VIEW, GtkWidget)

GtkWidget *mg_flame_view_new (void);
/* NULL: nothing drawn. A new tree is shown whole. */
void mg_flame_view_set_tree (MgFlameView *self, MgCodeTree *tree);

/* A search's functions (by namer id; NULL: none) highlighted, the rest
 * faded. */
void mg_flame_view_set_matches (MgFlameView *self, GBytes *matches);
/* For tests: the boxes drawn highlighted. */
guint mg_flame_view_count_matched_boxes (MgFlameView *self);

/* Root on top (the default) or at the bottom; the keys' Up and Down
 * follow the screen. */
void mg_flame_view_set_orientation (MgFlameView *self, MgFlameOrientation orientation);
MgFlameOrientation mg_flame_view_get_orientation (MgFlameView *self);

/* Coloured by module (the default) or by activity: computing green to
 * waiting-in-MPI blue, the tooltip giving both shares. */
void mg_flame_view_set_colouring (MgFlameView *self, MgFlameColouring colouring);
MgFlameColouring mg_flame_view_get_colouring (MgFlameView *self);

/* The box the keys move (Up/Down: caller/callee in an icicle, callee/caller in a flame, Left/Right: the
 * neighbours in its row, Enter zooms to it, Enter again activates its
 * function, Escape zooms out by one caller): its node, G_MAXUINT before any. The
 * actions flame.up, .down, .previous, .next, .zoom and .zoom-out. */
guint mg_flame_view_get_selected (MgFlameView *self);

/* For tests: the node zoomed to (MG_CALL_TREE_ROOT: none), the boxes
 * drawn, and a click at (x, y) in the widget. */
guint mg_flame_view_get_focus (MgFlameView *self);
const GArray *mg_flame_view_get_boxes (MgFlameView *self);
void mg_flame_view_click (MgFlameView *self, double x, double y);
/* A double click at (x, y): "function-activated" for its box. */
void mg_flame_view_double_click (MgFlameView *self, double x, double y);
/* The tooltip's text at (x, y), or NULL where no box is. */
char *mg_flame_view_dup_tooltip (MgFlameView *self, double x, double y);

G_END_DECLS
