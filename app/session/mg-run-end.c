/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-end.h"

#include <glib/gi18n.h>
#include <string.h>

G_DEFINE_QUARK (mg-run-end-error-quark, mg_run_end_error)

void
mg_run_end_clear (MgRunEnd *end)
{
  g_clear_object (&end->profile);
  g_clear_pointer (&end->path, g_free);
  mg_run_report_clear (&end->report);
}

/* The records are the only copy of the run: the folder stays, and the
 * message says how to get the profile from it. */
static void
keep_records (MgRunAssembly *self, MgRunEndError code, GError *cause, GError **error)
{
  MgLauncher *launcher = mg_run_assembly_get_launcher (self);
  const char *run_dir = mg_launcher_get_run_dir (launcher);
  /* The cause is a clause here: without its own full stop. */
  g_autofree char *why = g_strdup (cause->message);
  gsize len = strlen (why);

  if (len > 0 && why[len - 1] == '.')
    why[len - 1] = '\0';

  /* Removed under us (a cleaner of the temporary folder): nothing is left
   * that --recover could read, and the folder is not "kept". */
  if (code == MG_RUN_END_ERROR_MERGE
      && !g_file_test (mg_launcher_get_record_dir (launcher), G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MG_RUN_END_ERROR, code,
                   _("cannot merge the records: the folder %s was removed during the run, and "
                     "the records with it, so no profile can be written (if something cleans "
                     "the temporary folder, set METROGRAPH_TMPDIR to a folder nothing else "
                     "cleans)"),
                   mg_launcher_get_record_dir (launcher));
      return;
    }
  mg_launcher_keep_run_dir (launcher);
  if (code == MG_RUN_END_ERROR_MERGE)
    g_set_error (error, MG_RUN_END_ERROR, code,
                 _("cannot merge the records: %s (they are kept: once the cause is fixed, "
                   "metrograph --recover %s writes the profile)"),
                 why, run_dir);
  else
    g_set_error (error, MG_RUN_END_ERROR, code,
                 _("cannot write the profile: %s (the records are kept: metrograph --recover "
                   "%s -o FILE writes it elsewhere)"),
                 why, run_dir);
}

/* The profile is saved and is the whole run: a report that fails says how
 * to write it from the profile. */
static void
write_report (const MgRunReportRequest *request, MgRunEnd *end)
{
  g_autoptr (GError) cause = NULL;
  g_autofree char *command = NULL;

  if (mg_run_report_write (end->profile, end->path, request, &end->report))
    return;
  cause = g_steal_pointer (&end->report.error);
  command = request->file[0] == '\0'
              ? g_strdup_printf ("metrograph --report %s", end->path)
              : g_strdup_printf ("metrograph --report=%s %s", request->file, end->path);
  /* TRANSLATORS: the second %s is a command, e.g. "metrograph --report run.mgprof". */
  g_set_error (&end->report.error, MG_RUN_END_ERROR, MG_RUN_END_ERROR_REPORT,
               _("%s; the profile is saved: %s writes the report from it"), cause->message,
               command);
}

gboolean
mg_run_assembly_finish (MgRunAssembly *self, int exit_status, const MgRunCodeRequest *code,
                        const MgRunReportRequest *report, MgRunEndSaveHook hook, gpointer hook_data, MgRunEnd *end,
                        GError **error)
{
  g_autoptr (GError) local_error = NULL;

  end->profile = mg_run_assembly_merge (self, exit_status, 0, &local_error);
  if (end->profile == NULL)
    {
      /* Nothing was sampled: there is nothing to keep. */
      if (g_error_matches (local_error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        keep_records (self, MG_RUN_END_ERROR_MERGE, local_error, error);
      return FALSE;
    }
  /* Named now, while the binaries and sources are there: the profile
   * then shows code wherever it is opened. */
  if (code != NULL && code->namer != NULL && code->namer->func != NULL)
    mg_profile_store_code (end->profile, code->namer, code->sources, code->source_limit);
  end->path = mg_run_assembly_choose_output (self, end->profile);
  if (hook != NULL)
    hook (end->path, hook_data);
  if (!mg_profile_save (end->profile, end->path, &local_error))
    {
      g_clear_pointer (&end->path, g_free);
      keep_records (self, MG_RUN_END_ERROR_SAVE, local_error, error);
      return FALSE;
    }
  if (report != NULL)
    write_report (report, end);
  return TRUE;
}
