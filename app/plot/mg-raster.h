/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs' rasteriser (mg-graph-render.c draws pixel surfaces with it):
 * per column of device pixels three layers, the min–max band, mean ± sd
 * (kept inside the band) and the mean line, as the alpha of one colour in
 * an A8 mask. The layers are all the metric's colour, so their alphas
 * combine per pixel as 1 - Π(1 - αᵢ·coverageᵢ), a layer's coverage being
 * how much of the pixel's row the layer's span covers. Cairo-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One column per device pixel; a NaN mean is a gap (nothing drawn). */
typedef struct {
  guint n;
  const double *lo, *hi, *mean, *sd;
} MgRasterColumns;

/* Values to device rows: y = y_bottom - (v - lo)·scale in user units, then
 * (y - y0)·sy. */
typedef struct {
  double y_bottom, scale, lo;
  double y0, sy;
  float alphas[3];   /* band, mean ± sd, line */
  double line_width; /* user units */
} MgRasterMap;

/* Draws the columns into pixels (an A8 mask of cols->n × height, stride
 * bytes a row, cleared by the caller). Sets [row0, row1) to the rows any
 * column touches (row0 >= row1: none, every column a gap). */
void mg_raster (guint8 *pixels, int stride, int height, const MgRasterColumns *cols,
                const MgRasterMap *map, int *row0, int *row1);

G_END_DECLS
