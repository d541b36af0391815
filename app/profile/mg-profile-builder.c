/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Puts every process's sample windows onto one common grid and computes the
 * aggregates across processes. The rules are documented in
 * docs/profile-format.md ("How the aggregates are computed"). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "format/mg-bounded-mean.h"
#include "mg-process-block.h"
#include "mg-profile-builder.h"
#include "mg-profile-private.h"

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
} BuilderProcess;

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
  gboolean any_packed;
  /* Processes handed to the packer (packer ()) and not packed yet: the
   * caller waits while there are too many, or unpacked samples would pile
   * up, and for none before finishing or freeing. */
  guint pending;
  GMutex pending_lock;
  GCond pending_done;
};

/* Threads that pack processes and aggregate metrics beside the caller. */
static guint
n_workers (void)
{
  return CLAMP (g_get_num_processors (), 1, 8);
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
  g_free (process->values);
  g_free (process->stage);
  g_free (process->singles);
  g_free (process);
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
  return self;
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
  /* Its end, from a character's start. */
  len = strlen (output);
  start = output + (len > MG_PROFILE_OUTPUT_MAX ? len - MG_PROFILE_OUTPUT_MAX : 0);
  while (start > output && (*start & 0xc0) == 0x80)
    start++;
  self->run.output = g_utf8_make_valid (start, -1);
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
  g_ptr_array_add (self->processes, process);
  return self->processes->len - 1;
}

/* Re-lays the rows with room for new_cap samples. */
static void
builder_process_resize (BuilderProcess *p, guint n_metrics, gsize new_cap)
{
  gsize rows = (gsize) n_metrics * MG_PROCESS_SERIES_N;
  double *values = mg_profile_alloc_big (MAX (rows * new_cap, 1) * sizeof (double));

  for (gsize r = 0; r < rows && p->n > 0; r++)
    memcpy (values + r * new_cap, p->values + r * p->cap, p->n * sizeof (double));
  g_free (p->values);
  p->values = values;
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
    builder_process_resize (p, self->metrics->len, p->n + p->staged + n_samples);
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
    builder_process_resize (p, n_metrics, MAX (2 * p->cap, 64));
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
        p->parts[m] = mg_process_block_encode_metric (n, rows);
    }
  g_clear_pointer (&p->values, g_free);
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
    builder_process_resize (p, n_metrics, 1);
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
} Grid;

static void
grid_acc_reset (GridAcc *acc, guint n)
{
  for (guint w = 0; w < n; w++)
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

static void
grid_acc_add (GridAcc *acc, const Grid *grid, double a, double b, double min, double max,
              double mean)
{
  double scale = grid->n / grid->end;

  if (grid->n == 0)
    return;
  if (!(b > a))
    {
      /* An instant: the window (start, end] that holds b. */
      guint w = grid_clamp (grid, ceil (b * scale) - 1.0);

      if (!isnan (mean))
        {
          acc->points[w] += 1.0;
          acc->pmean[w] += mean;
        }
      if (!isnan (min))
        acc->min[w] = MIN (acc->min[w], min);
      if (!isnan (max))
        acc->max[w] = MAX (acc->max[w], max);
      return;
    }

  for (guint w = grid_clamp (grid, floor (a * scale)); w <= grid_clamp (grid, ceil (b * scale) - 1.0); w++)
    {
      double overlap = MIN (b, grid->ends[w]) - MAX (a, grid->starts[w]);

      if (!(overlap > 0.0))
        continue;
      if (!isnan (mean))
        {
          acc->weight[w] += overlap;
          acc->wmean[w] += overlap * mean;
        }
      if (!isnan (min))
        acc->min[w] = MIN (acc->min[w], min);
      if (!isnan (max))
        acc->max[w] = MAX (acc->max[w], max);
    }
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
    builder_process_resize (process, n_metrics, 1);
  times = mg_profile_take_block (profile, g_steal_pointer (&process->ends));
  block = mg_profile_take_block (profile, g_steal_pointer (&process->values));
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

/* The mean of the processes' values in window w (values: one row of n per
 * process, NaN in a gap), bounded by the lowest and highest of them. */
static double
window_mean (const double *values, guint n_proc, gsize n, gsize w, double sum, guint count)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint p = 0; p < n_proc; p++)
    {
      double v = values[(gsize) p * n + w];

      if (!isnan (v))
        lo = MIN (lo, v), hi = MAX (hi, v);
    }
  return mg_bounded_mean (sum, count, lo, hi);
}

/* Across processes, window by window, for one time-domain metric. One
 * process at a time through one grid accumulator; values keeps each
 * process's window values (NaN: gap) for the variance's second pass. */
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

