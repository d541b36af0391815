/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane (issue 30) under Xvfb, on a profile with stacks of known
 * counts (code-fixture.h): the Functions table's shares read back from
 * its model, following the selection and the process; the call tree top
 * down and bottom up; the empty state of a profile without stacks;
 * screenshots at 1600 × 1000, light and dark. */
#include "mg-config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "code-fixture.h"
#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-code-item.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-flame-view.h"
#include "plot/mg-code-export.h"
#include "plot/mg-flame-graph.h"
#include "gui/mg-window-private.h"
#include "gui/mg-wrap-layout.h"
#include "profile/mg-profile-code.h"
#include "report/mg-report.h"
#include "symbols/mg-code-callbacks.h"
#include "symbols/mg-symbolizer.h"


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

/* Sort indicators under WIDGET pointing down (descending) and up. */
static void
count_sort_arrows (GtkWidget *widget, guint *down, guint *up)
{
  if (g_str_equal (gtk_widget_get_css_name (widget), "sort-indicator"))
    {
      *down += gtk_widget_has_css_class (widget, "descending");
      *up += gtk_widget_has_css_class (widget, "ascending");
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    count_sort_arrows (c, down, up);
}

/* The flame page shown, and laid out: a fixed spin left it without its
 * width once under ASan beside the other build's suite, and a click at
 * x = 0 then found no box. */
static void
show_flame (MgCodeView *view)
{
  GtkWidget *flame = mg_code_view_get_flame_view (view);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  mg_code_view_show_page (view, "flame");
  mg_test_spin (200);
  while ((gtk_widget_get_width (flame) <= 100 || !gtk_widget_get_mapped (flame))
         && g_get_monotonic_time () < deadline)
    mg_test_spin (20);
}

/* The label under root whose text starts with prefix, or NULL. */
static GtkWidget *
find_label_prefixed (GtkWidget *root, const char *prefix)
{
  if (GTK_IS_LABEL (root) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (root)), prefix))
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_prefixed (c, prefix);
      if (found)
        return found;
    }
  return NULL;
}

/* The line above the views in a 1024 px window with the side panel open
 * (and at the default width): the sample count, which nothing else
 * shows, is drawn whole; only the range (the readout under the time
 * axis gives it too) is cut. The line was one label cut at its start:
 * "… run: 0 s to 3.02 s (3.02 s)", the count gone. */
static void
test_summary_keeps_count (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  const int widths[] = { 1024, 1180 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      MgWindow *window = gui_test_new_window (profile);
      MgCodeView *view;
      GtkWidget *count;
      int natural = 0;

      gtk_window_set_default_size (GTK_WINDOW (window), widths[i], 700);
      g_action_group_change_action_state (G_ACTION_GROUP (window), "show-info",
                                          g_variant_new_boolean (TRUE));
      view = code_fixture_view (window);
      /* The Call Tree's header is the most crowded (Top Down, Bottom Up). */
      mg_code_view_show_page (view, "tree");
      mg_test_spin (600);
      g_assert_true (g_str_has_prefix (mg_code_view_get_summary (view), "160 samples · "));
      count = find_label_prefixed (GTK_WIDGET (view), "160 samples");
      g_assert_nonnull (count);
      g_assert_true (gtk_widget_get_mapped (count));
      gtk_widget_measure (count, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_test_message ("%d px window: the count's label %d px of its %d px", widths[i],
                      gtk_widget_get_width (count), natural);
      g_assert_cmpint (gtk_widget_get_width (count), >=, natural);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (count), ==, mg_code_view_get_summary (view));
      gui_test_save_screenshot (window, widths[i] == 1024 ? "code-summary-1024.png"
                                                          : "code-summary-1180.png");
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

static void
test_functions (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe);

  g_assert_null (mg_code_view_get_empty_title (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  /* Named by the symboliser, sorted by total. */
  g_autoptr (MgCodeItem) first = g_list_model_get_item (model, 0);
  g_assert_cmpstr (mg_code_item_get_name (first), ==, "code_fixture_main");
  /* Largest first, and the Total header's arrow says so (it pointed up). */
  guint down = 0, up = 0;
  count_sort_arrows (mg_code_view_get_functions_view (view), &down, &up);
  g_assert_cmpuint (down, ==, 1);
  g_assert_cmpuint (up, ==, 0);
  assert_function (model, "code_fixture_main", 0, 160, 0, 100);
  assert_function (model, "code_fixture_a", 100, 130, 62.5, 81.25);
  assert_function (model, "code_fixture_b", 0, 30, 0, 18.75);
  assert_function (model, "code_fixture_c", 60, 60, 37.5, 37.5);
  MgCodeItem *c = find_function (model, "code_fixture_c");
  g_assert_true (g_str_has_prefix (mg_code_item_get_location (c), "code-fixture.c:"));
  g_assert_cmpstr (mg_code_item_get_module (c), ==, exe_name);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "160 samples"));

  /* A profile given again is named again, and says so until done. */
  mg_code_view_set_profile (view, profile);
  g_assert_true (mg_code_view_is_busy (view));
  g_assert_cmpstr (mg_code_view_get_summary (view), ==, "Naming symbols…");
  view = code_fixture_view (window);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "160 samples"));

  /* The second half selected: its windows' stacks only. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_fixture_view (window);
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
  view = code_fixture_view (window);
  assert_function (model, "code_fixture_a", 40, 40, 66.67, 66.67);
  assert_function (model, "code_fixture_c", 20, 20, 33.33, 33.33);
  assert_function (model, "code_fixture_b", 0, 20, 0, 33.33);

  /* A process without stacks says so. */
  mg_time_view_set_process (mg_window_get_time_view (window), 3);
  view = code_fixture_view (window);
  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Call Stacks");
  g_assert_cmpstr (mg_code_view_get_summary (view), ==, "");
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
  MgCodeView *view = code_fixture_view (window);
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
  MgCodeView *view = code_fixture_view (window);
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
  view = code_fixture_view (window);
  assert_spread (model, "code_fixture_a", "0.0 % (rank 0)", "50.0 %", "100.0 % (rank 1)");

  mg_time_view_clear_selection (mg_window_get_time_view (window));
  mg_time_view_set_process (mg_window_get_time_view (window), 1);
  view = code_fixture_view (window);
  g_assert_false (mg_code_view_get_spread_shown (view));
  g_assert_false (mg_code_item_get_spread (find_function (model, "code_fixture_a"), &f));
  assert_spread (model, "code_fixture_a", "", "", "");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first widget under root with css_class, or NULL. */
