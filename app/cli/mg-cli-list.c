/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --list-metrics: the catalogue's text on stdout. */
#include "mg-config.h"

#include <stdio.h>

#include "mg-cli-catalogue.h"
#include "mg-cli.h"
#include "defs/mg-metrics-list.h"

int
mg_cli_list_metrics (const MgCliOptions *options)
{
  g_autoptr (MgCatalogue) catalogue = NULL;
  g_autofree char *text = NULL;
  int status = 0;

  catalogue = mg_cli_load_catalogue (options, &status);
  if (catalogue == NULL || !mg_cli_apply_toggles (options, catalogue, &status))
    return status;
  text = mg_metrics_list_format (catalogue);
  fputs (text, stdout);
  return 0;
}
