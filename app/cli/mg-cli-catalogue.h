/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The catalogue as the command line's options shape it (mg-run-catalogue.h:
 * search path from --metrics-path, Score-P plugins), and its errors as the
 * command line says them. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-cli-options.h"

G_BEGIN_DECLS

/* NULL after printing the error; *exit_status is then set. The toggles are
 * not applied: the run applies them (or mg_cli_apply_toggles ()). */
MgCatalogue *mg_cli_load_catalogue (const MgCliOptions *options, int *exit_status);
/* --enable-metrics / --disable-metrics applied; FALSE after printing the
 * error, *exit_status set. */
gboolean mg_cli_apply_toggles (const MgCliOptions *options, MgCatalogue *catalogue,
                               int *exit_status);
/* Says the toggles' error @message (MG_CATALOGUE_ERROR's, from
 * --list-metrics or a run) as the command line does; returns the exit
 * status it takes. */
int mg_cli_print_toggle_error (const char *message);
/* Prints the definition errors and warnings, one line each, on stderr. */
void mg_cli_print_diagnostics (MgCatalogue *catalogue);

G_END_DECLS
