/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgMetricGraph and MgTimeAxis in a real window (under Xvfb): pixels,
 * view following, tooltip text, keyboard, scroll and drag. */
#include "mg-config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "graph-fixture.h"
#include "plot/mg-graph-render.h"
#include "gui/graph/mg-metric-graph.h"
#include "gui/graph/mg-theme.h"
#include "plot/mg-selection-stats.h"
#include "gui/graph/mg-time-axis.h"
#include "defs/mg-units.h"
#include "graph-test-util.h"
#include "mg-test-common.h"

#define GRAPH_WIDTH 400

typedef struct {
  MgProfile *profile;
  MgTimeView *view;
  GtkWidget *window;
  GtkWidget *graphs[4];
  GtkWidget *axis;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gint64 deadline;

  f->profile = graph_fixture_profile (4, 4, 200, 10, TRUE);
  f->view = mg_time_view_new (mg_profile_get_run_info (f->profile)->duration_s);
  f->window = gtk_window_new ();
  for (guint i = 0; i < 4; i++)
    {
      f->graphs[i] = mg_metric_graph_new (f->profile, i, f->view);
      gtk_widget_set_size_request (f->graphs[i], GRAPH_WIDTH, 80);
      gtk_box_append (GTK_BOX (box), f->graphs[i]);
    }
  f->axis = mg_time_axis_new (f->view);
  gtk_box_append (GTK_BOX (box), f->axis);
  gtk_window_set_child (GTK_WINDOW (f->window), box);
  gtk_window_set_resizable (GTK_WINDOW (f->window), FALSE);
  gtk_window_present (GTK_WINDOW (f->window));

  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while ((!gtk_widget_get_mapped (f->graphs[3]) || gtk_widget_get_width (f->axis) == 0)
         && g_get_monotonic_time () < deadline)
    mg_test_spin (10);
  g_assert_true (gtk_widget_get_mapped (f->graphs[3]));
  g_assert_cmpint (gtk_widget_get_width (f->axis), >, 0);
  mg_test_spin (50);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  mg_test_spin (20);
  g_object_unref (f->view);
  g_object_unref (f->profile);
}

typedef struct {
  int r, g, b;
} Pixel;

