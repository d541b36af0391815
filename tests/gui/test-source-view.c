/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane's Source view (issue 30) under Xvfb, on the profile of
 * known stacks in this program's own functions (code-fixture.h): a row
 * activated in Functions opens code-fixture.c at the function's line,
 * with each line's Self and Total and the sparklines' bins read back,
 * following the process and the selection; a file that cannot be read
 * gives the empty state naming it; a source folder maps the recorded
 * path's tail and is remembered; screenshots at 1600 × 1000, light and
 * dark. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <gtk/gtk.h>

#include "code-fixture.h"
#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-code-item.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-flame-view.h"
#include "gui/mg-source-view-private.h"
#include "gui/mg-window-private.h"
#include "symbols/mg-symbolizer.h"
#include "profile/mg-profile-code.h"


static MgSourceView *
source_view (MgWindow *window)
{
  MgSourceView *source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code_fixture_view (window)));
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (mg_source_view_is_busy (source) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_source_view_is_busy (source));
  /* Laid out and scrolled. */
  mg_test_spin (100);
  return source;
}

/* The row of NAME in the Functions table as shown. */
static guint
row_of (MgCodeView *view, const char *name)
{
  GListModel *model = mg_code_view_get_functions_model (view);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (MgCodeItem) item = g_list_model_get_item (model, i);
      if (g_str_equal (mg_code_item_get_name (item), name))
        return i;
    }
  g_error ("no function %s in the table", name);
}

/* The line the Functions table's Source column names for NAME
 * ("code-fixture.c:NN"): what the symboliser says, independently of the
 * Source view. */
static guint
line_of (MgCodeView *view, const char *name)
{
  g_autoptr (MgCodeItem) item =
    g_list_model_get_item (mg_code_view_get_functions_model (view), row_of (view, name));
  const char *location = mg_code_item_get_location (item);
  const char *colon = strrchr (location, ':');
  g_assert_nonnull (colon);
  return (guint) g_ascii_strtoull (colon + 1, NULL, 10);
}

/* Double-click on NAME's row of the Functions table. */
static void
activate_function (MgWindow *window, const char *name)
{
  MgCodeView *view = code_fixture_view (window);
  GtkWidget *table = gui_test_find_widget (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW);

  g_signal_emit_by_name (table, "activate", row_of (view, name));
}

/* The line (1 for the first) where TEXT has NEEDLE at a line's start. */
static guint
line_starting (const char *text, const char *needle)
{
  guint line = 1;
  for (const char *p = text; *p; p++)
    {
      if ((p == text || p[-1] == '\n') && g_str_has_prefix (p, needle))
        return line;
      if (*p == '\n')
        line++;
    }
  g_error ("no line starts with %s", needle);
}

static const char *
fixture_source (void)
{
  return MG_SOURCE_ROOT "/tests/gui/code-fixture.c";
}

/* Whether LINE shows, 300 ms on end, within 10 s: the scroll is
 * animated over frames, the layout done in steps. */
#if defined(__SANITIZE_ADDRESS__)
#define SOURCE_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOURCE_TEST_SANITIZED 1
#endif
#endif

/* Under AddressSanitizer with whole stacks (asan-whole-stacks.c) a text
 * view's layout takes tens of seconds: where the text lies on screen is
 * checked in the normal build only; what is shown and its figures in
 * both. */
#ifdef SOURCE_TEST_SANITIZED
static const gboolean layout_checked = FALSE;
#else
static const gboolean layout_checked = TRUE;
#endif

static gboolean
shows_line (MgSourceView *source, guint line)
{
  if (!layout_checked)
    return TRUE;
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gint64 since = 0;

  while (g_get_monotonic_time () < deadline)
    {
      gint64 now = g_get_monotonic_time ();
      if (!mg_source_view_line_is_visible (source, line))
        since = 0;
      else if (since == 0)
        since = now;
      else if (now - since > 300 * 1000)
        return TRUE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  return FALSE;
}

/* The gutter's tooltip at line, once the gutter is laid out where the
 * text is (a sanitizer build lags a few frames behind the scroll). */
static char *
gutter_tooltip (MgSourceView *source, guint line)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  char *tip = mg_source_view_dup_gutter_tooltip (source, line);

  while (tip == NULL && g_get_monotonic_time () < deadline)
    {
      mg_test_spin (50);
      tip = mg_source_view_dup_gutter_tooltip (source, line);
    }
  return tip;
}

