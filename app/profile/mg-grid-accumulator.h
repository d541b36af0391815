/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile's common grid of sample windows, and the accumulator that
 * puts one process's samples of one metric onto it (the rules: "How the
 * aggregates are computed" in docs/profile-format.md). GTK-free. */
#pragma once

#include <math.h>

#include "format/mg-bounded-mean.h"
#include "mg-builder-process.h"

G_BEGIN_DECLS

typedef struct {
  guint n;
  double end;       /* the grid spans (0, end] */
  const double *starts;
  const double *ends;
  double scale;     /* windows per second: window of t is about t × scale */
  double width;     /* a stable grid's window width, 0: uniform */
} MgGrid;

/* One process's values of one metric on the common grid. */
typedef struct {
  double *weight;   /* summed overlap (s) of its samples with the window */
  double *wmean;    /* overlap-weighted sum of means */
  double *points;   /* zero-length samples in the window, and their sum: */
  double *pmean;    /*   used only where no sample has a positive overlap */
  double *min;
  double *max;
} MgGridAcc;

/* A stable grid's window width: the smallest power of two (s) that makes
 * at most max windows up to end. */
double mg_grid_stable_width (double end, guint max);
/* Windows (start, end] from 0 to end, n_windows of them, uniform or of a
 * stable width (> 0): starts holds 2 × n_windows, the ends after the
 * starts. */
void mg_grid_lay (MgGrid *grid, guint n_windows, double end, double width, double *starts);
/* The window that holds index (a time × scale), within the grid. */
guint mg_grid_clamp (const MgGrid *grid, double index);

/* Where each of the process's samples falls on windows from..n-1: every
 * metric of the process spreads its values through this one span. */
void mg_grid_span_build (MgBuilderProcess *p, const MgGrid *grid, guint from);

/* The accumulator's windows from..n-1 hold the process's samples of one
 * metric (row: its mins, maxs and means); sparse: one reading each, in the
 * window of the sample's end. */
void mg_grid_acc_fill (MgGridAcc *acc, const MgGrid *grid, guint from,
                       const MgBuilderProcess *process, const double *row, gboolean sparse);

/* The process's value in window w: mean, min, max; FALSE in a gap. Inline:
 * asked for every window of every process and metric. */
static inline gboolean
mg_grid_acc_get (const MgGridAcc *acc, guint w, double *mean, double *min, double *max)
{
  double lo = isfinite (acc->min[w]) ? acc->min[w] : NAN;
  double hi = isfinite (acc->max[w]) ? acc->max[w] : NAN;

  if (acc->weight[w] > 0.0)
    *mean = mg_bounded_mean (acc->wmean[w], acc->weight[w], lo, hi);
  else if (acc->points[w] > 0.0)
    *mean = mg_bounded_mean (acc->pmean[w], acc->points[w], lo, hi);
  else
    return FALSE;
  *min = isnan (lo) ? *mean : lo;
  *max = isnan (hi) ? *mean : hi;
  return TRUE;
}

G_END_DECLS
