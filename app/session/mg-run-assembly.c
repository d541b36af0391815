/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-assembly.h"

#include "mg-run-settings-line.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <math.h>

#include "mg-install-paths.h"
#include "profile/mg-merge.h"
#include "profile/mg-record-folder.h"
#include "profile/mg-stop-event.h"
#include "mg-missing-ranks.h"
#include "mg-output-name.h"
#include "defs/mg-plan-writer.h"
#include "mg-run-folder.h"

struct _MgRunAssembly
{
  GObject parent_instance;

  MgRunSettings *settings;
  MgCatalogue *catalogue;
  GPtrArray *metrics;          /* const MgMetricDef*, owned by the catalogue */
  GPtrArray *groups;           /* const MgMetricGroup* */
  MgLauncher *launcher;
  char *working_folder;
  guint n_threads;             /* the default name's _<T>t */
  char *output;                /* the program's, NULL when not captured */
  guint64 output_cut;
  /* The live merges' records so far: each refresh reads only new slots.
   * Used by one merge at a time (MgRunSession runs them in turn). */
  MgLiveMerge *live;
  double stop_s;               /* when the stop was asked (s into the run), < 0: never */
};

G_DEFINE_FINAL_TYPE (MgRunAssembly, mg_run_assembly, G_TYPE_OBJECT)

static void
mg_run_assembly_finalize (GObject *object)
{
  MgRunAssembly *self = MG_RUN_ASSEMBLY (object);

  g_clear_object (&self->launcher);
  g_ptr_array_unref (self->metrics);
  g_ptr_array_unref (self->groups);
  g_clear_object (&self->catalogue);
  g_clear_object (&self->settings);
  g_free (self->working_folder);
  g_free (self->output);
  g_clear_pointer (&self->live, mg_live_merge_free);
  G_OBJECT_CLASS (mg_run_assembly_parent_class)->finalize (object);
}

static void
mg_run_assembly_class_init (MgRunAssemblyClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mg_run_assembly_finalize;
}

static void
mg_run_assembly_init (MgRunAssembly *self)
{
  self->metrics = g_ptr_array_new ();
  self->groups = g_ptr_array_new ();
  self->stop_s = -1;
  self->live = mg_live_merge_new ();
}

void
mg_run_assembly_collect_definitions (MgCatalogue *catalogue, GPtrArray *metrics,
                                     GPtrArray *groups)
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

static MgLauncher *
make_launcher (MgRunAssembly *self, GError **error)
{
  g_auto (GStrv) args = mg_run_settings_dup_argv (self->settings, error);
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_auto (GStrv) full = NULL;
  g_auto (GStrv) env = mg_run_settings_build_environment (self->settings, NULL);
  g_autofree char *sampler = mg_install_paths_get_sampler ();
  g_auto (GStrv) preloads = mg_catalogue_get_preload_paths (self->catalogue);
  MgLauncher *launcher;

  if (args == NULL)
    return NULL;
  g_strv_builder_add (argv, mg_run_settings_get_program (self->settings));
  g_strv_builder_addv (argv, (const char **) args);
  full = g_strv_builder_end (argv);
  launcher = mg_launcher_new ((const char *const *) full);
  mg_launcher_set_working_folder (launcher, self->working_folder);
  mg_launcher_set_environment (launcher, (const char *const *) env);
  mg_launcher_set_sampler (launcher, sampler);
  for (guint i = 0; preloads != NULL && preloads[i] != NULL; i++)
    mg_launcher_add_preload (launcher, preloads[i]);
  mg_launcher_set_n_processes (launcher, mg_run_settings_get_n_processes (self->settings));
  mg_launcher_set_stop_after (launcher, mg_run_settings_get_stop_after (self->settings));
  self->n_threads = mg_output_name_threads_from_environ ((const char *const *) env);
  return launcher;
}

static gboolean
write_plan (MgRunAssembly *self, GError **error)
{
  MgRunSettings *s = self->settings;
  MgPlanOptions plan = {
    .run_id = mg_launcher_get_run_id (self->launcher),
    .record_dir = mg_launcher_get_record_dir (self->launcher),
    .interval_ms = mg_run_settings_get_interval_ms (s),
    .samples = mg_run_settings_get_max_samples (s),
    .start_after_ms = (guint64) llround (mg_run_settings_get_start_after (s) * 1000),
    .stop_after_ms = (guint64) llround (mg_run_settings_get_stop_after (s) * 1000),
    .skip_programs = mg_launcher_get_skip_programs (self->launcher),
    .select_ranks = mg_run_settings_get_select_ranks (s),
    .no_stacks = mg_run_settings_get_no_stacks (s),
  };

  return mg_plan_write (self->catalogue, &plan, mg_launcher_get_plan_path (self->launcher), error);
}

