/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --profile: the run object (session/mg-run-session.h) runs, blocking;
 * the command line says what it says before the program starts and after
 * its end (the summary, what came of the report the run wrote), and turns
 * its failures into exit statuses. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli-symbols.h"
#include "mg-cli-catalogue.h"
#include "mg-cli-summary.h"
#include "mg-cli.h"
#include "profile/mg-unavailable.h"
#include "session/mg-run-session.h"

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
failed (MgRunSession *run, const GError *error)
{
  int status = MAX (mg_run_session_get_exit_status (run), 0);

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

/* The profile is written: what the run's end gave, then the summary, the
 * report, and whether what was asked for was measured. */
static int
written (MgRunSession *run, const MgCliOptions *o)
{
  MgRunSettings *settings = mg_run_session_get_settings (run);
  MgProfile *profile = mg_run_session_get_profile (run);
  const char *output = mg_run_session_get_output_path (run);
  const char *ranks = mg_run_settings_get_select_ranks (settings);
  int status = mg_run_session_get_exit_status (run);
  double stopped_after =
    mg_run_session_get_stopped (run) ? mg_run_settings_get_stop_after (settings) : 0;
  const MgRunReport *report = mg_run_session_get_report (run);
  g_autoptr (GPtrArray) unmeasured =
    mg_unavailable_find_asked (profile, mg_run_session_get_catalogue (run),
                               mg_run_settings_get_enable_metrics (settings));

  mg_cli_print_summary (profile, output, stopped_after, o->verbose);
  if (ranks != NULL)
    mg_cli_print_rank_selection (profile, ranks);
  if (!mg_cli_say_report (report))
    return status != 0 ? status : MG_EXIT_PROFILE_FILE;
  /* Asked for and not measured: a script should notice (docs/cli.md). */
  if (!mg_cli_print_unmeasured (unmeasured) && status == 0)
    return MG_EXIT_METRICS;
  return status;
}

int
mg_cli_profile (const MgCliOptions *o)
{
  g_autoptr (MgRunSession) run = mg_run_session_new (o->settings, NULL);
  g_autoptr (GError) error = NULL;

  mg_run_session_set_report_sources (run, (const char *const *) o->reports_path,
                                     o->baseline_file);
  /* The frames named by one symboliser, for the profile and the report. */
  mg_cli_symbols_prepare_run (run);
  g_signal_connect (run, "prepared", G_CALLBACK (on_prepared), NULL);
  if (!mg_run_session_run (run, &error))
    return failed (run, error);
  return written (run, o);
}
