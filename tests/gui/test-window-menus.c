/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finding a process and the menus: the process search matches any part of
 * an entry (rank, host, pid) whatever the case and has the keyboard when
 * the list opens; actions that need a profile are off without one; the
 * Metrics menu stays open while groups are switched; a live run's page
 * leaves the header nothing of the profile. */
#include "mg-config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "gui-fixtures.h"
#include "gui-test-util.h"
#include "gui/mg-process-search.h"
#include "gui/mg-window-private.h"

static void
capture_screen (const char *name)
{
  const char *dir = g_getenv ("MG_GUI_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autofree char *command = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  command = g_strdup_printf ("import -window root %s", path);
  mg_test_spin (400);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL));
}

static GtkDropDown *
process_dropdown (MgWindow *window)
{
  GtkWidget *dropdown = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                              GTK_TYPE_DROP_DOWN);

  g_assert_nonnull (dropdown);
  return GTK_DROP_DOWN (dropdown);
}

/* Types text into the open list's search and waits for the list to follow
 * (the search field waits a moment after the last key). */
static guint
search (GtkDropDown *dropdown, const char *text)
{
  GtkWidget *entry = mg_process_search_get_entry (dropdown);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  mg_test_spin (400);
  return mg_process_search_get_n_shown (dropdown);
}

/* 64 ranks (pids 2000-2063) on node1: "Rank 17 on node1 (pid 2017, solver)". */
static void
test_process_search (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_large (64, 1, 4);
  MgWindow *window;
  GtkDropDown *dropdown;
  GtkWidget *entry, *focus;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  dropdown = process_dropdown (window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 65);

  /* Opened, its search field has the keyboard: typing goes there. */
  gtk_widget_activate (GTK_WIDGET (dropdown));
  mg_test_spin (300);
  entry = mg_process_search_get_entry (dropdown);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_get_mapped (entry));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (focus == entry || gtk_widget_is_ancestor (focus, entry));
  capture_screen ("process-search-open.png");

  /* Any part of the entry: the rank's number ("63": rank 63, pid 2063,
   * not a prefix), the pid, the host (any case, inside the word), the
   * label's words. */
  g_assert_cmpuint (search (dropdown, "63"), ==, 1);
  g_assert_cmpuint (search (dropdown, "2017"), ==, 1);
  g_assert_cmpuint (search (dropdown, "NODE1"), ==, 64);
  g_assert_cmpuint (search (dropdown, "ode1"), ==, 64);
  /* Rank 1 and ranks 10-19. */
  g_assert_cmpuint (search (dropdown, "rank 1 "), ==, 1);
  g_assert_cmpuint (search (dropdown, "rank 1"), ==, 11);
  capture_screen ("process-search-rank1.png");
  g_assert_cmpuint (search (dropdown, "node2"), ==, 0);
  g_assert_cmpuint (search (dropdown, ""), ==, 65);

  /* A new profile in the window: its list searches the same way. */
  {
    g_autoptr (MgProfile) other = gui_fixture_large (12, 1, 4);

    gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (entry, GTK_TYPE_POPOVER)));
    mg_window_set_profile (window, other, NULL);
    mg_test_spin (100);
    gtk_widget_activate (GTK_WIDGET (dropdown));
    mg_test_spin (300);
    g_assert_cmpuint (search (dropdown, "11"), ==, 1);
    g_assert_cmpuint (search (dropdown, "pid 200"), ==, 10);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static const char *const profile_actions[] = {
  "export", "save-report", "show-info", "show-errors", "auto-zoom-vertical", NULL,
};

static void
assert_profile_actions (MgWindow *window, gboolean enabled)
{
  for (guint i = 0; profile_actions[i] != NULL; i++)
    {
      g_test_message ("%s", profile_actions[i]);
      g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), profile_actions[i]));
      g_assert_cmpint (g_action_group_get_action_enabled (G_ACTION_GROUP (window),
                                                          profile_actions[i]), ==, enabled);
    }
}

