/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Puts every process's sample windows onto one common grid and computes the
 * aggregates across processes. The rules are documented in
 * docs/profile-format.md ("How the aggregates are computed"). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "format/mg-bounded-mean.h"
#include "mg-process-block.h"
#include "mg-process-roles.h"
#include "mg-profile-builder.h"
#include "mg-profile-internal.h"
#include "mg-row-slabs.h"

/* A process's samples, already in the profile's layout so that finishing
 * hands the blocks over instead of copying them: rows of cap doubles,
 * [metric][mins, maxs, means]. */
typedef struct {
  MgProcessInfo info;
  gsize n;           /* samples */
  gsize cap;         /* room per row */
  double *starts;    /* cap */
  double *ends;      /* cap: the profile's process times */
  double *values;    /* n_metrics × 3 rows of cap */
  double *singles;   /* n_metrics, NaN = not set; NULL until the first */
  /* Samples wait here, row-major, and go to the rows STAGE at a time:
   * writing each sample straight across rows cap × 8 bytes apart makes
   * every store a cache miss. */
  double *stage;     /* STAGE × n_metrics × 3 */
  guint staged;      /* samples in stage, at n .. n + staged */
  /* Packed (mg_profile_builder_pack): values is gone, its metrics' rows
   * are parts[m] (NULL: not reported); starts and ends stay for the grid. */
  gboolean packed;
  GBytes **parts;    /* n_metrics */
  /* Its first n_reused samples are those of process `previous` of the
   * cache's profile (-1: none). */
  int previous;
  gsize n_reused;
  gboolean sorted;   /* ends never decrease (set by finishing) */
  /* Where its samples fall on the grid (set by finishing, for the
   * aggregates): the same for every metric, so found once. */
  guint32 *span_end; /* n: sample k's windows are span_w[span_end[k-1] .. span_end[k]);
                      NULL: none, each metric finds them */
  guint32 *span_w;
  double *span_overlap; /* > 0; 0: an instant in that window */
  gboolean in_slab;  /* values is in the builder's slabs */
  gsize values_size; /* bytes of values, when its own */
} BuilderProcess;

/* Rows a packed process gave back, for the next process's. */
typedef struct {
  double *mem;
  gsize size;
} SpareRows;

struct _MgProfileBuilderCache {
  guint generation;
  MgProfile *profile;        /* the last finished, or NULL */
  guint n_processes;         /* its */
  double **starts;           /* per process: its samples' windows, process_n long */
  double **ends;
  double width;              /* its stable grid's window width, 0: uniform */
  MgRowSlabs *slabs;         /* for the builders' rows */
  guint reused_windows;      /* what its builder took from the one before */
  guint64 reused_samples;
};

enum { STAGE = 64 };

struct _MgProfileBuilder {
  MgRunInfo run;
  GPtrArray *metrics;        /* MgMetricDef* */
  GPtrArray *groups;         /* MgMetricGroup* */
  GPtrArray *processes;      /* BuilderProcess* */
  GArray *plugin_errors;
  GArray *metric_errors;
  GArray *events;
  gboolean has_samples;      /* metrics can no longer be added */
  gboolean stable_grid;
  MgProfileBuilderCache *cache;
  /* With a cache (the live view's refreshes), the processes' rows are
   * carved from slabs the profile holds and gives back to the cache's
   * pool when it goes: each refresh copies every running process's rows,
   * into memory the refresh before last used rather than into new pages. */
  MgSlabSet *slabs;
  gboolean any_packed;
  /* Processes handed to the packer (packer ()) and not packed yet: the
   * caller waits while there are too many, or unpacked samples would pile
   * up, and for none before finishing or freeing. */
  guint pending;
  GMutex pending_lock;       /* also guards spare_rows */
  GCond pending_done;
  /* The rows of processes already packed, kept for the next ones: a full
   * merge's processes have rows of one size, and new rows are huge pages
   * the kernel clears as they are first written (a tenth of the merge's
   * CPU time at 256 processes). */
  GArray *spare_rows;        /* SpareRows, at most n_workers () + 1 */
};

/* Threads that pack processes and aggregate metrics beside the caller.
 * Counted once: each count reads /sys/devices/system/cpu/online, and a
 * merge asked several times a record. */
static guint
n_workers (void)
{
  static gsize n;

  if (g_once_init_enter (&n))
    g_once_init_leave (&n, CLAMP (g_get_num_processors (), 1, 8));
  return (guint) n;
}

/* Waits until none of the builder's processes is being packed. */
static void
wait_packed (MgProfileBuilder *self)
{
  g_mutex_lock (&self->pending_lock);
  while (self->pending > 0)
    g_cond_wait (&self->pending_done, &self->pending_lock);
  g_mutex_unlock (&self->pending_lock);
}

static void
builder_process_free_parts (BuilderProcess *process, guint n_metrics)
{
  for (guint m = 0; process->parts != NULL && m < n_metrics; m++)
    g_clear_pointer (&process->parts[m], g_bytes_unref);
  g_clear_pointer (&process->parts, g_free);
}

static void
builder_process_free (BuilderProcess *process)
{
  mg_process_info_clear (&process->info);
  g_free (process->parts); /* their bytes went with builder_process_free_parts */
  g_free (process->starts);
  g_free (process->ends);
  if (!process->in_slab)
    g_free (process->values);
  g_free (process->stage);
  g_free (process->singles);
  g_free (process->span_end);
  g_free (process->span_w);
  g_free (process->span_overlap);
  g_free (process);
}

MgProfileBuilderCache *
mg_profile_builder_cache_new (void)
{
  MgProfileBuilderCache *cache = g_new0 (MgProfileBuilderCache, 1);

  cache->slabs = mg_row_slabs_new ();
  return cache;
}

