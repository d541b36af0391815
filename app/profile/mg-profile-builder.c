/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile builder's face: it collects the run's facts, definitions and
 * every process's samples, then finishes the profile. The jobs behind it
 * have files of their own: each process's rows (mg-builder-process.c) and
 * their memory (mg-builder-rows.c), packing them on threads
 * (mg-builder-packer.c), the common grid (mg-grid-accumulator.c), the
 * aggregates across processes (mg-builder-aggregate.c) and the live view's
 * cache (mg-builder-cache.c). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-builder-aggregate.h"
#include "mg-builder-cache-internal.h"
#include "mg-builder-packer.h"
#include "mg-process-block.h"
#include "mg-process-roles.h"
#include "mg-profile-builder.h"
#include "mg-profile-internal.h"

struct _MgProfileBuilder {
  MgRunInfo run;
  GPtrArray *metrics;        /* MgMetricDef* */
  GPtrArray *groups;         /* MgMetricGroup* */
  GPtrArray *processes;      /* MgBuilderProcess* */
  GArray *plugin_errors;
  GArray *metric_errors;
  GArray *events;
  gboolean has_samples;      /* metrics can no longer be added */
  gboolean stable_grid;
  MgProfileBuilderCache *cache;
  MgBuilderRows rows;        /* where the processes' rows come from */
  gboolean any_packed;
  MgBuilderPacker packer;
};

void
mg_profile_builder_set_cache (MgProfileBuilder *self, MgProfileBuilderCache *cache)
{
  g_return_if_fail (self != NULL);
  self->cache = cache;
  self->rows.pool = cache != NULL ? mg_builder_cache_get_slabs (cache) : NULL;
}

void
mg_profile_builder_set_stable_grid (MgProfileBuilder *self)
{
  g_return_if_fail (self != NULL);
  self->stable_grid = TRUE;
}

MgProfileBuilder *
mg_profile_builder_new (void)
{
  MgProfileBuilder *self = g_new0 (MgProfileBuilder, 1);

  self->run.exit_status = 0;
  self->run.metrograph_version = g_strdup (MG_VERSION);
  self->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_group_free);
  self->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_builder_process_free);
  self->plugin_errors = mg_plugin_errors_new ();
  self->metric_errors = mg_metric_errors_new ();
  self->events = mg_process_events_new ();
  /* Spare rows for each packer thread and the caller. */
  mg_builder_rows_init (&self->rows, mg_builder_n_workers ());
  mg_builder_packer_init (&self->packer);
  return self;
}

void
mg_profile_builder_free (MgProfileBuilder *self)
{
  if (self == NULL)
    return;
  mg_builder_packer_clear (&self->packer);
  for (guint p = 0; self->processes != NULL && p < self->processes->len; p++)
    mg_builder_process_free_parts (g_ptr_array_index (self->processes, p), self->metrics->len);
  mg_run_info_clear (&self->run);
  g_clear_pointer (&self->metrics, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->plugin_errors, g_array_unref);
  g_clear_pointer (&self->metric_errors, g_array_unref);
  g_clear_pointer (&self->events, g_array_unref);
  mg_builder_rows_clear (&self->rows);
  g_free (self);
}

void
mg_profile_builder_set_command (MgProfileBuilder *self, const char *const *argv,
                                const char *working_dir)
{
  g_return_if_fail (self != NULL);
  g_strfreev (self->run.argv);
  self->run.argv = g_strdupv ((char **) argv);
  g_free (self->run.working_dir);
  self->run.working_dir = g_strdup (working_dir);
}

void
mg_profile_builder_set_output (MgProfileBuilder *self, const char *output, guint64 cut)
{
  gsize len;
  const char *start;

  g_return_if_fail (self != NULL);
  g_clear_pointer (&self->run.output, g_free);
  self->run.output_cut = 0;
  if (output == NULL)
    return;
  /* Its end, from a character's start; the bytes as they came (format 5:
   * what is not UTF-8 is replaced only when shown). */
  len = strlen (output);
  start = output + (len > MG_PROFILE_OUTPUT_MAX ? len - MG_PROFILE_OUTPUT_MAX : 0);
  for (guint i = 0; i < 3 && start > output && (*start & 0xc0) == 0x80; i++)
    start++;
  self->run.output = g_strdup (start);
  self->run.output_cut = cut + (guint64) (start - output);
}

void
mg_profile_builder_set_start_time (MgProfileBuilder *self, gint64 start_time_us)
{
  g_return_if_fail (self != NULL);
  self->run.start_time_us = start_time_us;
}

void
mg_profile_builder_set_interval (MgProfileBuilder *self, double start_ms, double end_ms,
                                 guint max_samples)
{
  g_return_if_fail (self != NULL);
  self->run.interval_start_ms = start_ms;
  self->run.interval_end_ms = end_ms;
  self->run.max_samples = max_samples;
}

