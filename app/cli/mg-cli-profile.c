/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --profile: catalogue → the run's assembly (mg-run-assembly.h) → the
 * launcher's run → the run's end as the window has it (mg-run-end.h: merge,
 * profile file, records kept on failure) → summary → reports (--report). */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli-catalogue.h"
#include "mg-cli-enable-check.h"
#include "mg-cli-summary.h"
#include "mg-cli.h"
#include "session/mg-output-name.h"
#include "session/mg-run-assembly.h"
#include "session/mg-run-check.h"
#include "session/mg-run-end.h"

/* -o FOLDER/ that does not exist: said before the run, not after it. */
static gboolean
check_output_folder (const MgCliOptions *o)
{
  const char *output = mg_run_settings_get_output (o->settings);
  g_autofree char *problem = NULL;

  if (output != NULL && mg_output_name_is_folder (output, NULL)
      && !g_file_test (output, G_FILE_TEST_IS_DIR))
    {
      mg_cli_print_error (_("-o %s: there is no such folder (create it, or give a file name)"),
                          output);
      return FALSE;
    }
  /* The folder the profile goes to, writable: before the run, not after. */
  problem = mg_run_settings_check_field (o->settings, "output");
  if (problem == NULL)
    return TRUE;
  mg_cli_print_error (_("-o %s: %s, so the profile cannot be saved there (checked before the "
                        "program starts); choose another folder"),
                      output != NULL ? output : ".", problem);
  return FALSE;
}

/* Say it before a long run, not only after it. */
static void
warn_unsampleable (const MgCliOptions *o, MgLauncher *launcher)
{
  MgProgramKind kind = mg_launcher_get_program_kind (launcher);
  g_auto (GStrv) warnings = mg_run_settings_dup_warnings (o->settings);

  for (guint i = 0; warnings[i] != NULL; i++)
    mg_cli_print_error (_("warning: %s"), warnings[i]);
  if (kind == MG_PROGRAM_STATIC || kind == MG_PROGRAM_SETUID || kind == MG_PROGRAM_WRONG_CLASS)
    mg_cli_print_error (_("warning: %s will not be sampled: %s"),
                        mg_launcher_get_program_path (launcher), mg_program_kind_explain (kind));
}

/* Nothing was sampled: say why, and exit with the program's failure if it
 * failed, else with our own status. */
static int
no_samples (MgRunAssembly *run, int exit_status)
{
  g_autofree char *why = mg_run_assembly_explain_no_samples (run);

  mg_cli_print_error (_("no samples were recorded, so no profile was written: %s"), why);
  return exit_status != 0 ? exit_status : MG_EXIT_NO_SAMPLES;
}

int
mg_cli_profile (const MgCliOptions *o)
{
  g_autoptr (MgCatalogue) catalogue = NULL;
  g_autoptr (MgRunAssembly) run = NULL;
  g_auto (MgRunEnd) end = { 0 };
  g_autoptr (GError) error = NULL;
  MgProfile *profile;
  const char *output;
  const char *ranks = mg_run_settings_get_select_ranks (o->settings);
  MgLauncher *launcher;
  int status = 0;

  if (!check_output_folder (o))
    return MG_EXIT_USAGE;
  catalogue = mg_cli_load_catalogue (o, &status);
  if (catalogue == NULL)
    return status;
  mg_cli_print_diagnostics (catalogue);

  run = mg_run_assembly_new (o->settings, catalogue, &error);
  if (run == NULL && mg_cli_is_toggle_error (error, &status))
    return status;
  if (run == NULL)
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_LAUNCH;
    }
  launcher = mg_run_assembly_get_launcher (run);
  warn_unsampleable (o, launcher);
  if (!mg_launcher_run (launcher, &status, &error))
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_LAUNCH;
    }

  if (!mg_run_assembly_finish (run, status, NULL, NULL, &end, &error))
    {
      if (g_error_matches (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES))
        return no_samples (run, status);
      mg_cli_print_error ("%s", error->message);
      return status != 0 ? status : MG_EXIT_PROFILE_FILE;
    }
  profile = end.profile;
  output = end.path;
  mg_cli_print_summary (profile, output,
                        mg_launcher_get_stopped (launcher)
                          ? mg_run_settings_get_stop_after (o->settings) : 0,
                        o->verbose);
  if (ranks != NULL)
    mg_cli_print_rank_selection (profile, ranks);
  if (o->report && !mg_cli_write_report (o, profile, output,
                                         mg_run_settings_get_report (o->settings)))
    return status != 0 ? status : MG_EXIT_PROFILE_FILE;
  /* Asked for and not measured: a script should notice (docs/cli.md). */
  if (!mg_cli_check_enabled (profile, catalogue, mg_run_settings_get_enable_metrics (o->settings))
      && status == 0)
    return MG_EXIT_METRICS;
  return status;
}
