/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "record-fixture.h"

#include "format/mg-plan-keywords.h"

RecordFixture *
record_fixture_new (guint n_plugins, guint n_metrics, guint capacity)
{
  return record_fixture_new_with_stacks (n_plugins, n_metrics, capacity, 0);
}

MgRecordStacks *
record_fixture_stacks (RecordFixture *record)
{
  return record->writer.stacks;
}

RecordFixture *
record_fixture_new_with_stacks (guint n_plugins, guint n_metrics, guint capacity,
                                guint max_stacks)
{
  g_autoptr(GError) error = NULL;
  RecordFixture *r = g_new0 (RecordFixture, 1);
  MgRecordHeader *h;
  char err[512] = "";
  int rc;

  r->dir = g_dir_make_tmp ("mg-record-fixture-XXXXXX", &error);
  g_assert_no_error (error);
  rc = mg_record_create_with_stacks (&r->writer, r->dir, "fixture", "", 0, 0, n_plugins,
                                     n_metrics, capacity, max_stacks, err, sizeof err);
  if (rc == 0 && max_stacks > 0)
    rc = mg_record_stacks_reserve (&r->writer, err, sizeof err);
  if (rc != 0)
    g_error ("record fixture: %s", err);
  r->data = r->writer.map;
  r->size = r->writer.size;
  h = r->writer.header;
  /* What the sampler fills in from its process, left for each test to set
   * (the writer takes the host and the wall clock). */
  memset (h->host, 0, sizeof h->host);
  h->start_real_ns = 0;
  h->interval_start_ns = (gint64) MG_PLAN_DEFAULT_INTERVAL_MS * 1000000;
  h->interval_ns = h->interval_start_ns;
  return r;
}

void
record_fixture_free (RecordFixture *record)
{
  g_autofree char *path = g_strdup (record->writer.path);

  mg_record_forget (&record->writer);
  g_unlink (path);
  g_rmdir (record->dir);
  g_free (record->dir);
  g_free (record);
}

MgRecordHeader *
record_fixture_header (RecordFixture *record)
{
  return record->writer.header;
}

MgRecordPlugin *
record_fixture_plugin (RecordFixture *record, guint i)
{
  return &record->writer.plugins[i];
}

MgRecordMetric *
record_fixture_metric (RecordFixture *record, guint i)
{
  return &record->writer.metrics[i];
}

MgRecordSample *
record_fixture_sample (RecordFixture *record, guint i)
{
  return mg_record_slot (&record->writer, i);
}

MgRecordValue *
record_fixture_values (RecordFixture *record, guint i)
{
  return mg_record_slot_values (record_fixture_sample (record, i));
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
  mg_record_touch_next (&record->writer);
  s = record_fixture_sample (record, i);
  v = record_fixture_values (record, i);
  s->t_start_ns = t_start_ns;
  s->t_end_ns = t_end_ns;
  s->n_raw = 1;
  for (guint m = 0; m < h->n_metrics; m++)
    if (!isnan (values[m]))
      v[m] = (MgRecordValue) { values[m], values[m], values[m], 1, 0 };
  mg_record_commit (&record->writer);
}

void
record_fixture_write (RecordFixture *record, const char *path)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) record->data, record->size, &error);
  g_assert_no_error (error);
}