static Pixel
get_pixel (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 v = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

  return (Pixel) { (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
}

static gboolean
column_is_neutral (cairo_surface_t *surface, int x)
{
  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    {
      Pixel p = get_pixel (surface, x, y);
      if (abs (p.r - p.g) > 3 || abs (p.g - p.b) > 3)
        return FALSE;
    }
  return TRUE;
}

/* Pixels close to the colour (alpha-blended bands count). */
static guint
count_tinted (cairo_surface_t *surface, int x0, int x1)
{
  guint n = 0;

  for (int x = x0; x < x1; x++)
    for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
      {
        Pixel p = get_pixel (surface, x, y);
        /* #E65100 and its tints: red well above blue. */
        if (p.r - p.b > 60)
          n++;
      }
  return n;
}

static void
test_pixels (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[2];
  int width = gtk_widget_get_width (graph);
  cairo_surface_t *surface = graph_test_render_widget (graph);
  Pixel bg;

  g_assert_cmpint (width, >=, GRAPH_WIDTH);
  /* The gap over [4, 5) s of the run leaves the background... */
  g_assert_true (column_is_neutral (surface, (int) (width * 0.45)));
  /* ...and the definition colour is drawn elsewhere. */
  g_assert_cmpuint (count_tinted (surface, 0, (int) (width * 0.4)), >, 200);
  bg = get_pixel (surface, (int) (width * 0.45), 40);
  g_assert_cmpint (bg.r, >, 200);
  g_assert_false (mg_theme_is_dark (graph));
  cairo_surface_destroy (surface);

  /* Zoomed into the gap, the whole row is background. */
  mg_time_view_set_selection (f->view, 4.1, 4.9);
  mg_time_view_zoom_to_selection (f->view);
  mg_test_spin (30);
  surface = graph_test_render_widget (graph);
  g_assert_cmpuint (count_tinted (surface, 0, width), ==, 0);
  cairo_surface_destroy (surface);
}

static void
test_dark_theme (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[2];
  cairo_surface_t *surface;
  Pixel bg;

  g_object_set (gtk_widget_get_settings (graph), "gtk-application-prefer-dark-theme", TRUE,
                NULL);
  mg_test_spin (50);
  g_assert_true (mg_theme_is_dark (graph));
  surface = graph_test_render_widget (graph);
  bg = get_pixel (surface, (int) (gtk_widget_get_width (graph) * 0.45), 40);
  g_assert_cmpint (MAX (MAX (bg.r, bg.g), bg.b), <, 70);
  cairo_surface_destroy (surface);
  g_object_set (gtk_widget_get_settings (graph), "gtk-application-prefer-dark-theme", FALSE,
                NULL);
  mg_test_spin (50);
}

static void
test_hover_line_and_tooltip (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[2];
  int width = gtk_widget_get_width (graph);
  const MgSeries *series = mg_profile_get_series (f->profile, 2);
  const MgMetricDef *def = mg_profile_get_metric (f->profile, 2);
  g_autofree char *text = NULL;
  g_autofree char *gap_text = NULL;
  g_autofree char *own = NULL;
  g_autofree char *max = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *min = NULL;
  g_autofree char *expected = NULL;
  cairo_surface_t *surface;
  int hover_x = (int) floor (4.5 / 10 * width);

  /* Hovering one row draws the line on every row (same view). */
  mg_time_view_set_hover_time (f->view, 4.5);
  mg_test_spin (30);
  surface = graph_test_render_widget (f->graphs[0]);
  g_assert_cmpint (get_pixel (surface, hover_x, 5).r, <, 180);
  g_assert_cmpint (get_pixel (surface, hover_x + 6, 5).r, >, 200);
  cairo_surface_destroy (surface);

  /* Window 50 = [2.5, 2.55) s. */
  text = mg_metric_graph_describe_time (MG_METRIC_GRAPH (graph), 2.52);
  max = mg_units_format_value (def, series->maxs[50]);
  mean = mg_units_format_value (def, series->means[50]);
  min = mg_units_format_value (def, series->mins[50]);
  expected = g_strdup_printf ("Bytes written at 2.52 s\nMax: %s (rank %d)\nMean: %s\n"
                              "Min: %s (rank %d)",
                              max, series->max_process[50], mean, min,
                              series->min_process[50]);
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpint (series->max_process[50], !=, series->min_process[50]);

  gap_text = mg_metric_graph_describe_time (MG_METRIC_GRAPH (graph), 4.5);
  g_assert_cmpstr (gap_text, ==, "Bytes written at 4.5 s\nNo value");

  /* One process's own series. */
  mg_time_view_set_process (f->view, 1);
  own = mg_metric_graph_describe_time (MG_METRIC_GRAPH (graph), 2.52);
  g_assert_true (g_str_has_prefix (own, "Bytes written at 2.52 s (rank 1)\nMax: "));
  g_assert_null (strstr (own + 30, "rank"));
}

static gboolean
emit_on_controller (GtkWidget *widget, GType type, const char *signal, ...)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        {
          va_list args;
          va_start (args, signal);
          g_signal_emit_valist (controller, g_signal_lookup (signal, type), 0, args);
          va_end (args);
          return TRUE;
        }
    }
  return FALSE;
}

static void
test_keyboard_scroll_drag (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[0];
  double width = gtk_widget_get_width (graph);
  gboolean handled = FALSE;
  double t0, t1;

  g_assert_true (gtk_widget_get_focusable (graph));

  /* Without a cursor, + zooms in around the centre, − back out. */
  g_assert_true (emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed",
                                     GDK_KEY_plus, 0, 0, &handled));
  g_assert_true (handled);
  t0 = mg_time_view_get_start (f->view);
  t1 = mg_time_view_get_end (f->view);
  g_assert_cmpfloat_with_epsilon (t1 - t0, 8, 1e-9);
  g_assert_cmpfloat_with_epsilon (t0, 1, 1e-9);
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", GDK_KEY_minus, 0,
                      0, &handled);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (f->view)
                                  - mg_time_view_get_start (f->view), 10, 1e-9);
  /* Ctrl and Alt combinations are left to the window. */
  handled = TRUE;
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", GDK_KEY_Right, 0,
                      GDK_CONTROL_MASK, &handled);
  g_assert_false (handled);
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), ==, -1);

  /* Drag from 25 % to 50 % of the width selects that part of the run. */
  emit_on_controller (graph, GTK_TYPE_GESTURE_DRAG, "drag-begin", width * 0.25, 10.0);
  emit_on_controller (graph, GTK_TYPE_GESTURE_DRAG, "drag-update", width * 0.25, 2.0);
  emit_on_controller (graph, GTK_TYPE_GESTURE_DRAG, "drag-end", width * 0.25, 2.0);
  g_assert_true (mg_time_view_get_has_selection (f->view));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_start (f->view), 2.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_end (f->view), 5, 1e-9);

  /* Escape clears it; a second Escape is not ours to handle. */
  handled = FALSE;
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", GDK_KEY_Escape, 0,
                      0, &handled);
  g_assert_true (handled);
  g_assert_false (mg_time_view_get_has_selection (f->view));
  handled = TRUE;
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", GDK_KEY_Escape, 0,
                      0, &handled);
  g_assert_false (handled);

  /* Horizontal scroll pans; plain vertical scroll is left to the list. */
  mg_time_view_set_range (f->view, 2, 4);
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_SCROLL, "scroll", 1.0, 0.0, &handled);
  g_assert_true (handled);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (f->view), 2.2, 1e-9);
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_SCROLL, "scroll", 0.0, 1.0, &handled);
  g_assert_false (handled);

  /* A drag on the time axis selects too. */
  emit_on_controller (f->axis, GTK_TYPE_GESTURE_DRAG, "drag-begin", 0.0, 5.0);
  emit_on_controller (f->axis, GTK_TYPE_GESTURE_DRAG, "drag-update",
                      gtk_widget_get_width (f->axis) / 2.0, 0.0);
  g_assert_true (mg_time_view_get_has_selection (f->view));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_start (f->view), 2.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_end (f->view), 3.2, 1e-9);
}

