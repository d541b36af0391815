/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane (issue 30) under Xvfb, on a profile with stacks of known
 * counts (code-fixture.h): the Functions table's shares read back from
 * its model, following the selection and the process; the call tree top
 * down and bottom up; the empty state of a profile without stacks;
 * screenshots at 1600 × 1000, light and dark. */
#include "mg-config.h"

#include <math.h>
#include <string.h>
#include <gtk/gtk.h>

#include "code-fixture.h"
#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-code-item.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-flame-view.h"
#include "plot/mg-flame-graph.h"
#include "gui/mg-window-private.h"
#include "profile/mg-profile-code.h"
#include "symbols/mg-symbolizer.h"

static MgCodeView *
code_view (MgWindow *window)
{
  GtkWidget *view = mg_window_get_code_view (window);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_true (MG_IS_CODE_VIEW (view));
  mg_test_spin (20);
  while (mg_code_view_is_busy (MG_CODE_VIEW (view)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_code_view_is_busy (MG_CODE_VIEW (view)));
  return MG_CODE_VIEW (view);
}

static MgCodeItem *
find_function (GListModel *model, const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (model, i);
      if (g_str_equal (mg_code_item_get_name (item), name))
        return item;
    }
  g_error ("no function %s in the table", name);
}

static void
assert_function (GListModel *model, const char *name, guint64 self, guint64 total,
                 double self_share, double total_share)
{
  MgCodeItem *item = find_function (model, name);

  g_assert_cmpuint (mg_code_item_get_self (item), ==, self);
  g_assert_cmpuint (mg_code_item_get_total (item), ==, total);
  g_assert_cmpfloat_with_epsilon (mg_code_item_get_self_share (item), self_share, 0.01);
  g_assert_cmpfloat_with_epsilon (mg_code_item_get_total_share (item), total_share, 0.01);
}

/* The first drop-down under root but skip (the process drop-down, not
 * the Code pane's thread drop-down). */
static GtkWidget *
find_drop_down_but (GtkWidget *root, GtkWidget *skip)
{
  if (GTK_IS_DROP_DOWN (root) && root != skip)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_drop_down_but (c, skip);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_functions (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe);

  g_assert_null (mg_code_view_get_empty_title (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  /* Named by the symboliser, sorted by total. */
  g_autoptr (MgCodeItem) first = g_list_model_get_item (model, 0);
  g_assert_cmpstr (mg_code_item_get_name (first), ==, "code_fixture_main");
  assert_function (model, "code_fixture_main", 0, 160, 0, 100);
  assert_function (model, "code_fixture_a", 100, 130, 62.5, 81.25);
  assert_function (model, "code_fixture_b", 0, 30, 0, 18.75);
  assert_function (model, "code_fixture_c", 60, 60, 37.5, 37.5);
  MgCodeItem *c = find_function (model, "code_fixture_c");
  g_assert_true (g_str_has_prefix (mg_code_item_get_location (c), "code-fixture.c:"));
  g_assert_cmpstr (mg_code_item_get_module (c), ==, exe_name);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "160 samples"));

  /* The second half selected: its windows' stacks only. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_view (window);
  assert_function (model, "code_fixture_a", 40, 40, 80, 80);
  assert_function (model, "code_fixture_c", 10, 10, 20, 20);
  assert_function (model, "code_fixture_main", 0, 50, 0, 100);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "50 samples"));

  /* Process 1 chosen in the header's drop-down (after All Processes),
   * whole run. */
  mg_time_view_clear_selection (mg_window_get_time_view (window));
  GtkWidget *processes = find_drop_down_but (GTK_WIDGET (window),
                                              mg_code_view_get_threads (view));
  g_assert_nonnull (processes);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (processes), 2);
  g_assert_cmpint (mg_time_view_get_process (mg_window_get_time_view (window)), ==, 1);
  view = code_view (window);
  assert_function (model, "code_fixture_a", 40, 40, 66.67, 66.67);
  assert_function (model, "code_fixture_c", 20, 20, 33.33, 33.33);
  assert_function (model, "code_fixture_b", 0, 20, 0, 33.33);

  /* A process without stacks says so. */
  mg_time_view_set_process (mg_window_get_time_view (window), 3);
  view = code_view (window);
  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Call Stacks");
  gtk_window_destroy (GTK_WINDOW (window));
}


