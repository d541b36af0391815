/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How profiles reach windows, under Xvfb: the start page (its buttons and
 * recent list), GApplication's open (what the desktop and a second
 * `metrograph FILE` use: one window per profile, an empty start window
 * reused first) and the command line of a fresh application run. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-application.h"
#include "gui/mg-window-private.h"

static char *dir;
static char *single_path;      /* gui_fixture_single: cpu, rss */
static char *imbalance_path;   /* gui_fixture_imbalance: work */
static const char *single_ids[] = { "cpu", "rss", NULL };
static const char *imbalance_ids[] = { "work", NULL };

static void
save_profiles (void)
{
  g_autoptr (MgProfile) single = gui_fixture_single ();
  g_autoptr (MgProfile) imbalance = gui_fixture_imbalance ();
  g_autoptr (GError) error = NULL;

  dir = g_dir_make_tmp ("mg-gui-app-XXXXXX", NULL);
  single_path = g_build_filename (dir, "single.mgprof", NULL);
  imbalance_path = g_build_filename (dir, "imbalance.mgprof", NULL);
  g_assert_true (mg_profile_save (single, single_path, &error));
  g_assert_true (mg_profile_save (imbalance, imbalance_path, &error));
  g_assert_no_error (error);
}

static void
remove_profiles (void)
{
  g_unlink (single_path);
  g_unlink (imbalance_path);
  g_rmdir (dir);
  g_free (single_path);
  g_free (imbalance_path);
  g_free (dir);
}

