/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-catalogue.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "session/mg-run-catalogue.h"

MgCatalogue *
mg_cli_load_catalogue (const MgCliOptions *options, int *exit_status)
{
  g_autoptr (GError) error = NULL;
  MgCatalogue *catalogue = mg_run_catalogue_load (options->settings, &error);

  *exit_status = 0;
  if (catalogue == NULL)
    {
      mg_cli_print_error ("%s", error->message);
      *exit_status = MG_EXIT_USAGE;
    }
  return catalogue;
}

int
mg_cli_print_toggle_error (const char *message)
{
  mg_cli_print_error (_("%s (see metrograph --list-metrics)"), message);
  return MG_EXIT_METRICS;
}

gboolean
mg_cli_apply_toggles (const MgCliOptions *options, MgCatalogue *catalogue, int *exit_status)
{
  g_autoptr (GError) error = NULL;

  if (mg_run_settings_apply_toggles (options->settings, catalogue, &error))
    return TRUE;
  *exit_status = mg_cli_print_toggle_error (error->message);
  return FALSE;
}

void
mg_cli_print_diagnostics (MgCatalogue *catalogue)
{
  mg_cli_print_diagnostic_list (mg_catalogue_get_diagnostics (catalogue));
}
