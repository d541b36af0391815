/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One metric's graph row: draws with mg_graph_render, follows a shared
 * MgTimeView and drives it. Motion sets the view's hover time (so one
 * vertical line crosses every row) and shows a tooltip with the time, the
 * min / mean / max there and which process held min and max. Drag selects a
 * time range; Ctrl+scroll zooms around the pointer; horizontal scroll or
 * Shift+scroll pans; double-click resets to the whole run.
 *
 * Focusable, with a keyboard cursor: the same hover line, moved by keys.
 *   Left / Right        the cursor by a hundredth of the view (on a grid of
 *                       that step); the view pans, its width kept, to show it
 *   Home / End          the cursor to the start / end of the run
 *   Shift + any of them extends the selection from its anchor: the
 *                       selection's other end when the cursor is at one of
 *                       its ends, else where the cursor was
 *   + / -               zoom in / out around the cursor (the centre without)
 *   Escape              clears the selection
 * Ctrl and Alt combinations are left to the window (Ctrl+Left pans, ...).
 * While the keys placed it, the line stays when the pointer leaves, and the
 * tooltip describes the cursor's time; moving the pointer takes it over.
 * The focused graph's accessible description is the tooltip's text at the
 * cursor, and the selected range.
 *
 * Height request 80 px by default (gtk_widget_set_size_request changes
 * it). */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"
#include "plot/mg-time-view.h"
#include "defs/mg-units.h"

G_BEGIN_DECLS

#define MG_TYPE_METRIC_GRAPH (mg_metric_graph_get_type ())
G_DECLARE_FINAL_TYPE (MgMetricGraph, mg_metric_graph, MG, METRIC_GRAPH, GtkWidget)

GtkWidget *mg_metric_graph_new (MgProfile *profile, guint metric, MgTimeView *view);

MgProfile *mg_metric_graph_get_profile (MgMetricGraph *self);
guint mg_metric_graph_get_metric (MgMetricGraph *self);
MgTimeView *mg_metric_graph_get_view (MgMetricGraph *self);
void mg_metric_graph_set_view (MgMetricGraph *self, MgTimeView *view);

/* The y axis as currently drawn (for the current view, process and
 * auto-zoom; fits the widget's height). Owned by the widget, valid until the
 * next change. */
const MgAxis *mg_metric_graph_get_axis (MgMetricGraph *self);

/* The tooltip text at time t (see mg_selection_stats_describe_point). */
char *mg_metric_graph_describe_time (MgMetricGraph *self, double t);

G_END_DECLS