static GtkWidget *
find_with_class (GtkWidget *root, const char *css_class)
{
  if (gtk_widget_has_css_class (root, css_class))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_with_class (child, css_class);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A 1024 px window keeps its width on every page of the Code pane, with
 * text at 96 dpi and at 144 (large text): the header's search, count and
 * export go on a line of their own when the switches leave no room. On one
 * line the Call Tree's header asked 1053 px at 96 dpi, every page 1121 to
 * 1403 px at 144, and the window grew past a 1024 px screen. At 1600 px
 * it stays one line. */
static void
test_narrow_header (void)
{
  g_autoptr (MgProfile) profile = code_fixture_threads_profile ();
  const char *pages[] = { "functions", "tree", "flame", "source" };
  const int dpi[] = { 96, 144 };

  for (guint d = 0; d < G_N_ELEMENTS (dpi); d++)
    {
      MgWindow *window;
      MgCodeView *view;
      GtkWidget *header;

      g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", dpi[d] * 1024, NULL);
      window = mg_window_new (gui_test_app);
      gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
      mg_window_set_profile (window, profile, NULL);
      gtk_window_present (GTK_WINDOW (window));
      /* The side panel closed (an earlier test leaves it open). */
      g_action_group_change_action_state (G_ACTION_GROUP (window), "show-info",
                                          g_variant_new_boolean (FALSE));
      view = code_fixture_view (window);
      header = find_with_class (GTK_WIDGET (view), "code-header");
      g_assert_nonnull (header);
      g_assert_true (gtk_widget_get_visible (mg_code_view_get_threads (view)));
      for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
        {
          int minimum;

          mg_code_view_show_page (view, pages[i]);
          mg_test_spin (100);
          gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum,
                              NULL, NULL, NULL);
          g_test_message ("%d dpi, %s: the window needs %d px, is %d px", dpi[d], pages[i],
                          minimum, gtk_widget_get_width (GTK_WIDGET (window)));
          g_assert_cmpint (minimum, <=, 1024);
          g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
        }
      /* The Call Tree's switches leave no room at 1024 px. */
      mg_code_view_show_page (view, "tree");
      mg_test_spin (100);
      g_assert_true (mg_wrap_layout_get_wrapped (MG_WRAP_LAYOUT (gtk_widget_get_layout_manager (header))));
      if (d == 1)
        gui_test_save_screenshot (window, "code-header-large-text.png");
      gtk_window_set_default_size (GTK_WINDOW (window), 1600, 900);
      mg_test_spin (300);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), >=, 1500);
      g_assert_false (mg_wrap_layout_get_wrapped (MG_WRAP_LAYOUT (gtk_widget_get_layout_manager (header))));
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
}

/* With large text (144 dpi) and the side panel open in a 1024 px window,
 * the Call Tree's switches and the panel do not fit side by side: the panel
 * lies over the graphs instead of pushing the window to 1267 px. */
static void
test_side_panel_large_text (void)
{
  g_autoptr (MgProfile) profile = code_fixture_threads_profile ();
  MgWindow *window;
  MgCodeView *view;
  GtkWidget *revealer;
  int minimum;

  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 144 * 1024, NULL);
  window = mg_window_new (gui_test_app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 700);
  mg_window_set_profile (window, profile, NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-info",
                                      g_variant_new_boolean (TRUE));
  view = code_fixture_view (window);
  mg_code_view_show_page (view, "tree");
  revealer = gui_test_side_panel (window);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL,
                      NULL);
  g_test_message ("the window needs %d px, is %d px; the panel %d px", minimum,
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_width (revealer));
  g_assert_cmpint (minimum, <=, 1024);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
  g_assert_true (gtk_widget_has_css_class (revealer, "side-overlay"));
  gui_test_save_screenshot (window, "side-panel-large-text.png");
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-info",
                                      g_variant_new_boolean (FALSE));
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_set (gtk_settings_get_default (), "gtk-xft-dpi", 96 * 1024, NULL);
}

/* The action a table's shortcut for keyval and modifiers names, or NULL. */
static const char *
table_key_action (GtkWidget *table, guint keyval, GdkModifierType modifiers)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (table);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger)
              && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
              && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers
              && GTK_IS_NAMED_ACTION (action))
            return gtk_named_action_get_action_name (GTK_NAMED_ACTION (action));
        }
    }
  return NULL;
}

/* Tab leaves the Functions table (and the call tree) at once, Shift+Tab
 * goes back to the pane's header: GTK 4.8 gives every row of a column view
 * a Tab stop, so a keyboard user tabbed through every function shown to
 * reach anything after the table. */
static void
test_tab_leaves_table (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GtkWidget *tables[2], *focus;
  guint n_stops = 0;

  tables[0] = mg_code_view_get_functions_view (view);
  tables[1] = mg_code_view_get_tree_view (view);
  for (guint t = 0; t < 2; t++)
    {
      g_assert_cmpstr (table_key_action (tables[t], GDK_KEY_Tab, 0), ==, "code.leave-table");
      /* GTK keeps Shift+Tab's ISO_Left_Tab as Tab with Shift. */
      g_assert_cmpstr (table_key_action (tables[t], GDK_KEY_Tab, GDK_SHIFT_MASK), ==,
                       "code.leave-table-back");
    }
  mg_code_view_show_page (view, "functions");
  mg_test_spin (100);
  g_assert_cmpuint (g_list_model_get_n_items (mg_code_view_get_functions_model (view)), >=, 3);

  /* GTK's own Tab, from the first row: a stop per row. */
  g_assert_true (gtk_widget_child_focus (tables[0], GTK_DIR_TAB_FORWARD));
  while ((focus = gtk_root_get_focus (GTK_ROOT (window))) != NULL
         && gtk_widget_is_ancestor (focus, tables[0]) && n_stops < 100)
    {
      n_stops++;
      gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD);
    }
  g_test_message ("GTK's Tab stops in the Functions table: %u", n_stops);
  g_assert_cmpuint (n_stops, >=, 3);

  /* Ours: one Tab out, to the header bar's first button (the chain goes
   * round), one Shift+Tab back to the pane's header. */
  g_assert_true (gtk_widget_child_focus (tables[0], GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_activate_action (tables[0], "code.leave-table", NULL));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_false (gtk_widget_is_ancestor (focus, tables[0]));
  g_assert_true (gtk_widget_is_ancestor (focus, gtk_window_get_titlebar (GTK_WINDOW (window))));
  g_assert_true (gtk_widget_child_focus (tables[0], GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_activate_action (tables[0], "code.leave-table-back", NULL));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_false (gtk_widget_is_ancestor (focus, tables[0]));
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (view)));
  /* The table still takes the focus afterwards. */
  g_assert_true (gtk_widget_get_can_focus (tables[0]));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The thread drop-down filters every view: all threads (the same stack
 * of two threads merged), the main thread, thread 1. */
