/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One metric's graph row, following and driving the shared MgTimeView. */
#include "mg-config.h"

#include "mg-metric-graph.h"

#include <glib/gi18n.h>
#include <math.h>

#include "plot/mg-graph-render.h"
#include "plot/mg-lod.h"
#include "plot/mg-selection-stats.h"
#include "plot/mg-series-view.h"
#include "mg-theme.h"
#include "mg-time-selection.h"
#include "defs/mg-units.h"

#define DEFAULT_HEIGHT 80
/* Keyboard and scroll steps. */
#define PAN_FRACTION 0.1
#define ZOOM_STEP 1.25
/* The keyboard cursor's step: a hundredth of the view, about what a pointer
 * resolves on a row. */
#define CURSOR_STEP_FRACTION 0.01

struct _MgMetricGraph {
  GtkWidget parent_instance;

  MgProfile *profile;
  guint metric;
  MgTimeView *view;

  MgSeriesView series;
  gboolean series_valid;  /* matches the view's process */
  MgLod *lod;
  MgAxis *axis;           /* NULL: to be fitted again */
  /* The graph without hover and selection, kept while only those move:
   * the pointer then costs two colour nodes, not a redraw of every row. */
  GskRenderNode *graph_node;
  gboolean graph_node_dark;
  /* The scrolled window around us, if any: rows out of its view are not
   * drawn until they scroll in (GTK snapshots every row of a box, seen or
   * not, and the first frame would pay for all of them). */
  GtkScrolledWindow *scroller;
  gboolean skipped;       /* the last snapshot left the graph out */
  int axis_width, axis_height;

  /* Hover, drag to select; whether the hover line is the keyboard
   * cursor. */
  MgTimeSelection *selection;
  /* The view moved (zoom, pan) or the pointer left: the tooltip, which
   * described what was under the pointer, is closed until the pointer
   * (or the keyboard cursor) moves again. */
  gboolean tooltip_closed;
};

G_DEFINE_FINAL_TYPE (MgMetricGraph, mg_metric_graph, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_METRIC,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
invalidate (MgMetricGraph *self)
{
  g_clear_pointer (&self->axis, mg_axis_free);
  g_clear_pointer (&self->graph_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A tooltip shown when the view zooms or pans, or the pointer leaves,
 * is asked again, and says nothing: it closes. Asked only of the graph
 * under the pointer (the one whose tooltip can be shown). */
static void
set_tooltip_closed (MgMetricGraph *self, gboolean closed)
{
  if (closed == self->tooltip_closed)
    return;
  self->tooltip_closed = closed;
  if (closed && mg_time_selection_get_pointer_x (self->selection) >= 0)
    gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

static void
on_view_notify (MgTimeView *view, GParamSpec *pspec, MgMetricGraph *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "process"))
    self->series_valid = FALSE;
  if (g_str_equal (name, "hover-time"))
    /* The pointer or the keys moved the line (the pointer left: none). */
    set_tooltip_closed (self, mg_time_view_get_hover_time (view) < 0);
  else if (g_str_equal (name, "start") || g_str_equal (name, "end"))
    set_tooltip_closed (self, TRUE);
  /* Hover and selection only move overlays: the axis stays. */
  if (g_str_equal (name, "hover-time") || g_str_has_prefix (name, "selection")
      || g_str_equal (name, "has-selection") || g_str_equal (name, "can-zoom-out"))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  else
    invalidate (self);
}

static const MgSeriesView *
get_series (MgMetricGraph *self)
{
  if (!self->series_valid)
    {
      int process = self->view ? mg_time_view_get_process (self->view) : -1;

      if (self->profile != NULL)
        mg_series_view_init (&self->series, self->profile, self->metric, process);
      self->series_valid = TRUE;
    }
  return &self->series;
}

static const MgMetricDef *
get_def (MgMetricGraph *self)
{
  if (self->profile == NULL || self->metric >= mg_profile_get_n_metrics (self->profile))
    return NULL;
  return mg_profile_get_metric (self->profile, self->metric);
}

/* Columns for the visible range at the widget's device-pixel width. */
static void
update_lod (MgMetricGraph *self, int width)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  guint columns = (guint) MAX (1, width * scale);

  if (self->lod == NULL)
    self->lod = mg_lod_new (columns);
  else
    mg_lod_set_n_columns (self->lod, columns);
  mg_lod_compute (self->lod, get_series (self), mg_time_view_get_start (self->view),
                  mg_time_view_get_end (self->view));
}

static void
update_axis (MgMetricGraph *self, int width, int height)
{
  gboolean auto_zoom;

  if (self->axis != NULL && self->axis_width == width && self->axis_height == height)
    return;
  g_clear_pointer (&self->axis, mg_axis_free);
  auto_zoom = self->view && mg_time_view_get_auto_zoom_vertical (self->view);
  if (auto_zoom)
    update_lod (self, width);
  self->axis = mg_graph_render_fit_axis (get_def (self), get_series (self),
                                         auto_zoom ? self->lod : NULL, auto_zoom, height);
  self->axis_width = width;
  self->axis_height = height;
}

const MgAxis *
mg_metric_graph_get_axis (MgMetricGraph *self)
{
  int width, height;

  g_return_val_if_fail (MG_IS_METRIC_GRAPH (self), NULL);

  if (self->view == NULL)
    return NULL;
  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 0 || height <= 0)
    {
      /* Not allocated yet: the size it asked for. */
      gtk_widget_get_size_request (GTK_WIDGET (self), &width, &height);
      width = MAX (width, 400);
      height = height > 0 ? height : DEFAULT_HEIGHT;
    }
  update_axis (self, width, height);
  return self->axis;
}

