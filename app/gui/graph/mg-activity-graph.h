/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity row's graph (issue 30): a profile's main-thread or
 * all-threads activity as stacked classes over time (mg-activity-render.h),
 * following a shared MgTimeView like the metric graphs: its range, its
 * process (the aggregate's mean shares with computing's min and max, or
 * the chosen process's own), the hover line and the selection. A drag
 * selects a range; a click selects the sample windows under the pixel
 * clicked, so the code views show the stacks sampled there.
 *
 * Focusable: Left / Right move the keyboard cursor (the hover line) by a
 * hundredth of the view, Enter or Space selects the windows at it, Escape
 * clears the selection; the accessible description is the shares at the
 * cursor. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-activity-series.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_ACTIVITY_GRAPH (mg_activity_graph_get_type ())
G_DECLARE_FINAL_TYPE (MgActivityGraph, mg_activity_graph, MG, ACTIVITY_GRAPH, GtkWidget)

GtkWidget *mg_activity_graph_new (MgProfile *profile, MgActivityScope scope, MgTimeView *view);

MgTimeView *mg_activity_graph_get_view (MgActivityGraph *self);
MgActivityScope mg_activity_graph_get_scope (MgActivityGraph *self);

/* What a click at x (widget coordinates) does: selects the windows under
 * that pixel column. FALSE (and nothing changed) outside every window. */
gboolean mg_activity_graph_select_at (MgActivityGraph *self, double x);

/* The shares at time t as the tooltip says them ("Computing 75 % · MPI
 * 25 % · …"), NULL outside every window. */
char *mg_activity_graph_describe_time (MgActivityGraph *self, double t);

G_END_DECLS
