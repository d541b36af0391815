/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Level of detail: what to draw for a visible time range at a pixel width,
 * in O(log windows + windows in range + pixels), so drawing cost depends on
 * pixels, not samples.
 *
 * Zoomed out (more than one window per two pixels) the points are per-pixel
 * columns: each holds the min of the mins, the max of the maxs, and the
 * time-weighted mean and standard deviation of the windows it overlaps.
 * Zoomed in, the points are the windows themselves (plus one on each side so
 * lines run to the edges), drawn through their centres. A point with no
 * value is a gap (NaN everywhere). GTK-free. */
#pragma once

#include <glib.h>

#include "mg-series-view.h"

G_BEGIN_DECLS

typedef struct {
  guint n_columns;    /* the pixel width asked for */
  double t0, t1;      /* the visible range */
  gboolean by_window; /* points are windows, not columns */
  guint n_points;
  double *times;      /* where each point is drawn (centre) */
  double *starts;     /* the time span each point stands for */
  double *ends;
  double *mins;       /* NaN = gap */
  double *maxs;
  double *means;
  double *stddevs;    /* 0 for one process */
  double data_min;    /* over the visible range; NaN when all gaps */
  double data_max;
  /* private */
  guint capacity;
  double *weights;
} MgLod;

MgLod *mg_lod_new (guint n_columns);
/* Resizes (reallocates only when growing). */
void mg_lod_set_n_columns (MgLod *lod, guint n_columns);
/* Column c covers [t0 + c·dt, t0 + (c+1)·dt), dt = (t1 - t0) / n_columns. */
void mg_lod_compute (MgLod *lod, const MgSeriesView *series, double t0, double t1);
/* Always per-pixel columns (n_points == n_columns), however few windows. */
void mg_lod_compute_columns (MgLod *lod, const MgSeriesView *series, double t0, double t1);
gboolean mg_lod_is_gap (const MgLod *lod, guint point);
void mg_lod_free (MgLod *lod);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgLod, mg_lod_free)

G_END_DECLS
