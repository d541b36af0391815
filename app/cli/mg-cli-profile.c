/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --profile: the run object (session/mg-run-session.h) runs, blocking;
 * the command line says what it says before the program starts and after
 * its end (the summary, what came of the report the run wrote), and turns
 * its failures into exit statuses. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli-catalogue.h"
#include "mg-cli.h"
#include "session/mg-run-session.h"
#include "symbols/mg-code-callbacks.h"

/* Before a long run, not only after it. */
static void
on_prepared (MgRunSession *run, gpointer data)
{
  g_auto (GStrv) warnings = mg_run_session_dup_warnings (run);

  mg_cli_print_diagnostics (mg_run_session_get_catalogue (run));
  for (guint i = 0; warnings[i] != NULL; i++)
    mg_cli_print_error (_("warning: %s"), warnings[i]);
}

/* No profile: said, and the program's failure if it failed, else ours. */
static int
failed (const GError *error, int exit_status)
{
  int status = MAX (exit_status, 0);

  switch ((MgRunSessionError) error->code)
    {
    case MG_RUN_SESSION_ERROR_SETTINGS:
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_USAGE;
    case MG_RUN_SESSION_ERROR_METRICS:
      return mg_cli_print_toggle_error (error->message);
    case MG_RUN_SESSION_ERROR_LAUNCH:
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_LAUNCH;
    case MG_RUN_SESSION_ERROR_NO_SAMPLES:
      mg_cli_print_error (_("no samples were recorded, so no profile was written: %s"),
                          error->message);
      return status != 0 ? status : MG_EXIT_NO_SAMPLES;
    case MG_RUN_SESSION_ERROR_END:
    default:
      mg_cli_print_error ("%s", error->message);
      return status != 0 ? status : MG_EXIT_PROFILE_FILE;
    }
}

/* The profile is written: the summary the run made of it (mg-run-summary.h),
 * the report, and whether what was asked for was measured. */
static int
written (const MgRunSessionEnd *end, gboolean verbose)
{
  const MgRunSummary *summary = end->summary;
  int status = end->exit_status;

  mg_cli_print_lines ((const char *const *) summary->lines);
  mg_cli_print_lines ((const char *const *) (verbose ? summary->details : summary->brief));
  if (summary->ranks != NULL)
    g_printerr ("%s", summary->ranks);
  if (!mg_cli_say_report (end->report))
    return status != 0 ? status : MG_EXIT_PROFILE_FILE;
  for (guint i = 0; summary->unmeasured[i] != NULL; i++)
    mg_cli_print_error ("%s", summary->unmeasured[i]);
  /* Asked for and not measured: a script should notice (docs/cli.md). */
  if (summary->unmeasured[0] != NULL && status == 0)
    return MG_EXIT_METRICS;
  return status;
}

int
mg_cli_profile (const MgCliOptions *o)
{
  /* One symboliser names the frames on the thread that saves, at the
   * end; the profile then carries their names and source text. */
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  MgSourceCollector sources = mg_code_callbacks_sources ();
  g_autoptr (MgRunSession) run = mg_run_session_new (o->settings, NULL);
  g_autoptr (GError) error = NULL;
  MgRunSessionEnd end;
  gboolean saved;

  mg_run_session_set_report_sources (run, (const char *const *) o->reports_path,
                                     o->baseline_file);
  mg_run_session_set_stack_namer (run, &namer);
  mg_run_session_set_source_collector (run, &sources, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  g_signal_connect (run, "prepared", G_CALLBACK (on_prepared), NULL);
  saved = mg_run_session_run (run, &error);
  /* Once, whatever came of the run: what is said is in it. */
  end = mg_run_session_get_end (run);
  return saved ? written (&end, o->verbose) : failed (error, end.exit_status);
}