static void
cache_clear (MgProfileBuilderCache *cache)
{
  for (guint p = 0; p < cache->n_processes; p++)
    {
      g_free (cache->starts[p]);
      g_free (cache->ends[p]);
    }
  g_clear_pointer (&cache->starts, g_free);
  g_clear_pointer (&cache->ends, g_free);
  g_clear_object (&cache->profile);
  cache->n_processes = 0;
  cache->width = 0.0;
}

void
mg_profile_builder_cache_free (MgProfileBuilderCache *cache)
{
  if (cache == NULL)
    return;
  cache_clear (cache);
  mg_row_slabs_unref (cache->slabs);
  g_free (cache);
}

guint
mg_profile_builder_cache_get_generation (const MgProfileBuilderCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->generation;
}

void
mg_profile_builder_cache_get_reused (const MgProfileBuilderCache *cache, guint *windows,
                                     guint64 *samples)
{
  g_return_if_fail (cache != NULL);
  *windows = cache->reused_windows;
  *samples = cache->reused_samples;
}

void
mg_profile_builder_set_cache (MgProfileBuilder *self, MgProfileBuilderCache *cache)
{
  g_return_if_fail (self != NULL);
  self->cache = cache;
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
  self->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) builder_process_free);
  self->plugin_errors = g_array_new (FALSE, TRUE, sizeof (MgPluginError));
  g_array_set_clear_func (self->plugin_errors, (GDestroyNotify) mg_plugin_error_clear);
  self->metric_errors = g_array_new (FALSE, TRUE, sizeof (MgMetricError));
  g_array_set_clear_func (self->metric_errors, (GDestroyNotify) mg_metric_error_clear);
  self->events = g_array_new (FALSE, TRUE, sizeof (MgProcessEvent));
  g_array_set_clear_func (self->events, (GDestroyNotify) mg_process_event_clear);
  g_mutex_init (&self->pending_lock);
  g_cond_init (&self->pending_done);
  self->spare_rows = g_array_new (FALSE, FALSE, sizeof (SpareRows));
  return self;
}

static void
free_spare_rows (MgProfileBuilder *self)
{
  for (guint i = 0; i < self->spare_rows->len; i++)
    g_free (g_array_index (self->spare_rows, SpareRows, i).mem);
  g_array_set_size (self->spare_rows, 0);
}

void
mg_profile_builder_free (MgProfileBuilder *self)
{
  if (self == NULL)
    return;
  wait_packed (self);
  for (guint p = 0; self->processes != NULL && p < self->processes->len; p++)
    builder_process_free_parts (g_ptr_array_index (self->processes, p), self->metrics->len);
  mg_run_info_clear (&self->run);
  g_clear_pointer (&self->metrics, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->plugin_errors, g_array_unref);
  g_clear_pointer (&self->metric_errors, g_array_unref);
  g_clear_pointer (&self->events, g_array_unref);
  g_clear_pointer (&self->slabs, mg_slab_set_release);
  free_spare_rows (self);
  g_array_unref (self->spare_rows);
  g_mutex_clear (&self->pending_lock);
  g_cond_clear (&self->pending_done);
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
  BuilderProcess *process;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (info != NULL, 0);
  process = g_new0 (BuilderProcess, 1);
  mg_process_info_copy_into (&process->info, info);
  process->previous = -1;
  g_ptr_array_add (self->processes, process);
  return self->processes->len - 1;
}

void
mg_profile_builder_update_process (MgProfileBuilder *self, guint process,
                                   const MgProcessInfo *info)
{
  BuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  g_return_if_fail (info != NULL);
  p = g_ptr_array_index (self->processes, process);
  if (&p->info == info)
    return;
  mg_process_info_clear (&p->info);
  mg_process_info_copy_into (&p->info, info);
}

/* Spare rows of at least *size bytes (then *size: their size), or NULL. */
static double *
take_spare_rows (MgProfileBuilder *self, gsize *size)
{
  double *rows = NULL;

  g_mutex_lock (&self->pending_lock);
  for (guint i = 0; i < self->spare_rows->len && rows == NULL; i++)
    {
      SpareRows *spare = &g_array_index (self->spare_rows, SpareRows, i);

      if (spare->size >= *size)
        {
          rows = spare->mem;
          *size = spare->size;
          g_array_remove_index_fast (self->spare_rows, i);
        }
    }
  g_mutex_unlock (&self->pending_lock);
  return rows;
}

/* Memory for *size bytes of rows: from a slab with a cache, else spare
 * rows or new ones (then *size: what they hold). */
static double *
alloc_rows (MgProfileBuilder *self, gsize *size, gboolean *in_slab)
{
  double *rows = NULL;

  if (self->cache != NULL && self->slabs == NULL)
    self->slabs = mg_row_slabs_take (self->cache->slabs);
  if (self->slabs != NULL)
    rows = mg_slab_set_alloc (self->slabs, *size);
  *in_slab = rows != NULL;
  if (rows == NULL)
    rows = take_spare_rows (self, size);
  return rows != NULL ? rows : mg_profile_alloc_big (*size);
}

/* The process's own rows kept for another process, or freed. */
static void
release_rows (MgProfileBuilder *self, BuilderProcess *p)
{
  SpareRows spare = { p->values, p->values_size };

  p->values = NULL;
  if (p->in_slab || spare.mem == NULL)
    return;
  g_mutex_lock (&self->pending_lock);
  if (self->spare_rows->len <= n_workers ())
    {
      g_array_append_val (self->spare_rows, spare);
      spare.mem = NULL;
    }
  g_mutex_unlock (&self->pending_lock);
  g_free (spare.mem);
}

/* Re-lays the rows with room for new_cap samples. */
static void
builder_process_resize (MgProfileBuilder *self, BuilderProcess *p, gsize new_cap)
{
  gsize rows = (gsize) self->metrics->len * MG_PROCESS_SERIES_N;
  gboolean in_slab;
  gsize size = MAX (rows * new_cap, 1) * sizeof (double);
  double *values = alloc_rows (self, &size, &in_slab);

  for (gsize r = 0; r < rows && p->n > 0; r++)
    memcpy (values + r * new_cap, p->values + r * p->cap, p->n * sizeof (double));
  release_rows (self, p);
  p->values = values;
  p->values_size = size;
  p->in_slab = in_slab;
  p->starts = g_renew (double, p->starts, MAX (new_cap, 1));
  p->ends = g_renew (double, p->ends, MAX (new_cap, 1));
  p->cap = new_cap;
}

