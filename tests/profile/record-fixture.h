/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Writing sampler records by hand (format/mg-record-format.h) for tests. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"

typedef struct {
  guchar *data;
  gsize size;
} TestRecord;

/* A zeroed record with a valid header and layout; the caller fills in. */
TestRecord *test_record_new (guint n_plugins, guint n_metrics, guint capacity);
void test_record_free (TestRecord *record);
MgRecordHeader *test_record_header (TestRecord *record);
MgRecordPlugin *test_record_plugin (TestRecord *record, guint i);
MgRecordMetric *test_record_metric (TestRecord *record, guint i);
MgRecordSample *test_record_sample (TestRecord *record, guint i);
MgRecordValue *test_record_values (TestRecord *record, guint i);
/* Appends a slot with one value per metric (NaN: count 0, a gap). */
void test_record_add_sample (TestRecord *record, gint64 t_start_ns, gint64 t_end_ns,
                             const double *values);
void test_record_write (TestRecord *record, const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestRecord, test_record_free)
