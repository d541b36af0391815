/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview: one metric as a heat map of processes × time (a row
 * per process, top to bottom in the chosen order; time across, as the
 * view's visible range; colour by value on the scale its legend shows),
 * with the rank labels on the left, the shared time axis below and a
 * choice of metric and of order (process order, highest mean, highest
 * max, lowest min). The picture is computed by app/plot's mg-heat-map.c at
 * one column per device pixel from a copy of the metric's series of every
 * process (read in a worker thread when the metric is chosen), and kept
 * until the range, the size, the metric or the order changes; a selection
 * re-sorts the kept grid; hover only moves overlays.
 *
 * A click on a row (or Enter on the row the Up/Down keys chose) emits
 * "process-activated" with that process; the row of the view's process
 * is outlined. Processes shown: those that are not helpers of the launch
 * (they are in no statistic across processes either). */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-heat-map.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_HEAT_SORT (mg_heat_sort_get_type ())
GType mg_heat_sort_get_type (void);

#define MG_TYPE_RANK_OVERVIEW (mg_rank_overview_get_type ())
G_DECLARE_FINAL_TYPE (MgRankOverview, mg_rank_overview, MG, RANK_OVERVIEW, GtkWidget)

GtkWidget *mg_rank_overview_new (MgProfile *profile, MgTimeView *view, const char *metric_id);

MgProfile *mg_rank_overview_get_profile (MgRankOverview *self);
void mg_rank_overview_set_profile (MgRankOverview *self, MgProfile *profile);
MgTimeView *mg_rank_overview_get_view (MgRankOverview *self);
void mg_rank_overview_set_view (MgRankOverview *self, MgTimeView *view);
/* A time-domain metric of the profile; another id shows the first one. */
const char *mg_rank_overview_get_metric_id (MgRankOverview *self);
void mg_rank_overview_set_metric_id (MgRankOverview *self, const char *metric_id);
MgHeatSort mg_rank_overview_get_sort (MgRankOverview *self);
void mg_rank_overview_set_sort (MgRankOverview *self, MgHeatSort sort);

/* The grid on screen (computed now if it is not), or NULL before the
 * first size allocation, while the series are read (in a worker thread,
 * once per metric) or without a time-domain metric: for tests. */
const MgHeatMap *mg_rank_overview_get_heat_map (MgRankOverview *self);
/* The heat map's drawing area (for tests: clicks, pixels). */
GtkWidget *mg_rank_overview_get_heat_area (MgRankOverview *self);
/* How long the last computation of the grid and its picture took, in
 * microseconds. */
gint64 mg_rank_overview_get_last_compute_us (MgRankOverview *self);

G_END_DECLS
