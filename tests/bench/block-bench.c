/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What each kind of the profile benchmark's synthetic metrics
 * (bench-synthetic.h) costs in a process block: bytes per value, and CPU
 * time to encode and decode, over P processes × 8 metrics of each kind × N
 * samples, one reading per sample (min = max = mean, as the profile bench's
 * records have). Also what a profile of 1024 processes × 32 metrics of the
 * four kinds × 4096 samples would hold of each. Usage: bench-block
 * [--single] [P N]; --single packs at single precision (and checks the
 * values back within its bound, docs/profile-format.md). */
#include "mg-config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/mg-process-block.h"
#include "profile/mg-profile-internal.h"
#include "bench-synthetic.h"

#define METRICS_PER_KIND 8

static double
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Rows [mins, maxs, means] of metric m of process p, one reading a sample. */
static void
fill_rows (double *rows, guint m, guint p, guint n)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (p * 1000 + m);
  double total = 0.0;

  for (guint k = 0; k < n; k++)
    rows[k] = rows[n + k] = rows[2 * n + k] = bench_synthetic_value (m, k, p, &total, rand);
}

/* Exact: the same bits; single: within 2^-24 of each value. */
static gboolean
decoded_well (const double *rows, const double *back, gsize len, MgProcessPrecision precision)
{
  if (precision == MG_PROCESS_PRECISION_EXACT)
    return memcmp (rows, back, len * sizeof (double)) == 0;
  for (gsize i = 0; i < len; i++)
    if (!(isnan (rows[i]) && isnan (back[i])) && rows[i] != back[i]
        && !(fabs (back[i] - rows[i]) <= ldexp (fabs (rows[i]), -24)))
      return FALSE;
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean single = argc > 1 && strcmp (argv[1], "--single") == 0;
  MgProcessPrecision precision = single ? MG_PROCESS_PRECISION_SINGLE : MG_PROCESS_PRECISION_EXACT;
  int first = single ? 2 : 1;
  guint n_proc = argc > first + 1 ? atoi (argv[first]) : 16;
  guint n = argc > first + 1 ? atoi (argv[first + 1]) : 4096;
  g_autofree double *rows = g_new (double, MG_PROCESS_SERIES_N * (gsize) n);
  g_autofree double *back = g_new (double, MG_PROCESS_SERIES_N * (gsize) n);
  double total_mb = 0.0;

  printf ("%u processes × %u metrics of each kind × %u samples, %s precision\n", n_proc,
          METRICS_PER_KIND, n, mg_process_precision_to_keyword (precision));
  for (guint kind = 0; kind < BENCH_N_KINDS; kind++)
    {
      double encode_s = 0.0, decode_s = 0.0, bytes = 0.0, values = 0.0, mb;

      for (guint p = 0; p < n_proc; p++)
        for (guint j = 0; j < METRICS_PER_KIND; j++)
          {
            g_autoptr (GBytes) part = NULL;
            double t;

            fill_rows (rows, kind + BENCH_N_KINDS * j, p, n);
            t = thread_cpu_s ();
            part = mg_process_block_encode_metric (n, rows, precision);
            encode_s += thread_cpu_s () - t;
            t = thread_cpu_s ();
            if (!mg_process_block_decode_metric (part, n, back))
              g_error ("%s: the block does not decode", bench_synthetic_kind (kind));
            decode_s += thread_cpu_s () - t;
            if (!decoded_well (rows, back, MG_PROCESS_SERIES_N * n, precision))
              g_error ("%s: the block decodes to other values", bench_synthetic_kind (kind));
            bytes += g_bytes_get_size (part);
            values += n;
          }
      /* A quarter of 32 metrics of 1024 processes of 4096 samples. */
      mb = bytes / values * 1024.0 * 8 * 4096 / 1e6;
      total_mb += mb;
      printf ("%-8s %.3f bytes a value (%4.1f%% of 8), encode %.1f ns, decode %.1f ns a value; "
              "at 1024 × 32 × 4096: %.1f MB\n", bench_synthetic_kind (kind), bytes / values,
              100.0 * bytes / values / 8, 1e9 * encode_s / values, 1e9 * decode_s / values, mb);
    }
  printf ("all kinds at 1024 × 32 × 4096: %.1f MB (without times and framing)\n", total_mb);
  return 0;
}