/* Moves the staged samples to their rows, one run per row. */
static void
builder_process_flush (BuilderProcess *p, guint n_metrics)
{
  gsize rows = (gsize) n_metrics * MG_PROCESS_SERIES_N;

  if (p->staged == 0)
    return;
  for (gsize r = 0; r < rows; r++)
    {
      double *dest = p->values + r * p->cap + p->n;
      const double *src = p->stage + r;

      for (guint k = 0; k < p->staged; k++, src += rows)
        dest[k] = *src;
    }
  p->n += p->staged;
  p->staged = 0;
}

void
mg_profile_builder_reserve (MgProfileBuilder *self, guint process, guint n_samples)
{
  BuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  self->has_samples = TRUE;
  if (p->n + p->staged + n_samples > p->cap)
    builder_process_resize (self, p, p->n + p->staged + n_samples);
}

/* Whether the cache's profile has the builder's metrics. */
static gboolean
cache_has_metrics (MgProfileBuilder *self)
{
  MgProfile *previous = self->cache->profile;

  if (previous->metrics->len != self->metrics->len)
    return FALSE;
  for (guint m = 0; m < self->metrics->len; m++)
    if (g_strcmp0 (((MgMetricDef *) g_ptr_array_index (previous->metrics, m))->id,
                   ((MgMetricDef *) g_ptr_array_index (self->metrics, m))->id) != 0)
      return FALSE;
  return TRUE;
}

guint
mg_profile_builder_reuse_samples (MgProfileBuilder *self, guint process, guint previous, guint n)
{
  MgProfileBuilderCache *cache;
  MgProfile *from;
  BuilderProcess *p;
  guint n_metrics;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (process < self->processes->len, 0);
  p = g_ptr_array_index (self->processes, process);
  cache = self->cache;
  if (cache == NULL || cache->profile == NULL || previous >= cache->n_processes
      || p->n + p->staged > 0 || p->packed || !cache_has_metrics (self))
    return 0;
  from = cache->profile;
  n = MIN (n, from->process_n[previous]);
  if (n == 0)
    return 0;
  n_metrics = self->metrics->len;
  self->has_samples = TRUE;
  if (p->cap < n)
    builder_process_resize (self, p, n);
  memcpy (p->starts, cache->starts[previous], n * sizeof (double));
  memcpy (p->ends, cache->ends[previous], n * sizeof (double));
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgProcessSeries *series = &from->process_series[(gsize) previous * n_metrics + m];
      double *rows = p->values + (gsize) m * MG_PROCESS_SERIES_N * p->cap;
      const double *src[MG_PROCESS_SERIES_N] = { series->mins, series->maxs, series->means };

      for (guint r = 0; r < MG_PROCESS_SERIES_N; r++, rows += p->cap)
        {
          if (series->n > 0)
            memcpy (rows, src[r], n * sizeof (double));
          else
            for (guint k = 0; k < n; k++)
              rows[k] = NAN;
        }
    }
  p->n = n;
  p->previous = (int) previous;
  p->n_reused = n;
  return n;
}

void
mg_profile_builder_add_sample (MgProfileBuilder *self, guint process, double t_start_s,
                               double t_end_s, const double *mins, const double *maxs,
                               const double *means)
{
  BuilderProcess *p;
  guint n_metrics;
  double *staged;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  g_return_if_fail (!p->packed);
  n_metrics = self->metrics->len;
  self->has_samples = TRUE;
  if (p->n + p->staged == p->cap)
    builder_process_resize (self, p, MAX (2 * p->cap, 64));
  if (p->stage == NULL)
    p->stage = g_new (double, (gsize) STAGE * MG_PROCESS_SERIES_N * MAX (n_metrics, 1));
  p->starts[p->n + p->staged] = t_start_s;
  p->ends[p->n + p->staged] = t_end_s;
  staged = p->stage + (gsize) p->staged * MG_PROCESS_SERIES_N * n_metrics;
  for (guint m = 0; m < n_metrics; m++, staged += MG_PROCESS_SERIES_N)
    {
      staged[0] = mins[m];
      staged[1] = maxs[m];
      staged[2] = means[m];
    }
  if (++p->staged == STAGE)
    builder_process_flush (p, n_metrics);
}

static void builder_process_compact (BuilderProcess *p, guint n_metrics);

/* A job of the packer: one process of one builder. */
typedef struct {
  MgProfileBuilder *builder;
  BuilderProcess *process;
} PackJob;

/* Packs one process's rows (a job of the packer). */
static void
pack_process (gpointer data, G_GNUC_UNUSED gpointer user_data)
{
  g_autofree PackJob *job = data;
  BuilderProcess *p = job->process;
  MgProfileBuilder *self = job->builder;
  guint n_metrics = self->metrics->len;
  gsize n = p->n;

  p->parts = g_new0 (GBytes *, MAX (n_metrics, 1));
  for (guint m = 0; m < n_metrics; m++)
    {
      const double *rows = p->values + (gsize) m * MG_PROCESS_SERIES_N * n;
      gboolean any = FALSE;

      for (gsize k = 0; k < MG_PROCESS_SERIES_N * n && !any; k++)
        any = !isnan (rows[k]);
      if (any)
        /* Exact: the aggregates are computed from these parts. A profile
         * saved at single precision is converted as it is saved. */
        p->parts[m] = mg_process_block_encode_metric (n, rows, MG_PROCESS_PRECISION_EXACT);
    }
  release_rows (self, p);
  g_mutex_lock (&self->pending_lock);
  self->pending--;
  g_cond_signal (&self->pending_done);
  g_mutex_unlock (&self->pending_lock);
}

