/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-recovery.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "format/mg-plan-keywords.h"
#include "profile/mg-merge.h"
#include "mg-missing-ranks.h"
#include "mg-output-name.h"
#include "profile/mg-record-folder.h"
#include "mg-run-assembly.h"
#include "mg-run-catalogue.h"
#include "mg-run-settings-line.h"
#include "mg-run-folder.h"

G_DEFINE_QUARK (mg-run-recovery-error-quark, mg_run_recovery_error)

struct _MgRunRecovery
{
  char *run_dir;
  char *record_dir;
  char *run_id;
  MgRunSettings *settings;
  GPtrArray *running;          /* MgRecoveredProcess* */
  gint64 start_real_ns;        /* the earliest record's start */
  char *output;                /* given at recovery; NULL: the run's own -o */
  MgStackNamer namer;          /* names the frames before the save; func NULL: none */
  MgSourceCollector sources;   /* and reads their source; func NULL: none */
  gsize source_limit;
};

static void
recovered_process_free (MgRecoveredProcess *p)
{
  g_free (p->program);
  g_free (p);
}

void
mg_run_recovery_free (MgRunRecovery *self)
{
  g_free (self->run_dir);
  g_free (self->record_dir);
  g_free (self->run_id);
  g_free (self->output);
  g_clear_object (&self->settings);
  g_ptr_array_unref (self->running);
  g_free (self);
}

static gboolean
not_a_run (const char *run_dir, const char *what, GError **error)
{
  g_set_error (error, MG_RUN_RECOVERY_ERROR, MG_RUN_RECOVERY_ERROR_NOT_A_RUN,
               /* Translators: a folder, then what it lacks, e.g. "no records folder" */
               _("%s is not a Metrograph run folder (%s); give a metrograph-XXXXXX folder of "
                 "METROGRAPH_TMPDIR, TMPDIR or /tmp"), run_dir, what);
  return FALSE;
}

/* The run id of the plan's run_id line. */
static char *
read_run_id (const char *plan_path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  const char *key = MG_PLAN_KEYWORD (MG_PLAN_KEY_RUN_ID);

  if (!g_file_get_contents (plan_path, &text, NULL, NULL))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key) && lines[i][strlen (key)] == '\t')
      return g_strdup (lines[i] + strlen (key) + 1);
  return NULL;
}

static gboolean
read_folder (MgRunRecovery *self, GError **error)
{
  g_autofree char *plan = g_build_filename (self->run_dir, MG_RUN_FOLDER_PLAN, NULL);
  g_autofree char *command_path = g_build_filename (self->run_dir, MG_RUN_FOLDER_COMMAND, NULL);
  g_autofree char *command = NULL;
  g_autoptr (GError) local_error = NULL;
  int pid;
  guint64 start_time;

  if (!g_file_test (self->run_dir, G_FILE_TEST_IS_DIR))
    return not_a_run (self->run_dir, _("no such folder"), error);
  if (!g_file_test (self->record_dir, G_FILE_TEST_IS_DIR))
    return not_a_run (self->run_dir, _("no records folder"), error);
  self->run_id = read_run_id (plan);
  if (self->run_id == NULL)
    return not_a_run (self->run_dir, _("no run plan"), error);
  if (mg_run_folder_is_live (self->run_dir) && mg_run_folder_read_owner (self->run_dir, &pid,
                                                                         &start_time))
    {
      g_set_error (error, MG_RUN_RECOVERY_ERROR, MG_RUN_RECOVERY_ERROR_LIVE,
                   _("%s belongs to metrograph process %d, which still runs and will write "
                     "the profile itself"), self->run_dir, pid);
      return FALSE;
    }
  /* A run folder (records, plan) that lost its command: "not a run
   * folder" would hide that the records are there and what is missing. */
  if (!g_file_get_contents (command_path, &command, NULL, NULL))
    {
      g_set_error (error, MG_RUN_RECOVERY_ERROR, MG_RUN_RECOVERY_ERROR_NOT_A_RUN,
                   _("%s holds the records of a run but not its command file %s (the "
                     "metrograph --profile line that repeats the run, from which --recover "
                     "takes its program, options and working folder); write that line there "
                     "(cd FOLDER && metrograph --profile OPTIONS PROGRAM ARGS) and run "
                     "metrograph --recover %s again"),
                   self->run_dir, command_path, self->run_dir);
      return FALSE;
    }
  if (!mg_run_settings_set_from_command_line (self->settings, g_strstrip (command), NULL,
                                              &local_error))
    {
      g_set_error (error, MG_RUN_RECOVERY_ERROR, MG_RUN_RECOVERY_ERROR_SETTINGS,
                   _("%s: the run's command line cannot be read back: %s"), command_path,
                   local_error->message);
      return FALSE;
    }
  return TRUE;
}