void
mg_profile_builder_set_exit_status (MgProfileBuilder *self, int exit_status)
{
  g_return_if_fail (self != NULL);
  self->run.exit_status = exit_status;
}

guint
mg_profile_builder_add_metric (MgProfileBuilder *self, const MgMetricDef *def)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (def != NULL, 0);
  g_return_val_if_fail (!self->has_samples, 0);
  g_ptr_array_add (self->metrics, mg_metric_def_copy (def));
  return self->metrics->len - 1;
}

void
mg_profile_builder_add_group (MgProfileBuilder *self, const MgMetricGroup *group)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (group != NULL);
  g_ptr_array_add (self->groups, mg_metric_group_copy (group));
}

guint
mg_profile_builder_add_process (MgProfileBuilder *self, const MgProcessInfo *info)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (info != NULL, 0);
  g_ptr_array_add (self->processes, mg_builder_process_new (info));
  return self->processes->len - 1;
}

void
mg_profile_builder_update_process (MgProfileBuilder *self, guint process,
                                   const MgProcessInfo *info)
{
  MgBuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  g_return_if_fail (info != NULL);
  p = g_ptr_array_index (self->processes, process);
  if (&p->info == info)
    return;
  mg_process_info_clear (&p->info);
  mg_process_info_copy_into (&p->info, info);
}

void
mg_profile_builder_reserve (MgProfileBuilder *self, guint process, guint n_samples)
{
  MgBuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  self->has_samples = TRUE;
  mg_builder_process_reserve (p, &self->rows, self->metrics->len, n_samples);
}

guint
mg_profile_builder_reuse_samples (MgProfileBuilder *self, guint process, guint previous, guint n)
{
  guint taken;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (process < self->processes->len, 0);
  taken = mg_builder_cache_reuse (self->cache, g_ptr_array_index (self->processes, process),
                                  previous, n, self->metrics, &self->rows);
  if (taken > 0)
    self->has_samples = TRUE;
  return taken;
}

void
mg_profile_builder_add_sample (MgProfileBuilder *self, guint process, double t_start_s,
                               double t_end_s, const double *mins, const double *maxs,
                               const double *means)
{
  MgBuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  g_return_if_fail (!p->packed);
  self->has_samples = TRUE;
  mg_builder_process_add (p, &self->rows, self->metrics->len, t_start_s, t_end_s, mins, maxs,
                          means);
}

void
mg_profile_builder_pack (MgProfileBuilder *self, guint process)
{
  MgBuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  if (p->packed)
    return;
  self->any_packed = TRUE;
  /* The first process is packed here: a run of one process (a tool, a
   * script's step) starts no packer thread, and a larger one loses only
   * the overlap of its first record. */
  mg_builder_packer_pack (&self->packer, p, &self->rows, self->metrics->len, process == 0);
}

void
mg_profile_builder_set_single_value (MgProfileBuilder *self, guint process, guint metric,
                                     double value)
{
  MgBuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  g_return_if_fail (metric < self->metrics->len);
  p = g_ptr_array_index (self->processes, process);
  mg_builder_process_set_single (p, self->metrics->len, metric, value);
}

void
mg_profile_builder_add_plugin_error (MgProfileBuilder *self, const MgPluginError *error)
{
  MgPluginError copy;

  g_return_if_fail (self != NULL);
  mg_plugin_error_copy_into (&copy, error);
  g_array_append_val (self->plugin_errors, copy);
}

void
mg_profile_builder_add_metric_error (MgProfileBuilder *self, const MgMetricError *error)
{
  MgMetricError copy;

  g_return_if_fail (self != NULL);
  mg_metric_error_copy_into (&copy, error);
  g_array_append_val (self->metric_errors, copy);
}

void
mg_profile_builder_add_event (MgProfileBuilder *self, const MgProcessEvent *event)
{
  MgProcessEvent copy;

  g_return_if_fail (self != NULL);
  mg_process_event_copy_into (&copy, event);
  g_array_append_val (self->events, copy);
}

static double
grid_end (MgProfileBuilder *self)
{
  double end = 0.0;

  for (guint p = 0; p < self->processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (self->processes, p);

      if (isfinite (process->info.end_s))
        end = MAX (end, process->info.end_s);
      for (gsize k = 0; k < process->n; k++)
        if (isfinite (process->ends[k]))
          end = MAX (end, process->ends[k]);
    }
  return end;
}