static void
check_line (MgSourceView *source, guint line, guint64 self, guint64 total)
{
  const MgLineFigure *f = mg_line_figures_lookup (mg_source_view_get_figures (source), line);
  g_assert_nonnull (f);
  g_assert_cmpuint (f->self, ==, self);
  g_assert_cmpuint (f->total, ==, total);
}

static void
test_function_source (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgTimeView *time_view = mg_window_get_time_view (window);
  g_autofree char *expected = NULL;

  g_assert_true (g_file_get_contents (fixture_source (), &expected, NULL, NULL));
  /* Nothing selected yet. */
  MgSourceView *source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_empty_title (source), ==, "No Function Selected");

  activate_function (window, "code_fixture_a");
  g_assert_cmpstr (mg_code_view_get_selected_function (code_fixture_view (window)), ==, "code_fixture_a");
  source = source_view (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (source)));
  g_assert_null (mg_source_view_get_empty_title (source));
  g_autofree char *text = mg_source_view_dup_text (source);
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpstr (mg_source_view_get_found_at (source), ==, fixture_source ());
  g_assert_cmpstr (mg_source_view_get_scheme (source), ==, "Adwaita");

  /* Scrolled to the function's line, which is in its definition. */
  guint a = line_of (code_fixture_view (window), "code_fixture_a");
  guint a_def = line_starting (text, "code_fixture_a (int x)\n");
  g_assert_cmpuint (a, >=, a_def);
  g_assert_cmpuint (a, <=, a_def + 2);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, a);
  g_assert_true (shows_line (source, a));
  g_assert_true (!layout_checked || !mg_source_view_line_is_visible (source, 1));

  /* Per line, of 160 samples: a's 100 self, 130 total; c's 60; b's 30
   * total; main's 160. */
  const MgLineFigures *figures = mg_source_view_get_figures (source);
  g_assert_true (mg_source_view_has_index (source));
  guint b = line_of (code_fixture_view (window), "code_fixture_b");
  guint c = line_of (code_fixture_view (window), "code_fixture_c");
  guint m = line_of (code_fixture_view (window), "code_fixture_main");
  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 160);
  g_assert_cmpuint (mg_line_figures_get_n_lines (figures), ==, 4);
  check_line (source, a, 100, 130);
  check_line (source, b, 0, 30);
  check_line (source, c, 60, 60);
  check_line (source, m, 0, 160);
  g_autofree char *described = mg_source_view_describe_line (source, a);
  g_assert_cmpstr (described, ==, "Self 62.5 %, Total 81.2 %");
  g_assert_null (mg_source_view_describe_line (source, 1));
  /* The tooltip over the gutter at a's row, and over a line without
   * samples (visible: 2 lines above a's). */
  g_autofree char *tip = gutter_tooltip (source, a);
  if (layout_checked)
    g_assert_cmpstr (tip, ==, "Self 62.5 %, Total 81.2 %\nThe bars: the line's share of the "
                              "samples over the range, from its start to its end");
  g_autofree char *no_tip = mg_source_view_dup_gutter_tooltip (source, a - 2);
  g_assert_null (no_tip);
  /* The cursor's line described for screen readers, following it. */
  GtkWidget *text_view = gui_test_find_widget (GTK_WIDGET (source), GTK_TYPE_TEXT_VIEW);
  g_autofree char *a_description = g_strdup_printf ("Line %u: Self 62.5 %%, Total 81.2 %%", a);
  char *error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (text_view),
                                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                   a_description);
  g_assert_null (error);
  GtkTextIter iter;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) a - 2);
  gtk_text_buffer_place_cursor (buffer, &iter);
  g_autofree char *above_description = g_strdup_printf ("Line %u: no samples", a - 1);
  error = gtk_test_accessible_check_property (GTK_ACCESSIBLE (text_view),
                                              GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                              above_description);
  g_assert_null (error);
  /* Back where it was. */
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) a - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
  g_assert_true (mg_source_view_line_is_hot (source, a));
  g_assert_false (mg_source_view_line_is_hot (source, 1));
  /* The run's 1 s in 28 bins: the first window (0, 0.5] in bin 7, the
   * second in bin 21; a had 90 of 110 samples then, 40 of 50. */
  const MgLineFigure *fa = mg_line_figures_lookup (figures, a);
  const guint64 *totals = mg_line_figures_get_bin_totals (figures);
  g_assert_cmpuint (mg_line_figures_get_n_bins (figures), ==, 28);
  g_assert_cmpuint (fa->bins[7], ==, 90);
  g_assert_cmpuint (fa->bins[21], ==, 40);
  g_assert_cmpuint (totals[7], ==, 110);
  g_assert_cmpuint (totals[21], ==, 50);

  /* Process 1 alone: a 40 of its 60, all in the second half. */
  mg_time_view_set_process (time_view, 1);
  source = source_view (window);
  figures = mg_source_view_get_figures (source);
  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 60);
  check_line (source, a, 40, 40);
  check_line (source, c, 20, 20);
  fa = mg_line_figures_lookup (figures, a);
  g_assert_cmpuint (fa->bins[7], ==, 0);
  g_assert_cmpuint (fa->bins[21], ==, 40);
  /* The text and the place stay. */
  g_assert_cmpuint (mg_source_view_get_line (source), ==, a);

  /* All processes, the second half selected: 50 samples, the bins cut
   * (0.6, 0.9]; the window (0.5, 1]'s middle in bin 14. */
  mg_time_view_set_process (time_view, -1);
  mg_time_view_set_selection (time_view, 0.6, 0.9);
  source = source_view (window);
  figures = mg_source_view_get_figures (source);
  g_assert_cmpuint (mg_line_figures_get_total (figures), ==, 50);
  check_line (source, a, 40, 40);
  check_line (source, c, 10, 10);
  g_assert_cmpuint (mg_line_figures_lookup (figures, a)->bins[14], ==, 40);

  /* Another function of the file: scrolled to it. */
  activate_function (window, "code_fixture_c");
  source = source_view (window);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, c);
  g_assert_true (shows_line (source, c));
  /* Five computations, each address named once: a, b, c and main one
   * byte in (leaves there, return addresses two in, named one earlier). */
  g_assert_cmpuint (mg_source_view_get_n_named (source), ==, 4);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Nth GtkColumnView under ROOT, depth first (0: Functions, 1: Call
 * Tree), or NULL. */