static void
init_params (MgMetricGraph *self, MgGraphRenderParams *params, int width, int height,
             gboolean dark)
{
  update_lod (self, width);
  update_axis (self, width, height);

  mg_graph_render_params_init (params);
  params->width = width;
  params->height = height;
  params->def = get_def (self);
  params->series = get_series (self);
  params->t0 = mg_time_view_get_start (self->view);
  params->t1 = mg_time_view_get_end (self->view);
  params->lod = self->lod;
  params->axis = self->axis;
  params->auto_zoom_vertical = mg_time_view_get_auto_zoom_vertical (self->view);
  params->dark = dark;
  params->text_scale = mg_theme_text_scale (GTK_WIDGET (self));
}

/* For the GL renderer: the graph drawn into pixels of our own and handed
 * over as a texture, uploaded once and kept while only the overlays move
 * (a cairo node would be drawn into yet another image and uploaded). */
static GskRenderNode *
render_texture_node (MgMetricGraph *self, int width, int height, gboolean dark)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  int pixel_width = width * scale, pixel_height = height * scale;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, pixel_width);
  gsize size = (gsize) stride * pixel_height;
  guchar *pixels = g_try_malloc (size);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  MgGraphRenderParams params;
  cairo_surface_t *surface;
  cairo_t *cr;

  if (pixels == NULL)
    return NULL;
  init_params (self, &params, width, height, dark);
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, pixel_width,
                                                 pixel_height, stride);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  mg_graph_render (cr, &params);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);

  /* Cairo's ARGB32 is GDK's default memory format: premultiplied, native
   * byte order. */
  bytes = g_bytes_new_take (pixels, size);
  texture = gdk_memory_texture_new (pixel_width, pixel_height, GDK_MEMORY_DEFAULT, bytes,
                                    stride);
  return gsk_texture_node_new (texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* For the cairo renderer: a cairo node, which it replays straight onto the
 * window (a texture would cost it one more copy). */
static GskRenderNode *
render_cairo_node (MgMetricGraph *self, int width, int height, gboolean dark)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  MgGraphRenderParams params;
  cairo_t *cr;

  init_params (self, &params, width, height, dark);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  mg_graph_render (cr, &params);
  cairo_destroy (cr);
  return gtk_snapshot_free_to_node (snapshot);
}

static GskRenderNode *
render_graph_node (MgMetricGraph *self, int width, int height, gboolean dark)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  if (renderer != NULL && !GSK_IS_CAIRO_RENDERER (renderer))
    return render_texture_node (self, width, height, dark);
  return render_cairo_node (self, width, height, dark);
}

/* Whether any of the graph lies in the view of the scrolled window around
 * it (always, without one). */
static gboolean
in_view (MgMetricGraph *self)
{
  graphene_rect_t bounds;
  GtkWidget *scroller = GTK_WIDGET (self->scroller);

  if (scroller == NULL || !gtk_widget_compute_bounds (GTK_WIDGET (self), scroller, &bounds))
    return TRUE;
  return bounds.origin.y < gtk_widget_get_height (scroller)
         && bounds.origin.y + bounds.size.height > 0
         && bounds.origin.x < gtk_widget_get_width (scroller)
         && bounds.origin.x + bounds.size.width > 0;
}