/* The symboliser's names with a mark, to tell the names the profile
 * carries from those the symboliser would give. */
static gboolean
kept_name (gpointer data, const char *module_path, const guint8 *id, gsize id_len, guint64 vaddr,
           GPtrArray *names)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = mg_symbolizer_resolve (data, module_path, id, id_len, vaddr,
                                                        &error);
  for (guint i = 0; error == NULL && i < frames->len; i++)
    {
      const MgSymbolFrame *f = g_ptr_array_index (frames, i);
      MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
      n->function = g_strconcat ("kept_", f->function, NULL);
      n->file = g_strdup (f->file);
      n->line = f->line;
      n->label = g_strdup (n->function);
      g_ptr_array_add (names, n);
    }
  return names->len > 0;
}

/* The names a profile carries (mg-profile-code.h) come before the
 * symboliser's: the table shows them, with their counts and files. */
static void
test_stored_names (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = { kept_name, symbolizer };

  mg_profile_store_code (profile, &namer, NULL, 0);
  g_assert_true (mg_profile_has_stored_names (profile));
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);

  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  assert_function (model, "kept_code_fixture_main", 0, 160, 0, 100);
  assert_function (model, "kept_code_fixture_a", 100, 130, 62.5, 81.25);
  assert_function (model, "kept_code_fixture_c", 60, 60, 37.5, 37.5);
  MgCodeItem *c = find_function (model, "kept_code_fixture_c");
  g_assert_true (g_str_has_prefix (mg_code_item_get_location (c), "code-fixture.c:"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
assert_spread (GListModel *model, const char *name, const char *min, const char *mean,
               const char *max)
{
  MgCodeItem *item = find_function (model, name);
  g_autofree char *t_min = mg_code_item_format_spread (item, 0);
  g_autofree char *t_mean = mg_code_item_format_spread (item, 1);
  g_autofree char *t_max = mg_code_item_format_spread (item, 2);

  g_assert_cmpstr (t_min, ==, min);
  g_assert_cmpstr (t_mean, ==, mean);
  g_assert_cmpstr (t_max, ==, max);
}

/* All processes: each function's total share of each rank's samples,
 * min / mean / max with the rank of the extremes (code-fixture.h: rank 0
 * has a in 90 of 100 samples, rank 1 in 40 of 60); one process chosen:
 * no such columns. */
static void
test_across_processes (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  MgSpreadFigures f;

  g_assert_true (mg_code_view_get_spread_shown (view));
  g_assert_true (mg_code_item_get_spread (find_function (model, "code_fixture_a"), &f));
  g_assert_cmpfloat_with_epsilon (f.min, 200.0 / 3, 1e-9);
  g_assert_cmpfloat_with_epsilon (f.mean, (90 + 200.0 / 3) / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (f.max, 90, 1e-9);
  g_assert_cmpuint (f.min_process, ==, 1);
  g_assert_cmpuint (f.max_process, ==, 0);
  assert_spread (model, "code_fixture_a", "66.7 % (rank 1)", "78.3 %", "90.0 % (rank 0)");
  assert_spread (model, "code_fixture_b", "10.0 % (rank 0)", "21.7 %", "33.3 % (rank 1)");
  assert_spread (model, "code_fixture_c", "33.3 % (rank 1)", "36.7 %", "40.0 % (rank 0)");
  assert_spread (model, "code_fixture_main", "100.0 % (rank 0)", "100.0 %", "100.0 % (rank 0)");

  /* The second half: rank 0 main→b→c ×10 (c 100 %), rank 1 main→a ×40. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_view (window);
  assert_spread (model, "code_fixture_a", "0.0 % (rank 0)", "50.0 %", "100.0 % (rank 1)");

  mg_time_view_clear_selection (mg_window_get_time_view (window));
  mg_time_view_set_process (mg_window_get_time_view (window), 1);
  view = code_view (window);
  g_assert_false (mg_code_view_get_spread_shown (view));
  g_assert_false (mg_code_item_get_spread (find_function (model, "code_fixture_a"), &f));
  assert_spread (model, "code_fixture_a", "", "", "");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The thread drop-down filters every view: all threads (the same stack
 * of two threads merged), the main thread, thread 1. */
static void
test_threads (void)
{
  g_autoptr (MgProfile) profile = code_fixture_threads_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  GtkDropDown *threads = GTK_DROP_DOWN (mg_code_view_get_threads (view));

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (threads)));
  GListModel *names = gtk_drop_down_get_model (threads);
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, 4);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 0), ==, "All Threads");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 1), ==, "Main Thread");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), 2), ==, "Thread 1");
  g_assert_cmpuint (gtk_drop_down_get_selected (threads), ==, 0);
  assert_function (model, "code_fixture_a", 75, 75, 75, 75);
  assert_function (model, "code_fixture_b", 25, 25, 25, 25);
  assert_function (model, "code_fixture_main", 0, 100, 0, 100);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "100 samples"));

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_drop_down_set_selected (threads, 1);
  view = code_view (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_function (model, "code_fixture_a", 70, 70, 100, 100);
  mg_test_spin (200);
  gui_test_save_screenshot (window, "code-threads-light.png");
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "70 samples"));

  gtk_drop_down_set_selected (threads, 2);
  view = code_view (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_function (model, "code_fixture_b", 25, 25, 100, 100);
  /* The list stays as it was, with the choice. */
  g_assert_cmpuint (gtk_drop_down_get_selected (threads), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, 4);

  /* The selection still applies: thread 1 ran in the first half only;
   * the main thread's second half is its 20. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_view (window);
  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Samples Here");
  gtk_drop_down_set_selected (threads, 1);
  view = code_view (window);
  assert_function (model, "code_fixture_a", 20, 20, 100, 100);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A profile whose stacks name no thread: no drop-down. */
  g_autoptr (MgProfile) older = code_fixture_profile ();
  window = gui_test_new_window (older);
  view = code_view (window);
  g_assert_false (gtk_widget_get_visible (mg_code_view_get_threads (view)));
  gtk_window_destroy (GTK_WINDOW (window));
}