/* The packer's threads, made once and kept for the life of the program (an
 * exclusive pool): a pool per builder started and ended threads at every
 * merge, that is at every refresh of the live view, and GLib ends surplus
 * threads of shared pools by detaching them, which AddressSanitizer does
 * not see (docs/fuzzing.md, finding 6). */
static GThreadPool *
packer (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (pack_process, NULL, (int) n_workers (), TRUE,
                                                 NULL));
  return pool;
}

void
mg_profile_builder_pack (MgProfileBuilder *self, guint process)
{
  BuilderProcess *p;
  PackJob *job;
  guint n_metrics;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  p = g_ptr_array_index (self->processes, process);
  if (p->packed)
    return;
  n_metrics = self->metrics->len;
  if (p->ends == NULL)
    builder_process_resize (self, p, 1);
  builder_process_flush (p, n_metrics);
  builder_process_compact (p, n_metrics);
  g_clear_pointer (&p->stage, g_free);
  p->packed = TRUE;
  self->any_packed = TRUE;
  job = g_new (PackJob, 1);
  *job = (PackJob) { self, p };
  g_mutex_lock (&self->pending_lock);
  while (self->pending >= n_workers ())
    g_cond_wait (&self->pending_done, &self->pending_lock);
  self->pending++;
  g_mutex_unlock (&self->pending_lock);
  /* The first process is packed here: a run of one process (a tool, a
   * script's step) starts no packer thread, and a larger one loses only
   * the overlap of its first record. */
  if (process == 0)
    pack_process (job, NULL);
  else
    g_thread_pool_push (packer (), job, NULL);
}