static void
aggregate_metric (MgProfileBuilder *self, const Grid *grid, guint m, GridAcc *acc,
                  double *values, guint *counts, double *out, gint32 *out_index,
                  double *scratch)
{
  guint n_proc = self->processes->len;
  gsize n = grid->n;
  double *mins = out, *maxs = out + n, *means = out + 2 * n, *vars = out + 3 * n,
         *sums = out + 4 * n;
  gint32 *min_p = out_index, *max_p = out_index + n;

  for (gsize w = 0; w < n; w++)
    {
      mins[w] = INFINITY;
      maxs[w] = -INFINITY;
      sums[w] = vars[w] = 0.0;
      counts[w] = 0;
      min_p[w] = max_p[w] = -1;
    }

  for (guint p = 0; p < n_proc; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);
      gsize n_samples = process->n;
      const double *row = process_rows (process, m, scratch);
      double *pv = values + (gsize) p * n;

      grid_acc_reset (acc, grid->n);
      for (gsize k = 0; k < n_samples; k++)
        grid_acc_add (acc, grid, process->starts[k], process->ends[k], row[k],
                      row[n_samples + k], row[2 * n_samples + k]);
      for (gsize w = 0; w < n; w++)
        {
          double vmin, vmax;

          if (!grid_acc_get (acc, w, &pv[w], &vmin, &vmax))
            {
              pv[w] = NAN;
              continue;
            }
          counts[w]++;
          sums[w] += pv[w];
          if (vmin < mins[w])
            mins[w] = vmin, min_p[w] = (gint32) p;
          if (vmax > maxs[w])
            maxs[w] = vmax, max_p[w] = (gint32) p;
        }
    }

  for (gsize w = 0; w < n; w++)
    means[w] = counts[w] > 0 ? window_mean (values, n_proc, n, w, sums[w], counts[w]) : NAN;
  for (guint p = 0; p < n_proc; p++)
    {
      const double *pv = values + (gsize) p * n;

      for (gsize w = 0; w < n; w++)
        if (!isnan (pv[w]))
          vars[w] += (pv[w] - means[w]) * (pv[w] - means[w]);
    }
  for (gsize w = 0; w < n; w++)
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

      if (process->singles == NULL || isnan (process->singles[m]))
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

      if (process->singles != NULL && !isnan (process->singles[m]))
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
          aggregate_metric (job->self, job->grid, m, &acc, pvalues, counts, out, out_index,
                            scratch);
        }
    }
  return NULL;
}

/* Metrics are independent: packed ones (unpacking is most of the work)
 * are shared among the cores. */
static void
aggregate_all (MgProfileBuilder *self, MgProfile *profile, const Grid *grid, gsize max_n,
               double *agg, gint32 *agg_index)
{
  guint n = self->any_packed ? n_workers () : 1;
  g_autofree AggregateJob *jobs = g_new (AggregateJob, n);
  g_autofree GThread **threads = g_new0 (GThread *, n);

  n = MIN (n, MAX (self->metrics->len, 1));
  for (guint i = 0; i < n; i++)
    {
      jobs[i] = (AggregateJob) { self, profile, grid, max_n, agg, agg_index, i, n };
      if (i > 0)
        threads[i] = g_thread_new ("mg-aggregate", aggregate_some, &jobs[i]);
    }
  aggregate_some (&jobs[0]);
  for (guint i = 1; i < n; i++)
    g_thread_join (threads[i]);
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
  double end, *starts, *ends, *agg;
  gint32 *agg_index;
  Grid grid;
  gsize max_n = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_metrics = self->metrics->len;
  n_proc = self->processes->len;
  /* Some processes packed: all are, the last ones now. */
  for (guint p = 0; self->any_packed && p < n_proc; p++)
    mg_profile_builder_pack (self, p);
  wait_packed (self);
  for (guint p = 0; p < n_proc; p++)
    {
      BuilderProcess *process = g_ptr_array_index (self->processes, p);

      builder_process_flush (process, n_metrics);
      builder_process_compact (process, n_metrics);
      max_n = MAX (max_n, process->n);
    }
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

  /* The grid: uniform windows (start, end] from 0 to the run's end. */
  profile->n_windows = n_windows;
  starts = mg_profile_take_block (profile, g_new (double, 2 * (gsize) MAX (n_windows, 1)));
  ends = starts + n_windows;
  for (guint w = 0; w < n_windows; w++)
    {
      starts[w] = end * w / n_windows;
      ends[w] = w + 1 == n_windows ? end : end * (w + 1) / n_windows;
    }
  profile->window_starts = starts;
  profile->window_ends = ends;
  grid = (Grid) { n_windows, end, starts, ends };

  agg = mg_profile_take_block (profile,
                               g_new (double, MAX ((gsize) n_metrics * MG_SERIES_N_DOUBLES * n_windows, 1)));
  agg_index = mg_profile_take_block (profile,
                                     g_new (gint32, MAX ((gsize) n_metrics * MG_SERIES_N_INDICES * n_windows, 1)));
  profile->singles = g_new0 (MgSingleValue, MAX (n_metrics, 1));
  aggregate_all (self, profile, &grid, max_n, agg, agg_index);
  mg_profile_set_aggregates (profile, agg, agg_index);

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

  return g_steal_pointer (&profile);
}
