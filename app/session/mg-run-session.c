/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program runs in its own process group (mg_launcher_spawn), so Stop
 * and Cancel reach everything it started. Live merges run in a worker
 * thread, one at a time, and publish their profile on the main context. */
#include "mg-config.h"

#include "mg-run-session.h"
#include "mg-run-session-private.h"

#include <glib/gi18n.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>

#include "mg-run-assembly.h"
#include "mg-run-catalogue.h"
#include "mg-run-check.h"
#include "mg-run-end.h"
#include "mg-stopper.h"

#define MAX_OUTPUT_LINES 2000
#define DEFAULT_REFRESH_MS 250

struct _MgRunSession
{
  GObject parent_instance;

  MgRunSettings *settings;
  MgCatalogue *catalogue;
  MgRunAssembly *run;          /* from the start on */
  MgLauncher *launcher;        /* the run's */
  guint child_watch_id;
  GCancellable *cancellable;
  int pgid;

  MgRunState state;
  gint64 start_mono_us;
  gint64 start_real_us;
  gint64 end_mono_us;
  guint tick_id;
  guint refresh_ms;
  gint64 merge_start_us;       /* when the last live merge started */
  guint stopper_id;            /* the stopper's next deadline */
  MgStopper stopper;           /* Stop, Cancel and Stop after end the program */
  gboolean merge_running;
  gboolean stopped;
  gboolean cancelled;
  int exit_status;
  guint n_refreshes;

  MgProfile *profile;
  char *output_path;
  MgRunSummary *summary;       /* the command line's run, once saved */
  guint n_processes;           /* of the profile, counted when it arrives */
  guint n_samples;
  char *message;
  GString *output;
  guint output_lines;
  GString *kept_output;        /* what the profile keeps: the last MG_PROFILE_OUTPUT_MAX bytes */
  guint64 kept_cut;            /* bytes left out before it */
  gboolean output_open;        /* the pipe has not reached its end yet */
  guint output_wait_id;        /* after the exit: how long we wait for that end */
  MgRunSessionSaveHook save_hook;
  gpointer save_hook_data;
  gboolean blocking;           /* driven by mg_run_session_run () */
  char **reports_path;         /* what the report is made with (--reports-path) */
  char *baseline;              /* and compared with (--baseline) */
  MgStackNamer namer;          /* names the stack frames at the end; func NULL: none */
  MgSourceCollector sources;   /* reads the source text then; func NULL: none */
  gsize source_limit;
  MgRunReport report;          /* once DONE: what came of the report */
};

G_DEFINE_FINAL_TYPE (MgRunSession, mg_run_session, G_TYPE_OBJECT)
G_DEFINE_QUARK (mg-run-session-error-quark, mg_run_session_error)
G_DEFINE_ENUM_TYPE (MgRunState, mg_run_state,
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_IDLE, "idle"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_PREPARING, "preparing"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_RUNNING, "running"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_MERGING, "merging"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_DONE, "done"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (MG_RUN_STATE_CANCELLED, "cancelled"))

enum {
  PROP_0,
  PROP_STATE,
  PROP_ELAPSED,
  PROP_N_PROCESSES,
  PROP_N_SAMPLES,
  PROP_EXIT_STATUS,
  PROP_PROFILE,
  PROP_OUTPUT_PATH,
  PROP_MESSAGE,
  PROP_STOPPED,
  N_PROPS
};

enum { SIGNAL_OUTPUT, SIGNAL_PREPARED, N_SIGNALS };

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

static void finish_run (MgRunSession *self);

static void
reap_quietly (GPid pid, int status, gpointer data)
{
}
static void schedule_stopper (MgRunSession *self);

static void
mg_run_session_dispose (GObject *object)
{
  MgRunSession *self = MG_RUN_SESSION (object);

  /* A session dropped while running must not leave the program behind;
   * GLib still reaps it. */
  if (self->child_watch_id != 0)
    {
      kill (-self->pgid, SIGKILL);
      g_clear_handle_id (&self->child_watch_id, g_source_remove);
      g_child_watch_add (self->pgid, reap_quietly, NULL);
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->stopper_id, g_source_remove);
  g_clear_handle_id (&self->output_wait_id, g_source_remove);
  G_OBJECT_CLASS (mg_run_session_parent_class)->dispose (object);
}

static void
mg_run_session_finalize (GObject *object)
{
  MgRunSession *self = MG_RUN_SESSION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->catalogue);
  g_clear_object (&self->run);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->summary, mg_run_summary_free);
  g_free (self->output_path);
  g_free (self->message);
  g_string_free (self->output, TRUE);
  g_string_free (self->kept_output, TRUE);
  g_strfreev (self->reports_path);
  g_free (self->baseline);
  mg_run_report_clear (&self->report);
  G_OBJECT_CLASS (mg_run_session_parent_class)->finalize (object);
}

