/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A process's series as a compact block: its CRC-32, one raw deflate
 * stream for the times, then one per reported metric (so that a builder can pack a metric at a
 * time and the merge aggregate a metric at a time). Sample series are smooth, constant
 * or counting far more often than they are random, so each array of
 * doubles is stored as the differences (of order 1 or 2, whichever packs
 * better) of consecutive values' bit patterns taken as 64-bit integers
 * (exact both ways, NaN and -0 included), split into eight planes of one
 * byte each: the planes of the high bytes are then nearly constant and zlib
 * packs them to almost nothing, while the noisy low ones are stored. At
 * single precision a metric's row whose values all allow it is stored as
 * float32 patterns instead (32-bit differences, four planes): the noise of
 * full precision is what does not pack. A metric's mins
 * and maxs are stored only when they differ from its means (a sample of one
 * reading has min = max = mean). */
#include "mg-config.h"

#include "mg-process-block.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <zlib.h>

#include "mg-crc32.h"
#include "mg-profile-internal.h"

/* zlib's fastest level: the planes do most of the packing, and saving a
 * thousand processes must stay within seconds. */
#define BLOCK_ZLIB_LEVEL 1
/* Bits per byte above which a plane is stored unpacked (plane_params). */
#define PLANE_STORED_BITS 7.5

enum { MINS_STORED = 1 << 0, MAXS_STORED = 1 << 1 };
/* In a row's lead byte, beside its order: four planes of float32 patterns. */
enum { ROW_SINGLE = 1 << 7 };

/* The differences of order 1 (value - previous) or 2 (that minus the
 * previous difference) of n bit patterns, in place, modulo 2^(8 width). */
static inline void
differences (guint64 *bits, gsize n, guint order, guint width)
{
  guint64 mask = width == 8 ? G_MAXUINT64 : G_MAXUINT32;

  for (guint o = 0; o < order; o++)
    for (gsize i = n; i-- > 1;)
      bits[i] = (bits[i] - bits[i - 1]) & mask;
}

/* How many bits the differences of width bytes take (small negative
 * numbers count as small): the fewer, the better zlib packs them. */
static inline gsize
loud_bits (const guint64 *bits, gsize n, guint width)
{
  guint shift = 64 - 8 * width;
  gsize loud = 0;

  for (gsize i = 0; i < n; i++)
    {
      /* Sign-extended from the row's width. */
      gint64 s = (gint64) (bits[i] << shift) >> shift;
      guint64 v = s < 0 ? ~(guint64) s : (guint64) s;

      loud += v == 0 ? 0 : 64 - (gsize) __builtin_clzll (v);
    }
  return loud;
}

/* Whether x survives float32 within the bound: NaN (as a NaN), every value
 * float32 holds exactly (0, -0, infinities, whole numbers up to 2^24), and
 * the normal range, where rounding to nearest is off by at most 2^-24 of
 * the value. Not: tiny values (float32's subnormals lose relative
 * precision) nor finite values beyond FLT_MAX. */
static gboolean
single_keeps (double x)
{
  float f = (float) x;

  return isnan (x) || (double) f == x || (fabs (x) >= FLT_MIN && isfinite (f));
}

static gboolean
row_fits_single (const double *values, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!single_keeps (values[i]))
      return FALSE;
  return TRUE;
}

/* put_row's planes of the n bit patterns in scratch (2 × n, the first n
 * filled) of width bytes each, after their lead byte. Inlined for each
 * width, so that the loops know it. */
static inline guint8 *
put_planes (guint8 *out, gsize n, guint64 *scratch, guint width, guint8 kind)
{
  guint64 *second = scratch + n;
  const guint64 *best = scratch;

  differences (scratch, n, 1, width);
  if (n > 0)
    memcpy (second, scratch, n * sizeof (guint64));
  differences (second, n, 1, width);
  /* Order 2 only when clearly better: its sign changes cost bytes too. */
  *out = loud_bits (second, n, width) + 8 * n < loud_bits (scratch, n, width) ? 2 : 1;
  if (*out == 2)
    best = second;
  *out++ |= kind;
  for (gsize i = 0; i < n; i++)
    for (guint b = 0; b < width; b++)
      out[b * n + i] = (guint8) (best[i] >> (8 * b));
  return out + width * n;
}

