/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-catalogue.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "session/mg-install-paths.h"
#include "session/mg-scorep-defs.h"

MgCatalogue *
mg_cli_load_catalogue (const MgCliOptions *options, int *exit_status)
{
  g_autofree char *installed = mg_install_paths_get_metrics_dir ();
  g_autoptr (MgSearchPath) path = NULL;
  g_autoptr (MgCatalogue) catalogue = NULL;
  g_autoptr (GError) error = NULL;
  const char *const *metrics_path = mg_run_settings_get_metrics_path (options->settings);

  for (guint i = 0; metrics_path[i] != NULL; i++)
    if (!g_file_test (metrics_path[i], G_FILE_TEST_IS_DIR))
      {
        mg_cli_print_error (_("--metrics-path=%s: no such folder (give a folder that holds "
                              "metric definition files)"), metrics_path[i]);
        *exit_status = MG_EXIT_USAGE;
        return NULL;
      }

  path = mg_search_path_new (metrics_path, installed);
  catalogue = mg_catalogue_new ();
  mg_catalogue_load (catalogue, path);
  if (!mg_scorep_defs_add_to_catalogue (catalogue, options->settings, &error))
    {
      mg_cli_print_error ("%s", error->message);
      *exit_status = MG_EXIT_USAGE;
      return NULL;
    }
  if (!mg_catalogue_apply_toggles (catalogue,
                                   mg_run_settings_get_enable_metrics (options->settings),
                                   mg_run_settings_get_disable_metrics (options->settings),
                                   &error))
    {
      mg_cli_print_error (_("%s (see metrograph --list-metrics)"), error->message);
      *exit_status = MG_EXIT_METRICS;
      return NULL;
    }
  *exit_status = 0;
  return g_steal_pointer (&catalogue);
}

void
mg_cli_print_diagnostics (MgCatalogue *catalogue)
{
  GPtrArray *diagnostics = mg_catalogue_get_diagnostics (catalogue);

  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *text = NULL;

      if (d->severity == MG_SEVERITY_NOTE)
        continue;
      text = mg_diagnostic_to_string (d);
      mg_cli_print_error ("%s", text);
    }
}
