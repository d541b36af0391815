/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's picture without GTK: one metric's processes × time
 * as a grid of values (a row per process, a column per device pixel of the
 * visible range), the rows sorted by a figure over the range the figures
 * describe, and the grid drawn as an image surface of one pixel per cell
 * coloured on one ramp from the grid's lowest value (cold) to its highest
 * (hot). NaN = no value (a gap), drawn transparent.
 *
 * Each cell holds the statistic the sort names, over the process's own
 * sample windows that overlap the column: the time-weighted mean for
 * process order and for "mean", the largest max for "max", the smallest
 * min for "min". So a spike shorter than a column stays in its cell when
 * sorted by max. When the picture has fewer pixel rows than processes, a
 * pixel row shows the most extreme of its processes in the sort's
 * direction (the lowest for "min", the highest otherwise): an outlier is
 * never averaged away. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

typedef enum {
  MG_HEAT_SORT_PROCESS, /* the processes' order (ranks) */
  MG_HEAT_SORT_MEAN,    /* highest mean first */
  MG_HEAT_SORT_MAX,     /* highest max first */
  MG_HEAT_SORT_MIN,     /* lowest min first */
} MgHeatSort;

#define MG_HEAT_SORT_LAST MG_HEAT_SORT_MIN

/* One metric's own series of the processes shown, copied from the
 * profile (mg_profile_dup_process_series): what grids are computed from,
 * by any thread, however many processes, without disturbing the
 * processes the profile keeps decoded for the graphs. Building it reads
 * every process's series: from a worker thread for a profile read from a
 * file, which decodes each process's block whole (1024 processes × 4096
 * windows of one metric: 0.13 s of CPU, bench-heat-map; it grows with the
 * metrics in the file). */
typedef struct _MgHeatSource MgHeatSource;

/* NULL, with error, when the metric has no time series, a process's
 * series cannot be read (the message names the file and the process) or
 * cancellable was cancelled. */
MgHeatSource *mg_heat_source_new (MgProfile *profile, guint metric, const guint *processes,
                                  guint n_processes, GCancellable *cancellable, GError **error);
void mg_heat_source_free (MgHeatSource *source);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgHeatSource, mg_heat_source_free)
guint mg_heat_source_get_metric (const MgHeatSource *source);

typedef struct {
  guint n_rows;
  guint n_columns;
  double t0, t1;        /* the columns' range: column c is t0 + [c, c+1)·(t1-t0)/n_columns */
  double f0, f1;        /* the range the row figures (and the order) describe */
  MgHeatSort sort;
  guint *processes;     /* the process of each row, top row first */
  float *cells;         /* n_rows × n_columns, row-major, rows in display order */
  /* Per row over [f0, f1]: time-weighted mean, max, min (NaN: no value). */
  double *row_means;
  double *row_maxs;
  double *row_mins;
  double lo, hi;        /* the colour scale: the cells' extent (NaN: all gaps) */
  guint *given;         /* each row's place in the processes given (ties' order) */
} MgHeatMap;

/* The grid of the source's metric over [t0, t1] in n_columns columns, one
 * row per process of the source (in its order for MG_HEAT_SORT_PROCESS),
 * sorted by sort over [f0, f1] (ties and rows without a value keep their
 * order, the latter last). */
MgHeatMap *mg_heat_map_new (const MgHeatSource *source, double t0, double t1, guint n_columns,
                            double f0, double f1, MgHeatSort sort);
void mg_heat_map_free (MgHeatMap *map);
/* The figures over [f0, f1] and the order by them anew, the cells kept:
 * what a new selection changes (source as given to _new). */
void mg_heat_map_set_figures_range (MgHeatMap *map, const MgHeatSource *source, double f0,
                                    double f1);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgHeatMap, mg_heat_map_free)

/* The cell's value (NaN: none or out of the grid). */
double mg_heat_map_get (const MgHeatMap *map, guint row, guint column);
/* The row showing process, or -1. */
int mg_heat_map_row_of_process (const MgHeatMap *map, guint process);
/* The first row drawn at pixel row y of a picture height pixels high
 * (mg_heat_map_render), clamped to the grid. */
guint mg_heat_map_row_at (const MgHeatMap *map, int y, int height);
/* The column of time t, clamped to the grid. */
guint mg_heat_map_column_at (const MgHeatMap *map, double t);

/* The ramp: fraction 0 (cold) to 1 (hot), clamped; 8-bit sRGB. The ends
 * are MG_HEAT_COLD and MG_HEAT_HOT (0xRRGGBB). */
#define MG_HEAT_COLD 0x440154
#define MG_HEAT_HOT 0xfde725
void mg_heat_map_colour (double fraction, guint8 rgb[3]);
/* Where value falls on the map's scale: 0 at lo, 1 at hi; 0.5 when the
 * scale is one value; NaN for NaN. */
double mg_heat_map_fraction (const MgHeatMap *map, double value);

/* The picture: n_columns × height pixels (ARGB32), height >= 1. */
cairo_surface_t *mg_heat_map_render (const MgHeatMap *map, int height);

/* A row's figure of the sort's statistic (the mean for process order). */
double mg_heat_map_row_figure (const MgHeatMap *map, guint row);
/* The row with the most extreme figure (highest; lowest for "min"), or
 * -1 when no row has a value. */
int mg_heat_map_extreme_row (const MgHeatMap *map);
/* The rows' figures as bars beside the picture: width × height pixels,
 * pixel rows merged as in mg_heat_map_render (the extreme kept), each bar
 * long from 1 pixel at the scale's lo to width at its hi, in the ramp's
 * colour of its value: the outlier is the bar that sticks out. */
cairo_surface_t *mg_heat_map_render_figures (const MgHeatMap *map, int width, int height);

G_END_DECLS
