/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The little of the protocol buffers wire format that the pprof export
 * needs (docs/export.md): varints, length-delimited fields and packed
 * repeated varints, appended to a GByteArray. A nested message is built in
 * a byte array of its own and appended as bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Field (number, varint): omitted when value is 0, as proto3 does. */
void mg_protobuf_varint (GByteArray *out, guint field, guint64 value);
/* Field (number, length-delimited bytes): a string, bytes or a message. */
void mg_protobuf_bytes (GByteArray *out, guint field, const void *data, gsize len);
/* Field (number, packed repeated varints); nothing when n is 0. */
void mg_protobuf_packed (GByteArray *out, guint field, const guint64 *values, gsize n);

G_END_DECLS
