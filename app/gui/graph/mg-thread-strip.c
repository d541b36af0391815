/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-thread activity strip widget. */
#include "mg-config.h"

#include "mg-thread-strip.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mg-theme.h"
#include "mg-time-selection.h"
#include "plot/mg-activity-render.h"
#include "plot/mg-graph-render.h"
#include "plot/mg-text-sink.h"

/* A strip's height; the rest of the pitch is the gap under it. */
#define STRIP_HEIGHT 12
#define LEGEND_FONT 11
#define SWATCH 10
/* Left and Right move the keyboard cursor by this much of the view. */
#define CURSOR_STEP_FRACTION 0.01

struct _MgThreadStrip
{
  GtkWidget parent_instance;

  MgProfile *profile;
  MgTimeView *view;
  MgTimeSelection *selection;
  MgThreadStrips *strips; /* for strips_process; NULL until asked */
  int strips_process;     /* -2: not computed */
  gboolean default_process;
  double pointer_y;
  guint key_row; /* the thread Up and Down chose */
};

G_DEFINE_FINAL_TYPE (MgThreadStrip, mg_thread_strip, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_VIEW, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { STRIPS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

void
mg_thread_strip_class_colour (MgThreadClass klass, double rgb[3])
{
  MgRgba c;

  if ((guint) klass < MG_ACTIVITY_N_CLASSES)
    c = mg_activity_render_class_colour ((MgActivityClass) klass);
  else
    /* Okabe–Ito's reddish purple: 3.06 : 1 on the light background, 5.08 :
     * 1 on the dark one, apart from the four (/thread-strip/palette). */
    c = (MgRgba) { 0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0, 1 };
  rgb[0] = c.r;
  rgb[1] = c.g;
  rgb[2] = c.b;
}

/* The process shown: the view's, or the default for every process. */
static int
wanted_process (MgThreadStrip *self, gboolean *is_default)
{
  int process = self->view != NULL ? mg_time_view_get_process (self->view) : -1;

  *is_default = process < 0;
  return process >= 0 ? process : mg_thread_strips_default_process (self->profile);
}

static void
update_strips (MgThreadStrip *self)
{
  gboolean is_default;
  int process = wanted_process (self, &is_default);

  if (process == self->strips_process && is_default == self->default_process)
    return;
  self->default_process = is_default;
  if (process != self->strips_process)
    {
      self->strips_process = process;
      g_clear_pointer (&self->strips, mg_thread_strips_free);
      if (process >= 0)
        self->strips = mg_thread_strips_new (self->profile, process);
      if (self->strips != NULL && mg_thread_strips_get_n_rows (self->strips) == 0)
        g_clear_pointer (&self->strips, mg_thread_strips_free);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_signal_emit (self, signals[STRIPS_CHANGED], 0);
}

const MgThreadStrips *
mg_thread_strip_get_strips (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), NULL);
  update_strips (self);
  return self->strips;
}

guint
mg_thread_strip_get_n_shown (MgThreadStrip *self)
{
  const MgThreadStrips *strips = mg_thread_strip_get_strips (self);

  return strips != NULL ? MIN (mg_thread_strips_get_n_rows (strips), MG_THREAD_STRIP_MAX_ROWS) : 0;
}

gboolean
mg_thread_strip_is_default_process (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), FALSE);
  update_strips (self);
  return self->default_process;
}

static void
on_view_notify (MgTimeView *view, GParamSpec *pspec, MgThreadStrip *self)
{
  if (g_str_equal (pspec->name, "process"))
    update_strips (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_rgb (cairo_t *cr, MgThreadClass klass)
{
  double rgb[3];

  mg_thread_strip_class_colour (klass, rgb);
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

/* Large text makes the legend and the rows taller, so the thread names
 * beside them (labels that grow with the text) stay level with their
 * strips. */
static double
strip_scale (GtkWidget *widget)
{
  return mg_theme_text_scale (widget);
}

int
mg_thread_strip_get_legend_height (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), MG_THREAD_STRIP_LEGEND_HEIGHT);
  return (int) round (MG_THREAD_STRIP_LEGEND_HEIGHT * strip_scale (GTK_WIDGET (self)));
}

int
mg_thread_strip_get_pitch (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), MG_THREAD_STRIP_PITCH);
  return (int) round (MG_THREAD_STRIP_PITCH * strip_scale (GTK_WIDGET (self)));
}

