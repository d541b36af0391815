/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity groups in a viewer window (issue 30, point 2): each one
 * stacked row in place of its six metric rows, first in an MPI run (main
 * thread, then all threads), hidden and shown with its group, its graph
 * in the classes' colours, and a click on it selecting the windows under
 * it in the window's time view; the strips per thread under the main
 * thread's row. Screenshots (MG_GUI_SCREENSHOT_DIR) light and dark at
 * 1600 × 1000 and 1024 × 700. */
#include "mg-config.h"

#include <math.h>

#include "activity-fixture.h"
#include "gui-test-util.h"
#include "gui/graph/mg-activity-graph.h"
#include "gui/mg-metric-rows.h"
#include "gui/mg-thread-strip-row.h"
#include "gui/graph/mg-thread-strip.h"
#include "gui/mg-window-private.h"
#include "plot/mg-activity-render.h"

static MgMetricRows *
window_rows (MgWindow *window)
{
  GtkWidget *rows = gui_test_find_widget (GTK_WIDGET (window), MG_TYPE_METRIC_ROWS);

  g_assert_nonnull (rows);
  return MG_METRIC_ROWS (rows);
}

static gboolean
strv_has (char **strv, const char *s)
{
  return g_strv_contains ((const char *const *) strv, s);
}

/* The window saved (when MG_GUI_SCREENSHOT_DIR is set) in both themes at
 * two sizes, as NAME-THEME-WxH.png; the light theme is put back. */
static void
save_screenshots (MgWindow *window, const char *name)
{
  static const int sizes[2][2] = { { 1600, 1000 }, { 1024, 700 } };

  for (int dark = 0; dark <= 1; dark++)
    {
      g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
      for (guint s = 0; s < 2; s++)
        {
          g_autofree char *file = g_strdup_printf ("%s-%s-%dx%d.png", name,
                                                   dark ? "dark" : "light", sizes[s][0],
                                                   sizes[s][1]);

          gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
          mg_test_spin (200);
          gui_test_save_screenshot (window, file);
        }
    }
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
}

