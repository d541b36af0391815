/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-output-name.h"

#include <string.h>

char *
mg_output_name_default (const char *program, guint n_processes, guint n_nodes,
                        GDateTime *start)
{
  return mg_output_name_default_with_threads (program, n_processes, n_nodes, 0, start);
}

char *
mg_output_name_default_with_threads (const char *program, guint n_processes, guint n_nodes,
                                     guint n_threads, GDateTime *start)
{
  g_autofree char *base = g_path_get_basename (program);
  g_autoptr (GDateTime) local = g_date_time_to_local (start);
  g_autofree char *stamp = g_date_time_format (local, "%Y-%m-%d_%H-%M");
  g_autofree char *threads = n_threads > 0 ? g_strdup_printf ("_%ut", n_threads)
                                           : g_strdup ("");

  return g_strdup_printf ("%s_%up_%un%s_%s" MG_PROFILE_SUFFIX, base, n_processes, n_nodes,
                          threads, stamp);
}

guint
mg_output_name_threads_from_environ (const char *const *envp)
{
  const char *value = g_environ_getenv ((char **) envp, "OMP_NUM_THREADS");
  g_autofree char *first = NULL;
  guint64 threads;

  if (value == NULL)
    return 0;
  /* Nested levels are comma-separated: the outermost is the process's own. */
  first = g_strndup (value, strcspn (value, ","));
  g_strstrip (first);
  if (!g_ascii_isdigit (first[0])
      || !g_ascii_string_to_unsigned (first, 10, 1, G_MAXUINT, &threads, NULL))
    return 0;
  return (guint) threads;
}

gboolean
mg_output_name_is_folder (const char *output, const char *base)
{
  g_autofree char *path = NULL;

  if (g_str_has_suffix (output, "/"))
    return TRUE;
  path = base != NULL ? g_canonicalize_filename (output, base) : g_strdup (output);
  return g_file_test (path, G_FILE_TEST_IS_DIR);
}

char *
mg_output_name_choose (const char *output, const char *base, const char *program,
                       guint n_processes, guint n_nodes, guint n_threads, GDateTime *start)
{
  g_autofree char *name = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;

  if (output != NULL && !mg_output_name_is_folder (output, base))
    return base != NULL ? g_canonicalize_filename (output, base) : g_strdup (output);
  name = mg_output_name_default_with_threads (program, n_processes, n_nodes, n_threads, start);
  if (output != NULL)
    folder = base != NULL ? g_canonicalize_filename (output, base) : g_strdup (output);
  else
    folder = g_strdup (base);
  path = folder != NULL ? g_build_filename (folder, name, NULL) : g_steal_pointer (&name);
  return mg_output_name_make_unique (path);
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
