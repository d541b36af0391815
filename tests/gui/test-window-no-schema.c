/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer without its settings schema, as an uninstalled build (or an
 * install under a prefix outside XDG_DATA_DIRS) runs it: nothing is
 * remembered, and the window still lays out as with the schema's
 * defaults. Runs under Xvfb like test-window; its own process, since
 * GLib reads the schema sources once. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "code-fixture.h"
#include "gui/mg-application.h"
#include "gui/mg-code-view-private.h"
#include "gui/mg-window-private.h"
#include "mg-resources.h"
#include "mg-test-common.h"

static GtkApplication *app;

/* The divider between the rows and the Code pane stays where it was when
 * the Source page is first shown: left unset, GtkPaned split the window by
 * its children's natural heights, and the Source page, built when first
 * shown, made the Code pane's 20 px taller: the rows jumped up (seen in
 * scripts/demo's window, which runs the uninstalled build). */
static void
test_code_pane_stays (void)
{
  g_autoptr (MgProfile) profile = code_fixture_profile ();
  MgWindow *window = mg_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 780);
  mg_window_set_profile (window, profile, NULL);
  gtk_window_present (GTK_WINDOW (window));
  mg_test_spin (100);
  MgCodeView *code = code_fixture_view (window);
  GtkWidget *paned = gtk_widget_get_ancestor (GTK_WIDGET (code), GTK_TYPE_PANED);
  g_assert_nonnull (paned);
  mg_test_spin (100);
  int before = gtk_paned_get_position (GTK_PANED (paned));

  mg_code_view_show_page (code, "source");
  mg_test_spin (200);
  int after = gtk_paned_get_position (GTK_PANED (paned));
  g_test_message ("divider at %d px, then %d px with the Source page", before, after);
  g_assert_cmpint (after, ==, before);
  /* Where the schema's default puts it (code-pane-position, 480). */
  g_assert_cmpint (before, ==, 480);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  g_autofree char *empty = g_dir_make_tmp ("mg-no-schema-XXXXXX", NULL);
  g_autoptr (GError) error = NULL;
  int status;

  /* No schema anywhere: an empty folder first, the system's data folder
   * (its MIME database, which image loading needs) after it. */
  g_setenv ("GSETTINGS_SCHEMA_DIR", empty, TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/share", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  g_assert_nonnull (mg_resources_get_resource ());
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_assert_true (source == NULL || g_settings_schema_source_lookup (source, MG_APP_ID, TRUE) == NULL);
  app = GTK_APPLICATION (mg_application_new ());
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_test_add_func ("/gui/window/no-schema/code-pane-stays", test_code_pane_stays);
  status = g_test_run ();
  g_object_unref (app);
  g_rmdir (empty);
  return status;
}
