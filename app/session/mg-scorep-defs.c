/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-scorep-defs.h"

#include <glib/gi18n.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "format/mg-plan-keywords.h"
#include "mg-install-paths.h"
#include "mg-scorep-probe-format.h"
#include "mg-scorep-selection.h"
#include <scorep/SCOREP_MetricTypes.h>

typedef struct {
  const char *name;
  int run_per;
  int sync;
  guint64 delta_t;
} Plugin;

static gboolean
is_accumulated (int mode)
{
  return mode >= SCOREP_METRIC_MODE_ACCUMULATED_START && mode <= SCOREP_METRIC_MODE_ACCUMULATED_NEXT;
}

static MgMetricDef *
metric_def (const Plugin *plugin, const char *source_id, char **f, const char *file)
{
  MgMetricDef *def = mg_metric_def_new ();
  int mode = atoi (f[4]);
  const char *unit = f[8];

  def->id = g_strconcat (source_id, ":", f[2], NULL);
  def->function_name = g_strdup (f[2]);
  def->display_name = g_strdup (f[2]);
  def->description = g_strdup (*f[3] != '\0' ? f[3] : f[2]);
  def->source_ref = g_strdup (source_id);
  def->data_type = MG_DATA_TYPE_DOUBLE;
  g_free (def->units);
  /* ACCUMULATED totals are shown as rates, like divideBySampleTime. */
  def->units = is_accumulated (mode) ? g_strconcat (unit, "/s", NULL) : g_strdup (unit);
  def->divide_by_sample_time = is_accumulated (mode) && plugin->sync <= SCOREP_METRIC_SYNC;
  def->one_per_node = plugin->run_per == SCOREP_METRIC_PER_HOST || plugin->run_per == SCOREP_METRIC_ONCE;
  /* Values at the plugin's own times (asynchronous ones) or at most once
   * per delta_t: each is one reading, in one window of the profile. */
  def->sparse = plugin->sync >= SCOREP_METRIC_ASYNC_EVENT || plugin->delta_t > 0;
  def->type_name = g_strdup ("other");
  def->file = g_strdup (file);
  return def;
}

/* The probe's output into @out's source, metrics and group; FALSE with
 * the reason when it does not read. */
static gboolean
read_listing (char *output, const char *name, MgDefinitionFile *out, MgSourceDef *source,
              MgMetricGroup *group, char **reason)
{
  g_auto (GStrv) lines = g_strsplit (output, "\n", -1);
  Plugin plugin = { name, -1, -1, 0 };

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *f[MG_PLAN_MAX_FIELDS];
      int n;

      if (*lines[i] == '\0')
        continue;
      n = mg_plan_split_fields (lines[i], f, MG_PLAN_MAX_FIELDS);
      if (n >= 2 && strcmp (f[0], MG_SCOREP_PROBE_ERROR) == 0)
        {
          *reason = g_strdup (f[1]);
          return FALSE;
        }
      if (n == MG_SCOREP_PROBE_PLUGIN_FIELDS + 1 && strcmp (f[0], MG_SCOREP_PROBE_PLUGIN) == 0)
        {
          source->library_path = g_strdup (f[1]);
          plugin.run_per = atoi (f[3]);
          plugin.sync = atoi (f[4]);
          plugin.delta_t = g_ascii_strtoull (f[5], NULL, 10);
        }
      else if (n == MG_SCOREP_PROBE_METRIC_FIELDS + 1 && plugin.sync >= 0
               && strcmp (f[0], MG_SCOREP_PROBE_METRIC) == 0)
        {
          MgMetricDef *def = metric_def (&plugin, source->id, f, out->path);
          gboolean seen = FALSE;

          for (guint m = 0; m < out->metrics->len && !seen; m++)
            seen = strcmp (((MgMetricDef *) g_ptr_array_index (out->metrics, m))->id, def->id) == 0;
          if (seen) /* two tokens gave it */
            {
              mg_metric_def_free (def);
              continue;
            }
          g_ptr_array_add (group->metric_refs, g_strdup (def->id));
          g_ptr_array_add (out->metrics, def);
        }
      else
        {
          *reason = g_strdup_printf (_("the probe wrote a line Metrograph does not read: %s"),
                                     lines[i]);
          return FALSE;
        }
    }
  if (source->library_path == NULL)
    {
      *reason = g_strdup (_("the probe wrote nothing"));
      return FALSE;
    }
  if (out->metrics->len == 0)
    {
      *reason = g_strdup (_("its tokens give no metrics"));
      return FALSE;
    }
  return TRUE;
}

