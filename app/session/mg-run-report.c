/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-report.h"

#include <glib/gi18n.h>

#include "mg-install-paths.h"
#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"

void
mg_run_report_clear (MgRunReport *report)
{
  g_clear_pointer (&report->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&report->text, g_free);
  g_clear_error (&report->error);
}

/* --baseline: the same partial reports over the older profile. */
static gboolean
compare_with_baseline (MgReport *report, const char *baseline_file, MgReportSet *set,
                       const MgStackNamer *namer, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (MgProfile) old = mg_profile_load (baseline_file, &local_error);
  g_autoptr (MgReport) baseline = NULL;

  if (old == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("cannot read the baseline: %s (give a .mgprof file written by "
                     "metrograph --profile)"), local_error->message);
      return FALSE;
    }
  baseline = mg_report_new_named (old, baseline_file, set->reports, namer);
  mg_report_compare (report, baseline, baseline_file);
  return TRUE;
}

gboolean
mg_run_report_write (MgProfile *profile, const char *profile_path,
                     const MgRunReportRequest *request, MgRunReport *report)
{
  g_autofree char *installed = NULL;
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReport) written = NULL;
  g_autoptr (GError) error = NULL;

  if (request->file == NULL)
    return TRUE;
  installed = mg_install_paths_get_reports_dir ();
  set = mg_report_set_load (request->paths, installed);
  report->diagnostics = g_ptr_array_ref (set->diagnostics);
  written = mg_report_new_named (profile, profile_path, set->reports, request->namer);
  if (request->baseline != NULL
      && !compare_with_baseline (written, request->baseline, set, request->namer,
                                 &report->error))
    return FALSE;
  if (g_strcmp0 (request->file, "-") == 0)
    {
      report->text = mg_report_to_text (written);
      return TRUE;
    }
  if (mg_report_save_for_profile (written, profile_path, request->file, &error))
    return TRUE;
  g_set_error (&report->error, error->domain, error->code,
               _("cannot write the report: %s (check that its folder exists and is writable)"),
               error->message);
  return FALSE;
}