static gboolean
press (GtkWidget *graph, guint keyval, GdkModifierType state)
{
  gboolean handled = FALSE;

  g_assert_true (emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_KEY, "key-pressed", keyval,
                                     0, state, &handled));
  return handled;
}

static void
press_n (GtkWidget *graph, guint n, guint keyval, GdkModifierType state)
{
  for (guint i = 0; i < n; i++)
    g_assert_true (press (graph, keyval, state));
}

static void
assert_selection (MgTimeView *view, double t0, double t1)
{
  g_assert_true (mg_time_view_get_has_selection (view));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_start (view), t0, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_selection_end (view), t1, 1e-9);
}

/* The keyboard cursor: the hover line, moved by Left / Right (a hundredth
 * of the view), Home / End; with Shift it extends a selection; the view
 * pans to keep it shown; screen readers and the tooltip follow it. */
static void
test_keyboard_cursor (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[2];
  g_autofree char *expected = NULL;
  g_autofree char *point = NULL;
  g_autofree char *error = NULL;

  /* The 10 s run in view: steps of 0.1 s from the centre. */
  g_assert_true (press (graph, GDK_KEY_Right, 0));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 5.1, 1e-9);
  g_assert_false (mg_time_view_get_has_selection (f->view));
  press_n (graph, 3, GDK_KEY_Left, 0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 4.8, 1e-9);

  /* Shift: a selection from where the cursor was... */
  press_n (graph, 10, GDK_KEY_Right, GDK_SHIFT_MASK);
  assert_selection (f->view, 4.8, 5.8);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 5.8, 1e-9);
  /* ...whose other end stays put, also when the cursor crosses it. */
  press_n (graph, 20, GDK_KEY_Left, GDK_SHIFT_MASK);
  assert_selection (f->view, 3.8, 4.8);
  /* The figures at the cursor and the selection, for screen readers. */
  point = mg_metric_graph_describe_time (MG_METRIC_GRAPH (graph), 3.8);
  expected = g_strdup_printf ("%s\nSelected from 3.8 s to 4.8 s", point);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (graph),
                                              GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
  g_assert_null (error);
  /* Moving without Shift leaves the selection; Shift+End extends it to the
   * end of the run from its anchor... */
  g_assert_true (press (graph, GDK_KEY_Right, 0));
  assert_selection (f->view, 3.8, 4.8);
  g_assert_true (press (graph, GDK_KEY_Left, 0));
  g_assert_true (press (graph, GDK_KEY_End, GDK_SHIFT_MASK));
  assert_selection (f->view, 4.8, 10);
  /* ...and Home moves the cursor alone. */
  g_assert_true (press (graph, GDK_KEY_Home, 0));
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), ==, 0);
  assert_selection (f->view, 4.8, 10);
  g_assert_true (press (graph, GDK_KEY_Escape, 0));
  g_assert_false (mg_time_view_get_has_selection (f->view));

  /* Zoomed in: reaching the edge pans the view, its width kept. */
  mg_time_view_set_range (f->view, 2, 4);
  mg_time_view_set_hover_time (f->view, 3.9);
  press_n (graph, 10, GDK_KEY_Right, 0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 4.1, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (f->view), 2.1, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (f->view), 4.1, 1e-9);
  g_assert_true (press (graph, GDK_KEY_Home, GDK_SHIFT_MASK));
  assert_selection (f->view, 0, 4.1);
  g_assert_cmpfloat (mg_time_view_get_start (f->view), ==, 0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (f->view), 2, 1e-9);
  /* A cursor left outside the view (panned away) starts from its edge. */
  mg_time_view_set_range (f->view, 6, 8);
  g_assert_true (press (graph, GDK_KEY_Right, 0));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 6.02, 1e-9);
  /* + zooms around the cursor: it stays where it is on screen. */
  g_assert_true (press (graph, GDK_KEY_plus, 0));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (f->view) - mg_time_view_get_start (f->view),
                                  2 / 1.25, 1e-9);
  g_assert_cmpfloat_with_epsilon ((6.02 - mg_time_view_get_start (f->view))
                                  / (mg_time_view_get_end (f->view) - mg_time_view_get_start (f->view)),
                                  0.01, 1e-9);

  /* The pointer leaving does not take the keys' line away; once the
   * pointer moved, its line is the pointer's, and leaving clears it. */
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "leave");
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 6.02, 1e-9);
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", 10.0, 10.0);
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), !=, 6.02);
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "leave");
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), ==, -1);
}