static void
fill_run_facts (MgProfileBuilder *self, MgProfile *profile, double duration)
{
  g_autoptr(GPtrArray) hosts = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint p = 0; p < self->processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (self->processes, p);
      const char *host = process->info.host != NULL ? process->info.host : "";

      if (g_hash_table_add (seen, (gpointer) host))
        g_ptr_array_add (hosts, g_strdup (host));
    }
  g_ptr_array_add (hosts, NULL);

  profile->run = self->run;
  memset (&self->run, 0, sizeof self->run);
  if (profile->run.argv == NULL)
    profile->run.argv = g_new0 (char *, 1);
  if (profile->run.working_dir == NULL)
    profile->run.working_dir = g_strdup ("");
  profile->run.hosts = (char **) g_ptr_array_steal (hosts, NULL);
  profile->run.n_nodes = g_strv_length (profile->run.hosts);
  profile->run.n_processes = self->processes->len;
  profile->run.duration_s = duration;
}

/* A packed process: its block joins its times to its metrics' parts. */
static void
build_packed_series (MgProfileBuilder *self, MgProfile *profile, guint p)
{
  MgBuilderProcess *process = g_ptr_array_index (self->processes, p);
  guint n_metrics = self->metrics->len;
  g_autoptr(GBytes) times = mg_process_block_encode_times (process->n, process->ends);
  GBytes *block = mg_process_block_join (times, process->parts, n_metrics);
  guint8 *reported = mg_profile_take_block (profile, g_new0 (guint8, MAX (n_metrics, 1)));
  MgPackedProcess *packed = &profile->packed[p];
  gsize size;

  for (guint m = 0; m < n_metrics; m++)
    reported[m] = process->parts[m] != NULL;
  mg_builder_process_free_parts (process, n_metrics);
  packed->block = mg_profile_take_block (profile, g_bytes_unref_to_data (block, &size));
  packed->size = size;
  packed->reported = reported;
  profile->process_n[p] = process->n;
}

/* Hands one process's blocks over to the profile. */
static void
build_process_series (MgProfileBuilder *self, MgProfile *profile, guint p)
{
  MgBuilderProcess *process = g_ptr_array_index (self->processes, p);
  guint n_metrics = self->metrics->len;
  gsize n = process->n;
  double *times, *block;

  if (process->ends == NULL)
    mg_builder_process_resize (process, &self->rows, n_metrics, 1);
  times = mg_profile_take_block (profile, g_steal_pointer (&process->ends));
  block = g_steal_pointer (&process->values);
  if (!process->in_slab)
    mg_profile_take_block (profile, block);
  profile->process_n[p] = n;
  for (guint m = 0; m < n_metrics; m++)
    {
      MgProcessSeries *series = &profile->process_series[(gsize) p * n_metrics + m];
      double *mins = block + (gsize) m * MG_PROCESS_SERIES_N * n;
      double *maxs = mins + n;
      double *means = maxs + n;
      gboolean any = FALSE;

      for (gsize k = 0; k < n && !any; k++)
        any = !isnan (means[k]) || !isnan (mins[k]) || !isnan (maxs[k]);
      series->n = any ? n : 0;
      series->times = times;
      series->mins = mins;
      series->maxs = maxs;
      series->means = means;
    }
}

static guint
choose_n_windows (MgProfileBuilder *self)
{
  guint n = 0;

  for (guint p = 0; p < self->processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (self->processes, p);

      n = MAX (n, process->n);
    }
  return n;
}

/* The builder and its CPU time metric, for the helper rule. */
typedef struct {
  MgProfileBuilder *self;
  guint metric;
} BuilderCpu;

/* A process's own CPU seconds (mg-process-roles.h): its rows of the CPU
 * time metric, in place or unpacked. */
static double
builder_cpu_seconds (guint p, gpointer data)
{
  BuilderCpu *cpu = data;
  MgBuilderProcess *process = g_ptr_array_index (cpu->self->processes, p);
  g_autofree double *scratch = NULL;
  const double *rows;

  if (process->n == 0)
    return NAN;
  if (process->packed)
    scratch = g_new (double, MG_PROCESS_SERIES_N * process->n);
  rows = mg_builder_process_metric_rows (process, cpu->metric, scratch);
  return mg_process_roles_cpu_seconds (process->ends, rows + 2 * process->n, process->n,
                                       process->info.start_s);
}

/* The helpers of the launch (mg-process-roles.h), when the processes name
 * their images (a merge of records): left out of the aggregates. */
static void
find_helpers (MgProfileBuilder *self)
{
  guint n = self->processes->len;
  g_autofree MgProcessInfo *infos = NULL;
  g_autofree gboolean *helper = NULL;
  gboolean images = FALSE;
  int metric = mg_process_roles_find_cpu_metric (self->metrics);
  BuilderCpu cpu = { self, 0 };

  for (guint i = 0; i < self->events->len && !images; i++)
    images = g_array_index (self->events, MgProcessEvent, i).kind == MG_EVENT_START
             && g_array_index (self->events, MgProcessEvent, i).message != NULL;
  if (!images || n == 0)
    return;
  infos = g_new (MgProcessInfo, n);
  helper = g_new (gboolean, n);
  for (guint p = 0; p < n; p++)
    infos[p] = ((MgBuilderProcess *) g_ptr_array_index (self->processes, p))->info;
  cpu.metric = (guint) MAX (metric, 0);
  mg_process_roles_find_helpers (infos, n, self->run.interval_start_ms, MG_HELPER_RULE_CURRENT,
                                 metric >= 0 ? builder_cpu_seconds : NULL, &cpu, helper);
  for (guint p = 0; p < n; p++)
    ((MgBuilderProcess *) g_ptr_array_index (self->processes, p))->info.helper = helper[p];
}