/* The button labelled label (with its mnemonic) in root's tree. */
static GtkWidget *
find_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The list box holding the recent profiles: the one with rows (the
 * interrupted runs' list above it is empty here). */
static GtkWidget *
find_recent_list (GtkWidget *root)
{
  if (GTK_IS_LIST_BOX (root) && gtk_widget_get_first_child (root) != NULL)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_recent_list (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
assert_shows (MgWindow *window, const char *const *ids)
{
  gui_test_wait_loaded (window);
  g_assert_cmpstr (mg_window_get_page (window), ==, "profile");
  gui_test_assert_strv (mg_window_get_visible_metric_ids (window), ids);
}

static void
test_start_page (void)
{
  MgWindow *window = gui_test_new_window (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (single_path);
  g_autofree char *folder = NULL;
  GtkWidget *profile, *open, *heading, *list, *row;

  g_assert_cmpstr (mg_window_get_page (window), ==, "start");
  profile = find_button (GTK_WIDGET (window), "_Profile a Program…");
  open = find_button (GTK_WIDGET (window), "_Open a Profile…");
  g_assert_nonnull (profile);
  g_assert_nonnull (open);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (profile)), ==, "app.profile");
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (open)), ==, "win.open");
  g_assert_true (gtk_widget_is_sensitive (profile));
  g_assert_true (gtk_widget_is_sensitive (open));
  g_assert_true (gtk_widget_get_mapped (open));
  /* No recent profiles yet: no heading, no list. */
  heading = gui_test_find_label (GTK_WIDGET (window), "Recent Profiles");
  g_assert_nonnull (heading);
  g_assert_false (gtk_widget_get_visible (heading));
  g_assert_cmpuint (mg_window_get_n_recent (window), ==, 0);

  /* A profile opened once is listed, by name and folder, on the next
   * start page; activating it opens it there. */
  mg_window_open_file (window, file);
  assert_shows (window, single_ids);
  gtk_window_destroy (GTK_WINDOW (window));
  window = gui_test_new_window (NULL);
  mg_test_spin (200);
  g_assert_cmpuint (mg_window_get_n_recent (window), ==, 1);
  heading = gui_test_find_label (GTK_WIDGET (window), "Recent Profiles");
  g_assert_true (gtk_widget_get_visible (heading));
  list = find_recent_list (GTK_WIDGET (window));
  g_assert_nonnull (list);
  row = gtk_widget_get_first_child (list);
  g_assert_nonnull (gui_test_find_label (row, "single.mgprof"));
  folder = g_filename_display_name (dir);
  g_assert_nonnull (gui_test_find_label (row, folder));
  g_signal_emit_by_name (list, "row-activated", row);
  assert_shows (window, single_ids);
  gui_test_save_screenshot (window, "start-opened.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static GList *
new_windows (GList *before)
{
  GList *added = NULL;

  for (GList *l = gtk_application_get_windows (gui_test_app); l != NULL; l = l->next)
    if (g_list_find (before, l->data) == NULL)
      added = g_list_prepend (added, l->data);
  return added;
}

static void
test_open (void)
{
  g_autoptr (GFile) single = g_file_new_for_path (single_path);
  g_autoptr (GFile) imbalance = g_file_new_for_path (imbalance_path);
  GFile *files[] = { single, imbalance };
  MgWindow *start = gui_test_new_window (NULL);
  MgWindow *busy, *second;
  GList *before, *added;

  /* Two files: the first into the empty start window, the second into a
   * window of its own. */
  before = g_list_copy (gtk_application_get_windows (gui_test_app));
  g_application_open (G_APPLICATION (gui_test_app), files, 2, "");
  added = new_windows (before);
  g_assert_cmpuint (g_list_length (added), ==, 1);
  assert_shows (start, single_ids);
  assert_shows (added->data, imbalance_ids);
  busy = added->data;
  g_list_free (added);
  g_list_free (before);

  /* No window is empty now: the next file gets a new one, the others keep
   * their profiles. */
  before = g_list_copy (gtk_application_get_windows (gui_test_app));
  g_application_open (G_APPLICATION (gui_test_app), files + 1, 1, "");
  added = new_windows (before);
  g_assert_cmpuint (g_list_length (added), ==, 1);
  second = added->data;
  assert_shows (second, imbalance_ids);
  assert_shows (start, single_ids);
  assert_shows (busy, imbalance_ids);
  g_list_free (added);
  g_list_free (before);

  gtk_window_destroy (GTK_WINDOW (second));
  gtk_window_destroy (GTK_WINDOW (busy));
  gtk_window_destroy (GTK_WINDOW (start));
}

typedef struct {
  GtkApplication *app;
  guint n_windows;
  GPtrArray *shown;   /* "page:ids" per window */
  gboolean timed_out;
  gint64 deadline;
} CommandLineRun;

/* In the application's own main loop: once every window has loaded, note
 * what each shows and close them, which ends the run. */
static gboolean
watch_command_line_run (gpointer user_data)
{
  CommandLineRun *run = user_data;
  GList *windows = g_list_copy (gtk_application_get_windows (run->app));

  if (g_get_monotonic_time () > run->deadline)
    run->timed_out = TRUE;
  else
    for (GList *l = windows; l != NULL; l = l->next)
      if (mg_window_get_loading (l->data) || g_list_length (windows) < 2)
        {
          g_list_free (windows);
          return G_SOURCE_CONTINUE;
        }
  run->n_windows = g_list_length (windows);
  for (GList *l = windows; l != NULL; l = l->next)
    {
      g_auto (GStrv) ids = mg_window_get_visible_metric_ids (l->data);
      g_autofree char *joined = g_strjoinv (",", ids);

      g_ptr_array_add (run->shown, g_strconcat (mg_window_get_page (l->data), ":", joined, NULL));
      gtk_window_destroy (l->data);
    }
  g_list_free (windows);
  return G_SOURCE_REMOVE;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* `metrograph A.mgprof B.mgprof`: a fresh application, as mg_gui_run ()
 * makes it, with the files on its command line. */
static void
test_command_line (void)
{
  g_autoptr (MgApplication) app = mg_application_new ();
  char *argv[] = { (char *) "metrograph", single_path, imbalance_path, NULL };
  CommandLineRun run = { 0 };
  int status;

  /* Not the session's one instance: the test's own. */
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  run.app = GTK_APPLICATION (app);
  run.shown = g_ptr_array_new_with_free_func (g_free);
  run.deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  g_timeout_add (20, watch_command_line_run, &run);
  status = g_application_run (G_APPLICATION (app), 3, argv);

  g_assert_false (run.timed_out);
  g_assert_cmpint (status, ==, 0);
  /* One window per profile; no start window besides. */
  g_assert_cmpuint (run.n_windows, ==, 2);
  g_ptr_array_sort (run.shown, compare_strings);
  g_assert_cmpstr (g_ptr_array_index (run.shown, 0), ==, "profile:cpu,rss");
  g_assert_cmpstr (g_ptr_array_index (run.shown, 1), ==, "profile:work");
  g_ptr_array_unref (run.shown);
}

int
main (int argc, char **argv)
{
  int status;

  gui_test_init (&argc, &argv);
  save_profiles ();
  /* First: the start page before any profile was opened. */
  g_test_add_func ("/gui/application/start-page", test_start_page);
  g_test_add_func ("/gui/application/open", test_open);
  g_test_add_func ("/gui/application/command-line", test_command_line);
  status = gui_test_run ();
  remove_profiles ();
  return status;
}
