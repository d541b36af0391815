/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview (mg-rank-overview.h) in a viewer window: opened by
 * win.rank-overview, its heat map as drawn, sorting, a click on a row
 * choosing that process in the window, following the time view, one
 * process, 1024 processes (and the time the picture takes). With
 * MG_GUI_SCREENSHOT_DIR set, the overview is saved at 1600 × 1000 with 64
 * and 1024 ranks, light and dark. */
#include "mg-config.h"

#include <math.h>

#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-rank-overview.h"
#include "gui/mg-window-private.h"
#include "heat-map-fixture.h"

#define HOT_R ((MG_HEAT_HOT >> 16) & 0xff)
#define HOT_G ((MG_HEAT_HOT >> 8) & 0xff)
#define HOT_B (MG_HEAT_HOT & 0xff)

/* Waits until the overview's heat map has its size and grid. */
static const MgHeatMap *
wait_drawn (MgRankOverview *overview)
{
  GtkWidget *heat = mg_rank_overview_get_heat_area (overview);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  /* Mapped and sized, and the series read (a worker thread). */
  while ((!gtk_widget_get_mapped (heat) || gtk_widget_get_width (heat) <= 0
          || mg_rank_overview_get_heat_map (overview) == NULL)
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  mg_test_spin (100);
  g_assert_nonnull (mg_rank_overview_get_heat_map (overview));
  return mg_rank_overview_get_heat_map (overview);
}

static MgRankOverview *
open_overview (MgWindow *window, const char *metric_id)
{
  GtkWidget *overview;

  gui_test_activate (window, "rank-overview", g_variant_new_string (metric_id));
  overview = mg_window_get_rank_overview (window);
  g_assert_nonnull (overview);
  gtk_window_set_default_size (GTK_WINDOW (gtk_widget_get_root (overview)), 1600, 1000);
  wait_drawn (MG_RANK_OVERVIEW (overview));
  return MG_RANK_OVERVIEW (overview);
}

static void
close_window (MgWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (50);
}

/* A click on the heat map's row `row`, through its click gesture. */
static void
click_row (MgRankOverview *overview, guint row)
{
  GtkWidget *heat = mg_rank_overview_get_heat_area (overview);
  const MgHeatMap *map = mg_rank_overview_get_heat_map (overview);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (heat);
  double y = (row + 0.5) * gtk_widget_get_height (heat) / map->n_rows;
  gboolean clicked = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !clicked; i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        {
          g_signal_emit_by_name (controller, "released", 1, 40.0, y);
          clicked = TRUE;
        }
    }
  g_assert_true (clicked);
  mg_test_spin (50);
}

static char *
selected_process_label (MgWindow *window)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *dropdown = gui_test_find_widget (header, GTK_TYPE_DROP_DOWN);
  GObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (dropdown));

  g_assert_true (GTK_IS_STRING_OBJECT (item));
  return g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
}

/* The heat map as drawn: the count of hot pixels in the band of row. */
static guint
hot_pixels_in_row (MgRankOverview *overview, guint row)
{
  GtkWidget *heat = mg_rank_overview_get_heat_area (overview);
  const MgHeatMap *map = mg_rank_overview_get_heat_map (overview);
  g_autoptr (GdkTexture) texture = gui_test_render (heat);
  double h = (double) gtk_widget_get_height (heat) / map->n_rows;
  /* Inside the band, clear of the outline of the chosen process. */
  graphene_rect_t band = GRAPHENE_RECT_INIT (3, row * h + MIN (h / 3, 2),
                                             gtk_widget_get_width (heat) - 6, MAX (h / 3, 1));

  return gui_test_count_colour (texture, &band, HOT_R, HOT_G, HOT_B, 8);
}

static void
save_screenshot (MgRankOverview *overview, const char *name)
{
  const char *dir = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;
  mg_test_spin (300);
  texture = gui_test_render (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (overview))));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

static void
set_dark (gboolean dark)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  mg_test_spin (100);
}

/* 64 ranks, rank 37 spiking at 0.5 s: opened from the action for "cpu",
 * in rank order its row is hot at the spike and the others are not;
 * sorted by maximum it is the first row; a click on it chooses rank 37 in
 * the window's process drop-down, and its row is outlined. */
