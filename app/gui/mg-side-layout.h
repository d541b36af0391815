/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The layout of the profile page's row: the graphs, then the side panel
 * (its last child, a GtkRevealer). The side panel takes a share of the
 * width (MG_SIDE_LAYOUT_SHARE, between MG_SIDE_LAYOUT_MIN_WIDTH and
 * MG_SIDE_LAYOUT_MAX_WIDTH, never under its own minimum) instead of its
 * natural width, so it shrinks with the window and the graphs keep the
 * rest; while the revealer slides, it takes what the revealer asks. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MG_SIDE_LAYOUT_SHARE 0.28
#define MG_SIDE_LAYOUT_MIN_WIDTH 220
#define MG_SIDE_LAYOUT_MAX_WIDTH 380

#define MG_TYPE_SIDE_LAYOUT (mg_side_layout_get_type ())
G_DECLARE_FINAL_TYPE (MgSideLayout, mg_side_layout, MG, SIDE_LAYOUT, GtkLayoutManager)

GtkLayoutManager *mg_side_layout_new (void);
/* The side panel's width in a row @width wide, given its revealer's
 * minimum and natural widths (0 when hidden). */
int mg_side_layout_side_width (int width, int side_minimum, int side_natural);

G_END_DECLS
