/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-record-folder.h"

#include <string.h>

#include "mg-node-summary.h"
#include "mg-record-reader.h"

/* The processes of one summary; FALSE when func stopped. */
static gboolean
foreach_in_summary (const char *path, MgRecordHeaderFunc func, gpointer data)
{
  g_autoptr (MgNodeSummary) summary = mg_node_summary_open (path, NULL);

  for (guint i = 0; summary != NULL && i < mg_node_summary_get_n_processes (summary); i++)
    if (!func (path, mg_node_summary_get_header (summary, i), data))
      return FALSE;
  return TRUE;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
is_listed (const char *name, MgRecordFolderFiles files)
{
  return ((files & MG_RECORD_FOLDER_RECORDS) && g_str_has_suffix (name, MG_RECORD_SUFFIX))
         || ((files & MG_RECORD_FOLDER_SUMMARIES) && g_str_has_suffix (name, MG_NODE_SUMMARY_SUFFIX));
}

GPtrArray *
mg_record_folder_list (const char *record_dir, MgRecordFolderFiles files, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (record_dir, 0, error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return NULL;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (is_listed (name, files))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return g_steal_pointer (&names);
}

void
mg_record_folder_foreach (const char *record_dir, MgRecordHeaderFunc func, gpointer data)
{
  g_autoptr (GDir) dir = g_dir_open (record_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (record_dir, name, NULL);
      MgRecordHeader header;

      if (g_str_has_suffix (name, MG_NODE_SUMMARY_SUFFIX))
        {
          if (!foreach_in_summary (path, func, data))
            return;
          continue;
        }
      if (!g_str_has_suffix (name, MG_RECORD_SUFFIX)
          || !mg_record_file_read_header (path, &header, NULL)) /* checks the strings end */
        continue;
      if (!func (path, &header, data))
        return;
    }
}
