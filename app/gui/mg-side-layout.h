/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The layout of the profile page's row: the graphs, then the side panel
 * (its last child, a GtkRevealer). The side panel takes a share of the
 * width (MG_SIDE_LAYOUT_SHARE, between MG_SIDE_LAYOUT_MIN_WIDTH and
 * MG_SIDE_LAYOUT_MAX_WIDTH, never under its own minimum) instead of its
 * natural width, so it shrinks with the window and the graphs keep the
 * rest; while the revealer slides, it takes what the revealer asks.
 * Below MG_SIDE_LAYOUT_OVERLAY_BELOW px the panel lies over the graphs'
 * right part (a flap, CSS class "side-overlay" on the revealer), as wide
 * as it wants up to MG_SIDE_LAYOUT_MAX_WIDTH and half the row, and the
 * graphs keep the whole width: at 800 px, beside it, they kept 38 %. It
 * lies over them too when the graphs' and its own minimum widths do not fit
 * side by side (large text: a 1024 px window was pushed to 1267 px), so
 * the row needs only the wider of the two. Right to left, mirrored: the
 * panel at the left edge. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MG_SIDE_LAYOUT_SHARE 0.28
#define MG_SIDE_LAYOUT_MIN_WIDTH 220
#define MG_SIDE_LAYOUT_MAX_WIDTH 380
#define MG_SIDE_LAYOUT_OVERLAY_BELOW 1000

#define MG_TYPE_SIDE_LAYOUT (mg_side_layout_get_type ())
G_DECLARE_FINAL_TYPE (MgSideLayout, mg_side_layout, MG, SIDE_LAYOUT, GtkLayoutManager)

GtkLayoutManager *mg_side_layout_new (void);
/* The side panel's width in a row @width wide, given its revealer's
 * minimum and natural widths (0 when hidden). */
int mg_side_layout_side_width (int width, int side_minimum, int side_natural);
/* TRUE when a row @width wide lays the side panel over the graphs. */
gboolean mg_side_layout_overlays (int width);

G_END_DECLS
