/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Finding and loading partial report files. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "defs/mg-diagnostic.h"
#include "mg-report-set.h"
#include "defs/mg-search-path.h"

/* The origin of the built-in sections' folder (--list-reports shows it). */
#define ORIGIN_INSTALLED "installed"

typedef struct {
  GPtrArray *files;   /* MgReportFile* */
  GHashTable *seen;   /* canonical path → TRUE */
  GPtrArray *diagnostics;
} Search;

static void
report_file_free (MgReportFile *file)
{
  g_free (file->path);
  g_free (file->origin);
  g_free (file->report_name);
  g_free (file->shadowed_by);
  g_free (file);
}

static void
add_file (Search *search, const char *path, const char *origin)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  MgReportFile *file;

  if (g_hash_table_contains (search->seen, absolute))
    return;
  file = g_new0 (MgReportFile, 1);
  file->path = g_strdup (absolute);
  file->origin = g_strdup (origin);
  g_ptr_array_add (search->files, file);
  g_hash_table_add (search->seen, g_steal_pointer (&absolute));
}

/* A file, or a folder's *.xml in alphabetical order (the search path's
 * listing). @must_exist: named by the user, so a missing one is said. */
static void
add_location (Search *search, const char *location, const char *origin, gboolean must_exist)
{
  if (location == NULL || *location == '\0')
    return;
  if (g_file_test (location, G_FILE_TEST_IS_DIR))
    {
      const char *dirs[] = { location, NULL };
      g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
      g_autoptr (GPtrArray) files = mg_search_path_list_files (path, search->diagnostics);

      for (guint i = 0; i < files->len; i++)
        add_file (search, g_ptr_array_index (files, i), origin);
    }
  else if (g_file_test (location, G_FILE_TEST_IS_REGULAR))
    add_file (search, location, origin);
  else if (must_exist)
    mg_diagnostic_add (search->diagnostics, location, 0, MG_SEVERITY_WARNING,
                       _("partial report location from %s not found: give an existing file "
                         "or folder"), origin);
}

static void
add_list (Search *search, const char *list, const char *origin)
{
  g_auto (GStrv) parts = NULL;

  if (list == NULL)
    return;
  parts = g_strsplit (list, G_SEARCHPATH_SEPARATOR_S, -1);
  for (guint i = 0; parts[i] != NULL; i++)
    add_location (search, parts[i], origin, TRUE);
}

static void
add_allinea (Search *search)
{
  const char *source = g_getenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
  const char *config = g_getenv ("ALLINEA_CONFIG_DIR");
  g_autofree char *dir = NULL;

  if (source != NULL && *source != '\0')
    {
      add_location (search, source, "ALLINEA_PARTIAL_REPORT_SOURCE", TRUE);
      return;
    }
  /* The origin says which one: the variable only when it is set. */
  if (config != NULL && *config != '\0')
    {
      dir = g_build_filename (config, "perf-report", "reports", NULL);
      add_location (search, dir, "ALLINEA_CONFIG_DIR", FALSE);
      return;
    }
  dir = g_build_filename (g_get_home_dir (), ".allinea", "perf-report", "reports", NULL);
  add_location (search, dir, "~/.allinea, ALLINEA_CONFIG_DIR unset", FALSE);
}

static void
add_xdg (Search *search)
{
  const char *data_home = g_getenv ("XDG_DATA_HOME");
  g_autofree char *dir = NULL;

  /* Read XDG_DATA_HOME each time: g_get_user_data_dir() caches it. */
  if (data_home != NULL && g_path_is_absolute (data_home))
    {
      dir = g_build_filename (data_home, "metrograph", "reports", NULL);
      add_location (search, dir, "XDG_DATA_HOME", FALSE);
      return;
    }
  dir = g_build_filename (g_get_user_data_dir (), "metrograph", "reports", NULL);
  add_location (search, dir, "~/.local/share, XDG_DATA_HOME unset", FALSE);
}

