/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer window under Xvfb: rows and groups shown, presets and toggles
 * through the window's actions, figures of a selection, the errors banner,
 * loading good and bad files, export, and pixels of the rendered window. */
#include "mg-config.h"

#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <gtk/gtk.h>

#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-application.h"
#include "gui/mg-metric-visibility.h"
#include "gui/mg-metrics-menu.h"
#include "gui/mg-file-choosers.h"
#include "gui/mg-metric-row.h"
#include "mg-resources.h"
#include "plot/mg-time-view.h"
#include "gui/mg-tooltip.h"
#include "gui/graph/mg-time-axis.h"
#include "gui/run/mg-run-dialog.h"
#include "gui/run/mg-run-dialog-private.h"
#include "defs/mg-units.h"
#include "plot/mg-view-export.h"
#include "gui/mg-window-private.h"
#include "profile/mg-profile-builder.h"

static void
activate_metric_toggle (MgWindow *window, const char *prefix, const char *id)
{
  g_autofree char *name = mg_metric_visibility_action_name (prefix, id);

  gui_test_activate (window, name, NULL);
}

/* The descendant of root with this action, or NULL. */
static GtkWidget *
find_actionable (GtkWidget *root, const char *action)
{
  if (GTK_IS_ACTIONABLE (root)
      && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The header bar's tooltips (answered when shown: mg-tooltip.c). */
static void
assert_header_tooltip (MgWindow *window, const char *action, const char *text)
{
  GtkWidget *button = find_actionable (gtk_window_get_titlebar (GTK_WINDOW (window)), action);
  g_autoptr (GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  gboolean shown = FALSE;

  g_assert_nonnull (button);
  g_assert_cmpstr (mg_tooltip_get_text (button), ==, text);
  g_assert_true (gtk_widget_get_has_tooltip (button));
  g_signal_emit_by_name (button, "query-tooltip", 2, 2, FALSE, tooltip, &shown);
  g_assert_true (shown);
}

/* Icon-only buttons are named for screen readers: GTK 4.8 names a button
 * by its label only, so the header bar's Open, Profile, zoom, side panel
 * and menu buttons were read as "button" with their tooltip as
 * description. */
static void
test_icon_buttons_named (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  GtkWidget *titlebar;
  MgWindow *window;
  char *error;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  titlebar = gtk_window_get_titlebar (GTK_WINDOW (window));
  /* Open, Profile, Zoom Out / to Selection / In, Run Details, Main Menu and
   * the undo toast's Dismiss at least, wherever they are. */
  g_assert_cmpuint (gui_test_assert_icon_buttons_named (GTK_WIDGET (window)), >=, 8);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (find_actionable (titlebar, "win.open")),
                                              GTK_ACCESSIBLE_PROPERTY_LABEL, "Open a Profile");
  g_assert_null (error);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (find_actionable (titlebar, "win.zoom-out")),
                                              GTK_ACCESSIBLE_PROPERTY_LABEL, "Zoom Out");
  g_assert_null (error);
  /* The shortcut stays in the description, the tooltip's words. */
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (find_actionable (titlebar, "win.zoom-out")),
                                              GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              "Zoom Out (Ctrl+−)");
  g_assert_null (error);
  gtk_window_destroy (GTK_WINDOW (window));

  /* The run dialog's Choose the Program / Working Folder / Where the
   * Profile Is Saved, Copy the Command Line and a variable's Remove. */
  {
    MgRunDialog *dialog = mg_run_dialog_new (NULL, NULL, NULL);

    mg_run_dialog_add_variable (dialog, "OMP_NUM_THREADS=2");
    gtk_window_present (GTK_WINDOW (dialog));
    mg_test_spin (50);
    g_assert_cmpuint (gui_test_assert_icon_buttons_named (GTK_WIDGET (dialog)), >=, 5);
    error = gtk_test_accessible_check_property (
      GTK_ACCESSIBLE (find_actionable (GTK_WIDGET (dialog), "run.choose-program")),
      GTK_ACCESSIBLE_PROPERTY_LABEL, "Choose the Program");
    g_assert_null (error);
    gtk_window_destroy (GTK_WINDOW (dialog));
  }
}

/* The first widget under root whose CSS name or class is name, or NULL. */
static GtkWidget *
find_css (GtkWidget *root, const char *name)
{
  if (g_str_equal (gtk_widget_get_css_name (root), name) || gtk_widget_has_css_class (root, name))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_css (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The space between a and b, whichever side of a b lies on. */
static double
gap_between (GtkWidget *a, GtkWidget *b, GtkWidget *root)
{
  graphene_rect_t ra, rb;

  g_assert_true (gtk_widget_compute_bounds (a, root, &ra));
  g_assert_true (gtk_widget_compute_bounds (b, root, &rb));
  if (rb.origin.x >= ra.origin.x + ra.size.width)
    return rb.origin.x - (ra.origin.x + ra.size.width);
  return ra.origin.x - (rb.origin.x + rb.size.width);
}

/* Right to left (a Hebrew or Arabic desktop), the window mirrors: the
 * rows' names and figures go to the right of their graphs, keeping their
 * space from them, and a group's arrow keeps its space from its title; the
 * time still runs left to right (the graphs and the axis start at the same
 * x, 0 s at the left). The styles' left and right paddings did not mirror:
 * the figures touched the graph (0 px instead of 12) and the arrow touched
 * the group's title. */
static void
test_right_to_left (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_demo ();
  double figures_gap[2], arrow_gap[2];

  for (guint rtl = 0; rtl < 2; rtl++)
    {
      MgWindow *window;
      GtkWidget *graph, *row, *figures, *axis, *title, *arrow, *label;
      graphene_rect_t graph_bounds, axis_bounds;

      gtk_widget_set_default_direction (rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR);
      gui_test_reset_settings ();
      window = gui_test_new_window (profile);
      gui_test_wait_loaded (window);
      mg_time_view_set_selection (mg_window_get_time_view (window), 1.4, 4.0);
      mg_test_spin (200);
      graph = mg_window_get_metric_graph (window, "cpu_time_percentage");
      g_assert_nonnull (graph);
      row = gtk_widget_get_ancestor (graph, MG_TYPE_METRIC_ROW);
      figures = find_css (row, "metric-figures");
      g_assert_nonnull (figures);
      figures_gap[rtl] = gap_between (graph, figures, GTK_WIDGET (window));

      title = find_css (gtk_widget_get_ancestor (row, GTK_TYPE_EXPANDER), "title");
      arrow = find_css (title, "expander");
      label = gui_test_find_widget (title, GTK_TYPE_LABEL);
      g_assert_nonnull (arrow);
      g_assert_nonnull (label);
      arrow_gap[rtl] = gap_between (arrow, label, GTK_WIDGET (window));

      /* The time axis under the graphs, from the same x. */
      axis = gui_test_find_widget (GTK_WIDGET (window), MG_TYPE_TIME_AXIS);
      g_assert_true (gtk_widget_compute_bounds (graph, GTK_WIDGET (window), &graph_bounds));
      g_assert_true (gtk_widget_compute_bounds (axis, GTK_WIDGET (window), &axis_bounds));
      g_assert_cmpfloat (fabs (axis_bounds.origin.x - graph_bounds.origin.x), <, 1);
      g_assert_cmpfloat (fabs (axis_bounds.size.width - graph_bounds.size.width), <, 1);
      if (rtl)
        {
          graphene_rect_t figures_bounds;

          g_assert_true (gtk_widget_compute_bounds (figures, GTK_WIDGET (window), &figures_bounds));
          g_assert_cmpfloat (figures_bounds.origin.x, >, graph_bounds.origin.x);
        }
      g_test_message ("%s: figures %.0f px from the graph, arrow %.0f px from the title",
                      rtl ? "right to left" : "left to right", figures_gap[rtl], arrow_gap[rtl]);
      gui_test_save_screenshot (window, rtl ? "right-to-left.png" : "left-to-right.png");
      gtk_window_destroy (GTK_WINDOW (window));
    }
  gtk_widget_set_default_direction (GTK_TEXT_DIR_LTR);
  g_assert_cmpfloat (figures_gap[0], >=, 12);
  g_assert_cmpfloat (figures_gap[1], ==, figures_gap[0]);
  g_assert_cmpfloat (arrow_gap[0], >=, 6);
  g_assert_cmpfloat (arrow_gap[1], ==, arrow_gap[0]);
}

/* Rows of texture from y0 down holding text (an opaque pixel darker than
 * mid grey; the axis itself is transparent): the labels' ink height. */
static int
texture_ink_rows (GdkTexture *texture, int y0)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);
  int first = -1, last = -1;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int y = y0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        /* Premultiplied B G R A. */
        const guint8 *px = data + ((gsize) y * width + x) * 4;

        if (px[3] > 128 && px[2] * 255 / px[3] < 128)
          {
            if (first < 0)
              first = y;
            last = y;
            break;
          }
      }
  return first < 0 ? 0 : last - first + 1;
}