static void
mg_run_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRunSession *self = MG_RUN_SESSION (object);

  switch (prop_id)
    {
    case PROP_STATE: g_value_set_enum (value, self->state); break;
    case PROP_ELAPSED: g_value_set_double (value, mg_run_session_get_elapsed (self)); break;
    case PROP_N_PROCESSES: g_value_set_uint (value, mg_run_session_get_n_processes (self)); break;
    case PROP_N_SAMPLES: g_value_set_uint (value, mg_run_session_get_n_samples (self)); break;
    case PROP_EXIT_STATUS: g_value_set_int (value, self->exit_status); break;
    case PROP_PROFILE: g_value_set_object (value, self->profile); break;
    case PROP_OUTPUT_PATH: g_value_set_string (value, self->output_path); break;
    case PROP_MESSAGE: g_value_set_string (value, self->message); break;
    case PROP_STOPPED: g_value_set_boolean (value, self->stopped); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_run_session_class_init (MgRunSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = mg_run_session_dispose;
  object_class->finalize = mg_run_session_finalize;
  object_class->get_property = mg_run_session_get_property;

  props[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL, MG_TYPE_RUN_STATE,
                                         MG_RUN_STATE_IDLE, flags);
  props[PROP_ELAPSED] = g_param_spec_double ("elapsed", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  props[PROP_N_PROCESSES] = g_param_spec_uint ("n-processes", NULL, NULL, 0, G_MAXUINT, 0, flags);
  props[PROP_N_SAMPLES] = g_param_spec_uint ("n-samples", NULL, NULL, 0, G_MAXUINT, 0, flags);
  props[PROP_EXIT_STATUS] = g_param_spec_int ("exit-status", NULL, NULL, -1, G_MAXINT, -1, flags);
  props[PROP_PROFILE] = g_param_spec_object ("profile", NULL, NULL, MG_TYPE_PROFILE, flags);
  props[PROP_OUTPUT_PATH] = g_param_spec_string ("output-path", NULL, NULL, NULL, flags);
  props[PROP_MESSAGE] = g_param_spec_string ("message", NULL, NULL, NULL, flags);
  props[PROP_STOPPED] = g_param_spec_boolean ("stopped", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /* Program output as it arrives (stdout and stderr interleaved). */
  signals[SIGNAL_OUTPUT] = g_signal_new ("output", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* mg_run_session_run (): the run is put together and the program about
   * to start (what to say before a long run: warnings, diagnostics). */
  signals[SIGNAL_PREPARED] = g_signal_new ("prepared", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 0);
}

static void
mg_run_session_init (MgRunSession *self)
{
  self->cancellable = g_cancellable_new ();
  self->output = g_string_new (NULL);
  self->kept_output = g_string_new (NULL);
  self->exit_status = -1;
  mg_stopper_init (&self->stopper, 0, MG_STOPPER_GRACE_S);
  self->refresh_ms = DEFAULT_REFRESH_MS;
}

MgRunSession *
mg_run_session_new (MgRunSettings *settings, MgCatalogue *catalogue)
{
  MgRunSession *self = g_object_new (MG_TYPE_RUN_SESSION, NULL);

  self->settings = mg_run_settings_copy (settings);
  self->catalogue = catalogue != NULL ? g_object_ref (catalogue) : NULL;
  return self;
}

static void
set_state (MgRunSession *self, MgRunState state)
{
  if (self->state == state)
    return;
  self->state = state;
  /* The records are merged (or not wanted): nothing is left behind, even
   * when the session itself outlives the application's end. A failed end
   * has asked the launcher to keep them (mg-run-end.h). */
  if (mg_run_session_is_finished (self) && self->launcher != NULL)
    mg_launcher_remove_run_dir (self->launcher);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATE]);
}

static void
set_message (MgRunSession *self, const char *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MESSAGE]);
}

static void
fail (MgRunSession *self, const char *message)
{
  set_message (self, message);
  set_state (self, MG_RUN_STATE_FAILED);
}

/* ---- output ------------------------------------------------------------- */

