/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The command line's options: parsed with GOptionContext in strict POSIX
 * order, so everything after the profiled program belongs to it. */
#pragma once

#include <glib.h>

#include "session/mg-run-settings.h"

G_BEGIN_DECLS

/* Exit statuses of Metrograph's own errors (docs/cli.md). */
enum {
  MG_EXIT_USAGE = 2,
  MG_EXIT_METRICS = 3,
  MG_EXIT_LAUNCH = 4,
  MG_EXIT_NO_SAMPLES = 5,
  MG_EXIT_PROFILE_FILE = 6,
};

typedef enum {
  MG_CLI_MODE_NONE,
  MG_CLI_MODE_PROFILE,
  MG_CLI_MODE_LIST_METRICS,
  MG_CLI_MODE_EXPORT,
  MG_CLI_MODE_REPORT,
  MG_CLI_MODE_LIST_REPORTS,
  MG_CLI_MODE_RECOVER,
  MG_CLI_MODE_MERGE_NODE,
  MG_CLI_MODE_VERSION,
} MgCliMode;

typedef struct {
  MgCliMode mode;
  /* --profile's options (mg-run-options.h), and with --profile the program
   * and its arguments; --list-metrics reads the metric options. */
  MgRunSettings *settings;
  char *export_file;
  char *range;            /* --range=START-END (with --export), as given */
  double range_start;     /* parsed: seconds from the run's start */
  double range_end;       /* INFINITY: to the end */
  char *processes;        /* --processes=LIST (with --export), as given */
  char *processes_list;   /* the same in canonical form (mg-rank-list.h) */
  gboolean report;        /* --report given (the table's option, in the settings) */
  char *report_file;      /* --report=FILE PROFILE: .txt, .html or "-"; NULL: both beside it */
  GStrv reports_path;     /* --reports-path, in the order given */
  char *baseline_file;    /* --baseline: a profile to compare the report with */
  char *recover_dir;      /* --recover: a run folder whose front end ended */
  char *merge_node_dir;   /* --merge-node: a run folder whose records of this node to reduce */
  GStrv rest;             /* the program and its arguments, or the profile to export */
  gboolean verbose;       /* --profile: every plugin and metric error in full */
} MgCliOptions;

/* TRUE when argv asks for a command-line mode rather than the viewer: any
 * option before the first other argument. */
gboolean mg_cli_options_wanted (int argc, char **argv);

/* Parses and checks argv; on error sets a message (without "metrograph: ")
 * for a usage error. --help is printed here and gives mode NONE. */
MgCliOptions *mg_cli_options_parse (int argc, char **argv, GError **error);
void mg_cli_options_free (MgCliOptions *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCliOptions, mg_cli_options_free)

G_END_DECLS
