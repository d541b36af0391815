/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Draws one metric's graph with cairo alone (no GTK), so the widget, PNG,
 * SVG and PDF export all share it: background, grid and y-axis labels, the
 * min–max band across processes (low alpha; none when the series is one
 * process's), the mean ± standard deviation
 * shading (medium alpha), the mean line (full colour), gaps left empty,
 * the selection highlight and the hover line. Labels use cairo's own text
 * API so every export carries them. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "mg-lod.h"
#include "defs/mg-units.h"

G_BEGIN_DECLS

typedef struct {
  double x, y, width, height;  /* the rectangle to draw into (user units) */
  const MgMetricDef *def;
  const MgSeriesView *series;
  double t0, t1;               /* visible time range */
  /* Optional: columns already computed for (series, t0, t1) with one
   * column per device pixel of width; NULL computes them. */
  const MgLod *lod;
  /* Optional: the y axis; NULL fits one (visible data when
   * auto_zoom_vertical, else the whole series). */
  const MgAxis *axis;
  gboolean auto_zoom_vertical;
  gboolean dark;               /* dark theme colours */
  gboolean draw_labels;        /* y tick labels (on by default in _init) */
  gboolean has_selection;
  double selection_start, selection_end;
  double hover_time;           /* < 0: none */
  double text_scale;           /* labels' size against 10 px: the desktop's large text (1 in _init) */
} MgGraphRenderParams;

/* Defaults: no selection, no hover, labels on, light. */
void mg_graph_render_params_init (MgGraphRenderParams *params);

void mg_graph_render (cairo_t *cr, const MgGraphRenderParams *params);

/* The shared time axis for [t0, t1] drawn in a rectangle: baseline, ticks
 * and labels ("0 s", "1.5 s", "2 min"), plus the selection when given;
 * labels at text_scale times their 10 px. */
void mg_graph_render_time_axis (cairo_t *cr, double x, double y, double width,
                                double height, double t0, double t1,
                                gboolean has_selection, double selection_start,
                                double selection_end, double hover_time, gboolean dark,
                                double text_scale);

/* The metric's colour: its definition's, else its type's. */
MgRgba mg_graph_render_metric_colour (const MgMetricDef *def, gboolean dark);
/* The background the graph is drawn on. */
MgRgba mg_graph_render_background (gboolean dark);
/* The selection's tint (drawn at 14 % inside, 60 % for its edges) and the
 * hover line's colour, for widgets drawing them as overlays. */
MgRgba mg_graph_render_selection_colour (gboolean dark);
MgRgba mg_graph_render_hover_colour (gboolean dark);
/* The hover's vertical line at x, from y down height, in the hover colour
 * (the graphs' and the activity rows' alike). */
void mg_graph_render_hover_line (cairo_t *cr, double x, double y, double height, gboolean dark);

/* The axis a graph would use (same rules as mg_graph_render with axis NULL).
 * lod may be NULL when !auto_zoom_vertical. max_ticks by height. */
MgAxis *mg_graph_render_fit_axis (const MgMetricDef *def, const MgSeriesView *series,
                                  const MgLod *lod, gboolean auto_zoom_vertical,
                                  double height);

G_END_DECLS
