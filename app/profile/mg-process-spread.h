/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One figure per key (a function) across processes (issue 29 point 6,
 * issue 30's Functions table): each process's share of its own samples
 * that fell in the key, self and total, then the min, mean and max of
 * those shares over the processes that had samples, and which process
 * holds the min and the max, like the metric rows' figures across ranks.
 * A process without the key counts as 0 %. Keys are small integers given
 * by the caller (a namer's function ids, or names interned by the
 * report). GTK-free; built on one thread, read-only once finished. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double min, mean, max;   /* percent of each process's samples */
  guint min_process;       /* the process (profile index) holding min; the first of a tie */
  guint max_process;       /* the same for max */
} MgSpreadFigures;

typedef enum {
  MG_SPREAD_SELF,          /* the key's own samples (the innermost frame's function) */
  MG_SPREAD_TOTAL,         /* anywhere in the stack, once per stack */
} MgSpreadKind;

typedef struct _MgProcessSpread MgProcessSpread;

MgProcessSpread *mg_process_spread_new (void);
void mg_process_spread_free (MgProcessSpread *self);

/* Starts process (its samples in the range: total, > 0). Processes come
 * one at a time, each once; its keys follow with mg_process_spread_add. */
void mg_process_spread_begin_process (MgProcessSpread *self, guint process, guint64 total);
/* The current process's samples of key: self and total (total >= self). */
void mg_process_spread_add (MgProcessSpread *self, guint key, guint64 self_samples,
                            guint64 total_samples);
/* Computes the figures; nothing may be added afterwards. */
void mg_process_spread_finish (MgProcessSpread *self);

/* The processes that had samples. */
guint mg_process_spread_get_n_processes (const MgProcessSpread *self);
/* Key's figures; FALSE (out zeroed) when fewer than two processes had
 * samples, where figures across processes say nothing. */
gboolean mg_process_spread_get (const MgProcessSpread *self, guint key, MgSpreadKind kind,
                                MgSpreadFigures *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgProcessSpread, mg_process_spread_free)

G_END_DECLS
