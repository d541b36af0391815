/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CRC-32 (ISO-HDLC: the polynomial of zlib, PNG and gzip), so that other
 * tools can check a .mgprof with zlib.crc32. GLib has no CRC and the SHA
 * family is ten times slower on large profiles. */
#pragma once

#include <glib.h>

guint32 mg_crc32_update (guint32 crc, const void *data, gsize len);
/* The same with tables alone (no carry-less multiplication): for tests. */
guint32 mg_crc32_update_portable (guint32 crc, const void *data, gsize len);
/* The CRC of A followed by B from the CRCs of each and B's length: pieces
 * checked on their own (a profile's process blocks) and the whole at once. */
guint32 mg_crc32_combine (guint32 crc_a, guint32 crc_b, guint64 len_b);
