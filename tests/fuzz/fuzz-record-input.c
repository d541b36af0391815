/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fuzz-record-input.h"

#include <glib.h>
#include <stddef.h>
#include <string.h>

#include "format/mg-record-format.h"
#include "fuzz-input.h"

static GByteArray *copy;

const char *
fuzz_record_input (const uint8_t *data, size_t size)
{
  const size_t at = offsetof (MgRecordHeader, seq);

  if (copy == NULL)
    copy = g_byte_array_new ();
  g_byte_array_set_size (copy, 0);
  g_byte_array_append (copy, data, (guint) size);
  if (size >= at + sizeof (uint32_t))
    copy->data[at] &= (uint8_t) ~1u; /* little-endian: the low bit is in the first byte */
  return fuzz_input_as_file (copy->data, size);
}

const char *
fuzz_record_input_data (void)
{
  return (const char *) copy->data;
}