static GtkWidget *
nth_column_view (GtkWidget *root, guint *n)
{
  if (GTK_IS_COLUMN_VIEW (root) && (*n)-- == 0)
    return root;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = nth_column_view (c, n);
      if (found)
        return found;
    }
  return NULL;
}

/* A frame of our MPI wrapper (code_fixture_mpi_profile) is shown as the
 * MPI function in its MPI library: no location, the library's module;
 * double-clicked, the Source tab says it is a function of the MPI
 * library, and never shows the wrapper's source. */
static void
test_mpi_frame (void)
{
  g_autoptr (MgProfile) profile = code_fixture_mpi_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  g_autoptr (MgCodeItem) item =
    g_list_model_get_item (mg_code_view_get_functions_model (view), row_of (view, "MPI_Barrier"));

  g_assert_cmpstr (mg_code_item_get_location (item), ==, "");
  g_assert_cmpstr (mg_code_item_get_module (item), ==, "libmpi-frame-fixture.so");
  g_assert_cmpuint (mg_code_item_get_self (item), ==, 30);
  activate_function (window, "MPI_Barrier");
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "MPI_Barrier");
  MgSourceView *source = source_view (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (source)));
  g_assert_cmpstr (mg_source_view_get_empty_title (source), ==, "Function of the MPI Library");
  g_assert_nonnull (strstr (mg_source_view_get_empty_detail (source),
                            "“MPI_Barrier” is a function of the MPI library"));
  g_autofree char *text = mg_source_view_dup_text (source);
  g_assert_true (text == NULL || strstr (text, "MPI_Barrier") == NULL);

  /* The program's own function still opens its source. */
  activate_function (window, "code_fixture_a");
  source = source_view (window);
  g_assert_null (mg_source_view_get_empty_title (source));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A function's line is its hottest in the selection, not its first
 * address's: code_fixture_two's first call of d (50 of 85 samples, named
 * after the second call) in the Source column and the Source tab's line;
 * the first half selected, where the second call holds 30 of 40, moves
 * the column, and the row activated again the Source tab. */
