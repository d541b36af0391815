/* --recover RUNDIR: the profile of a run whose metrograph ended before
 * writing it (mg-run-recovery.h), written where that run would have
 * written it, with the usual summary and a line naming the processes that
 * still run. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-cli-catalogue.h"
#include "mg-cli-summary.h"
#include "mg-cli.h"
#include "mg-run-folder.h"
#include "mg-run-recovery.h"

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
  g_autoptr (MgCatalogue) catalogue = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *output = NULL;
  MgCliOptions run_options = { 0 };
  GPtrArray *running;
  int status = 0;

  if (recovery == NULL)
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_USAGE;
    }
  /* The run's own metric folders and toggles pick its definitions. */
  run_options.settings = mg_run_recovery_get_settings (recovery);
  catalogue = mg_cli_load_catalogue (&run_options, &status);
  if (catalogue == NULL)
    return status;

  profile = mg_run_recovery_merge (recovery, catalogue, &error);
  if (profile == NULL)
    {
      mg_cli_print_error (_("cannot recover the run in %s: %s"),
                          mg_run_recovery_get_run_dir (recovery), error->message);
      return g_error_matches (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES)
               ? MG_EXIT_NO_SAMPLES : MG_EXIT_PROFILE_FILE;
    }
  output = mg_run_recovery_choose_output (recovery, profile);
  if (!mg_profile_save (profile, output, &error))
    {
      mg_cli_print_error (_("cannot write the profile: %s (the records stay in %s)"),
                          error->message, mg_run_recovery_get_run_dir (recovery));
      return MG_EXIT_PROFILE_FILE;
    }
  mg_cli_print_summary (profile, output, 0, o->verbose);
  running = mg_run_recovery_get_running (recovery);
  print_running (running);
  if (running->len > 0)
    mg_cli_print_error (_("%s is kept while they run: recover it again once they have ended"),
                        mg_run_recovery_get_run_dir (recovery));
  else
    mg_run_folder_remove (mg_run_recovery_get_run_dir (recovery));
  return 0;
}
