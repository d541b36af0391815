/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's compact block (format 3): lossless for every double, small
 * for the series samplers produce, and a damaged block refused. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "profile/mg-process-block.h"
#include "profile/mg-profile-private.h"

enum { N = 500, METRICS = 4 };

/* times[N] and [metric][mins, maxs, means][N]: metric 0 a counter, 1
 * awkward doubles (NaN, -0, infinities, denormals, random bit patterns)
 * with mins and maxs of their own, 2 not reported, 3 a constant. */
static void
fill (double *times, double *values)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);

  for (guint i = 0; i < N; i++)
    {
      double *c = values, *odd = values + 3 * N, *constant = values + 9 * N;
      guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      static const double special[] = { NAN, -0.0, INFINITY, -INFINITY, 4.9e-324, 1e308 };

      times[i] = 0.02 * (i + 1);
      c[i] = c[N + i] = c[2 * N + i] = 4096.0 * i * i;
      memcpy (&odd[2 * N + i], &bits, 8);
      if (i < G_N_ELEMENTS (special))
        odd[2 * N + i] = special[i];
      odd[i] = odd[2 * N + i] - 1;
      odd[N + i] = -odd[2 * N + i];
      for (guint k = 0; k < 3; k++)
        values[6 * N + k * N + i] = NAN;
      constant[i] = constant[N + i] = constant[2 * N + i] = 4.0;
    }
}

static void
test_block_lossless (void)
{
  g_autofree double *times = g_new (double, N), *values = g_new (double, 3 * METRICS * N);
  g_autofree double *times2 = g_new (double, N), *values2 = g_new (double, 3 * METRICS * N);
  const guint8 reported[METRICS] = { 1, 1, 0, 1 };
  g_autoptr(GBytes) block = NULL;
  gsize size;
  const guint8 *data;

  fill (times, values);
  block = mg_process_block_encode (N, METRICS, times, values, reported);
  data = g_bytes_get_data (block, &size);
  g_assert_true (mg_process_block_plausible (size, N, METRICS, reported));
  g_assert_true (mg_process_block_decode (data, size, N, METRICS, reported, times2, values2));
  /* Bit for bit, NaN and -0 included. */
  g_assert_cmpmem (times, N * 8, times2, N * 8);
  g_assert_cmpmem (values, 3 * METRICS * N * 8, values2, 3 * METRICS * N * 8);
}

/* Counters, constants and times pack to a small fraction of their 8 bytes
 * a value; mins and maxs equal to the means cost nothing. */
static void
test_block_compact (void)
{
  g_autofree double *times = g_new (double, N), *values = g_new (double, 3 * METRICS * N);
  const guint8 smooth[METRICS] = { 1, 0, 0, 1 }, with_odd[METRICS] = { 1, 1, 0, 1 };
  g_autoptr(GBytes) small = NULL;
  g_autoptr(GBytes) big = NULL;

  fill (times, values);
  small = mg_process_block_encode (N, METRICS, times, values, smooth);
  big = mg_process_block_encode (N, METRICS, times, values, with_odd);
  /* Times, a counter and a constant: 3 × N doubles. */
  g_assert_cmpuint (g_bytes_get_size (small), <, 3 * N * 8 / 4);
  /* Random bits do not pack. */
  g_assert_cmpuint (g_bytes_get_size (big), >, g_bytes_get_size (small) + N * 8);
}

/* Truncated, bit-flipped, or of another shape: refused, never a crash. */
static void
test_block_damaged (void)
{
  g_autofree double *times = g_new (double, N), *values = g_new (double, 3 * METRICS * N);
  const guint8 reported[METRICS] = { 1, 1, 0, 1 }, fewer[METRICS] = { 1, 0, 0, 1 };
  g_autoptr(GBytes) block = NULL;
  g_autofree guint8 *copy = NULL;
  gsize size;

  fill (times, values);
  block = mg_process_block_encode (N, METRICS, times, values, reported);
  size = g_bytes_get_size (block);
  copy = g_memdup2 (g_bytes_get_data (block, NULL), size);
  g_assert_false (mg_process_block_decode (copy, size / 2, N, METRICS, reported, times, values));
  g_assert_false (mg_process_block_decode (copy, size, N + 1, METRICS, reported, times, values));
  g_assert_false (mg_process_block_decode (copy, size, N, METRICS, fewer, times, values));
  g_assert_false (mg_process_block_decode (copy, 0, N, METRICS, reported, times, values));
  copy[size / 2] ^= 0x10;
  g_assert_false (mg_process_block_decode (copy, size, N, METRICS, reported, times, values));
  /* A count no block of that size can hold. */
  g_assert_false (mg_process_block_plausible (10, 1u << 30, METRICS, reported));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/block/lossless", test_block_lossless);
  g_test_add_func ("/profile/block/compact", test_block_compact);
  g_test_add_func ("/profile/block/damaged", test_block_damaged);
  return g_test_run ();
}
