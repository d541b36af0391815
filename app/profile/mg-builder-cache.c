/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live view's cache of the last profile built, and what a builder
 * takes from it. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-builder-cache-internal.h"
#include "mg-profile-internal.h"

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

MgRowSlabs *
mg_builder_cache_get_slabs (MgProfileBuilderCache *cache)
{
  return cache->slabs;
}

MgProfile *
mg_builder_cache_get_profile (MgProfileBuilderCache *cache)
{
  return cache->profile;
}

/* Whether the cache's profile has the builder's metrics. */
static gboolean
cache_has_metrics (MgProfileBuilderCache *cache, GPtrArray *metrics)
{
  MgProfile *previous = cache->profile;

  if (previous->metrics->len != metrics->len)
    return FALSE;
  for (guint m = 0; m < metrics->len; m++)
    if (g_strcmp0 (((MgMetricDef *) g_ptr_array_index (previous->metrics, m))->id,
                   ((MgMetricDef *) g_ptr_array_index (metrics, m))->id) != 0)
      return FALSE;
  return TRUE;
}

guint
mg_builder_cache_reuse (MgProfileBuilderCache *cache, MgBuilderProcess *p, guint previous,
                        guint n, GPtrArray *metrics, MgBuilderRows *rows)
{
  MgProfile *from;
  guint n_metrics = metrics->len;

  if (cache == NULL || cache->profile == NULL || previous >= cache->n_processes
      || p->n + p->staged > 0 || p->packed || !cache_has_metrics (cache, metrics))
    return 0;
  from = cache->profile;
  n = MIN (n, from->process_n[previous]);
  if (n == 0)
    return 0;
  if (p->cap < n)
    mg_builder_process_resize (p, rows, n_metrics, n);
  memcpy (p->starts, cache->starts[previous], n * sizeof (double));
  memcpy (p->ends, cache->ends[previous], n * sizeof (double));
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgProcessSeries *series = &from->process_series[(gsize) previous * n_metrics + m];
      double *dest = p->values + (gsize) m * MG_PROCESS_SERIES_N * p->cap;
      const double *src[MG_PROCESS_SERIES_N] = { series->mins, series->maxs, series->means };

      for (guint r = 0; r < MG_PROCESS_SERIES_N; r++, dest += p->cap)
        {
          if (series->n > 0)
            memcpy (dest, src[r], n * sizeof (double));
          else
            for (guint k = 0; k < n; k++)
              dest[k] = NAN;
        }
    }
  p->n = n;
  p->previous = (int) previous;
  p->n_reused = n;
  return n;
}

/* The earliest time at which the process's samples differ from those of
 * the cache's profile (-INFINITY: unknown; INFINITY: none). */
static double
process_changed_from (MgProfileBuilderCache *cache, MgBuilderProcess *process, guint p)
{
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
helpers_changed (MgProfileBuilderCache *cache, GPtrArray *processes)
{
  MgProfile *previous = cache->profile;

  for (guint p = 0; p < processes->len && p < previous->processes->len; p++)
    if (((MgBuilderProcess *) g_ptr_array_index (processes, p))->info.helper
        != g_array_index (previous->processes, MgProcessInfo, p).helper)
      return TRUE;
  return FALSE;
}

guint
mg_builder_cache_first_changed_window (MgProfileBuilderCache *cache, GPtrArray *processes,
                                       GPtrArray *metrics, const MgGrid *grid)
{
  guint from;

  if (cache == NULL || cache->profile == NULL || grid->width == 0.0
      || helpers_changed (cache, processes)
      || cache->width != grid->width || cache->profile->n_windows == 0
      || grid->n < cache->profile->n_windows || processes->len < cache->n_processes
      || !cache_has_metrics (cache, metrics))
    return 0;
  /* Its last window ended at its end, which the run's has passed. */
  from = cache->profile->n_windows - 1;
  for (guint p = 0; p < processes->len && from > 0; p++)
    {
      double t = process_changed_from (cache, g_ptr_array_index (processes, p), p);

      /* A window before the one that holds t, for an instant at t. */
      if (t < INFINITY)
        from = MIN (from, mg_grid_clamp (grid, floor (t * grid->scale) - 1.0));
    }
  return from;
}

void
mg_builder_cache_keep (MgProfileBuilderCache *cache, MgProfile *profile, GPtrArray *processes,
                       gboolean packed, double width, guint reused_windows)
{
  guint n_proc = processes->len;

  cache_clear (cache);
  cache->generation++;
  cache->reused_windows = reused_windows;
  cache->reused_samples = 0;
  for (guint p = 0; p < n_proc; p++)
    cache->reused_samples += ((MgBuilderProcess *) g_ptr_array_index (processes, p))->n_reused;
  /* A packed process's rows are no longer there to be copied. */
  if (packed)
    return;
  cache->profile = g_object_ref (profile);
  cache->n_processes = n_proc;
  cache->width = width;
  cache->starts = g_new (double *, MAX (n_proc, 1));
  cache->ends = g_new (double *, MAX (n_proc, 1));
  for (guint p = 0; p < n_proc; p++)
    {
      MgBuilderProcess *process = g_ptr_array_index (processes, p);

      cache->starts[p] = g_steal_pointer (&process->starts);
      cache->ends[p] = g_memdup2 (process->ends, MAX (process->n, 1) * sizeof (double));
    }
}
