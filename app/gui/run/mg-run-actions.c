/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-actions.h"

#include "session/mg-run-settings-line.h"
#include "mg-run-host.h"
#include "session/mg-run-settings-from-profile.h"
#include "gui/mg-window.h"

/* The run goes where the dialog came from, unless a run is showing there. */
static void
on_session (MgRunDialog *dialog, GParamSpec *pspec, gpointer user_data)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (dialog));
  GtkApplication *app = GTK_APPLICATION (g_application_get_default ());
  GtkWindow *target = parent;

  if (target == NULL || !MG_IS_WINDOW (target)
      || (mg_run_host_peek (target) != NULL && mg_run_host_is_busy (mg_run_host_peek (target))))
    target = GTK_WINDOW (mg_window_new (app));
  mg_run_host_show_session (mg_run_host_get_for_window (target), mg_run_dialog_get_session (dialog));
  gtk_window_present (target);
}

MgRunDialog *
mg_run_open_dialog (GtkWindow *parent, MgRunSettings *initial, MgProfile *profile)
{
  MgRunDialog *dialog = mg_run_dialog_new (parent, NULL, initial);

  if (initial == NULL && profile != NULL)
    {
      MgCatalogue *catalogue = mg_run_dialog_get_catalogue (dialog);
      g_autoptr (MgRunSettings) settings = mg_run_settings_new_from_profile (profile, catalogue);
      g_autofree char *line = mg_run_settings_to_command_line (settings, catalogue);

      mg_run_dialog_set_command_line (dialog, line);
    }
  /* The profile on show says what this machine cannot measure. */
  if (profile == NULL && parent != NULL && MG_IS_WINDOW (parent))
    profile = mg_window_get_profile (MG_WINDOW (parent));
  if (!mg_run_dialog_learn_unavailable (dialog, profile))
    mg_run_dialog_probe_unavailable (dialog);
  gtk_window_set_modal (GTK_WINDOW (dialog), parent != NULL);
  g_signal_connect (dialog, "notify::session", G_CALLBACK (on_session), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
on_profile (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  mg_run_open_dialog (gtk_application_get_active_window (GTK_APPLICATION (user_data)), NULL, NULL);
}

static void
on_run_again (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  MgRunHost *host = window != NULL ? mg_run_host_peek (window) : NULL;

  /* A run on show: its own settings; else the profile's recorded ones. */
  if (host != NULL && mg_run_host_get_session (host) != NULL
      && g_strcmp0 (mg_run_host_get_page (host), "run") == 0)
    mg_run_open_dialog (window, mg_run_session_get_settings (mg_run_host_get_session (host)), NULL);
  else if (window != NULL && MG_IS_WINDOW (window) && mg_window_get_profile (MG_WINDOW (window)) != NULL)
    mg_run_open_dialog (window, NULL, mg_window_get_profile (MG_WINDOW (window)));
  else
    mg_run_open_dialog (window, NULL, NULL);
}

static const GActionEntry run_entries[] = {
  { "profile", on_profile, NULL, NULL, NULL, { 0 } },
  { "run-again", on_run_again, NULL, NULL, NULL, { 0 } },
};

void
mg_run_actions_install (GtkApplication *app)
{
  const char *profile_accels[] = { "<Control>r", NULL };
  const char *again_accels[] = { "<Control><Shift>r", NULL };

  g_action_map_add_action_entries (G_ACTION_MAP (app), run_entries, G_N_ELEMENTS (run_entries), app);
  gtk_application_set_accels_for_action (app, "app.profile", profile_accels);
  gtk_application_set_accels_for_action (app, "app.run-again", again_accels);
}
