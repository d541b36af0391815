/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's compact block (formats 3 and 4): lossless for every double,
 * or within single precision's bound when asked, small for the series
 * samplers produce, and a damaged block refused. */
#include "mg-config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "profile/mg-crc32.h"
#include "profile/mg-process-block.h"
#include "profile/mg-profile-internal.h"

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
  block = mg_process_block_encode (N, METRICS, times, values, reported,
                                   MG_PROCESS_PRECISION_EXACT);
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
  small = mg_process_block_encode (N, METRICS, times, values, smooth, MG_PROCESS_PRECISION_EXACT);
  big = mg_process_block_encode (N, METRICS, times, values, with_odd, MG_PROCESS_PRECISION_EXACT);
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
  block = mg_process_block_encode (N, METRICS, times, values, reported,
                                   MG_PROCESS_PRECISION_EXACT);
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

/* What single precision promises for x read back as y
 * (docs/profile-format.md): NaN stays NaN; what float32 holds exactly
 * (0, -0, infinities, whole numbers up to 2^24) and values below float32's
 * normal range (their row is stored exact) come back bit for bit; the rest
 * within 2^-24 of the value. */
static void
assert_single_bound (double x, double y)
{
  if (isnan (x))
    g_assert_true (isnan (y));
  else if ((double) (float) x == x || (x != 0 && fabs (x) < FLT_MIN))
    g_assert_cmpmem (&x, sizeof x, &y, sizeof y);
  else
    g_assert_cmpfloat (fabs (y - x), <=, ldexp (fabs (x), -24));
}

/* Metric 0 random doubles over many magnitudes with NaN, infinities, -0
 * and constants among them, 1 a counter past 2^24, 2 whole numbers below
 * 2^24, 3 the random doubles with one tiny value (a float32 subnormal)
 * in its means and one beyond float32's range in its maxs: those rows,
 * and only those, fall back to exact. */
static void
fill_single (double *times, double *values)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (24);
  static const double special[] = { NAN, -0.0, 0.0, INFINITY, -INFINITY, 1.0, 7.0, 7.0, 7.0,
                                    FLT_MAX / 2, -FLT_MIN * 2 };

  for (guint i = 0; i < N; i++)
    {
      double *wide = values, *counter = values + 3 * N, *whole = values + 6 * N;
      double *tiny = values + 9 * N;
      double x = g_rand_double_range (rand, 1.0, 2.0) * ldexp (1.0, g_rand_int_range (rand, -120, 120));

      times[i] = 0.02 * (i + 1);
      wide[2 * N + i] = i < G_N_ELEMENTS (special) ? special[i] : g_rand_boolean (rand) ? -x : x;
      wide[i] = wide[2 * N + i] * 0.75;
      wide[N + i] = wide[2 * N + i] * 1.25;
      for (guint k = 0; k < 3; k++)
        {
          counter[k * N + i] = 16777216.0 * 3 + 4099.0 * i * i + k;
          whole[k * N + i] = (double) g_rand_int_range (rand, -(1 << 24), 1 << 24);
          tiny[k * N + i] = wide[2 * N + i];
        }
      if (i == N / 2)
        tiny[2 * N + i] = 1e-40;
      if (i == N / 3)
        tiny[N + i] = 3.5e38;
    }
}

/* Single precision keeps its bound for every value, falls back to exact
 * for a row it would spoil, and makes noisy rows smaller. */
static void
test_block_single (void)
{
  g_autofree double *times = g_new (double, N), *values = g_new (double, 3 * METRICS * N);
  g_autofree double *times2 = g_new (double, N), *values2 = g_new (double, 3 * METRICS * N);
  const guint8 reported[METRICS] = { 1, 1, 1, 1 };
  g_autoptr(GBytes) exact = NULL;
  g_autoptr(GBytes) single = NULL;
  guint rounded = 0;
  gsize size;
  const guint8 *data;

  fill_single (times, values);
  exact = mg_process_block_encode (N, METRICS, times, values, reported,
                                   MG_PROCESS_PRECISION_EXACT);
  single = mg_process_block_encode (N, METRICS, times, values, reported,
                                    MG_PROCESS_PRECISION_SINGLE);
  data = g_bytes_get_data (single, &size);
  g_assert_true (mg_process_block_plausible (size, N, METRICS, reported));
  g_assert_true (mg_process_block_decode (data, size, N, METRICS, reported, times2, values2));
  /* The times stay exact. */
  g_assert_cmpmem (times, N * 8, times2, N * 8);
  for (gsize i = 0; i < 3 * METRICS * N; i++)
    {
      assert_single_bound (values[i], values2[i]);
      rounded += memcmp (&values[i], &values2[i], 8) != 0;
    }
  /* The random doubles were rounded (single rows were used)... */
  g_assert_cmpuint (rounded, >, N);
  /* ...but not those of the rows with a tiny or a huge value, nor the
   * whole numbers. */
  g_assert_cmpmem (values + 10 * N, 2 * N * 8, values2 + 10 * N, 2 * N * 8);
  g_assert_cmpmem (values + 6 * N, 3 * N * 8, values2 + 6 * N, 3 * N * 8);
  g_assert_cmpfloat (values2[11 * N + N / 2], ==, 1e-40);
  /* Noise at full precision is what does not pack: half of it is gone. */
  g_assert_cmpuint (size + 4 * N, <, g_bytes_get_size (exact));
}

