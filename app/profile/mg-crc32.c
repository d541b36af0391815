/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CRC-32, reflected polynomial 0xEDB88320: carry-less multiplication
 * (PCLMULQDQ) where the processor has it, else slice-by-8 tables. */
#include "mg-config.h"

#include "mg-crc32.h"

static guint32 crc_table[8][256];

static gpointer
build_tables (gpointer data)
{
  for (guint32 i = 0; i < 256; i++)
    {
      guint32 c = i;

      for (int k = 0; k < 8; k++)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      crc_table[0][i] = c;
    }
  for (guint32 i = 0; i < 256; i++)
    for (int t = 1; t < 8; t++)
      crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
  return NULL;
}

/* The register (not inverted) over len bytes, eight at a time. */
static guint32
update_tables (guint32 crc, const guchar *p, gsize len)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, build_tables, NULL);
  while (len >= 8)
    {
      guint32 lo = crc ^ ((guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16
                          | (guint32) p[3] << 24);
      guint32 hi = (guint32) p[4] | (guint32) p[5] << 8 | (guint32) p[6] << 16
                   | (guint32) p[7] << 24;

      crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff]
            ^ crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24]
            ^ crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff]
            ^ crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
      p += 8;
      len -= 8;
    }
  while (len-- > 0)
    crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define CLMUL_TARGET __attribute__ ((target ("pclmul,sse4.1")))

/* a·k folded onto the next 128 bits: the low halves times k's low, the
 * high halves times k's high (k holds x^(n+32) mod P and x^(n-32) mod P,
 * bit-reflected, for a fold across n bits). */
CLMUL_TARGET static inline __m128i
fold (__m128i a, __m128i k, __m128i next)
{
  __m128i lo = _mm_clmulepi64_si128 (a, k, 0x00);
  __m128i hi = _mm_clmulepi64_si128 (a, k, 0x11);

  return _mm_xor_si128 (_mm_xor_si128 (lo, hi), next);
}

/* The register over len bytes (len ≥ 64, a multiple of 16): four lanes of
 * 128 bits folded 512 bits ahead, then into one lane, then reduced to 32
 * bits (Barrett). Constants as in Intel's "Fast CRC Computation for
 * Generic Polynomials Using PCLMULQDQ" for the reflected polynomial. */
CLMUL_TARGET static guint32
update_clmul (guint32 crc, const guchar *p, gsize len)
{
  const __m128i k512 = _mm_set_epi64x (0x01c6e41596, 0x0154442bd4);
  const __m128i k128 = _mm_set_epi64x (0x00ccaa009e, 0x01751997d0);
  const __m128i k64 = _mm_set_epi64x (0, 0x0163cd6124);
  const __m128i poly = _mm_set_epi64x (0x01f7011641, 0x01db710641);
  const __m128i low32 = _mm_setr_epi32 (~0, 0, ~0, 0);
  __m128i a = _mm_loadu_si128 ((const __m128i *) p);
  __m128i b = _mm_loadu_si128 ((const __m128i *) (p + 16));
  __m128i c = _mm_loadu_si128 ((const __m128i *) (p + 32));
  __m128i d = _mm_loadu_si128 ((const __m128i *) (p + 48));
  __m128i t;

  a = _mm_xor_si128 (a, _mm_cvtsi32_si128 ((int) crc));
  for (p += 64, len -= 64; len >= 64; p += 64, len -= 64)
    {
      a = fold (a, k512, _mm_loadu_si128 ((const __m128i *) p));
      b = fold (b, k512, _mm_loadu_si128 ((const __m128i *) (p + 16)));
      c = fold (c, k512, _mm_loadu_si128 ((const __m128i *) (p + 32)));
      d = fold (d, k512, _mm_loadu_si128 ((const __m128i *) (p + 48)));
    }
  a = fold (a, k128, b);
  a = fold (a, k128, c);
  a = fold (a, k128, d);
  for (; len >= 16; p += 16, len -= 16)
    a = fold (a, k128, _mm_loadu_si128 ((const __m128i *) p));

  /* 128 → 64 bits, then 64 → 32 bits. */
  t = _mm_clmulepi64_si128 (a, k128, 0x10);
  a = _mm_xor_si128 (_mm_srli_si128 (a, 8), t);
  t = _mm_srli_si128 (a, 4);
  a = _mm_xor_si128 (_mm_clmulepi64_si128 (_mm_and_si128 (a, low32), k64, 0x00), t);
  /* Barrett reduction. */
  t = _mm_clmulepi64_si128 (_mm_and_si128 (a, low32), poly, 0x10);
  t = _mm_clmulepi64_si128 (_mm_and_si128 (t, low32), poly, 0x00);
  return (guint32) _mm_extract_epi32 (_mm_xor_si128 (a, t), 1);
}

static gboolean
have_clmul (void)
{
  static int have = -1;

  if (have < 0)
    have = __builtin_cpu_supports ("pclmul") && __builtin_cpu_supports ("sse4.1");
  return have;
}
#endif

guint32
mg_crc32_update (guint32 crc, const void *data, gsize len)
{
  const guchar *p = data;

  crc = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
  if (len >= 64 && have_clmul ())
    {
      gsize bulk = len & ~(gsize) 15;

      crc = update_clmul (crc, p, bulk);
      p += bulk;
      len -= bulk;
    }
#endif
  return ~update_tables (crc, p, len);
}

guint32
mg_crc32_update_portable (guint32 crc, const void *data, gsize len)
{
  return ~update_tables (~crc, data, len);
}

/* Multiplication of two polynomials modulo P, in the reflected order the
 * register uses (the top bit is x^0). */
static guint32
multiply_mod_p (guint32 a, guint32 b)
{
  guint32 product = 0;

  for (guint32 bit = 1u << 31; bit != 0; bit >>= 1)
    {
      if (a & bit)
        product ^= b;
      b = (b & 1) ? (b >> 1) ^ 0xEDB88320u : b >> 1;
    }
  return product;
}

/* x^(8·n) modulo P: appending n zero bytes multiplies the register by it. */
static guint32
x_to_8n_mod_p (guint64 n)
{
  guint32 result = 1u << 31;      /* x^0 */
  guint32 square = 1u << (31 - 8); /* x^8, squared as n's bits go up */

  for (; n != 0; n >>= 1)
    {
      if (n & 1)
        result = multiply_mod_p (square, result);
      square = multiply_mod_p (square, square);
    }
  return result;
}

guint32
mg_crc32_combine (guint32 crc_a, guint32 crc_b, guint64 len_b)
{
  /* The CRC is linear: A's register carried across B's length, plus B's. */
  return multiply_mod_p (x_to_8n_mod_p (len_b), crc_a) ^ crc_b;
}