/* Large text (a desktop's text scaled 1.5: gtk-xft-dpi 144) in a
 * 1024 × 700 window: the time axis and its labels grow with the rest of
 * the text, where they stayed 22 px high with 8 px labels under names and
 * figures half as large again. */
static void
test_large_text (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_demo ();
  const int dpi[2] = { 96, 144 };
  int axis_height[2], ink[2];

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *name = g_strdup_printf ("large-text-%d.png", dpi[i]);
      g_autoptr (GdkTexture) texture = NULL;
      MgWindow *window;
      GtkWidget *axis;

      g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", dpi[i] * 1024, NULL);
      gui_test_reset_settings ();
      window = mg_window_new (gui_test_app);
      gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
      mg_window_set_profile (window, profile, NULL);
      gtk_window_present (GTK_WINDOW (window));
      mg_test_spin (300);
      mg_time_view_set_hover_time (mg_window_get_time_view (window), -1);
      axis = gui_test_find_widget (GTK_WIDGET (window), MG_TYPE_TIME_AXIS);
      g_assert_nonnull (axis);
      axis_height[i] = gtk_widget_get_height (axis);
      texture = gui_test_render (axis);
      ink[i] = texture_ink_rows (texture, 6);
      g_test_message ("%d dpi: time axis %d px high, its labels %d px", dpi[i], axis_height[i],
                      ink[i]);
      gui_test_save_screenshot (window, name);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
  g_assert_cmpint (axis_height[0], ==, 22);
  g_assert_cmpint (axis_height[1], ==, 33);
  g_assert_cmpint (ink[0], >=, 6);
  g_assert_cmpfloat ((double) ink[1] / ink[0], >=, 1.3);
}