static void
test_hot_line (void)
{
  g_autoptr (MgProfile) profile = code_fixture_two_lines_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (fixture_source (), &text, NULL, NULL));
  guint first = line_starting (text, "  sink = code_fixture_d (x);\n");
  guint second = line_starting (text, "  sink = code_fixture_d (x + 1);\n");
  g_assert_cmpuint (line_of (view, "code_fixture_two"), ==, first);
  activate_function (window, "code_fixture_two");
  MgSourceView *source = source_view (window);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, first);
  g_assert_true (shows_line (source, first));
  check_line (source, first, 0, 50);
  check_line (source, second, 0, 35);

  mg_time_view_set_selection (mg_window_get_time_view (window), 0.1, 0.4);
  view = code_fixture_view (window);
  g_assert_cmpuint (line_of (view, "code_fixture_two"), ==, second);
  /* The open Source tab keeps the reader's place until asked. */
  source = source_view (window);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, first);
  activate_function (window, "code_fixture_two");
  source = source_view (window);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, second);
  g_assert_true (shows_line (source, second));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A row of the Call Tree selected, then activated (Enter or a
 * double-click): its function selected, then its source opened. */
static void
test_tree_activate (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  guint n = 1;
  GtkWidget *tree = nth_column_view (GTK_WIDGET (view), &n);
  GListModel *rows = mg_code_view_get_tree_model (view);

  mg_code_view_show_page (view, "tree");
  g_assert_nonnull (tree);
  g_assert_true (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree)) != NULL);
  /* Top down: main, then a (its first child, the larger), open. */
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, 1);
  g_autoptr (MgCodeItem) item = gtk_tree_list_row_get_item (row);
  g_assert_cmpstr (mg_code_item_get_name (item), ==, "code_fixture_a");
  gtk_selection_model_select_item (gtk_column_view_get_model (GTK_COLUMN_VIEW (tree)), 1, TRUE);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  g_assert_false (gtk_widget_get_mapped (mg_code_view_get_source_view (view)));

  g_signal_emit_by_name (tree, "activate", 0u);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_main");
  MgSourceView *source = source_view (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (source)));
  guint m = line_of (view, "code_fixture_main");
  g_assert_cmpuint (mg_source_view_get_line (source), ==, m);
  check_line (source, m, 0, 160);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A button pressed on the flame graph at (X, Y), the N_PRESS'th of a
 * series: told to its one click gesture (the flame view's: the first
 * press zooms and selects, the second activates the box). */
static void
flame_press (GtkWidget *flame, int n_press, double x, double y)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (flame);
  guint n_clicks = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_CLICK (c))
        {
          g_signal_emit_by_name (c, "pressed", n_press, x, y);
          n_clicks++;
        }
    }
  g_assert_cmpuint (n_clicks, ==, 1);
}

/* A box of the flame graph clicked selects its function; double-clicked
 * it opens the Source tab at it. */