static void
draw_legend (cairo_t *cr, gboolean dark, gboolean with_io, double scale)
{
  double legend = MG_THREAD_STRIP_LEGEND_HEIGHT * scale, swatch = SWATCH * scale;
  double x = 6, baseline = legend / 2.0 + LEGEND_FONT * scale / 2.0 - 1.5;

  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, LEGEND_FONT * scale);
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    {
      const char *name = mg_thread_class_name (k);
      cairo_text_extents_t ext;

      /* I/O and Waiting only where a strip can tell them (the main
       * thread's from the activity plugin). */
      if ((k == MG_THREAD_IO || k == MG_THREAD_WAITING) && !with_io)
        continue;
      set_rgb (cr, k);
      cairo_rectangle (cr, x, (legend - swatch) / 2.0, swatch, swatch);
      cairo_fill (cr);
      x += swatch + 4;
      cairo_set_source_rgba (cr, dark, dark, dark, dark ? 0.75 : 0.7);
      cairo_move_to (cr, x, baseline);
      mg_text_show (cr, name);
      cairo_text_extents (cr, name, &ext);
      x += ext.x_advance + 12;
    }
}

/* One rectangle per run of equal class. */
static void
draw_row (cairo_t *cr, const guint8 *classes, guint n, double column_width, double y,
          double strip_height)
{
  for (guint c = 0; c < n;)
    {
      guint end = c + 1;

      while (end < n && classes[end] == classes[c])
        end++;
      if (classes[c] != MG_THREAD_NONE)
        {
          set_rgb (cr, classes[c]);
          cairo_rectangle (cr, c * column_width, y, (end - c) * column_width, strip_height);
          cairo_fill (cr);
        }
      c = end;
    }
}

static double
time_to_x (double t, double t0, double t1, int width)
{
  return (t - t0) / (t1 - t0) * width;
}

static void
draw_selection (cairo_t *cr, MgThreadStrip *self, double t0, double t1, int width, int height,
                gboolean dark)
{
  MgRgba tint = mg_graph_render_selection_colour (dark);
  double x0 = CLAMP (time_to_x (mg_time_view_get_selection_start (self->view), t0, t1, width), 0,
                     width);
  double x1 = CLAMP (time_to_x (mg_time_view_get_selection_end (self->view), t0, t1, width), 0,
                     width);
  double y0 = mg_thread_strip_get_legend_height (self);

  if (x1 - x0 < 1)
    x1 = x0 + 1;
  cairo_set_source_rgba (cr, tint.r, tint.g, tint.b, 0.25);
  cairo_rectangle (cr, x0, y0, x1 - x0, height - y0);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, tint.r, tint.g, tint.b, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, floor (x0) + 0.5, y0);
  cairo_line_to (cr, floor (x0) + 0.5, height);
  cairo_move_to (cr, floor (x1) - 0.5, y0);
  cairo_line_to (cr, floor (x1) - 0.5, height);
  cairo_stroke (cr);
}

static void
mg_thread_strip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  MgThreadStrip *self = MG_THREAD_STRIP (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  gboolean dark = mg_theme_is_dark (widget);
  const MgThreadStrips *strips;
  gboolean with_io = FALSE;
  double t0, t1, hover, text_scale = strip_scale (widget);
  int legend = mg_thread_strip_get_legend_height (self), pitch = mg_thread_strip_get_pitch (self);
  cairo_t *cr;

  if (width <= 0 || height <= 0 || self->view == NULL)
    return;
  strips = mg_thread_strip_get_strips (self);
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  {
    MgRgba bg = mg_graph_render_background (dark);

    cairo_set_source_rgb (cr, bg.r, bg.g, bg.b);
    cairo_paint (cr);
  }
  for (guint r = 0; r < mg_thread_strip_get_n_shown (self); r++)
    with_io |= mg_thread_strips_row_has_activity (strips, r);
  draw_legend (cr, dark, with_io, text_scale);
  if (strips != NULL && t1 > t0)
    {
      /* One column per device pixel. */
      double scale = gtk_widget_get_scale_factor (widget);
      guint n = (guint) MAX (1, ceil (width * scale));
      g_autofree guint8 *classes = g_new (guint8, n);

      for (guint r = 0; r < mg_thread_strip_get_n_shown (self); r++)
        {
          mg_thread_strips_columns (strips, r, t0, t1, n, classes);
          draw_row (cr, classes, n, width / (double) n, legend + r * pitch,
                    round (STRIP_HEIGHT * text_scale));
        }
    }
  if (mg_time_view_get_has_selection (self->view))
    draw_selection (cr, self, t0, t1, width, height, dark);
  if (strips != NULL && gtk_widget_has_focus (widget))
    {
      /* The thread the keys act on. */
      double y = legend + MIN (self->key_row, mg_thread_strip_get_n_shown (self) - 1) * pitch;

      cairo_set_source_rgba (cr, dark, dark, dark, 0.8);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, 0.5, y - 1.5, width - 1, round (STRIP_HEIGHT * text_scale) + 3);
      cairo_stroke (cr);
    }
  hover = mg_time_view_get_hover_time (self->view);
  if (hover >= t0 && hover <= t1 && t1 > t0)
    mg_graph_render_hover_line (cr, time_to_x (hover, t0, t1, width), legend, height - legend,
                                dark);
  cairo_destroy (cr);
}

