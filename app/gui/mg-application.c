/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer application. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-application.h"
#include "gui/run/mg-run-actions.h"
#include "gui/run/mg-run-end.h"
#include "gui/run/mg-run-keeper.h"
#include "mg-window.h"
#include "session/mg-host-probe.h"

struct _MgApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (MgApplication, mg_application, GTK_TYPE_APPLICATION)

static MgWindow *
find_empty_window (GtkApplication *app)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (MG_IS_WINDOW (l->data) && mg_window_is_empty (l->data))
      return l->data;
  return NULL;
}

static void
mg_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (mg_window_new (GTK_APPLICATION (app)));
  gtk_window_present (window);
}

/* One window per profile; an empty start window is reused first. */
static void
mg_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      MgWindow *window = find_empty_window (GTK_APPLICATION (app));

      if (window == NULL)
        window = mg_window_new (GTK_APPLICATION (app));
      mg_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
on_new_window (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  gtk_window_present (GTK_WINDOW (mg_window_new (GTK_APPLICATION (user_data))));
}

static void
on_about (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  const char *authors[] = { _("The Metrograph developers"), NULL };

  gtk_show_about_dialog (parent,
                         "program-name", _("Metrograph"),
                         "logo-icon-name", MG_APP_ID,
                         "version", MG_VERSION,
                         "comments", _("Profile programs and read their metrics over time"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

/* Runs going are ended first, as the user chooses (mg-run-end.h). */
static void
on_quit (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  mg_run_end_quit (GTK_APPLICATION (user_data));
}

static const GActionEntry app_entries[] = {
  { "new-window", on_new_window, NULL, NULL, NULL, { 0 } },
  { "about", on_about, NULL, NULL, NULL, { 0 } },
  { "quit", on_quit, NULL, NULL, NULL, { 0 } },
};

static const struct {
  const char *action;
  const char *accels[3];
} app_accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.new-window", { "<Control>n", NULL } },
  { "window.close", { "<Control>w", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.export", { "<Control>e", NULL } },
  { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
  { "win.zoom-out", { "<Control>minus", NULL } },
  { "win.zoom-selection", { "<Control>Return", NULL } },
  { "win.zoom-reset", { "<Control>0", NULL } },
  { "win.clear-selection", { "Escape", NULL } },
  { "win.pan-left", { "<Control>Left", NULL } },
  { "win.pan-right", { "<Control>Right", NULL } },
  { "win.auto-zoom-vertical", { "<Control><Shift>v", NULL } },
  { "win.show-info", { "F9", NULL } },
  { "win.show-metrics-menu", { "<Control>m", NULL } },
  { "win.undo-hide", { "<Control>z", NULL } },
  { "win.find-code", { "<Control>f", NULL } },
  /* GTK's own for the shortcuts window (mg-window.c builds it). */
  { "win.show-help-overlay", { "<Control>question", NULL } },
};

static void
mg_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (mg_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_entries, G_N_ELEMENTS (app_entries), app);
  /* app.profile and app.run-again: the run dialog. */
  mg_run_actions_install (GTK_APPLICATION (app));
  for (guint i = 0; i < G_N_ELEMENTS (app_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), app_accels[i].action,
                                           app_accels[i].accels);

  gtk_window_set_default_icon_name (MG_APP_ID);
}

/* Whatever ended the main loop, no profiled program is left behind. */
static void
mg_application_shutdown (GApplication *app)
{
  /* Quitting closes no window: their sizes are stored here. */
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (MG_IS_WINDOW (l->data))
      mg_window_save_state (l->data);
  g_settings_sync ();
  mg_run_keeper_kill_all (app);
  /* Nor a probe's (whose records would read as an interrupted run). */
  mg_host_probe_abandon ();
  G_APPLICATION_CLASS (mg_application_parent_class)->shutdown (app);
}

static void
mg_application_class_init (MgApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = mg_application_startup;
  app_class->shutdown = mg_application_shutdown;
  app_class->activate = mg_application_activate;
  app_class->open = mg_application_open;
}

static void
mg_application_init (MgApplication *self)
{
}

MgApplication *
mg_application_new (void)
{
  return g_object_new (MG_TYPE_APPLICATION,
                       "application-id", MG_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