static void
test_flame_double_click (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgCodeView *view = code_fixture_view (window);
  GtkWidget *flame = mg_code_view_get_flame_view (view);

  mg_code_view_show_page (view, "flame");
  mg_test_spin (200);
  int width = gtk_widget_get_width (flame);
  /* Row 2 in the middle: a (main's first 81.25 %); the press zooms and
   * selects. */
  flame_press (flame, 1, width * 0.5, 2 * 20 + 10);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_a");
  MgSourceView *source = MG_SOURCE_VIEW (mg_code_view_get_source_view (view));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (source)));

  /* Row 3 under a, now full width: c, its first 30 of 130; a
   * double-click opens it. */
  flame_press (flame, 1, width * 0.1, 3 * 20 + 10);
  flame_press (flame, 2, width * 0.1, 3 * 20 + 10);
  g_assert_cmpstr (mg_code_view_get_selected_function (view), ==, "code_fixture_c");
  source = source_view (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (source)));
  guint c = line_of (view, "code_fixture_c");
  g_assert_cmpuint (mg_source_view_get_line (source), ==, c);
  check_line (source, c, 60, 60);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GBytes *
lookup_nothing (const char *path, gpointer user_data, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no file %s here", path);
  return NULL;
}

/* A lookup of stored texts: the fixture's text with a mark at its end,
 * for the recorded path only. */
static GBytes *
lookup_stored (const char *path, gpointer user_data, GError **error)
{
  const char *stored = user_data;

  if (g_strcmp0 (path, fixture_source ()) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "not stored");
      return NULL;
    }
  return g_bytes_new (stored, strlen (stored));
}

static guint lookups_freed;

static void
count_destroy (gpointer data)
{
  lookups_freed++;
}

/* The text through the view's lookup (the profile's stored sources once
 * wired) comes before the disk; the lookup's data is freed once replaced. */
static void
test_lookup (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autofree char *original = NULL;
  MgWindow *window = gui_test_new_window (profile);
  MgSourceView *source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code_fixture_view (window)));

  g_assert_true (g_file_get_contents (fixture_source (), &original, NULL, NULL));
  g_autofree char *stored = g_strconcat (original, "/* stored in the profile */\n", NULL);
  lookups_freed = 0;
  mg_source_view_set_lookup (source, lookup_stored, stored, count_destroy);
  activate_function (window, "code_fixture_b");
  source = source_view (window);
  g_autofree char *text = mg_source_view_dup_text (source);
  g_assert_cmpstr (text, ==, stored);
  g_assert_cmpstr (mg_source_view_get_found_at (source), ==, fixture_source ());
  check_line (source, line_of (code_fixture_view (window), "code_fixture_b"), 0, 30);
  g_assert_cmpuint (lookups_freed, ==, 0);

  /* Back to the disk: read again, the stored text's data freed. */
  mg_source_view_set_lookup (source, NULL, NULL, NULL);
  source = source_view (window);
  g_assert_cmpuint (lookups_freed, ==, 1);
  g_autofree char *disk = mg_source_view_dup_text (source);
  g_assert_cmpstr (disk, ==, original);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Once GTK has laid out the whole text (its height unchanged for
 * 500 ms, within 20 s): before, the lines not yet laid out have no
 * height, so a line far down seems to show at the top. */
static void
wait_laid_out (MgSourceView *source)
{
  GtkWidget *text = gui_test_find_widget (GTK_WIDGET (source), GTK_TYPE_TEXT_VIEW);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (text));
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gint64 since = g_get_monotonic_time ();
  double upper = gtk_adjustment_get_upper (adjustment);

  while (g_get_monotonic_time () < deadline && g_get_monotonic_time () - since < 500 * 1000)
    {
      if (gtk_adjustment_get_upper (adjustment) != upper)
        {
          upper = gtk_adjustment_get_upper (adjustment);
          since = g_get_monotonic_time ();
        }
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

/* The Source page of window, its files read as text: n_lines filler
 * lines (kept in text, which must outlive the view's use of it). */
static MgSourceView *
show_filler_source (MgWindow *window, GString *text, guint n_lines)
{
  MgSourceView *source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code_fixture_view (window)));

  for (guint i = 1; i <= n_lines; i++)
    g_string_append_printf (text, "int filler_%u = %u;\n", i, i);
  mg_source_view_set_lookup (source, lookup_stored, text->str, NULL);
  mg_code_view_show_page (code_fixture_view (window), "source");
  /* Whatever the page set off is done too: a computation that ended
   * later would show its selected function over the test's, at its first
   * lines (/source-view/far-line-user read 1 for 1600, twice in the whole
   * ASan suite). */
  code_fixture_view (window);
  return source;
}