static void
test_single_process (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  MgWindow *window;
  const char *ids[] = { "cpu", "rss", NULL };
  const char *groups[] = { "CPU Time", "Memory", NULL };
  const MgMetricDef *rss = mg_profile_get_metric (profile, 1);
  g_autofree char *max = mg_units_format_value (rss, 199 * 1048576.0);
  g_autofree char *min = mg_units_format_value (rss, 100 * 1048576.0);
  g_autofree char *figures = NULL;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), ids);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), groups);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 0);
  /* The shortcuts window (ui/mg-shortcuts.ui) and the app's actions. */
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (gui_test_app), "profile"));
  assert_header_tooltip (window, "win.open", "Open a Profile (Ctrl+O)");
  assert_header_tooltip (window, "app.profile", "Profile a Program (Ctrl+R)");
  assert_header_tooltip (window, "win.show-info", "Run Details (F9)");
  assert_header_tooltip (window, "win.zoom-in", "Zoom In (Ctrl++)");
  assert_header_tooltip (window, "win.zoom-reset", "Whole Run (Ctrl+0)");
  /* Said in words, not the bare "1" of zoom-original-symbolic. */
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_actionable (
                     gtk_window_get_titlebar (GTK_WINDOW (window)), "win.zoom-reset"))),
                   ==, "Whole Run");

  /* The whole run when nothing is selected: rss rises 100 → 199 MiB. */
  figures = mg_window_dup_row_figures (window, "rss");
  g_assert_nonnull (strstr (figures, max));
  g_assert_nonnull (strstr (figures, min));
  gui_test_save_screenshot (window, "single.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_selection_and_process (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_imbalance ();
  const MgMetricDef *def = mg_profile_get_metric (profile, 0);
  MgWindow *window;
  MgTimeView *view;
  g_autofree char *figures = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *v20 = mg_units_format_value (def, 20), *v50 = mg_units_format_value (def, 50);
  g_autofree char *v80 = mg_units_format_value (def, 80), *v60 = mg_units_format_value (def, 60);

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  view = mg_window_get_time_view (window);

  /* Ranks hold 20, 40, 60, 80: max 80, mean 50, min 20 anywhere. */
  mg_time_view_set_selection (view, 0.2, 0.4);
  figures = mg_window_dup_row_figures (window, "work");
  expected = g_strdup_printf ("Max %s · Mean %s · Min %s", v80, v50, v20);
  g_assert_cmpstr (figures, ==, expected);

  /* Zoom to the selection through the action, then step back out. */
  gui_test_activate (window, "zoom-selection", NULL);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_start (view), 0.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (view), 0.4, 1e-9);
  gui_test_activate (window, "zoom-out", NULL);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (view) - mg_time_view_get_start (view),
                                  1.0, 1e-6);
  gui_test_activate (window, "zoom-in", NULL);
  g_assert_cmpfloat_with_epsilon (mg_time_view_get_end (view) - mg_time_view_get_start (view),
                                  0.5, 1e-6);
  gui_test_activate (window, "zoom-reset", NULL);
  g_assert_cmpfloat (mg_time_view_get_start (view), ==, 0);
  g_assert_false (mg_time_view_get_has_selection (view));

  gui_test_activate (window, "auto-zoom-vertical", NULL);
  g_assert_false (mg_time_view_get_auto_zoom_vertical (view));
  gui_test_activate (window, "auto-zoom-vertical", NULL);
  g_assert_true (mg_time_view_get_auto_zoom_vertical (view));

  /* Rank 2's own series, chosen in the header bar: 60 everywhere. */
  {
    GtkWidget *dropdown = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                       GTK_TYPE_DROP_DOWN);

    g_assert_nonnull (dropdown);
    g_assert_true (gtk_widget_get_visible (dropdown));
    g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown))),
                      ==, 5);
    gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 3);
    g_assert_cmpint (mg_time_view_get_process (view), ==, 2);
  }
  g_free (figures);
  g_free (expected);
  figures = mg_window_dup_row_figures (window, "work");
  expected = g_strdup_printf ("Max %s · Mean %s · Min %s", v60, v60, v60);
  g_assert_cmpstr (figures, ==, expected);
  mg_time_view_set_process (view, -1);
  mg_time_view_set_selection (view, 0.1, 0.9);
  gui_test_save_screenshot (window, "imbalance.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The figures follow the view (issue #32): the selection when there is
 * one, else the visible range, else the whole run; the readout under the
 * axis says which, with start, end and length, and its Whole Run button
 * goes back; the figures' tooltips say it too. rss rises from 100 MiB to
 * 199 MiB in 100 windows of 10 ms. */
static void
test_figures_follow_view (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  guint rss = (guint) mg_profile_find_metric (profile, "rss");
  const MgMetricDef *def = mg_profile_get_metric (profile, rss);
  MgWindow *window;
  MgTimeView *view;
  GtkWidget *button = NULL;
  MgMetricRow *row;
  g_autofree char *whole = NULL, *visible = NULL, *selected = NULL, *tip = NULL;
  g_autofree char *v100 = mg_units_format_value (def, 100.0 * 1024 * 1024);
  g_autofree char *v149 = mg_units_format_value (def, 149.0 * 1024 * 1024);
  g_autofree char *v199 = mg_units_format_value (def, 199.0 * 1024 * 1024);
  g_autofree char *v120 = mg_units_format_value (def, 120.0 * 1024 * 1024);
  g_autofree char *v129 = mg_units_format_value (def, 129.0 * 1024 * 1024);
  g_autofree char *expected = NULL;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  view = mg_window_get_time_view (window);
  row = MG_METRIC_ROW (gtk_widget_get_ancestor (mg_window_get_metric_graph (window, "rss"),
                                                MG_TYPE_METRIC_ROW));

  /* The whole run: no button back. */
  g_assert_cmpstr (mg_window_get_range_readout (window, &button), ==,
                   "Figures of the whole run: 0 s to 1 s (1 s)");
  g_assert_false (gtk_widget_get_visible (button));
  whole = mg_window_dup_row_figures (window, "rss");
  expected = g_strdup_printf ("Max %s · Mean", v199);
  g_assert_true (g_str_has_prefix (whole, expected));
  g_assert_nonnull (strstr (whole, v100));

  /* Zoomed in to the first half: the figures are those of what is shown. */
  mg_time_view_set_range (view, 0, 0.5);
  g_assert_cmpstr (mg_window_get_range_readout (window, &button), ==,
                   "Figures of the visible range: 0 s to 500 ms (500 ms)");
  g_assert_true (gtk_widget_get_visible (button));
  visible = mg_window_dup_row_figures (window, "rss");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("Max %s · Mean", v149);
  g_test_message ("whole run: %s; first half: %s", whole, visible);
  g_assert_true (g_str_has_prefix (visible, expected));
  g_assert_true (g_str_has_suffix (visible, v100));

  /* A selection inside it wins. */
  mg_time_view_set_selection (view, 0.2, 0.3);
  g_assert_cmpstr (mg_window_get_range_readout (window, NULL), ==,
                   "Figures of the selection: 200 ms to 300 ms (100 ms)");
  selected = mg_window_dup_row_figures (window, "rss");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("Max %s · Mean", v129);
  g_assert_true (g_str_has_prefix (selected, expected));
  g_assert_true (g_str_has_suffix (selected, v120));
  /* The figures' tooltips say which range they describe. */
  tip = mg_metric_row_dup_tooltip (row, MG_METRIC_ROW_PART_MEAN);
  g_assert_cmpstr (tip, ==, "Figures of the selection: 200 ms to 300 ms (100 ms)");
  g_clear_pointer (&tip, g_free);
  tip = mg_metric_row_dup_tooltip (row, MG_METRIC_ROW_PART_MAX);
  g_assert_true (g_str_has_suffix (tip, "\nFigures of the selection: 200 ms to 300 ms (100 ms)"));

  /* So does the export, in its text (and drawn at the title's right). */
  {
    g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "view.svg", NULL);
    g_autofree char *contents = NULL;
    g_autoptr (GError) error = NULL;

    g_assert_true (mg_window_export (window, path, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "<desc>Figures of the selection: 200 ms to 300 ms (100 ms)\n"));
    g_unlink (path);
    g_rmdir (dir);
  }

  /* One click back to the whole run: view, selection and figures. */
  g_signal_emit_by_name (button, "clicked");
  g_assert_false (mg_time_view_get_has_selection (view));
  g_assert_cmpfloat (mg_time_view_get_start (view), ==, 0);
  g_assert_cmpfloat (mg_time_view_get_end (view), ==, 1);
  g_assert_cmpstr (mg_window_get_range_readout (window, &button), ==,
                   "Figures of the whole run: 0 s to 1 s (1 s)");
  g_assert_false (gtk_widget_get_visible (button));
  g_clear_pointer (&visible, g_free);
  visible = mg_window_dup_row_figures (window, "rss");
  g_assert_cmpstr (visible, ==, whole);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* How many entries of the drop-down its own search keeps for text. */
static guint
dropdown_matches (GtkDropDown *dropdown, const char *text, char **first)
{
  GtkStringFilter *filter = gtk_string_filter_new (gtk_expression_ref (gtk_drop_down_get_expression (dropdown)));
  g_autoptr (GtkFilterListModel) found = NULL;
  guint n;

  gtk_string_filter_set_search (filter, text);
  found = gtk_filter_list_model_new (g_object_ref (gtk_drop_down_get_model (dropdown)),
                                     GTK_FILTER (filter));
  n = g_list_model_get_n_items (G_LIST_MODEL (found));
  if (n > 0 && first != NULL)
    {
      g_autoptr (GtkStringObject) item = g_list_model_get_item (G_LIST_MODEL (found), 0);

      *first = g_strdup (gtk_string_object_get_string (item));
    }
  return n;
}

/* A wrapper script (pid 10, env then bash) that ran the program (pid 11),
 * and a second program beside them (pid 12): the script is a helper, left out
 * of the aggregates and of the process list until "Helpers" is ticked; the
 * process shown stays chosen as the list changes. */
static void
test_helper_switch (void)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = gui_fixture_def ("cpu", "CPU", "%", MG_METRIC_TYPE_CPU_TIME, NULL);
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *dropdown, *check;
  GListModel *model;
  MgWindow *window;
  const struct {
    int pid, ppid;
    double start_s, end_s, value;
    const char *images[2];
  } processes[] = {
    { 10, 1, 0.0, 1.0, 0.0, { "/usr/bin/env", "/usr/bin/bash" } },
    { 11, 10, 0.005, 0.995, 80.0, { "/usr/bin/solver", NULL } },
    { 12, 1, 0.01, 0.99, 60.0, { "/usr/bin/solver", NULL } },
  };

  mg_profile_builder_add_metric (builder, def);
  mg_profile_builder_set_interval (builder, 10.0, 10.0, 100);
  for (guint p = 0; p < G_N_ELEMENTS (processes); p++)
    {
      MgProcessInfo info = { processes[p].pid, processes[p].ppid, -1, (char *) "node1",
                             (char *) (processes[p].images[1] ? processes[p].images[1]
                                                              : processes[p].images[0]),
                             processes[p].start_s, processes[p].end_s, MG_PROCESS_END_EXITED, 0,
                             FALSE, FALSE };
      MgProcessEvent start = { (int) p, processes[p].start_s, MG_EVENT_START, 0,
                               (char *) processes[p].images[0] };
      MgProcessEvent exec = { (int) p, processes[p].start_s, MG_EVENT_EXEC, 0,
                              (char *) processes[p].images[1] };

      mg_profile_builder_add_process (builder, &info);
      mg_profile_builder_add_event (builder, &start);
      if (exec.message != NULL)
        mg_profile_builder_add_event (builder, &exec);
      for (guint k = 0; k < 10; k++)
        {
          double v = processes[p].value;

          mg_profile_builder_add_sample (builder, p, k * 0.1, (k + 1) * 0.1, &v, &v, &v);
        }
    }
  profile = mg_profile_builder_finish (builder, 10, &error);
  g_assert_no_error (error);
  /* The two programs only: the script's 0 % is no one's minimum. */
  g_assert_true (mg_profile_get_process (profile, 0)->helper);
  g_assert_cmpuint (mg_profile_get_n_helpers (profile), ==, 1);
  g_assert_cmpfloat (mg_profile_get_series (profile, 0)->mins[5], ==, 60.0);
  g_assert_cmpfloat (mg_profile_get_series (profile, 0)->means[5], ==, 70.0);

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  dropdown = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_DROP_DOWN);
  check = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                GTK_TYPE_CHECK_BUTTON);
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_get_visible (check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  model = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==,
                   "Process 11 on node1 (solver)");
  /* Named by its program, not by the script that ran it. */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "solver");
  /* The second program shown; ticking the switch keeps it shown. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 2);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 2);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  model = gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==,
                   "Helper 10 on node1 (bash (via env))");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown)), ==, 3);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 2);
  /* The helper's own series; unticked, the view goes back to all. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 1);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 0);
  gui_test_save_screenshot (window, "helpers.png");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown)), ==, 0);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, -1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Thousands of ranks: every one is in the process drop-down, which finds
 * them by rank or by host as the user types. */