/* Appends a row of n doubles: one byte, the order of the differences that
 * pack better (2 for steady steps, as times take) and whether the row is
 * float32 (ROW_SINGLE), then one byte plane per byte of the bit patterns.
 * single: when every value allows it (single_keeps). scratch holds 2 × n. */
static guint8 *
put_row (guint8 *out, const double *values, gsize n, gboolean single, guint64 *scratch)
{
  if (!single || !row_fits_single (values, n))
    {
      if (n > 0)
        memcpy (scratch, values, n * sizeof (double));
      return put_planes (out, n, scratch, 8, 0);
    }
  for (gsize i = 0; i < n; i++)
    {
      float f = (float) values[i];
      guint32 b32;

      memcpy (&b32, &f, sizeof b32);
      scratch[i] = b32;
    }
  return put_planes (out, n, scratch, 4, ROW_SINGLE);
}

/* The bytes of the row at in (its lead byte read), or 0 if the lead byte is
 * not one put_row writes. */
static gsize
row_size (guint8 lead, gsize n)
{
  guint order = lead & ~(guint) ROW_SINGLE;

  if (order < 1 || order > 2)
    return 0;
  return 1 + ((lead & ROW_SINGLE) ? 4 : 8) * n;
}

/* The row at in, of at most end - in bytes, into values; the end of the
 * row, or NULL when it is damaged. The planes are gathered and summed back
 * in one pass, straight into values. */
static const guint8 *
get_row (const guint8 *in, const guint8 *end, double *values, gsize n)
{
  gsize size = in < end ? row_size (*in, n) : 0;
  gboolean single;
  guint order, width;
  guint64 step = 0, bits = 0;

  if (size == 0 || size > (gsize) (end - in))
    return NULL;
  single = (*in & ROW_SINGLE) != 0;
  order = *in++ & ~(guint) ROW_SINGLE;
  width = single ? 4 : 8;
  for (gsize i = 0; i < n; i++)
    {
      guint64 v = 0;

      for (guint b = 0; b < width; b++)
        v |= (guint64) in[b * n + i] << (8 * b);
      if (order == 2)
        v = step += v;
      bits += v;
      if (single)
        {
          guint32 b32 = (guint32) bits;
          float f;

          memcpy (&f, &b32, sizeof f);
          values[i] = f;
        }
      else
        memcpy (&values[i], &bits, sizeof bits);
    }
  return in + width * n;
}

static gboolean
same_bits (const double *a, const double *b, gsize n)
{
  return n == 0 || memcmp (a, b, n * sizeof (double)) == 0;
}

/* The bytes a metric's part unpacks to at most (every row exact). */
static gsize
metric_raw_size (gsize n)
{
  return 1 + MG_PROCESS_SERIES_N * (1 + 8 * n);
}

/* The fewest bytes a block unpacks to: times and means, single precision
 * and no mins or maxs stored. */
static gsize
least_raw_size (gsize n, guint n_metrics, const guint8 *reported)
{
  gsize size = 1 + 4 * n;

  for (guint m = 0; m < n_metrics; m++)
    if (reported[m])
      size += 1 + 1 + 4 * n;
  return size;
}

/* Deflate's limit is 1032 to 1; some room for each stream's own bytes. */
#define INFLATE_MAX_RATIO 1040

gboolean
mg_process_block_plausible (gsize size, gsize n, guint n_metrics, const guint8 *reported)
{
  return least_raw_size (n, n_metrics, reported) / INFLATE_MAX_RATIO <= size + 64;
}