/* The text's resolution may have changed (gtk-xft-dpi): the legend and
 * the rows follow it. */
static void
mg_thread_strip_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (mg_thread_strip_parent_class)->css_changed (widget, change);
  gtk_widget_queue_resize (widget);
}

static void
mg_thread_strip_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                         int *natural, int *minimum_baseline, int *natural_baseline)
{
  MgThreadStrip *self = MG_THREAD_STRIP (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 1;
      *natural = 200;
      return;
    }
  *minimum = *natural = mg_thread_strip_get_legend_height (self)
                        + (int) mg_thread_strip_get_n_shown (self) * mg_thread_strip_get_pitch (self);
}

int
mg_thread_strip_row_at (MgThreadStrip *self, double y)
{
  const MgThreadStrips *strips;
  double r;

  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), -1);
  r = floor ((y - mg_thread_strip_get_legend_height (self)) / mg_thread_strip_get_pitch (self));
  strips = mg_thread_strip_get_strips (self);
  if (strips == NULL || r < 0 || r >= mg_thread_strip_get_n_shown (self))
    return -1;
  return (int) r;
}

char *
mg_thread_strip_describe (MgThreadStrip *self, guint row, double t)
{
  const MgThreadStrips *strips;
  double shares[MG_THREAD_N_CLASSES], start, end;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *name = NULL;
  gboolean first = TRUE;

  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), NULL);
  strips = mg_thread_strip_get_strips (self);
  if (strips == NULL || row >= mg_thread_strips_get_n_rows (strips)
      || !mg_thread_strips_shares (strips, row, t, t, &start, &end, shares))
    return NULL;
  name = mg_thread_strips_thread_name (strips, mg_thread_strips_get_ordinal (strips, row));
  /* TRANSLATORS: a thread and the span of its sample windows under the
   * pointer, "Thread 2, 1.20–1.24 s: " followed by the class shares */
  g_string_printf (text, _("%s, %.2f–%.2f s: "), name, start, end);
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    {
      if (isnan (shares[k]))
        continue;
      if (!first)
        g_string_append (text, ", ");
      first = FALSE;
      /* TRANSLATORS: an activity class and its share of the samples, "MPI 25 %" */
      g_string_append_printf (text, _("%s %.0f %%"), mg_thread_class_name (k), shares[k]);
    }
  if (!mg_thread_strips_row_has_activity (strips, row))
    {
      g_string_append_c (text, '\n');
      g_string_append (text, _("Off CPU: in I/O, asleep, waiting on a lock, or ready but "
                               "waiting for a CPU on a busy machine; the call stacks do not tell "
                               "these apart for a thread other than the main one."));
    }
  return g_strdup (text->str);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  MgThreadStrip *self = MG_THREAD_STRIP (widget);
  int row = mg_thread_strip_row_at (self, y);
  g_autofree char *text = NULL;

  if (self->view == NULL)
    return FALSE;
  if (row < 0)
    {
      if (y >= mg_thread_strip_get_legend_height (self))
        return FALSE;
      /* The legend says where the classes come from. */
      gtk_tooltip_set_text (tooltip,
                            _("Computing and MPI come from the call stacks sampled in each "
                              "thread; Off CPU is the samples a thread lacks: I/O, sleep and "
                              "lock waits, and waits for a CPU on a busy machine, not told apart "
                              "per thread. The main thread's strip reads the activity metrics, "
                              "which tell I/O from Waiting."));
      return TRUE;
    }
  text = mg_thread_strip_describe (self, (guint) row,
                                   mg_time_selection_x_to_time (self->selection, x));
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, MgThreadStrip *self)
{
  self->pointer_y = y;
}

gboolean
mg_thread_strip_select_at (MgThreadStrip *self, double x, double y)
{
  int row;
  double shares[MG_THREAD_N_CLASSES], start, end, t;

  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), FALSE);
  row = mg_thread_strip_row_at (self, y);
  if (self->view == NULL || row < 0)
    return FALSE;
  t = mg_time_selection_x_to_time (self->selection, x);
  if (!mg_thread_strips_shares (self->strips, (guint) row, t, t, &start, &end, shares))
    return FALSE;
  mg_time_view_set_selection (self->view, start, end);
  return TRUE;
}

