/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window's own actions (open, auto-zoom-vertical, show-info,
 * show-errors, show-metrics-menu, show-help-overlay, those that need a
 * profile off without one; export and
 * save-report are in mg-window-export.c, the time view's in
 * mg-time-view-actions.c) and files dropped on it. */
#include "mg-config.h"

#include "mg-code-view.h"
#include "mg-file-choosers.h"
#include "mg-time-view-actions.h"
#include "mg-window-internal.h"

static void
on_profile_chosen (GFile *file, gpointer user_data)
{
  MgWindow *self = user_data;

  if (self->profile != NULL || self->loading)
    {
      MgWindow *other = mg_window_new (gtk_window_get_application (GTK_WINDOW (self)));

      gtk_window_present (GTK_WINDOW (other));
      mg_window_open_file (other, file);
    }
  else
    mg_window_open_file (self, file);
}

static void
open_file_dialog (MgWindow *self)
{
  mg_file_chooser_open_profile (GTK_WINDOW (self), on_profile_chosen, self);
}

static void
on_open (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  open_file_dialog (MG_WINDOW (user_data));
}


static void
on_auto_zoom_vertical (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgWindow *self = user_data;

  g_simple_action_set_state (action, value);
  mg_time_view_set_auto_zoom_vertical (self->view, g_variant_get_boolean (value));
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "auto-zoom-vertical", g_variant_get_boolean (value));
}

static void
on_show_info (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgWindow *self = user_data;

  g_simple_action_set_state (action, value);
  if (g_variant_get_boolean (value))
    mg_window_build_side_panel (self);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->side_revealer), g_variant_get_boolean (value));
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "show-info", g_variant_get_boolean (value));
}

static void
on_show_errors (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;

  gtk_stack_set_visible_child_name (GTK_STACK (self->side_stack), "errors");
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-info",
                                      g_variant_new_boolean (TRUE));
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  MgWindow *self = user_data;
  GSList *files = g_value_get_boxed (value);

  for (GSList *l = files; l != NULL; l = l->next)
    {
      MgWindow *window = self;

      if (l != files || self->profile != NULL || self->loading)
        {
          window = mg_window_new (gtk_window_get_application (GTK_WINDOW (self)));
          gtk_window_present (GTK_WINDOW (window));
        }
      mg_window_open_file (window, l->data);
    }
  return files != NULL;
}

static void
on_show_metrics_menu (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;

  if (gtk_widget_get_visible (self->metrics_button))
    gtk_menu_button_popup (GTK_MENU_BUTTON (self->metrics_button));
}

/* The shortcuts window is built when first asked for. Shipped as
 * gtk/help-overlay.ui, GtkApplicationWindow would build it with every
 * window: 20 ms of a window's start-up. Our action comes first, so
 * gtk_application_window_set_help_overlay adds none of its own. */
static void
on_show_help_overlay (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplicationWindow *window = user_data;
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr (GtkBuilder) builder =
        gtk_builder_new_from_resource ("/org/metrograph/Metrograph/ui/mg-shortcuts.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_window_present (GTK_WINDOW (overlay));
}

static void
on_find_code (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;

  if (self->code_view != NULL && gtk_widget_get_mapped (self->code_view))
    mg_code_view_focus_search (MG_CODE_VIEW (self->code_view));
}

static const GActionEntry win_entries[] = {
  { "show-help-overlay", on_show_help_overlay, NULL, NULL, NULL, { 0 } },
  { "show-metrics-menu", on_show_metrics_menu, NULL, NULL, NULL, { 0 } },
  { "open", on_open, NULL, NULL, NULL, { 0 } },
  { "export", mg_window_export_activated, NULL, NULL, NULL, { 0 } },
  { "save-report", mg_window_save_report_activated, NULL, NULL, NULL, { 0 } },
  { "auto-zoom-vertical", NULL, NULL, "true", on_auto_zoom_vertical, { 0 } },
  { "show-info", NULL, NULL, "false", on_show_info, { 0 } },
  { "show-errors", on_show_errors, NULL, NULL, NULL, { 0 } },
  { "find-code", on_find_code, NULL, NULL, NULL, { 0 } },
};
/* What acts on the profile shown: off on the start page, the error page
 * and while a live run is on screen. */
static const char *const profile_actions[] = {
  "export", "save-report", "show-info", "show-errors", "auto-zoom-vertical", "find-code", NULL,
};

void
mg_window_update_profile_actions (MgWindow *self)
{
  gboolean shown = self->profile != NULL && !self->live_run;

  for (guint i = 0; profile_actions[i] != NULL; i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), profile_actions[i]);

      /* None yet while the window is built, none left once disposed. */
      if (G_IS_SIMPLE_ACTION (action))
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), shown);
    }
}

void
mg_window_add_actions (MgWindow *self)
{
  gboolean auto_zoom = TRUE, show_info = FALSE;
  GtkDropTarget *drop;

  if (self->settings != NULL)
    {
      auto_zoom = g_settings_get_boolean (self->settings, "auto-zoom-vertical");
      show_info = g_settings_get_boolean (self->settings, "show-info");
    }
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  g_action_group_change_action_state (G_ACTION_GROUP (self), "auto-zoom-vertical",
                                      g_variant_new_boolean (auto_zoom));
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-info",
                                      g_variant_new_boolean (show_info));
  mg_time_view_actions_add (G_ACTION_MAP (self), self->view);
  mg_window_rank_overview_init (self);

  mg_window_update_profile_actions (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
