/* --profile: catalogue → plan → launcher → merge → profile file → summary. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mg-cli-catalogue.h"
#include "mg-cli-summary.h"
#include "mg-cli-enable-check.h"
#include "mg-cli.h"
#include "mg-install-paths.h"
#include "mg-launcher.h"
#include "mg-merge.h"
#include "mg-mpi.h"
#include "mg-output-name.h"
#include "mg-plan-writer.h"

static MgLauncher *
make_launcher (const MgCliOptions *o, MgCatalogue *catalogue)
{
  g_autofree char *sampler = mg_install_paths_get_sampler ();
  g_auto (GStrv) preloads = mg_catalogue_get_preload_paths (catalogue);
  MgLauncher *launcher = mg_launcher_new ((const char *const *) o->rest);

  mg_launcher_set_sampler (launcher, sampler);
  for (guint i = 0; preloads != NULL && preloads[i] != NULL; i++)
    mg_launcher_add_preload (launcher, preloads[i]);
  if (o->n_processes > 0)
    mg_launcher_set_n_processes (launcher, (guint) o->n_processes);
  if (o->stop_after_s > 0)
    mg_launcher_set_stop_after (launcher, o->stop_after_s);
  return launcher;
}

static gboolean
write_plan (const MgCliOptions *o, MgCatalogue *catalogue, MgLauncher *launcher,
            GError **error)
{
  MgPlanOptions plan = {
    .run_id = mg_launcher_get_run_id (launcher),
    .record_dir = mg_launcher_get_record_dir (launcher),
    .interval_ms = o->interval_ms > 0 ? (guint) o->interval_ms : 0,
    .samples = o->samples > 0 ? (guint) o->samples : 0,
    .start_after_ms = o->start_after_s > 0 ? (guint64) llround (o->start_after_s * 1000) : 0,
    .stop_after_ms = o->stop_after_s > 0 ? (guint64) llround (o->stop_after_s * 1000) : 0,
    .skip_programs = mg_launcher_get_skip_programs (launcher),
    .select_ranks = o->select_ranks,
  };

  return mg_plan_write (catalogue, &plan, mg_launcher_get_plan_path (launcher), error);
}

/* The enabled metrics' definitions, and the groups that show one of them:
 * the profile carries them so that it opens where the plugins are not. */
static void
collect_definitions (MgCatalogue *catalogue, GPtrArray *metrics, GPtrArray *groups)
{
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    {
      const MgCatalogueMetric *metric = mg_catalogue_get_metric (catalogue, i);

      if (metric->enabled && metric->available)
        g_ptr_array_add (metrics, (gpointer) metric->def);
    }
  for (guint i = 0; i < mg_catalogue_get_n_groups (catalogue); i++)
    {
      const MgCatalogueGroup *group = mg_catalogue_get_group (catalogue, i);

      for (guint j = 0; j < group->members->len; j++)
        {
          const MgCatalogueMetric *member = g_ptr_array_index (group->members, j);

          if (member->enabled && member->available)
            {
              g_ptr_array_add (groups, (gpointer) group->group);
              break;
            }
        }
    }
}

static MgProfile *
merge (MgCatalogue *catalogue, MgLauncher *launcher, int exit_status, GError **error)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr (GPtrArray) metrics = g_ptr_array_new ();
  g_autoptr (GPtrArray) groups = g_ptr_array_new ();
  MgMergeInput input = {
    .metrics = metrics,
    .groups = groups,
    .run_id = mg_launcher_get_run_id (launcher),
    .argv = mg_launcher_get_argv (launcher),
    .working_dir = cwd,
    .start_time_us = mg_launcher_get_start_time_us (launcher),
    .exit_status = exit_status,
  };

  collect_definitions (catalogue, metrics, groups);
  return mg_merge_records (mg_launcher_get_record_dir (launcher), &input, error);
}

/* The same choice as the run dialog's (mg_output_name_choose). */
static char *
choose_output (const MgCliOptions *o, MgLauncher *launcher, MgProfile *profile)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  const char *program = mg_launcher_get_program_path (launcher);
  g_autoptr (GDateTime) start = NULL;
  g_auto (GStrv) env = NULL;

  start = g_date_time_new_from_unix_utc (mg_launcher_get_start_time_us (launcher) / G_USEC_PER_SEC);
  /* The program ran with our environment. */
  env = g_get_environ ();
  return mg_output_name_choose (
    o->output, NULL, program != NULL ? program : mg_launcher_get_argv (launcher)[0],
    info->n_processes, MAX (info->n_nodes, 1),
    mg_output_name_threads_from_environ ((const char *const *) env), start);
}

