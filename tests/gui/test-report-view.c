/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's Report page under Xvfb: the report's facts, summary and
 * sections in native widgets, partial reports from the usual places, a
 * refused file's error shown; Save Report… writes HTML or text. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "defs/mg-colour.h"
#include "report/mg-partial-report.h"
#include "gui/mg-report-view.h"
#include "gui/mg-window-private.h"
#include "report-fixture.h"

/* Every label's text, one a line, and the level bars' values. */
static void
collect (GtkWidget *widget, GString *labels, GArray *bars)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (labels, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_LEVEL_BAR (widget))
    {
      double value = gtk_level_bar_get_value (GTK_LEVEL_BAR (widget));

      g_array_append_val (bars, value);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, labels, bars);
}

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

static void
test_view (void)
{
  g_autofree char *example = report_fixture_source_path ("examples/report.xml");
  g_autofree char *dir = g_dir_make_tmp ("metrograph-report-view-XXXXXX", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.xml", NULL);
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  g_autoptr (GString) labels = g_string_new (NULL);
  g_autoptr (GArray) bars = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *refused = NULL;
  GtkWidget *view;
  gboolean compute_bar = FALSE;

  g_assert_true (g_file_set_contents (bad, "<partialReport name=\"b\"/>\n", -1, NULL));
  g_setenv ("ALLINEA_PARTIAL_REPORT_SOURCE", example, TRUE);
  g_setenv ("METROGRAPH_REPORTS_PATH", bad, TRUE);
  view = g_object_ref_sink (mg_report_view_new (profile, "/runs/solver.mgprof"));
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
  g_unsetenv ("METROGRAPH_REPORTS_PATH");

  collect (view, labels, bars);
  assert_contains (labels->str, "./solver --grid 'big input'\n");
  assert_contains (labels->str, "/runs/solver.mgprof\n");
  assert_contains (labels->str, "Summary\n");
  assert_contains (labels->str, "This run's processes are on the CPU 74 % of the time");
  assert_contains (labels->str, "Compute (on the CPU)\n73.5 %\n");
  assert_contains (labels->str, "MPI calls\nnot recorded in this run: the MPI library is not "
                                "loaded\n");
  assert_contains (labels->str, "\nCPU\n");
  assert_contains (labels->str, "\nInterrupts\n");
  assert_contains (labels->str, "Peak interrupts\n2.70 k/s\n");
  g_assert_null (strstr (labels->str, "\nEnergy\n"));
  refused = g_strdup_printf ("%s:1: error: xmlns missing", bad);
  assert_contains (labels->str, refused);
  for (guint i = 0; i < bars->len; i++)
    compute_bar = compute_bar || fabs (g_array_index (bars, double, i) - 0.735) < 1e-9;
  g_assert_true (compute_bar);
  g_assert_cmpuint (bars->len, >=, 10);
  g_object_unref (view);
  g_unlink (bad);
  g_rmdir (dir);
}

/* The bars are drawn in their partial report's colour, as in the HTML: the
 * built-in CPU section's CPU time bars (#4E9A06) and the example's
 * interrupts bars (hsl(25, 70, 71)). */
static void
test_bar_colours (void)
{
  g_autofree char *example = report_fixture_source_path ("examples/report.xml");
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view;
  g_autoptr (GdkTexture) texture = NULL;
  const char *shots = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  graphene_rect_t all;
  guint green, interrupts;
  MgRgba peak;

  g_assert_true (mg_colour_parse ("hsl(25, 70, 71)", &peak, NULL));

  g_setenv ("ALLINEA_PARTIAL_REPORT_SOURCE", example, TRUE);
  view = mg_report_view_new (profile, "/runs/solver.mgprof");
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 1100);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (300);
  texture = gui_test_render (window);
  if (shots != NULL)
    {
      g_autofree char *path = g_build_filename (shots, "report-view.png", NULL);

      g_assert_true (gdk_texture_save_to_png (texture, path));
    }
  all = GRAPHENE_RECT_INIT (0, 0, gdk_texture_get_width (texture),
                            gdk_texture_get_height (texture));
  green = gui_test_count_colour (texture, &all, 0x4e, 0x9a, 0x06, 3);
  interrupts = gui_test_count_colour (texture, &all, (guint8) lround (peak.r * 255),
                                      (guint8) lround (peak.g * 255),
                                      (guint8) lround (peak.b * 255), 3);
  /* Two bars of CPU time, one of interrupts at least: a bar is a few
   * pixels high and tens wide. */
  g_assert_cmpuint (green, >=, 200);
  g_assert_cmpuint (interrupts, >=, 100);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  MgWindow *window = gui_test_new_window (profile);
  g_autofree char *dir = g_dir_make_tmp ("metrograph-report-view-XXXXXX", NULL);
  g_autofree char *html = g_build_filename (dir, "r.html", NULL);
  g_autofree char *text = g_build_filename (dir, "r.txt", NULL);
  g_autofree char *pdf = g_build_filename (dir, "r.pdf", NULL);
  g_autofree char *content = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) labels = g_string_new (NULL);
  g_autoptr (GArray) bars = g_array_new (FALSE, FALSE, sizeof (double));
  GtkWidget *view;

  gui_test_wait_loaded (window);
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "save-report"));
  view = mg_window_get_report_view (window);
  g_assert_nonnull (view);
  collect (view, labels, bars);
  assert_contains (labels->str, "Summary\n");

  g_assert_true (mg_window_save_report (window, html, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (html, &content, NULL, NULL));
  g_assert_true (g_str_has_prefix (content, "<!DOCTYPE html>"));
  g_clear_pointer (&content, g_free);
  g_assert_true (mg_window_save_report (window, text, &error));
  g_assert_true (g_file_get_contents (text, &content, NULL, NULL));
  g_assert_true (g_str_has_prefix (content, "Performance report\n"));
  g_assert_false (mg_window_save_report (window, pdf, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  assert_contains (error->message, "name the file .html or .txt");
  g_assert_false (g_file_test (pdf, G_FILE_TEST_EXISTS));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (html);
  g_unlink (text);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/report/view", test_view);
  g_test_add_func ("/gui/report/window", test_window);
  g_test_add_func ("/gui/report/bar-colours", test_bar_colours);
  return gui_test_run ();
}
