/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-source-find.h"

GBytes *
mg_source_lookup_disk (const char *path, gpointer user_data, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  return g_file_load_bytes (file, NULL, NULL, error);
}

char *
mg_source_map_to_folder (const char *path, const char *folder)
{
  g_auto (GStrv) parts = NULL;
  guint n;

  if (path == NULL || folder == NULL || folder[0] == '\0')
    return NULL;
  parts = g_strsplit (path, G_DIR_SEPARATOR_S, -1);
  n = g_strv_length (parts);
  /* The longest tail first: the one most likely the same file. */
  for (guint from = 0; from < n; from++)
    {
      if (parts[from][0] == '\0')
        continue;
      g_autofree char *tail = g_strjoinv (G_DIR_SEPARATOR_S, parts + from);
      g_autofree char *candidate = g_build_filename (folder, tail, NULL);
      if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&candidate);
    }
  return NULL;
}

GBytes *
mg_source_find (const char *path, MgSourceLookupFunc lookup, gpointer user_data,
                const char *folder, char **found_at, GError **error)
{
  g_autoptr (GError) lookup_error = NULL;
  GBytes *text = lookup (path, user_data, &lookup_error);

  if (text)
    {
      *found_at = g_strdup (path);
      return text;
    }
  g_autofree char *mapped = mg_source_map_to_folder (path, folder);
  if (mapped)
    {
      g_autoptr (GFile) file = g_file_new_for_path (mapped);
      text = g_file_load_bytes (file, NULL, NULL, NULL);
      if (text)
        {
          *found_at = g_steal_pointer (&mapped);
          return text;
        }
    }
  *found_at = NULL;
  g_propagate_error (error, g_steal_pointer (&lookup_error));
  return NULL;
}
