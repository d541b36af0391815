/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "record-fixture.h"

#include "format/mg-plan-keywords.h"

RecordFixture *
record_fixture_new (guint n_plugins, guint n_metrics, guint capacity)
{
  RecordFixture *r = g_new0 (RecordFixture, 1);
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
record_fixture_free (RecordFixture *record)
{
  g_free (record->data);
  g_free (record);
}

MgRecordHeader *
record_fixture_header (RecordFixture *record)
{
  return (MgRecordHeader *) record->data;
}

MgRecordPlugin *
record_fixture_plugin (RecordFixture *record, guint i)
{
  return (MgRecordPlugin *) (record->data + record_fixture_header (record)->plugins_offset) + i;
}

MgRecordMetric *
record_fixture_metric (RecordFixture *record, guint i)
{
  return (MgRecordMetric *) (record->data + record_fixture_header (record)->metrics_offset) + i;
}

MgRecordSample *
record_fixture_sample (RecordFixture *record, guint i)
{
  MgRecordHeader *h = record_fixture_header (record);

  return (MgRecordSample *) (record->data + h->samples_offset + (gsize) i * h->sample_stride);
}

MgRecordValue *
record_fixture_values (RecordFixture *record, guint i)
{
  return (MgRecordValue *) (record_fixture_sample (record, i) + 1);
}

void
record_fixture_add_sample (RecordFixture *record, gint64 t_start_ns, gint64 t_end_ns,
                           const double *values)
{
  MgRecordHeader *h = record_fixture_header (record);
  guint i = h->n_samples;
  MgRecordSample *s;
  MgRecordValue *v;

  g_assert_cmpuint (i, <, h->capacity);
  s = record_fixture_sample (record, i);
  v = record_fixture_values (record, i);
  s->t_start_ns = t_start_ns;
  s->t_end_ns = t_end_ns;
  s->n_raw = 1;
  for (guint m = 0; m < h->n_metrics; m++)
    if (!isnan (values[m]))
      v[m] = (MgRecordValue) { values[m], values[m], values[m], 1, 0 };
  h->n_samples = i + 1;
}

void
record_fixture_write (RecordFixture *record, const char *path)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) record->data, record->size, &error);
  g_assert_no_error (error);
}
