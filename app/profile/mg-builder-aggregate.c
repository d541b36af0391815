/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The aggregates across processes. The rules are documented in
 * docs/profile-format.md ("How the aggregates are computed"). */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "format/mg-bounded-mean.h"
#include "mg-builder-aggregate.h"
#include "mg-profile-internal.h"

/* The metrics aggregated by one thread: every n_workers-th from first,
 * each worker with its own scratch memory. */
typedef struct {
  MgProfile *profile;
  GPtrArray *processes;
  const MgProfile *previous;
  const MgGrid *grid;
  gsize max_n;
  double *agg;
  gint32 *agg_index;
  guint from;        /* the first window to compute: those before are previous's */
  guint first, n_workers;
} AggregateJob;

/* A worker's memory for one metric at a time. */
typedef struct {
  MgGridAcc acc;
  double *values;   /* each process's window values */
  guint *counts;
  double *bounds;
  double *rows;     /* a packed process's rows, unpacked */
} Scratch;

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
aggregate_metric (const AggregateJob *job, guint m, Scratch *scratch, double *out,
                  gint32 *out_index)
{
  const MgGrid *grid = job->grid;
  guint n_proc = job->processes->len, from = job->from;
  gsize n = grid->n;
  double *values = scratch->values, *bounds = scratch->bounds;
  guint *counts = scratch->counts;
  double *mins = out, *maxs = out + n, *means = out + 2 * n, *vars = out + 3 * n,
         *sums = out + 4 * n;
  gint32 *min_p = out_index, *max_p = out_index + n;
  /* The lowest and highest process value (mean) in each window: a mean is
   * kept within them. Taken process by process, as the values come, not
   * window by window across every process's row (a cache miss each). */
  double *lo = bounds, *hi = bounds + n;
  const MgMetricDef *def = g_ptr_array_index (job->profile->metrics, m);
  gboolean sparse = def->sparse;

  if (from > 0)
    copy_previous (&job->previous->series[m], from, n, out, out_index);
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
      MgBuilderProcess *process = g_ptr_array_index (job->processes, p);
      const double *row = mg_builder_process_metric_rows (process, m, scratch->rows);
      double *pv = values + (gsize) p * n;

      /* A helper of the launch is listed, not aggregated (mg-process-roles.h). */
      if (process->info.helper)
        {
          for (gsize w = from; w < n; w++)
            pv[w] = NAN;
          continue;
        }
      mg_grid_acc_fill (&scratch->acc, grid, from, process, row, sparse);
      for (gsize w = from; w < n; w++)
        {
          double vmin, vmax;

          if (!mg_grid_acc_get (&scratch->acc, w, &pv[w], &vmin, &vmax))
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
aggregate_single_value (GPtrArray *processes, guint m, MgSingleValue *out)
{
  double sum = 0.0, var = 0.0;
  guint count = 0;

  out->min = INFINITY;
  out->max = -INFINITY;
  for (guint p = 0; p < processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (processes, p);

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
  for (guint p = 0; p < processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (processes, p);

      if (process->singles != NULL && !isnan (process->singles[m]) && !process->info.helper)
        var += (process->singles[m] - out->mean) * (process->singles[m] - out->mean);
    }
  out->var = var / count;
}


static gpointer
aggregate_some (gpointer data)
{
  AggregateJob *job = data;
  guint n_windows = job->grid->n, n_proc = job->processes->len;
  g_autofree double *mem = g_new (double, 6 * (gsize) MAX (n_windows, 1));
  g_autofree double *pvalues = g_new (double, MAX ((gsize) n_proc * n_windows, 1));
  g_autofree double *rows = g_new (double, MAX (MG_PROCESS_SERIES_N * job->max_n, 1));
  g_autofree guint *counts = g_new (guint, MAX (n_windows, 1));
  g_autofree double *bounds = g_new (double, 2 * (gsize) MAX (n_windows, 1));
  Scratch scratch = { { mem, mem + n_windows, mem + 2 * n_windows, mem + 3 * n_windows,
                        mem + 4 * n_windows, mem + 5 * n_windows },
                      pvalues, counts, bounds, rows };

  for (guint m = job->first; m < job->profile->metrics->len; m += job->n_workers)
    {
      const MgMetricDef *def = g_ptr_array_index (job->profile->metrics, m);
      double *out = job->agg + (gsize) m * MG_SERIES_N_DOUBLES * n_windows;
      gint32 *out_index = job->agg_index + (gsize) m * MG_SERIES_N_INDICES * n_windows;

      if (def->domain == MG_DOMAIN_SINGLE_VALUE)
        {
          aggregate_single_value (job->processes, m, &job->profile->singles[m]);
          for (gsize i = 0; i < (gsize) MG_SERIES_N_DOUBLES * n_windows; i++)
            out[i] = NAN;
          for (gsize i = 0; i < (gsize) MG_SERIES_N_INDICES * n_windows; i++)
            out_index[i] = -1;
        }
      else
        {
          MgSingleValue *none = &job->profile->singles[m];

          none->min = none->max = none->mean = none->var = none->sum = NAN;
          aggregate_metric (job, m, &scratch, out, out_index);
        }
    }
  return NULL;
}

/* The spans of every n_workers-th process from first. */
static gpointer
span_some (gpointer data)
{
  AggregateJob *job = data;

  for (guint p = job->first; p < job->processes->len; p += job->n_workers)
    mg_grid_span_build (g_ptr_array_index (job->processes, p), job->grid, job->from);
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

/* The longest process's samples: a worker's room to unpack one. */
static gsize
max_samples (GPtrArray *processes)
{
  gsize max_n = 0;

  for (guint p = 0; p < processes->len; p++)
    max_n = MAX (max_n, ((MgBuilderProcess *) g_ptr_array_index (processes, p))->n);
  return max_n;
}

/* Metrics are independent: packed ones (unpacking is most of the work)
 * are shared among the cores, and so are the processes' spans before. */
static void
aggregate_all (const AggregateJob *all, guint n_threads)
{
  /* Below a full record's worth of samples (a short run of a few
   * processes) the work is smaller than starting threads. */
  gboolean small = (gsize) all->processes->len * all->max_n < SMALL_AGGREGATE_SAMPLES;
  guint n = small ? 1 : n_threads;
  g_autofree AggregateJob *jobs = g_new (AggregateJob, n);

  for (guint i = 0; i < n; i++)
    {
      jobs[i] = *all;
      jobs[i].first = i;
      jobs[i].n_workers = n;
    }
  run_jobs (span_some, jobs, n);
  n = MIN (n, MAX (all->profile->metrics->len, 1));
  for (guint i = 0; i < n; i++)
    jobs[i].n_workers = n;
  run_jobs (aggregate_some, jobs, n);
  for (guint p = 0; p < all->processes->len; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (all->processes, p);

      g_clear_pointer (&process->span_end, g_free);
      g_clear_pointer (&process->span_w, g_free);
      g_clear_pointer (&process->span_overlap, g_free);
    }
}

void
mg_builder_aggregate (MgProfile *profile, GPtrArray *processes, const MgProfile *previous,
                      const MgGrid *grid, guint from, guint n_threads)
{
  gsize n_metrics = profile->metrics->len, n_windows = grid->n;
  gsize n_values = n_metrics * MG_SERIES_N_DOUBLES * n_windows;
  gsize n_indices = n_metrics * MG_SERIES_N_INDICES * n_windows;
  AggregateJob all = { profile, processes, previous, grid, max_samples (processes) };

  all.agg = mg_profile_take_block (profile, g_new (double, MAX (n_values, 1)));
  all.agg_index = mg_profile_take_block (profile, g_new (gint32, MAX (n_indices, 1)));
  all.from = from;
  profile->singles = g_new0 (MgSingleValue, MAX (n_metrics, 1));
  aggregate_all (&all, n_threads);
  mg_profile_set_aggregates (profile, all.agg, all.agg_index);
}
