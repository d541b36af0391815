/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The flame graph of a call tree (issue 30), drawn as an icicle (the
 * whole selection on top, each function below what called it) or as a
 * flame (the whole selection at the bottom, callees above), each box as
 * wide as its share of the samples. Zooming to a node makes it the full width,
 * its callers above it too. Layout, hit test and cairo drawing, GTK-free
 * (the widget is app/gui/mg-flame-view.c). */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "plot/mg-call-tree.h"

G_BEGIN_DECLS

typedef enum {
  MG_FLAME_ICICLE, /* the root on top */
  MG_FLAME_FLAME,  /* the root at the bottom */
} MgFlameOrientation;

typedef enum {
  MG_FLAME_BY_MODULE,   /* a hue per module */
  MG_FLAME_BY_ACTIVITY, /* computing green to waiting-in-MPI blue */
} MgFlameColouring;

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
/* Where row DEPTH starts, from the top of a graph HEIGHT tall. */
double mg_flame_row_top (guint depth, MgFlameOrientation orientation, double height,
                         double row_height);
/* The row at Y from the top of a graph HEIGHT tall, or -1 outside it. */
int mg_flame_row_at (double y, MgFlameOrientation orientation, double height,
                     double row_height);
/* The colour of a function's boxes: by module, so a library's code reads
 * as one hue; lighter in a light theme. */
void mg_flame_colour (const MgCallFunction *function, gboolean dark, double rgb[3]);
/* Draws BOXES in WIDTH × (rows × ROW_HEIGHT) at the origin; the root's
 * box is named ROOT_LABEL. */
void mg_flame_render (cairo_t *cr, const MgCallTree *tree, const GArray *boxes, double width,
                      double row_height, gboolean dark, const char *root_label);
/* The same as an icicle with the boxes of a search's functions (MATCHES
 * by namer id, N_MATCHES long; NULL: no search) in the highlight colour
 * and the others faded. */
void mg_flame_render_matches (cairo_t *cr, const MgCallTree *tree, const GArray *boxes,
                              double width, double row_height, gboolean dark,
                              const char *root_label, const guint8 *matches, guint n_matches);
/* The colour of a box whose samples were WAITING_SHARE (0 to 1) waiting
 * in MPI, the rest computing: the activity row's Computing and MPI
 * colours (mg-activity-render.h) mixed in that proportion. */
void mg_flame_activity_colour (double waiting_share, double rgb[3]);
/* How mg_flame_draw draws: the size, the orientation, the colouring, the theme, the
 * root's name, and a search's functions (MATCHES by namer id, N_MATCHES
 * long; NULL: no search). */
typedef struct {
  double width, height, row_height;
  MgFlameOrientation orientation;
  MgFlameColouring colouring;
  gboolean dark;
  const char *root_label;
  const guint8 *matches;
  guint n_matches;
} MgFlameStyle;

void mg_flame_draw (cairo_t *cr, const MgCallTree *tree, const GArray *boxes,
                    const MgFlameStyle *style);
/* The highlight colour of a found function's boxes. */
void mg_flame_match_colour (gboolean dark, double rgb[3]);

G_END_DECLS
