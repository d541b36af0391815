/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared time axis widget. */
#include "mg-time-axis.h"

#include <math.h>

#include "plot/mg-graph-render.h"
#include "mg-theme.h"
#include "mg-time-selection.h"

#define AXIS_HEIGHT 22

struct _MgTimeAxis {
  GtkWidget parent_instance;

  MgTimeView *view;
  MgTimeSelection *selection;
};

G_DEFINE_FINAL_TYPE (MgTimeAxis, mg_time_axis, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* As tall as its labels: taller with large text. */
static void
mg_time_axis_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                      int *natural, int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = (int) ceil (AXIS_HEIGHT * mg_theme_text_scale (widget));
  else
    *minimum = *natural = 0;
}

/* The text's resolution may have changed (gtk-xft-dpi). */
static void
mg_time_axis_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (mg_time_axis_parent_class)->css_changed (widget, change);
  gtk_widget_queue_resize (widget);
}

static void
mg_time_axis_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgTimeAxis *self = MG_TIME_AXIS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->view == NULL)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  mg_graph_render_time_axis (cr, 0, 0, width, height, mg_time_view_get_start (self->view),
                             mg_time_view_get_end (self->view),
                             mg_time_view_get_has_selection (self->view),
                             mg_time_view_get_selection_start (self->view),
                             mg_time_view_get_selection_end (self->view),
                             mg_time_view_get_hover_time (self->view), mg_theme_is_dark (widget),
                             mg_theme_text_scale (widget));
  cairo_destroy (cr);
}

void
mg_time_axis_set_view (MgTimeAxis *self, MgTimeView *view)
{
  g_return_if_fail (MG_IS_TIME_AXIS (self));
  g_return_if_fail (view == NULL || MG_IS_TIME_VIEW (view));

  if (!mg_time_view_follow (&self->view, view, self, G_CALLBACK (gtk_widget_queue_draw),
                            G_CONNECT_SWAPPED))
    return;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

MgTimeView *
mg_time_axis_get_view (MgTimeAxis *self)
{
  g_return_val_if_fail (MG_IS_TIME_AXIS (self), NULL);
  return self->view;
}

static void
mg_time_axis_dispose (GObject *object)
{
  MgTimeAxis *self = MG_TIME_AXIS (object);

  mg_time_view_unfollow (&self->view, self);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (mg_time_axis_parent_class)->dispose (object);
}

static void
mg_time_axis_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgTimeAxis *self = MG_TIME_AXIS (object);

  switch (prop_id)
    {
    case PROP_VIEW: g_value_set_object (value, self->view); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_axis_set_property (GObject *object, guint prop_id, const GValue *value,
                           GParamSpec *pspec)
{
  MgTimeAxis *self = MG_TIME_AXIS (object);

  switch (prop_id)
    {
    case PROP_VIEW: mg_time_axis_set_view (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_axis_class_init (MgTimeAxisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_time_axis_dispose;
  object_class->get_property = mg_time_axis_get_property;
  object_class->set_property = mg_time_axis_set_property;
  widget_class->snapshot = mg_time_axis_snapshot;
  widget_class->measure = mg_time_axis_measure;
  widget_class->css_changed = mg_time_axis_css_changed;

  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                          | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_css_name (widget_class, "timeaxis");
}

static void
mg_time_axis_init (MgTimeAxis *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_set_hexpand (widget, TRUE);
  self->selection = mg_time_selection_new (widget);
  mg_theme_follow (widget);
}

GtkWidget *
mg_time_axis_new (MgTimeView *view)
{
  return g_object_new (MG_TYPE_TIME_AXIS, "view", view, NULL);
}