void
mg_profile_builder_set_single_value (MgProfileBuilder *self, guint process, guint metric,
                                     double value)
{
  BuilderProcess *p;

  g_return_if_fail (self != NULL);
  g_return_if_fail (process < self->processes->len);
  g_return_if_fail (metric < self->metrics->len);
  p = g_ptr_array_index (self->processes, process);
  if (p->singles == NULL)
    {
      p->singles = g_new (double, self->metrics->len);
      for (guint m = 0; m < self->metrics->len; m++)
        p->singles[m] = NAN;
    }
  p->singles[metric] = value;
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

/* One process's values of one metric on the common grid. */
typedef struct {
  double *weight;   /* summed overlap (s) of its samples with the window */
  double *wmean;    /* overlap-weighted sum of means */
  double *points;   /* zero-length samples in the window, and their sum: */
  double *pmean;    /*   used only where no sample has a positive overlap */
  double *min;
  double *max;
} GridAcc;

typedef struct {
  guint n;
  double end;       /* the grid spans (0, end] */
  const double *starts;
  const double *ends;
  double scale;     /* windows per second: window of t is about t × scale */
  double width;     /* a stable grid's window width, 0: uniform */
} Grid;

/* Windows from..n-1 emptied. */
static void
grid_acc_reset (GridAcc *acc, guint from, guint n)
{
  for (guint w = from; w < n; w++)
    {
      acc->weight[w] = acc->wmean[w] = acc->points[w] = acc->pmean[w] = 0.0;
      acc->min[w] = INFINITY;
      acc->max[w] = -INFINITY;
    }
}

static guint
grid_clamp (const Grid *grid, double index)
{
  if (!(index > 0.0))
    return 0;
  if (index >= grid->n)
    return grid->n - 1;
  return (guint) index;
}

typedef void (*WindowVisit) (gpointer data, guint32 w, double overlap);

/* The windows from..n-1 (those before are left alone) that the sample
 * (a, b] overlaps with a positive length, with that length; for an
 * instant (b <= a), the window (start, end] that holds b, with 0. */
static void
sample_windows (const Grid *grid, guint from, double a, double b, WindowVisit visit,
                gpointer data)
{
  double scale = grid->scale;

  if (grid->n == 0)
    return;
  if (!(b > a))
    {
      guint w = grid_clamp (grid, ceil (b * scale) - 1.0);

      if (w >= from)
        visit (data, w, 0.0);
      return;
    }
  for (guint w = MAX (grid_clamp (grid, floor (a * scale)), from);
       w <= grid_clamp (grid, ceil (b * scale) - 1.0); w++)
    {
      double overlap = MIN (b, grid->ends[w]) - MAX (a, grid->starts[w]);

      if (overlap > 0.0)
        visit (data, w, overlap);
    }
}

/* Windows the sample (a, b] can touch, at most. */
static gsize
sample_reach (const Grid *grid, double a, double b)
{
  guint lo = grid_clamp (grid, floor (a * grid->scale));
  guint hi = grid_clamp (grid, ceil (b * grid->scale) - 1.0);

  return !(b > a) ? 1 : hi >= lo ? hi - lo + 1 : 0;
}

typedef struct {
  BuilderProcess *process;
  gsize len;
} SpanFill;

static void
span_push (gpointer data, guint32 w, double overlap)
{
  SpanFill *fill = data;

  fill->process->span_w[fill->len] = w;
  fill->process->span_overlap[fill->len] = overlap;
  fill->len++;
}

/* Where each of the process's samples falls on windows from..n-1
 * (sample_windows ()): every metric of the process spreads its values
 * through this one span instead of finding the windows again. Samples
 * that overlap each other (a damaged record) could make it as large as
 * samples × windows: then none is made, and each metric finds the
 * windows itself. */
static void
span_build (BuilderProcess *p, const Grid *grid, guint from)
{
  SpanFill fill = { p, 0 };
  gsize room = 0;

  p->span_end = g_new0 (guint32, MAX (p->n, 1));
  if (grid->n == 0)
    return;
  for (gsize k = 0; k < p->n; k++)
    room += sample_reach (grid, p->starts[k], p->ends[k]);
  /* Samples one after another touch at most n + windows. */
  if (room > 2 * (p->n + grid->n))
    {
      g_clear_pointer (&p->span_end, g_free);
      return;
    }
  p->span_w = g_new (guint32, MAX (room, 1));
  p->span_overlap = g_new (double, MAX (room, 1));
  for (gsize k = 0; k < p->n; k++)
    {
      sample_windows (grid, from, p->starts[k], p->ends[k], span_push, &fill);
      p->span_end[k] = (guint32) fill.len;
    }
}

/* Window w's share (overlap; 0: an instant in it) of a sample's values. */
static inline void
grid_acc_put (GridAcc *acc, guint32 w, double overlap, double min, double max, double mean)
{
  if (!isnan (mean))
    {
      if (overlap > 0.0)
        {
          acc->weight[w] += overlap;
          acc->wmean[w] += overlap * mean;
        }
      else
        {
          acc->points[w] += 1.0;
          acc->pmean[w] += mean;
        }
    }
  if (!isnan (min))
    acc->min[w] = MIN (acc->min[w], min);
  if (!isnan (max))
    acc->max[w] = MAX (acc->max[w], max);
}

typedef struct {
  GridAcc *acc;
  double min, max, mean;
} SampleValues;

static void
put_visit (gpointer data, guint32 w, double overlap)
{
  SampleValues *v = data;

  grid_acc_put (v->acc, w, overlap, v->min, v->max, v->mean);
}

/* Adds sample k of the process to windows from..n-1: through its span, or
 * finding them when it has none. */
static void
grid_acc_add (GridAcc *acc, const Grid *grid, guint from, const BuilderProcess *p, gsize k,
              double min, double max, double mean)
{
  SampleValues v = { acc, min, max, mean };

  if (p->span_end == NULL)
    {
      sample_windows (grid, from, p->starts[k], p->ends[k], put_visit, &v);
      return;
    }
  for (guint32 e = k > 0 ? p->span_end[k - 1] : 0; e < p->span_end[k]; e++)
    grid_acc_put (acc, p->span_w[e], p->span_overlap[e], min, max, mean);
}

/* A sparse metric's sample k (its source reports at its own times: a
 * Score-P ASYNC plugin, a SYNC one with delta_t, MAP's <sparse>): one
 * reading, put into the one window that holds the sample's end, never
 * spread over the windows the sample overlaps, so that each reading is
 * exported once; the windows between readings stay gaps. */
static void
grid_acc_add_reading (GridAcc *acc, const Grid *grid, guint from, const BuilderProcess *p,
                      gsize k, double min, double max, double mean)
{
  SampleValues v = { acc, min, max, mean };

  if (isnan (mean) && isnan (min) && isnan (max))
    return;
  sample_windows (grid, from, p->ends[k], p->ends[k], put_visit, &v);
}

/* The process's value in window w: mean, min, max; FALSE in a gap. */
static gboolean
grid_acc_get (const GridAcc *acc, guint w, double *mean, double *min, double *max)
{
  double lo = isfinite (acc->min[w]) ? acc->min[w] : NAN;
  double hi = isfinite (acc->max[w]) ? acc->max[w] : NAN;

  if (acc->weight[w] > 0.0)
    *mean = mg_bounded_mean (acc->wmean[w], acc->weight[w], lo, hi);
  else if (acc->points[w] > 0.0)
    *mean = mg_bounded_mean (acc->pmean[w], acc->points[w], lo, hi);
  else
    return FALSE;
  *min = isnan (lo) ? *mean : lo;
  *max = isnan (hi) ? *mean : hi;
  return TRUE;
}

static double
grid_end (MgProfileBuilder *self)
{
  double end = 0.0;

  for (guint p = 0; p < self->processes->len; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

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
      BuilderProcess *process = g_ptr_array_index (self->processes, p);
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
  BuilderProcess *process = g_ptr_array_index (self->processes, p);
  guint n_metrics = self->metrics->len;
  g_autoptr(GBytes) times = mg_process_block_encode_times (process->n, process->ends);
  GBytes *block = mg_process_block_join (times, process->parts, n_metrics);
  guint8 *reported = mg_profile_take_block (profile, g_new0 (guint8, MAX (n_metrics, 1)));
  MgPackedProcess *packed = &profile->packed[p];
  gsize size;

  for (guint m = 0; m < n_metrics; m++)
    reported[m] = process->parts[m] != NULL;
  builder_process_free_parts (process, n_metrics);
  packed->block = mg_profile_take_block (profile, g_bytes_unref_to_data (block, &size));
  packed->size = size;
  packed->reported = reported;
  profile->process_n[p] = process->n;
}

/* Hands one process's blocks over to the profile. */
static void
build_process_series (MgProfileBuilder *self, MgProfile *profile, guint p)
{
  BuilderProcess *process = g_ptr_array_index (self->processes, p);
  guint n_metrics = self->metrics->len;
  gsize n = process->n;
  double *times, *block;

  if (process->ends == NULL)
    builder_process_resize (self, process, 1);
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

/* Closes the gaps between rows: row r moves from r × cap to r × n. */
static void
builder_process_compact (BuilderProcess *p, guint n_metrics)
{
  gsize rows = (gsize) n_metrics * MG_PROCESS_SERIES_N;

  if (p->cap == p->n || p->values == NULL)
    return;
  for (gsize r = 1; r < rows; r++)
    memmove (p->values + r * p->n, p->values + r * p->cap, p->n * sizeof (double));
  p->cap = p->n;
}

/* A process's rows of metric m: in place, or unpacked into scratch. */
static const double *
process_rows (BuilderProcess *process, guint m, double *scratch)
{
  gsize n = process->n;

  if (!process->packed)
    return process->values + (gsize) m * MG_PROCESS_SERIES_N * n;
  if (process->parts[m] == NULL || !mg_process_block_decode_metric (process->parts[m], n, scratch))
    for (gsize k = 0; k < MG_PROCESS_SERIES_N * n; k++)
      scratch[k] = NAN;
  return scratch;
}

/* The first of the process's samples that can reach window `from` of a
 * stable grid: those ending a window before it or earlier touch no window
 * from it on (its bounds are exact multiples of the width). */
static gsize
first_sample_from (const BuilderProcess *process, const Grid *grid, guint from)
{
  double cut;
  gsize lo = 0, hi = process->n;

  if (from < 2 || grid->width == 0.0 || !process->sorted)
    return 0;
  cut = grid->starts[from - 1];
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (process->ends[mid] <= cut)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Windows before `from` as the previous profile has them. */
static void
copy_previous (const MgSeries *previous, guint from, gsize n, double *out, gint32 *out_index)
{
  const double *rows[MG_SERIES_N_DOUBLES] = { previous->mins, previous->maxs, previous->means,
                                              previous->vars, previous->sums };
  const gint32 *index_rows[MG_SERIES_N_INDICES] = { previous->min_process,
                                                    previous->max_process };

  for (guint r = 0; r < MG_SERIES_N_DOUBLES; r++)
    memcpy (out + r * n, rows[r], from * sizeof (double));
  for (guint r = 0; r < MG_SERIES_N_INDICES; r++)
    memcpy (out_index + r * n, index_rows[r], from * sizeof (gint32));
}

/* Across processes, window by window from `from` on (the windows before
 * are the previous profile's), for one time-domain metric. One process at
 * a time through one grid accumulator; values keeps each process's window
 * values (NaN: gap) for the variance's second pass. */
static void
aggregate_metric (MgProfileBuilder *self, const Grid *grid, guint m, guint from, GridAcc *acc,
                  double *values, guint *counts, double *bounds, double *out,
                  gint32 *out_index, double *scratch)
{
  guint n_proc = self->processes->len;
  gsize n = grid->n;
  double *mins = out, *maxs = out + n, *means = out + 2 * n, *vars = out + 3 * n,
         *sums = out + 4 * n;
  gint32 *min_p = out_index, *max_p = out_index + n;
  /* The lowest and highest process value (mean) in each window: a mean is
   * kept within them. Taken process by process, as the values come, not
   * window by window across every process's row (a cache miss each). */
  double *lo = bounds, *hi = bounds + n;
  const MgMetricDef *def = g_ptr_array_index (self->metrics, m);
  gboolean sparse = def->sparse;

  if (from > 0)
    copy_previous (&self->cache->profile->series[m], from, n, out, out_index);
  for (gsize w = from; w < n; w++)
    {
      mins[w] = INFINITY;
      maxs[w] = -INFINITY;
      sums[w] = vars[w] = 0.0;
      counts[w] = 0;
      min_p[w] = max_p[w] = -1;
      lo[w] = INFINITY;
      hi[w] = -INFINITY;
    }

  for (guint p = 0; p < n_proc; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);
      gsize n_samples = process->n;
      const double *row = process_rows (process, m, scratch);
      double *pv = values + (gsize) p * n;

      if (process->info.helper)
        {
          for (gsize w = from; w < n; w++)
            pv[w] = NAN;
          continue;
        }
      grid_acc_reset (acc, from, grid->n);
      for (gsize k = first_sample_from (process, grid, from); k < n_samples; k++)
        if (sparse)
          grid_acc_add_reading (acc, grid, from, process, k, row[k], row[n_samples + k],
                                row[2 * n_samples + k]);
        else
          grid_acc_add (acc, grid, from, process, k, row[k], row[n_samples + k],
                        row[2 * n_samples + k]);
      for (gsize w = from; w < n; w++)
        {
          double vmin, vmax;

          if (!grid_acc_get (acc, w, &pv[w], &vmin, &vmax))
            {
              pv[w] = NAN;
              continue;
            }
          counts[w]++;
          sums[w] += pv[w];
          if (!isnan (pv[w]))
            lo[w] = MIN (lo[w], pv[w]), hi[w] = MAX (hi[w], pv[w]);
          if (vmin < mins[w])
            mins[w] = vmin, min_p[w] = (gint32) p;
          if (vmax > maxs[w])
            maxs[w] = vmax, max_p[w] = (gint32) p;
        }
    }

  for (gsize w = from; w < n; w++)
    means[w] = counts[w] > 0 ? mg_bounded_mean (sums[w], counts[w], lo[w], hi[w]) : NAN;
  for (guint p = 0; p < n_proc; p++)
    {
      const double *pv = values + (gsize) p * n;

      for (gsize w = from; w < n; w++)
        if (!isnan (pv[w]))
          vars[w] += (pv[w] - means[w]) * (pv[w] - means[w]);
    }
  for (gsize w = from; w < n; w++)
    {
      if (counts[w] > 0)
        {
          vars[w] /= counts[w];
          continue;
        }
      mins[w] = maxs[w] = means[w] = vars[w] = sums[w] = NAN;
      min_p[w] = max_p[w] = -1;
    }
}

static void
aggregate_single_value (MgProfileBuilder *self, guint m, MgSingleValue *out)
{
  double sum = 0.0, var = 0.0;
  guint count = 0;

  out->min = INFINITY;
  out->max = -INFINITY;
  for (guint p = 0; p < self->processes->len; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      if (process->singles == NULL || isnan (process->singles[m]) || process->info.helper)
        continue;
      count++;
      sum += process->singles[m];
      out->min = MIN (out->min, process->singles[m]);
      out->max = MAX (out->max, process->singles[m]);
    }
  out->count = count;
  if (count == 0)
    {
      out->min = out->max = out->mean = out->var = out->sum = NAN;
      return;
    }
  out->mean = mg_bounded_mean (sum, count, out->min, out->max);
  out->sum = sum;
  for (guint p = 0; p < self->processes->len; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      if (process->singles != NULL && !isnan (process->singles[m]) && !process->info.helper)
        var += (process->singles[m] - out->mean) * (process->singles[m] - out->mean);
    }
  out->var = var / count;
}

/* The metrics aggregated by one thread: every n_workers-th from first,
 * each worker with its own scratch memory. */
typedef struct {
  MgProfileBuilder *self;
  MgProfile *profile;
  const Grid *grid;
  gsize max_n;
  double *agg;
  gint32 *agg_index;
  guint from;        /* the first window to compute: those before are the cache's */
  guint first, n_workers;
} AggregateJob;

static gpointer
aggregate_some (gpointer data)
{
  AggregateJob *job = data;
  guint n_windows = job->grid->n, n_proc = job->self->processes->len;
  g_autofree double *mem = g_new (double, 6 * (gsize) MAX (n_windows, 1));
  GridAcc acc = { mem, mem + n_windows, mem + 2 * n_windows, mem + 3 * n_windows,
                  mem + 4 * n_windows, mem + 5 * n_windows };
  g_autofree double *pvalues = g_new (double, MAX ((gsize) n_proc * n_windows, 1));
  g_autofree double *scratch = g_new (double, MAX (MG_PROCESS_SERIES_N * job->max_n, 1));
  g_autofree guint *counts = g_new (guint, MAX (n_windows, 1));
  g_autofree double *bounds = g_new (double, 2 * (gsize) MAX (n_windows, 1));

  for (guint m = job->first; m < job->profile->metrics->len; m += job->n_workers)
    {
      const MgMetricDef *def = g_ptr_array_index (job->profile->metrics, m);
      double *out = job->agg + (gsize) m * MG_SERIES_N_DOUBLES * n_windows;
      gint32 *out_index = job->agg_index + (gsize) m * MG_SERIES_N_INDICES * n_windows;

      if (def->domain == MG_DOMAIN_SINGLE_VALUE)
        {
          aggregate_single_value (job->self, m, &job->profile->singles[m]);
          for (gsize i = 0; i < (gsize) MG_SERIES_N_DOUBLES * n_windows; i++)
            out[i] = NAN;
          for (gsize i = 0; i < (gsize) MG_SERIES_N_INDICES * n_windows; i++)
            out_index[i] = -1;
        }
      else
        {
          MgSingleValue *none = &job->profile->singles[m];

          none->min = none->max = none->mean = none->var = none->sum = NAN;
          aggregate_metric (job->self, job->grid, m, job->from, &acc, pvalues, counts, bounds,
                            out, out_index, scratch);
        }
    }
  return NULL;
}

/* The spans of every n_workers-th process from first. */
static gpointer
span_some (gpointer data)
{
  AggregateJob *job = data;

  for (guint p = job->first; p < job->self->processes->len; p += job->n_workers)
    span_build (g_ptr_array_index (job->self->processes, p), job->grid, job->from);
  return NULL;
}

/* Runs func on n jobs, one in the caller's thread. */
static void
run_jobs (GThreadFunc func, AggregateJob *jobs, guint n)
{
  g_autofree GThread **threads = g_new0 (GThread *, n);

  for (guint i = 1; i < n; i++)
    threads[i] = g_thread_new ("mg-aggregate", func, &jobs[i]);
  func (&jobs[0]);
  for (guint i = 1; i < n; i++)
    g_thread_join (threads[i]);
}

/* Samples (processes x the longest process's) under which the aggregates
 * are made on the calling thread alone. */
#define SMALL_AGGREGATE_SAMPLES 4096

/* Metrics are independent: packed ones (unpacking is most of the work)
 * are shared among the cores, and so are the processes' spans before. */
static void
aggregate_all (MgProfileBuilder *self, MgProfile *profile, const Grid *grid, guint from,
               gsize max_n, double *agg, gint32 *agg_index)
{
  /* Below a full record's worth of samples (a short run of a few
   * processes) the work is smaller than starting threads. */
  gboolean small = (gsize) self->processes->len * max_n < SMALL_AGGREGATE_SAMPLES;
  guint n = self->any_packed && !small ? n_workers () : 1;
  g_autofree AggregateJob *jobs = g_new (AggregateJob, n);

  for (guint i = 0; i < n; i++)
    jobs[i] = (AggregateJob) { self, profile, grid, max_n, agg, agg_index, from, i, n };
  run_jobs (span_some, jobs, n);
  n = MIN (n, MAX (self->metrics->len, 1));
  for (guint i = 0; i < n; i++)
    jobs[i].n_workers = n;
  run_jobs (aggregate_some, jobs, n);
  for (guint p = 0; p < self->processes->len; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      g_clear_pointer (&process->span_end, g_free);
      g_clear_pointer (&process->span_w, g_free);
      g_clear_pointer (&process->span_overlap, g_free);
    }
}

/* A stable grid's window width: the smallest power of two (s) that makes
 * at most max windows up to end. */
static double
stable_width (double end, guint max)
{
  double lower = end / max;
  int e;

  frexp (lower, &e);   /* 2^(e-1) <= lower < 2^e */
  return ldexp (1.0, e - 1) >= lower ? ldexp (1.0, e - 1) : ldexp (1.0, e);
}

/* The earliest time at which the process's samples differ from those of
 * the cache's profile (-INFINITY: unknown; INFINITY: none). */
static double
process_changed_from (MgProfileBuilder *self, guint p)
{
  BuilderProcess *process = g_ptr_array_index (self->processes, p);
  MgProfileBuilderCache *cache = self->cache;
  double t = INFINITY;

  if (p < cache->n_processes && process->previous != (int) p)
    return -INFINITY;
  for (gsize k = process->n_reused; k < process->n; k++)
    t = MIN (t, MIN (process->starts[k], process->ends[k]));
  for (gsize k = process->n_reused; p < cache->n_processes && k < cache->profile->process_n[p]; k++)
    t = MIN (t, MIN (cache->starts[p][k], cache->ends[p][k]));
  return isnan (t) ? -INFINITY : t;
}

/* A process became a helper, or stopped being one, since the cache's
 * profile: every window changes. */
static gboolean
helpers_changed (MgProfileBuilder *self)
{
  MgProfile *previous = self->cache->profile;

  for (guint p = 0; p < self->processes->len && p < previous->processes->len; p++)
    if (((BuilderProcess *) g_ptr_array_index (self->processes, p))->info.helper
        != g_array_index (previous->processes, MgProcessInfo, p).helper)
      return TRUE;
  return FALSE;
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

  for (guint i = 0; i < self->events->len && !images; i++)
    images = g_array_index (self->events, MgProcessEvent, i).kind == MG_EVENT_START
             && g_array_index (self->events, MgProcessEvent, i).message != NULL;
  if (!images || n == 0)
    return;
  infos = g_new (MgProcessInfo, n);
  helper = g_new (gboolean, n);
  for (guint p = 0; p < n; p++)
    infos[p] = ((BuilderProcess *) g_ptr_array_index (self->processes, p))->info;
  mg_process_roles_find_helpers (infos, n, self->run.interval_start_ms, helper);
  for (guint p = 0; p < n; p++)
    ((BuilderProcess *) g_ptr_array_index (self->processes, p))->info.helper = helper[p];
}

/* The first window whose aggregates may differ from the cache's profile's:
 * those before keep their values (0: every window is computed). */
static guint
first_changed_window (MgProfileBuilder *self, const Grid *grid)
{
  MgProfileBuilderCache *cache = self->cache;
  guint from;

  if (cache == NULL || cache->profile == NULL || grid->width == 0.0
      || helpers_changed (self)
      || cache->width != grid->width || cache->profile->n_windows == 0
      || grid->n < cache->profile->n_windows || self->processes->len < cache->n_processes
      || !cache_has_metrics (self))
    return 0;
  /* Its last window ended at its end, which the run's has passed. */
  from = cache->profile->n_windows - 1;
  for (guint p = 0; p < self->processes->len && from > 0; p++)
    {
      double t = process_changed_from (self, p);

      /* A window before the one that holds t, for an instant at t. */
      if (t < INFINITY)
        from = MIN (from, grid_clamp (grid, floor (t * grid->scale) - 1.0));
    }
  return from;
}

/* What the next builder given the cache reuses: the profile and its
 * processes' sample windows. */
static void
keep_in_cache (MgProfileBuilder *self, MgProfile *profile, double width, guint reused_windows)
{
  MgProfileBuilderCache *cache = self->cache;
  guint n_proc = self->processes->len;

  cache_clear (cache);
  cache->generation++;
  cache->reused_windows = reused_windows;
  cache->reused_samples = 0;
  for (guint p = 0; p < n_proc; p++)
    cache->reused_samples += ((BuilderProcess *) g_ptr_array_index (self->processes, p))->n_reused;
  if (self->any_packed)
    return;
  cache->profile = g_object_ref (profile);
  cache->n_processes = n_proc;
  cache->width = width;
  cache->starts = g_new (double *, MAX (n_proc, 1));
  cache->ends = g_new (double *, MAX (n_proc, 1));
  for (guint p = 0; p < n_proc; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      cache->starts[p] = g_steal_pointer (&process->starts);
      cache->ends[p] = g_memdup2 (process->ends, MAX (process->n, 1) * sizeof (double));
    }
}

static guint
choose_n_windows (MgProfileBuilder *self)
{
  guint n = 0;

  for (guint p = 0; p < self->processes->len; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      n = MAX (n, process->n);
    }
  return n;
}

MgProfile *
mg_profile_builder_finish (MgProfileBuilder *self, guint n_windows, GError **error)
{
  g_autoptr(MgProfile) profile = NULL;
  guint n_metrics, n_proc;
  double end, width, *starts, *ends, *agg;
  gint32 *agg_index;
  Grid grid;
  gsize max_n = 0;
  guint from;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_metrics = self->metrics->len;
  n_proc = self->processes->len;
  /* Some processes packed: all are, the last ones now. */
  for (guint p = 0; self->any_packed && p < n_proc; p++)
    mg_profile_builder_pack (self, p);
  wait_packed (self);
  free_spare_rows (self);
  for (guint p = 0; p < n_proc; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      builder_process_flush (process, n_metrics);
      builder_process_compact (process, n_metrics);
      max_n = MAX (max_n, process->n);
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
      BuilderProcess *process = g_ptr_array_index (self->processes, p);
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
  width = self->stable_grid && n_windows > 0 ? stable_width (end, n_windows) : 0.0;
  if (width > 0.0)
    n_windows = (guint) ceil (end / width);
  profile->n_windows = n_windows;
  starts = mg_profile_take_block (profile, g_new (double, 2 * (gsize) MAX (n_windows, 1)));
  ends = starts + n_windows;
  for (guint w = 0; w < n_windows; w++)
    {
      starts[w] = width > 0.0 ? w * width : end * w / n_windows;
      ends[w] = w + 1 == n_windows ? end : width > 0.0 ? (w + 1) * width : end * (w + 1) / n_windows;
    }
  profile->window_starts = starts;
  profile->window_ends = ends;
  grid = (Grid) { n_windows, end, starts, ends, width > 0.0 ? 1.0 / width : n_windows / end,
                  width };

  agg = mg_profile_take_block (profile,
                               g_new (double, MAX ((gsize) n_metrics * MG_SERIES_N_DOUBLES * n_windows, 1)));
  agg_index = mg_profile_take_block (profile,
                                     g_new (gint32, MAX ((gsize) n_metrics * MG_SERIES_N_INDICES * n_windows, 1)));
  profile->singles = g_new0 (MgSingleValue, MAX (n_metrics, 1));
  from = first_changed_window (self, &grid);
  aggregate_all (self, profile, &grid, from, max_n, agg, agg_index);
  mg_profile_set_aggregates (profile, agg, agg_index);
  if (self->cache != NULL)
    keep_in_cache (self, profile, width, from);

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
  if (self->slabs != NULL)
    profile->backing = mg_slab_set_to_bytes (g_steal_pointer (&self->slabs));

  return g_steal_pointer (&profile);
}