/* The view moved: a graph left out may have come in. The rows are placed
 * anew only after this, so the snapshot decides (it costs nothing when the
 * graph is still out of view). */
static void
on_scrolled (MgMetricGraph *self)
{
  if (self->skipped)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
follow_scroller (MgMetricGraph *self, GtkScrolledWindow *scroller)
{
  GtkAdjustment *adjustments[2];

  if (self->scroller != NULL)
    {
      g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_vadjustment (self->scroller), self);
      g_signal_handlers_disconnect_by_data (gtk_scrolled_window_get_hadjustment (self->scroller), self);
    }
  self->scroller = scroller;
  if (scroller == NULL)
    return;
  /* Value: scrolled; changed: the view's size (page) changed. */
  adjustments[0] = gtk_scrolled_window_get_vadjustment (scroller);
  adjustments[1] = gtk_scrolled_window_get_hadjustment (scroller);
  for (guint i = 0; i < 2; i++)
    {
      g_signal_connect_object (adjustments[i], "value-changed", G_CALLBACK (on_scrolled), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (adjustments[i], "changed", G_CALLBACK (on_scrolled), self,
                               G_CONNECT_SWAPPED);
    }
}

static void
append_rect (GtkSnapshot *snapshot, MgRgba c, double alpha, double x, double y, double w,
             double h)
{
  GdkRGBA rgba = { c.r, c.g, c.b, c.a * alpha };

  gtk_snapshot_append_color (snapshot, &rgba, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static double
time_to_x (MgMetricGraph *self, double t, int width)
{
  double t0 = mg_time_view_get_start (self->view);
  double t1 = mg_time_view_get_end (self->view);

  return t1 > t0 ? (t - t0) / (t1 - t0) * width : 0;
}

/* Selection and hover, as in mg_graph_render, but as overlay nodes. */
static void
snapshot_overlays (MgMetricGraph *self, GtkSnapshot *snapshot, int width, int height,
                   gboolean dark)
{
  double hover = mg_time_view_get_hover_time (self->view);

  if (mg_time_view_get_has_selection (self->view))
    {
      MgRgba tint = mg_graph_render_selection_colour (dark);
      double x0 = time_to_x (self, mg_time_view_get_selection_start (self->view), width);
      double x1 = time_to_x (self, mg_time_view_get_selection_end (self->view), width);

      x0 = CLAMP (x0, 0, width);
      x1 = CLAMP (x1, 0, width);
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      append_rect (snapshot, tint, 0.14, x0, 0, x1 - x0, height);
      append_rect (snapshot, tint, 0.6, floor (x0), 0, 1, height);
      append_rect (snapshot, tint, 0.6, floor (x1) - 1, 0, 1, height);
    }
  if (hover >= mg_time_view_get_start (self->view) && hover <= mg_time_view_get_end (self->view))
    append_rect (snapshot, mg_graph_render_hover_colour (dark), 1,
                 floor (time_to_x (self, hover, width)), 0, 1, height);
}

static void
mg_metric_graph_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gboolean dark;

  if (width <= 0 || height <= 0 || self->view == NULL)
    return;

  dark = mg_theme_is_dark (GTK_WIDGET (self));
  if (self->graph_node != NULL && self->graph_node_dark != dark)
    g_clear_pointer (&self->graph_node, gsk_render_node_unref);
  self->skipped = self->graph_node == NULL && !in_view (self);
  if (self->skipped)
    return;
  if (self->graph_node == NULL)
    {
      self->graph_node = render_graph_node (self, width, height, dark);
      self->graph_node_dark = dark;
    }
  if (self->graph_node != NULL)
    gtk_snapshot_append_node (snapshot, self->graph_node);
  snapshot_overlays (self, snapshot, width, height, dark);

  if (gtk_widget_has_visible_focus (widget))
    {
      /* The keyboard focus: an inset outline in the selection colour. */
      MgRgba tint = mg_graph_render_selection_colour (dark);
      GskRoundedRect outline;
      GdkRGBA colours[4];
      float widths[4] = { 2, 2, 2, 2 };

      for (guint i = 0; i < 4; i++)
        colours[i] = (GdkRGBA) { tint.r, tint.g, tint.b, 0.8 };
      gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (0, 0, width, height), 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, colours);
    }
}

char *
mg_metric_graph_describe_time (MgMetricGraph *self, double t)
{
  g_return_val_if_fail (MG_IS_METRIC_GRAPH (self), NULL);

  if (self->profile == NULL)
    return NULL;
  return mg_selection_stats_describe_point (self->profile, self->metric,
                                            self->view ? mg_time_view_get_process (self->view)
                                                       : -1,
                                            t);
}

/* Whether a menu of ours (the row's context menu, parented to the
 * graph) is open: no tooltip over it (GTK 4.8 left it drawn there). */
static gboolean
menu_is_open (MgMetricGraph *self)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); c != NULL;
       c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_POPOVER (c) && gtk_widget_get_visible (c))
      return TRUE;
  return FALSE;
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (widget);
  g_autofree char *text = NULL;
  double t;

  if (self->view == NULL || (self->tooltip_closed && !keyboard) || menu_is_open (self))
    return FALSE;
  /* The keyboard cursor's time, while keys move it; else the pointer's. */
  t = keyboard || mg_time_selection_get_keyboard_cursor (self->selection)
        ? mg_time_view_get_hover_time (self->view)
        : mg_time_selection_x_to_time (self->selection, x);
  if (t < 0)
    t = (mg_time_view_get_start (self->view) + mg_time_view_get_end (self->view)) / 2;
  text = mg_metric_graph_describe_time (self, t);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, MgMetricGraph *self)
{
  /* Double-click: back to the whole run. */
  if (n_press == 2 && self->view != NULL)
    mg_time_view_reset (self->view);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, MgMetricGraph *self)
{
  GdkModifierType state;
  double span;

  if (self->view == NULL)
    return FALSE;
  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  span = mg_time_view_get_end (self->view) - mg_time_view_get_start (self->view);
  if (state & GDK_CONTROL_MASK)
    {
      double x = mg_time_selection_get_pointer_x (self->selection);
      double t = x >= 0 ? mg_time_selection_x_to_time (self->selection, x)
                        : (mg_time_view_get_start (self->view) + mg_time_view_get_end (self->view)) / 2;
      mg_time_view_zoom_around (self->view, t, pow (ZOOM_STEP, dy));
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK)
    {
      mg_time_view_pan (self->view, (dy != 0 ? dy : dx) * span * PAN_FRACTION);
      return TRUE;
    }
  if (dx != 0)
    {
      mg_time_view_pan (self->view, dx * span * PAN_FRACTION);
      return TRUE;
    }
  /* Plain vertical scrolling belongs to the list of rows around us. */
  return FALSE;
}

