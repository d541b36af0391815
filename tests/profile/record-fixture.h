/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing sampler records by hand (format/mg-record-format.h) for tests. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"

typedef struct {
  guchar *data;
  gsize size;
} RecordFixture;

/* A zeroed record with a valid header and layout; the caller fills in. */
RecordFixture *record_fixture_new (guint n_plugins, guint n_metrics, guint capacity);
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
