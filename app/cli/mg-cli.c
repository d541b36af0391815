/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "session/mg-launcher.h"

gboolean
mg_cli_wanted (int argc, char **argv)
{
  return mg_cli_options_wanted (argc, argv);
}

int
mg_cli_run (int argc, char **argv)
{
  g_autoptr (MgCliOptions) options = NULL;
  g_autoptr (GError) error = NULL;

  options = mg_cli_options_parse (argc, argv, &error);
  if (options == NULL)
    {
      mg_cli_print_error (_("%s (see metrograph --help)"), error->message);
      return MG_EXIT_USAGE;
    }

  switch (options->mode)
    {
    case MG_CLI_MODE_PROFILE:
      /* Before anything can start a thread: the launcher alone then
       * receives the signals it forwards, whichever thread exists. */
      mg_launcher_block_signals ();
      return mg_cli_profile (options);
    case MG_CLI_MODE_LIST_METRICS:
      return mg_cli_list_metrics (options);
    case MG_CLI_MODE_EXPORT:
      return mg_cli_export (options);
    case MG_CLI_MODE_REPORT:
      return mg_cli_report (options);
    case MG_CLI_MODE_LIST_REPORTS:
      return mg_cli_list_reports (options);
    case MG_CLI_MODE_RECOVER:
      return mg_cli_recover (options);
    case MG_CLI_MODE_MERGE_NODE:
      return mg_cli_merge_node (options);
    case MG_CLI_MODE_VERSION:
      printf ("metrograph %s\n", MG_VERSION);
      return 0;
    case MG_CLI_MODE_NONE:
    default:
      return 0;
    }
}