static void
test_many_ranks (void)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = gui_fixture_def ("cpu", "CPU", "%", MG_METRIC_TYPE_CPU_TIME, NULL);
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *first = NULL;
  GtkWidget *dropdown;
  MgWindow *window;
  const guint n_ranks = 2048;

  mg_profile_builder_add_metric (builder, def);
  for (guint p = 0; p < n_ranks; p++)
    {
      g_autofree char *host = g_strdup_printf ("node%u", p / 16);
      MgProcessInfo info = { 3000 + (int) p, 1, (int) p, host, (char *) "solver", 0.0, 0.04,
                             MG_PROCESS_END_EXITED, 0, p % 16 == 0 };

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 4; k++)
        {
          double v = p + k;

          mg_profile_builder_add_sample (builder, p, k * 0.01, (k + 1) * 0.01, &v, &v, &v);
        }
    }
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  dropdown = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_DROP_DOWN);
  g_assert_nonnull (dropdown);
  g_assert_true (gtk_drop_down_get_enable_search (GTK_DROP_DOWN (dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown))),
                    ==, n_ranks + 1);
  g_assert_cmpuint (dropdown_matches (GTK_DROP_DOWN (dropdown), "Rank 1500 ", &first), ==, 1);
  g_assert_cmpstr (first, ==, "Rank 1500 on node93 (pid 4500, solver)");
  /* A node's sixteen ranks, and no other node's (node12 is a prefix of node127). */
  g_assert_cmpuint (dropdown_matches (GTK_DROP_DOWN (dropdown), "node127 ", NULL), ==, 16);
  g_assert_cmpuint (dropdown_matches (GTK_DROP_DOWN (dropdown), "no such host", NULL), ==, 0);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 1501);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 1500);
  gui_test_save_screenshot (window, "many-ranks.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_groups_and_presets (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_groups ();
  MgWindow *window, *second;
  const char *default_ids[] = { "cpu", "rss", NULL };
  const char *default_groups[] = { "Default", NULL };
  const char *cpu_ids[] = { "cpu", "user", NULL };
  const char *cpu_groups[] = { "CPU Time", NULL };
  const char *all_ids[] = { "cpu", "rss", "user", "custom", NULL };
  const char *all_groups[] = { "Default", "CPU Time", "Memory", "Other metrics", NULL };
  const char *no_rss[] = { "cpu", "user", "custom", NULL };
  const char *no_memory_groups[] = { "Default", "CPU Time", "Other metrics", NULL };
  g_autoptr (GVariant) state = NULL;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);

  /* First time: the Default preset, exactly its group. */
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), default_ids);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), default_groups);

  gui_test_activate (window, "preset", g_variant_new_string ("group:cpu_time"));
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), cpu_ids);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), cpu_groups);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "preset");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "group:cpu_time");

  gui_test_activate (window, "preset", g_variant_new_string ("all"));
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), all_ids);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), all_groups);

  /* A metric in two groups: hiding one group keeps it under the other. */
  gui_test_activate (window, "show-group.memory", NULL);
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), all_ids);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), no_memory_groups);
  g_clear_pointer (&state, g_variant_unref);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "preset");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "");
  gui_test_activate (window, "show-group.memory", NULL);

  /* Hide from the row's menu, then undo. */
  gui_test_activate (window, "hide-metric", g_variant_new_string ("rss"));
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), no_rss);
  gui_test_activate (window, "undo-hide", NULL);
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), all_ids);

  /* Per-metric toggle; an id with "_" is escaped in the action name. */
  activate_metric_toggle (window, "show-metric", "cpu");
  activate_metric_toggle (window, "show-metric", "user");
  {
    const char *left[] = { "rss", "custom", NULL };

    gui_test_assert_strv (mg_window_get_visible_metric_ids (window), left);
  }
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-group.cpu-5Ftime"));
  gui_test_activate (window, "show-group.cpu-5Ftime", NULL);
  gui_test_activate (window, "show-other-metrics", NULL);
  {
    const char *left[] = { "rss", NULL };
    const char *left_groups[] = { "Default", "Memory", NULL };

    gui_test_assert_strv (mg_window_get_visible_metric_ids (window), left);
    gui_test_assert_strv (mg_window_get_visible_group_titles (window), left_groups);
  }

  /* Remembered for the next profile. */
  gui_test_activate (window, "preset", g_variant_new_string ("group:cpu_time"));
  second = gui_test_new_window (profile);
  gui_test_assert_strv (mg_window_get_visible_metric_ids (second), cpu_ids);
  gtk_window_destroy (GTK_WINDOW (second));
  /* A profile without that group gets the default preset (here: all). */
  {
    g_autoptr (MgProfile) other = gui_fixture_single ();
    const char *other_ids[] = { "cpu", "rss", NULL };

    second = gui_test_new_window (other);
    gui_test_assert_strv (mg_window_get_visible_metric_ids (second), other_ids);
    gtk_window_destroy (GTK_WINDOW (second));
  }
  gui_test_activate (window, "preset", g_variant_new_string ("all"));
  gui_test_save_screenshot (window, "groups.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* What a profile opens with follows its content: an MPI run opens with its
 * MPI rows beside the Default group; the user's own choice is remembered
 * for each kind of run apart. */
static void
test_preset_by_kind (void)
{
  g_autoptr (MgProfile) mpi = gui_fixture_demo ();
  g_autoptr (MgProfile) serial = gui_fixture_groups ();
  const char *mpi_default[] = { "Default", "MPI", NULL };
  const char *serial_default[] = { "Default", NULL };
  const char *mpi_all[] = { "Default", "CPU Time", "Memory", "I/O", "MPI", NULL };
  g_autoptr (GVariant) state = NULL;
  g_auto (GStrv) ids = NULL;
  MgWindow *window;

  gui_test_reset_settings ();
  window = gui_test_new_window (mpi);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), mpi_default);
  ids = mg_window_get_visible_metric_ids (window);
  g_assert_true (g_strv_contains ((const char *const *) ids, "mpi_call_time"));
  g_assert_true (g_strv_contains ((const char *const *) ids, "cpu_time_percentage"));
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "preset");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "default");
  /* The user's choice for MPI runs... */
  gui_test_activate (window, "preset", g_variant_new_string ("all"));
  gtk_window_destroy (GTK_WINDOW (window));

  /* ...leaves other runs on their default... */
  window = gui_test_new_window (serial);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), serial_default);
  gtk_window_destroy (GTK_WINDOW (window));

  /* ...and is what the next MPI run opens with. */
  window = gui_test_new_window (mpi);
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), mpi_all);
  gui_test_activate (window, "preset", g_variant_new_string ("default"));
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), mpi_default);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Rows share the window's height: two rows fill a tall window (each graph
 * taller than the minimum, at most the maximum, all alike), many rows keep
 * the minimum and scroll. */
static void
test_rows_fill_window (void)
{
  g_autoptr (MgProfile) few = gui_fixture_single ();
  g_autoptr (MgProfile) many = gui_fixture_demo ();
  MgWindow *window;
  int cpu, rss;

  gui_test_reset_settings ();
  window = gui_test_new_window (few);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 900);
  mg_test_spin (300);
  cpu = gtk_widget_get_height (mg_window_get_metric_graph (window, "cpu"));
  rss = gtk_widget_get_height (mg_window_get_metric_graph (window, "rss"));
  g_test_message ("two rows in a 900 px window: graphs %d and %d px", cpu, rss);
  g_assert_cmpint (cpu, ==, rss);
  g_assert_cmpint (cpu, >, 150);
  g_assert_cmpint (cpu, <=, 220);
  gtk_window_destroy (GTK_WINDOW (window));

  window = gui_test_new_window (many);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  gui_test_activate (window, "preset", g_variant_new_string ("all"));
  mg_test_spin (300);
  cpu = gtk_widget_get_height (mg_window_get_metric_graph (window, "cpu_time_percentage"));
  g_test_message ("many rows in a 600 px window: graphs %d px", cpu);
  g_assert_cmpint (cpu, ==, 80);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The header names the program as the user typed it: "sh", not "dash" the
 * process ran as; behind mpirun, the program the ranks ran. A live run's
 * titles are given back to the profile's. */
