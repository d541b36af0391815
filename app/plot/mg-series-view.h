/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One series as the graphs read it: sample windows and per window the
 * min / max / mean (and variance across processes) — either the aggregate
 * across processes or one process's own series. Plain arrays borrowed from
 * the profile (or from a test), so LOD and statistics are GTK-free and can be
 * tested on crafted data. NaN = no value (a gap). */
#pragma once

#include <glib.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint n;
  const double *starts;      /* NULL: window i starts where i-1 ends */
  double first_start;        /* starts == NULL: where window 0 starts */
  const double *ends;        /* ascending */
  const double *mins;
  const double *maxs;
  const double *means;
  const double *vars;        /* NULL: no spread (one process) */
  const gint32 *min_process; /* NULL: `process` held every value */
  const gint32 *max_process;
  int process;               /* -1 aggregate; else the process shown */
  /* One process's values (a process chosen, or a run of one): there is no
   * spread across processes, and the graphs draw no min–max band (it
   * would show only the variation within a pixel's windows). */
  gboolean one_process;
} MgSeriesView;

/* Fills view for metric (aggregate when process < 0). Returns FALSE when the
 * metric has no time series (single-value metric, bad index) or that process
 * never reported it; view is then empty (n = 0). */
gboolean mg_series_view_init (MgSeriesView *view, MgProfile *profile, guint metric,
                              int process);

/* Fills view with a process's own series (series->n > 0; info: that
 * process's, for where its first window starts). */
void mg_series_view_init_process (MgSeriesView *view, const MgProcessSeries *series,
                                  const MgProcessInfo *info, int process);

double mg_series_view_window_start (const MgSeriesView *view, guint i);
/* Index of the first window ending after t (n if none): binary search. */
guint mg_series_view_find (const MgSeriesView *view, double t);
/* Index of the window holding t, or -1. */
int mg_series_view_window_at (const MgSeriesView *view, double t);
/* Smallest min and largest max over the whole series; FALSE if all gaps. */
gboolean mg_series_view_get_extent (const MgSeriesView *view, double *min, double *max);

G_END_DECLS