/* What a screen reader says about the focused graph: the figures at the
 * keyboard cursor (as the tooltip), and the selection. */
static void
update_accessible_description (MgMetricGraph *self)
{
  g_autofree char *point = NULL;
  g_autofree char *text = NULL;
  double t;

  if (self->view == NULL || self->profile == NULL)
    return;
  t = mg_time_view_get_hover_time (self->view);
  if (t < mg_time_view_get_start (self->view) || t > mg_time_view_get_end (self->view))
    t = (mg_time_view_get_start (self->view) + mg_time_view_get_end (self->view)) / 2;
  point = mg_metric_graph_describe_time (self, t);
  if (mg_time_view_get_has_selection (self->view))
    {
      g_autofree char *from = mg_units_format_time (mg_time_view_get_selection_start (self->view));
      g_autofree char *to = mg_units_format_time (mg_time_view_get_selection_end (self->view));

      /* Translators: the figures at the keyboard cursor, then the selected time range */
      text = g_strdup_printf (_("%s\nSelected from %s to %s"), point, from, to);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : point, -1);
}

/* Where the keyboard cursor is: the line shown if it is in view, else the
 * view's nearest edge; without a line, the selection's end or the view's
 * centre. */
static double
get_cursor (MgMetricGraph *self)
{
  double t0 = mg_time_view_get_start (self->view);
  double t1 = mg_time_view_get_end (self->view);
  double hover = mg_time_view_get_hover_time (self->view);

  if (hover >= 0)
    return CLAMP (hover, t0, t1);
  if (mg_time_view_get_has_selection (self->view))
    return CLAMP (mg_time_view_get_selection_end (self->view), t0, t1);
  return (t0 + t1) / 2;
}

