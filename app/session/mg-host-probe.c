/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What this machine cannot measure: one short probe run, kept. */
#include "mg-config.h"

#include "mg-host-probe.h"

#include <glib/gstdio.h>

#include "mg-run-catalogue.h"
#include "mg-run-metric-toggles.h"
#include "mg-run-session.h"

/* Long enough for a few samples at 10 ms; the plugins decline at once. */
#define PROBE_SECONDS "0.3"
#define PROBE_INTERVAL_MS 10

static MgProfile *kept;        /* the finished probe's profile */
static MgRunSession *running;  /* the probe on its way, NULL when none */
static GPtrArray *waiting;     /* GTask*: told when it ends */
static char *probe_dir;        /* its output folder */
static guint n_runs;

void
mg_host_probe_forget (void)
{
  g_clear_object (&kept);
}

guint
mg_host_probe_get_n_runs (void)
{
  return n_runs;
}

static void
remove_probe_dir (void)
{
  if (probe_dir != NULL)
    g_rmdir (probe_dir);
  g_clear_pointer (&probe_dir, g_free);
}

static void
tell_waiting (MgProfile *profile, const char *message)
{
  g_autoptr (GPtrArray) tasks = g_steal_pointer (&waiting);

  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);

      if (g_task_return_error_if_cancelled (task))
        continue;
      if (profile != NULL)
        g_task_return_pointer (task, g_object_ref (profile), g_object_unref);
      else
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", message);
    }
}

static void
on_state (MgRunSession *session, GParamSpec *pspec, gpointer user_data)
{
  const char *path;
  g_autofree char *message = NULL;

  if (!mg_run_session_is_finished (session))
    return;
  g_signal_handlers_disconnect_by_func (session, on_state, user_data);
  if (mg_run_session_get_state (session) == MG_RUN_STATE_DONE)
    g_set_object (&kept, mg_run_session_get_profile (session));
  else
    message = g_strdup (mg_run_session_get_message (session));
  /* The probe leaves nothing behind. */
  path = mg_run_session_get_output_path (session);
  if (path != NULL)
    g_unlink (path);
  remove_probe_dir ();
  tell_waiting (kept, message != NULL ? message : "the probe run failed");
  g_clear_object (&running);
}

/* Every metric that can be switched on, but MPI's. */
static void
enable_all (MgRunSettings *settings, MgCatalogue *catalogue)
{
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);

      if (mg_run_metric_is_switchable (m) && m->def->type != MG_METRIC_TYPE_MPI)
        mg_run_settings_set_metric_enabled (settings, catalogue, m->def->id, TRUE);
    }
}

static gboolean
start_probe (GError **error)
{
  g_autoptr (MgCatalogue) catalogue = mg_run_catalogue_load_definitions (NULL);
  g_autoptr (MgRunSettings) settings = mg_run_settings_new ();
  g_autofree char *sleep = g_find_program_in_path ("sleep");

  if (sleep == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no sleep program to probe with");
      return FALSE;
    }
  probe_dir = g_dir_make_tmp ("mg-host-probe-XXXXXX", error);
  if (probe_dir == NULL)
    return FALSE;
  mg_run_settings_set_program (settings, sleep);
  mg_run_settings_set_arguments (settings, PROBE_SECONDS);
  mg_run_settings_set_interval_ms (settings, PROBE_INTERVAL_MS);
  mg_run_settings_set_output (settings, probe_dir);
  mg_run_settings_set_no_stacks (settings, TRUE);
  enable_all (settings, catalogue);
  running = mg_run_session_new (settings, catalogue);
  n_runs++;
  g_signal_connect (running, "notify::state", G_CALLBACK (on_state), NULL);
  if (!mg_run_session_start (running, error))
    {
      g_signal_handlers_disconnect_by_func (running, on_state, NULL);
      g_clear_object (&running);
      remove_probe_dir ();
      return FALSE;
    }
  return TRUE;
}

void
mg_host_probe_run_async (GCancellable *cancellable, GAsyncReadyCallback callback,
                         gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr (GError) error = NULL;

  g_task_set_source_tag (task, mg_host_probe_run_async);
  if (kept != NULL)
    {
      g_task_return_pointer (task, g_object_ref (kept), g_object_unref);
      return;
    }
  if (waiting == NULL)
    waiting = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (waiting, g_object_ref (task));
  if (running == NULL && !start_probe (&error))
    tell_waiting (NULL, error->message);
}

MgProfile *
mg_host_probe_run_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mg_host_probe_abandon (void)
{
  g_autoptr (MgRunSession) session = g_steal_pointer (&running);

  if (session == NULL)
    return;
  g_signal_handlers_disconnect_by_func (session, on_state, NULL);
  mg_run_session_kill_now (session);
  remove_probe_dir ();
  tell_waiting (NULL, "the probe was abandoned");
}
