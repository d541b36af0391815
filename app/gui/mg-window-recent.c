/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window's recent profiles: listed on the start page, and each
 * profile opened added to the desktop's recent files. */
#include "mg-config.h"

#include "mg-file-choosers.h"
#include "mg-recent-list.h"
#include "mg-window-internal.h"

static void
on_recent_activated (GtkListBox *list, GtkListBoxRow *row, gpointer user_data)
{
  MgWindow *self = user_data;
  const char *uri = mg_recent_list_row_get_uri (row);
  g_autoptr (GFile) file = g_file_new_for_uri (uri);

  mg_window_open_file (self, file);
}

static void
fill_recent_list (MgWindow *self)
{
  guint n = mg_recent_list_fill (GTK_LIST_BOX (self->recent_list));

  gtk_widget_set_visible (self->recent_heading, n > 0);
  gtk_widget_set_visible (self->recent_list, n > 0);
  self->recent_stale = FALSE;
}

static void
on_recent_changed (MgWindow *self)
{
  if (gtk_widget_get_mapped (self->recent_list) || gtk_widget_get_mapped (self->recent_heading)
      || gtk_widget_get_mapped (gtk_stack_get_child_by_name (GTK_STACK (self->stack), "start")))
    fill_recent_list (self);
  else
    self->recent_stale = TRUE;
}

/* The recent profiles are read when the start page is shown, not with
 * every window: a window opening a file never shows it, and the desktop's
 * list of recent files (every application's) can be long to read. */
static void
on_start_page_map (MgWindow *self)
{
  if (!self->recent_watched)
    {
      self->recent_watched = TRUE;
      g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                               G_CALLBACK (on_recent_changed), self, G_CONNECT_SWAPPED);
      fill_recent_list (self);
    }
  else if (self->recent_stale)
    fill_recent_list (self);
}

static gboolean
add_recent (gpointer user_data)
{
  MgWindow *self = user_data;
  GtkRecentData data = { 0 };

  self->recent_idle = 0;
  data.mime_type = (char *) MG_PROFILE_MIME_TYPE;
  data.app_name = (char *) "Metrograph";
  data.app_exec = (char *) "metrograph %f";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), self->recent_uri, &data);
  g_clear_pointer (&self->recent_uri, g_free);
  return G_SOURCE_REMOVE;
}

/* Into the desktop's recent files once the profile is drawn (reading and
 * writing that list is no part of showing the profile). */
void
mg_window_recent_remember (MgWindow *self, GFile *file)
{
  g_free (self->recent_uri);
  self->recent_uri = g_file_get_uri (file);
  if (self->recent_idle == 0)
    self->recent_idle = g_idle_add_full (G_PRIORITY_LOW, add_recent, self, NULL);
}

void
mg_window_recent_flush (MgWindow *self)
{
  if (self->recent_idle != 0)
    {
      g_clear_handle_id (&self->recent_idle, g_source_remove);
      add_recent (self);
    }
}

void
mg_window_recent_init (MgWindow *self)
{
  g_signal_connect (self->recent_list, "row-activated", G_CALLBACK (on_recent_activated), self);
  g_signal_connect_swapped (gtk_stack_get_child_by_name (GTK_STACK (self->stack), "start"), "map",
                            G_CALLBACK (on_start_page_map), self);
}