static void
test_threads (void)
{
  g_autoptr (MgProfile) profile = code_fixture_threads_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
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
  view = code_fixture_view (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_function (model, "code_fixture_a", 70, 70, 100, 100);
  mg_test_spin (200);
  gui_test_save_screenshot (window, "code-threads-light.png");
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "70 samples"));

  gtk_drop_down_set_selected (threads, 2);
  view = code_fixture_view (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_function (model, "code_fixture_b", 25, 25, 100, 100);
  /* The list stays as it was, with the choice. */
  g_assert_cmpuint (gtk_drop_down_get_selected (threads), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (threads)), ==, 4);

  /* The selection still applies: thread 1 ran in the first half only;
   * the main thread's second half is its 20. */
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_fixture_view (window);
  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Samples Here");
  gtk_drop_down_set_selected (threads, 1);
  view = code_fixture_view (window);
  assert_function (model, "code_fixture_a", 20, 20, 100, 100);
  gtk_window_destroy (GTK_WINDOW (window));

  /* A profile whose stacks name no thread: no drop-down. */
  g_autoptr (MgProfile) older = code_fixture_profile ();
  window = gui_test_new_window (older);
  view = code_fixture_view (window);
  g_assert_false (gtk_widget_get_visible (mg_code_view_get_threads (view)));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The drop-down names the threads the profile names (format 8): with
 * every process, the name they all give an ordinal (the main threads'
 * differ: "Main Thread"); with process 0, its own names; a name that is
 * not UTF-8 shown with U+FFFD; the choice kept across the relabelling. */
static void
test_thread_names (void)
{
  g_autoptr (MgProfile) profile = code_fixture_named_threads_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GtkDropDown *threads = GTK_DROP_DOWN (mg_code_view_get_threads (view));
  GListModel *model = mg_code_view_get_functions_model (view);
  const char *all[] = { "All Threads", "Main Thread", "worker-3 (thread 1)",
                        "gamma\xef\xbf\xbd (thread 2)" };
  const char *own[] = { "All Threads", "main (main thread)", "worker-3 (thread 1)",
                        "gamma\xef\xbf\xbd (thread 2)" };

  GListModel *names = gtk_drop_down_get_model (threads);
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, G_N_ELEMENTS (all));
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), i), ==, all[i]);

  gtk_drop_down_set_selected (threads, 2);
  view = code_fixture_view (window);
  assert_function (model, "code_fixture_b", 25, 25, 100, 100);
  mg_time_view_set_process (mg_window_get_time_view (window), 0);
  view = code_fixture_view (window);
  names = gtk_drop_down_get_model (threads);
  g_assert_cmpuint (g_list_model_get_n_items (names), ==, G_N_ELEMENTS (own));
  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (names), i), ==, own[i]);
  g_assert_cmpuint (gtk_drop_down_get_selected (threads), ==, 2);
  assert_function (model, "code_fixture_b", 25, 25, 100, 100);

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  mg_test_spin (200);
  gui_test_save_screenshot (window, "code-thread-names.png");
  /* The list open, for the eye: its popover is a surface of its own. */
  const char *dir = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  if (dir != NULL)
    {
      g_signal_emit_by_name (threads, "activate");
      mg_test_spin (300);
      GtkWidget *popover = gui_test_find_widget (GTK_WIDGET (threads), GTK_TYPE_POPOVER);
      g_assert_nonnull (popover);
      g_assert_true (gtk_widget_get_mapped (popover));
      g_autoptr (GdkTexture) list = gui_test_render (popover);
      g_autofree char *path = g_build_filename (dir, "code-thread-names-list.png", NULL);
      g_assert_true (gdk_texture_save_to_png (list, path));
      gtk_popover_popdown (GTK_POPOVER (popover));
    }
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
  MgCodeView *view = code_fixture_view (window);
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

/* A chain of only callees opens down to where it branches: the tree of a
 * C program showed _start, __libc_start_main_impl and a closed
 * __libc_start_call_main, main and what it called out of sight; here d,
 * main and a closed b, a and c out of sight. */
static void
test_call_tree_chain (void)
{
  g_autoptr (MgProfile) profile = code_fixture_chain_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GListModel *rows = mg_code_view_get_tree_model (view);
  const char *const names[] = { "code_fixture_d", "code_fixture_main", "code_fixture_b",
                                "code_fixture_a", "code_fixture_c" };
  const guint64 totals[] = { 100, 100, 100, 100, 75 };
  guint depth;

  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      MgCodeItem *item = tree_item (rows, i, &depth);
      g_assert_cmpstr (mg_code_item_get_name (item), ==, names[i]);
      g_assert_cmpuint (depth, ==, i);
      g_assert_cmpuint (mg_code_item_get_total (item), ==, totals[i]);
    }
  g_assert_cmpuint (mg_code_item_get_self (tree_item (rows, 3, &depth)), ==, 25);

  /* Bottom up: c, then its one chain of callers down to d, then a. */
  mg_code_view_set_bottom_up (view, TRUE);
  const char *const callers[] = { "code_fixture_c", "code_fixture_a", "code_fixture_b",
                                  "code_fixture_main", "code_fixture_d", "code_fixture_a" };
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, G_N_ELEMENTS (callers));
  for (guint i = 0; i < G_N_ELEMENTS (callers); i++)
    g_assert_cmpstr (mg_code_item_get_name (tree_item (rows, i, &depth)), ==, callers[i]);
  g_assert_cmpuint (depth, ==, 0);
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
  MgCodeView *view = code_fixture_view (window);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));

  show_flame (view);
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
on_activated (MgCodeView *view, const char *name, GPtrArray *names)
{
  g_ptr_array_add (names, g_strdup (name));
}

