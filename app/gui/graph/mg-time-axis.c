/* The shared time axis widget. */
#include "mg-time-axis.h"

#include <math.h>

#include "mg-graph-render.h"

#define AXIS_HEIGHT 22
#define DRAG_THRESHOLD 3.0

struct _MgTimeAxis {
  GtkWidget parent_instance;

  MgTimeView *view;
  double drag_start_x;    /* where the press was, widget coordinates */
  double drag_start_time;
  gboolean dragging;
};

G_DEFINE_FINAL_TYPE (MgTimeAxis, mg_time_axis, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static gboolean
is_dark (GtkWidget *widget)
{
  gboolean prefer_dark = FALSE;
  GdkRGBA fg;

  g_object_get (gtk_widget_get_settings (widget), "gtk-application-prefer-dark-theme",
                &prefer_dark, NULL);
  if (prefer_dark)
    return TRUE;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
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
                             mg_time_view_get_hover_time (self->view), is_dark (widget));
  cairo_destroy (cr);
}

static double
x_to_time (MgTimeAxis *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double t0 = mg_time_view_get_start (self->view);
  double t1 = mg_time_view_get_end (self->view);

  return width > 0 ? t0 + CLAMP (x / width, 0, 1) * (t1 - t0) : t0;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, MgTimeAxis *self)
{
  if (self->view != NULL)
    mg_time_view_set_hover_time (self->view, x_to_time (self, x));
}

static void
on_leave (GtkEventControllerMotion *motion, MgTimeAxis *self)
{
  if (self->view != NULL)
    mg_time_view_set_hover_time (self->view, -1);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, MgTimeAxis *self)
{
  if (self->view != NULL)
    self->drag_start_x = x;
  self->drag_start_time = x_to_time (self, x);
  self->dragging = FALSE;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, MgTimeAxis *self)
{
  double x = self->drag_start_x;

  if (self->view == NULL || (!self->dragging && fabs (dx) < DRAG_THRESHOLD))
    return;
  self->dragging = TRUE;
  mg_time_view_set_selection (self->view, self->drag_start_time, x_to_time (self, x + dx));
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, MgTimeAxis *self)
{
  if (self->view != NULL && !self->dragging)
    mg_time_view_clear_selection (self->view);
  self->dragging = FALSE;
}

void
mg_time_axis_set_view (MgTimeAxis *self, MgTimeView *view)
{
  g_return_if_fail (MG_IS_TIME_AXIS (self));
  g_return_if_fail (view == NULL || MG_IS_TIME_VIEW (view));

  if (self->view == view)
    return;
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_set_object (&self->view, view);
  if (view != NULL)
    g_signal_connect_object (view, "notify", G_CALLBACK (gtk_widget_queue_draw), self,
                             G_CONNECT_SWAPPED);
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

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_object (&self->view);
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

/* The dark preference can change without a CSS change (a theme forced by
 * GTK_THEME): follow the setting itself too. */
static void
mg_time_axis_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (mg_time_axis_parent_class)->realize (widget);
  g_signal_connect_object (gtk_widget_get_settings (widget),
                           "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (gtk_widget_queue_draw), widget, G_CONNECT_SWAPPED);
}

static void
mg_time_axis_unrealize (GtkWidget *widget)
{
  g_signal_handlers_disconnect_by_data (gtk_widget_get_settings (widget), widget);
  GTK_WIDGET_CLASS (mg_time_axis_parent_class)->unrealize (widget);
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
  widget_class->realize = mg_time_axis_realize;
  widget_class->unrealize = mg_time_axis_unrealize;

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
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_size_request (widget, -1, AXIS_HEIGHT);
  gtk_widget_set_hexpand (widget, TRUE);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
mg_time_axis_new (MgTimeView *view)
{
  return g_object_new (MG_TYPE_TIME_AXIS, "view", view, NULL);
}
