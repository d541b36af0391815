/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The catalogue as the command line's options shape it: search path from
 * --metrics-path, toggles from --enable-metrics / --disable-metrics. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-cli-options.h"

G_BEGIN_DECLS

/* NULL after printing the error; *exit_status is then set. */
MgCatalogue *mg_cli_load_catalogue (const MgCliOptions *options, int *exit_status);
/* Prints the definition errors and warnings, one line each, on stderr. */
void mg_cli_print_diagnostics (MgCatalogue *catalogue);

G_END_DECLS