static gboolean
query_tooltip (GtkWidget *graph, gboolean keyboard)
{
  g_autoptr (GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  gboolean shown = FALSE;

  g_signal_emit_by_name (graph, "query-tooltip", 20, 10, keyboard, tooltip, &shown);
  return shown;
}

/* A tooltip describes what was under the pointer: once the view zooms or
 * pans under it, it closes (issue #32: one stayed up two minutes after
 * Ctrl+scroll), and opens again when the pointer moves; leaving closes it.
 * A tooltip the keyboard asks for still shows. */
static void
test_tooltip_closes (Fixture *f, gconstpointer data)
{
  GtkWidget *graph = f->graphs[0];

  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", 20.0, 10.0);
  g_assert_true (query_tooltip (graph, FALSE));
  mg_time_view_zoom_around (f->view, 5, 0.5);
  g_assert_false (query_tooltip (graph, FALSE));
  g_assert_true (query_tooltip (graph, TRUE));
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", 22.0, 10.0);
  g_assert_true (query_tooltip (graph, FALSE));
  mg_time_view_pan (f->view, 1);
  g_assert_false (query_tooltip (graph, FALSE));
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", 24.0, 10.0);
  g_assert_true (query_tooltip (graph, FALSE));
  emit_on_controller (graph, GTK_TYPE_EVENT_CONTROLLER_MOTION, "leave");
  g_assert_false (query_tooltip (graph, FALSE));
}

/* The pointer on the axis chooses times as on a graph: hover, and a press
 * that moves less than the threshold is a click, which clears the
 * selection. */
static void
test_axis_pointer (Fixture *f, gconstpointer data)
{
  double width = gtk_widget_get_width (f->axis);
  GtkWidget *widgets[] = { f->axis, f->graphs[1] };

  emit_on_controller (f->axis, GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", width / 4, 5.0);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 2.5, 1e-9);
  emit_on_controller (f->axis, GTK_TYPE_EVENT_CONTROLLER_MOTION, "leave");
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), ==, -1);

  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    {
      mg_time_view_set_selection (f->view, 1, 2);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-begin", width / 2, 5.0);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-update", 2.0, 0.0);
      assert_selection (f->view, 1, 2);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-end", 2.0, 0.0);
      g_assert_false (mg_time_view_get_has_selection (f->view));
    }
}

/* Without a view, the pointer on the axis or a graph does nothing, and
 * warns of nothing (warnings are fatal here). */
static void
test_no_view (Fixture *f, gconstpointer data)
{
  GtkWidget *widgets[] = { f->axis, f->graphs[0] };

  mg_time_axis_set_view (MG_TIME_AXIS (f->axis), NULL);
  mg_metric_graph_set_view (MG_METRIC_GRAPH (f->graphs[0]), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (widgets); i++)
    {
      emit_on_controller (widgets[i], GTK_TYPE_EVENT_CONTROLLER_MOTION, "motion", 20.0, 5.0);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-begin", 10.0, 5.0);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-update", 50.0, 0.0);
      emit_on_controller (widgets[i], GTK_TYPE_GESTURE_DRAG, "drag-end", 50.0, 0.0);
      emit_on_controller (widgets[i], GTK_TYPE_EVENT_CONTROLLER_MOTION, "leave");
    }
  g_assert_false (mg_time_view_get_has_selection (f->view));
  g_assert_cmpfloat (mg_time_view_get_hover_time (f->view), ==, -1);
  mg_test_spin (30);
}

