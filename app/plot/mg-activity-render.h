/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity row drawn with cairo alone (the widget and the exports):
 * per pixel column the classes stacked from the bottom (computing, MPI,
 * I/O, waiting), each its share of 0–100 % of the height, in fixed colours
 * that keep at least 3:1 contrast against both the light and the dark
 * background; across processes the mean shares, with computing's min and
 * max across processes as two thin lines (the band of the other rows); a
 * legend strip on top naming each colour. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "defs/mg-units.h"
#include "mg-activity-series.h"

G_BEGIN_DECLS

typedef struct {
  double x, y, width, height;
  const MgActivitySeries *series;
  double t0, t1;
  gboolean dark;
  gboolean draw_legend; /* the top LEGEND_HEIGHT of the rectangle */
  gboolean has_selection;
  double selection_start, selection_end;
  double hover_time; /* < 0: none */
  double text_scale; /* the legend's size against 10 px: the desktop's large text (1 in _init) */
} MgActivityRenderParams;

/* Defaults: legend on, light, no selection or hover. */
void mg_activity_render_params_init (MgActivityRenderParams *params);
void mg_activity_render (cairo_t *cr, const MgActivityRenderParams *params);

/* The fixed colour of a class (the same in both themes). */
MgRgba mg_activity_render_class_colour (MgActivityClass klass);
/* The height the legend takes at the top when drawn, at text scale 1. */
double mg_activity_render_legend_height (void);
/* The stacked area's rectangle within params' (below the legend). */
void mg_activity_render_plot_area (const MgActivityRenderParams *params, double *y,
                                   double *height);

G_END_DECLS
