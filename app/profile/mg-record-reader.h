/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads one sampler record (format/mg-record-format.h, documented in
 * docs/record-format.md) into plain memory, validating everything: the file
 * may be damaged, foreign, or still being written by a running process. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"
#include "format/mg-record-stacks.h"

G_BEGIN_DECLS

#define MG_RECORD_ERROR (mg_record_error_quark ())
GQuark mg_record_error_quark (void);

typedef enum {
  MG_RECORD_ERROR_INVALID,   /* not a record, or its layout does not hold */
  MG_RECORD_ERROR_VERSION,   /* another record format version */
  MG_RECORD_ERROR_TRUNCATED, /* shorter than its header says */
  MG_RECORD_ERROR_BUSY,      /* a live record kept changing while being read */
} MgRecordError;

typedef struct {
  char *path;
  MgRecordHeader header;     /* as read; strings are NUL-terminated */
  MgRecordPlugin *plugins;   /* header.n_plugins */
  MgRecordMetric *metrics;   /* header.n_metrics */
  guint first;               /* index of the first slot read (mg_record_file_read_from) */
  guint n_samples;           /* committed slots read, from first */
  guint32 stride;            /* bytes per slot */
  guchar *slots;             /* n_samples slots of stride bytes, 8-byte aligned */
  /* A checked copy of the call-stack section (format/mg-record-stacks.h),
   * whole even when the slots are read from a later one, or NULL: none in
   * the record (or not laid out yet). */
  MgRecordStacks *stacks;
  /* Non-NULL: an ended record, mapped read-only; the tables, slots and
   * stacks above point into it rather than into copies. */
  GMappedFile *mapped;
  /* Non-NULL: an ended record of at most 256 kB, copied whole with one
   * pread instead (cheaper than a mapping at that size); the same. */
  guchar *whole;
} MgRecordFile;

/* Reads a record; for a live one, retries while the writer rewrites slots.
 * An ended record (its state no longer RUNNING: no writer is left) is
 * mapped instead of copied. */
MgRecordFile *mg_record_file_read (const char *path, GError **error);
/* The same, but only the committed slots from index first on (none if fewer
 * are committed): what a live reader has not seen yet. */
MgRecordFile *mg_record_file_read_from (const char *path, guint first, GError **error);
void mg_record_file_free (MgRecordFile *record);
/* Only the header, checked against the file: cheap, for listing records. */
gboolean mg_record_file_read_header (const char *path, MgRecordHeader *header, GError **error);

/* Slot i counts from record->first. */
const MgRecordSample *mg_record_file_get_sample (const MgRecordFile *record, guint i);
/* The header.n_metrics values of slot i. */
const MgRecordValue *mg_record_file_get_values (const MgRecordFile *record, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgRecordFile, mg_record_file_free)

G_END_DECLS