static void
on_notified (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* The shared contract: "selected-function" follows the row or box the
 * user picks (and, set, selects the table's row); "function-activated"
 * names the row or box activated. */
static void
test_selected_function (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  g_autoptr (GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
  guint notified = 0;
  GtkWidget *table = mg_code_view_get_functions_view (view);
  GtkSingleSelection *rows = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (table)));

  g_signal_connect (view, "function-activated", G_CALLBACK (on_activated), activated);
  g_signal_connect (view, "notify::selected-function", G_CALLBACK (on_notified), &notified);
  g_assert_null (mg_code_view_get_selected_function (view));

  /* Row 1 of the table (by total): code_fixture_a. */
  gtk_single_selection_set_selected (rows, 1);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  g_assert_cmpuint (notified, ==, 1);
  g_signal_emit_by_name (table, "activate", 0u);
  g_assert_cmpuint (activated->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (activated, 0), ==, "code_fixture_main");
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_main");

  /* Set by another view: the table follows, through a new result too. */
  g_object_set (view, "selected-function", "code_fixture_c", NULL);
  g_autoptr (MgCodeItem) c = gtk_single_selection_get_selected_item (rows)
                               ? g_object_ref (gtk_single_selection_get_selected_item (rows)) : NULL;
  g_assert_nonnull (c);
  g_assert_cmpstr (mg_code_item_get_name (c), ==, "code_fixture_c");
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_fixture_view (window);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_c");
  g_assert_cmpstr (mg_code_item_get_name (gtk_single_selection_get_selected_item (rows)), ==,
                   "code_fixture_c");
  mg_time_view_clear_selection (mg_window_get_time_view (window));
  view = code_fixture_view (window);

  /* A call tree row: its function (row 1, top down: a under main). */
  mg_code_view_show_page (view, "tree");
  GtkWidget *tree = mg_code_view_get_tree_view (view);
  gtk_single_selection_set_selected (
    GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree))), 1);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");

  /* A flame box clicked, then double-clicked: b, right of a in row 2. */
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  show_flame (view);
  int width = gtk_widget_get_width (GTK_WIDGET (flame));
  mg_flame_view_double_click (flame, width * 0.95, 2 * 20 + 10);
  g_assert_cmpuint (activated->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (activated, 1), ==, "code_fixture_b");
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_b");
  mg_flame_view_click (flame, width * 0.5, 2 * 20 + 10);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  /* "All" is no function. */
  mg_flame_view_click (flame, 10, 5);
  g_assert_null (mg_code_view_get_selected_function (view));
  g_assert_cmpuint (activated->len, ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Rows of the call tree shown now naming NAME at DEPTH. */
static guint
count_rows (GListModel *rows, const char *name, guint depth)
{
  guint found = 0, d;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      MgCodeItem *item = tree_item (rows, i, &d);
      found += d == depth && g_str_equal (mg_code_item_get_name (item), name);
    }
  return found;
}

/* The search, case-insensitive, by name, file or module: the table
 * filtered, the share of the samples found, the tree open down to the
 * functions found, their flame boxes highlighted. */