/* The settings as the line that repeats the run, in the run folder: what
 * recovery reads if this front end ends before writing the profile. */
static gboolean
write_command (MgRunAssembly *self, GError **error)
{
  g_autoptr (MgRunSettings) settings = mg_run_settings_copy (self->settings);
  g_autofree char *path = g_build_filename (mg_launcher_get_run_dir (self->launcher),
                                            MG_RUN_FOLDER_COMMAND, NULL);
  g_autofree char *line = NULL;

  mg_run_settings_set_working_folder (settings, self->working_folder);
  line = mg_run_settings_to_command_line (settings, NULL);
  return g_file_set_contents (path, line, -1, error);
}

MgRunAssembly *
mg_run_assembly_new (MgRunSettings *settings, MgCatalogue *catalogue, GError **error)
{
  g_autoptr (MgRunAssembly) self = g_object_new (MG_TYPE_RUN_ASSEMBLY, NULL);
  const char *folder = mg_run_settings_get_working_folder (settings);

  /* Folders of front ends that ended without removing theirs. */
  mg_run_folder_sweep ();
  self->settings = mg_run_settings_copy (settings);
  self->catalogue = g_object_ref (catalogue);
  self->working_folder = folder != NULL ? g_canonicalize_filename (folder, NULL)
                                        : g_get_current_dir ();
  mg_run_assembly_collect_definitions (self->catalogue, self->metrics, self->groups);
  self->launcher = make_launcher (self, error);
  if (self->launcher == NULL || !mg_launcher_prepare (self->launcher, error)
      || !write_plan (self, error) || !write_command (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

MgRunSettings *
mg_run_assembly_get_settings (MgRunAssembly *self)
{
  return self->settings;
}

MgLauncher *
mg_run_assembly_get_launcher (MgRunAssembly *self)
{
  return self->launcher;
}

const char *
mg_run_assembly_get_working_folder (MgRunAssembly *self)
{
  return self->working_folder;
}

MgProfile *
mg_run_assembly_merge (MgRunAssembly *self, int exit_status, guint max_process_samples,
                       GError **error)
{
  /* Only the final merge (every slot): while the program runs, the other
   * nodes' records have not come yet. */
  g_autofree char *missing =
    max_process_samples == 0
      ? mg_missing_ranks_describe (mg_launcher_get_record_dir (self->launcher),
                                   mg_launcher_get_run_id (self->launcher),
                                   mg_run_settings_get_n_processes (self->settings),
                                   mg_run_settings_get_select_ranks (self->settings))
      : NULL;
  MgPluginError missing_error = { -1, NULL, NULL, 0, missing };
  /* Only the saved profile says the stop was asked: the live view is
   * merged while the program still runs. */
  gboolean stopped = max_process_samples == 0 && self->stop_s >= 0;
  MgProcessEvent stop = stopped ? mg_stop_event_make (self->stop_s) : (MgProcessEvent) { 0 };
  g_autofree char *stop_message = stop.message;
  MgMergeInput input = {
    .metrics = self->metrics,
    .groups = self->groups,
    .run_id = mg_launcher_get_run_id (self->launcher),
    .argv = mg_launcher_get_argv (self->launcher),
    .working_dir = self->working_folder,
    .start_time_us = mg_launcher_get_start_time_us (self->launcher),
    .exit_status = exit_status,
    .max_process_samples = max_process_samples,
    .live = max_process_samples > 0 ? self->live : NULL,
    .output = self->output,
    .output_cut = self->output_cut,
    .run_errors = &missing_error,
    .n_run_errors = missing != NULL,
    .run_events = &stop,
    .n_run_events = stopped,
    .process_precision = mg_run_settings_get_process_precision (self->settings),
  };

  return mg_merge_records (mg_launcher_get_record_dir (self->launcher), &input, error);
}

void
mg_run_assembly_set_stopped (MgRunAssembly *self, double time_s)
{
  g_return_if_fail (MG_IS_RUN_ASSEMBLY (self));
  self->stop_s = MAX (time_s, 0.0);
}

void
mg_run_assembly_set_output (MgRunAssembly *self, const char *output, guint64 output_cut)
{
  g_free (self->output);
  self->output = g_strdup (output);
  self->output_cut = output_cut;
}

char *
mg_run_assembly_choose_output (MgRunAssembly *self, MgProfile *profile)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  const char *program = mg_launcher_get_program_path (self->launcher);
  g_autoptr (GDateTime) start = g_date_time_new_from_unix_utc (
    mg_launcher_get_start_time_us (self->launcher) / G_USEC_PER_SEC);

  return mg_output_name_choose (mg_run_settings_get_output (self->settings), self->working_folder,
                                program != NULL ? program : mg_launcher_get_argv (self->launcher)[0],
                                info->n_processes - mg_profile_get_n_helpers (profile),
                                MAX (info->n_nodes, 1), self->n_threads, start);
}

typedef struct {
  int code;
  char *reason;
} RecordFailure;

static gboolean
find_failure (const char *path, const MgRecordHeader *header, gpointer data)
{
  RecordFailure *failure = data;

  if (header->n_samples > 0 || !(header->flags & MG_RECORD_FLAG_STOPPED)
      || header->record_error_code == 0 || header->record_error[0] == '\0')
    return TRUE;
  failure->code = header->record_error_code;
  failure->reason = g_strndup (header->record_error, sizeof header->record_error);
  return FALSE;
}

/* Why the sampler could not make a process's record (the reason record it
 * leaves: a full file system, the file size limit), as the clause of a
 * run without samples; NULL when every record was made. */
static char *
record_not_made (MgRunAssembly *self)
{
  const char *record_dir = mg_launcher_get_record_dir (self->launcher);
  RecordFailure failure = { 0 };
  g_autofree char *reason = NULL;

  if (record_dir == NULL)
    return NULL;
  mg_record_folder_foreach (record_dir, find_failure, &failure);
  if (failure.reason == NULL)
    return NULL;
  reason = failure.reason;
  if (failure.code == EFBIG)
    return g_strdup_printf (_("the sampler could not make the process's record (%s): the "
                              "file size limit the program runs with is smaller than a record; "
                              "raise it (ulimit -f) or lower --samples"),
                            reason);
  if (failure.code == ENOSPC || failure.code == EDQUOT)
    return g_strdup_printf (_("the sampler could not make the process's record (%s): the file "
                              "system of the run folder %s is full; make room there or set "
                              "METROGRAPH_TMPDIR to a folder on a file system with room"),
                            reason, mg_launcher_get_run_dir (self->launcher));
  return g_strdup_printf (_("the sampler could not make the process's record (%s); set "
                            "METROGRAPH_TMPDIR to a folder where the program can write"),
                          reason);
}

char *
mg_run_assembly_explain_no_samples (MgRunAssembly *self)
{
  const char *ranks = mg_run_settings_get_select_ranks (self->settings);
  g_autofree char *unmade = record_not_made (self);

  /* Before anything the program did: it had no record to be sampled in. */
  if (unmade != NULL)
    return g_steal_pointer (&unmade);
  if (ranks != NULL)
    return g_strdup_printf (_("no process of the selected ranks (--select-ranks=%s) was "
                              "sampled; check the ranks the run has"),
                            ranks);
  /* A program whose start (its plugins' too) took longer on a busy machine. */
  if (mg_launcher_get_stopped (self->launcher))
    return g_strdup_printf (_("--stop-after=%g ended the program before its first sample; "
                              "give it longer"),
                            mg_run_settings_get_stop_after (self->settings));
  /* A process takes a last sample when it exits, not when a signal kills
   * it: a crash before its first round leaves nothing, whatever LD_PRELOAD
   * did. */
  MgProgramKind kind = mg_launcher_get_program_kind (self->launcher);
  int signal = mg_launcher_get_killed_signal (self->launcher);
  double lived_s = mg_launcher_get_duration_s (self->launcher);
  if (signal > 0 && (kind == MG_PROGRAM_DYNAMIC || kind == MG_PROGRAM_NOT_ELF)
      && lived_s >= mg_run_settings_get_start_after (self->settings))
    return g_strdup_printf (_("the program was killed by signal %d (%s) %.0f ms after it "
                              "started, before its first sample, and a process that a signal "
                              "kills takes no last sample (one that exits does)"),
                            signal, g_strsignal (signal), lived_s * 1000);
  return g_strdup (mg_program_kind_explain (mg_launcher_get_program_kind (self->launcher)));
}