static void
append_output (MgRunSession *self, const char *text, gsize len)
{
  g_autofree char *valid = g_utf8_make_valid (text, (gssize) len);

  g_string_append (self->output, valid);
  for (const char *p = valid; (p = strchr (p, '\n')) != NULL; p++)
    self->output_lines++;
  /* Bounded: drop the oldest lines. */
  while (self->output_lines > MAX_OUTPUT_LINES)
    {
      const char *nl = strchr (self->output->str, '\n');

      if (nl == NULL)
        break;
      g_string_erase (self->output, 0, nl - self->output->str + 1);
      self->output_lines--;
    }
  /* The profile's copy: the bytes as they came (a NUL, which the profile
   * cannot hold, as U+FFFD), bounded, its start dropped in large steps (the
   * builder trims it to the exact bound, at a character). */
  for (gsize i = 0; i < len; i++)
    if (text[i] != '\0')
      g_string_append_c (self->kept_output, text[i]);
    else
      g_string_append (self->kept_output, "\xef\xbf\xbd");
  if (self->kept_output->len > 2 * MG_PROFILE_OUTPUT_MAX)
    {
      gsize drop = self->kept_output->len - MG_PROFILE_OUTPUT_MAX;

      g_string_erase (self->kept_output, 0, (gssize) drop);
      self->kept_cut += drop;
    }
  g_signal_emit (self, signals[SIGNAL_OUTPUT], 0, valid);
}

static void read_output (MgRunSession *self, GInputStream *stream);

static void
on_output_read (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (MgRunSession) self = user_data;
  g_autoptr (GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, NULL);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      self->output_open = FALSE;
      /* The program's last words are in: the end may go on. */
      if (self->output_wait_id != 0)
        {
          g_clear_handle_id (&self->output_wait_id, g_source_remove);
          finish_run (self);
        }
      return;
    }
  append_output (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  read_output (self, G_INPUT_STREAM (source));
}

static void
read_output (MgRunSession *self, GInputStream *stream)
{
  g_input_stream_read_bytes_async (stream, 8192, G_PRIORITY_DEFAULT, self->cancellable,
                                   on_output_read, g_object_ref (self));
}

/* ---- merging ------------------------------------------------------------ */

typedef struct {
  MgRunAssembly *run;
  int exit_status;
  gboolean final;              /* the final job also saves (never on the main thread) */
  char *report_file;           /* the final job writes the report (mg-run-report.h) */
  char **reports_path;
  char *baseline;
  MgStackNamer namer;
  MgSourceCollector sources;
  gsize source_limit;
  MgRunSessionSaveHook save_hook;
  gpointer save_hook_data;
} MergeJob;

/* What the final job gives back: the run's end (mg-run-end.h). */
typedef struct {
  MgRunEnd end;
  GError *error;               /* why it failed, NULL when the profile was saved */
} FinalResult;

static void
merge_job_free (MergeJob *job)
{
  g_object_unref (job->run);
  g_free (job->report_file);
  g_strfreev (job->reports_path);
  g_free (job->baseline);
  g_free (job);
}

static void
final_result_free (FinalResult *result)
{
  mg_run_end_clear (&result->end);
  g_clear_error (&result->error);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MergeJob, merge_job_free)

static MergeJob *
merge_job_new (MgRunSession *self, gboolean final)
{
  MergeJob *job = g_new0 (MergeJob, 1);

  job->run = g_object_ref (self->run);
  job->final = final;
  if (final)
    {
      job->report_file = g_strdup (mg_run_settings_get_report (self->settings));
      job->reports_path = g_strdupv (self->reports_path);
      job->baseline = g_strdup (self->baseline);
      job->namer = self->namer;
      job->sources = self->sources;
      job->source_limit = self->source_limit;
    }
  job->exit_status = final ? self->exit_status : 0;
  job->save_hook = self->save_hook;
  job->save_hook_data = self->save_hook_data;
  return job;
}

/* The run's end, the report included (mg-run-end.h). */
static FinalResult *
finish_in_thread (MergeJob *job)
{
  FinalResult *result = g_new0 (FinalResult, 1);
  MgRunCodeRequest code = {
    .namer = job->namer.func != NULL ? &job->namer : NULL,
    .sources = job->sources.func != NULL ? &job->sources : NULL,
    .source_limit = job->source_limit,
  };
  MgRunReportRequest report = {
    .file = job->report_file,
    .paths = (const char *const *) job->reports_path,
    .baseline = job->baseline,
    .namer = job->namer.func != NULL ? &job->namer : NULL,
  };

  mg_run_assembly_finish (job->run, job->exit_status, &code, &report, job->save_hook,
                          job->save_hook_data, &result->end, &result->error);
  return result;
}

static void
merge_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  MergeJob *job = task_data;
  GError *error = NULL;
  g_autoptr (MgProfile) profile = NULL;

  if (job->final)
    {
      g_task_return_pointer (task, finish_in_thread (job), (GDestroyNotify) final_result_free);
      return;
    }
  profile = mg_run_assembly_merge (job->run, 0, MG_RUN_SESSION_LIVE_SAMPLES, &error);
  if (profile == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&profile), g_object_unref);
}