MgProfile *
mg_profile_builder_finish (MgProfileBuilder *self, guint n_windows, GError **error)
{
  g_autoptr(MgProfile) profile = NULL;
  guint n_metrics, n_proc;
  double end, width;
  MgGrid grid;
  guint from;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_metrics = self->metrics->len;
  n_proc = self->processes->len;
  /* Some processes packed: all are, the last ones now. */
  for (guint p = 0; self->any_packed && p < n_proc; p++)
    mg_profile_builder_pack (self, p);
  mg_builder_packer_wait (&self->packer);
  mg_builder_rows_free_spare (&self->rows);
  for (guint p = 0; p < n_proc; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (self->processes, p);

      mg_builder_process_flush (process, n_metrics);
      mg_builder_process_compact (process, n_metrics);
      process->sorted = TRUE;
      for (gsize k = 1; k < process->n && process->sorted; k++)
        process->sorted = process->ends[k] >= process->ends[k - 1];
    }
  find_helpers (self);
  if (n_windows == 0)
    n_windows = choose_n_windows (self);
  end = grid_end (self);
  if (!(end > 0.0))
    {
      /* Nothing took any time: an empty grid rather than windows of width 0. */
      n_windows = 0;
      end = 0.0;
    }

  profile = mg_profile_new_empty ();
  profile->roles_known = 1;
  fill_run_facts (self, profile, end);

  /* Definitions and the plain lists move over as they are. */
  for (guint m = 0; m < n_metrics; m++)
    g_ptr_array_add (profile->metrics, mg_metric_def_copy (g_ptr_array_index (self->metrics, m)));
  g_ptr_array_extend_and_steal (profile->groups, g_steal_pointer (&self->groups));
  self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_group_free);
  for (guint p = 0; p < n_proc; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (self->processes, p);
      MgProcessInfo info;

      mg_process_info_copy_into (&info, &process->info);
      g_array_append_val (profile->processes, info);
    }
  g_array_append_vals (profile->plugin_errors, self->plugin_errors->data, self->plugin_errors->len);
  g_array_set_clear_func (self->plugin_errors, NULL);
  g_array_append_vals (profile->metric_errors, self->metric_errors->data, self->metric_errors->len);
  g_array_set_clear_func (self->metric_errors, NULL);
  g_array_append_vals (profile->events, self->events->data, self->events->len);
  g_array_set_clear_func (self->events, NULL);

  /* The grid: windows (start, end] from 0 to the run's end, uniform or of
   * a stable width. */
  width = self->stable_grid && n_windows > 0 ? mg_grid_stable_width (end, n_windows) : 0.0;
  if (width > 0.0)
    n_windows = (guint) ceil (end / width);
  profile->n_windows = n_windows;
  mg_grid_lay (&grid, n_windows, end, width,
               mg_profile_take_block (profile, g_new (double, 2 * (gsize) MAX (n_windows, 1))));
  profile->window_starts = grid.starts;
  profile->window_ends = grid.ends;

  from = mg_builder_cache_first_changed_window (self->cache, self->processes, self->metrics,
                                                &grid);
  /* Packed processes are unpacked metric by metric: the work is shared
   * among the cores. */
  mg_builder_aggregate (profile, self->processes,
                        self->cache != NULL ? mg_builder_cache_get_profile (self->cache) : NULL,
                        &grid, from, self->any_packed ? mg_builder_n_workers () : 1);
  if (self->cache != NULL)
    mg_builder_cache_keep (self->cache, profile, self->processes, self->any_packed, width, from);

  profile->process_series = g_new0 (MgProcessSeries, MAX ((gsize) n_proc * n_metrics, 1));
  profile->process_n = g_new0 (gsize, MAX (n_proc, 1));
  if (self->any_packed)
    profile->packed = g_new0 (MgPackedProcess, MAX (n_proc, 1));
  for (guint p = 0; p < n_proc; p++)
    {
      if (self->any_packed)
        build_packed_series (self, profile, p);
      else
        build_process_series (self, profile, p);
    }
  if (self->rows.slabs != NULL)
    profile->backing = mg_slab_set_to_bytes (g_steal_pointer (&self->rows.slabs));

  return g_steal_pointer (&profile);
}
