/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The partial report files found, in search order, and the reports to
 * show. Search order (the first file with a given report name wins):
 *   1. --reports-path (files or folders, in the order given)
 *   2. $METROGRAPH_REPORTS_PATH (files or folders, ':'-separated)
 *   3. $ALLINEA_PARTIAL_REPORT_SOURCE (a file, or a folder's *.xml in
 *      alphabetical order, not recursive); when unset, instead
 *      $ALLINEA_CONFIG_DIR/perf-report/reports (~/.allinea/perf-report/reports)
 *   4. $XDG_DATA_HOME/metrograph/reports
 *   5. the installed folder: the built-in sections (CPU, MPI, I/O, Memory,
 *      Energy).
 * The report shows the built-in sections first (or the files that replace
 * them by name), then the others in search order. A refused file never
 * stops the others. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-partial-report.h"

G_BEGIN_DECLS

typedef enum {
  MG_REPORT_FILE_USED,
  MG_REPORT_FILE_REFUSED,   /* an error: see the diagnostics */
  MG_REPORT_FILE_SHADOWED,  /* an earlier file has the same report name */
} MgReportFileStatus;

typedef struct {
  char *path;
  char *origin;             /* where in the search order it was found */
  MgReportFileStatus status;
  char *report_name;        /* NULL when refused */
  char *shadowed_by;        /* MG_REPORT_FILE_SHADOWED: the file that wins */
} MgReportFile;

typedef struct {
  GPtrArray *files;         /* MgReportFile*, in search order */
  GPtrArray *reports;       /* MgPartialReport*, in the order the report shows them */
  GPtrArray *diagnostics;   /* MgDiagnostic*, file by file in search order */
} MgReportSet;

/* @cli_paths: --reports-path's files or folders (may be NULL);
 * @installed_dir: the built-in sections' folder (may be NULL). */
MgReportSet *mg_report_set_load (const char *const *cli_paths, const char *installed_dir);
void mg_report_set_free (MgReportSet *set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgReportSet, mg_report_set_free)

G_END_DECLS