static void
on_click (GtkWidget *widget, double x, gpointer user_data)
{
  MgThreadStrip *self = MG_THREAD_STRIP (widget);

  /* Elsewhere than a thread's windows a click clears, as on the rows. */
  if (!mg_thread_strip_select_at (self, x, self->pointer_y) && self->view != NULL)
    mg_time_view_clear_selection (self->view);
}

/* Screen readers hear the chosen thread's shares at the keyboard cursor. */
static void
update_accessible_description (MgThreadStrip *self, double t)
{
  g_autofree char *text = mg_thread_strip_describe (self, self->key_row, t);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  text != NULL ? text : "", -1);
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
                MgThreadStrip *self)
{
  const MgThreadStrips *strips = mg_thread_strip_get_strips (self);
  guint n_rows = mg_thread_strip_get_n_shown (self);
  double t0, t1, cursor, shares[MG_THREAD_N_CLASSES], start, end;

  /* Ctrl and Alt combinations are the window's (Ctrl+Left pans...). */
  if (self->view == NULL || n_rows == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)))
    return FALSE;
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  cursor = mg_time_view_get_hover_time (self->view);
  if (!(cursor >= t0 && cursor <= t1))
    cursor = t0;
  self->key_row = MIN (self->key_row, n_rows - 1);
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_Down:
      if (keyval == GDK_KEY_Up ? self->key_row == 0 : self->key_row + 1 >= n_rows)
        return FALSE;
      self->key_row += keyval == GDK_KEY_Up ? -1 : 1;
      update_accessible_description (self, cursor);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_Right:
      {
        int direction = keyval == GDK_KEY_Left ? -1 : 1;
        double step = (t1 - t0) * CURSOR_STEP_FRACTION;
        /* On a grid of k × step, as the activity row's cursor. */
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
      /* As a click there: the chosen thread's windows at the cursor. */
      if (mg_thread_strips_shares (strips, self->key_row, cursor, cursor, &start, &end, shares))
        mg_time_view_set_selection (self->view, start, end);
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

guint
mg_thread_strip_get_key_row (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), 0);
  return self->key_row;
}

static void
set_view (MgThreadStrip *self, MgTimeView *view)
{
  if (!mg_time_view_follow (&self->view, view, self, G_CALLBACK (on_view_notify), 0))
    return;
  update_strips (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

MgTimeView *
mg_thread_strip_get_view (MgThreadStrip *self)
{
  g_return_val_if_fail (MG_IS_THREAD_STRIP (self), NULL);
  return self->view;
}

static void
mg_thread_strip_dispose (GObject *object)
{
  MgThreadStrip *self = MG_THREAD_STRIP (object);

  mg_time_view_unfollow (&self->view, self);
  g_clear_pointer (&self->strips, mg_thread_strips_free);
  g_clear_object (&self->profile);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (mg_thread_strip_parent_class)->dispose (object);
}

static void
mg_thread_strip_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW: g_value_set_object (value, MG_THREAD_STRIP (object)->view); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_thread_strip_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_VIEW: set_view (MG_THREAD_STRIP (object), g_value_get_object (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_thread_strip_class_init (MgThreadStripClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_thread_strip_dispose;
  object_class->get_property = mg_thread_strip_get_property;
  object_class->set_property = mg_thread_strip_set_property;
  widget_class->snapshot = mg_thread_strip_snapshot;
  widget_class->measure = mg_thread_strip_measure;
  widget_class->css_changed = mg_thread_strip_css_changed;
  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                            | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  signals[STRIPS_CHANGED] = g_signal_new ("strips-changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "threadstrip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
mg_thread_strip_init (MgThreadStrip *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->strips_process = -2;
  self->pointer_y = -1;
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  gtk_widget_add_controller (widget, motion);
  self->selection = mg_time_selection_new (widget);
  mg_time_selection_set_click_func (self->selection, on_click, NULL);
  gtk_widget_set_focusable (widget, TRUE);
  {
    GtkEventController *key = gtk_event_controller_key_new ();

    GtkEventController *focus = gtk_event_controller_focus_new ();

    g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
    gtk_widget_add_controller (widget, key);
    /* The chosen thread's outline shows while focused. */
    g_signal_connect_swapped (focus, "enter", G_CALLBACK (gtk_widget_queue_draw), widget);
    g_signal_connect_swapped (focus, "leave", G_CALLBACK (gtk_widget_queue_draw), widget);
    gtk_widget_add_controller (widget, focus);
  }
  mg_theme_follow (widget);
}

GtkWidget *
mg_thread_strip_new (MgProfile *profile, MgTimeView *view)
{
  MgThreadStrip *self;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  self = g_object_new (MG_TYPE_THREAD_STRIP, NULL);
  self->profile = g_object_ref (profile);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Activity per thread"), -1);
  set_view (self, view);
  return GTK_WIDGET (self);
}