/* Bits per byte of a plane by its byte histogram (order 0 entropy), from
 * every fourth byte: enough to tell noise. */
static double
plane_entropy (const guint8 *plane, gsize len)
{
  guint counts[256] = { 0 };
  double sum = 0.0;

  for (gsize i = 0; i < len; i += 4)
    counts[plane[i]]++;
  len = (len + 3) / 4;
  for (guint v = 0; v < 256; v++)
    if (counts[v] > 0)
      sum += counts[v] * log2 ((double) counts[v]);
  return len > 0 ? log2 ((double) len) - sum / len : 0.0;
}

/* How to pack a plane: noise (the low bytes of full-precision values) is
 * stored as it is, since deflate would spend a third of the merge's time to
 * gain a few percent on it. (Runs or byte frequencies alone for the other
 * planes cost more: each change of strategy ends a deflate block.) */
static void
plane_params (const guint8 *plane, gsize len, int *level, int *strategy)
{
  *level = plane_entropy (plane, len) > PLANE_STORED_BITS ? 0 : BLOCK_ZLIB_LEVEL;
  *strategy = Z_DEFAULT_STRATEGY;
}

/* zlib's state costs about a quarter of a megabyte to set up (allocated,
 * its hash table cleared), as much as packing a metric of a few thousand
 * samples: each thread keeps one deflater and one inflater, reset for
 * each stream. */
static void
free_deflater (gpointer data)
{
  deflateEnd (data);
  g_free (data);
}

static void
free_inflater (gpointer data)
{
  inflateEnd (data);
  g_free (data);
}

static GPrivate deflater_key = G_PRIVATE_INIT (free_deflater);
static GPrivate inflater_key = G_PRIVATE_INIT (free_inflater);

