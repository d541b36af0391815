/* One visible metric: its label column (colour, display name with the
 * description as tooltip, units, and max / mean / min of the selection or the
 * whole run) next to its MgMetricGraph. Right-click offers "Hide This Metric"
 * (win.hide-metric). */
#pragma once

#include <gtk/gtk.h>

#include "mg-profile.h"
#include "mg-time-view.h"

G_BEGIN_DECLS

#define MG_TYPE_METRIC_ROW (mg_metric_row_get_type ())
G_DECLARE_FINAL_TYPE (MgMetricRow, mg_metric_row, MG, METRIC_ROW, GtkWidget)

/* label_group: a size group that gives every row's label column one width
 * (may be NULL). */
GtkWidget *mg_metric_row_new (MgProfile *profile, guint metric, MgTimeView *view,
                              GtkSizeGroup *label_group);

guint mg_metric_row_get_metric (MgMetricRow *self);
GtkWidget *mg_metric_row_get_graph (MgMetricRow *self);
/* The figures as shown: "Max 1.50 GiB · Mean 1.00 GiB · Min 512 MiB". */
char *mg_metric_row_dup_figures_text (MgMetricRow *self);

G_END_DECLS
