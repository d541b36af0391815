/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The performance report of a saved profile, as --report writes it: the
 * built-in partial reports and those the user named, compared with a
 * baseline profile when one is given, saved as the settings' report says
 * (mg_run_settings_get_report ()). Written at the run's end for both front
 * ends (mg-run-end.h) and by `metrograph --report PROFILE`. Standard output
 * is the command line's alone: "-" gives the text back to be printed.
 * GTK-free, on any thread. */
#pragma once

#include <gio/gio.h>

#include "profile/mg-profile.h"
#include "profile/mg-stack-namer.h"

G_BEGIN_DECLS

/* What the report is made with besides the profile. */
typedef struct {
  const char *file;               /* NULL: none; "": .txt and .html beside the profile;
                                   * "-": the text given back; else that file */
  const char *const *paths;       /* more partial report locations (--reports-path) */
  const char *baseline;           /* a profile to compare with (--baseline), or NULL */
  const MgStackNamer *namer;      /* names the call stacks' frames; NULL: module + offset */
} MgRunReportRequest;

/* What came of it. */
typedef struct {
  GPtrArray *diagnostics;         /* MgDiagnostic*: partial report files left out */
  char *text;                     /* file "-": the report's text, to be printed */
  GError *error;                  /* the report was not written, and why */
} MgRunReport;

void mg_run_report_clear (MgRunReport *report);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MgRunReport, mg_run_report_clear)

/* Writes the report of @profile, saved at @profile_path, as @request asks
 * (nothing when its file is NULL) into @report: FALSE with @report->error
 * set when the baseline cannot be read or the report cannot be written.
 * Problems with partial report files go into @report->diagnostics; the
 * report is written with the files that are fine. */
gboolean mg_run_report_write (MgProfile *profile, const char *profile_path,
                              const MgRunReportRequest *request, MgRunReport *report);

G_END_DECLS
