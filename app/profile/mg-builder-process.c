/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A builder process's rows: how they grow, are staged into, compacted and
 * read back. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-builder-process.h"
#include "mg-process-block.h"
#include "mg-profile-internal.h"

MgBuilderProcess *
mg_builder_process_new (const MgProcessInfo *info)
{
  MgBuilderProcess *process = g_new0 (MgBuilderProcess, 1);

  mg_process_info_copy_into (&process->info, info);
  process->previous = -1;
  return process;
}

void
mg_builder_process_free_parts (MgBuilderProcess *process, guint n_metrics)
{
  for (guint m = 0; process->parts != NULL && m < n_metrics; m++)
    g_clear_pointer (&process->parts[m], g_bytes_unref);
  g_clear_pointer (&process->parts, g_free);
}

void
mg_builder_process_free (MgBuilderProcess *process)
{
  mg_process_info_clear (&process->info);
  g_free (process->parts); /* their bytes went with mg_builder_process_free_parts */
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

void
mg_builder_process_release_rows (MgBuilderProcess *p, MgBuilderRows *rows)
{
  double *values = g_steal_pointer (&p->values);

  mg_builder_rows_give_back (rows, values, p->values_size, p->in_slab);
}

void
mg_builder_process_resize (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                           gsize new_cap)
{
  gsize n_rows = (gsize) n_metrics * MG_PROCESS_SERIES_N;
  gboolean in_slab;
  gsize size = MAX (n_rows * new_cap, 1) * sizeof (double);
  double *values = mg_builder_rows_alloc (rows, &size, &in_slab);

  for (gsize r = 0; r < n_rows && p->n > 0; r++)
    memcpy (values + r * new_cap, p->values + r * p->cap, p->n * sizeof (double));
  mg_builder_process_release_rows (p, rows);
  p->values = values;
  p->values_size = size;
  p->in_slab = in_slab;
  p->starts = g_renew (double, p->starts, MAX (new_cap, 1));
  p->ends = g_renew (double, p->ends, MAX (new_cap, 1));
  p->cap = new_cap;
}

void
mg_builder_process_flush (MgBuilderProcess *p, guint n_metrics)
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
mg_builder_process_reserve (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                            guint n_samples)
{
  if (p->n + p->staged + n_samples > p->cap)
    mg_builder_process_resize (p, rows, n_metrics, p->n + p->staged + n_samples);
}

void
mg_builder_process_add (MgBuilderProcess *p, MgBuilderRows *rows, guint n_metrics,
                        double t_start_s, double t_end_s, const double *mins,
                        const double *maxs, const double *means)
{
  double *staged;

  if (p->n + p->staged == p->cap)
    mg_builder_process_resize (p, rows, n_metrics, MAX (2 * p->cap, 64));
  if (p->stage == NULL)
    p->stage = g_new (double, (gsize) MG_BUILDER_STAGE * MG_PROCESS_SERIES_N * MAX (n_metrics, 1));
  p->starts[p->n + p->staged] = t_start_s;
  p->ends[p->n + p->staged] = t_end_s;
  staged = p->stage + (gsize) p->staged * MG_PROCESS_SERIES_N * n_metrics;
  for (guint m = 0; m < n_metrics; m++, staged += MG_PROCESS_SERIES_N)
    {
      staged[0] = mins[m];
      staged[1] = maxs[m];
      staged[2] = means[m];
    }
  if (++p->staged == MG_BUILDER_STAGE)
    mg_builder_process_flush (p, n_metrics);
}

void
mg_builder_process_compact (MgBuilderProcess *p, guint n_metrics)
{
  gsize rows = (gsize) n_metrics * MG_PROCESS_SERIES_N;

  if (p->cap == p->n || p->values == NULL)
    return;
  for (gsize r = 1; r < rows; r++)
    memmove (p->values + r * p->n, p->values + r * p->cap, p->n * sizeof (double));
  p->cap = p->n;
}

const double *
mg_builder_process_metric_rows (MgBuilderProcess *process, guint m, double *scratch)
{
  gsize n = process->n;

  if (!process->packed)
    return process->values + (gsize) m * MG_PROCESS_SERIES_N * n;
  if (process->parts[m] == NULL || !mg_process_block_decode_metric (process->parts[m], n, scratch))
    for (gsize k = 0; k < MG_PROCESS_SERIES_N * n; k++)
      scratch[k] = NAN;
  return scratch;
}

void
mg_builder_process_set_single (MgBuilderProcess *p, guint n_metrics, guint metric, double value)
{
  if (p->singles == NULL)
    {
      p->singles = g_new (double, n_metrics);
      for (guint m = 0; m < n_metrics; m++)
        p->singles[m] = NAN;
    }
  p->singles[metric] = value;
}