/* -o FOLDER/ that does not exist: said before the run, not after it. */
static gboolean
check_output_folder (const MgCliOptions *o)
{
  if (o->output == NULL || !mg_output_name_is_folder (o->output, NULL)
      || g_file_test (o->output, G_FILE_TEST_IS_DIR))
    return TRUE;
  mg_cli_print_error (_("-o %s: there is no such folder (create it, or give a file name)"),
                      o->output);
  return FALSE;
}

/* Say it before a long run, not only after it. */
static void
warn_unsampleable (const MgCliOptions *o, MgLauncher *launcher)
{
  MgProgramKind kind = mg_launcher_get_program_kind (launcher);

  if (kind == MG_PROGRAM_STATIC || kind == MG_PROGRAM_SETUID)
    mg_cli_print_error (_("warning: %s will not be sampled: %s"),
                        mg_launcher_get_program_path (launcher), mg_program_kind_explain (kind));
  /* Without an MPI launcher no process has a rank: all are sampled. */
  if (o->select_ranks != NULL && o->n_processes <= 0 && !mg_mpi_is_launcher (o->rest[0]))
    mg_cli_print_error (_("warning: --select-ranks=%s has no effect without MPI: every process "
                          "is sampled (give -n N, or start the program with mpirun or srun)"),
                        o->select_ranks);
}

/* Nothing was sampled: say why, and exit with the program's failure if it
 * failed, else with our own status. */
static int
no_samples (const MgCliOptions *o, MgLauncher *launcher, int exit_status)
{
  if (o->select_ranks != NULL)
    mg_cli_print_error (_("no samples were recorded, so no profile was written: no process of "
                          "the selected ranks (--select-ranks=%s) was sampled; check the ranks "
                          "the run has"),
                        o->select_ranks);
  else
    mg_cli_print_error (_("no samples were recorded, so no profile was written: %s"),
                        mg_program_kind_explain (mg_launcher_get_program_kind (launcher)));
  return exit_status != 0 ? exit_status : MG_EXIT_NO_SAMPLES;
}

int
mg_cli_profile (const MgCliOptions *o)
{
  g_autoptr (MgCatalogue) catalogue = NULL;
  g_autoptr (MgLauncher) launcher = NULL;
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *output = NULL;
  int status = 0;

  if (!check_output_folder (o))
    return MG_EXIT_USAGE;
  catalogue = mg_cli_load_catalogue (o, &status);
  if (catalogue == NULL)
    return status;
  mg_cli_print_diagnostics (catalogue);

  launcher = make_launcher (o, catalogue);
  if (!mg_launcher_prepare (launcher, &error) || !write_plan (o, catalogue, launcher, &error))
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_LAUNCH;
    }
  warn_unsampleable (o, launcher);
  if (!mg_launcher_run (launcher, &status, &error))
    {
      mg_cli_print_error ("%s", error->message);
      return MG_EXIT_LAUNCH;
    }

  profile = merge (catalogue, launcher, status, &error);

  if (profile == NULL && g_error_matches (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES))
    return no_samples (o, launcher, status);
  if (profile == NULL)
    {
      mg_launcher_keep_run_dir (launcher);
      mg_cli_print_error (_("cannot merge the records of %s: %s (they are kept there for a "
                            "bug report)"),
                          mg_launcher_get_record_dir (launcher), error->message);
      return status != 0 ? status : MG_EXIT_PROFILE_FILE;
    }

  output = choose_output (o, launcher, profile);
  if (!mg_profile_save (profile, output, &error))
    {
      /* The records are the only copy of the run: keep them. */
      mg_launcher_keep_run_dir (launcher);
      mg_cli_print_error (_("cannot write the profile: %s (choose another file with -o; the "
                            "records are kept in %s)"),
                          error->message, mg_launcher_get_record_dir (launcher));
      return status != 0 ? status : MG_EXIT_PROFILE_FILE;
    }
  mg_cli_print_summary (profile, output, mg_launcher_get_stopped (launcher) ? o->stop_after_s : 0,
                        o->verbose);
  if (o->select_ranks != NULL)
    mg_cli_print_rank_selection (profile, o->select_ranks);
  /* Asked for and not measured: a script should notice (docs/cli.md). */
  if (!mg_cli_check_enabled (profile, catalogue, (const char *const *) o->enable_ids)
      && status == 0)
    return MG_EXIT_METRICS;
  return status;
}
