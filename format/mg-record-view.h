/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record's reader (format/mg-record-format.h, docs/record-format.md):
 * a checked view of a record's bytes, the other half of
 * format/mg-record-writer.h. libc only and allocation-free: the view points
 * into memory its caller owns, a mapped file or the pieces copied from one.
 * Every problem found is an MgRecordProblem (mg_record_problem_text), which
 * the front end's reader (app/profile/mg-record-reader.c) turns into a
 * message naming the file. */
#ifndef MG_RECORD_VIEW_H
#define MG_RECORD_VIEW_H

#include <stdint.h>

#include "format/mg-record-format.h"

typedef struct {
  const MgRecordHeader *header;
  const MgRecordPlugin *plugins; /* header->n_plugins */
  const MgRecordMetric *metrics; /* header->n_metrics */
  const unsigned char *slots;    /* slot `first`, then one every stride bytes */
  uint32_t first;                /* index in the record of the view's slot 0 */
  uint32_t n_samples;            /* committed slots in the view, from first */
  uint32_t stride;               /* bytes per slot: sample + n_metrics values */
} MgRecordView;

/* A whole record of size bytes in memory (a mapped file, or a copy of it),
 * 8-byte aligned: checks the header against size, then every table entry
 * and every committed slot. A file shorter than a header is
 * MG_RECORD_BAD_MAGIC when its magic is wrong, else MG_RECORD_TRUNCATED.
 * A live record is copied under its seqlock first (docs/record-format.md,
 * "Reading a live record"). On a problem, view is left empty. */
MgRecordProblem mg_record_view_open (MgRecordView *view, const void *data, uint64_t size);

/* The same for the pieces a reader copied out of a file of file_size bytes:
 * its header, its tables and the n_samples committed slots from index first
 * (first + n_samples <= header->n_samples). */
MgRecordProblem mg_record_view_open_parts (MgRecordView *view, const MgRecordHeader *header,
                                           uint64_t file_size, const MgRecordPlugin *plugins,
                                           const MgRecordMetric *metrics, const void *slots,
                                           uint32_t first, uint32_t n_samples);

/* Slot i of the view (i < n_samples; index first + i in the record) and its
 * header->n_metrics values. */
const MgRecordSample *mg_record_view_sample (const MgRecordView *view, uint32_t i);
const MgRecordValue *mg_record_view_values (const MgRecordView *view, uint32_t i);

#endif /* MG_RECORD_VIEW_H */
