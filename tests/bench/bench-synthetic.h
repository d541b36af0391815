/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmarks' synthetic metric values, which look like real ones
 * rather than white noise: metric m is of kind m % 4, a constant (a thread
 * count), a counter (a running total of bytes, growing by whole amounts),
 * a whole-number gauge (memory in pages: a slow wave plus noise) or a
 * ratio (a CPU percentage: a wave plus full-precision noise). */
#pragma once

#include <glib.h>

enum { BENCH_CONSTANT, BENCH_COUNTER, BENCH_GAUGE, BENCH_RATIO, BENCH_N_KINDS };

/* Metric m's value at sample k of process p; total: the metric's running
 * total in that process, starting at 0. */
double bench_synthetic_value (guint m, guint k, guint p, double *total, GRand *rand);
/* The kind's name, for printing. */
const char *bench_synthetic_kind (guint kind);
