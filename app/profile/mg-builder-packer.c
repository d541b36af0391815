/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builder's packer threads: each packs one process's rows into a
 * compact block (mg-process-block.h). */
#include "mg-config.h"

#include <math.h>

#include "mg-builder-packer.h"
#include "mg-process-block.h"
#include "mg-profile-internal.h"

/* Counted once: each count reads /sys/devices/system/cpu/online, and a
 * merge asked several times a record. */
guint
mg_builder_n_workers (void)
{
  static gsize n;

  if (g_once_init_enter (&n))
    g_once_init_leave (&n, CLAMP (g_get_num_processors (), 1, 8));
  return (guint) n;
}

void
mg_builder_packer_init (MgBuilderPacker *packer)
{
  packer->pending = 0;
  g_mutex_init (&packer->lock);
  g_cond_init (&packer->done);
}

void
mg_builder_packer_wait (MgBuilderPacker *packer)
{
  g_mutex_lock (&packer->lock);
  while (packer->pending > 0)
    g_cond_wait (&packer->done, &packer->lock);
  g_mutex_unlock (&packer->lock);
}

void
mg_builder_packer_clear (MgBuilderPacker *packer)
{
  mg_builder_packer_wait (packer);
  g_mutex_clear (&packer->lock);
  g_cond_clear (&packer->done);
}

/* A job of the packer: one process of one builder. */
typedef struct {
  MgBuilderPacker *packer;
  MgBuilderProcess *process;
  MgBuilderRows *rows;
  guint n_metrics;
} PackJob;

/* Packs one process's rows (a job of the packer). */
static void
pack_process (gpointer data, G_GNUC_UNUSED gpointer user_data)
{
  g_autofree PackJob *job = data;
  MgBuilderProcess *p = job->process;
  MgBuilderPacker *packer = job->packer;
  guint n_metrics = job->n_metrics;
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
  mg_builder_process_release_rows (p, job->rows);
  g_mutex_lock (&packer->lock);
  packer->pending--;
  g_cond_signal (&packer->done);
  g_mutex_unlock (&packer->lock);
}

/* The packer's threads, made once and kept for the life of the program (an
 * exclusive pool): a pool per builder started and ended threads at every
 * merge, that is at every refresh of the live view, and GLib ends surplus
 * threads of shared pools by detaching them, which AddressSanitizer does
 * not see (docs/fuzzing.md, finding 6). */
static GThreadPool *
packer_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (pack_process, NULL, (int) mg_builder_n_workers (),
                                                 TRUE, NULL));
  return pool;
}

void
mg_builder_packer_pack (MgBuilderPacker *packer, MgBuilderProcess *p, MgBuilderRows *rows,
                        guint n_metrics, gboolean here)
{
  PackJob *job;

  if (p->ends == NULL)
    mg_builder_process_resize (p, rows, n_metrics, 1);
  mg_builder_process_flush (p, n_metrics);
  mg_builder_process_compact (p, n_metrics);
  g_clear_pointer (&p->stage, g_free);
  p->packed = TRUE;
  job = g_new (PackJob, 1);
  *job = (PackJob) { packer, p, rows, n_metrics };
  g_mutex_lock (&packer->lock);
  while (packer->pending >= mg_builder_n_workers ())
    g_cond_wait (&packer->done, &packer->lock);
  packer->pending++;
  g_mutex_unlock (&packer->lock);
  if (here)
    pack_process (job, NULL);
  else
    g_thread_pool_push (packer_pool (), job, NULL);
}
