/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared time axis (seconds from the start) for the view's visible
 * range: a small widget placed above or below the rows, with the same width
 * as the graph rows so times line up. The pointer on it chooses times as on
 * a graph (mg-time-selection.h): hover line, drag to select, click to
 * clear. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-time-view.h"

G_BEGIN_DECLS

#define MG_TYPE_TIME_AXIS (mg_time_axis_get_type ())
G_DECLARE_FINAL_TYPE (MgTimeAxis, mg_time_axis, MG, TIME_AXIS, GtkWidget)

GtkWidget *mg_time_axis_new (MgTimeView *view);
MgTimeView *mg_time_axis_get_view (MgTimeAxis *self);
void mg_time_axis_set_view (MgTimeAxis *self, MgTimeView *view);

G_END_DECLS