static MgCodeItem *
tree_item (GListModel *rows, guint i, guint *depth)
{
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
  *depth = gtk_tree_list_row_get_depth (row);
  MgCodeItem *item = gtk_tree_list_row_get_item (row);
  g_object_unref (item);  /* the row's item lives in the tree's stores */
  return item;
}

static void
test_call_tree (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  GListModel *rows = mg_code_view_get_tree_model (view);
  guint depth;

  /* Top down, its first levels open: main, then a (130) before b (30). */
  MgCodeItem *item = tree_item (rows, 0, &depth);
  g_assert_cmpstr (mg_code_item_get_name (item), ==, "code_fixture_main");
  g_assert_cmpuint (depth, ==, 0);
  g_assert_cmpuint (mg_code_item_get_total (item), ==, 160);
  item = tree_item (rows, 1, &depth);
  g_assert_cmpstr (mg_code_item_get_name (item), ==, "code_fixture_a");
  g_assert_cmpuint (depth, ==, 1);
  g_assert_cmpuint (mg_code_item_get_total (item), ==, 130);
  g_assert_cmpuint (mg_code_item_get_self (item), ==, 100);
  g_assert_cmpfloat_with_epsilon (mg_code_item_get_total_share (item), 81.25, 0.01);

  /* Bottom up: where samples landed, a (100) then c (60). */
  mg_code_view_set_bottom_up (view, TRUE);
  item = tree_item (rows, 0, &depth);
  g_assert_cmpstr (mg_code_item_get_name (item), ==, "code_fixture_a");
  g_assert_cmpuint (mg_code_item_get_total (item), ==, 100);
  item = tree_item (rows, 1, &depth);
  g_assert_cmpuint (depth, ==, 1);
  g_assert_cmpstr (mg_code_item_get_name (item), ==, "code_fixture_main");
  gboolean found_c = FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      item = tree_item (rows, i, &depth);
      if (depth == 0 && g_str_equal (mg_code_item_get_name (item), "code_fixture_c"))
        {
          found_c = TRUE;
          g_assert_cmpuint (mg_code_item_get_total (item), ==, 60);
        }
    }
  g_assert_true (found_c);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The flame graph of the whole run: a click on a function zooms to it
 * (its box the full width), a click on the top row zooms back out; the
 * tooltip gives the shares. */