static void
test_header_names_program (void)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL);
  const char *argv[] = { "sh", "-c", "work", NULL };
  MgProcessInfo info = { 0 };
  double value = 10;
  g_autoptr (MgProfile) shell = NULL;
  g_autoptr (MgProfile) mpi = gui_fixture_demo ();
  g_autoptr (GError) error = NULL;
  MgWindow *window;

  mg_profile_builder_set_command (builder, argv, "/tmp");
  mg_profile_builder_add_metric (builder, def);
  info.pid = 5;
  info.rank = -1;
  info.program = (char *) "/usr/bin/dash";
  info.end_s = 0.1;
  info.end = MG_PROCESS_END_EXITED;
  mg_profile_builder_add_sample (builder, mg_profile_builder_add_process (builder, &info), 0, 0.1,
                                 &value, &value, &value);
  shell = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);

  gui_test_reset_settings ();
  window = gui_test_new_window (shell);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "sh");
  mg_window_set_profile (window, mpi, NULL);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "lulesh2.0");
  mg_window_show_titles (window, "solver", "Live run");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "solver");
  mg_window_show_profile_titles (window);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "lulesh2.0");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* One banner per run: while a run's banner shows, the errors banner does
 * not (the run's says the count); closing it brings the errors banner
 * back. */
static void
test_one_banner_per_run (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_errors ();
  MgWindow *window;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 3);
  g_assert_cmpuint (mg_window_count_errors (window), ==, 3);
  mg_window_set_run_banner_shown (window, TRUE);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 0);
  g_assert_cmpuint (mg_window_count_errors (window), ==, 3);
  mg_window_set_run_banner_shown (window, FALSE);
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 3);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
menu_has_label (GMenuModel *model, const char *wanted)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *label = NULL;
      g_autoptr (GMenuLinkIter) links = NULL;
      const char *name;
      GMenuModel *link;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label) &&
          g_str_equal (label, wanted))
        return TRUE;
      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_get_next (links, &name, &link))
        {
          gboolean found = menu_has_label (link, wanted);

          g_object_unref (link);
          if (found)
            return TRUE;
        }
    }
  return FALSE;
}

static void
test_metrics_menu (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_groups ();
  g_autoptr (MgMetricVisibility) visibility = mg_metric_visibility_new (profile, NULL);
  g_autoptr (GMenuModel) menu = NULL;
  g_autofree char *action = mg_metric_visibility_action_name ("show-metric", "a_b.c-d");

  g_assert_cmpstr (action, ==, "show-metric.a-5Fb.c-2Dd");
  g_assert_true (g_action_name_is_valid (action));

  menu = mg_metrics_menu_new (visibility);
  g_assert_true (menu_has_label (menu, "Preset: Default"));
  g_assert_true (menu_has_label (menu, "Preset: CPU Time"));
  g_assert_true (menu_has_label (menu, "Preset: Memory"));
  g_assert_true (menu_has_label (menu, "All Metrics"));
  g_assert_true (menu_has_label (menu, "Custom counter"));
  g_assert_false (menu_has_label (menu, "Preset: Energy"));
  g_assert_cmpuint (mg_metric_visibility_get_n_unavailable (visibility), ==, 1);
  g_assert_cmpstr (mg_metric_visibility_get_unavailable (visibility, 0)->reason, ==,
                   "RAPL counters are not readable");

  /* Without a metric error the reason is that nothing was recorded. */
  {
    g_autoptr (MgProfile) demo = gui_fixture_demo ();
    g_autoptr (MgMetricVisibility) demo_visibility = mg_metric_visibility_new (demo, NULL);

    g_assert_cmpstr (mg_metric_visibility_get_unavailable (demo_visibility, 0)->reason, ==,
                     "not recorded in this run");
  }
}

/* A plugin that failed everywhere leaves a series of gaps: its group is
 * unavailable with the plugin's error as the reason, not a section of empty
 * graphs; a group with one metric that has values stays, with both rows. */
static void
test_failed_plugin_group (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_failed_plugin ();
  g_autoptr (MgMetricVisibility) visibility = mg_metric_visibility_new (profile, NULL);
  g_autoptr (GMenuModel) menu = mg_metrics_menu_new (visibility);
  const MgUnavailableGroup *energy;
  const MgMetricSection *cpu;

  g_assert_cmpuint (mg_metric_visibility_get_n_sections (visibility), ==, 1);
  cpu = mg_metric_visibility_get_section (visibility, 0);
  g_assert_cmpstr (cpu->id, ==, "cpu_time");
  g_assert_cmpuint (cpu->metrics->len, ==, 2);
  g_assert_cmpuint (mg_metric_visibility_get_n_unavailable (visibility), ==, 1);
  energy = mg_metric_visibility_get_unavailable (visibility, 0);
  g_assert_cmpstr (energy->id, ==, "energy");
  g_assert_cmpstr (energy->reason, ==, GUI_FIXTURE_NO_RAPL);
  /* A name from a definition file is no mnemonic: its underscore doubled. */
  g_assert_true (menu_has_label (menu, "spare__cpu"));
  g_assert_false (menu_has_label (menu, "spare_cpu"));
  g_assert_false (menu_has_label (menu, "Preset: Energy"));
}

