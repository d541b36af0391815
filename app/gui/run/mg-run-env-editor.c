/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-env-editor.h"

#include <glib/gi18n.h>
#include <string.h>
#include "gui/mg-tooltip.h"

struct _MgRunEnvEditor
{
  GObject parent_instance;

  GtkListBox *list;
  MgRunSettings *settings;
  gboolean syncing;            /* rows rebuilt from the settings: no echo */
};

G_DEFINE_FINAL_TYPE (MgRunEnvEditor, mg_run_env_editor, G_TYPE_OBJECT)

static const char *
entry_text (GtkWidget *entry)
{
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

/* "NAME=value" sets, "-NAME" removes; anything else goes to env-set, where
 * the check explains it. */
static void
read_environment (MgRunEnvEditor *self)
{
  g_autoptr (GStrvBuilder) set = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) unset = g_strv_builder_new ();
  g_auto (GStrv) set_v = NULL, unset_v = NULL;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *entry = g_object_get_data (G_OBJECT (row), "entry");
      g_autofree char *text = entry != NULL ? g_strstrip (g_strdup (entry_text (entry))) : NULL;

      if (text == NULL || *text == '\0')
        continue;
      if (text[0] == '-' && strchr (text, '=') == NULL)
        g_strv_builder_add (unset, text + 1);
      else
        g_strv_builder_add (set, text);
    }
  set_v = g_strv_builder_end (set);
  unset_v = g_strv_builder_end (unset);
  g_object_freeze_notify (G_OBJECT (self->settings));
  mg_run_settings_set_env_set (self->settings, (const char *const *) set_v);
  mg_run_settings_set_env_unset (self->settings, (const char *const *) unset_v);
  g_object_thaw_notify (G_OBJECT (self->settings));
}

static void
on_variable_changed (MgRunEnvEditor *self)
{
  if (!self->syncing)
    read_environment (self);
}

static void
on_remove_variable (GtkButton *button, MgRunEnvEditor *self)
{
  GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_LIST_BOX_ROW);

  gtk_list_box_remove (self->list, row);
  gtk_widget_set_visible (GTK_WIDGET (self->list),
                          gtk_widget_get_first_child (GTK_WIDGET (self->list)) != NULL);
  read_environment (self);
}

static GtkWidget *
append_variable_row (MgRunEnvEditor *self, const char *text)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("NAME=value to set, -NAME to remove"));
  gtk_editable_set_text (GTK_EDITABLE (entry), text != NULL ? text : "");
  gtk_widget_add_css_class (entry, "monospace");
  gtk_widget_set_tooltip_text (remove, _("Remove This Variable"));
  mg_tooltip_name_icon_button (remove);
  gtk_widget_add_css_class (remove, "flat");
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), remove);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "entry", entry);
  g_signal_connect_swapped (entry, "changed", G_CALLBACK (on_variable_changed), self);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_variable), self);
  gtk_list_box_append (self->list, row);
  gtk_widget_set_visible (GTK_WIDGET (self->list), TRUE);
  return entry;
}

GtkWidget *
mg_run_env_editor_add (MgRunEnvEditor *self, const char *text)
{
  GtkWidget *entry = append_variable_row (self, text);

  read_environment (self);
  return entry;
}

/* Rebuilt only when the settings say something else than the rows. */
void
mg_run_env_editor_sync (MgRunEnvEditor *self)
{
  const char *const *set = mg_run_settings_get_env_set (self->settings);
  const char *const *unset = mg_run_settings_get_env_unset (self->settings);
  g_autoptr (GStrvBuilder) want = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) have = g_strv_builder_new ();
  g_auto (GStrv) want_v = NULL, have_v = NULL;
  GtkWidget *row;

  for (guint i = 0; unset[i] != NULL; i++)
    {
      g_autofree char *entry = g_strconcat ("-", unset[i], NULL);

      g_strv_builder_add (want, entry);
    }
  g_strv_builder_addv (want, (const char **) set);
  for (row = gtk_widget_get_first_child (GTK_WIDGET (self->list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *entry = g_object_get_data (G_OBJECT (row), "entry");
      g_autofree char *text = entry != NULL ? g_strstrip (g_strdup (entry_text (entry))) : NULL;

      if (text != NULL && *text != '\0')
        g_strv_builder_add (have, text);
    }
  want_v = g_strv_builder_end (want);
  have_v = g_strv_builder_end (have);
  /* Same entries in another order (unset first) are the same settings. */
  if (g_strv_length (want_v) == g_strv_length (have_v))
    {
      gboolean same = TRUE;

      for (guint i = 0; want_v[i] != NULL && same; i++)
        same = g_strv_contains ((const char *const *) have_v, want_v[i]);
      if (same)
        return;
    }
  self->syncing = TRUE;
  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, row);
  for (guint i = 0; want_v[i] != NULL; i++)
    append_variable_row (self, want_v[i]);
  self->syncing = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->list), want_v[0] != NULL);
}

static void
mg_run_env_editor_finalize (GObject *object)
{
  g_clear_object (&MG_RUN_ENV_EDITOR (object)->settings);
  G_OBJECT_CLASS (mg_run_env_editor_parent_class)->finalize (object);
}

static void
mg_run_env_editor_class_init (MgRunEnvEditorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_run_env_editor_finalize;
}

static void
mg_run_env_editor_init (MgRunEnvEditor *self)
{
}

MgRunEnvEditor *
mg_run_env_editor_new (GtkListBox *list, MgRunSettings *settings)
{
  MgRunEnvEditor *self = g_object_new (MG_TYPE_RUN_ENV_EDITOR, NULL);

  self->list = list;
  self->settings = g_object_ref (settings);
  return self;
}