/* This thread's deflater, ready for a new stream at level 1. */
static z_stream *
get_deflater (void)
{
  z_stream *z = g_private_get (&deflater_key);

  if (z != NULL)
    {
      deflateReset (z);
      if (deflateParams (z, BLOCK_ZLIB_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
        g_error ("%s: zlib could not be reset", G_STRLOC);
      return z;
    }
  z = g_new0 (z_stream, 1);
  /* Only out of memory can fail here: nothing to recover from. */
  if (deflateInit2 (z, BLOCK_ZLIB_LEVEL, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    g_error ("%s: zlib could not start", G_STRLOC);
  g_private_set (&deflater_key, z);
  return z;
}

/* This thread's inflater, ready for a new stream; NULL without memory. */
static z_stream *
get_inflater (void)
{
  z_stream *z = g_private_get (&inflater_key);

  if (z != NULL)
    return inflateReset (z) == Z_OK ? z : NULL;
  z = g_new0 (z_stream, 1);
  if (inflateInit2 (z, -MAX_WBITS) != Z_OK)
    {
      g_free (z);
      return NULL;
    }
  g_private_set (&inflater_key, z);
  return z;
}

static void
deflate_some (z_stream *z, const guint8 *in, gsize len, int flush)
{
  z->next_in = (Bytef *) in;
  z->avail_in = (uInt) len;
  /* The output has room for everything (see deflate_bytes). */
  g_assert (deflate (z, flush) != Z_STREAM_ERROR && z->avail_in == 0);
}

/* One deflate stream of lead bytes then rows of n values (put_row's
 * layout), each plane packed with the parameters that suit it: any deflate
 * reader unpacks it as one stream. */
static GBytes *
deflate_bytes (const guint8 *in, gsize size, gsize lead, gsize n)
{
  gsize cap = size + size / 64 + 64 * (8 * (size / (1 + 4 * MAX (n, 1)) + 1)) + 64;
  z_stream *z = get_deflater ();
  guint8 *out = g_malloc (cap);
  int level = BLOCK_ZLIB_LEVEL, strategy = Z_DEFAULT_STRATEGY;
  gsize at = 0, row = lead;

  z->next_out = out;
  z->avail_out = (uInt) cap;
  while (n > 0 && row < size)
    {
      guint width = (in[row] & ROW_SINGLE) ? 4 : 8;

      for (guint b = 0; b < width; b++)
        {
          /* Plane 0 takes the row's lead byte (and the stream's) along. */
          gsize end = row + 1 + (b + 1) * n;
          int new_level, new_strategy;

          plane_params (in + end - n, n, &new_level, &new_strategy);
          if (new_level != level || new_strategy != strategy)
            {
              g_assert (deflateParams (z, new_level, new_strategy) == Z_OK);
              level = new_level;
              strategy = new_strategy;
            }
          deflate_some (z, in + at, end - at, Z_NO_FLUSH);
          at = end;
        }
      row = at;
    }
  deflate_some (z, in + at, size - at, Z_FINISH);
  return g_bytes_new_take (g_realloc (out, MAX (z->total_out, 1)), z->total_out);
}

GBytes *
mg_process_block_encode_times (gsize n, const double *times)
{
  g_autofree guint8 *raw = g_malloc (1 + 8 * n);
  g_autofree guint64 *scratch = g_new (guint64, MAX (2 * n, 1));

  /* Exact: the times are few beside the values, and pack well. */
  put_row (raw, times, n, FALSE, scratch);
  return deflate_bytes (raw, 1 + 8 * n, 0, n);
}

GBytes *
mg_process_block_encode_metric (gsize n, const double *rows, MgProcessPrecision precision)
{
  const double *mins = rows, *maxs = rows + n, *means = rows + 2 * n;
  g_autofree guint8 *raw = g_malloc (metric_raw_size (n));
  g_autofree guint64 *scratch = g_new (guint64, MAX (2 * n, 1));
  guint8 *at = raw + 1;
  gboolean single = precision == MG_PROCESS_PRECISION_SINGLE;

  raw[0] = (same_bits (mins, means, n) ? 0 : MINS_STORED)
           | (same_bits (maxs, means, n) ? 0 : MAXS_STORED);
  at = put_row (at, means, n, single, scratch);
  if (raw[0] & MINS_STORED)
    at = put_row (at, mins, n, single, scratch);
  if (raw[0] & MAXS_STORED)
    at = put_row (at, maxs, n, single, scratch);
  return deflate_bytes (raw, (gsize) (at - raw), 1, n);
}

/* The block starts with the CRC-32 of the streams after it, little-endian:
 * a block is checked on its own when it is decoded. */
#define BLOCK_CRC_LEN 4

gboolean
mg_process_block_check (const guint8 *block, gsize size)
{
  guint32 crc;

  if (size < BLOCK_CRC_LEN)
    return FALSE;
  memcpy (&crc, block, BLOCK_CRC_LEN);
  return mg_crc32_update (0, block + BLOCK_CRC_LEN, size - BLOCK_CRC_LEN) == GUINT32_FROM_LE (crc);
}

GBytes *
mg_process_block_join (GBytes *times, GBytes *const *metrics, guint n_metrics)
{
  GByteArray *block = g_byte_array_new ();
  guint32 crc;

  g_byte_array_set_size (block, BLOCK_CRC_LEN);
  g_byte_array_append (block, g_bytes_get_data (times, NULL), g_bytes_get_size (times));
  for (guint m = 0; m < n_metrics; m++)
    if (metrics[m] != NULL)
      g_byte_array_append (block, g_bytes_get_data (metrics[m], NULL),
                           g_bytes_get_size (metrics[m]));
  crc = GUINT32_TO_LE (mg_crc32_update (0, block->data + BLOCK_CRC_LEN,
                                        block->len - BLOCK_CRC_LEN));
  memcpy (block->data, &crc, BLOCK_CRC_LEN);
  return g_byte_array_free_to_bytes (block);
}

GBytes *
mg_process_block_encode (gsize n, guint n_metrics, const double *times, const double *values,
                         const guint8 *reported, MgProcessPrecision precision)
{
  g_autoptr (GBytes) times_part = mg_process_block_encode_times (n, times);
  g_autofree GBytes **parts = g_new0 (GBytes *, MAX (n_metrics, 1));
  GBytes *block;

  for (guint m = 0; m < n_metrics; m++)
    if (reported[m])
      parts[m] = mg_process_block_encode_metric (n, values + (gsize) m * MG_PROCESS_SERIES_N * n,
                                                 precision);
  block = mg_process_block_join (times_part, parts, n_metrics);
  for (guint m = 0; m < n_metrics; m++)
    g_clear_pointer (&parts[m], g_bytes_unref);
  return block;
}

/* Inflates the deflate stream at the start of in into out (cap bytes): the
 * unpacked length, and in *used the stream's length; -1 if there is no
 * whole stream that fits. */
static gssize
inflate_into (const guint8 *in, gsize size, guint8 *out, gsize cap, gsize *used)
{
  z_stream *z = get_inflater ();

  if (z == NULL)
    return -1;
  z->next_in = (Bytef *) in;
  z->avail_in = (uInt) size;
  z->next_out = out;
  z->avail_out = (uInt) cap;
  if (inflate (z, Z_FINISH) != Z_STREAM_END)
    return -1;
  *used = z->total_in;
  return (gssize) z->total_out;
}

/* One metric's part at in: its rows into rows[3 × n]; the part's length,
 * or 0 if it is damaged. */
static gsize
decode_metric (const guint8 *in, gsize size, gsize n, double *rows, guint8 *raw)
{
  double *mins = rows, *maxs = rows + n, *means = rows + 2 * n;
  gsize used = 0;
  gssize len = inflate_into (in, size, raw, metric_raw_size (n) + 1, &used);
  const guint8 *at = raw + 1, *end = raw + MAX (len, 0);
  guint flags;

  if (len < 1)
    return 0;
  flags = raw[0];
  if ((flags & ~(guint) (MINS_STORED | MAXS_STORED)) != 0
      || (at = get_row (at, end, means, n)) == NULL
      || ((flags & MINS_STORED) && (at = get_row (at, end, mins, n)) == NULL)
      || ((flags & MAXS_STORED) && (at = get_row (at, end, maxs, n)) == NULL)
      || at != end)
    return 0;
  if (!(flags & MINS_STORED))
    memcpy (mins, means, n * sizeof (double));
  if (!(flags & MAXS_STORED))
    memcpy (maxs, means, n * sizeof (double));
  return used;
}

gboolean
mg_process_block_decode_metric (GBytes *part, gsize n, double *rows)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (part, &size);
  g_autofree guint8 *raw = g_malloc (metric_raw_size (n) + 1);

  return decode_metric (data, size, n, rows, raw) == size;
}

gboolean
mg_process_block_decode (const guint8 *block, gsize size, gsize n, guint n_metrics,
                         const guint8 *reported, double *times, double *values)
{
  g_autofree guint8 *raw = NULL;
  gsize at = 0;
  gssize len;

  if (!mg_process_block_check (block, size))
    return FALSE;
  block += BLOCK_CRC_LEN;
  size -= BLOCK_CRC_LEN;
  raw = g_malloc (MAX (1 + 8 * n, metric_raw_size (n)) + 1);
  len = inflate_into (block, size, raw, 1 + 8 * n + 1, &at);
  if (len < 1 || get_row (raw, raw + len, times, n) != raw + len)
    return FALSE;
  for (guint m = 0; m < n_metrics; m++)
    {
      double *rows = values + (gsize) m * MG_PROCESS_SERIES_N * n;
      gsize used;

      if (!reported[m])
        {
          for (gsize i = 0; i < MG_PROCESS_SERIES_N * n; i++)
            rows[i] = NAN;
          continue;
        }
      used = decode_metric (block + at, size - at, n, rows, raw);
      if (used == 0)
        return FALSE;
      at += used;
    }
  return at == size;
}
