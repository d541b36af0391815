/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading a record's bytes: the layout from the header, every entry checked
 * before anyone uses it (the file may be damaged or foreign). */
#include "format/mg-record-view.h"

#include <string.h>

static MgRecordProblem
check_entries (const MgRecordView *v)
{
  MgRecordProblem problem = MG_RECORD_OK;

  for (uint32_t i = 0; i < v->header->n_plugins && problem == MG_RECORD_OK; i++)
    problem = mg_record_check_plugin (&v->plugins[i]);
  for (uint32_t i = 0; i < v->header->n_metrics && problem == MG_RECORD_OK; i++)
    problem = mg_record_check_metric (&v->metrics[i], v->header->n_plugins);
  for (uint32_t i = 0; i < v->n_samples && problem == MG_RECORD_OK; i++)
    problem = mg_record_check_sample (mg_record_view_sample (v, i));
  return problem;
}

static MgRecordProblem
fail (MgRecordView *view, MgRecordProblem problem)
{
  memset (view, 0, sizeof *view);
  return problem;
}

MgRecordProblem
mg_record_view_open_parts (MgRecordView *view, const MgRecordHeader *header,
                           uint64_t file_size, const MgRecordPlugin *plugins,
                           const MgRecordMetric *metrics, const void *slots, uint32_t first,
                           uint32_t n_samples)
{
  MgRecordProblem problem = mg_record_check_header (header, file_size);

  if (problem != MG_RECORD_OK)
    return fail (view, problem);
  /* The caller read these slots: more than were committed is a caller's
   * mistake that a damaged file must not turn into a read past them. */
  if (first > header->n_samples || n_samples > header->n_samples - first)
    return fail (view, MG_RECORD_TOO_MANY_SAMPLES);
  *view = (MgRecordView) {
    .header = header,
    .plugins = plugins,
    .metrics = metrics,
    .slots = slots,
    .first = first,
    .n_samples = n_samples,
    .stride = header->sample_stride,
  };
  problem = check_entries (view);
  return problem == MG_RECORD_OK ? MG_RECORD_OK : fail (view, problem);
}

MgRecordProblem
mg_record_view_open (MgRecordView *view, const void *data, uint64_t size)
{
  const unsigned char *bytes = data;
  const MgRecordHeader *h = data;

  if (size < sizeof *h)
    {
      if (size >= MG_RECORD_MAGIC_LEN && memcmp (bytes, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) != 0)
        return fail (view, MG_RECORD_BAD_MAGIC);
      return fail (view, MG_RECORD_TRUNCATED);
    }
  /* The offsets are only used once the header is known to keep them
   * inside size. */
  MgRecordProblem problem = mg_record_check_header (h, size);
  if (problem != MG_RECORD_OK)
    return fail (view, problem);
  return mg_record_view_open_parts (view, h, size,
                                    (const MgRecordPlugin *) (bytes + h->plugins_offset),
                                    (const MgRecordMetric *) (bytes + h->metrics_offset),
                                    bytes + h->samples_offset, 0, h->n_samples);
}

const MgRecordSample *
mg_record_view_sample (const MgRecordView *view, uint32_t i)
{
  if (i >= view->n_samples)
    return NULL;
  return (const MgRecordSample *) (view->slots + (uint64_t) i * view->stride);
}

const MgRecordValue *
mg_record_view_values (const MgRecordView *view, uint32_t i)
{
  const MgRecordSample *s = mg_record_view_sample (view, i);

  return s ? (const MgRecordValue *) (s + 1) : NULL;
}