static void
test_search (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  GtkEditable *search = GTK_EDITABLE (mg_code_view_get_search_entry (view));
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe);

  g_assert_null (mg_code_view_get_matched (view));
  gtk_editable_set_text (search, "FIXTURE_C");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_function (model, "code_fixture_c", 60, 60, 37.5, 37.5);
  /* c's stacks: 30 + 10 + 20 of 160. */
  g_assert_cmpstr (mg_code_view_get_matched (view), ==, "Matched 37.5 %");

  /* Bottom up, b only as c's caller: the tree opens c to show it. */
  mg_code_view_set_bottom_up (view, TRUE);
  gtk_editable_set_text (search, "fixture_b");
  g_assert_cmpstr (mg_code_view_get_matched (view), ==, "Matched 18.8 %");
  GListModel *rows = mg_code_view_get_tree_model (view);
  g_assert_cmpuint (count_rows (rows, "code_fixture_b", 1), ==, 1);
  mg_code_view_set_bottom_up (view, FALSE);

  show_flame (view);
  g_assert_cmpuint (mg_flame_view_count_matched_boxes (flame), ==, 1);
  gtk_editable_set_text (search, "fixture_c");
  g_assert_cmpuint (mg_flame_view_count_matched_boxes (flame), ==, 2);  /* under a and b */
  gui_test_save_screenshot (window, "code-flame-search-light.png");

  /* By file and by module: all four; a new range keeps the search. */
  gtk_editable_set_text (search, "CODE-FIXTURE.C");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  gtk_editable_set_text (search, exe_name);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  gtk_editable_set_text (search, "fixture_a");
  mg_time_view_set_selection (mg_window_get_time_view (window), 0.6, 0.9);
  view = code_fixture_view (window);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_assert_cmpstr (mg_code_view_get_matched (view), ==, "Matched 80.0 %");
  gtk_editable_set_text (search, "no such thing");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_cmpstr (mg_code_view_get_matched (view), ==, "Matched 0.0 %");
  gtk_editable_set_text (search, "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_null (mg_code_view_get_matched (view));
  g_assert_cmpuint (mg_flame_view_count_matched_boxes (flame), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static char *
read_back (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* The Functions table as CSV and the flame graph as SVG, PNG and PDF,
 * read back: the selection's and process's values, the search's rows,
 * the flame graph's zoom. */
static void
test_export (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("mg-code-export-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "functions.csv", NULL);
  g_autofree char *svg = g_build_filename (dir, "flame.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "flame.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "flame.pdf", NULL);
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_name = g_path_get_basename (exe);

  g_assert_true (mg_code_view_export (view, csv, 1, &error));
  g_assert_no_error (error);
  g_autofree char *text = read_back (csv);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==,
                   "function,self_percent,total_percent,self_samples,total_samples,source,module");
  g_assert_cmpuint (g_strv_length (lines), ==, 6);  /* 4 rows and the last newline */
  g_assert_true (g_str_has_prefix (lines[1], "\"code_fixture_main\",0.000,100.000,0,160,"));
  g_assert_true (g_str_has_prefix (lines[2], "\"code_fixture_a\",62.500,81.250,100,130,"
                                             "\"code-fixture.c:"));
  g_autofree char *module = g_strdup_printf (",\"%s\"", exe_name);
  g_assert_true (g_str_has_suffix (lines[2], module));

  /* Process 1 and a search: its values, the rows found. */
  mg_time_view_set_process (mg_window_get_time_view (window), 1);
  view = code_fixture_view (window);
  gtk_editable_set_text (GTK_EDITABLE (mg_code_view_get_search_entry (view)), "fixture_c");
  g_assert_true (mg_code_view_export (view, csv, 1, &error));
  g_autofree char *found = read_back (csv);
  g_auto (GStrv) found_lines = g_strsplit (found, "\n", -1);
  g_assert_cmpuint (g_strv_length (found_lines), ==, 3);
  g_assert_true (g_str_has_prefix (found_lines[1], "\"code_fixture_c\",33.333,33.333,20,20,"));
  gtk_editable_set_text (GTK_EDITABLE (mg_code_view_get_search_entry (view)), "");

  /* The whole run zoomed to a: its callees, not b. */
  mg_time_view_set_process (mg_window_get_time_view (window), -1);
  view = code_fixture_view (window);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  show_flame (view);
  mg_flame_view_click (flame, gtk_widget_get_width (GTK_WIDGET (flame)) * 0.5, 2 * 20 + 10);
  g_assert_true (mg_code_view_export (view, svg, 1, &error));
  g_assert_no_error (error);
  g_autofree char *image = read_back (svg);
  g_assert_nonnull (strstr (image, "<title>Flame Graph</title>"));
  g_assert_nonnull (strstr (image, ">code_fixture_a</text>"));
  g_assert_nonnull (strstr (image, ">code_fixture_c</text>"));
  g_assert_null (strstr (image, "code_fixture_b"));

  g_assert_true (mg_code_view_export (view, png, 2, &error));
  cairo_surface_t *surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 2400);
  cairo_surface_destroy (surface);
  g_assert_true (mg_code_view_export (view, pdf, 1, &error));
  g_autofree char *document = read_back (pdf);
  g_assert_true (g_str_has_prefix (document, "%PDF"));

  g_autofree char *bad = g_build_filename (dir, "flame.gif", NULL);
  g_assert_false (mg_code_view_export (view, bad, 1, &error));
  g_assert_nonnull (strstr (error->message, ".csv for the functions"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (csv), g_unlink (svg), g_unlink (png), g_unlink (pdf);
  g_rmdir (dir);
}

/* The y of the SVG's <text> element NAME (the export writes names as text). */
static double
svg_text_y (const char *svg, const char *name)
{
  g_autofree char *needle = g_strdup_printf (">%s</text>", name);
  const char *at = strstr (svg, needle);

  g_assert_nonnull (at);
  const char *start = g_strrstr_len (svg, at - svg, "<text");
  g_assert_nonnull (start);
  const char *y = strstr (start, " y=\"");
  g_assert_true (y != NULL && y < at);
  return g_ascii_strtod (y + 4, NULL);
}

static void
png_rgb (cairo_surface_t *surface, int x, int y, double rgb[3])
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);

  rgb[0] = ((pixel >> 16) & 0xff) / 255.0;
  rgb[1] = ((pixel >> 8) & 0xff) / 255.0;
  rgb[2] = (pixel & 0xff) / 255.0;
}

static gboolean
rgb_near (const double a[3], const double b[3])
{
  return fabs (a[0] - b[0]) < 3 / 255.0 && fabs (a[1] - b[1]) < 3 / 255.0
         && fabs (a[2] - b[2]) < 3 / 255.0;
}

/* An exported PNG at scale 1: the colour in the middle of row ROW of the
 * flame graph at fraction X of its width. */
static void
export_pixel (MgCodeView *view, const char *png, double x, guint row, double rgb[3])
{
  g_autoptr (GError) error = NULL;

  g_assert_true (mg_code_view_export (view, png, 1, &error));
  g_assert_no_error (error);
  cairo_surface_t *surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  png_rgb (surface,
           (int) (MG_FLAME_EXPORT_MARGIN + x * (MG_FLAME_EXPORT_WIDTH - 2 * MG_FLAME_EXPORT_MARGIN)),
           (int) (MG_FLAME_EXPORT_TITLE_HEIGHT + (row + 0.5) * MG_FLAME_EXPORT_ROW_HEIGHT), rgb);
  cairo_surface_destroy (surface);
}

/* Whether the exported PNG has a pixel of colour RGB anywhere. */
static gboolean
export_has_colour (MgCodeView *view, const char *png, const double rgb[3])
{
  g_autoptr (GError) error = NULL;
  gboolean found = FALSE;

  g_assert_true (mg_code_view_export (view, png, 1, &error));
  cairo_surface_t *surface = cairo_image_surface_create_from_png (png);
  for (int y = 0; !found && y < cairo_image_surface_get_height (surface); y++)
    for (int x = 0; !found && x < cairo_image_surface_get_width (surface); x++)
      {
        double at[3];
        png_rgb (surface, x, y, at);
        found = rgb_near (at, rgb);
      }
  cairo_surface_destroy (surface);
  return found;
}

/* The flame graph exported as the view shows it, read back: an icicle's
 * rows upside down as a flame (b's name above All's in the SVG, the gap
 * of a's self time in the top row of the PNG rather than the bottom),
 * the activity colouring's computing green, the search's highlight. */
static void
test_export_as_shown (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  g_settings_reset (settings, "flame-orientation");
  g_settings_reset (settings, "flame-colour");
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GtkWidget *options = mg_code_view_get_flame_options (view);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("mg-code-export-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "flame.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "flame.png", NULL);
  const double white[3] = { 1, 1, 1 };
  double computing[3], found[3], at[3];

  show_flame (view);
  /* An icicle: All on top, b two rows under it; a's self time leaves the
   * 4th row empty in the middle. */
  g_assert_true (mg_code_view_export (view, svg, 1, &error));
  g_autofree char *icicle = read_back (svg);
  g_assert_cmpfloat (svg_text_y (icicle, "code_fixture_b") - svg_text_y (icicle, "All"), ==,
                     2 * MG_FLAME_EXPORT_ROW_HEIGHT);
  export_pixel (view, png, 0.5, 0, at);
  g_assert_false (rgb_near (at, white));
  export_pixel (view, png, 0.5, 3, at);
  g_assert_true (rgb_near (at, white));

  /* A flame: the same rows from the bottom up. */
  g_assert_true (gtk_widget_activate_action (options, "flame-options.orientation", "s", "flame"));
  g_assert_true (mg_code_view_export (view, svg, 1, &error));
  g_autofree char *flame = read_back (svg);
  g_assert_cmpfloat (svg_text_y (flame, "All") - svg_text_y (flame, "code_fixture_b"), ==,
                     2 * MG_FLAME_EXPORT_ROW_HEIGHT);
  g_assert_cmpfloat (svg_text_y (flame, "All"), >, svg_text_y (icicle, "All"));
  export_pixel (view, png, 0.5, 0, at);
  g_assert_true (rgb_near (at, white));
  export_pixel (view, png, 0.5, 3, at);
  g_assert_false (rgb_near (at, white));

  /* By activity: the fixture's stacks all computed, All in green. */
  mg_flame_activity_colour (0, computing);
  g_assert_false (rgb_near (at, computing));
  g_assert_true (gtk_widget_activate_action (options, "flame-options.colouring", "s", "activity"));
  export_pixel (view, png, 0.5, 3, at);
  g_assert_true (rgb_near (at, computing));

  /* A search's boxes in the highlight colour, none without it. */
  mg_flame_match_colour (FALSE, found);
  g_assert_false (export_has_colour (view, png, found));
  gtk_editable_set_text (GTK_EDITABLE (mg_code_view_get_search_entry (view)), "fixture_c");
  mg_test_spin (100);
  g_assert_true (export_has_colour (view, png, found));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "flame-orientation");
  g_settings_reset (settings, "flame-colour");
  g_unlink (svg), g_unlink (png);
  g_rmdir (dir);
}

static const char *
flame_selected (MgCodeView *view)
{
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  guint node = mg_flame_view_get_selected (flame);

  g_assert_cmpuint (node, !=, G_MAXUINT);
  const MgCallFunction *f = mg_call_tree_get_node (mg_code_tree_get (mg_code_view_get_tree (view)),
                                                   MG_CALL_TREE_TOP_DOWN, node, NULL, NULL);
  return f ? f->name : "All";
}

static gboolean
row_expanded (GListModel *rows, guint i)
{
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
  return gtk_tree_list_row_get_expanded (row);
}

/* The keys' actions: the call tree's rows opened and closed and walked
 * (Right, Left), the flame graph box by box (Up, Down, Left, Right),
 * zoomed in (Enter) and out (Escape); the shortcuts window lists them. */
static void
test_keyboard (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GListModel *rows = mg_code_view_get_tree_model (view);
  GtkWidget *tree = mg_code_view_get_tree_view (view);
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree)));
  g_autoptr (GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);
  guint depth;

  mg_code_view_show_page (view, "tree");
  /* main, a, c, b, c: a open, then closed, then its parent. */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  gtk_single_selection_set_selected (selection, 1);
  g_assert_true (row_expanded (rows, 1));
  g_assert_true (gtk_widget_activate_action (tree, "code.collapse-row", NULL));
  g_assert_false (row_expanded (rows, 1));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);
  gtk_widget_activate_action (tree, "code.collapse-row", NULL);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 0);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_main");
  /* main is open: Right goes to a, then opens it. */
  gtk_widget_activate_action (tree, "code.expand-row", NULL);
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, 1);
  gtk_widget_activate_action (tree, "code.expand-row", NULL);
  g_assert_true (row_expanded (rows, 1));
  g_assert_cmpstr (mg_code_item_get_name (tree_item (rows, 2, &depth)), ==, "code_fixture_c");
  g_assert_cmpuint (depth, ==, 2);

  show_flame (view);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  GtkWidget *fw = GTK_WIDGET (flame);
  g_signal_connect (view, "function-activated", G_CALLBACK (on_activated), activated);
  g_assert_true (gtk_widget_get_focusable (fw));
  g_assert_cmpuint (mg_flame_view_get_selected (flame), ==, G_MAXUINT);
  gtk_widget_activate_action (fw, "flame.down", NULL);  /* the first key: the top box */
  g_assert_cmpstr (flame_selected (view), ==, "All");
  gtk_widget_activate_action (fw, "flame.down", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_main");
  gtk_widget_activate_action (fw, "flame.down", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_a");
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  gtk_widget_activate_action (fw, "flame.next", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_b");
  gtk_widget_activate_action (fw, "flame.next", NULL);  /* the last of its row: stays */
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_b");
  gtk_widget_activate_action (fw, "flame.down", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_c");
  guint c_under_b = mg_flame_view_get_selected (flame);
  gtk_widget_activate_action (fw, "flame.previous", NULL);  /* c under a */
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_c");
  g_assert_cmpuint (mg_flame_view_get_selected (flame), !=, c_under_b);
  gtk_widget_activate_action (fw, "flame.up", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_a");
  /* Enter: zoomed to a; Enter again: a activated, the Source tab open;
   * Escape: out to main, then All. */
  gtk_widget_activate_action (fw, "flame.zoom", NULL);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, mg_flame_view_get_selected (flame));
  g_assert_cmpuint (mg_flame_view_get_boxes (flame)->len, ==, 4);
  g_assert_cmpuint (activated->len, ==, 0);
  gtk_widget_activate_action (fw, "flame.zoom", NULL);
  g_assert_cmpuint (activated->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (activated, 0), ==, "code_fixture_a");
  g_assert_cmpuint (mg_flame_view_get_boxes (flame)->len, ==, 4);
  mg_test_spin (100);
  g_assert_true (gtk_widget_get_mapped (mg_code_view_get_source_view (view)));
  g_assert_false (gtk_widget_get_mapped (fw));
  mg_code_view_show_page (view, "flame");
  mg_test_spin (100);
  gtk_widget_activate_action (fw, "flame.zoom-out", NULL);
  g_assert_cmpuint (mg_flame_view_get_boxes (flame)->len, ==, 6);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), !=, 0);
  gtk_widget_activate_action (fw, "flame.zoom-out", NULL);
  g_assert_cmpuint (mg_flame_view_get_focus (flame), ==, 0);
  gui_test_save_screenshot (window, "code-flame-keyboard-light.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Icicle or flame, remembered: the same boxes hit where each draws them
 * (b, right of a in row 2: 20 px from the top in an icicle, from the
 * bottom in a flame), Up and Down following the screen, the setting read
 * back, and a new pane opened the way it was left. */
static void
test_flame_orientation (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  g_settings_reset (settings, "flame-orientation");
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  GtkWidget *options = mg_code_view_get_flame_options (view);

  show_flame (view);
  g_assert_true (gtk_widget_get_visible (options));
  g_assert_cmpint (mg_flame_view_get_orientation (flame), ==, MG_FLAME_ICICLE);
  int width = gtk_widget_get_width (GTK_WIDGET (flame));
  int height = gtk_widget_get_height (GTK_WIDGET (flame));
  g_assert_cmpint (height, ==, 4 * 20);  /* All, main, a and b, c */
  g_autofree char *icicle_b = mg_flame_view_dup_tooltip (flame, width * 0.95, 2 * 20 + 10);
  g_assert_cmpstr (icicle_b, ==, "code_fixture_b\nTotal 18.8 % (30 samples), self 0.0 %");

  g_assert_true (gtk_widget_activate_action (options, "flame-options.orientation", "s", "flame"));
  mg_test_spin (100);
  g_assert_cmpint (mg_flame_view_get_orientation (flame), ==, MG_FLAME_FLAME);
  g_autofree char *saved = g_settings_get_string (settings, "flame-orientation");
  g_assert_cmpstr (saved, ==, "flame");
  height = gtk_widget_get_height (GTK_WIDGET (flame));
  g_autofree char *flame_b = mg_flame_view_dup_tooltip (flame, width * 0.95,
                                                        height - (2 * 20 + 10));
  g_assert_cmpstr (flame_b, ==, icicle_b);
  /* All on the bottom row (the icicle's a's-self-time gap at y 70), the
   * gap in the top row now. */
  g_autofree char *all = mg_flame_view_dup_tooltip (flame, width * 0.5, 3 * 20 + 10);
  g_assert_true (g_str_has_prefix (all, "All\n"));
  g_autofree char *none = mg_flame_view_dup_tooltip (flame, width * 0.5, 10);
  g_assert_null (none);
  /* Up goes to the callee drawn above, Down back to the caller. */
  GtkWidget *fw = GTK_WIDGET (flame);
  gtk_widget_activate_action (fw, "flame.up", NULL);  /* the first key: All */
  g_assert_cmpstr (flame_selected (view), ==, "All");
  gtk_widget_activate_action (fw, "flame.up", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_main");
  gtk_widget_activate_action (fw, "flame.up", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_a");
  gtk_widget_activate_action (fw, "flame.down", NULL);
  g_assert_cmpstr (flame_selected (view), ==, "code_fixture_main");
  /* A click zooms as in an icicle: a, from the bottom. */
  mg_flame_view_click (flame, width * 0.5, height - (2 * 20 + 10));
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  gui_test_save_screenshot (window, "code-flame-upright-light.png");
  gtk_window_destroy (GTK_WINDOW (window));

  /* A new window opens as a flame; back to an icicle, remembered too. */
  window = gui_test_new_window (profile);
  view = code_fixture_view (window);
  flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  g_assert_cmpint (mg_flame_view_get_orientation (flame), ==, MG_FLAME_FLAME);
  options = mg_code_view_get_flame_options (view);
  gtk_widget_activate_action (options, "flame-options.orientation", "s", "icicle");
  g_assert_cmpint (mg_flame_view_get_orientation (flame), ==, MG_FLAME_ICICLE);
  g_free (saved);
  saved = g_settings_get_string (settings, "flame-orientation");
  g_assert_cmpstr (saved, ==, "icicle");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* By module or by activity, remembered: the tooltip then gives the
 * computing and MPI shares (the fixture's stacks all computed), the
 * setting read back, a new window coloured as left. */
static void
test_flame_colouring (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  g_settings_reset (settings, "flame-colour");
  g_settings_reset (settings, "flame-orientation");
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  MgFlameView *flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  GtkWidget *options = mg_code_view_get_flame_options (view);

  show_flame (view);
  g_assert_cmpint (mg_flame_view_get_colouring (flame), ==, MG_FLAME_BY_MODULE);
  int width = gtk_widget_get_width (GTK_WIDGET (flame));
  g_autofree char *by_module = mg_flame_view_dup_tooltip (flame, width * 0.95, 2 * 20 + 10);
  g_assert_cmpstr (by_module, ==, "code_fixture_b\nTotal 18.8 % (30 samples), self 0.0 %");

  g_assert_true (gtk_widget_activate_action (options, "flame-options.colouring", "s", "activity"));
  g_assert_cmpint (mg_flame_view_get_colouring (flame), ==, MG_FLAME_BY_ACTIVITY);
  g_autofree char *saved = g_settings_get_string (settings, "flame-colour");
  g_assert_cmpstr (saved, ==, "activity");
  g_autofree char *by_activity = mg_flame_view_dup_tooltip (flame, width * 0.95, 2 * 20 + 10);
  g_assert_cmpstr (by_activity, ==,
                   "code_fixture_b\nTotal 18.8 % (30 samples), self 0.0 %\n"
                   "Computing 100.0 %, waiting in MPI 0.0 %");
  gui_test_save_screenshot (window, "code-flame-activity-light.png");
  gtk_window_destroy (GTK_WINDOW (window));

  window = gui_test_new_window (profile);
  view = code_fixture_view (window);
  flame = MG_FLAME_VIEW (mg_code_view_get_flame_view (view));
  g_assert_cmpint (mg_flame_view_get_colouring (flame), ==, MG_FLAME_BY_ACTIVITY);
  gtk_widget_activate_action (mg_code_view_get_flame_options (view), "flame-options.colouring",
                              "s", "module");
  g_assert_cmpint (mg_flame_view_get_colouring (flame), ==, MG_FLAME_BY_MODULE);
  g_free (saved);
  saved = g_settings_get_string (settings, "flame-colour");
  g_assert_cmpstr (saved, ==, "module");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
wait_idle (MgCodeView *view)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (mg_code_view_is_busy (view) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_code_view_is_busy (view));
}

/* A live run's profiles one after another: the first named (as a new
 * profile), each next one's views computed while the last one's still
 * show, its stacks shown. */
static void
test_live_profiles (void)
{
  g_autoptr (MgTimeView) time_view = mg_time_view_new (1.0);
  MgCodeView *view = MG_CODE_VIEW (g_object_ref_sink (mg_code_view_new (time_view)));
  GListModel *model = mg_code_view_get_functions_model (view);
  g_autoptr (MgProfile) none = gui_fixture_single ();
  g_autoptr (MgProfile) stacks = code_fixture_profile ();
  g_autoptr (MgProfile) again = code_fixture_profile ();

  mg_code_view_set_live_profile (view, none);
  g_assert_cmpstr (mg_code_view_get_summary (view), ==, "Naming symbols…");
  wait_idle (view);
  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Call Stacks");
  mg_code_view_set_live_profile (view, stacks);
  wait_idle (view);
  g_assert_null (mg_code_view_get_empty_title (view));
  assert_function (model, "code_fixture_a", 100, 130, 62.5, 81.25);
  /* The next profile: the table stays until its own result. */
  mg_code_view_set_live_profile (view, again);
  g_assert_true (mg_code_view_is_busy (view));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_nonnull (strstr (mg_code_view_get_summary (view), "160 samples"));
  wait_idle (view);
  assert_function (model, "code_fixture_c", 60, 60, 37.5, 37.5);
  g_object_unref (view);
}

static void
test_no_stacks (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);

  g_assert_cmpstr (mg_code_view_get_empty_title (view), ==, "No Call Stacks");
  g_assert_cmpuint (g_list_model_get_n_items (mg_code_view_get_functions_model (view)), ==, 0);
  /* Only that there are none, and why: no "0 samples" beside it. */
  g_assert_cmpstr (mg_code_view_get_summary (view), ==, "");
  g_assert_null (find_label_prefixed (GTK_WIDGET (view), "0 samples"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Equal shares in the Functions table as in the report's lists, by one
 * rule (mg-function-order.h): callers first, then by name. On main→b→c
 * ×40, main→a→c ×40 the table read c, main, b, a (self, then the
 * namer's order) where the report read main, c, a, b. */
static void
test_ties_as_report (void)
{
  g_autoptr (MgProfile) profile = code_fixture_ties_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GListModel *model = mg_code_view_get_functions_model (view);
  const char *const order[] = { "code_fixture_main", "code_fixture_c", "code_fixture_a",
                                "code_fixture_b" };
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  g_autoptr (MgReport) report = mg_report_new_named (profile, NULL, NULL, &namer);
  const MgReportSection *total = NULL;

  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *section = g_ptr_array_index (report->sections, i);
      if (g_str_equal (section->heading, "Where the time went: total"))
        total = section;
    }
  g_assert_nonnull (total);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, G_N_ELEMENTS (order));
  g_assert_cmpuint (total->lines->len, ==, G_N_ELEMENTS (order));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (model, i);
      const MgReportLine *line = g_ptr_array_index (total->lines, i);
      g_autofree char *prefix = g_strconcat (order[i], " (", NULL);
      g_test_message ("%u: table %s, report %s", i, mg_code_item_get_name (item), line->name);
      g_assert_cmpstr (mg_code_item_get_name (item), ==, order[i]);
      g_assert_true (g_str_has_prefix (line->name, prefix));
    }
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
  code_fixture_view (window);
  gui_test_save_screenshot (window, "code-functions-light.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  mg_code_view_set_bottom_up (code_fixture_view (window), FALSE);
  mg_code_view_show_page (code_fixture_view (window), "tree");
  gui_test_save_screenshot (window, "code-tree-dark.png");
  mg_code_view_show_page (code_fixture_view (window), "flame");
  gui_test_save_screenshot (window, "code-flame-dark.png");
  /* As a flame coloured by activity, then back to the defaults. */
  GtkWidget *options = mg_code_view_get_flame_options (code_fixture_view (window));
  gtk_widget_activate_action (options, "flame-options.orientation", "s", "flame");
  gtk_widget_activate_action (options, "flame-options.colouring", "s", "activity");
  gui_test_save_screenshot (window, "code-flame-activity-dark.png");
  gtk_widget_activate_action (options, "flame-options.orientation", "s", "icicle");
  gtk_widget_activate_action (options, "flame-options.colouring", "s", "module");
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
      mg_code_view_show_page (code_fixture_view (window), pages[i]);
      gui_test_save_screenshot (window, name);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/code-view/functions", test_functions);
  g_test_add_func ("/code-view/summary-keeps-count", test_summary_keeps_count);
  g_test_add_func ("/code-view/stored-names", test_stored_names);
  g_test_add_func ("/code-view/threads", test_threads);
  g_test_add_func ("/code-view/thread-names", test_thread_names);
  g_test_add_func ("/code-view/call-tree", test_call_tree);
  g_test_add_func ("/code-view/call-tree-chain", test_call_tree_chain);
  g_test_add_func ("/code-view/flame-graph", test_flame_graph);
  g_test_add_func ("/code-view/selected-function", test_selected_function);
  g_test_add_func ("/code-view/search", test_search);
  g_test_add_func ("/code-view/export", test_export);
  g_test_add_func ("/code-view/export-as-shown", test_export_as_shown);
  g_test_add_func ("/code-view/keyboard", test_keyboard);
  g_test_add_func ("/code-view/flame-orientation", test_flame_orientation);
  g_test_add_func ("/code-view/flame-colouring", test_flame_colouring);
  g_test_add_func ("/code-view/live-profiles", test_live_profiles);
  g_test_add_func ("/code-view/no-stacks", test_no_stacks);
  g_test_add_func ("/code-view/ties-as-report", test_ties_as_report);
  g_test_add_func ("/code-view/across-processes", test_across_processes);
  g_test_add_func ("/code-view/screenshots", test_screenshots);
  g_test_add_func ("/code-view/narrow-header", test_narrow_header);
  g_test_add_func ("/code-view/tab-leaves-table", test_tab_leaves_table);
  g_test_add_func ("/code-view/side-panel-large-text", test_side_panel_large_text);
  if (g_getenv ("MG_CODE_VIEW_PROFILE") != NULL)
    g_test_add_func ("/code-view/real-profile", test_real_profile);
  return gui_test_run ();
}