/* Why the probe did not answer, or NULL when it exited normally. */
static char *
probe_failure (int wait_status, const char *error_output)
{
  if (WIFSIGNALED (wait_status) && WTERMSIG (wait_status) == SIGALRM)
    return g_strdup_printf (_("it did not answer within %d s while listing its metrics"),
                            MG_SCOREP_PROBE_TIMEOUT_S);
  if (WIFSIGNALED (wait_status))
    return g_strdup_printf (_("it crashed while listing its metrics (%s)"),
                            g_strsignal (WTERMSIG (wait_status)));
  if (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) != 0
      && WEXITSTATUS (wait_status) != MG_SCOREP_PROBE_FAULT_STATUS)
    return g_strdup_printf (_("the probe failed with status %d: %s"), WEXITSTATUS (wait_status),
                            error_output);
  return NULL;
}

/* @reason with what the plugin printed on stderr while it was listed
 * (its own words for the failure, "Failed to initialize any available
 * source"): its last lines, bounded to fit the record's message. */
static char *
with_plugin_output (const char *reason, const char *error_output)
{
  enum { MAX_OUTPUT = 120 };
  g_autofree char *flat = g_strdup (error_output != NULL ? error_output : "");
  const char *start = flat;

  g_strstrip (flat);
  if (*flat == '\0' || strstr (reason, flat) != NULL)
    return g_strdup (reason);
  g_strdelimit (flat, "\n\t", ' ');
  if (strlen (flat) > MAX_OUTPUT)
    {
      start = flat + strlen (flat) - MAX_OUTPUT;
      while (*start != '\0' && (*start & 0xc0) == 0x80) /* not inside a character */
        start++;
      /* TRANSLATORS: a plugin's failure, then the end of what it printed */
      return g_strdup_printf (_("%s; it printed: …%s"), reason, start);
    }
  return g_strdup_printf (_("%s; it printed: %s"), reason, start);
}

/* Plugin @name listed with @tokens in @environment: always a file; when the
 * plugin cannot be listed its source carries the reason (scorep_error). */
static MgDefinitionFile *
probe (const char *name, const char *const *tokens, const char *const *environment)
{
  g_autofree char *file_name = g_strdup_printf ("Score-P plugin %s", name);
  MgDefinitionFile *file = mg_definition_file_new (file_name);
  MgSourceDef *source = mg_source_def_new ();
  MgMetricGroup *group = mg_metric_group_new ();
  g_autofree char *probe_path = mg_install_paths_get_scorep_probe ();
  g_autoptr (GStrvBuilder) args = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  g_autofree char *output = NULL, *error_output = NULL, *reason = NULL;
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  source->id = g_strconcat (MG_SCOREP_ID_PREFIX, name, NULL);
  source->shared_library = g_strdup_printf ("lib%s.so", name);
  source->scorep_plugin = g_strdup (name);
  source->scorep_tokens = g_strdupv ((char **) tokens);
  source->file = g_strdup (file_name);
  group->id = g_strdup (source->id);
  group->display_name = g_strdup (name);
  group->description = g_strdup_printf (_("The metrics of Score-P plugin %s"), name);
  group->file = g_strdup (file_name);
  g_ptr_array_add (file->sources, source);
  g_ptr_array_add (file->groups, group);

  g_strv_builder_add (args, probe_path);
  g_strv_builder_add (args, name);
  g_strv_builder_addv (args, (const char **) tokens);
  argv = g_strv_builder_end (args);
  if (!g_spawn_sync (NULL, argv, (char **) environment, G_SPAWN_DEFAULT, NULL, NULL, &output,
                     &error_output, &wait_status, &error))
    reason = g_strdup_printf (_("cannot run %s: %s"), probe_path, error->message);
  else if ((reason = probe_failure (wait_status, g_strstrip (error_output))) == NULL
           && read_listing (output, name, file, source, group, &reason))
    return file;

  g_clear_pointer (&source->library_path, g_free);
  g_ptr_array_set_size (file->metrics, 0);
  g_ptr_array_set_size (group->metric_refs, 0);
  source->scorep_error = with_plugin_output (reason, error_output);
  return file;
}

