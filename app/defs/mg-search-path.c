/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics search path. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-diagnostic.h"
#include "mg-search-path.h"

struct _MgSearchPath {
  GPtrArray *dirs; /* char*, absolute, NULL-terminated */
};

G_DEFINE_QUARK (mg-search-path-error-quark, mg_search_path_error)

static void
add_dir (MgSearchPath *self, const char *dir)
{
  g_autofree char *absolute = NULL;

  if (dir == NULL || *dir == '\0')
    return;
  absolute = g_canonicalize_filename (dir, NULL);
  for (guint i = 0; i + 1 < self->dirs->len; i++)
    if (strcmp (g_ptr_array_index (self->dirs, i), absolute) == 0)
      return;
  /* Keep the trailing NULL last. */
  g_ptr_array_insert (self->dirs, (int) self->dirs->len - 1, g_steal_pointer (&absolute));
}

static MgSearchPath *
search_path_new_empty (void)
{
  MgSearchPath *self = g_new0 (MgSearchPath, 1);

  self->dirs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->dirs, NULL);
  return self;
}

MgSearchPath *
mg_search_path_new_for_dirs (const char *const *dirs)
{
  MgSearchPath *self = search_path_new_empty ();

  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    add_dir (self, dirs[i]);
  return self;
}

static void
add_environment_dirs (MgSearchPath *self)
{
  const char *list = g_getenv ("METROGRAPH_METRICS_PATH");
  const char *config = g_getenv ("ALLINEA_CONFIG_DIR");
  const char *data_home = g_getenv ("XDG_DATA_HOME");
  g_autofree char *config_metrics = NULL;
  g_autofree char *data_metrics = NULL;

  if (list != NULL)
    {
      g_auto (GStrv) parts = g_strsplit (list, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; parts[i] != NULL; i++)
        add_dir (self, parts[i]);
    }

  if (config != NULL && *config != '\0')
    config_metrics = g_build_filename (config, "map", "metrics", NULL);
  else
    config_metrics = g_build_filename (g_get_home_dir (), ".allinea", "map", "metrics", NULL);
  add_dir (self, config_metrics);

  /* Read XDG_DATA_HOME each time: g_get_user_data_dir() caches it. */
  if (data_home != NULL && g_path_is_absolute (data_home))
    data_metrics = g_build_filename (data_home, "metrograph", "metrics", NULL);
  else
    data_metrics = g_build_filename (g_get_user_data_dir (), "metrograph", "metrics", NULL);
  add_dir (self, data_metrics);
}

MgSearchPath *
mg_search_path_new (const char *const *cli_dirs, const char *installed_dir)
{
  MgSearchPath *self = mg_search_path_new_for_dirs (cli_dirs);

  add_environment_dirs (self);
  add_dir (self, installed_dir);
  return self;
}

void
mg_search_path_free (MgSearchPath *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->dirs);
  g_free (self);
}

const char *const *
mg_search_path_get_dirs (MgSearchPath *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const char *const *) self->dirs->pdata;
}

/* Byte order, so the order does not depend on the locale. */
static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
list_folder (const char *dir, GPtrArray *files, GPtrArray *diagnostics)
{
  g_autoptr (GDir) handle = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return; /* missing folders are normal: most users have no ~/.allinea */
  handle = g_dir_open (dir, 0, &error);
  if (handle == NULL)
    {
      if (diagnostics != NULL)
        mg_diagnostic_add (diagnostics, dir, 0, MG_SEVERITY_WARNING,
                           _("metrics folder skipped: %s"), error->message);
      return;
    }
  while ((name = g_dir_read_name (handle)) != NULL)
    if (g_str_has_suffix (name, ".xml") && name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

GPtrArray *
mg_search_path_list_files (MgSearchPath *self, GPtrArray *diagnostics)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (self != NULL, files);
  for (guint i = 0; i + 1 < self->dirs->len; i++)
    list_folder (g_ptr_array_index (self->dirs, i), files, diagnostics);
  return files;
}

/* @name relative to @dir, refusing anything that leaves @dir. */
static char *
resolve_beside (const char *dir, const char *name, GError **error)
{
  g_autofree char *candidate = NULL;
  g_autofree char *prefix = NULL;

  if (g_path_is_absolute (name))
    {
      g_set_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_ESCAPES,
                   _("'%s' is an absolute path; name a file in the folder of the definition "
                     "file (%s) instead"), name, dir);
      return NULL;
    }
  candidate = g_canonicalize_filename (name, dir);
  prefix = g_str_has_suffix (dir, G_DIR_SEPARATOR_S) ? g_strdup (dir)
                                                      : g_strconcat (dir, G_DIR_SEPARATOR_S, NULL);
  if (!g_str_has_prefix (candidate, prefix))
    {
      g_set_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_ESCAPES,
                   _("'%s' leaves the folder of the definition file (%s); put the library in "
                     "that folder and name it without '..'"), name, dir);
      return NULL;
    }
  return g_steal_pointer (&candidate);
}

char *
mg_search_path_resolve (MgSearchPath *self, const char *definition_file, const char *name,
                        GError **error)
{
  g_autofree char *file_dir = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *beside = NULL;

  g_return_val_if_fail (self != NULL && definition_file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (name == NULL || *name == '\0')
    {
      g_set_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_INVALID,
                   _("the library name is empty"));
      return NULL;
    }
  file_dir = g_path_get_dirname (definition_file);
  dir = g_canonicalize_filename (file_dir, NULL);
  beside = resolve_beside (dir, name, error);
  if (beside == NULL)
    return NULL;
  if (g_file_test (beside, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&beside);

  if (strchr (name, G_DIR_SEPARATOR) == NULL)
    for (guint i = 0; i + 1 < self->dirs->len; i++)
      {
        g_autofree char *other = g_build_filename (g_ptr_array_index (self->dirs, i), name, NULL);

        if (g_file_test (other, G_FILE_TEST_EXISTS))
          return g_steal_pointer (&other);
      }

  g_set_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_NOT_FOUND,
               _("'%s' was not found beside the definition file (%s) or in the metrics "
                 "folders; build the plugin and install it next to its .xml file"), name, dir);
  return NULL;
}
