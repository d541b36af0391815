/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --recover RUNDIR: the profile of a run whose metrograph ended before
 * writing it (mg-run-recovery.h), written where that run would have
 * written it or to -o, with the usual summary (--verbose as with
 * --profile) and a line naming the processes that still run. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli.h"
#include "session/mg-run-recovery.h"
#include "session/mg-run-summary.h"
#include "symbols/mg-code-callbacks.h"

static void
print_running (GPtrArray *running)
{
  g_autoptr (GString) list = g_string_new (NULL);

  if (running->len == 0)
    return;
  for (guint i = 0; i < running->len; i++)
    {
      const MgRecoveredProcess *p = g_ptr_array_index (running, i);

      g_string_append_printf (list, "%s%d (%s)", i > 0 ? ", " : "", p->pid, p->program);
    }
  mg_cli_print_error (ngettext ("still running, its record ends here: process %s",
                                "still running, their records end here: processes %s",
                                running->len),
                      list->str);
}

int
mg_cli_recover (const MgCliOptions *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRunRecovery) recovery = mg_run_recovery_open (o->recover_dir, &error);
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *output = NULL;
  GPtrArray *running;

  if (recovery == NULL)
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_USAGE;
    }
  mg_run_recovery_set_output (recovery, mg_run_settings_get_output (o->settings));
  /* The run's own --process-precision, unless another is asked for now. */
  if (mg_run_settings_get_process_precision (o->settings) != MG_PROCESS_PRECISION_DEFAULT)
    mg_run_settings_set_process_precision (mg_run_recovery_get_settings (recovery),
                                           mg_run_settings_get_process_precision (o->settings));
  /* The frames named and their source kept, as at a run's end. */
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  MgStackNamer namer = mg_code_callbacks_namer (symbolizer);
  MgSourceCollector sources = mg_code_callbacks_sources ();

  mg_run_recovery_set_code (recovery, &namer, &sources, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  profile = mg_run_recovery_write (recovery, &output, &error);
  if (profile == NULL)
    {
      mg_cli_print_error (_("cannot recover the run in %s: %s (its records stay there)"),
                          mg_run_recovery_get_run_dir (recovery), error->message);
      if (g_error_matches (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES))
        return MG_EXIT_NO_SAMPLES;
      return error->domain == MG_PROFILE_ERROR || error->domain == G_FILE_ERROR
               ? MG_EXIT_PROFILE_FILE : MG_EXIT_METRICS;
    }
  MgRunSummaryRequest request = { .output = output };
  g_autoptr (MgRunSummary) summary = mg_run_summary_new (profile, &request);

  mg_cli_print_lines ((const char *const *) summary->lines);
  mg_cli_print_lines ((const char *const *) (o->verbose ? summary->details : summary->brief));
  running = mg_run_recovery_get_running (recovery);
  print_running (running);
  if (running->len > 0)
    mg_cli_print_error (_("%s is kept while they run: recover it again once they have ended"),
                        mg_run_recovery_get_run_dir (recovery));
  return 0;
}