/* A line far down a text shown for the first time (zstd's zstd_lazy.c,
 * 2200 lines, opened at line 1 on its hot line 822): still in view once
 * GTK has laid out the lines above it. */
static void
test_far_line (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GString) long_text = g_string_new (NULL);
  MgWindow *window = gui_test_new_window (profile);
  MgSourceView *source = show_filler_source (window, long_text, 4000);

  mg_source_view_show_function (source, "code_fixture_a", fixture_source (), 3500);
  source = source_view (window);
  g_assert_cmpuint (mg_source_view_get_line (source), ==, 3500);
  g_assert_true (shows_line (source, 3500));
  wait_laid_out (source);
  g_assert_true (shows_line (source, 3500));
  g_assert_true (!layout_checked || !mg_source_view_line_is_visible (source, 1));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A line scrolled to a third down the view leaves whole lines at its
 * top: the view's place is the top of a line, whatever the page's
 * height (split.c's first line showed half cut), for each line shown. */
static void
test_whole_top_line (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GString) long_text = g_string_new (NULL);
  MgWindow *window = gui_test_new_window (profile);
  MgSourceView *source = show_filler_source (window, long_text, 400);
  GtkWidget *text = gui_test_find_widget (GTK_WIDGET (source), GTK_TYPE_TEXT_VIEW);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (text));

  for (guint line = 100; line <= 300; line += 100)
    {
      mg_source_view_show_function (source, "code_fixture_a", fixture_source (), line);
      source = source_view (window);
      g_assert_true (shows_line (source, line));
      wait_laid_out (source);
      if (!layout_checked)
        continue;
      GtkTextIter iter;
      int top;
      double value = gtk_adjustment_get_value (adjustment);
      gtk_text_view_get_line_at_y (GTK_TEXT_VIEW (text), &iter, (int) value, &top);
      g_test_message ("line %u: view at %.1f, its top line %d at %d", line, value,
                      gtk_text_iter_get_line (&iter) + 1, top);
      g_assert_cmpfloat (value, >, 0);
      g_assert_cmpfloat (value, ==, top);
    }
  gui_test_save_screenshot (window, "source-whole-top-line.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The user scrolls to line 101 while the text is still being laid out
 * (here for 1 s, frame after frame, as a drag does): the view stays
 * where the user left it, not brought to the line once laid out. */
static void
test_far_line_user (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GString) long_text = g_string_new (NULL);
  MgWindow *window = gui_test_new_window (profile);
  MgSourceView *source = show_filler_source (window, long_text, 20000);
  GtkWidget *text = gui_test_find_widget (GTK_WIDGET (source), GTK_TYPE_TEXT_VIEW);
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (text));

  mg_source_view_show_function (source, "code_fixture_a", fixture_source (), 15000);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((mg_source_view_is_busy (source) || !mg_source_view_is_scrolling (source))
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  /* Line 101 can be scrolled to once the text is that tall. */
  gint64 end = 0;
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while ((end == 0 || g_get_monotonic_time () < end) && g_get_monotonic_time () < deadline)
    {
      gtk_adjustment_set_value (adjustment, 1600);
      if (end == 0 && gtk_adjustment_get_value (adjustment) == 1600)
        end = g_get_monotonic_time () + G_USEC_PER_SEC;
      mg_test_spin (10);
    }
  deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (mg_source_view_is_scrolling (source) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (mg_source_view_is_scrolling (source));
  wait_laid_out (source);
  mg_test_spin (300);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 1600);
  g_assert_true (!layout_checked || !mg_source_view_line_is_visible (source, 15000));
  gtk_window_destroy (GTK_WINDOW (window));
}

