/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window loading a file: the loading page, then the profile or
 * the error page. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-profile-loader.h"
#include "mg-window-internal.h"
#include "session/mg-run-recovery.h"

static void
set_loading (MgWindow *self, gboolean loading)
{
  self->loading = loading;
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), loading);
  g_object_notify (G_OBJECT (self), "loading");
}

char *
mg_window_file_display_name (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);

  return g_filename_display_name (base);
}

static void
show_error (MgWindow *self, GFile *file, const char *message)
{
  g_autofree char *name = mg_window_file_display_name (file);
  g_autofree char *title = g_strdup_printf (_("Cannot Open “%s”"), name);

  mg_window_clear_profile_view (self);
  gtk_label_set_text (GTK_LABEL (self->error_title), title);
  gtk_label_set_text (GTK_LABEL (self->error_message), message);
  gtk_label_set_text (GTK_LABEL (self->title_label), _("Metrograph"));
  gtk_widget_set_visible (self->subtitle_label, FALSE);
  gtk_widget_set_visible (self->metrics_button, FALSE);
  gtk_widget_set_visible (self->process_dropdown, FALSE);
  gtk_widget_set_visible (self->helpers_check, FALSE);
  gtk_widget_set_visible (self->zoom_box, FALSE);
  gtk_widget_set_visible (self->info_button, FALSE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "error");
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr (MgWindow) self = g_weak_ref_get (weak);
  GFile *file = mg_profile_loader_get_file (result);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_loader_load_finish (result, &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  /* The window was closed, or another file was asked for, meanwhile. */
  if (self == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  if (profile == NULL)
    {
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *what_to_do = NULL;
      g_autofree char *run = path != NULL ? mg_run_recovery_describe_folder (path, &what_to_do)
                                          : NULL;
      /* A run folder given instead of its profile: say so, and how to
       * get the profile ("not a regular file" said neither). */
      g_autofree char *message = NULL;

      if (run != NULL)
        /* Translators: why a run folder is no profile, then what to do */
        message = g_strdup_printf (C_ ("run folder opened", "%s: %s."), run, what_to_do);

      show_error (self, file, message != NULL ? message : error->message);
    }
  else
    {
      mg_window_set_profile (self, profile, file);
      mg_window_recent_remember (self, file);
    }
  set_loading (self, FALSE);
}

void
mg_window_open_file (MgWindow *self, GFile *file)
{
  g_autofree char *name = mg_window_file_display_name (file);
  g_autofree char *text = g_strdup_printf (_("Opening “%s”…"), name);
  GWeakRef *weak;

  g_return_if_fail (MG_IS_WINDOW (self));
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  gtk_label_set_text (GTK_LABEL (self->loading_label), text);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
  set_loading (self, TRUE);

  /* A weak reference: closing the window does not wait for the load. */
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  mg_profile_loader_load_async (file, self->cancellable, on_loaded, weak);
}
