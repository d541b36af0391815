/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The start page's interrupted runs: run folders whose metrograph ended
 * before writing the profile (mg-run-folder.h), each with a Recover button
 * (win.recover-run) that writes the profile (mg-run-recovery.h) in a worker
 * thread and opens it. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "symbols/mg-code-callbacks.h"
#include "session/mg-run-folder.h"
#include "session/mg-run-recovery.h"
#include "mg-window-internal.h"

/* "sleep — /tmp/metrograph-AB12CD": the program the run profiled, when
 * its settings can be read. */
static char *
describe_run (const char *run_dir)
{
  g_autoptr (MgRunRecovery) recovery = mg_run_recovery_open (run_dir, NULL);
  const char *program = recovery != NULL
                          ? mg_run_settings_get_program (mg_run_recovery_get_settings (recovery))
                          : NULL;

  return program != NULL ? g_path_get_basename (program) : g_path_get_basename (run_dir);
}

static GtkWidget *
make_row (const char *run_dir)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  /* A program or folder name is bytes: shown with U+FFFD, the path given
   * to the action as it is. */
  g_autofree char *program = describe_run (run_dir);
  g_autofree char *program_shown = g_utf8_make_valid (program, -1);
  g_autofree char *run_dir_shown = g_utf8_make_valid (run_dir, -1);
  GtkWidget *name = gtk_label_new (program_shown);
  GtkWidget *where = gtk_label_new (run_dir_shown);
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Recover"));

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (where), 0);
  gtk_label_set_ellipsize (GTK_LABEL (where), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (where, "caption");
  gtk_widget_add_css_class (where, "dim-label");
  gtk_box_append (GTK_BOX (texts), name);
  gtk_box_append (GTK_BOX (texts), where);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.recover-run");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                          g_variant_new_bytestring (run_dir));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Write the profile of this run, whose Metrograph "
                                         "ended before writing it, and open it"));
  gtk_box_append (GTK_BOX (box), texts);
  gtk_box_append (GTK_BOX (box), button);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);
  return box;
}

void
mg_window_recovery_fill (MgWindow *self)
{
  g_auto (GStrv) runs = mg_run_folder_find_recoverable ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->recover_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->recover_list), child);
  for (guint i = 0; runs[i] != NULL; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->recover_list), make_row (runs[i]));
  gtk_widget_set_visible (self->recover_heading, runs[0] != NULL);
  gtk_widget_set_visible (self->recover_list, runs[0] != NULL);
}

static void
recover_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  g_autoptr (MgRunRecovery) recovery = mg_run_recovery_open (task_data, &error);
  g_autoptr (MgProfile) profile = NULL;
  char *output = NULL;

  /* The frames named and their source kept, as at a run's end. */
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  if (recovery != NULL)
    {
      MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
      MgSourceCollector sources = mg_code_callbacks_sources ();

      mg_run_recovery_set_code (recovery, &namer, &sources, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
      profile = mg_run_recovery_write (recovery, &output, &error);
    }
  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, output, g_free);
}

static void
on_recovered (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MgWindow *self = MG_WINDOW (source);
  g_autoptr (GError) error = NULL;
  g_autofree char *output = g_task_propagate_pointer (G_TASK (result), &error);

  mg_window_recovery_fill (self);
  if (output == NULL)
    {
      mg_window_show_message (self, _("Cannot Recover the Run"), error->message);
      return;
    }
  {
    g_autoptr (GFile) file = g_file_new_for_path (output);

    mg_window_open_file (self, file);
  }
}

static void
on_recover_run (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autoptr (GTask) task = g_task_new (self, NULL, on_recovered, NULL);

  g_task_set_task_data (task, g_variant_dup_bytestring (parameter, NULL), g_free);
  g_task_run_in_thread (task, recover_in_thread);
}

void
mg_window_recovery_init (MgWindow *self)
{
  static const GActionEntry entries[] = {
    { "recover-run", on_recover_run, "ay", NULL, NULL, { 0 } },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  g_signal_connect_swapped (gtk_stack_get_child_by_name (GTK_STACK (self->stack), "start"), "map",
                            G_CALLBACK (mg_window_recovery_fill), self);
}
