/* CRC-32 (ISO-HDLC: the polynomial of zlib, PNG and gzip), so that other
 * tools can check a .mgprof with zlib.crc32. GLib has no CRC and the SHA
 * family is ten times slower on large profiles. */
#pragma once

#include <glib.h>

guint32 mg_crc32_update (guint32 crc, const void *data, gsize len);
/* The same with tables alone (no carry-less multiplication): for tests. */
guint32 mg_crc32_update_portable (guint32 crc, const void *data, gsize len);
