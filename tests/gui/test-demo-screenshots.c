/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The documentation's screenshots of a real run (docs/demo-lulesh.md): with
 * MG_GUI_DEMO_PROFILE naming a profile, the window at 1600 × 1000 with the
 * middle half of the run selected, its Code pane on each page (Functions,
 * Call Tree, Flame Graph, Source on MG_GUI_DEMO_SOURCE or the busiest
 * function) light, the Source and Flame Graph dark, saved under
 * MG_GUI_SCREENSHOT_DIR as MG_GUI_DEMO_NAME-<page>-<theme>.png. It checks
 * what the pictures are meant to show: the pane follows the selection (its
 * summary names the selected range), the busiest function of the selection
 * is MG_GUI_DEMO_FUNCTION when set and heads the table sorted by Self, an
 * MPI run opens with its activity row first, and the Source tab shows the
 * function's line. Skipped without MG_GUI_DEMO_PROFILE. */
#include "mg-config.h"

#include <string.h>

#include "gui-test-util.h"
#include "gui/mg-code-item.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-source-view-private.h"
#include "gui/mg-window-private.h"

static MgCodeView *
demo_fixture_code_view (MgWindow *window)
{
  GtkWidget *view = mg_window_get_code_view (window);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  g_assert_true (MG_IS_CODE_VIEW (view));
  mg_test_spin (20);
  while (mg_code_view_is_busy (MG_CODE_VIEW (view)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_code_view_is_busy (MG_CODE_VIEW (view)));
  return MG_CODE_VIEW (view);
}

/* The function with the most self samples in the table, and their count. */
static char *
demo_fixture_busiest (GListModel *functions, guint64 *self_samples)
{
  guint64 best = 0;
  char *name = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (functions); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (functions, i);

      if (mg_code_item_get_self (item) > best)
        {
          best = mg_code_item_get_self (item);
          g_free (name);
          name = g_strdup (mg_code_item_get_name (item));
        }
    }
  *self_samples = best;
  return name;
}

/* Sized before it is shown: a window already mapped keeps its size
 * without a window manager. */
static MgWindow *
demo_fixture_window (MgProfile *profile)
{
  MgWindow *window = mg_window_new (gui_test_app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  mg_window_set_profile (window, profile, NULL);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (100);
  return window;
}

/* The Functions table sorted by its Self column, largest first: the
 * functions the time was spent in, rather than main and its callers. */
static void
demo_fixture_sort_by_self (MgCodeView *code)
{
  GtkColumnView *table = GTK_COLUMN_VIEW (mg_code_view_get_functions_view (code));
  GListModel *columns = gtk_column_view_get_columns (table);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), "Self") == 0)
        {
          gtk_column_view_sort_by_column (table, column, GTK_SORT_DESCENDING);
          /* The view keeps its rows in place as they move: back to the top. */
          mg_test_spin (100);
          gtk_adjustment_set_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (table)), 0);
          return;
        }
    }
  g_error ("the Functions table has no Self column");
}

/* Opens the call tree along its busy paths: every row with at least a
 * tenth of the samples, so the picture reaches the program's own
 * functions under _start and main. */
static guint
demo_fixture_expand_tree (MgCodeView *code)
{
  GListModel *rows = mg_code_view_get_tree_model (code);
  guint expanded = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (MgCodeItem) item = gtk_tree_list_row_get_item (row);

      if (!gtk_tree_list_row_get_expanded (row) && gtk_tree_list_row_is_expandable (row)
          && mg_code_item_get_total_share (item) >= 10.0)
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          expanded++;
        }
    }
  return expanded;
}

/* Double-clicks NAME's row of the Functions table, which shows its source
 * in the Source tab; waits for the text and checks it is shown. */