/* The counts the window shows are read once here, where the profile
 * arrives, and kept as plain numbers. */
static void
set_profile (MgRunSession *self, MgProfile *profile)
{
  guint n_processes = mg_profile_get_n_processes (profile);
  guint n_samples = mg_profile_get_n_windows (profile);

  g_set_object (&self->profile, profile);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROFILE]);
  if (n_processes != self->n_processes)
    {
      self->n_processes = n_processes;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_PROCESSES]);
    }
  if (n_samples != self->n_samples)
    {
      self->n_samples = n_samples;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_N_SAMPLES]);
    }
}

static void start_merge (MgRunSession *self, gboolean final, GAsyncReadyCallback callback);

static void
on_live_merged (GObject *source, GAsyncResult *result, gpointer user_data)
{
  MgRunSession *self = MG_RUN_SESSION (source);
  g_autoptr (MgProfile) profile = g_task_propagate_pointer (G_TASK (result), NULL);

  self->merge_running = FALSE;
  if (profile != NULL && self->state == MG_RUN_STATE_RUNNING)
    {
      self->n_refreshes++;
      set_profile (self, profile);
    }
  /* The program ended while this merge ran: now the final one. */
  if (self->state == MG_RUN_STATE_MERGING)
    finish_run (self);
  /* A merge that took longer than the refresh interval made the tick skip:
   * the next one starts now rather than at the next tick. */
  else if (self->state == MG_RUN_STATE_RUNNING
           && g_get_monotonic_time () - self->merge_start_us >= (gint64) self->refresh_ms * 1000)
    start_merge (self, FALSE, on_live_merged);
}

static void
start_merge (MgRunSession *self, gboolean final, GAsyncReadyCallback callback)
{
  g_autoptr (GTask) task = g_task_new (self, NULL, callback, NULL);

  self->merge_running = TRUE;
  self->merge_start_us = g_get_monotonic_time ();
  g_task_set_task_data (task, merge_job_new (self, final), (GDestroyNotify) merge_job_free);
  g_task_run_in_thread (task, merge_in_thread);
}

static gboolean
on_tick (gpointer user_data)
{
  MgRunSession *self = user_data;

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ELAPSED]);
  if (!self->merge_running && self->state == MG_RUN_STATE_RUNNING)
    start_merge (self, FALSE, on_live_merged);
  return G_SOURCE_CONTINUE;
}

/* ---- the end ------------------------------------------------------------ */

/* The end's error as the window's message: a sentence. */
static char *
end_failure_message (const GError *error)
{
  gunichar first = g_utf8_get_char (error->message);
  char head[8] = { 0 };

  g_unichar_to_utf8 (g_unichar_totitle (first), head);
  return g_strconcat (head, g_utf8_next_char (error->message), ".", NULL);
}

static char *
describe_end (MgRunSession *self)
{
  g_autoptr (GString) text = g_string_new (NULL);
  int status = self->exit_status;
  g_auto (GStrv) warnings = mg_run_settings_dup_warnings (self->settings);

  /* Said as the command line says it (mg-run-summary.c). */
  if (self->stopper.stopped_after)
    g_string_append_printf (text, _("Stopped after %g s (Stop after); the profile was still "
                                    "written."), self->stopper.stop_after_s);
  else if (self->stopped)
    g_string_append_printf (text, _("Stopped after %.1f s, as asked; the profile was still written."),
                            mg_run_session_get_elapsed (self));
  else if (status > 128)
    g_string_append_printf (text, _("The program was killed by signal %d (%s)."), status - 128,
                            g_strsignal (status - 128));
  else if (status > 0)
    g_string_append_printf (text, _("The program exited with status %d."), status);
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      if (text->len > 0)
        g_string_append_c (text, ' ');
      /* As the command line warns before the run. */
      g_string_append_printf (text, _("Note: %s."), warnings[i]);
    }
  /* The command line says it in its own words. */
  if (self->report.error != NULL && !self->blocking)
    {
      g_autofree char *report = end_failure_message (self->report.error);

      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, report);
    }
  /* No count of errors: the window counts them once, the real ones only
   * (mg-error-list.h), and the command line's summary its own way. */
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

/* @why: mg_run_assembly_explain_no_samples ()'s clause. */
static char *
describe_no_samples (MgRunSession *self, const char *why)
{
  int status = self->exit_status;
  g_autofree char *exit_text = NULL;

  if (status > 128)
    exit_text = g_strdup_printf (_(" The program was killed by signal %d (%s)."), status - 128,
                                 g_strsignal (status - 128));
  else if (status > 0)
    exit_text = g_strdup_printf (_(" The program exited with status %d."), status);
  /* As the command line explains it. */
  return g_strdup_printf (_("No samples were recorded, so no profile was written: %s.%s"), why,
                          exit_text != NULL ? exit_text : "");
}

