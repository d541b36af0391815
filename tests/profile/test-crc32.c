/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CRC-32 of .mgprof files: the fast path (carry-less multiplication) agrees
 * with the tables and with zlib's check value, at every length and
 * alignment around its block sizes, and in pieces. */
#include "mg-config.h"

#include <glib.h>

#include "profile/mg-crc32.h"

static void
test_check_value (void)
{
  g_assert_cmphex (mg_crc32_update (0, "123456789", 9), ==, 0xCBF43926u);
  g_assert_cmphex (mg_crc32_update_portable (0, "123456789", 9), ==, 0xCBF43926u);
  g_assert_cmphex (mg_crc32_update (0, "", 0), ==, 0);
}

static void
test_lengths_and_alignments (void)
{
  guint n = 4096 + 64;
  g_autofree guchar *buf = g_malloc (n + 16);
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < n + 16; i++)
    buf[i] = (guchar) g_rand_int_range (rand, 0, 256);
  for (guint offset = 0; offset < 16; offset += 3)
    for (guint len = 0; len <= n; len += len < 300 ? 1 : 61)
      {
        guint32 fast = mg_crc32_update (0x12345678u, buf + offset, len);
        guint32 slow = mg_crc32_update_portable (0x12345678u, buf + offset, len);

        if (fast != slow)
          g_error ("offset %u length %u: %08x, tables say %08x", offset, len, fast, slow);
      }
  g_rand_free (rand);
}

static void
test_in_pieces (void)
{
  guint n = 100000;
  g_autofree guchar *buf = g_malloc (n);
  guint32 whole, pieces = 0;

  for (guint i = 0; i < n; i++)
    buf[i] = (guchar) (i * 2654435761u >> 24);
  whole = mg_crc32_update (0, buf, n);
  for (guint done = 0, step = 1; done < n; done += step, step = step * 3 + 7)
    pieces = mg_crc32_update (pieces, buf + done, MIN (step, n - done));
  g_assert_cmphex (pieces, ==, whole);
  g_assert_cmphex (whole, ==, mg_crc32_update_portable (0, buf, n));
}

/* Combining the CRCs of two pieces gives the CRC of both, whatever the
 * split (empty pieces included), as the loader checks a profile. */
static void
test_combine (void)
{
  guint n = 70001;
  g_autofree guchar *buf = g_malloc (n);
  guint32 whole;

  for (guint i = 0; i < n; i++)
    buf[i] = (guchar) (i * 2246822519u >> 24);
  whole = mg_crc32_update (0, buf, n);
  for (guint split = 0; split <= n; split = split * 2 + 1)
    {
      guint32 a = mg_crc32_update (0, buf, split);
      guint32 b = mg_crc32_update (0, buf + split, n - split);

      g_assert_cmphex (mg_crc32_combine (a, b, n - split), ==, whole);
    }
  g_assert_cmphex (mg_crc32_combine (whole, 0, 0), ==, whole);
  g_assert_cmphex (mg_crc32_combine (0, whole, n), ==, whole);
  g_assert_cmphex (mg_crc32_combine (mg_crc32_update (0, "12345", 5),
                                     mg_crc32_update (0, "6789", 4), 4), ==, 0xCBF43926u);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/crc32/check-value", test_check_value);
  g_test_add_func ("/crc32/combine", test_combine);
  g_test_add_func ("/crc32/lengths-and-alignments", test_lengths_and_alignments);
  g_test_add_func ("/crc32/in-pieces", test_in_pieces);
  return g_test_run ();
}
