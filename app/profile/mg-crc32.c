/* Slice-by-8 CRC-32, reflected polynomial 0xEDB88320. */
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

guint32
mg_crc32_update (guint32 crc, const void *data, gsize len)
{
  static GOnce once = G_ONCE_INIT;
  const guchar *p = data;

  g_once (&once, build_tables, NULL);
  crc = ~crc;
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
  return ~crc;
}
