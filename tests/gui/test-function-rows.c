/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rows "Function NAME" in a viewer window (issue 30, point 3a), on
 * code-fixture's stacks: a's share per window read back from the row
 * (81.8 % in the window holding 0.25 s, 80 % in the one holding 0.75 s,
 * none elsewhere; process 1 alone 0 % then 100 %), the selected row
 * replaced by the next selection unless pinned, removed by its close
 * button, and driven by the Code pane's selected-function when the pane
 * has that property. */
#include "mg-config.h"

#include <math.h>

#include "code-fixture.h"
#include "gui-test-util.h"
#include "gui/mg-function-rows.h"
#include "gui/mg-window-private.h"

static void
check_values (MgFunctionRows *rows, guint row, double at_quarter, double at_three_quarters)
{
  guint n;
  const double *values = mg_function_rows_get_values (rows, row, &n);
  guint with_value = 0;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  /* Computed on a worker: none at first, then the values. */
  while (values == NULL && g_get_monotonic_time () < deadline)
    {
      mg_test_spin (5);
      values = mg_function_rows_get_values (rows, row, &n);
    }
  g_assert_nonnull (values);

  /* gui_fixture_imbalance: 100 windows of 10 ms; the stacks' windows'
   * middles, 0.25 s and 0.75 s, are in windows 25 and 75. */
  g_assert_cmpuint (n, ==, 100);
  for (guint w = 0; w < n; w++)
    with_value += !isnan (values[w]);
  g_assert_cmpuint (with_value, ==, 2);
  g_assert_cmpfloat_with_epsilon (values[25], at_quarter, 1e-6);
  g_assert_cmpfloat_with_epsilon (values[75], at_three_quarters, 1e-6);
}

static void
test_rows (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  MgFunctionRows *rows;
  GtkWidget *code_view;

  gui_test_wait_loaded (window);
  rows = MG_FUNCTION_ROWS (mg_window_get_function_rows (window));
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (rows)));

  /* a: (30 + 60) of process 0's 90 and none of process 1's 20 in the
   * first half, process 1's 40 of 50 in the second. */
  mg_function_rows_show_function (rows, "code_fixture_a");
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (rows)));
  check_values (rows, 0, 100.0 * 90 / 110, 80);
  mg_time_view_set_process (mg_window_get_time_view (window), 1);
  check_values (rows, 0, 0, 100);
  mg_time_view_set_process (mg_window_get_time_view (window), -1);

  /* Another selection replaces it; pinned, it stays. */
  mg_function_rows_show_function (rows, "code_fixture_c");
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 1);
  g_assert_cmpstr (mg_function_rows_get_function (rows, 0), ==, "code_fixture_c");
  /* c: 30 (process 0) + 20 (process 1) of 110, then 10 of 50. */
  check_values (rows, 0, 100.0 * 50 / 110, 20);
  mg_function_rows_set_pinned (rows, 0, TRUE);
  g_assert_true (mg_function_rows_get_pinned (rows, 0));
  mg_function_rows_show_function (rows, "code_fixture_b");
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 2);
  g_assert_cmpstr (mg_function_rows_get_function (rows, 1), ==, "code_fixture_b");
  /* Each row's pin and close are named for screen readers. */
  g_assert_cmpuint (gui_test_assert_icon_buttons_named (GTK_WIDGET (rows)), ==, 4);
  mg_function_rows_show_function (rows, NULL);
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 1);
  g_assert_cmpstr (mg_function_rows_get_function (rows, 0), ==, "code_fixture_c");
  mg_test_spin (50);
  gui_test_save_screenshot (window, "function-row.png");
  mg_function_rows_remove (rows, 0);
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (rows)));

  /* The Code pane's selected function adds its row, its values now
   * from the pane's call index (the same as above without it). */
  g_assert_false (mg_function_rows_has_index (rows));
  code_view = GTK_WIDGET (code_fixture_view (window));
  g_object_set (code_view, "selected-function", "code_fixture_a", NULL);
  g_assert_cmpuint (mg_function_rows_get_n_rows (rows), ==, 1);
  g_assert_cmpstr (mg_function_rows_get_function (rows, 0), ==, "code_fixture_a");
  g_assert_true (mg_function_rows_has_index (rows));
  check_values (rows, 0, 100.0 * 90 / 110, 80);
  mg_time_view_set_process (mg_window_get_time_view (window), 1);
  check_values (rows, 0, 0, 100);
  mg_time_view_set_process (mg_window_get_time_view (window), -1);
  gtk_window_destroy (GTK_WINDOW (window));
  mg_test_spin (20);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/function-rows/rows", test_rows);
  return gui_test_run ();
}