static void
test_errors_banner (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_errors ();
  MgWindow *window;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  /* A plugin error, a metric error, a killed process. */
  g_assert_cmpuint (mg_window_get_error_count (window), ==, 3);
  g_assert_cmpuint (mg_window_get_n_event_marks (window), ==, 1);
  /* The side panel is built when first shown. */
  {
    GtkWidget *switcher = gui_test_find_widget (GTK_WIDGET (window), GTK_TYPE_STACK_SWITCHER);
    GtkStack *stack;

    g_assert_nonnull (switcher);
    g_assert_null (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (switcher)));
    gui_test_activate (window, "show-errors", NULL);
    stack = gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (switcher));
    g_assert_nonnull (stack);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "errors");
    for (const char *const *page = (const char *const[]) { "run", "errors", NULL }; *page; page++)
      g_assert_nonnull (gtk_scrolled_window_get_child (
        GTK_SCROLLED_WINDOW (gtk_stack_get_child_by_name (stack, *page))));
  }
  {
    g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-info");

    g_assert_true (g_variant_get_boolean (state));
  }
  gui_test_save_screenshot (window, "errors.png");
  gui_test_activate (window, "show-info", NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file name is bytes: one that is not UTF-8 is shown with U+FFFD in
 * its place, on the loading and error pages and in the subtitle (it
 * reached Pango as it was: "Invalid UTF-8 string passed to
 * pango_layout_set_text()" and a garbled title). */
static void
test_non_utf8_name (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "run-\xff.mgprof", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad-\xfe.mgprof", NULL);
  g_autoptr (GFile) good_file = g_file_new_for_path (good);
  g_autoptr (GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr (GError) error = NULL;
  MgWindow *window;

  g_assert_true (mg_profile_save (profile, good, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (bad, "not a profile\n", -1, NULL));

  window = gui_test_new_window (NULL);
  mg_window_open_file (window, bad_file);
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_error_title (window), ==, "Cannot Open “bad-\uFFFD.mgprof”");
  g_assert_true (g_utf8_validate (mg_window_get_error_message (window), -1, NULL));

  mg_window_open_file (window, good_file);
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_true (g_str_has_prefix (mg_window_get_subtitle (window), "run-\uFFFD.mgprof — "));
  /* Drawn without a warning from Pango (warnings are fatal here). */
  g_object_unref (gui_test_render (GTK_WIDGET (window)));
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_unlink (good), ==, 0);
  g_assert_cmpint (g_unlink (bad), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_open_files (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "good.mgprof", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.mgprof", NULL);
  g_autoptr (GFile) good_file = g_file_new_for_path (good);
  g_autoptr (GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr (GError) error = NULL;
  const char *ids[] = { "cpu", "rss", NULL };
  MgWindow *window;

  gui_test_reset_settings ();
  g_assert_true (mg_profile_save (profile, good, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (bad, "this is not a profile at all\n", -1, NULL));

  window = gui_test_new_window (NULL);
  g_assert_cmpstr (mg_window_get_page (window), ==, "start");
  g_assert_true (mg_window_is_empty (window));
  gui_test_save_screenshot (window, "start.png");

  mg_window_open_file (window, bad_file);
  g_assert_true (mg_window_get_loading (window));
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "error");
  g_assert_nonnull (strstr (mg_window_get_error_message (window), "bad.mgprof"));
  g_assert_null (mg_window_get_profile (window));
  gui_test_save_screenshot (window, "bad-file.png");

  mg_window_open_file (window, good_file);
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  /* Shown at once, not faded in over the spinner. */
  {
    GtkWidget *stack = gui_test_find_widget (GTK_WIDGET (window), GTK_TYPE_STACK);

    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "profile");
    g_assert_false (gtk_stack_get_transition_running (GTK_STACK (stack)));
  }
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), ids);
  gtk_window_destroy (GTK_WINDOW (window));

  /* Closing a window while it loads is safe: the window goes at once and
   * the load's result is dropped. */
  window = gui_test_new_window (NULL);
  mg_window_open_file (window, good_file);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_null (window);
  mg_test_spin (500);

  /* Dropping a file on an empty window opens it there. */
  window = gui_test_new_window (NULL);
  {
    GListModel *controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
    GtkDropTarget *target = NULL;
    GValue value = G_VALUE_INIT;
    GSList *list = g_slist_append (NULL, good_file);
    gboolean accepted = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
      {
        g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_DROP_TARGET (controller))
          target = GTK_DROP_TARGET (controller);
      }
    g_object_unref (controllers);
    g_assert_nonnull (target);
    g_value_init (&value, GDK_TYPE_FILE_LIST);
    g_value_set_boxed (&value, list);
    g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
    g_assert_true (accepted);
    g_value_unset (&value);
    g_slist_free (list);
  }
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  gtk_window_destroy (GTK_WINDOW (window));

  /* The good file (not the bad one) is now a recent profile. */
  window = gui_test_new_window (NULL);
  mg_test_spin (200);
  g_assert_cmpuint (mg_window_get_n_recent (window), ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A window opening a file at once (as the application opens one) never
   * shows its start page, and never reads the recent files. */
  window = mg_window_new (gui_test_app);
  mg_window_open_file (window, good_file);
  gtk_window_present (GTK_WINDOW (window));
  gui_test_wait_loaded (window);
  mg_test_spin (100);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_cmpuint (mg_window_get_n_recent (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));

  g_unlink (good);
  g_unlink (bad);
  g_rmdir (dir);
}

/* A profile opened from a file reads a process's own series when it is
 * chosen; a file changed on disk since opening is said in a message, and
 * the view goes back to all processes. */
static void
test_process_read_when_chosen (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_imbalance ();
  const MgMetricDef *def = mg_profile_get_metric (profile, 0);
  g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "ranks.mgprof", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autofree char *v60 = mg_units_format_value (def, 60);
  g_autofree char *expected = g_strdup_printf ("Max %s · Mean %s · Min %s", v60, v60, v60);
  g_autofree char *figures = NULL;
  GtkWidget *dropdown, *dialog = NULL;
  MgWindow *window;
  MgTimeView *view;
  GList *toplevels;

  gui_test_reset_settings ();
  g_assert_true (mg_profile_save (profile, path, &error));
  window = gui_test_new_window (NULL);
  mg_window_open_file (window, file);
  gui_test_wait_loaded (window);
  view = mg_window_get_time_view (window);
  dropdown = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                   GTK_TYPE_DROP_DOWN);

  /* Rank 2, read from the file when chosen: 60 everywhere. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 3);
  g_assert_cmpint (mg_time_view_get_process (view), ==, 2);
  figures = mg_window_dup_row_figures (window, "work");
  g_assert_cmpstr (figures, ==, expected);

  /* The file is cut short: rank 3 cannot be read any more. */
  g_assert_cmpint (truncate (path, 100), ==, 0);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 4);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown)), ==, 0);
  g_assert_cmpint (mg_time_view_get_process (view), ==, -1);
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_MESSAGE_DIALOG (l->data))
      dialog = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  {
    g_autofree char *detail = NULL;

    g_object_get (dialog, "secondary-text", &detail, NULL);
    g_assert_nonnull (strstr (detail, "ranks.mgprof"));
    g_assert_nonnull (strstr (detail, "changed on disk"));
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
  /* Rank 2 was read before: still there. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 3);
  g_assert_cmpint (mg_time_view_get_process (view), ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_export_view (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_imbalance ();
  g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
  const char *names[] = { "view.png", "view.svg", "view.pdf", "data.json", "data.csv" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF", "{", "" };
  g_autoptr (GError) error = NULL;
  MgWindow *window;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (mg_window_export (window, path, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 1000);
      /* The data exports name the metric. */
      if (i >= 3)
        g_assert_nonnull (strstr (contents, "work"));
      g_assert_true (g_str_has_prefix (contents, magic[i]));
      if (i == 0)
        {
          /* The metric's colour (#e66100) is drawn in the exported PNG. */
          g_autoptr (GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
          graphene_rect_t all = GRAPHENE_RECT_INIT (0, 0, gdk_texture_get_width (texture),
                                                    gdk_texture_get_height (texture));

          g_assert_no_error (error);
          g_assert_cmpuint (gui_test_count_colour (texture, &all, 0xe6, 0x61, 0x00, 12), >, 50);
        }
      g_unlink (path);
    }
  {
    g_autofree char *path = g_build_filename (dir, "view.bmp", NULL);

    g_assert_false (mg_window_export (window, path, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "view.bmp"));
    g_assert_nonnull (strstr (error->message, ".csv"));
  }
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

/* Binary files hold NULs: search the whole length. */
static gboolean
contains_bytes (const char *data, gsize length, const char *text)
{
  gsize n = strlen (text);

  for (gsize i = 0; i + n <= length; i++)
    if (memcmp (data + i, text, n) == 0)
      return TRUE;
  return FALSE;
}

static guint8
grey_at (GdkTexture *texture, int x, int y)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guint8 *data = g_malloc ((gsize) width * height * 4);

  g_assert_true (x < width && y < height);
  gdk_texture_download (texture, data, (gsize) width * 4);
  return data[((gsize) y * width + x) * 4 + 1]; /* green of B G R A */
}

/* The exported view shows what the window shows: the group headers with
 * their display names (collapsed ones alone), each row, the time axis. */