char *
mg_run_recovery_describe_folder (const char *path, char **what_to_do)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRunRecovery) run = NULL;
  g_autofree char *display = NULL;

  *what_to_do = NULL;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return NULL;
  run = mg_run_recovery_open (path, &error);
  if (run == NULL && !g_error_matches (error, MG_RUN_RECOVERY_ERROR, MG_RUN_RECOVERY_ERROR_LIVE))
    return NULL;
  display = g_filename_display_name (path);
  if (run == NULL)
    {
      *what_to_do = g_strdup (_("wait for it to end, then open the profile it writes"));
      return g_strdup (error->message);
    }
  /* Translators: %s is the folder given, then the same folder */
  *what_to_do = g_strdup_printf (_("write its profile with metrograph --recover %s, then open "
                                   "that"), display);
  /* Translators: %s is a folder */
  return g_strdup_printf (_("“%s” is the folder of a run whose profile was never written "
                            "(Metrograph ended before the program)"), display);
}

MgRunRecovery *
mg_run_recovery_open (const char *run_dir, GError **error)
{
  g_autoptr (MgRunRecovery) self = g_new0 (MgRunRecovery, 1);

  self->run_dir = g_canonicalize_filename (run_dir, NULL);
  self->record_dir = g_build_filename (self->run_dir, MG_RUN_FOLDER_RECORDS, NULL);
  self->settings = mg_run_settings_new ();
  self->running = g_ptr_array_new_with_free_func ((GDestroyNotify) recovered_process_free);
  if (!read_folder (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

const char *
mg_run_recovery_get_run_dir (MgRunRecovery *self)
{
  return self->run_dir;
}

MgRunSettings *
mg_run_recovery_get_settings (MgRunRecovery *self)
{
  return self->settings;
}

GPtrArray *
mg_run_recovery_get_running (MgRunRecovery *self)
{
  return self->running;
}

/* The host as the sampler names it. */
static gboolean
is_this_host (const char *host)
{
  char name[MG_RECORD_HOST_LEN];

  mg_record_host_name (name);
  return strcmp (name, host) == 0;
}

/* The process of an open record still runs: its pid exists and started no
 * later than its sampler (a reused pid started later). Both clocks count
 * from boot; a second of slack covers the tick's rounding. */
static gboolean
still_runs (const MgRecordHeader *h)
{
  guint64 ticks = mg_run_folder_process_start_time (h->pid);
  long hz = sysconf (_SC_CLK_TCK);

  if (ticks == 0 || hz <= 0 || !is_this_host (h->host))
    return FALSE;
  return (double) ticks / (double) hz <= (double) h->start_mono_ns / 1e9 + 1.0;
}

static int
status_of (const MgRecordHeader *h)
{
  switch ((MgRecordState) h->state)
    {
    case MG_RECORD_STATE_EXITED:
      return h->end_status;
    case MG_RECORD_STATE_SIGNALLED:
      return 128 + h->end_status;
    case MG_RECORD_STATE_RUNNING:
    case MG_RECORD_STATE_EXECED:
    default:
      return 0;
    }
}

typedef struct {
  MgRunRecovery *self;
  MgRecordHeader first;        /* the earliest process (by wall clock) */
  gboolean any;
} Survey;

static gboolean
note_process (const char *path, const MgRecordHeader *h, gpointer data)
{
  Survey *s = data;

  if (strcmp (h->run_id, s->self->run_id) != 0)
    return TRUE;
  if (h->state == MG_RECORD_STATE_RUNNING && still_runs (h))
    {
      MgRecoveredProcess *p = g_new0 (MgRecoveredProcess, 1);

      p->pid = h->pid;
      p->program = g_strdup (h->program);
      g_ptr_array_add (s->self->running, p);
    }
  if (!s->any || h->start_real_ns < s->first.start_real_ns)
    s->first = *h;
  s->any = TRUE;
  return TRUE;
}

/* Later images of the same pid (after exec) carry its status. */
static gboolean
note_later_image (const char *path, const MgRecordHeader *h, gpointer data)
{
  MgRecordHeader *last = data;

  if (strcmp (h->run_id, last->run_id) == 0 && h->pid == last->pid
      && strcmp (h->host, last->host) == 0 && h->start_mono_ns > last->start_mono_ns)
    *last = *h;
  return TRUE;
}

/* Reads the headers (of records and node summaries): the processes still
 * running, the run's start and the status of its first process (the last
 * record of the earliest pid's). */
static int
survey_records (MgRunRecovery *self)
{
  Survey s = { .self = self };
  MgRecordHeader last_of_first;

  g_ptr_array_set_size (self->running, 0);
  mg_record_folder_foreach (self->record_dir, note_process, &s);
  self->start_real_ns = s.any ? s.first.start_real_ns : 0;
  if (!s.any)
    return 0;
  last_of_first = s.first;
  mg_record_folder_foreach (self->record_dir, note_later_image, &last_of_first);
  return status_of (&last_of_first);
}

static int
compare_pids (gconstpointer a, gconstpointer b)
{
  const MgRecoveredProcess *pa = *(MgRecoveredProcess *const *) a;
  const MgRecoveredProcess *pb = *(MgRecoveredProcess *const *) b;

  return (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

MgProfile *
mg_run_recovery_merge (MgRunRecovery *self, MgCatalogue *catalogue, GError **error)
{
  g_autoptr (GPtrArray) metrics = g_ptr_array_new ();
  g_autoptr (GPtrArray) groups = g_ptr_array_new ();
  g_auto (GStrv) args = mg_run_settings_dup_argv (self->settings, NULL);
  g_autoptr (GStrvBuilder) argv_builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  const char *folder = mg_run_settings_get_working_folder (self->settings);
  int exit_status = survey_records (self);
  MgMergeInput input = { 0 };
  g_autofree char *missing = NULL;
  MgPluginError missing_error = { -1, NULL, NULL, 0, NULL };

  g_ptr_array_sort (self->running, compare_pids);
  mg_run_assembly_collect_definitions (catalogue, metrics, groups);
  g_strv_builder_add (argv_builder, mg_run_settings_get_program (self->settings));
  if (args != NULL)
    g_strv_builder_addv (argv_builder, (const char **) args);
  argv = g_strv_builder_end (argv_builder);
  input.metrics = metrics;
  input.groups = groups;
  input.argv = (const char *const *) argv;
  input.working_dir = folder;
  input.start_time_us = self->start_real_ns / 1000;
  input.exit_status = exit_status;
  input.run_id = self->run_id;
  missing = mg_missing_ranks_describe (self->record_dir, self->run_id,
                                       mg_run_settings_get_n_processes (self->settings),
                                       mg_run_settings_get_select_ranks (self->settings));
  missing_error.message = missing;
  input.run_errors = &missing_error;
  input.n_run_errors = missing != NULL;
  input.process_precision = mg_run_settings_get_process_precision (self->settings);
  return mg_merge_records (self->record_dir, &input, error);
}

void
mg_run_recovery_set_output (MgRunRecovery *self, const char *output)
{
  g_free (self->output);
  self->output = g_strdup (output);
}

void
mg_run_recovery_set_code (MgRunRecovery *self, const MgStackNamer *namer,
                          const MgSourceCollector *sources, gsize source_limit)
{
  self->namer = namer != NULL ? *namer : (MgStackNamer) { 0 };
  self->sources = sources != NULL ? *sources : (MgSourceCollector) { 0 };
  self->source_limit = source_limit;
}

char *
mg_run_recovery_choose_output (MgRunRecovery *self, MgProfile *profile)
{
  const MgRunInfo *info = mg_profile_get_run_info (profile);
  g_auto (GStrv) env = mg_run_settings_build_environment (self->settings, NULL);
  const char *folder = mg_run_settings_get_working_folder (self->settings);
  g_autofree char *base = NULL;
  g_autoptr (GDateTime) start = g_date_time_new_from_unix_utc (self->start_real_ns / 1000000000);
  g_autofree char *chosen = NULL;

  base = folder != NULL && self->output == NULL ? g_strdup (folder) : g_get_current_dir ();
  chosen = mg_output_name_choose (
    self->output != NULL ? self->output : mg_run_settings_get_output (self->settings), base,
    mg_run_settings_get_program (self->settings),
    info->n_processes - mg_profile_get_n_helpers (profile), MAX (info->n_nodes, 1),
    mg_output_name_threads_from_environ ((const char *const *) env), start);
  /* A file given now is replaced, as with --profile -o; the run's own -o
   * FILE may have been written since by another run. */
  if (self->output != NULL)
    return g_steal_pointer (&chosen);
  return mg_output_name_make_unique (chosen);
}

MgProfile *
mg_run_recovery_write (MgRunRecovery *self, char **output, GError **error)
{
  /* The definitions the run had, its toggles applied. */
  g_autoptr (MgCatalogue) catalogue = mg_run_catalogue_for_run (self->settings, NULL, error);
  g_autoptr (MgProfile) profile = NULL;
  g_autofree char *path = NULL;

  if (catalogue == NULL)
    return NULL;
  profile = mg_run_recovery_merge (self, catalogue, error);
  if (profile == NULL)
    return NULL;
  if (self->namer.func != NULL)
    mg_profile_store_code (profile, &self->namer,
                           self->sources.func != NULL ? &self->sources : NULL, self->source_limit);
  path = mg_run_recovery_choose_output (self, profile);
  if (!mg_profile_save (profile, path, error))
    return NULL;
  if (self->running->len == 0)
    mg_run_folder_remove (self->run_dir);
  *output = g_steal_pointer (&path);
  return g_steal_pointer (&profile);
}