/* The command line's lines about the saved profile, made here once, so
 * that it prints them and never reads the profile. */
static void
summarize (MgRunSession *self)
{
  MgRunSummaryRequest request = {
    .output = self->output_path,
    .stopped_after_s = self->stopped ? self->stopper.stop_after_s : 0,
    .select_ranks = mg_run_settings_get_select_ranks (self->settings),
    .catalogue = self->catalogue,
    .enable_metrics = mg_run_settings_get_enable_metrics (self->settings),
  };

  self->summary = mg_run_summary_new (self->profile, &request);
}

/* The state, profile and message the run's end gives, for both drivers;
 * the blocking driver's MG_RUN_SESSION_ERROR in @error. */
static void
end_with (MgRunSession *self, FinalResult *final, GError **error)
{
  gboolean no_samples = g_error_matches (final->error, MG_PROFILE_ERROR,
                                         MG_PROFILE_ERROR_NO_SAMPLES);
  /* Explained once: the window's sentence and the command line's clause. */
  g_autofree char *why = no_samples ? mg_run_assembly_explain_no_samples (self->run) : NULL;
  g_autofree char *message = NULL;

  if (no_samples)
    g_set_error_literal (error, MG_RUN_SESSION_ERROR, MG_RUN_SESSION_ERROR_NO_SAMPLES, why);
  else if (final->error != NULL)
    g_set_error_literal (error, MG_RUN_SESSION_ERROR, MG_RUN_SESSION_ERROR_END,
                         final->error->message);
  self->merge_running = FALSE;
  if (self->cancelled)
    set_state (self, MG_RUN_STATE_CANCELLED);
  else if (no_samples)
    {
      message = describe_no_samples (self, why);
      fail (self, message);
    }
  else if (final->error != NULL)
    {
      /* The records are kept (mg-run-end.h); a profile that merged is
       * still shown. */
      if (final->end.profile != NULL)
        set_profile (self, final->end.profile);
      message = end_failure_message (final->error);
      fail (self, message);
    }
  else
    {
      self->output_path = g_steal_pointer (&final->end.path);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_OUTPUT_PATH]);
      set_profile (self, final->end.profile);
      self->report = final->end.report;
      final->end.report = (MgRunReport) { 0 };
      message = describe_end (self);
      if (message != NULL)
        set_message (self, message);
      if (self->blocking)
        summarize (self);
      set_state (self, MG_RUN_STATE_DONE);
    }
}

static void
on_final_merged (GObject *source, GAsyncResult *result, gpointer user_data)
{
  FinalResult *final = g_task_propagate_pointer (G_TASK (result), NULL);

  end_with (MG_RUN_SESSION (source), final, NULL);
  final_result_free (final);
}

static gboolean
on_output_wait_over (gpointer user_data)
{
  MgRunSession *self = user_data;

  /* Something the program started still holds the pipe: go on without it. */
  self->output_wait_id = 0;
  self->output_open = FALSE;
  finish_run (self);
  return G_SOURCE_REMOVE;
}

static void
finish_run (MgRunSession *self)
{
  if (self->merge_running)
    return; /* on_live_merged comes back here */
  if (self->output_open)
    {
      if (self->output_wait_id == 0)
        self->output_wait_id = g_timeout_add (2000, on_output_wait_over, self);
      return; /* on_output_read or the timeout come back here */
    }
  if (self->cancelled)
    {
      set_state (self, MG_RUN_STATE_CANCELLED);
      return;
    }
  /* The program's last words are in: the profile keeps them. */
  mg_run_assembly_set_output (self->run, self->kept_output->str, self->kept_cut);
  start_merge (self, TRUE, on_final_merged);
}

static void
on_process_exited (GPid pid, int wait_status, gpointer user_data)
{
  MgRunSession *self = user_data;

  self->child_watch_id = 0;
  self->end_mono_us = g_get_monotonic_time ();
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->stopper_id, g_source_remove);
  mg_stopper_finish (&self->stopper);
  /* A signal is written into the record as the command line does. */
  self->exit_status = mg_launcher_child_ended (self->launcher, pid, wait_status);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EXIT_STATUS]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ELAPSED]);
  set_state (self, MG_RUN_STATE_MERGING);
  finish_run (self);
}

/* ---- starting ----------------------------------------------------------- */

/* The run's catalogue, its toggles applied once (mg-run-catalogue.h): the
 * one given, else the one the settings name. */