static void
test_open_sort_click (void)
{
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (64, 100, 37, -1, FALSE);
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview = open_overview (window, "cpu");
  const MgHeatMap *map = mg_rank_overview_get_heat_map (overview);
  g_autofree char *label = NULL;

  g_assert_cmpstr (mg_rank_overview_get_metric_id (overview), ==, "cpu");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (overview)))),
                   ==, "Rank Overview — CPU");
  g_assert_cmpuint (map->n_rows, ==, 64);
  g_assert_cmpuint (map->processes[37], ==, 37);
  g_assert_cmpuint (hot_pixels_in_row (overview, 37), >, 0);
  g_assert_cmpuint (hot_pixels_in_row (overview, 36), ==, 0);
  g_assert_cmpuint (hot_pixels_in_row (overview, 0), ==, 0);
  save_screenshot (overview, "rank-overview-64-light.png");

  g_object_set (overview, "sort", MG_HEAT_SORT_MAX, NULL);
  map = wait_drawn (overview);
  g_assert_cmpuint (map->processes[0], ==, 37);
  g_assert_cmpuint (hot_pixels_in_row (overview, 0), >, 0);

  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, -1);
  click_row (overview, 0);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 37);
  label = selected_process_label (window);
  g_assert_true (g_str_has_prefix (label, "Rank 37 "));

  set_dark (TRUE);
  save_screenshot (overview, "rank-overview-64-dark.png");
  set_dark (FALSE);
  close_window (window);
}

/* The heat map follows the time view: zoomed in to [0.4, 0.6], its
 * columns cover that range; a selection [0.2, 0.3] is the range the order
 * describes, where rank 5 idled: sorted by minimum it comes first. */
static void
test_follows_view (void)
{
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (64, 100, 37, 5, FALSE);
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview = open_overview (window, "cpu");
  MgTimeView *view = mg_window_get_time_view (window);
  const MgHeatMap *map;

  mg_time_view_set_range (view, 0.4, 0.6);
  mg_time_view_set_selection (view, 0.2, 0.3);
  mg_rank_overview_set_sort (overview, MG_HEAT_SORT_MIN);
  map = wait_drawn (overview);
  g_assert_cmpfloat_with_epsilon (map->t0, 0.4, 1e-9);
  g_assert_cmpfloat_with_epsilon (map->t1, 0.6, 1e-9);
  g_assert_cmpfloat_with_epsilon (map->f0, 0.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (map->f1, 0.3, 1e-9);
  g_assert_cmpuint (map->processes[0], ==, 5);
  /* Rank 37's spike (0.50-0.51 s) in the middle twentieth of the columns. */
  g_assert_cmpfloat (mg_heat_map_get (map, (guint) mg_heat_map_row_of_process (map, 37),
                                      map->n_columns / 2 + map->n_columns / 40), ==, 90);
  mg_time_view_clear_selection (view);
  map = wait_drawn (overview);
  g_assert_cmpfloat (map->f1 - map->f0, >, 0.15);
  close_window (window);
}

/* One process: the action is there and shows its one row; without a
 * profile it is disabled. */
static void
test_single_process (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  MgWindow *empty = gui_test_new_window (NULL);
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview;
  const MgHeatMap *map;

  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (empty), "rank-overview"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "rank-overview"));
  overview = open_overview (window, "rss");
  map = mg_rank_overview_get_heat_map (overview);
  g_assert_cmpuint (map->n_rows, ==, 1);
  g_assert_cmpstr (mg_rank_overview_get_metric_id (overview), ==, "rss");
  /* Memory rises over the run: cold on the left, hot on the right. */
  g_assert_cmpfloat (mg_heat_map_fraction (map, mg_heat_map_get (map, 0, 0)), <, 0.05);
  g_assert_cmpfloat (mg_heat_map_fraction (map, mg_heat_map_get (map, 0, map->n_columns - 1)),
                     >, 0.95);
  close_window (window);
  close_window (empty);
}

/* 1024 ranks, rank 700 spiking: in rank order its pixel row is hot, and
 * sorted by maximum it is on top; the time of a full picture is said. */
static void
test_1024 (void)
{
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (1024, 1000, 700, 300, FALSE);
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview = open_overview (window, "cpu");
  const MgHeatMap *map = mg_rank_overview_get_heat_map (overview);
  GtkWidget *heat = mg_rank_overview_get_heat_area (overview);
  g_autoptr (GdkTexture) texture = gui_test_render (heat);
  double y = 700.5 * gtk_widget_get_height (heat) / 1024;

  g_assert_cmpuint (map->n_rows, ==, 1024);
  g_assert_cmpuint (gui_test_count_colour (texture,
                                           &GRAPHENE_RECT_INIT (0, floor (y),
                                                                gtk_widget_get_width (heat), 1),
                                           HOT_R, HOT_G, HOT_B, 8), >, 0);
  g_test_message ("1024 ranks × 1000 windows at %d × %d px: grid and picture in %.2f ms",
                  gtk_widget_get_width (heat), gtk_widget_get_height (heat),
                  mg_rank_overview_get_last_compute_us (overview) / 1000.0);
  save_screenshot (overview, "rank-overview-1024-light.png");
  mg_rank_overview_set_sort (overview, MG_HEAT_SORT_MAX);
  map = wait_drawn (overview);
  g_assert_cmpuint (map->processes[0], ==, 700);
  set_dark (TRUE);
  save_screenshot (overview, "rank-overview-1024-dark.png");
  set_dark (FALSE);
  close_window (window);
}