/* The choices and environment of @settings with their key. */
typedef struct {
  GPtrArray *choices; /* MgScorepChoice* */
  GStrv environment;
  char *key;
} Listing;

static void
listing_free (Listing *listing)
{
  g_clear_pointer (&listing->choices, g_ptr_array_unref);
  g_strfreev (listing->environment);
  g_free (listing->key);
  g_free (listing);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Listing, listing_free)

static Listing *
listing_new (MgRunSettings *settings, GError **error)
{
  g_autoptr (Listing) listing = g_new0 (Listing, 1);
  g_autoptr (GString) key = g_string_new (NULL);

  listing->environment = mg_run_settings_build_environment (settings, NULL);
  listing->choices = mg_scorep_selection_get (settings, (const char *const *) listing->environment,
                                              error);
  if (listing->choices == NULL)
    return NULL;
  /* The environment matters only with plugins: it finds their libraries. */
  for (guint i = 0; i < listing->choices->len; i++)
    {
      const MgScorepChoice *choice = g_ptr_array_index (listing->choices, i);
      g_autofree char *tokens = g_strjoinv ("\x1f", choice->tokens);

      g_string_append_printf (key, "%s\x1e%s\x1d", choice->name, tokens);
    }
  for (guint i = 0; listing->choices->len > 0 && listing->environment[i] != NULL; i++)
    g_string_append_printf (key, "%s\x1d", listing->environment[i]);
  listing->key = g_string_free (g_steal_pointer (&key), FALSE);
  return g_steal_pointer (&listing);
}

/* Each choice's probe, in @listing's order. */
static GPtrArray *
probe_all (Listing *listing)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_definition_file_free);

  for (guint i = 0; i < listing->choices->len; i++)
    {
      const MgScorepChoice *choice = g_ptr_array_index (listing->choices, i);

      g_ptr_array_add (files, probe (choice->name, (const char *const *) choice->tokens,
                                     (const char *const *) listing->environment));
    }
  return files;
}

void
mg_scorep_defs_add_files (MgCatalogue *catalogue, GPtrArray *files)
{
  for (guint i = 0; i < files->len; i++)
    {
      MgDefinitionFile *file = g_ptr_array_index (files, i);
      const MgSourceDef *source = g_ptr_array_index (file->sources, 0);

      if (source->scorep_error != NULL)
        {
          /* "Score-P plugin NAME: error: …", the plugin named once. */
          g_autofree char *named = g_strconcat (file->path, ": ", NULL);
          const char *message = source->scorep_error;

          if (g_str_has_prefix (message, named))
            message += strlen (named);
          mg_diagnostic_add (mg_catalogue_get_diagnostics (catalogue), file->path, 0,
                             MG_SEVERITY_ERROR, "%s", message);
        }
      g_ptr_array_index (files, i) = NULL;
      mg_catalogue_add_file (catalogue, file);
    }
  g_ptr_array_set_size (files, 0);
}

gboolean
mg_scorep_defs_add_to_catalogue (MgCatalogue *catalogue, MgRunSettings *settings,
                                 GError **error)
{
  g_autoptr (Listing) listing = listing_new (settings, error);
  g_autoptr (GPtrArray) files = NULL;

  if (listing == NULL)
    return FALSE;
  files = probe_all (listing);
  mg_scorep_defs_add_files (catalogue, files);
  return TRUE;
}

char *
mg_scorep_defs_get_key (MgRunSettings *settings, GError **error)
{
  g_autoptr (Listing) listing = listing_new (settings, error);

  return listing != NULL ? g_steal_pointer (&listing->key) : NULL;
}

static void
list_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  g_task_return_pointer (task, probe_all (task_data), (GDestroyNotify) g_ptr_array_unref);
}

void
mg_scorep_defs_list_async (MgRunSettings *settings, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr (GError) error = NULL;
  Listing *listing = listing_new (settings, &error);

  g_task_set_source_tag (task, mg_scorep_defs_list_async);
  if (listing == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_set_task_data (task, listing, (GDestroyNotify) listing_free);
  g_task_run_in_thread (task, list_in_thread);
}

GPtrArray *
mg_scorep_defs_list_finish (GAsyncResult *result, char **key, GError **error)
{
  Listing *listing = g_task_get_task_data (G_TASK (result));

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  if (key != NULL)
    *key = listing != NULL ? g_strdup (listing->key) : NULL;
  return g_task_propagate_pointer (G_TASK (result), error);
}