static void
test_flame_graph (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));

  mg_code_view_show_page (view, "flame");
  mg_test_spin (200);
  int width = gtk_widget_get_width (GTK_WIDGET (flame));
  g_assert_cmpint (width, >, 100);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (flame)), >=, 4 * 20);
  /* All, main, a (81.25 %) then b, c under both. */
  g_assert_cmpuint (mg_flame_view_get_boxes (flame)->len, ==, 6);

  g_autofree char *tip = mg_flame_view_dup_tooltip (flame, width * 0.95, 2 * 20 + 10);
  g_assert_cmpstr (tip, ==, "code_fixture_b\nTotal 18.8 % (30 samples), self 0.0 %");
  g_autofree char *none = mg_flame_view_dup_tooltip (flame, width * 0.5, 3 * 20 + 10);
  g_assert_null (none);  /* a's self time: no box below it */

  mg_flame_view_click (flame, width * 0.5, 2 * 20 + 10);
  const GArray *boxes = mg_flame_view_get_boxes (flame);
  g_assert_cmpuint (boxes->len, ==, 4);
  const MgFlameBox *a = &g_array_index (boxes, MgFlameBox, 2);
  g_assert_cmpuint (a->node, ==, mg_flame_view_get_focus (flame));
  g_assert_cmpfloat (a->x1 - a->x0, ==, 1);
  /* c: 30 of a's 130 samples. */
  const MgFlameBox *c = &g_array_index (boxes, MgFlameBox, 3);
  g_assert_cmpfloat_with_epsilon (c->x1 - c->x0, 30.0 / 130, 1e-9);
  gui_test_save_screenshot (window, "code-flame-zoomed-light.png");

  mg_flame_view_click (flame, 10, 5);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, 0);
  g_assert_cmpuint (mg_flame_view_get_boxes (flame)->len, ==, 6);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_no_stacks (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_view (window);

  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Call Stacks");
  g_assert_cmpuint (g_list_model_get_n_items (mg_code_view_get_functions_model (view)), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_screenshots (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  mg_test_spin (200);
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.1, 0.45);
  code_view (window);
  gui_test_save_screenshot (window, "code-functions-light.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  mg_code_view_set_bottom_up (code_view (window), FALSE);
  mg_code_view_show_page (code_view (window), "tree");
  gui_test_save_screenshot (window, "code-tree-dark.png");
  mg_code_view_show_page (code_view (window), "flame");
  gui_test_save_screenshot (window, "code-flame-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With MG_CODE_VIEW_PROFILE naming a profile of a real run (and
 * MG_GUI_SCREENSHOT_DIR set), its Code pane at 1600 × 1000: each page,
 * light, for the documentation. */
static void
test_real_profile (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_load (g_getenv ("MG_CODE_VIEW_PROFILE"), &error);
  g_assert_no_error (error);
  MgWindow *window = gui_test_new_window (profile);
  static const char *const pages[] = { "functions", "tree", "flame" };

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *name = g_strdup_printf ("code-real-%s.png", pages[i]);
      mg_code_view_show_page (code_view (window), pages[i]);
      gui_test_save_screenshot (window, name);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/code-view/functions", test_functions);
  g_test_add_func ("/code-view/stored-names", test_stored_names);
  g_test_add_func ("/code-view/threads", test_threads);
  g_test_add_func ("/code-view/call-tree", test_call_tree);
  g_test_add_func ("/code-view/flame-graph", test_flame_graph);
  g_test_add_func ("/code-view/no-stacks", test_no_stacks);
  g_test_add_func ("/code-view/across-processes", test_across_processes);
  g_test_add_func ("/code-view/screenshots", test_screenshots);
  if (g_getenv ("MG_CODE_VIEW_PROFILE") != NULL)
    g_test_add_func ("/code-view/real-profile", test_real_profile);
  return gui_test_run ();
}
