/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Loading a profile in a worker thread. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-profile-loader.h"

static void
load_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autofree char *path = g_file_get_path (file);
  GError *error = NULL;
  MgProfile *profile;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("“%s” is not a local file; copy it to this computer first."), uri);
      return;
    }
  profile = mg_profile_load (path, &error);
  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profile, g_object_unref);
}

void
mg_profile_loader_load_async (GFile *file, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, mg_profile_loader_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_in_thread);
}

MgProfile *
mg_profile_loader_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

GFile *
mg_profile_loader_get_file (GAsyncResult *result)
{
  return g_task_get_task_data (G_TASK (result));
}
