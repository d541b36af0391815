/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --report PROFILE and --list-reports: the performance report of a profile
 * (written as at a run's end, session/mg-run-report.h) and the partial
 * report files it is made with. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "mg-cli.h"
#include "defs/mg-diagnostic.h"
#include "session/mg-install-paths.h"
#include "symbols/mg-code-callbacks.h"
#include "session/mg-run-report.h"
#include "report/mg-report-set.h"

static MgReportSet *
load_reports (const MgCliOptions *options)
{
  g_autofree char *installed = mg_install_paths_get_reports_dir ();

  return mg_report_set_load ((const char *const *) options->reports_path, installed);
}

gboolean
mg_cli_say_report (const MgRunReport *report)
{
  /* Problems with partial report files go to stderr; the report is
   * written with the files that are fine. */
  if (report->diagnostics != NULL)
    mg_cli_print_diagnostic_list (report->diagnostics);
  if (report->error != NULL)
    {
      mg_cli_print_error ("%s", report->error->message);
      return FALSE;
    }
  if (report->text == NULL)
    return TRUE;
  fputs (report->text, stdout);
  return fflush (stdout) == 0;
}

int
mg_cli_report (const MgCliOptions *options)
{
  const char *input = options->rest[0];
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (MgRunReport) report = { 0 };
  /* One symboliser names the frames of "Where the time went". */
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  MgRunReportRequest request = {
    .file = options->report_file != NULL ? options->report_file : "",
    .paths = (const char *const *) options->reports_path,
    .baseline = options->baseline_file,
    .namer = &namer,
  };

  profile = mg_profile_load (input, &error);
  if (profile == NULL)
    {
      mg_cli_print_profile_error (input, error);
      return MG_EXIT_PROFILE_FILE;
    }
  mg_run_report_write (profile, input, &request, &report);
  return mg_cli_say_report (&report) ? 0 : MG_EXIT_PROFILE_FILE;
}

static const char *
status_text (const MgReportFile *file)
{
  switch (file->status)
    {
    case MG_REPORT_FILE_USED:
      return _("used");
    case MG_REPORT_FILE_SHADOWED:
      return _("not used: an earlier file has the same report name");
    case MG_REPORT_FILE_REFUSED:
    default:
      return _("refused");
    }
}

int
mg_cli_list_reports (const MgCliOptions *options)
{
  g_autoptr (MgReportSet) set = load_reports (options);

  if (set->files->len == 0)
    printf ("%s\n", _("No partial report files were found."));
  for (guint i = 0; i < set->files->len; i++)
    {
      const MgReportFile *file = g_ptr_array_index (set->files, i);

      /* TRANSLATORS: "1. /path/report.xml (from ALLINEA_CONFIG_DIR): used" */
      printf (_("%u. %s (from %s): %s"), i + 1, file->path, file->origin, status_text (file));
      if (file->report_name != NULL)
        printf (" [%s]", file->report_name);
      putchar ('\n');
      for (guint j = 0; j < set->diagnostics->len; j++)
        {
          const MgDiagnostic *d = g_ptr_array_index (set->diagnostics, j);
          g_autofree char *text = NULL;

          if (g_strcmp0 (d->file, file->path) != 0)
            continue;
          text = mg_diagnostic_to_string (d);
          printf ("   %s\n", text);
        }
    }
  /* Locations named by the user that were not found. */
  for (guint j = 0; j < set->diagnostics->len; j++)
    {
      const MgDiagnostic *d = g_ptr_array_index (set->diagnostics, j);
      gboolean listed = FALSE;

      for (guint i = 0; i < set->files->len && !listed; i++)
        listed = g_strcmp0 (d->file, ((MgReportFile *) set->files->pdata[i])->path) == 0;
      if (!listed)
        {
          g_autofree char *text = mg_diagnostic_to_string (d);

          mg_cli_print_error ("%s", text);
        }
    }
  return 0;
}