static gboolean
take_catalogue (MgRunSession *self, GError **error)
{
  MgCatalogue *catalogue = mg_run_catalogue_for_run (self->settings, self->catalogue, error);

  if (catalogue == NULL)
    return FALSE;
  g_clear_object (&self->catalogue);
  self->catalogue = catalogue;
  return TRUE;
}

/* Checked in the dialog's words first, then assembled as the command line
 * does (mg-run-assembly.h). */
static gboolean
prepare (MgRunSession *self, GError **error)
{
  if (!mg_run_settings_check (self->settings, error) || !take_catalogue (self, error))
    return FALSE;
  self->run = mg_run_assembly_new (self->settings, self->catalogue, error);
  if (self->run == NULL)
    return FALSE;
  self->launcher = mg_run_assembly_get_launcher (self->run);
  return TRUE;
}

static gboolean
spawn (MgRunSession *self, GError **error)
{
  int output_fd = -1;
  GPid pid;
  g_autoptr (GInputStream) output = NULL;

  if (!mg_launcher_spawn (self->launcher, &output_fd, &pid, error))
    return FALSE;
  self->pgid = pid;
  self->start_mono_us = g_get_monotonic_time ();
  self->start_real_us = mg_launcher_get_start_time_us (self->launcher);
  self->child_watch_id = g_child_watch_add (pid, on_process_exited, self);
  output = g_unix_input_stream_new (output_fd, TRUE);
  self->output_open = TRUE;
  read_output (self, output);
  return TRUE;
}

gboolean
mg_run_session_start (MgRunSession *self, GError **error)
{
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (self->state == MG_RUN_STATE_IDLE, FALSE);

  set_state (self, MG_RUN_STATE_PREPARING);
  if (!prepare (self, &local_error) || !spawn (self, &local_error))
    {
      fail (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  set_state (self, MG_RUN_STATE_RUNNING);
  /* Stop after ends the program as --stop-after does: the plan stops the
   * sampling, the stopper the program. */
  self->stopper.stop_after_s = mg_run_settings_get_stop_after (self->settings);
  mg_stopper_start (&self->stopper, self->pgid, self->start_mono_us);
  schedule_stopper (self);
  self->tick_id = g_timeout_add (self->refresh_ms, on_tick, self);
  return TRUE;
}

/* ---- the command line's run -------------------------------------------- */

/* @message as MG_RUN_SESSION_ERROR @code, and the state FAILED with it. */
static gboolean
fail_run (MgRunSession *self, MgRunSessionError code, const char *message, GError **error)
{
  g_set_error_literal (error, MG_RUN_SESSION_ERROR, code, message);
  fail (self, message);
  return FALSE;
}

/* The catalogue, the output folder and the assembly, in the command line's
 * words (the window checks its fields in the dialog's). */
static gboolean
prepare_blocking (MgRunSession *self, GError **error)
{
  g_autoptr (GError) local_error = NULL;

  if (!mg_run_settings_check_output (self->settings, &local_error))
    return fail_run (self, MG_RUN_SESSION_ERROR_SETTINGS, local_error->message, error);
  if (!take_catalogue (self, &local_error))
    return fail_run (self,
                     local_error->domain == MG_CATALOGUE_ERROR ? MG_RUN_SESSION_ERROR_METRICS
                                                                : MG_RUN_SESSION_ERROR_SETTINGS,
                     local_error->message, error);
  self->run = mg_run_assembly_new (self->settings, self->catalogue, &local_error);
  if (self->run == NULL)
    return fail_run (self, MG_RUN_SESSION_ERROR_LAUNCH, local_error->message, error);
  self->launcher = mg_run_assembly_get_launcher (self->run);
  return TRUE;
}

/* The program with our stdio, to its end: stop-after and a stop of the
 * program are the launcher's (mg_launcher_run). */
static gboolean
run_program (MgRunSession *self, GError **error)
{
  g_autoptr (GError) local_error = NULL;
  int status = 0;

  set_state (self, MG_RUN_STATE_RUNNING);
  self->start_mono_us = g_get_monotonic_time ();
  if (!mg_launcher_run (self->launcher, &status, &local_error))
    return fail_run (self, MG_RUN_SESSION_ERROR_LAUNCH, local_error->message, error);
  self->end_mono_us = g_get_monotonic_time ();
  self->start_real_us = mg_launcher_get_start_time_us (self->launcher);
  self->exit_status = status;
  self->stopper.stop_after_s = mg_run_settings_get_stop_after (self->settings);
  self->stopped = self->stopper.stopped_after = mg_launcher_get_stopped (self->launcher);
  if (self->stopped)
    mg_run_assembly_set_stopped (self->run, self->stopper.stop_after_s);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EXIT_STATUS]);
  return TRUE;
}