/* Moves the keyboard cursor to t, panning the view (its width kept) to
 * show it. extend: the selection runs from its anchor to t. The anchor is
 * the selection's other end when the cursor is at one of its ends (it
 * extends a selection made by keys or a drag), else where the cursor was. */
static void
move_cursor (MgMetricGraph *self, double t, gboolean extend)
{
  MgTimeView *view = self->view;
  double old = get_cursor (self);

  t = CLAMP (t, 0, mg_time_view_get_duration (view));
  g_object_freeze_notify (G_OBJECT (view));
  if (extend)
    {
      double anchor = old;

      if (mg_time_view_get_has_selection (view)
          && old == mg_time_view_get_selection_start (view))
        anchor = mg_time_view_get_selection_end (view);
      else if (mg_time_view_get_has_selection (view)
               && old == mg_time_view_get_selection_end (view))
        anchor = mg_time_view_get_selection_start (view);
      mg_time_view_set_selection (view, anchor, t);
    }
  if (t < mg_time_view_get_start (view))
    mg_time_view_pan (view, t - mg_time_view_get_start (view));
  else if (t > mg_time_view_get_end (view))
    mg_time_view_pan (view, t - mg_time_view_get_end (view));
  mg_time_view_set_hover_time (view, t);
  mg_time_selection_set_keyboard_cursor (self->selection, TRUE);
  g_object_thaw_notify (G_OBJECT (view));
  update_accessible_description (self);
  /* A tooltip on show follows the cursor. */
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* The next multiple of step from t in direction (±1): the cursor moves on
 * a grid, so times it reaches are k × step, not sums that drift (a
 * selection ending at 0.6000000000000001 s would count the next window). */
static double
snap_step (double t, double step, int direction)
{
  double k = round (t / step);

  if (step <= 0)
    return t;
  /* Off the grid (a pointer placed it): the next grid point that way. */
  if (direction > 0 ? k * step <= t : k * step >= t)
    k += direction;
  return k * step;
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode,
                GdkModifierType state, MgMetricGraph *self)
{
  gboolean extend = (state & GDK_SHIFT_MASK) != 0;
  double t0, t1, step, cursor, centre;

  /* Ctrl and Alt combinations are the window's (Ctrl+Left pans...). */
  if (self->view == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  step = (t1 - t0) * CURSOR_STEP_FRACTION;
  cursor = get_cursor (self);
  /* Zoom keeps the cursor's line in place when it is in view. */
  centre = mg_time_view_get_hover_time (self->view) >= t0
               && mg_time_view_get_hover_time (self->view) <= t1
             ? mg_time_view_get_hover_time (self->view) : (t0 + t1) / 2;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      move_cursor (self, snap_step (cursor, step, -1), extend);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      move_cursor (self, snap_step (cursor, step, 1), extend);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      move_cursor (self, 0, extend);
      return TRUE;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      move_cursor (self, mg_time_view_get_duration (self->view), extend);
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      mg_time_view_zoom_around (self->view, centre, 1 / ZOOM_STEP);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      mg_time_view_zoom_around (self->view, centre, ZOOM_STEP);
      return TRUE;
    case GDK_KEY_Escape:
      if (!mg_time_view_get_has_selection (self->view))
        return FALSE;
      mg_time_view_clear_selection (self->view);
      update_accessible_description (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
mg_metric_graph_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  invalidate (MG_METRIC_GRAPH (widget));
}

static void
mg_metric_graph_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (mg_metric_graph_parent_class)->css_changed (widget, change);
  /* The theme may have turned dark or light. */
  invalidate (MG_METRIC_GRAPH (widget));
}

void
mg_metric_graph_set_view (MgMetricGraph *self, MgTimeView *view)
{
  g_return_if_fail (MG_IS_METRIC_GRAPH (self));
  g_return_if_fail (view == NULL || MG_IS_TIME_VIEW (view));

  if (!mg_time_view_follow (&self->view, view, self, G_CALLBACK (on_view_notify), 0))
    return;
  self->series_valid = FALSE;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

static void
update_accessible_label (MgMetricGraph *self)
{
  const MgMetricDef *def = get_def (self);

  if (def != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    def->display_name ? def->display_name : def->id, -1);
}

static void
mg_metric_graph_dispose (GObject *object)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (object);

  mg_time_view_unfollow (&self->view, self);
  g_clear_object (&self->profile);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (mg_metric_graph_parent_class)->dispose (object);
}

static void
mg_metric_graph_finalize (GObject *object)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (object);

  g_clear_pointer (&self->lod, mg_lod_free);
  g_clear_pointer (&self->axis, mg_axis_free);
  g_clear_pointer (&self->graph_node, gsk_render_node_unref);
  G_OBJECT_CLASS (mg_metric_graph_parent_class)->finalize (object);
}

static void
mg_metric_graph_get_property (GObject *object, guint prop_id, GValue *value,
                              GParamSpec *pspec)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE: g_value_set_object (value, self->profile); break;
    case PROP_METRIC: g_value_set_uint (value, self->metric); break;
    case PROP_VIEW: g_value_set_object (value, self->view); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_metric_graph_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  MgMetricGraph *self = MG_METRIC_GRAPH (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      self->profile = g_value_dup_object (value);
      self->series_valid = FALSE;
      update_accessible_label (self);
      break;
    case PROP_METRIC:
      self->metric = g_value_get_uint (value);
      self->series_valid = FALSE;
      update_accessible_label (self);
      break;
    case PROP_VIEW: mg_metric_graph_set_view (self, g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_metric_graph_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (mg_metric_graph_parent_class)->realize (widget);
  follow_scroller (MG_METRIC_GRAPH (widget),
                   (GtkScrolledWindow *) gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW));
}

static void
mg_metric_graph_unrealize (GtkWidget *widget)
{
  follow_scroller (MG_METRIC_GRAPH (widget), NULL);
  GTK_WIDGET_CLASS (mg_metric_graph_parent_class)->unrealize (widget);
}

/* Columns follow device pixels. */
static void
on_scale_factor (GtkWidget *widget, GParamSpec *pspec, gpointer user_data)
{
  invalidate (MG_METRIC_GRAPH (widget));
}

static void
mg_metric_graph_class_init (MgMetricGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_metric_graph_dispose;
  object_class->finalize = mg_metric_graph_finalize;
  object_class->get_property = mg_metric_graph_get_property;
  object_class->set_property = mg_metric_graph_set_property;
  widget_class->snapshot = mg_metric_graph_snapshot;
  widget_class->realize = mg_metric_graph_realize;
  widget_class->unrealize = mg_metric_graph_unrealize;
  widget_class->size_allocate = mg_metric_graph_size_allocate;
  widget_class->css_changed = mg_metric_graph_css_changed;

  props[PROP_PROFILE] = g_param_spec_object ("profile", NULL, NULL, MG_TYPE_PROFILE,
                                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                             | G_PARAM_STATIC_STRINGS);
  props[PROP_METRIC] = g_param_spec_uint ("metric", NULL, NULL, 0, G_MAXUINT, 0,
                                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY
                                          | G_PARAM_STATIC_STRINGS);
  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                          | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_css_name (widget_class, "metricgraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mg_metric_graph_init (MgMetricGraph *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  g_signal_connect (widget, "notify::scale-factor", G_CALLBACK (on_scale_factor), NULL);
  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_size_request (widget, -1, DEFAULT_HEIGHT);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  self->selection = mg_time_selection_new (widget);
  mg_theme_follow (widget);

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (widget, controller);

  /* Focused, it tells screen readers what is at the cursor. */
  controller = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (controller, "enter", G_CALLBACK (update_accessible_description), self);
  gtk_widget_add_controller (widget, controller);
}

GtkWidget *
mg_metric_graph_new (MgProfile *profile, guint metric, MgTimeView *view)
{
  return g_object_new (MG_TYPE_METRIC_GRAPH, "profile", profile, "metric", metric, "view",
                       view, NULL);
}

MgProfile *
mg_metric_graph_get_profile (MgMetricGraph *self)
{
  g_return_val_if_fail (MG_IS_METRIC_GRAPH (self), NULL);
  return self->profile;
}

guint
mg_metric_graph_get_metric (MgMetricGraph *self)
{
  g_return_val_if_fail (MG_IS_METRIC_GRAPH (self), 0);
  return self->metric;
}

MgTimeView *
mg_metric_graph_get_view (MgMetricGraph *self)
{
  g_return_val_if_fail (MG_IS_METRIC_GRAPH (self), NULL);
  return self->view;
}
