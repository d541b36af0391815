/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Protocol buffers wire format: base-128 varints, little end first, and
 * keys of (field number << 3 | wire type). */
#include "mg-config.h"

#include "mg-protobuf.h"

enum { WIRE_VARINT = 0, WIRE_BYTES = 2 };

static void
raw_varint (GByteArray *out, guint64 value)
{
  guint8 buf[10];
  guint n = 0;
  do
    {
      guint8 b = value & 0x7f;
      value >>= 7;
      buf[n++] = value ? b | 0x80 : b;
    }
  while (value);
  g_byte_array_append (out, buf, n);
}

static void
key (GByteArray *out, guint field, guint wire)
{
  raw_varint (out, ((guint64) field << 3) | wire);
}

void
mg_protobuf_varint (GByteArray *out, guint field, guint64 value)
{
  if (value == 0)
    return;
  key (out, field, WIRE_VARINT);
  raw_varint (out, value);
}

void
mg_protobuf_bytes (GByteArray *out, guint field, const void *data, gsize len)
{
  key (out, field, WIRE_BYTES);
  raw_varint (out, len);
  if (len > 0)
    g_byte_array_append (out, data, (guint) len);
}

void
mg_protobuf_packed (GByteArray *out, guint field, const guint64 *values, gsize n)
{
  if (n == 0)
    return;
  g_autoptr (GByteArray) body = g_byte_array_new ();
  for (gsize i = 0; i < n; i++)
    raw_varint (body, values[i]);
  mg_protobuf_bytes (out, field, body->data, body->len);
}