/* The menu item (a model button: it has "text") labelled text. */
static GtkWidget *
find_menu_item (GtkWidget *root, const char *text)
{
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (root), "text") != NULL
      && !GTK_IS_LABEL (root))
    {
      g_autofree char *item_text = NULL;

      g_object_get (root, "text", &item_text, NULL);
      if (g_strcmp0 (item_text, text) == 0)
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_item (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_primary_menu_button (GtkWidget *root)
{
  if (GTK_IS_MENU_BUTTON (root) && gtk_menu_button_get_primary (GTK_MENU_BUTTON (root)))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_primary_menu_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* On the start page the primary menu offers Export…, Save Report…, Run
 * Details and Automatic Vertical Zoom dimmed; with a profile they are on;
 * an error page turns them off again. */
static void
test_actions_need_profile (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_single ();
  MgWindow *window;
  GtkWidget *button, *popover, *item;

  gui_test_reset_settings ();
  window = gui_test_new_window (NULL);
  g_assert_cmpstr (mg_window_get_page (window), ==, "start");
  assert_profile_actions (window, FALSE);
  /* Open… and Profile a Program… stay. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "open"));

  /* The menu as the user sees it (opened as F10 opens it): the items dimmed. */
  button = find_primary_menu_button (gtk_window_get_titlebar (GTK_WINDOW (window)));
  g_assert_nonnull (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  mg_test_spin (300);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_nonnull (popover);
  capture_screen ("start-page-menu.png");
  item = find_menu_item (popover, "Export…");
  g_assert_nonnull (item);
  g_assert_false (gtk_widget_is_sensitive (item));
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Save Report…")));
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Run Details")));
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Automatic Vertical Zoom")));
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Open…")));
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Profile a Program…")));
  gtk_popover_popdown (GTK_POPOVER (popover));

  mg_window_set_profile (window, profile, NULL);
  mg_test_spin (100);
  assert_profile_actions (window, TRUE);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  mg_test_spin (300);
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Export…")));
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Run Details")));
  gtk_popover_popdown (GTK_POPOVER (popover));

  /* A file that cannot be read: the error page, nothing to export. */
  {
    g_autofree char *path = g_build_filename (g_get_tmp_dir (), "mg-menus-not-a-profile.mgprof", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);

    g_assert_true (g_file_set_contents (path, "not a profile", -1, NULL));
    mg_window_open_file (window, file);
    gui_test_wait_loaded (window);
    g_assert_cmpstr (mg_window_get_page (window), ==, "error");
    assert_profile_actions (window, FALSE);
    g_unlink (path);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_check (GtkWidget *root, const char *label)
{
  if (GTK_IS_CHECK_BUTTON (root)
      && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_check (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
strv_has (char **strv, const char *s)
{
  return g_strv_contains ((const char *const *) strv, s);
}

/* Groups switched one after another with the menu open: it stays open,
 * each switch shows or hides its group's rows and says so. */
static void
test_metrics_menu_stays_open (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_groups ();
  MgWindow *window;
  GtkWidget *button, *popover, *cpu, *memory;
  g_auto (GStrv) before = NULL, after = NULL, again = NULL;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  before = mg_window_get_visible_group_titles (window);
  g_assert_true (strv_has (before, "Default"));
  g_assert_false (strv_has (before, "CPU Time"));
  g_assert_false (strv_has (before, "Memory"));

  gui_test_activate (window, "show-metrics-menu", NULL);
  mg_test_spin (300);
  button = gui_test_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_TYPE_MENU_BUTTON);
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (button)), ==, "Metrics");
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_true (gtk_widget_get_visible (popover));
  cpu = find_check (popover, "CPU Time");
  memory = find_check (popover, "Memory");
  g_assert_nonnull (cpu);
  g_assert_nonnull (memory);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (cpu)));

  /* Two groups on, one after the other: the menu stays open. */
  gtk_widget_activate (cpu);
  mg_test_spin (200);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (cpu)));
  gtk_widget_activate (memory);
  mg_test_spin (200);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (memory)));
  capture_screen ("metrics-menu-groups.png");
  after = mg_window_get_visible_group_titles (window);
  g_assert_true (strv_has (after, "CPU Time"));
  g_assert_true (strv_has (after, "Memory"));

  /* And off again: the rows go, the menu still open. */
  gtk_widget_activate (cpu);
  mg_test_spin (200);
  g_assert_true (gtk_widget_get_visible (popover));
  again = mg_window_get_visible_group_titles (window);
  g_assert_false (strv_has (again, "CPU Time"));
  g_assert_true (strv_has (again, "Memory"));
  /* The action and its check button agree. */
  {
    g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window),
                                                                  "show-group.cpu-5Ftime");

    g_assert_nonnull (state);
    g_assert_false (g_variant_get_boolean (state));
    gui_test_activate (window, "show-group.cpu-5Ftime", NULL);
    mg_test_spin (100);
    g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (cpu)));
  }
  gtk_popover_popdown (GTK_POPOVER (popover));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* While a live run's page covers the window, its header shows nothing of
 * the profile behind (no Metrics, no process chooser, no zoom or side
 * panel button) and the profile's actions are off; after, all is back. */
static void
test_live_run_header (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_imbalance ();
  GtkWidget *header;
  GtkWidget *metrics, *dropdown, *zoom;
  MgWindow *window;

  gui_test_reset_settings ();
  window = gui_test_new_window (profile);
  header = gtk_window_get_titlebar (GTK_WINDOW (window));
  metrics = gui_test_find_widget (header, GTK_TYPE_MENU_BUTTON);
  dropdown = GTK_WIDGET (process_dropdown (window));
  /* The zoom buttons' box: the parent of the button of win.zoom-out. */
  {
    GPtrArray *todo = g_ptr_array_new ();

    g_ptr_array_add (todo, header);
    zoom = NULL;
    while (todo->len > 0 && zoom == NULL)
      {
        GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);

        if (GTK_IS_ACTIONABLE (w)
            && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (w)), "win.zoom-out") == 0)
          zoom = gtk_widget_get_parent (w);
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (todo, c);
      }
    g_ptr_array_unref (todo);
  }
  g_assert_nonnull (zoom);
  g_assert_true (gtk_widget_get_visible (metrics));
  g_assert_true (gtk_widget_get_visible (dropdown));
  g_assert_true (gtk_widget_get_visible (zoom));
  assert_profile_actions (window, TRUE);

  mg_window_set_live_run (window, TRUE);
  mg_test_spin (100);
  g_assert_false (gtk_widget_get_visible (metrics));
  g_assert_false (gtk_widget_get_visible (dropdown));
  g_assert_false (gtk_widget_get_visible (zoom));
  assert_profile_actions (window, FALSE);
  /* The window still has the profile: it comes back as it was. */
  g_assert_true (mg_window_get_profile (window) == profile);

  mg_window_set_live_run (window, FALSE);
  mg_test_spin (100);
  g_assert_true (gtk_widget_get_visible (metrics));
  g_assert_true (gtk_widget_get_visible (dropdown));
  g_assert_true (gtk_widget_get_visible (zoom));
  assert_profile_actions (window, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  gui_test_init (&argc, &argv);
  g_test_add_func ("/gui/menus/process-search", test_process_search);
  g_test_add_func ("/gui/menus/actions-need-profile", test_actions_need_profile);
  g_test_add_func ("/gui/menus/metrics-menu-stays-open", test_metrics_menu_stays_open);
  g_test_add_func ("/gui/menus/live-run-header", test_live_run_header);
  return gui_test_run ();
}