gboolean
mg_run_session_run (MgRunSession *self, GError **error)
{
  g_autoptr (MergeJob) job = NULL;
  FinalResult *final;
  gboolean saved;

  g_return_val_if_fail (self->state == MG_RUN_STATE_IDLE, FALSE);

  self->blocking = TRUE;
  set_state (self, MG_RUN_STATE_PREPARING);
  if (!prepare_blocking (self, error))
    return FALSE;
  g_signal_emit (self, signals[SIGNAL_PREPARED], 0);
  if (!run_program (self, error))
    return FALSE;
  set_state (self, MG_RUN_STATE_MERGING);
  job = merge_job_new (self, TRUE);
  final = finish_in_thread (job);
  end_with (self, final, error);
  saved = final->error == NULL;
  final_result_free (final);
  return saved;
}

void
mg_run_session_set_report_sources (MgRunSession *self, const char *const *reports_path,
                                   const char *baseline)
{
  g_return_if_fail (self->state == MG_RUN_STATE_IDLE);

  g_strfreev (self->reports_path);
  self->reports_path = g_strdupv ((char **) reports_path);
  g_free (self->baseline);
  self->baseline = g_strdup (baseline);
}

void
mg_run_session_set_stack_namer (MgRunSession *self, const MgStackNamer *namer)
{
  g_return_if_fail (self->state == MG_RUN_STATE_IDLE);

  self->namer = namer != NULL ? *namer : (MgStackNamer) { 0 };
}

void
mg_run_session_set_source_collector (MgRunSession *self, const MgSourceCollector *sources,
                                     gsize limit)
{
  g_return_if_fail (self->state == MG_RUN_STATE_IDLE);

  self->sources = sources != NULL ? *sources : (MgSourceCollector) { 0 };
  self->source_limit = limit;
}

const MgRunSummary *
mg_run_session_get_summary (MgRunSession *self)
{
  return self->summary;
}

const MgRunReport *
mg_run_session_get_report (MgRunSession *self)
{
  return &self->report;
}

MgRunSessionEnd
mg_run_session_get_end (MgRunSession *self)
{
  return (MgRunSessionEnd) {
    .exit_status = self->exit_status,
    .summary = self->summary,
    .report = &self->report,
  };
}

MgCatalogue *
mg_run_session_get_catalogue (MgRunSession *self)
{
  return self->catalogue;
}

GStrv
mg_run_session_dup_warnings (MgRunSession *self)
{
  g_autoptr (GStrvBuilder) warnings = g_strv_builder_new ();
  g_auto (GStrv) settings_warnings = mg_run_settings_dup_warnings (self->settings);
  MgProgramKind kind =
    self->launcher != NULL ? mg_launcher_get_program_kind (self->launcher) : MG_PROGRAM_DYNAMIC;

  g_strv_builder_addv (warnings, (const char **) settings_warnings);
  if (kind == MG_PROGRAM_STATIC || kind == MG_PROGRAM_SETUID || kind == MG_PROGRAM_WRONG_CLASS
      || kind == MG_PROGRAM_MSAN)
    {
      g_autofree char *unsampled =
        g_strdup_printf (_("%s will not be sampled: %s"),
                         mg_launcher_get_program_path (self->launcher),
                         mg_program_kind_explain (kind));

      g_strv_builder_add (warnings, unsampled);
    }
  return g_strv_builder_end (warnings);
}

/* The profile records the stop, so that what it ended is no error when
 * the profile is opened later. */
static void
mark_stopped (MgRunSession *self)
{
  self->stopped = TRUE;
  mg_run_assembly_set_stopped (self->run, (g_get_monotonic_time () - self->start_mono_us) / 1e6);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STOPPED]);
}

static gboolean
on_stopper_due (gpointer user_data)
{
  MgRunSession *self = user_data;

  self->stopper_id = 0;
  if (self->state != MG_RUN_STATE_RUNNING)
    return G_SOURCE_REMOVE;
  mg_stopper_check (&self->stopper, g_get_monotonic_time ());
  /* Stop after's time came: the run stops as if Stop was pressed. */
  if (self->stopper.stopped_after && !self->stopped)
    mark_stopped (self);
  schedule_stopper (self);
  return G_SOURCE_REMOVE;
}

/* A timeout at the stopper's next deadline (a timeout that fires a little
 * early only schedules another). */
