/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-catalogue.h"

#include <glib/gi18n.h>

#include "mg-install-paths.h"
#include "mg-scorep-defs.h"

G_DEFINE_QUARK (mg-run-catalogue-error-quark, mg_run_catalogue_error)

MgCatalogue *
mg_run_catalogue_load_definitions (const char *const *metrics_path)
{
  g_autofree char *installed = mg_install_paths_get_metrics_dir ();
  g_autoptr (MgSearchPath) path = mg_search_path_new (metrics_path, installed);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

MgCatalogue *
mg_run_catalogue_load (MgRunSettings *settings, GError **error)
{
  const char *const *metrics_path = mg_run_settings_get_metrics_path (settings);
  g_autoptr (MgCatalogue) catalogue = NULL;

  for (guint i = 0; metrics_path != NULL && metrics_path[i] != NULL; i++)
    if (!g_file_test (metrics_path[i], G_FILE_TEST_IS_DIR))
      {
        g_set_error (error, MG_RUN_CATALOGUE_ERROR, MG_RUN_CATALOGUE_ERROR_NO_FOLDER,
                     _("--metrics-path=%s: no such folder (give a folder that holds metric "
                       "definition files)"),
                     metrics_path[i]);
        return NULL;
      }
  catalogue = mg_run_catalogue_load_definitions (metrics_path);
  if (!mg_scorep_defs_add_to_catalogue (catalogue, settings, error))
    return NULL;
  return g_steal_pointer (&catalogue);
}

gboolean
mg_run_settings_apply_toggles (MgRunSettings *self, MgCatalogue *catalogue, GError **error)
{
  return mg_catalogue_apply_toggles (catalogue, mg_run_settings_get_enable_metrics (self),
                                     mg_run_settings_get_disable_metrics (self), error);
}

MgCatalogue *
mg_run_catalogue_for_run (MgRunSettings *settings, MgCatalogue *catalogue, GError **error)
{
  g_autoptr (MgCatalogue) run =
    catalogue != NULL ? g_object_ref (catalogue) : mg_run_catalogue_load (settings, error);

  if (run == NULL || !mg_run_settings_apply_toggles (settings, run, error))
    return NULL;
  return g_steal_pointer (&run);
}
