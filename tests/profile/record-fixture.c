/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "record-fixture.h"

#include "format/mg-plan-keywords.h"

TestRecord *
test_record_new (guint n_plugins, guint n_metrics, guint capacity)
{
  TestRecord *r = g_new0 (TestRecord, 1);
  MgRecordHeader h;

  mg_record_header_init (&h, n_plugins, n_metrics, capacity);
  h.interval_start_ns = (gint64) MG_PLAN_DEFAULT_INTERVAL_MS * 1000000;
  h.interval_ns = h.interval_start_ns;
  r->size = h.file_size;
  r->data = g_malloc0 (r->size);
  memcpy (r->data, &h, sizeof h);
  return r;
}

void
test_record_free (TestRecord *record)
{
  g_free (record->data);
  g_free (record);
}

MgRecordHeader *
test_record_header (TestRecord *record)
{
  return (MgRecordHeader *) record->data;
}

MgRecordPlugin *
test_record_plugin (TestRecord *record, guint i)
{
  return (MgRecordPlugin *) (record->data + test_record_header (record)->plugins_offset) + i;
}

MgRecordMetric *
test_record_metric (TestRecord *record, guint i)
{
  return (MgRecordMetric *) (record->data + test_record_header (record)->metrics_offset) + i;
}

MgRecordSample *
test_record_sample (TestRecord *record, guint i)
{
  MgRecordHeader *h = test_record_header (record);

  return (MgRecordSample *) (record->data + h->samples_offset + (gsize) i * h->sample_stride);
}

MgRecordValue *
test_record_values (TestRecord *record, guint i)
{
  return (MgRecordValue *) (test_record_sample (record, i) + 1);
}

void
test_record_add_sample (TestRecord *record, gint64 t_start_ns, gint64 t_end_ns,
                        const double *values)
{
  MgRecordHeader *h = test_record_header (record);
  guint i = h->n_samples;
  MgRecordSample *s;
  MgRecordValue *v;

  g_assert_cmpuint (i, <, h->capacity);
  s = test_record_sample (record, i);
  v = test_record_values (record, i);
  s->t_start_ns = t_start_ns;
  s->t_end_ns = t_end_ns;
  s->n_raw = 1;
  for (guint m = 0; m < h->n_metrics; m++)
    if (!isnan (values[m]))
      v[m] = (MgRecordValue) { values[m], values[m], values[m], 1, 0 };
  h->n_samples = i + 1;
}

void
test_record_write (TestRecord *record, const char *path)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) record->data, record->size, &error);
  g_assert_no_error (error);
}
