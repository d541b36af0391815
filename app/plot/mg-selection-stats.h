/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The figures a row shows: min / mean / max of a metric over [t0, t1] (the
 * selection, or the whole run) and which process held the min and the max.
 * The mean is time-weighted over the windows (a window half inside counts
 * half). Also the figures at one point in time, for the hover tooltip.
 * GTK-free. */
#pragma once

#include <glib.h>

#include "mg-series-view.h"

G_BEGIN_DECLS

typedef struct {
  double min, mean, max;  /* NaN when no window in the range had a value */
  int min_process;        /* process index, -1 when unknown */
  int max_process;
  guint n_windows;        /* windows with a value in the range */
} MgSelectionStats;

/* Returns FALSE (and NaN figures) when there is no value in [t0, t1]. */
gboolean mg_selection_stats_compute (const MgSeriesView *series, double t0, double t1,
                                     MgSelectionStats *out);
/* The window holding t; FALSE in a gap or outside the run. */
gboolean mg_selection_stats_at (const MgSeriesView *series, double t, MgSelectionStats *out);

/* "rank 3" when the process has an MPI rank, else "pid 1234"; NULL for -1. */
char *mg_selection_stats_describe_process (MgProfile *profile, int process);
/* The hover tooltip text: the time, then Max / Mean / Min at t and which
 * process held max and min; says "No value" in a gap. */
char *mg_selection_stats_describe_point (MgProfile *profile, guint metric, int process,
                                         double t);

G_END_DECLS
