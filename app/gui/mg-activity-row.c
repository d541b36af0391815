/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One activity row: label column and stacked graph. */
#include "mg-config.h"

#include "mg-activity-row.h"

#include <glib/gi18n.h>

#include "gui/graph/mg-activity-graph.h"
#include "mg-tooltip.h"

/* The metric rows' label column is as wide (ui/mg-metric-row.ui). */
#define LABEL_WIDTH 220

struct _MgActivityRow
{
  GtkWidget parent_instance;

  MgActivityScope scope;
  GtkWidget *label_box;
  GtkWidget *graph;
};

G_DEFINE_FINAL_TYPE (MgActivityRow, mg_activity_row, GTK_TYPE_WIDGET)

static void
mg_activity_row_dispose (GObject *object)
{
  MgActivityRow *self = MG_ACTIVITY_ROW (object);

  g_clear_pointer (&self->label_box, gtk_widget_unparent);
  g_clear_pointer (&self->graph, gtk_widget_unparent);
  G_OBJECT_CLASS (mg_activity_row_parent_class)->dispose (object);
}

static void
mg_activity_row_class_init (MgActivityRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_activity_row_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "metricrow");
}

static void
mg_activity_row_init (MgActivityRow *self)
{
}

GtkWidget *
mg_activity_row_new (MgProfile *profile, MgActivityScope scope, MgTimeView *view,
                     const char *description, GtkSizeGroup *label_group)
{
  MgActivityRow *self = g_object_new (MG_TYPE_ACTIVITY_ROW, NULL);
  GtkWidget *name, *units;

  self->scope = scope;
  self->label_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_size_request (self->label_box, LABEL_WIDTH, -1);
  gtk_widget_add_css_class (self->label_box, "metric-label");
  name = gtk_label_new (scope == MG_ACTIVITY_MAIN_THREAD ? _("Main thread activity")
                                                         : _("All threads activity"));
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_widget_add_css_class (name, "heading");
  /* TRANSLATORS: what the stacked activity graph's height stands for
   * xgettext:no-c-format */
  units = gtk_label_new (scope == MG_ACTIVITY_MAIN_THREAD ? _("% of the samples, stacked")
                                                          /* xgettext:no-c-format */
                                                          : _("% of the threads, stacked"));
  gtk_label_set_xalign (GTK_LABEL (units), 0);
  gtk_label_set_wrap (GTK_LABEL (units), TRUE);
  gtk_widget_add_css_class (units, "dim-label");
  gtk_widget_add_css_class (units, "caption");
  gtk_box_append (GTK_BOX (self->label_box), name);
  gtk_box_append (GTK_BOX (self->label_box), units);
  if (description != NULL)
    mg_tooltip_set_text (self->label_box, description);
  gtk_widget_set_parent (self->label_box, GTK_WIDGET (self));
  if (label_group != NULL)
    gtk_size_group_add_widget (label_group, self->label_box);

  self->graph = mg_activity_graph_new (profile, scope, view);
  gtk_widget_set_hexpand (self->graph, TRUE);
  gtk_widget_set_parent (self->graph, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

GtkWidget *
mg_activity_row_get_graph (MgActivityRow *self)
{
  g_return_val_if_fail (MG_IS_ACTIVITY_ROW (self), NULL);
  return self->graph;
}

MgActivityScope
mg_activity_row_get_scope (MgActivityRow *self)
{
  g_return_val_if_fail (MG_IS_ACTIVITY_ROW (self), MG_ACTIVITY_MAIN_THREAD);
  return self->scope;
}
