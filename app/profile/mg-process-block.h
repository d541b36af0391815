/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One process's own series as formats 3 and 4 store them: a compact block
 * that is read and decoded on its own, when the process is asked for.
 * Layout in docs/profile-format.md ("Process blocks"). Lossless, or at
 * single precision where the values allow it (MgProcessPrecision; the
 * times always exact). Private to app/profile. */
#pragma once

#include <glib.h>

#include "mg-process-precision.h"

G_BEGIN_DECLS

/* Encodes n samples: times[n] and values [metric][mins, maxs, means][n]
 * (the model's layout); only the metrics with reported[m] set are stored
 * (the others read back as NaN). */
GBytes *mg_process_block_encode (gsize n, guint n_metrics, const double *times,
                                 const double *values, const guint8 *reported,
                                 MgProcessPrecision precision);

/* The parts a block is made of, for the builder, which packs each process
 * as its record is read and unpacks one metric at a time to aggregate:
 * the times, one metric's rows [mins, maxs, means][n], and the block of
 * those (metrics[m] NULL: not reported). */
GBytes *mg_process_block_encode_times (gsize n, const double *times);
GBytes *mg_process_block_encode_metric (gsize n, const double *rows,
                                        MgProcessPrecision precision);
GBytes *mg_process_block_join (GBytes *times, GBytes *const *metrics, guint n_metrics);
/* One metric's part into rows[3 × n]; FALSE if damaged. */
gboolean mg_process_block_decode_metric (GBytes *part, gsize n, double *rows);

/* Whether a block of size bytes can hold that shape: zlib packs at most
 * about 1000 to 1, so a damaged count cannot make the reader allocate
 * without bound. */
gboolean mg_process_block_plausible (gsize size, gsize n, guint n_metrics,
                                     const guint8 *reported);

/* Whether the block's bytes match the CRC it starts with: a block read
 * from a file is checked on its own (the file's CRC leaves blocks out). */
gboolean mg_process_block_check (const guint8 *block, gsize size);

/* Decodes a block into times[n] and values[n_metrics × 3 × n]: FALSE when
 * the block does not hold exactly what n and reported say (damaged). */
gboolean mg_process_block_decode (const guint8 *block, gsize size, gsize n, guint n_metrics,
                                  const guint8 *reported, double *times, double *values);

G_END_DECLS