/* A key press on the heat map, through its key controller. */
static void
press_key (MgRankOverview *overview, guint keyval)
{
  GtkWidget *heat = mg_rank_overview_get_heat_area (overview);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (heat);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, 0, &handled);
    }
  g_assert_true (handled);
}

/* From the keyboard: Home, Down twice and Enter choose the third row's
 * process (rank 2 in rank order). A new profile in the window replaces
 * the overview's (the same window, now 4 ranks); closing the viewer
 * closes the overview. */
static void
test_keys_new_profile_close (void)
{
  g_autoptr (MgProfile) profile = heat_map_fixture_profile (64, 100, 37, -1, FALSE);
  g_autoptr (MgProfile) other = gui_fixture_imbalance ();
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview = open_overview (window, "cpu");
  GtkWidget *overview_window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (overview)));
  const MgHeatMap *map;

  gtk_widget_grab_focus (mg_rank_overview_get_heat_area (overview));
  press_key (overview, GDK_KEY_Home);
  press_key (overview, GDK_KEY_Down);
  press_key (overview, GDK_KEY_Down);
  press_key (overview, GDK_KEY_Return);
  mg_test_spin (50);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 2);

  mg_window_set_profile (window, other, NULL);
  g_assert_true (mg_window_get_rank_overview (window) == GTK_WIDGET (overview));
  g_assert_true (mg_rank_overview_get_profile (overview) == other);
  map = wait_drawn (overview);
  g_assert_cmpuint (map->n_rows, ==, 4);
  g_assert_cmpstr (mg_rank_overview_get_metric_id (overview), ==, "work");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (overview_window)), ==,
                   "Rank Overview — Work");

  g_object_add_weak_pointer (G_OBJECT (overview_window), (gpointer *) &overview_window);
  close_window (window);
  g_assert_null (overview_window);
}

/* Waves across 64 ranks (gui_fixture_large: phase and offset by rank):
 * whatever the data, each order holds — by mean, by max non-increasing,
 * by min non-decreasing — and the window shows the metric chosen in its
 * drop-down. */
static void
test_orders_hold (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_large (64, 2, 1024);
  MgWindow *window = gui_test_new_window (profile);
  MgRankOverview *overview = open_overview (window, "metric1");
  const MgHeatSort sorts[] = { MG_HEAT_SORT_MEAN, MG_HEAT_SORT_MAX, MG_HEAT_SORT_MIN };

  save_screenshot (overview, "rank-overview-waves.png");
  for (guint i = 0; i < G_N_ELEMENTS (sorts); i++)
    {
      const MgHeatMap *map;

      mg_rank_overview_set_sort (overview, sorts[i]);
      map = wait_drawn (overview);
      g_assert_cmpuint (map->n_rows, ==, 64);
      for (guint r = 1; r < map->n_rows; r++)
        if (sorts[i] == MG_HEAT_SORT_MIN)
          g_assert_cmpfloat (map->row_mins[r - 1], <=, map->row_mins[r]);
        else if (sorts[i] == MG_HEAT_SORT_MAX)
          g_assert_cmpfloat (map->row_maxs[r - 1], >=, map->row_maxs[r]);
        else
          g_assert_cmpfloat (map->row_means[r - 1], >=, map->row_means[r]);
    }
  g_assert_cmpstr (mg_rank_overview_get_metric_id (overview), ==, "metric1");
  close_window (window);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/rank-overview/open-sort-click", test_open_sort_click);
  g_test_add_func ("/rank-overview/follows-view", test_follows_view);
  g_test_add_func ("/rank-overview/single-process", test_single_process);
  g_test_add_func ("/rank-overview/keys-new-profile-close", test_keys_new_profile_close);
  g_test_add_func ("/rank-overview/orders-hold", test_orders_hold);
  g_test_add_func ("/rank-overview/1024", test_1024);
  return gui_test_run ();
}