static void
test_rows (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (2);
  MgWindow *window = gui_test_new_window (profile);
  MgMetricRows *rows;
  GtkWidget *main_graph, *threads_graph;
  g_auto (GStrv) default_titles = NULL;
  g_auto (GStrv) titles = NULL;
  g_auto (GStrv) ids = NULL;
  g_auto (GStrv) hidden_titles = NULL;

  gui_test_wait_loaded (window);
  rows = window_rows (window);
  /* A multi-threaded MPI run opens with the main thread's activity first,
   * then all threads', beside the Default group. */
  default_titles = mg_window_get_visible_group_titles (window);
  g_assert_cmpuint (g_strv_length (default_titles), ==, 3);
  g_assert_cmpstr (default_titles[0], ==, "Main thread activity");
  g_assert_cmpstr (default_titles[1], ==, "All threads activity");
  g_assert_cmpstr (default_titles[2], ==, "Default");
  g_action_group_activate_action (G_ACTION_GROUP (window), "preset",
                                  g_variant_new_string ("all"));
  titles = mg_window_get_visible_group_titles (window);
  g_assert_cmpuint (g_strv_length (titles), ==, 3);
  g_assert_cmpstr (titles[0], ==, "Main thread activity");
  g_assert_cmpstr (titles[1], ==, "All threads activity");
  g_assert_cmpstr (titles[2], ==, "Default");

  main_graph = mg_metric_rows_find_activity_graph (rows, MG_ACTIVITY_MAIN_THREAD);
  /* No stacks: the main thread alone, no strips per thread. */
  g_assert_false (gtk_widget_get_visible (
    gui_test_find_widget (GTK_WIDGET (window), MG_TYPE_THREAD_STRIP_ROW)));
  threads_graph = mg_metric_rows_find_activity_graph (rows, MG_ACTIVITY_ALL_THREADS);
  g_assert_true (MG_IS_ACTIVITY_GRAPH (main_graph));
  g_assert_true (MG_IS_ACTIVITY_GRAPH (threads_graph));
  g_assert_true (gtk_widget_get_mapped (main_graph));
  /* The six rows it stands for are not drawn, but count as shown. */
  g_assert_false (gtk_widget_get_visible (
    GTK_WIDGET (mg_metric_rows_find_row (rows, "org.metrograph.activity.main.sleep"))));
  ids = mg_window_get_visible_metric_ids (window);
  g_assert_true (strv_has (ids, "org.metrograph.activity.main.sleep"));
  g_assert_true (strv_has (ids, "org.metrograph.activity.threads.computing"));
  g_assert_true (strv_has (ids, "memory"));

  /* The stacked row's pixels: 75 % computing under 25 % MPI at first. */
  {
    g_autoptr (GdkTexture) texture = gui_test_render (main_graph);
    int w = gtk_widget_get_width (main_graph), h = gtk_widget_get_height (main_graph);
    double legend = mg_activity_render_legend_height ();
    double plot = h - legend;
    MgRgba computing = mg_activity_render_class_colour (MG_ACTIVITY_COMPUTING);
    MgRgba mpi = mg_activity_render_class_colour (MG_ACTIVITY_MPI);
    graphene_rect_t low = GRAPHENE_RECT_INIT (w * 0.05, legend + plot * 0.6, w * 0.15, plot * 0.3);
    graphene_rect_t high = GRAPHENE_RECT_INIT (w * 0.05, legend + plot * 0.02, w * 0.15, plot * 0.2);

    g_assert_cmpuint (gui_test_count_colour (texture, &low, computing.r * 255, computing.g * 255,
                                             computing.b * 255, 3),
                      >, 0.9 * low.size.width * low.size.height);
    g_assert_cmpuint (gui_test_count_colour (texture, &high, mpi.r * 255, mpi.g * 255,
                                             mpi.b * 255, 3),
                      >, 0.9 * high.size.width * high.size.height);
  }

  /* A click on the graph selects the windows under it in the window's
   * view: the middle of the run is [2.00, 2.04]. */
  {
    MgTimeView *view = mg_window_get_time_view (window);
    int w = gtk_widget_get_width (main_graph);
    double start, end;

    g_assert_true (mg_activity_graph_select_at (MG_ACTIVITY_GRAPH (main_graph), w * 0.5 + 0.5));
    g_object_get (view, "selection-start", &start, "selection-end", &end, NULL);
    g_assert_true (mg_time_view_get_has_selection (view));
    g_assert_cmpfloat (start, <=, 2.0 + 1e-9);
    g_assert_cmpfloat (end, >=, 2.0);
    g_assert_cmpfloat (end - start, <, 0.1);
    g_assert_cmpfloat (fmod (start + 1e-9, 0.04), <, 1e-6);
    mg_time_view_clear_selection (view);
  }

  /* Hidden with its group, back with it. */
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-group.mainThreadActivity",
                                      g_variant_new_boolean (FALSE));
  hidden_titles = mg_window_get_visible_group_titles (window);
  g_assert_false (strv_has (hidden_titles, "Main thread activity"));
  g_assert_false (gtk_widget_is_visible (main_graph));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-group.mainThreadActivity",
                                      g_variant_new_boolean (TRUE));
  mg_test_spin (50);
  g_assert_true (gtk_widget_get_mapped (main_graph));

  save_screenshots (window, "activity");
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (20);
}

static MgThreadStripRow *
window_strip_row (MgWindow *window)
{
  GtkWidget *row = gui_test_find_widget (GTK_WIDGET (window), MG_TYPE_THREAD_STRIP_ROW);

  g_assert_nonnull (row);
  return MG_THREAD_STRIP_ROW (row);
}

/* The strips per thread in the window: under the main thread's activity
 * row, one name per thread, rank 0's while every process is shown (the
 * header says so), the pixels of thread 2's off-CPU phase; collapsed, a
 * new window opens them collapsed. Screenshots light and dark. */