static void
demo_fixture_show_source (MgWindow *window, MgCodeView *code, const char *name)
{
  GtkWidget *table = mg_code_view_get_functions_view (code);
  GListModel *functions = mg_code_view_get_functions_model (code);
  MgSourceView *source;
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint row = G_MAXUINT;

  for (guint i = 0; i < g_list_model_get_n_items (functions) && row == G_MAXUINT; i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (functions, i);

      if (g_str_equal (mg_code_item_get_name (item), name))
        row = i;
    }
  if (row == G_MAXUINT)
    g_error ("no function %s in the Functions table", name);
  g_signal_emit_by_name (table, "activate", row);
  demo_fixture_code_view (window);
  source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code));
  mg_test_spin (20);
  while (mg_source_view_is_busy (source) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_source_view_is_busy (source));
  g_assert_cmpstr (mg_code_view_get_selected_function (code), ==, name);
  g_assert_null (mg_source_view_get_empty_title (source));
  g_assert_cmpuint (mg_source_view_get_line (source), >, 0);
  /* Scrolled to the function's line once laid out (a long file is laid
   * out over seconds on a loaded machine). */
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((mg_source_view_is_scrolling (source)
          || !mg_source_view_line_is_visible (source, mg_source_view_get_line (source)))
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (mg_source_view_is_scrolling (source));
  g_assert_true (mg_source_view_line_is_visible (source, mg_source_view_get_line (source)));
  g_test_message ("Source tab: %s, line %u", mg_source_view_get_found_at (source),
                  mg_source_view_get_line (source));
}

static void
demo_fixture_save (MgWindow *window, const char *page, gboolean dark)
{
  const char *stem = g_getenv ("MG_GUI_DEMO_NAME");
  g_autofree char *name = g_strdup_printf ("%s-%s-%s.png", stem != NULL ? stem : "demo", page,
                                           dark ? "dark" : "light");

  gui_test_save_screenshot (window, name);
}

static void
test_demo_profile (void)
{
  const char *path = g_getenv ("MG_GUI_DEMO_PROFILE");
  const char *expected = g_getenv ("MG_GUI_DEMO_FUNCTION");
  const char *source_function = g_getenv ("MG_GUI_DEMO_SOURCE");
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *busiest = NULL;
  g_auto (GStrv) titles = NULL;
  MgWindow *window;
  MgTimeView *time_view;
  MgCodeView *code;
  double duration;
  guint64 most = 0;
  static const char *const pages[] = { "functions", "tree", "flame" };

  if (path == NULL)
    {
      g_test_skip ("MG_GUI_DEMO_PROFILE is not set");
      return;
    }
  profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  window = demo_fixture_window (profile);
  gui_test_wait_loaded (window);
  mg_test_spin (200);

  /* An MPI run opens with its activity first. */
  titles = mg_window_get_visible_group_titles (window);
  g_assert_nonnull (titles[0]);
  if (mg_profile_get_n_processes (profile) > 1)
    g_assert_nonnull (strstr (titles[0], "activity"));

  time_view = mg_window_get_time_view (window);
  duration = mg_time_view_get_duration (time_view);
  g_assert_cmpfloat (duration, >, 0.0);
  mg_time_view_set_selection (time_view, duration * 0.25, duration * 0.75);
  code = demo_fixture_code_view (window);
  g_assert_null (mg_code_view_get_empty_title (code));
  g_assert_cmpuint (g_list_model_get_n_items (mg_code_view_get_functions_model (code)), >, 0);
  demo_fixture_sort_by_self (code);
  busiest = demo_fixture_busiest (mg_code_view_get_functions_model (code), &most);
  g_test_message ("busiest function of the selection: %s", busiest);
  if (expected != NULL)
    g_assert_cmpstr (busiest, ==, expected);
  /* Sorted by Self, the busiest function heads the table. */
  {
    g_autoptr (MgCodeItem) first = g_list_model_get_item (mg_code_view_get_functions_model (code), 0);

    g_assert_cmpuint (most, >, 0);
    g_assert_cmpuint (mg_code_item_get_self (first), ==, most);
  }
  g_test_message ("Code pane: %s", mg_code_view_get_summary (code));
  g_assert_nonnull (strstr (mg_code_view_get_summary (code), "Figures of the selection"));

  mg_code_view_set_bottom_up (code, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      mg_code_view_show_page (code, pages[i]);
      demo_fixture_code_view (window);
      if (g_str_equal (pages[i], "tree"))
        g_assert_cmpuint (demo_fixture_expand_tree (code), >, 0);
      demo_fixture_save (window, pages[i], FALSE);
    }
  /* The Source tab on the function MG_GUI_DEMO_SOURCE, else the busiest. */
  mg_code_view_show_page (code, "functions");
  demo_fixture_show_source (window, code, source_function != NULL ? source_function : busiest);
  demo_fixture_save (window, "source", FALSE);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  /* Restyled and drawn once in the dark theme before it is rendered. */
  mg_test_spin (300);
  demo_fixture_save (window, "source", TRUE);
  mg_code_view_show_page (code, "flame");
  demo_fixture_save (window, "flame", TRUE);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (20);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/demo-screenshots/profile", test_demo_profile);
  return gui_test_run ();
}
