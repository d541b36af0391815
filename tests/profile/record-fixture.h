/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampler records for tests, written by the sampler's own writer
 * (format/mg-record-writer.h) into a temporary file; a test then sets the
 * fields it needs through the pointers below, as the sampler would, and
 * writes a copy where it wants it. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"
#include "format/mg-record-stacks.h"
#include "format/mg-record-writer.h"

typedef struct {
  guchar *data;     /* the writer's mapping */
  gsize size;       /* bytes record_fixture_write writes (a test may cut it) */
  MgRecordWriter writer;
  char *dir;        /* the writer's temporary folder */
} RecordFixture;

/* A new record as mg_record_create leaves it, with pid, host, run id and
 * start times 0 or empty and the default interval, so that tests set what
 * they compare; the caller fills in. */
RecordFixture *record_fixture_new (guint n_plugins, guint n_metrics, guint capacity);
/* The same with a call-stack section of max_stacks stacks, laid out and
 * empty (the writer's w.stacks: fill it with mg_record_stacks_add, and
 * drain slot i before adding sample i). */
RecordFixture *record_fixture_new_with_stacks (guint n_plugins, guint n_metrics, guint capacity,
                                               guint max_stacks);
MgRecordStacks *record_fixture_stacks (RecordFixture *record);
void record_fixture_free (RecordFixture *record);
MgRecordHeader *record_fixture_header (RecordFixture *record);
MgRecordPlugin *record_fixture_plugin (RecordFixture *record, guint i);
MgRecordMetric *record_fixture_metric (RecordFixture *record, guint i);
MgRecordSample *record_fixture_sample (RecordFixture *record, guint i);
MgRecordValue *record_fixture_values (RecordFixture *record, guint i);
/* Appends a slot with one value per metric (NaN: count 0, a gap). */
void record_fixture_add_sample (RecordFixture *record, gint64 t_start_ns, gint64 t_end_ns,
                                const double *values);
void record_fixture_write (RecordFixture *record, const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RecordFixture, record_fixture_free)
