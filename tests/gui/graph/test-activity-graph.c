/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgActivityGraph in a real window (under Xvfb): the stacked classes'
 * pixels through GTK's renderer, the view's process followed, the
 * tooltip's shares, and a click selecting the windows under it (the
 * view's selection read back). */
#include "mg-config.h"

#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "activity-fixture.h"
#include "gui/graph/mg-activity-graph.h"
#include "plot/mg-activity-render.h"
#include "graph-test-util.h"
#include "mg-test-common.h"

#define GRAPH_WIDTH 400
#define GRAPH_HEIGHT 116

typedef struct {
  MgProfile *profile;
  MgTimeView *view;
  GtkWidget *window;
  GtkWidget *graph;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  gint64 deadline;

  f->profile = activity_fixture_profile (2);
  f->view = mg_time_view_new (mg_profile_get_run_info (f->profile)->duration_s);
  f->window = gtk_window_new ();
  f->graph = mg_activity_graph_new (f->profile, MG_ACTIVITY_MAIN_THREAD, f->view);
  gtk_widget_set_size_request (f->graph, GRAPH_WIDTH, GRAPH_HEIGHT);
  gtk_window_set_child (GTK_WINDOW (f->window), f->graph);
  gtk_window_set_resizable (GTK_WINDOW (f->window), FALSE);
  gtk_window_present (GTK_WINDOW (f->window));
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (gtk_widget_get_width (f->graph) == 0 && g_get_monotonic_time () < deadline)
    mg_test_spin (10);
  g_assert_cmpint (gtk_widget_get_width (f->graph), ==, GRAPH_WIDTH);
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

static void
assert_colour (cairo_surface_t *surface, int x, int y, MgActivityClass klass)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 v = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  MgRgba c = mg_activity_render_class_colour (klass);
  int r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff;

  if (abs (r - (int) lround (c.r * 255)) > 2 || abs (g - (int) lround (c.g * 255)) > 2
      || abs (b - (int) lround (c.b * 255)) > 2)
    g_error ("pixel (%d, %d) is #%02x%02x%02x, not %s's colour", x, y, r, g, b,
             mg_activity_class_name (klass));
}

/* Row of a share (0–100) of the stacked area, under the legend. */
static int
share_y (double share)
{
  double legend = mg_activity_render_legend_height ();

  return (int) legend + (int) lround ((GRAPH_HEIGHT - legend) * (1 - share / 100));
}

/* The aggregate (75 % computing under 25 % MPI in the first phase), then
 * process 1 chosen in the view (50 / 50), then the view zoomed to the
 * second half (asleep, then in I/O). */
static void
test_pixels (Fixture *f, gconstpointer data)
{
  cairo_surface_t *surface = graph_test_render_widget (f->graph);

  assert_colour (surface, 50, share_y (90), MG_ACTIVITY_MPI);
  assert_colour (surface, 50, share_y (40), MG_ACTIVITY_COMPUTING);
  assert_colour (surface, 150, share_y (50), MG_ACTIVITY_MPI);
  assert_colour (surface, 250, share_y (50), MG_ACTIVITY_WAITING);
  assert_colour (surface, 350, share_y (50), MG_ACTIVITY_IO);
  cairo_surface_destroy (surface);

  mg_time_view_set_process (f->view, 1);
  mg_test_spin (20);
  surface = graph_test_render_widget (f->graph);
  assert_colour (surface, 50, share_y (70), MG_ACTIVITY_MPI);
  assert_colour (surface, 50, share_y (30), MG_ACTIVITY_COMPUTING);
  cairo_surface_destroy (surface);

  mg_time_view_set_range (f->view, 2, 4);
  mg_test_spin (20);
  surface = graph_test_render_widget (f->graph);
  assert_colour (surface, 100, share_y (50), MG_ACTIVITY_WAITING);
  assert_colour (surface, 300, share_y (50), MG_ACTIVITY_IO);
  cairo_surface_destroy (surface);
}