#define MOVED_SOURCE "/nonexistent/moved/code-fixture.c"

/* The symboliser's names, with the file where a profile opened elsewhere
 * would name it: a path that does not exist here. */
static gboolean
moved_name (gpointer data, const char *module_path, const guint8 *id, gsize id_len, guint64 vaddr,
            GPtrArray *names)
{
  g_autoptr (GPtrArray) frames = mg_symbolizer_resolve (data, module_path, id, id_len, vaddr, NULL);
  for (guint i = 0; i < frames->len; i++)
    {
      const MgSymbolFrame *f = g_ptr_array_index (frames, i);
      MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
      n->function = g_strdup (f->function);
      n->file = g_strdup (g_strcmp0 (f->file, fixture_source ()) == 0 ? MOVED_SOURCE : f->file);
      n->line = f->line;
      n->label = g_strdup (f->function);
      g_ptr_array_add (names, n);
    }
  return names->len > 0;
}

/* The run's end kept the fixture's text, marked, under the moved path. */
static void
collect_moved (gpointer data, const char *const *files, const guint64 *samples, guint n_files,
               gsize limit, GPtrArray *texts, GPtrArray *omissions)
{
  for (guint i = 0; i < n_files; i++)
    if (g_strcmp0 (files[i], MOVED_SOURCE) == 0)
      {
        MgCodeSource *source = g_new0 (MgCodeSource, 1);
        source->path = g_strdup (files[i]);
        source->text = g_bytes_new (data, strlen (data));
        g_ptr_array_add (texts, source);
      }
}

/* A profile that carries its names and source text shows them where
 * neither the file nor a source folder has it: the text as stored, the
 * lines' figures from the stored names. */
static void
test_stored_text (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autofree char *original = NULL;
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  g_settings_reset (settings, "source-folder");

  g_assert_true (g_file_get_contents (fixture_source (), &original, NULL, NULL));
  g_autofree char *stored = g_strconcat (original, "/* kept by the run */\n", NULL);
  MgStackNamer namer = { moved_name, symbolizer };
  MgSourceCollector collector = { collect_moved, stored };
  mg_profile_store_code (profile, &namer, &collector, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  g_assert_false (g_file_test (MOVED_SOURCE, G_FILE_TEST_EXISTS));

  MgWindow *window = gui_test_new_window (profile);
  activate_function (window, "code_fixture_b");
  MgSourceView *source = source_view (window);
  g_assert_null (mg_source_view_get_empty_title (source));
  g_autofree char *text = mg_source_view_dup_text (source);
  g_assert_cmpstr (text, ==, stored);
  g_assert_cmpstr (mg_source_view_get_found_at (source), ==, MOVED_SOURCE);
  check_line (source, line_of (code_fixture_view (window), "code_fixture_b"), 0, 30);
  /* Scrolled there, the view standing still: GTK 4.8's text view logs a
   * critical when it is unmapped mid-scroll. */
  g_assert_true (shows_line (source, line_of (code_fixture_view (window), "code_fixture_b")));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_missing_and_folder (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autofree char *folder = g_dir_make_tmp ("mg-source-XXXXXX", NULL);
  g_autofree char *sub = g_build_filename (folder, "gui", NULL);
  g_autofree char *copy = g_build_filename (sub, "code-fixture.c", NULL);
  g_autofree char *original = NULL;
  g_autofree char *moved = NULL;
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  g_settings_reset (settings, "source-folder");
  MgWindow *window = gui_test_new_window (profile);
  MgSourceView *source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code_fixture_view (window)));

  /* Neither the lookup nor a folder has it: the empty state names the
   * file, the reason and what to do. */
  mg_source_view_set_lookup (source, lookup_nothing, NULL, NULL);
  activate_function (window, "code_fixture_a");
  source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_empty_title (source), ==, "Source Not Found");
  const char *detail = mg_source_view_get_empty_detail (source);
  g_assert_nonnull (strstr (detail, fixture_source ()));
  g_assert_nonnull (strstr (detail, "no file"));
  g_assert_nonnull (strstr (detail, "choose their folder"));
  g_assert_null (mg_source_view_dup_text (source));
  g_assert_null (mg_source_view_get_figures (source));

  /* A folder holding gui/code-fixture.c (a copy, marked at its end):
   * the recorded path's tail found under it. */
  g_assert_true (g_file_get_contents (fixture_source (), &original, NULL, NULL));
  moved = g_strconcat (original, "/* the copy */\n", NULL);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (g_file_set_contents (copy, moved, -1, NULL));
  g_autofree char *mapped = mg_source_map_to_folder (fixture_source (), folder);
  g_assert_cmpstr (mapped, ==, copy);
  mg_source_view_set_source_folder (source, folder);
  source = source_view (window);
  g_assert_null (mg_source_view_get_empty_title (source));
  g_assert_cmpstr (mg_source_view_get_found_at (source), ==, copy);
  g_autofree char *text = mg_source_view_dup_text (source);
  g_assert_cmpstr (text, ==, moved);
  check_line (source, line_of (code_fixture_view (window), "code_fixture_a"), 100, 130);

  /* Remembered: a new window's view looks there too. */
  g_autofree char *saved = g_settings_get_string (settings, "source-folder");
  g_assert_cmpstr (saved, ==, folder);
  gtk_window_destroy (GTK_WINDOW (window));
  window = gui_test_new_window (profile);
  source = MG_SOURCE_VIEW (mg_code_view_get_source_view (code_fixture_view (window)));
  mg_source_view_set_lookup (source, lookup_nothing, NULL, NULL);
  activate_function (window, "code_fixture_c");
  source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_found_at (source), ==, copy);

  /* The copy gone as well: the empty state names the folder. */
  g_assert_cmpint (g_unlink (copy), ==, 0);
  mg_source_view_set_source_folder (source, folder);
  source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_empty_title (source), ==, "Source Not Found");
  g_assert_nonnull (strstr (mg_source_view_get_empty_detail (source), folder));
  g_assert_null (mg_source_map_to_folder (fixture_source (), folder));
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (sub);
  g_rmdir (folder);
  g_settings_reset (settings, "source-folder");
}