static MgPartialReport *
find_report (GPtrArray *reports, const char *name)
{
  for (guint i = 0; i < reports->len; i++)
    {
      MgPartialReport *report = g_ptr_array_index (reports, i);

      if (g_strcmp0 (report->name, name) == 0)
        return report;
    }
  return NULL;
}

/* Loads each file; the first of a name wins. Returns the reports in search
 * order. */
static GPtrArray *
load_files (GPtrArray *files, GPtrArray *diagnostics)
{
  GPtrArray *reports = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_partial_report_free);

  for (guint i = 0; i < files->len; i++)
    {
      MgReportFile *file = g_ptr_array_index (files, i);
      MgPartialReport *report = mg_partial_report_load (file->path, diagnostics);
      MgPartialReport *earlier;

      if (report == NULL)
        {
          file->status = MG_REPORT_FILE_REFUSED;
          continue;
        }
      file->report_name = g_strdup (report->name);
      report->builtin = g_strcmp0 (file->origin, ORIGIN_INSTALLED) == 0;
      if (report->builtin)
        mg_partial_report_translate (report, GETTEXT_PACKAGE);
      earlier = find_report (reports, report->name);
      if (earlier != NULL)
        {
          file->status = MG_REPORT_FILE_SHADOWED;
          file->shadowed_by = g_strdup (earlier->file);
          mg_diagnostic_add (diagnostics, file->path, 0, MG_SEVERITY_NOTE,
                             _("not used: %s, found earlier, has the same report name '%s'"),
                             earlier->file, report->name);
          mg_partial_report_free (report);
          continue;
        }
      g_ptr_array_add (reports, report);
    }
  return reports;
}

/* Built-in sections (by the names of the installed files) first. */
static GPtrArray *
order_for_showing (GPtrArray *files, GPtrArray *loaded)
{
  GPtrArray *shown = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_partial_report_free);

  for (guint i = 0; i < files->len; i++)
    {
      MgReportFile *file = g_ptr_array_index (files, i);
      MgPartialReport *report;

      if (strcmp (file->origin, ORIGIN_INSTALLED) != 0 || file->report_name == NULL)
        continue;
      report = find_report (loaded, file->report_name);
      if (report != NULL && find_report (shown, report->name) == NULL)
        {
          g_ptr_array_add (shown, report);
          g_ptr_array_remove (loaded, report); /* no free: its free func is unset */
        }
    }
  for (guint i = 0; i < loaded->len; i++)
    g_ptr_array_add (shown, g_ptr_array_index (loaded, i));
  return shown;
}

MgReportSet *
mg_report_set_load (const char *const *cli_paths, const char *installed_dir)
{
  MgReportSet *set = g_new0 (MgReportSet, 1);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Search search = { NULL, seen, NULL };
  g_autoptr (GPtrArray) loaded = NULL;

  set->files = g_ptr_array_new_with_free_func ((GDestroyNotify) report_file_free);
  set->diagnostics = mg_diagnostic_list_new ();
  search.files = set->files;
  search.diagnostics = set->diagnostics;

  for (guint i = 0; cli_paths != NULL && cli_paths[i] != NULL; i++)
    add_location (&search, cli_paths[i], "--reports-path", TRUE);
  add_list (&search, g_getenv ("METROGRAPH_REPORTS_PATH"), "METROGRAPH_REPORTS_PATH");
  add_allinea (&search);
  add_xdg (&search);
  add_location (&search, installed_dir, ORIGIN_INSTALLED, FALSE);

  loaded = load_files (set->files, set->diagnostics);
  /* The reports move to the shown list, which owns them. */
  g_ptr_array_set_free_func (loaded, NULL);
  set->reports = order_for_showing (set->files, loaded);
  return set;
}

void
mg_report_set_free (MgReportSet *set)
{
  if (set == NULL)
    return;
  g_ptr_array_unref (set->files);
  g_ptr_array_unref (set->reports);
  g_ptr_array_unref (set->diagnostics);
  g_free (set);
}