static void
schedule_stopper (MgRunSession *self)
{
  gint64 deadline = mg_stopper_get_deadline (&self->stopper);
  gint64 left;

  g_clear_handle_id (&self->stopper_id, g_source_remove);
  if (deadline == 0 || self->state != MG_RUN_STATE_RUNNING)
    return;
  left = MAX (deadline - g_get_monotonic_time (), 0);
  self->stopper_id = g_timeout_add ((guint) MIN ((left + 999) / 1000, G_MAXUINT), on_stopper_due,
                                    self);
}

static void
terminate (MgRunSession *self)
{
  if (self->state != MG_RUN_STATE_RUNNING)
    return;
  mg_stopper_terminate (&self->stopper, g_get_monotonic_time ());
  schedule_stopper (self);
}

void
mg_run_session_stop (MgRunSession *self)
{
  if (self->state != MG_RUN_STATE_RUNNING)
    return;
  mark_stopped (self);
  terminate (self);
}

void
mg_run_session_cancel (MgRunSession *self)
{
  if (mg_run_session_is_finished (self))
    return;
  self->cancelled = TRUE;
  if (self->state == MG_RUN_STATE_RUNNING)
    terminate (self);
  else if (self->state == MG_RUN_STATE_MERGING && !self->merge_running)
    set_state (self, MG_RUN_STATE_CANCELLED);
  else if (self->state != MG_RUN_STATE_MERGING)
    set_state (self, MG_RUN_STATE_CANCELLED);
}

void
mg_run_session_kill_now (MgRunSession *self)
{
  gint64 deadline = g_get_monotonic_time () + G_USEC_PER_SEC;

  if (mg_run_session_is_finished (self) || self->launcher == NULL)
    return;
  self->cancelled = TRUE;
  if (self->state == MG_RUN_STATE_RUNNING && self->pgid > 0)
    {
      kill (-self->pgid, SIGKILL);
      /* Reap it here: the child watch that would is not coming back. A
       * second at most, in case the kernel is slow to let it go. */
      while (waitpid (self->pgid, NULL, WNOHANG) == 0 && g_get_monotonic_time () < deadline)
        g_usleep (1000);
      g_clear_handle_id (&self->child_watch_id, g_source_remove);
    }
  /* Also while merging: that merge's end is not coming back either. */
  mg_launcher_remove_run_dir (self->launcher);
}

void
mg_run_session_set_grace_period (MgRunSession *self, double seconds)
{
  self->stopper.grace_s = MAX (seconds, 0.0);
}

void
mg_run_session_set_save_hook (MgRunSession *self, MgRunSessionSaveHook hook, gpointer data)
{
  self->save_hook = hook;
  self->save_hook_data = data;
}

void
mg_run_session_set_refresh_interval (MgRunSession *self, guint ms)
{
  self->refresh_ms = MAX (ms, 50);
}

MgRunSettings *
mg_run_session_get_settings (MgRunSession *self)
{
  return self->settings;
}

MgRunState
mg_run_session_get_state (MgRunSession *self)
{
  return self->state;
}

gboolean
mg_run_session_is_finished (MgRunSession *self)
{
  return self->state == MG_RUN_STATE_DONE || self->state == MG_RUN_STATE_FAILED
         || self->state == MG_RUN_STATE_CANCELLED;
}

double
mg_run_session_get_elapsed (MgRunSession *self)
{
  gint64 end;

  if (self->start_mono_us == 0)
    return 0;
  end = self->end_mono_us != 0 ? self->end_mono_us : g_get_monotonic_time ();
  return (end - self->start_mono_us) / 1e6;
}

guint
mg_run_session_get_n_processes (MgRunSession *self)
{
  return self->n_processes;
}

guint
mg_run_session_get_n_samples (MgRunSession *self)
{
  return self->n_samples;
}

int
mg_run_session_get_exit_status (MgRunSession *self)
{
  return self->exit_status;
}

MgProfile *
mg_run_session_get_profile (MgRunSession *self)
{
  return self->profile;
}

const char *
mg_run_session_get_output_path (MgRunSession *self)
{
  return self->output_path;
}

const char *
mg_run_session_get_message (MgRunSession *self)
{
  return self->message;
}

gboolean
mg_run_session_get_stopped (MgRunSession *self)
{
  return self->stopped;
}

int
mg_run_session_get_pid (MgRunSession *self)
{
  return self->pgid;
}

guint
mg_run_session_get_n_refreshes (MgRunSession *self)
{
  return self->n_refreshes;
}

char *
mg_run_session_dup_program_name (MgRunSession *self)
{
  const char *program = mg_run_settings_get_program (self->settings);

  return g_path_get_basename (program != NULL ? program : "?");
}

char *
mg_run_session_dup_output (MgRunSession *self)
{
  return g_strdup (self->output->str);
}