static void
test_screenshots (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  g_autoptr (GSettings) settings = g_settings_new (MG_APP_ID);
  /* The one row above, the source below it. */
  g_settings_set_int (settings, "code-pane-position", 300);
  MgWindow *window = gui_test_new_window (profile);

  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  mg_test_spin (200);
  activate_function (window, "code_fixture_a");
  source_view (window);
  gui_test_save_screenshot (window, "code-source-light.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  MgSourceView *source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_scheme (source), ==, "Adwaita-dark");
  gui_test_save_screenshot (window, "code-source-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  g_assert_cmpstr (mg_source_view_get_scheme (source), ==, "Adwaita");
  /* The empty state of a file found nowhere. */
  mg_source_view_set_lookup (source, lookup_nothing, NULL, NULL);
  source = source_view (window);
  g_assert_cmpstr (mg_source_view_get_empty_title (source), ==, "Source Not Found");
  gui_test_save_screenshot (window, "code-source-missing-light.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "code-pane-position");
}


int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/source-view/function", test_function_source);
  g_test_add_func ("/source-view/tree-activate", test_tree_activate);
  g_test_add_func ("/source-view/hot-line", test_hot_line);
  g_test_add_func ("/source-view/mpi-frame", test_mpi_frame);
  g_test_add_func ("/source-view/flame-double-click", test_flame_double_click);
  g_test_add_func ("/source-view/lookup", test_lookup);
  g_test_add_func ("/source-view/far-line", test_far_line);
  g_test_add_func ("/source-view/far-line-user", test_far_line_user);
  g_test_add_func ("/source-view/whole-top-line", test_whole_top_line);
  g_test_add_func ("/source-view/stored-text", test_stored_text);
  g_test_add_func ("/source-view/missing-and-folder", test_missing_and_folder);
  g_test_add_func ("/source-view/screenshots", test_screenshots);
  return gui_test_run ();
}
