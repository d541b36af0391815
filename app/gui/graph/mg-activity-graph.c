/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stacked activity graph widget. */
#include "mg-config.h"

#include "mg-activity-graph.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mg-theme.h"
#include "mg-time-selection.h"
#include "plot/mg-activity-render.h"

#define DEFAULT_HEIGHT 80
/* Left and Right move the keyboard cursor by this much of the view. */
#define CURSOR_STEP_FRACTION 0.01

struct _MgActivityGraph
{
  GtkWidget parent_instance;

  MgProfile *profile;
  MgActivityScope scope;
  MgTimeView *view;
  MgTimeSelection *selection;
  MgActivitySeries series;
  gboolean series_valid; /* series is for the view's process */
  gboolean has_series;
};

G_DEFINE_FINAL_TYPE (MgActivityGraph, mg_activity_graph, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_VIEW, N_PROPS };
static GParamSpec *props[N_PROPS];

static const MgActivitySeries *
get_series (MgActivityGraph *self)
{
  if (!self->series_valid && self->profile != NULL)
    {
      int process = self->view != NULL ? mg_time_view_get_process (self->view) : -1;

      self->has_series = mg_activity_series_init (&self->series, self->profile, self->scope,
                                                  process);
      self->series_valid = TRUE;
    }
  return self->has_series ? &self->series : NULL;
}

static void
on_view_notify (MgTimeView *view, GParamSpec *pspec, MgActivityGraph *self)
{
  if (g_str_equal (pspec->name, "process"))
    self->series_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
mg_activity_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgActivityGraph *self = MG_ACTIVITY_GRAPH (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  MgActivityRenderParams params;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->view == NULL)
    return;
  mg_activity_render_params_init (&params);
  params.width = width;
  params.height = height;
  params.series = get_series (self);
  params.t0 = mg_time_view_get_start (self->view);
  params.t1 = mg_time_view_get_end (self->view);
  params.dark = mg_theme_is_dark (widget);
  params.text_scale = mg_theme_text_scale (widget);
  params.has_selection = mg_time_view_get_has_selection (self->view);
  params.selection_start = mg_time_view_get_selection_start (self->view);
  params.selection_end = mg_time_view_get_selection_end (self->view);
  params.hover_time = mg_time_view_get_hover_time (self->view);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  mg_activity_render (cr, &params);
  cairo_destroy (cr);
}

gboolean
mg_activity_graph_select_at (MgActivityGraph *self, double x)
{
  const MgActivitySeries *series;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double t0, t1, per_pixel, start, end, column;

  g_return_val_if_fail (MG_IS_ACTIVITY_GRAPH (self), FALSE);
  series = get_series (self);
  if (series == NULL || self->view == NULL || width <= 0)
    return FALSE;
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  per_pixel = (t1 - t0) / width;
  /* The pixel column clicked, as drawn (one column per pixel). */
  column = floor (CLAMP (x, 0, width - 1));
  if (!mg_activity_series_snap (series, t0 + column * per_pixel, t0 + (column + 1) * per_pixel,
                                &start, &end))
    return FALSE;
  mg_time_view_set_selection (self->view, start, end);
  return TRUE;
}

/* The windows holding t selected; FALSE outside every window. */
static gboolean
select_time (MgActivityGraph *self, double t)
{
  const MgActivitySeries *series = get_series (self);
  double start, end;

  if (series == NULL || self->view == NULL
      || !mg_activity_series_snap (series, t, t, &start, &end))
    return FALSE;
  mg_time_view_set_selection (self->view, start, end);
  return TRUE;
}