/* Raw deflate of raw, appended to block. */
static void
append_stream (GByteArray *block, const guint8 *raw, gsize len)
{
  g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW, 1);
  g_autofree guint8 *out = g_malloc (len + 1024);
  gsize read = 0, written = 0;

  g_assert_cmpint (g_converter_convert (G_CONVERTER (zlib), raw, len, out, len + 1024,
                                        G_CONVERTER_INPUT_AT_END, &read, &written, NULL),
                   ==, G_CONVERTER_FINISHED);
  g_byte_array_append (block, out, written);
}

/* A block of times 1, 2, … and one metric whose means row has the lead
 * byte lead and width bytes a value, as a writer would make it. */
static GBytes *
hand_made_block (guint8 lead, guint width)
{
  enum { M = 4 };
  guint8 times[1 + 8 * M] = { 1 }, metric[2 + 8 * M] = { 0, lead };
  g_autoptr(GByteArray) block = g_byte_array_new ();
  guint32 crc;

  for (guint i = 0; i < M; i++)
    {
      double t = i + 1.0;
      float f = 2.5f;
      guint64 b64, prev64 = 0;
      guint32 b32;

      memcpy (&b64, &t, 8);
      if (i > 0)
        {
          double p = i;

          memcpy (&prev64, &p, 8);
        }
      for (guint b = 0; b < 8; b++)
        times[1 + b * M + i] = (guint8) ((b64 - prev64) >> (8 * b));
      memcpy (&b32, &f, 4);
      /* Differences of order 1: the value first, then no change. */
      for (guint b = 0; b < 4; b++)
        metric[2 + b * M + i] = i == 0 ? (guint8) (b32 >> (8 * b)) : 0;
    }
  g_byte_array_set_size (block, 4);
  append_stream (block, times, sizeof times);
  append_stream (block, metric, 2 + width * M);
  crc = GUINT32_TO_LE (mg_crc32_update (0, block->data + 4, block->len - 4));
  memcpy (block->data, &crc, 4);
  return g_byte_array_free_to_bytes (g_steal_pointer (&block));
}

/* A single row reads as float32 values; a row whose lead byte or length
 * does not match its kind is refused. */
static void
test_block_single_rows (void)
{
  const guint8 reported[1] = { 1 };
  double times[4], values[3 * 4];
  g_autoptr(GBytes) good = hand_made_block (0x81, 4);
  g_autoptr(GBytes) long_row = hand_made_block (0x81, 8);
  g_autoptr(GBytes) bad_order = hand_made_block (0x83, 4);
  g_autoptr(GBytes) unknown = hand_made_block (0x41, 4);
  gsize size;
  const guint8 *data = g_bytes_get_data (good, &size);

  g_assert_true (mg_process_block_decode (data, size, 4, 1, reported, times, values));
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpfloat (times[i], ==, i + 1.0);
      g_assert_cmpfloat (values[i], ==, 2.5);
      g_assert_cmpfloat (values[8 + i], ==, 2.5);
    }
  data = g_bytes_get_data (long_row, &size);
  g_assert_false (mg_process_block_decode (data, size, 4, 1, reported, times, values));
  data = g_bytes_get_data (bad_order, &size);
  g_assert_false (mg_process_block_decode (data, size, 4, 1, reported, times, values));
  data = g_bytes_get_data (unknown, &size);
  g_assert_false (mg_process_block_decode (data, size, 4, 1, reported, times, values));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/block/lossless", test_block_lossless);
  g_test_add_func ("/profile/block/compact", test_block_compact);
  g_test_add_func ("/profile/block/damaged", test_block_damaged);
  g_test_add_func ("/profile/block/single", test_block_single);
  g_test_add_func ("/profile/block/single-rows", test_block_single_rows);
  return g_test_run ();
}