static void
test_export_groups (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_groups ();
  g_autofree char *dir = g_dir_make_tmp ("mg-gui-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "view.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "view.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "view.pdf", NULL);
  const double row = MG_VIEW_EXPORT_ROW_HEIGHT + MG_VIEW_EXPORT_ROW_GAP;
  /* Default (2 rows), CPU Time (2), Memory (1), Other metrics (1). */
  const double full = MG_VIEW_EXPORT_TITLE_HEIGHT + 4 * MG_VIEW_EXPORT_HEADER_HEIGHT + 6 * row
                      + MG_VIEW_EXPORT_AXIS_HEIGHT + MG_VIEW_EXPORT_MARGIN;
  const char *const titles[] = { "Default", "CPU Time", "Memory", "Other metrics", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  MgWindow *window;
  int header_y = (int) (MG_VIEW_EXPORT_TITLE_HEIGHT + MG_VIEW_EXPORT_HEADER_HEIGHT / 2);
  int right = (int) MG_VIEW_EXPORT_WIDTH - 20;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gui_test_activate (window, "preset", g_variant_new_string ("all"));
  gui_test_assert_strv (mg_window_get_visible_group_titles (window), titles);

  /* PNG: one header band per group above its rows, in the header tint. */
  g_assert_true (mg_window_export (window, png, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, (int) MG_VIEW_EXPORT_WIDTH);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, (int) ceil (full));
  g_assert_cmpint (abs (grey_at (texture, right, header_y) - grey_at (texture, right, 8)), >=, 8);
  g_assert_cmpint (grey_at (texture, right, header_y + (int) (MG_VIEW_EXPORT_HEADER_HEIGHT + 2 * row)),
                   ==, grey_at (texture, right, header_y));
  g_clear_object (&texture);

  /* SVG: the names as text too. */
  g_assert_true (mg_window_export (window, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "<?xml"));
  g_assert_nonnull (strstr (contents, "<title>"));
  g_assert_nonnull (strstr (contents, "Default: CPU time (%), Memory usage (B)\n"));
  g_assert_nonnull (strstr (contents, "CPU Time: CPU time (%), User time (%)\n"));
  g_assert_nonnull (strstr (contents, "Other metrics: Custom counter (events/s)\n"));
  g_assert_null (strstr (contents, "Energy"));
  /* Real text, selectable and searchable: the row names, figures and time
   * labels are <text> elements, and no glyph is drawn as an outline. */
  g_assert_nonnull (strstr (contents, "font-weight=\"bold\" fill=\"rgb(33,33,33)\">CPU time</text>"));
  g_assert_nonnull (strstr (contents, ">Figures of the whole run: "));
  g_assert_nonnull (strstr (contents, ">0 s</text>"));
  g_assert_null (strstr (contents, "glyph"));
  g_clear_pointer (&contents, g_free);

  /* PNG at 2×: twice as many pixels each way, the same drawing. */
  g_assert_true (mg_window_export_at_scale (window, png, 2, &error));
  g_assert_no_error (error);
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, 2 * (int) MG_VIEW_EXPORT_WIDTH);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, (int) ceil (2 * full));
  g_assert_cmpint (abs (grey_at (texture, 2 * right, 2 * header_y) - grey_at (texture, 2 * right, 16)),
                   >=, 8);
  g_clear_object (&texture);
  g_assert_cmpfloat (mg_file_chooser_parse_scale ("2"), ==, 2);
  g_assert_cmpfloat (mg_file_chooser_parse_scale ("1"), ==, 1);
  g_assert_cmpfloat (mg_file_chooser_parse_scale (NULL), ==, 1);

  /* A collapsed group: its header alone, as in the window. */
  g_assert_true (mg_window_set_group_expanded (window, "Memory", FALSE));
  g_assert_false (mg_window_set_group_expanded (window, "Energy", FALSE));
  g_assert_true (mg_window_export (window, png, &error));
  texture = gdk_texture_new_from_filename (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_height (texture), ==, (int) ceil (full - row));
  g_assert_true (mg_window_export (window, svg, &error));
  g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\nMemory:\nOther metrics:"));

  /* PDF: one page of the same size. */
  g_assert_true (mg_window_export (window, pdf, &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (pdf, &contents, &length, NULL));
  g_assert_true (g_str_has_prefix (contents, "%PDF-"));
  g_assert_true (contains_bytes (contents, length, "/Type /Page "));
  g_assert_true (contains_bytes (contents, length, "/Count 1\n"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* The size (and maximised state) of the window closed last comes back in
 * the next window, as GNOME apps do. */
static void
test_window_size (void)
{
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  MgWindow *window;
  GuiTestDisplay *managed;
  int width, height, frame;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 640);
  g_settings_set_boolean (settings, "window-maximized", FALSE);
  window = mg_window_new (gui_test_app);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (200);
  /* The default size counts the client-side decorations' frame. */
  frame = 900 - gtk_widget_get_width (GTK_WIDGET (window));
  g_assert_cmpint (frame, >=, 0);
  g_assert_cmpint (frame, <, 60);
  g_assert_false (gtk_window_is_maximized (GTK_WINDOW (window)));

  /* Resized, then closed: stored. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1010, 705);
  mg_test_spin (200);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, 1010 - frame);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_close (GTK_WINDOW (window));
  mg_test_spin (100);
  g_assert_null (window);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1010);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 705);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* The next window opens at that size. */
  window = mg_window_new (gui_test_app);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1010);
  g_assert_cmpint (height, ==, 705);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (200);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), ==, 1010 - frame);

  gtk_window_destroy (GTK_WINDOW (window));

  /* Maximised when closed: remembered, the old size kept for unmaximising;
   * the next window opens maximised. */
  managed = gui_test_display_new (TRUE);
  if (managed != NULL)
    {
      window = mg_window_new (gui_test_app);
      gtk_window_set_display (GTK_WINDOW (window), managed->display);
      gtk_window_present (GTK_WINDOW (window));
      mg_test_spin (200);
      g_assert_false (gtk_window_is_maximized (GTK_WINDOW (window)));
      gtk_window_maximize (GTK_WINDOW (window));
      for (guint i = 0; i < 20 && !gtk_window_is_maximized (GTK_WINDOW (window)); i++)
        mg_test_spin (100);
      g_assert_true (gtk_window_is_maximized (GTK_WINDOW (window)));
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_close (GTK_WINDOW (window));
      mg_test_spin (100);
      g_assert_null (window);
      g_assert_true (g_settings_get_boolean (settings, "window-maximized"));
      g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1010);
      g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 705);

      window = mg_window_new (gui_test_app);
      gtk_window_set_display (GTK_WINDOW (window), managed->display);
      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < 20 && !gtk_window_is_maximized (GTK_WINDOW (window)); i++)
        mg_test_spin (100);
      g_assert_true (gtk_window_is_maximized (GTK_WINDOW (window)));
      gtk_window_destroy (GTK_WINDOW (window));
      mg_test_spin (50);
      gui_test_display_free (managed);
    }
  else
    g_test_message ("Xvfb or openbox missing: the maximised state is not checked");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "window-maximized");
}

static void
test_pixels (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_gaps ();
  g_autoptr (GdkTexture) texture = NULL;
  MgWindow *window;
  GtkWidget *graph;
  graphene_rect_t bounds, left, right;
  guint in_values, in_gap;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  mg_test_spin (300);
  texture = gui_test_render (GTK_WIDGET (window));
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), "gaps.png", NULL);

      gdk_texture_save_to_png (texture, path);
    }

  /* The graph of "gappy": values in the first half of the run, none after. */
  graph = mg_window_get_metric_graph (window, "gappy");
  g_assert_nonnull (graph);
  g_assert_true (gtk_widget_compute_bounds (graph, GTK_WIDGET (window), &bounds));
  g_assert_cmpfloat (bounds.size.width, >, 200);
  left = GRAPHENE_RECT_INIT (bounds.origin.x + bounds.size.width * 0.1, bounds.origin.y,
                             bounds.size.width * 0.3, bounds.size.height);
  right = GRAPHENE_RECT_INIT (bounds.origin.x + bounds.size.width * 0.6, bounds.origin.y,
                              bounds.size.width * 0.35, bounds.size.height);
  in_values = gui_test_count_colour (texture, &left, 0x1a, 0x5f, 0xb4, 10);
  in_gap = gui_test_count_colour (texture, &right, 0x1a, 0x5f, 0xb4, 10);
  g_assert_cmpuint (in_values, >, 20);
  g_assert_cmpuint (in_gap, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
capture_screen (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), name, NULL);
  g_autofree char *command = g_strdup_printf ("import -window root %s", path);

  mg_test_spin (400);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
}

/* Only with MG_GUI_SCREENSHOT_DIR: the realistic run in light and dark,
 * the Metrics menu open (a popover: captured from the X screen). */