/* The tooltip's shares follow the view's process. */
static void
test_describe (Fixture *f, gconstpointer data)
{
  g_autofree char *all = mg_activity_graph_describe_time (MG_ACTIVITY_GRAPH (f->graph), 0.5);
  g_autofree char *one = NULL;
  g_autofree char *past = NULL;

  g_assert_cmpstr (all, ==, "Computing 75 % · MPI 25 % · I/O 0 % · Waiting 0 %");
  mg_time_view_set_process (f->view, 0);
  one = mg_activity_graph_describe_time (MG_ACTIVITY_GRAPH (f->graph), 0.5);
  g_assert_cmpstr (one, ==, "Computing 100 % · MPI 0 % · I/O 0 % · Waiting 0 %");
  past = mg_activity_graph_describe_time (MG_ACTIVITY_GRAPH (f->graph), 9);
  g_assert_null (past);
}

/* A click selects the 40 ms windows under the pixel column: 400 px over
 * 4 s, so x = 201 is [2.01, 2.02) in the window [2.00, 2.04]; zoomed in
 * to [1, 1.1] a pixel is 0.25 ms, and x = 200 (1.05 s) is in [1.04,
 * 1.08]. The view's properties say so. */
static void
test_click_selects (Fixture *f, gconstpointer data)
{
  MgActivityGraph *graph = MG_ACTIVITY_GRAPH (f->graph);
  gboolean has_selection;
  double start, end;

  g_assert_true (mg_activity_graph_select_at (graph, 201));
  g_object_get (f->view, "has-selection", &has_selection, "selection-start", &start,
                "selection-end", &end, NULL);
  g_assert_true (has_selection);
  g_assert_cmpfloat_with_epsilon (start, 2.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 2.04, 1e-9);

  mg_time_view_set_range (f->view, 1, 1.1);
  g_assert_true (mg_activity_graph_select_at (graph, 200));
  g_object_get (f->view, "selection-start", &start, "selection-end", &end, NULL);
  g_assert_cmpfloat_with_epsilon (start, 1.04, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 1.08, 1e-9);

  /* Past the run: nothing selected, the selection kept. */
  mg_time_view_set_duration (f->view, 8);
  mg_time_view_set_range (f->view, 0, 8);
  g_assert_false (mg_activity_graph_select_at (graph, 399));
  g_object_get (f->view, "selection-start", &start, NULL);
  g_assert_cmpfloat_with_epsilon (start, 1.04, 1e-9);
}

/* The keys: the cursor from the start by hundredths of the view (40 ms
 * each here), Enter selecting the window at it, Escape clearing. */
static void
test_keys (Fixture *f, gconstpointer data)
{
  double start, end;

  g_assert_true (gtk_widget_get_focusable (f->graph));
  mg_time_view_set_hover_time (f->view, -1);
  for (guint i = 0; i < 26; i++)
    g_assert_true (graph_test_press_key (f->graph, GDK_KEY_Right));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 1.04, 1e-9);
  g_assert_true (graph_test_press_key (f->graph, GDK_KEY_Left));
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_hover_time (f->view), 1.0, 1e-9);
  /* 1.0 is the start of window 25, [1.00, 1.04]: phase 1, in MPI. */
  g_assert_true (graph_test_press_key (f->graph, GDK_KEY_Return));
  g_object_get (f->view, "selection-start", &start, "selection-end", &end, NULL);
  g_assert_cmpfloat_with_epsilon (start, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 1.04, 1e-9);
  g_assert_true (graph_test_press_key (f->graph, GDK_KEY_Escape));
  g_assert_false (mg_time_view_get_has_selection (f->view));
  g_assert_false (graph_test_press_key (f->graph, GDK_KEY_Escape));
}

int
main (int argc, char **argv)
{
  if (!graph_test_init (&argc, &argv, "cairo"))
    return g_test_run ();
  g_test_add ("/activity-graph/pixels", Fixture, NULL, fixture_setup, test_pixels,
              fixture_teardown);
  g_test_add ("/activity-graph/describe", Fixture, NULL, fixture_setup, test_describe,
              fixture_teardown);
  g_test_add ("/activity-graph/click-selects", Fixture, NULL, fixture_setup, test_click_selects,
              fixture_teardown);
  g_test_add ("/activity-graph/keys", Fixture, NULL, fixture_setup, test_keys, fixture_teardown);
  return g_test_run ();
}
