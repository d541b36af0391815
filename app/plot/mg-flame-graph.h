/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The flame graph of a call tree, drawn as an icicle (issue 30): the
 * whole selection on top, each function below what called it, as wide as
 * its share of the samples. Zooming to a node makes it the full width,
 * its callers above it too. Layout, hit test and cairo drawing, GTK-free
 * (the widget is app/gui/mg-flame-view.c). */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "plot/mg-call-tree.h"

G_BEGIN_DECLS

typedef struct {
  guint node;     /* of the top-down tree; MG_CALL_TREE_ROOT on top */
  guint depth;    /* row, 0 at the top */
  double x0, x1;  /* fractions of the width */
} MgFlameBox;

/* The boxes of TREE zoomed to FOCUS (MG_CALL_TREE_ROOT: everything):
 * parents before children, boxes narrower than MIN_WIDTH (a fraction)
 * left out with what they called. */
GArray *mg_flame_layout (const MgCallTree *tree, guint focus, double min_width);
/* The box at fraction X of the width in row DEPTH, or -1. */
int mg_flame_hit (const GArray *boxes, double x, guint depth);
/* The colour of a function's boxes: by module, so a library's code reads
 * as one hue; lighter in a light theme. */
void mg_flame_colour (const MgCallFunction *function, gboolean dark, double rgb[3]);
/* Draws BOXES in WIDTH × (rows × ROW_HEIGHT) at the origin; the root's
 * box is named ROOT_LABEL. */
void mg_flame_render (cairo_t *cr, const MgCallTree *tree, const GArray *boxes, double width,
                      double row_height, gboolean dark, const char *root_label);
/* The same with the boxes of a search's functions (MATCHES by namer id,
 * N_MATCHES long; NULL: no search) in the highlight colour and the others
 * faded. */
void mg_flame_render_matches (cairo_t *cr, const MgCallTree *tree, const GArray *boxes,
                              double width, double row_height, gboolean dark,
                              const char *root_label, const guint8 *matches, guint n_matches);
/* The highlight colour of a found function's boxes. */
void mg_flame_match_colour (gboolean dark, double rgb[3]);

G_END_DECLS