static void
test_screenshots (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_demo ();
  MgWindow *window;

  {
    g_autofree char *path = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), "demo.mgprof", NULL);

    g_assert_true (mg_profile_save (profile, path, NULL));
  }
  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_maximize (GTK_WINDOW (window));
  /* What an MPI run opens with: Default and MPI. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 1.4, 2.0);
  mg_test_spin (300);
  mg_time_view_set_hover_time (mg_window_get_time_view (window), -1);
  gui_test_save_screenshot (window, "demo.png");
  capture_screen ("demo-screen.png");
  {
    g_autofree char *path = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), "export.png", NULL);
    g_autofree char *svg = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), "export.svg", NULL);
    g_autofree char *png2 = g_build_filename (g_getenv ("MG_GUI_SCREENSHOT_DIR"), "export-2x.png",
                                              NULL);

    g_assert_true (mg_window_export (window, path, NULL));
    g_assert_true (mg_window_export (window, svg, NULL));
    g_assert_true (mg_window_export_at_scale (window, png2, 2, NULL));
  }
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-metrics-menu", NULL);
  capture_screen ("metrics-menu.png");
  gui_test_activate (window, "hide-metric", g_variant_new_string ("mpi_sent"));
  gui_test_save_screenshot (window, "undo.png");
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  capture_screen ("shortcuts.png");
  gtk_window_close (GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))));
  gui_test_activate (window, "undo-hide", NULL);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  gui_test_activate (window, "show-info", NULL);
  gui_test_save_screenshot (window, "demo-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  gui_test_activate (window, "show-info", NULL);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A large and a small window, light and dark, zoomed in with a selection
   * and the side panel open: "size-WxH-light.png" and so on. */
  for (guint i = 0; i < 4; i++)
    {
      int width = i < 2 ? 1600 : 900, height = i < 2 ? 1000 : 600;
      gboolean dark = i % 2 == 1;
      g_autofree char *name = g_strdup_printf ("size-%dx%d-%s.png", width, height,
                                               dark ? "dark" : "light");
      MgTimeView *view;

      g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
      window = mg_window_new (gui_test_app);
      gtk_window_set_default_size (GTK_WINDOW (window), width, height);
      mg_window_set_profile (window, profile, NULL);
      gtk_window_present (GTK_WINDOW (window));
      view = mg_window_get_time_view (window);
      mg_time_view_set_range (view, 1.0, 4.0);
      mg_time_view_set_selection (view, 1.4, 2.0);
      gui_test_activate (window, "show-info", NULL);
      if (dark)
        {
          /* The dark ones show the Report page, its bars and their scales. */
          GtkWidget *switcher = gui_test_find_widget (GTK_WIDGET (window), GTK_TYPE_STACK_SWITCHER);

          gtk_stack_set_visible_child_name (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (switcher)),
                                            "report");
        }
      mg_test_spin (300);
      gui_test_save_screenshot (window, name);
      gui_test_activate (window, "show-info", NULL);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
}

/* A run folder whose metrograph was killed is listed on the start page;
 * Recover writes its profile where the run would have, removes the folder
 * and opens the profile. The folder is made by hand: the run's plan and
 * command, an owner that no longer runs, and a record (a fixture). */
static void
test_recover_run (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("mg-recover-XXXXXX", NULL);
  g_autofree char *run = g_build_filename (tmp, "metrograph-test01", NULL);
  g_autofree char *records = g_build_filename (run, "records", NULL);
  g_autofree char *record = g_build_filename (records, "vm.1.1.mgrec", NULL);
  g_autofree char *plan = g_build_filename (run, "run.plan", NULL);
  g_autofree char *command_path = g_build_filename (run, "command", NULL);
  g_autofree char *owner = g_build_filename (run, "owner", NULL);
  g_autofree char *output = g_build_filename (tmp, "recovered.mgprof", NULL);
  /* A program whose name is not UTF-8: listed, recovered and shown with
   * U+FFFD (a Pango warning would fail the test). */
  g_autofree char *command = g_strdup_printf ("cd %s && metrograph --profile -o %s "
                                              "/usr/bin/sl\xe9" "ep 1", tmp, output);
  g_autofree char *fixture = g_build_filename (g_getenv ("MG_SOURCE_ROOT"), "tests", "fixtures",
                                               "fuzz", "record", "cpu-16-slots.record", NULL);
  g_autofree char *data = NULL, *boot = NULL, *owner_text = NULL;
  g_autofree char *old_tmpdir = g_strdup (g_getenv ("METROGRAPH_TMPDIR"));
  gsize len;
  gint64 deadline;
  MgWindow *window;

  g_assert_cmpint (g_mkdir_with_parents (records, 0700), ==, 0);
  g_assert_true (g_file_get_contents (fixture, &data, &len, NULL));
  g_assert_true (g_file_set_contents (record, data, (gssize) len, NULL));
  /* The fixture's record is of run "seed". */
  g_assert_true (g_file_set_contents (plan, "metrograph-plan 1\nrun_id\tseed\n", -1, NULL));
  g_assert_true (g_file_set_contents (command_path, command, -1, NULL));
  /* An owner of this boot whose lock nobody holds: proven ended. */
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/random/boot_id", &boot, NULL, NULL));
  owner_text = g_strdup_printf ("pid 999999\nstart 1\nboot %s\npidns 1\nhost h\nlock 1\n",
                                g_strstrip (boot));
  g_assert_true (g_file_set_contents (owner, owner_text, -1, NULL));
  g_setenv ("METROGRAPH_TMPDIR", tmp, TRUE);

  window = gui_test_new_window (NULL);
  mg_test_spin (200);
  g_assert_cmpuint (mg_window_get_n_recoverable (window), ==, 1);
  /* Opened as a profile, the folder says what it is and names --recover. */
  {
    g_autoptr (GFile) folder = g_file_new_for_path (run);
    g_autofree char *said = g_strdup_printf (
      "“%s” is the folder of a run whose profile was never written (Metrograph ended before "
      "the program): write its profile with metrograph --recover %s, then open that.", run, run);

    mg_window_open_file (window, folder);
    gui_test_wait_loaded (window);
    g_assert_cmpstr (mg_window_get_error_message (window), ==, said);
  }
  gui_test_activate (window, "recover-run", g_variant_new_bytestring (run));
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (g_file_test (run, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  /* The folder goes once the profile is saved; the window opens it after
   * (later under ASan on a loaded machine). */
  while (g_strcmp0 (mg_window_get_page (window), "profile") != 0
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  mg_test_spin (100);
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  g_assert_true (g_file_test (output, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "sl\xef\xbf\xbd" "ep");
  g_assert_false (g_file_test (run, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (mg_window_get_n_recoverable (window), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));

  if (old_tmpdir != NULL)
    g_setenv ("METROGRAPH_TMPDIR", old_tmpdir, TRUE);
  else
    g_unsetenv ("METROGRAPH_TMPDIR");
  g_unlink (output);
  g_rmdir (tmp);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/window/single-process", test_single_process);
  g_test_add_func ("/gui/window/icon-buttons-named", test_icon_buttons_named);
  g_test_add_func ("/gui/window/right-to-left", test_right_to_left);
  g_test_add_func ("/gui/window/large-text", test_large_text);
  g_test_add_func ("/gui/window/helper-switch", test_helper_switch);
  g_test_add_func ("/gui/window/selection-and-process", test_selection_and_process);
  g_test_add_func ("/gui/window/figures-follow-view", test_figures_follow_view);
  g_test_add_func ("/gui/window/groups-and-presets", test_groups_and_presets);
  g_test_add_func ("/gui/window/preset-by-kind", test_preset_by_kind);
  g_test_add_func ("/gui/window/rows-fill-window", test_rows_fill_window);
  g_test_add_func ("/gui/window/header-names-program", test_header_names_program);
  g_test_add_func ("/gui/window/one-banner-per-run", test_one_banner_per_run);
  g_test_add_func ("/gui/window/metrics-menu", test_metrics_menu);
  g_test_add_func ("/gui/window/failed-plugin-group", test_failed_plugin_group);
  g_test_add_func ("/gui/window/errors-banner", test_errors_banner);
  g_test_add_func ("/gui/window/open-files", test_open_files);
  g_test_add_func ("/gui/window/non-utf8-name", test_non_utf8_name);
  g_test_add_func ("/gui/window/process-read-when-chosen", test_process_read_when_chosen);
  g_test_add_func ("/gui/window/export-view", test_export_view);
  g_test_add_func ("/gui/window/recover-run", test_recover_run);
  g_test_add_func ("/gui/window/export-groups", test_export_groups);
  g_test_add_func ("/gui/window/size-remembered", test_window_size);
  g_test_add_func ("/gui/window/pixels", test_pixels);
  g_test_add_func ("/gui/window/many-ranks", test_many_ranks);
  if (g_getenv ("MG_GUI_SCREENSHOT_DIR") != NULL)
    g_test_add_func ("/gui/window/screenshots", test_screenshots);
  return gui_test_run ();
}