static void
test_thread_strips (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  MgWindow *window;
  MgThreadStripRow *row;
  GtkWidget *strip, *main_graph;
  static const char *const want_labels[] = { "Main Thread", "Thread 1", "Thread 2", NULL };

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gui_test_wait_loaded (window);
  row = window_strip_row (window);
  strip = mg_thread_strip_row_get_strip (row);
  main_graph = mg_metric_rows_find_activity_graph (window_rows (window), MG_ACTIVITY_MAIN_THREAD);
  /* Right under the main thread's stacked row. */
  g_assert_true (gtk_widget_get_prev_sibling (GTK_WIDGET (row))
                 == gtk_widget_get_parent (main_graph));
  g_assert_true (gtk_widget_get_mapped (strip));
  gui_test_assert_strv (mg_thread_strip_row_dup_labels (row), want_labels);
  {
    GtkWidget *title = gtk_expander_get_label_widget (mg_thread_strip_row_get_expander (row));

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==,
                     "Activity per thread: rank 0 (pid 2000) (choose a process in the header "
                     "for another)");
  }
  mg_test_spin (200);
  /* The strips share the graphs' x: thread 2 off CPU in the third
   * quarter, computing in the last. */
  {
    g_autoptr (GdkTexture) texture = gui_test_render (strip);
    int w = gtk_widget_get_width (strip);
    int y = MG_THREAD_STRIP_LEGEND_HEIGHT + 2 * MG_THREAD_STRIP_PITCH + 3;
    graphene_rect_t off = GRAPHENE_RECT_INIT (w * 0.55, y, w * 0.15, 6);
    graphene_rect_t on = GRAPHENE_RECT_INIT (w * 0.80, y, w * 0.15, 6);
    double rgb[3];

    g_assert_cmpint (w, ==, gtk_widget_get_width (main_graph));
    mg_thread_strip_class_colour (MG_THREAD_OFF_CPU, rgb);
    g_assert_cmpuint (gui_test_count_colour (texture, &off, rgb[0] * 255, rgb[1] * 255,
                                             rgb[2] * 255, 3),
                      >, 0.95 * off.size.width * off.size.height);
    mg_thread_strip_class_colour (MG_THREAD_COMPUTING, rgb);
    g_assert_cmpuint (gui_test_count_colour (texture, &on, rgb[0] * 255, rgb[1] * 255,
                                             rgb[2] * 255, 3),
                      >, 0.95 * on.size.width * on.size.height);
  }

  save_screenshots (window, "thread-strips");
  /* The process chosen: its threads, no hint. */
  mg_time_view_set_process (mg_window_get_time_view (window), 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_expander_get_label_widget (
                     mg_thread_strip_row_get_expander (row)))),
                   ==, "Activity per thread: rank 0 (pid 2000)");

  /* Collapsed, and remembered by the next window. */
  gtk_expander_set_expanded (mg_thread_strip_row_get_expander (row), FALSE);
  mg_test_spin (20);
  g_assert_false (gtk_widget_get_mapped (strip));
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (20);
  window = gui_test_new_window (profile);
  gui_test_wait_loaded (window);
  row = window_strip_row (window);
  g_assert_false (gtk_expander_get_expanded (mg_thread_strip_row_get_expander (row)));
  gtk_expander_set_expanded (mg_thread_strip_row_get_expander (row), TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (20);
}

/* Large text (144 dpi): a thread's name stays level with its strip, and a
 * click beside the name lands on that thread. The names grew with the text
 * while the strips kept their 16 px: at 144 dpi "Thread 2" stood beside
 * the strip under thread 2's. */
static void
test_thread_strips_large_text (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  const int dpi[2] = { 96, 144 };

  for (guint i = 0; i < 2; i++)
    {
      MgWindow *window;
      MgThreadStripRow *row;
      GtkWidget *strip, *label;
      graphene_rect_t strip_bounds, label_bounds;
      double top, centre;
      int pitch;

      g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", dpi[i] * 1024, NULL);
      gui_test_reset_settings ();
      window = mg_window_new (gui_test_app);
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
      mg_window_set_profile (window, profile, NULL);
      gtk_window_present (GTK_WINDOW (window));
      gui_test_wait_loaded (window);
      mg_test_spin (300);
      row = window_strip_row (window);
      strip = mg_thread_strip_row_get_strip (row);
      label = gui_test_find_label (GTK_WIDGET (row), "Thread 2");
      g_assert_nonnull (label);
      g_assert_true (gtk_widget_compute_bounds (strip, GTK_WIDGET (window), &strip_bounds));
      g_assert_true (gtk_widget_compute_bounds (label, GTK_WIDGET (window), &label_bounds));
      pitch = mg_thread_strip_get_pitch (MG_THREAD_STRIP (strip));
      top = strip_bounds.origin.y + mg_thread_strip_get_legend_height (MG_THREAD_STRIP (strip))
            + 2 * pitch;
      centre = label_bounds.origin.y + label_bounds.size.height / 2;
      g_test_message ("%d dpi: thread 2's strip from %.0f px, %d px a row; its name centred at "
                      "%.0f px", dpi[i], top, pitch, centre);
      g_assert_cmpfloat (centre, >=, top);
      g_assert_cmpfloat (centre, <, top + pitch);
      g_assert_cmpint (mg_thread_strip_row_at (MG_THREAD_STRIP (strip),
                                               centre - strip_bounds.origin.y),
                       ==, 2);
      if (i == 1)
        gui_test_save_screenshot (window, "thread-strips-large-text.png");
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/activity-rows/rows", test_rows);
  g_test_add_func ("/activity-rows/thread-strips", test_thread_strips);
  g_test_add_func ("/activity-rows/thread-strips-large-text", test_thread_strips_large_text);
  return gui_test_run ();
}
