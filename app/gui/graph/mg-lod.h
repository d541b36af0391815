/* Level of detail: one column per pixel. For a visible time range and a
 * pixel width, each column gets the min of the mins, the max of the maxs, the
 * time-weighted mean and standard deviation of the windows it overlaps, or a
 * gap (NaN everywhere) when none of them had a value. Costs O(log windows +
 * windows in range + columns), so drawing depends on pixels, not samples.
 * GTK-free. */
#pragma once

#include <glib.h>

#include "mg-series-view.h"

G_BEGIN_DECLS

typedef struct {
  guint n_columns;
  double t0, t1;      /* the range the columns cover */
  double *mins;       /* per column; NaN = gap */
  double *maxs;
  double *means;
  double *stddevs;    /* 0 for one process */
  double data_min;    /* over all columns; NaN when every column is a gap */
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
gboolean mg_lod_is_gap (const MgLod *lod, guint column);
void mg_lod_free (MgLod *lod);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgLod, mg_lod_free)

G_END_DECLS
