/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer in German: the catalogue built from po/de.po is used by the
 * window's templates and code. Runs under Xvfb like test-window. */
#include "mg-config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "gui-fixtures.h"
#include "gui/mg-application.h"
#include "mg-resources.h"
#include "gui/mg-window-private.h"

static GtkWidget *
find_menu_button (GtkWidget *root, const char *label)
{
  if (GTK_IS_MENU_BUTTON (root) &&
      g_strcmp0 (gtk_menu_button_get_label (GTK_MENU_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_german (void)
{
  g_autoptr (MgProfile) profile = gui_fixture_groups ();
  g_autoptr (GtkApplication) app = GTK_APPLICATION (mg_application_new ());
  g_autoptr (GError) error = NULL;
  g_autofree char *figures = NULL;
  g_auto (GStrv) groups = NULL;
  MgWindow *window;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  window = mg_window_new (app);
  mg_window_set_profile (window, profile, NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "preset", g_variant_new_string ("all"));
  gtk_window_present (GTK_WINDOW (window));

  /* From the template (ui/mg-window.ui) ... */
  g_assert_nonnull (find_menu_button (gtk_window_get_titlebar (GTK_WINDOW (window)), "Metriken"));
  /* ... and from C (the row figures, the "Other metrics" section). */
  figures = mg_window_dup_row_figures (window, "cpu");
  g_assert_true (g_str_has_prefix (figures, "Max. "));
  g_assert_nonnull (strstr (figures, " · Mittel "));
  groups = mg_window_get_visible_group_titles (window);
  g_assert_true (g_strv_contains ((const char *const *) groups, "Weitere Metriken"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_setenv ("GSETTINGS_SCHEMA_DIR", MG_GUI_SCHEMA_DIR, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  /* C.UTF-8 is always there; LANGUAGE then picks the German catalogue
   * compiled into the build tree. */
  g_setenv ("LANGUAGE", "de", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_BUILD_ROOT "/po");
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  g_assert_nonnull (mg_resources_get_resource ());
  g_test_add_func ("/gui/window/german", test_german);
  return g_test_run ();
}
