/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The command-line front end: --profile, --list-metrics, --export, --report,
 * --list-reports, --recover, --merge-node, --help, --version. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-cli-message.h"
#include "mg-cli-options.h"
#include "profile/mg-profile.h"
#include "session/mg-run-report.h"

G_BEGIN_DECLS

/* TRUE when argv selects a command-line mode rather than the viewer. */
gboolean mg_cli_wanted (int argc, char **argv);
/* Runs the mode argv selects; returns the process exit status. */
int mg_cli_run (int argc, char **argv);


/* The modes; each returns the exit status. */
int mg_cli_profile (const MgCliOptions *options);
int mg_cli_list_metrics (const MgCliOptions *options);
int mg_cli_export (const MgCliOptions *options);
int mg_cli_report (const MgCliOptions *options);
/* What came of a report (session/mg-run-report.h): its diagnostics and
 * its failure on stderr, its text ("-") on stdout. FALSE when it failed. */
gboolean mg_cli_say_report (const MgRunReport *report);
int mg_cli_list_reports (const MgCliOptions *options);
int mg_cli_recover (const MgCliOptions *options);
int mg_cli_merge_node (const MgCliOptions *options);

G_END_DECLS
