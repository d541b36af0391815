/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metric rows of a profile grouped as its MgMetricVisibility arranges
 * them: per section a collapsible header (the group's display name, its
 * description as tooltip) over one MgMetricRow per metric; rows and headers
 * show and hide as the visibility changes. The viewer window and the live
 * view of a run both use it. Which groups were collapsed is kept across
 * mg_metric_rows_set_visibility() calls (the live view rebuilds its rows
 * from every new live profile). Property "empty": no row is visible.
 * A group made of the activity metrics of one scope (plugins/activity.xml)
 * is one stacked row (MgActivityRow); in an MPI or multi-threaded run those
 * groups come first. */
#pragma once

#include <gtk/gtk.h>

#include "mg-metric-row.h"
#include "mg-metric-visibility.h"
#include "plot/mg-activity-series.h"
#include "plot/mg-time-view.h"
#include "plot/mg-view-export.h"

G_BEGIN_DECLS

#define MG_TYPE_METRIC_ROWS (mg_metric_rows_get_type ())
G_DECLARE_FINAL_TYPE (MgMetricRows, mg_metric_rows, MG, METRIC_ROWS, GtkWidget)

GtkWidget *mg_metric_rows_new (void);

/* Builds the rows of visibility's profile (NULL: none). label_group gives
 * every row's label column one width; may be NULL. */
void mg_metric_rows_set_visibility (MgMetricRows *self, MgMetricVisibility *visibility,
                                    MgTimeView *view, GtkSizeGroup *label_group);
gboolean mg_metric_rows_get_empty (MgMetricRows *self);

/* What is shown, read from the widgets: the ids of the metrics with a
 * visible row (each once, top to bottom), the visible headers' titles, and
 * the number of visible rows (a metric in two groups counts twice). */
char **mg_metric_rows_dup_visible_ids (MgMetricRows *self);
char **mg_metric_rows_dup_visible_titles (MgMetricRows *self);
guint mg_metric_rows_get_n_visible_rows (MgMetricRows *self);
/* A metric's first row, or NULL. */
MgMetricRow *mg_metric_rows_find_row (MgMetricRows *self, const char *metric_id);

/* The stacked activity graph of scope (an MgActivityGraph) standing for
 * its group's rows, or NULL. Its metrics count as visible rows while it
 * shows (the ids, the count and the export's groups list them). */
GtkWidget *mg_metric_rows_find_activity_graph (MgMetricRows *self, MgActivityScope scope);

/* Collapses or expands the visible group with this title; FALSE when there
 * is none. */
gboolean mg_metric_rows_set_expanded (MgMetricRows *self, const char *title, gboolean expanded);
gboolean mg_metric_rows_get_expanded (MgMetricRows *self, const char *title);

/* The visible groups as the export draws them. Free with g_ptr_array_unref. */
GPtrArray *mg_metric_rows_dup_view_groups (MgMetricRows *self);

G_END_DECLS
