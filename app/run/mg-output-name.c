#include "mg-config.h"

#include "mg-output-name.h"

#include <string.h>

char *
mg_output_name_default (const char *program, guint n_processes, guint n_nodes,
                        GDateTime *start)
{
  g_autofree char *base = g_path_get_basename (program);
  g_autoptr (GDateTime) local = g_date_time_to_local (start);
  g_autofree char *stamp = g_date_time_format (local, "%Y-%m-%d_%H-%M");

  return g_strdup_printf ("%s_%up_%un_%s" MG_PROFILE_SUFFIX, base, n_processes, n_nodes, stamp);
}

char *
mg_output_name_make_unique (const char *path)
{
  g_autofree char *stem = NULL;
  const char *suffix;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return g_strdup (path);

  /* Keep the extension of the file name (not of a folder) last. */
  suffix = strrchr (path, '.');
  if (suffix == NULL || strchr (suffix, '/') != NULL || suffix == path
      || suffix[-1] == '/')
    suffix = "";
  stem = g_strndup (path, strlen (path) - strlen (suffix));

  for (guint i = 1;; i++)
    {
      g_autofree char *candidate = g_strdup_printf ("%s-%u%s", stem, i, suffix);

      if (!g_file_test (candidate, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&candidate);
    }
}