/* Screen readers hear the shares at the keyboard cursor. */
static void
update_accessible_description (MgActivityGraph *self, double t)
{
  g_autofree char *text = mg_activity_graph_describe_time (self, t);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                MgActivityGraph *self)
{
  double t0, t1, cursor;

  /* Ctrl and Alt combinations are the window's (Ctrl+Left pans...). */
  if (self->view == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  cursor = mg_time_view_get_hover_time (self->view);
  if (!(cursor >= t0 && cursor <= t1))
    cursor = t0;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      {
        int direction = keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left ? -1 : 1;
        double step = (t1 - t0) * CURSOR_STEP_FRACTION;
        /* On a grid of k × step, so the times reached do not drift (as the
         * metric graphs' cursor). */
        double k = round (cursor / step);

        if (direction > 0 ? k * step <= cursor : k * step >= cursor)
          k += direction;
        cursor = CLAMP (k * step, t0, t1);
        mg_time_view_set_hover_time (self->view, cursor);
        mg_time_selection_set_keyboard_cursor (self->selection, TRUE);
        update_accessible_description (self, cursor);
        return TRUE;
      }
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      /* As a click there: the windows at the cursor. */
      select_time (self, cursor);
      return TRUE;
    case GDK_KEY_Escape:
      if (!mg_time_view_get_has_selection (self->view))
        return FALSE;
      mg_time_view_clear_selection (self->view);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_click (GtkWidget *widget, double x, gpointer user_data)
{
  MgActivityGraph *self = MG_ACTIVITY_GRAPH (widget);

  /* Outside every window a click clears, as on the other rows. */
  if (!mg_activity_graph_select_at (self, x) && self->view != NULL)
    mg_time_view_clear_selection (self->view);
}

char *
mg_activity_graph_describe_time (MgActivityGraph *self, double t)
{
  const MgActivitySeries *series;
  g_autoptr (GString) text = g_string_new (NULL);
  double start, end;

  g_return_val_if_fail (MG_IS_ACTIVITY_GRAPH (self), NULL);
  series = get_series (self);
  if (series == NULL || !mg_activity_series_snap (series, t, t, &start, &end))
    return NULL;
  {
    g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (series, start, end, 1);

    for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
      {
        if (isnan (cols->shares[k][0]))
          continue;
        if (text->len > 0)
          g_string_append (text, " · ");
        /* TRANSLATORS: an activity class and its share of the samples, "MPI 25 %" */
        g_string_append_printf (text, _("%s %.0f %%"), mg_activity_class_name (k),
                                cols->shares[k][0]);
      }
  }
  return text->len > 0 ? g_strdup (text->str) : NULL;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  MgActivityGraph *self = MG_ACTIVITY_GRAPH (widget);
  g_autofree char *text = NULL;

  if (self->view == NULL)
    return FALSE;
  text = mg_activity_graph_describe_time (self, mg_time_selection_x_to_time (self->selection, x));
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
set_view (MgActivityGraph *self, MgTimeView *view)
{
  if (!mg_time_view_follow (&self->view, view, self, G_CALLBACK (on_view_notify), 0))
    return;
  self->series_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

MgTimeView *
mg_activity_graph_get_view (MgActivityGraph *self)
{
  g_return_val_if_fail (MG_IS_ACTIVITY_GRAPH (self), NULL);
  return self->view;
}

MgActivityScope
mg_activity_graph_get_scope (MgActivityGraph *self)
{
  g_return_val_if_fail (MG_IS_ACTIVITY_GRAPH (self), MG_ACTIVITY_MAIN_THREAD);
  return self->scope;
}

static void
mg_activity_graph_dispose (GObject *object)
{
  MgActivityGraph *self = MG_ACTIVITY_GRAPH (object);

  mg_time_view_unfollow (&self->view, self);
  g_clear_object (&self->profile);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (mg_activity_graph_parent_class)->dispose (object);
}

static void
mg_activity_graph_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW: g_value_set_object (value, MG_ACTIVITY_GRAPH (object)->view); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_activity_graph_set_property (GObject *object, guint prop_id, const GValue *value,
                                GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW: set_view (MG_ACTIVITY_GRAPH (object), g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_activity_graph_class_init (MgActivityGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_activity_graph_dispose;
  object_class->get_property = mg_activity_graph_get_property;
  object_class->set_property = mg_activity_graph_set_property;
  widget_class->snapshot = mg_activity_graph_snapshot;
  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                            | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  gtk_widget_class_set_css_name (widget_class, "activitygraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mg_activity_graph_init (MgActivityGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;

  gtk_widget_set_size_request (widget, -1, DEFAULT_HEIGHT);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  self->selection = mg_time_selection_new (widget);
  mg_time_selection_set_click_func (self->selection, on_click, NULL);
  gtk_widget_set_focusable (widget, TRUE);
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (widget, controller);
  mg_theme_follow (widget);
}

GtkWidget *
mg_activity_graph_new (MgProfile *profile, MgActivityScope scope, MgTimeView *view)
{
  MgActivityGraph *self;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  self = g_object_new (MG_TYPE_ACTIVITY_GRAPH, NULL);
  self->profile = g_object_ref (profile);
  self->scope = scope;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  scope == MG_ACTIVITY_MAIN_THREAD ? _("Main thread activity")
                                                                   : _("All threads activity"),
                                  -1);
  set_view (self, view);
  return GTK_WIDGET (self);
}
