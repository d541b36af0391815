/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity metrics of one scope (main thread or all threads) as one
 * row: a label column naming it (the group's description as tooltip) next
 * to an MgActivityGraph, which stacks the classes and carries the legend.
 * The metric rows show it in place of the scope's six metric rows. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-activity-series.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_ACTIVITY_ROW (mg_activity_row_get_type ())
G_DECLARE_FINAL_TYPE (MgActivityRow, mg_activity_row, MG, ACTIVITY_ROW, GtkWidget)

/* description: the tooltip of the label column (may be NULL). */
GtkWidget *mg_activity_row_new (MgProfile *profile, MgActivityScope scope, MgTimeView *view,
                                const char *description, GtkSizeGroup *label_group);

GtkWidget *mg_activity_row_get_graph (MgActivityRow *self);
MgActivityScope mg_activity_row_get_scope (MgActivityRow *self);

G_END_DECLS
