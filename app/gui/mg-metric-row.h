/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One visible metric: its label column (colour, display name with the
 * description as tooltip, units, and max / mean / min of the selection or the
 * whole run) next to its MgMetricGraph. Right-click offers "Hide This Metric"
 * (win.hide-metric). */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"
#include "plot/mg-time-view.h"

G_BEGIN_DECLS

/* The parts of a row that answer with a tooltip. */
typedef enum {
  MG_METRIC_ROW_PART_NAME, /* the label column: the definition's description */
  MG_METRIC_ROW_PART_MAX,  /* the figures: which process held it ("rank 3") */
  MG_METRIC_ROW_PART_MEAN, /* (none: a mean is nobody's) */
  MG_METRIC_ROW_PART_MIN,
} MgMetricRowPart;

#define MG_TYPE_METRIC_ROW (mg_metric_row_get_type ())
G_DECLARE_FINAL_TYPE (MgMetricRow, mg_metric_row, MG, METRIC_ROW, GtkWidget)

/* label_group: a size group that gives every row's label column one width
 * (may be NULL). */
GtkWidget *mg_metric_row_new (MgProfile *profile, guint metric, MgTimeView *view,
                              GtkSizeGroup *label_group);

guint mg_metric_row_get_metric (MgMetricRow *self);
GtkWidget *mg_metric_row_get_graph (MgMetricRow *self);
/* The widget of a part (the label column, or a figure's value label). */
GtkWidget *mg_metric_row_get_part (MgMetricRow *self, MgMetricRowPart part);
/* Whether the row's context menu is open (its tooltips then say nothing). */
gboolean mg_metric_row_menu_is_open (MgMetricRow *self);
/* What the part's tooltip says (also its accessible description), or NULL
 * when it has none: the description as plain text, or for a figure which
 * process held it (max, min) above the range the figures describe
 * (mg_time_view_describe_figures_range: the selection, else the visible
 * range, else the whole run). */
char *mg_metric_row_dup_tooltip (MgMetricRow *self, MgMetricRowPart part);
/* The figures as shown: "Max 1.50 GiB · Mean 1.00 GiB · Min 512 MiB". */
char *mg_metric_row_dup_figures_text (MgMetricRow *self);

G_END_DECLS
