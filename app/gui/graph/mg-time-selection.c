/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Choosing times with the pointer: hover and drag to select. */
#include "mg-time-selection.h"

#include <math.h>

/* A press that moves less than this is a click, not a selection. */
#define DRAG_THRESHOLD 3.0

struct _MgTimeSelection {
  GObject parent_instance;

  GtkWidget *widget;      /* not a reference: the widget owns us */
  MgTimeView *view;
  double pointer_x;       /* -1 outside */
  gboolean keyboard_cursor;
  double drag_start_x;    /* where the press was, widget coordinates */
  double drag_start_time;
  gboolean dragging;
  MgTimeSelectionClickFunc click_func; /* NULL: a click clears the selection */
  gpointer click_data;
};

G_DEFINE_FINAL_TYPE (MgTimeSelection, mg_time_selection, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

double
mg_time_selection_x_to_time (MgTimeSelection *self, double x)
{
  double width, t0, t1;

  g_return_val_if_fail (MG_IS_TIME_SELECTION (self), 0);

  if (self->view == NULL)
    return 0;
  width = gtk_widget_get_width (self->widget);
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  return width > 0 ? t0 + CLAMP (x / width, 0, 1) * (t1 - t0) : t0;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, MgTimeSelection *self)
{
  self->pointer_x = x;
  self->keyboard_cursor = FALSE;
  if (self->view != NULL)
    mg_time_view_set_hover_time (self->view, mg_time_selection_x_to_time (self, x));
}

static void
on_leave (GtkEventControllerMotion *motion, MgTimeSelection *self)
{
  self->pointer_x = -1;
  /* A line the keys placed stays: it is where the keyboard reads. */
  if (self->view != NULL && !self->keyboard_cursor)
    mg_time_view_set_hover_time (self->view, -1);
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, MgTimeSelection *self)
{
  if (gtk_widget_get_focusable (self->widget))
    gtk_widget_grab_focus (self->widget);
  self->dragging = FALSE;
  if (self->view == NULL)
    return;
  self->drag_start_x = x;
  self->drag_start_time = mg_time_selection_x_to_time (self, x);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, MgTimeSelection *self)
{
  double t;

  if (self->view == NULL || (!self->dragging && fabs (dx) < DRAG_THRESHOLD))
    return;
  self->dragging = TRUE;
  t = mg_time_selection_x_to_time (self, self->drag_start_x + dx);
  mg_time_view_set_selection (self->view, self->drag_start_time, t);
  mg_time_view_set_hover_time (self->view, t);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, MgTimeSelection *self)
{
  /* A plain click clears the selection, unless the widget gives it a
   * meaning of its own. */
  if (self->view != NULL && !self->dragging && self->click_func != NULL)
    self->click_func (self->widget, self->drag_start_x, self->click_data);
  else if (self->view != NULL && !self->dragging)
    mg_time_view_clear_selection (self->view);
  self->dragging = FALSE;
}

MgTimeView *
mg_time_selection_get_view (MgTimeSelection *self)
{
  g_return_val_if_fail (MG_IS_TIME_SELECTION (self), NULL);
  return self->view;
}

double
mg_time_selection_get_pointer_x (MgTimeSelection *self)
{
  g_return_val_if_fail (MG_IS_TIME_SELECTION (self), -1);
  return self->pointer_x;
}

gboolean
mg_time_selection_get_keyboard_cursor (MgTimeSelection *self)
{
  g_return_val_if_fail (MG_IS_TIME_SELECTION (self), FALSE);
  return self->keyboard_cursor;
}

void
mg_time_selection_set_keyboard_cursor (MgTimeSelection *self, gboolean keyboard_cursor)
{
  g_return_if_fail (MG_IS_TIME_SELECTION (self));
  self->keyboard_cursor = keyboard_cursor;
}

void
mg_time_selection_set_click_func (MgTimeSelection *self, MgTimeSelectionClickFunc func,
                                  gpointer user_data)
{
  g_return_if_fail (MG_IS_TIME_SELECTION (self));
  self->click_func = func;
  self->click_data = user_data;
}

static void
mg_time_selection_dispose (GObject *object)
{
  MgTimeSelection *self = MG_TIME_SELECTION (object);

  g_clear_object (&self->view);
  G_OBJECT_CLASS (mg_time_selection_parent_class)->dispose (object);
}

static void
mg_time_selection_get_property (GObject *object, guint prop_id, GValue *value,
                                GParamSpec *pspec)
{
  MgTimeSelection *self = MG_TIME_SELECTION (object);

  switch (prop_id)
    {
    case PROP_VIEW: g_value_set_object (value, self->view); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_selection_set_property (GObject *object, guint prop_id, const GValue *value,
                                GParamSpec *pspec)
{
  MgTimeSelection *self = MG_TIME_SELECTION (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      /* A drag under way belongs to the view it started on. */
      if (g_set_object (&self->view, g_value_get_object (value)))
        self->dragging = FALSE;
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_time_selection_class_init (MgTimeSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mg_time_selection_dispose;
  object_class->get_property = mg_time_selection_get_property;
  object_class->set_property = mg_time_selection_set_property;

  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
mg_time_selection_init (MgTimeSelection *self)
{
  self->pointer_x = -1;
}

MgTimeSelection *
mg_time_selection_new (GtkWidget *widget)
{
  MgTimeSelection *self;
  GtkEventController *controller;
  GtkGesture *gesture;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  self = g_object_new (MG_TYPE_TIME_SELECTION, NULL);
  self->widget = widget;
  g_object_bind_property (widget, "view", self, "view", G_BINDING_SYNC_CREATE);

  /* The handlers go with us: the controllers may outlive us in the widget. */
  controller = gtk_event_controller_motion_new ();
  /* The pointer may already rest on the widget when it appears or scrolls in. */
  g_signal_connect_object (controller, "enter", G_CALLBACK (on_motion), self, 0);
  g_signal_connect_object (controller, "motion", G_CALLBACK (on_motion), self, 0);
  g_signal_connect_object (controller, "leave", G_CALLBACK (on_leave), self, 0);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self, 0);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (on_drag_update), self, 0);
  g_signal_connect_object (gesture, "drag-end", G_CALLBACK (on_drag_end), self, 0);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
  return self;
}