static void
test_axis (Fixture *f, gconstpointer data)
{
  const MgAxis *axis = mg_metric_graph_get_axis (MG_METRIC_GRAPH (f->graphs[2]));
  const MgAxis *cpu = mg_metric_graph_get_axis (MG_METRIC_GRAPH (f->graphs[0]));
  double whole_max;

  g_assert_nonnull (axis);
  g_assert_cmpstr (axis->unit, ==, "MiB/s");
  g_assert_cmpfloat (axis->min, ==, 0);
  whole_max = axis->max;
  g_assert_true (cpu->percent);
  /* The percentage ends close above its data, never past 100. */
  {
    const MgSeries *series = mg_profile_get_series (f->profile, 0);
    double data_max = 0;

    for (guint w = 0; w < mg_profile_get_n_windows (f->profile); w++)
      data_max = MAX (data_max, series->maxs[w]);
    g_test_message ("CPU data max %.1f %%, axis max %.1f %%", data_max, cpu->max);
    g_assert_cmpfloat (cpu->max, >=, data_max);
    g_assert_cmpfloat (cpu->max, <=, MIN (data_max * 1.25, 100));
  }

  /* Vertical auto-zoom fits the visible data: the first 40 % of the run
   * has lower rates than the last part. */
  mg_time_view_set_range (f->view, 0, 3.5);
  mg_time_view_set_auto_zoom_vertical (f->view, TRUE);
  axis = mg_metric_graph_get_axis (MG_METRIC_GRAPH (f->graphs[2]));
  g_assert_cmpfloat (axis->max, <, whole_max);
  mg_time_view_set_auto_zoom_vertical (f->view, FALSE);
  axis = mg_metric_graph_get_axis (MG_METRIC_GRAPH (f->graphs[2]));
  g_assert_cmpfloat (axis->max, ==, whole_max);
}

static void
test_properties (Fixture *f, gconstpointer data)
{
  MgMetricGraph *graph = MG_METRIC_GRAPH (f->graphs[1]);
  g_autoptr (MgTimeView) other = mg_time_view_new (10);
  MgProfile *profile = NULL;
  guint metric = 99;

  g_object_get (graph, "profile", &profile, "metric", &metric, NULL);
  g_assert_true (profile == f->profile);
  g_assert_cmpuint (metric, ==, 1);
  g_object_unref (profile);
  g_assert_true (mg_metric_graph_get_view (graph) == f->view);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (graph)), >=, 80);

  mg_metric_graph_set_view (graph, other);
  g_assert_true (mg_metric_graph_get_view (graph) == other);
  /* The old view no longer drives it; the new one does. */
  mg_time_view_set_hover_time (f->view, 3);
  mg_time_view_set_hover_time (other, 7);
  mg_metric_graph_set_view (graph, f->view);
  g_assert_true (mg_time_axis_get_view (MG_TIME_AXIS (f->axis)) == f->view);
}

int
main (int argc, char **argv)
{
  if (!graph_test_init (&argc, &argv, "cairo"))
    return g_test_run ();
  g_test_add ("/graph-widget/pixels", Fixture, NULL, fixture_setup, test_pixels,
              fixture_teardown);
  g_test_add ("/graph-widget/dark-theme", Fixture, NULL, fixture_setup, test_dark_theme,
              fixture_teardown);
  g_test_add ("/graph-widget/hover-line-and-tooltip", Fixture, NULL, fixture_setup,
              test_hover_line_and_tooltip, fixture_teardown);
  g_test_add ("/graph-widget/tooltip-closes", Fixture, NULL, fixture_setup, test_tooltip_closes,
              fixture_teardown);
  g_test_add ("/graph-widget/keyboard-scroll-drag", Fixture, NULL, fixture_setup,
              test_keyboard_scroll_drag, fixture_teardown);
  g_test_add ("/graph-widget/keyboard-cursor", Fixture, NULL, fixture_setup,
              test_keyboard_cursor, fixture_teardown);
  g_test_add ("/graph-widget/axis-pointer", Fixture, NULL, fixture_setup, test_axis_pointer,
              fixture_teardown);
  g_test_add ("/graph-widget/no-view", Fixture, NULL, fixture_setup, test_no_view,
              fixture_teardown);
  g_test_add ("/graph-widget/axis", Fixture, NULL, fixture_setup, test_axis,
              fixture_teardown);
  g_test_add ("/graph-widget/properties", Fixture, NULL, fixture_setup, test_properties,
              fixture_teardown);
  return g_test_run ();
}
