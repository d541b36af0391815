/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Record layout, validation, and the launcher's reading of a record's
 * header and end-of-record write. */
#include "format/mg-record-format.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static uint64_t
align8 (uint64_t v)
{
  return (v + 7) & ~(uint64_t) 7;
}

void
mg_record_header_init (MgRecordHeader *h, uint32_t n_plugins, uint32_t n_metrics,
                       uint32_t capacity)
{
  memset (h, 0, sizeof *h);
  memcpy (h->magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN);
  h->version = MG_RECORD_VERSION;
  h->header_size = sizeof *h;
  h->n_plugins = n_plugins;
  h->n_metrics = n_metrics;
  h->capacity = capacity;
  h->sample_stride = (uint32_t) (sizeof (MgRecordSample) + n_metrics * sizeof (MgRecordValue));
  h->plugins_offset = align8 (sizeof *h);
  h->metrics_offset = align8 (h->plugins_offset + (uint64_t) n_plugins * sizeof (MgRecordPlugin));
  h->samples_offset = align8 (h->metrics_offset + (uint64_t) n_metrics * sizeof (MgRecordMetric));
  h->file_size = h->samples_offset + (uint64_t) capacity * h->sample_stride;
  h->rank = -1;
}

uint64_t
mg_record_sections_offset (const MgRecordHeader *h)
{
  return align8 (h->samples_offset + (uint64_t) h->capacity * h->sample_stride);
}

static bool
terminated (const char *s, size_t size)
{
  return memchr (s, '\0', size) != NULL;
}

/* Does [offset, offset + count × size) lie in [start, end)? No overflow. */
static bool
region_ok (uint64_t offset, uint64_t count, uint64_t size, uint64_t start, uint64_t end)
{
  return offset >= start && offset <= end && count <= (end - offset) / (size > 0 ? size : 1);
}

static MgRecordProblem
check_layout (const MgRecordHeader *h)
{
  uint64_t plugins_end = h->plugins_offset + (uint64_t) h->n_plugins * sizeof (MgRecordPlugin);
  uint64_t metrics_end;

  if (h->n_plugins > MG_RECORD_MAX_PLUGINS || h->n_metrics > MG_RECORD_MAX_METRICS
      || h->capacity > MG_RECORD_MAX_CAPACITY)
    return MG_RECORD_IMPLAUSIBLE_COUNTS;
  if (h->sample_stride
      != sizeof (MgRecordSample) + (uint64_t) h->n_metrics * sizeof (MgRecordValue))
    return MG_RECORD_BAD_STRIDE;
  if (!region_ok (h->plugins_offset, h->n_plugins, sizeof (MgRecordPlugin), h->header_size,
                  h->file_size))
    return MG_RECORD_PLUGINS_OUTSIDE;
  if (!region_ok (h->metrics_offset, h->n_metrics, sizeof (MgRecordMetric), plugins_end,
                  h->file_size))
    return MG_RECORD_METRICS_OUTSIDE;
  metrics_end = h->metrics_offset + (uint64_t) h->n_metrics * sizeof (MgRecordMetric);
  if (!region_ok (h->samples_offset, h->capacity, h->sample_stride, metrics_end, h->file_size))
    return MG_RECORD_SAMPLES_OUTSIDE;
  return MG_RECORD_OK;
}

static bool
time_ok (int64_t ns)
{
  return ns >= 0 && ns <= MG_RECORD_MAX_TIME_NS;
}

MgRecordProblem
mg_record_check_header (const MgRecordHeader *h, uint64_t actual_size)
{
  MgRecordProblem problem;

  if (memcmp (h->magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) != 0)
    return MG_RECORD_BAD_MAGIC;
  if (h->version < MG_RECORD_VERSION_MIN || h->version > MG_RECORD_VERSION)
    return MG_RECORD_BAD_VERSION;
  if (h->version < 3 && h->sections != 0)
    return MG_RECORD_BAD_VERSION;
  if (h->header_size != sizeof (MgRecordHeader))
    return MG_RECORD_BAD_HEADER_SIZE;
  if (h->file_size > actual_size)
    return MG_RECORD_TRUNCATED;
  if ((problem = check_layout (h)) != MG_RECORD_OK)
    return problem;
  if (h->n_samples > h->capacity)
    return MG_RECORD_TOO_MANY_SAMPLES;
  if (!terminated (h->host, sizeof h->host) || !terminated (h->program, sizeof h->program)
      || !terminated (h->run_id, sizeof h->run_id)
      || !terminated (h->record_error, sizeof h->record_error))
    return MG_RECORD_UNTERMINATED_HEADER;
  if (h->state > MG_RECORD_STATE_EXECED)
    return MG_RECORD_BAD_STATE;
  if (!time_ok (h->start_mono_ns) || !time_ok (h->start_real_ns) || !time_ok (h->end_mono_ns))
    return MG_RECORD_BAD_TIME;
  return MG_RECORD_OK;
}

MgRecordProblem
mg_record_check_plugin (const MgRecordPlugin *p)
{
  if (!terminated (p->source_id, sizeof p->source_id)
      || !terminated (p->library, sizeof p->library) || !terminated (p->error, sizeof p->error))
    return MG_RECORD_UNTERMINATED_PLUGIN;
  if (p->state > MG_PLUGIN_STATE_HUNG)
    return MG_RECORD_BAD_PLUGIN_STATE;
  return MG_RECORD_OK;
}

MgRecordProblem
mg_record_check_metric (const MgRecordMetric *m, uint32_t n_plugins)
{
  if (!terminated (m->id, sizeof m->id) || !terminated (m->error, sizeof m->error))
    return MG_RECORD_UNTERMINATED_METRIC;
  /* A record that could not be allocated has no plugin table at all. */
  if (m->plugin_index >= n_plugins && n_plugins > 0)
    return MG_RECORD_BAD_PLUGIN_INDEX;
  if (!time_ok (m->first_error_ns) || !time_ok (m->last_error_ns))
    return MG_RECORD_BAD_TIME;
  return MG_RECORD_OK;
}

MgRecordProblem
mg_record_check_sample (const MgRecordSample *s)
{
  if (!time_ok (s->t_start_ns) || !time_ok (s->t_end_ns) || s->t_end_ns < s->t_start_ns)
    return MG_RECORD_BAD_SAMPLE_TIMES;
  return MG_RECORD_OK;
}

const char *
mg_record_problem_text (MgRecordProblem problem)
{
  static const char *const texts[] = {
    [MG_RECORD_OK] = "no problem",
    [MG_RECORD_BAD_MAGIC] = "wrong magic",
    [MG_RECORD_BAD_VERSION] = "unknown format version",
    [MG_RECORD_BAD_HEADER_SIZE] = "wrong header size",
    [MG_RECORD_TRUNCATED] = "shorter than its header says",
    [MG_RECORD_IMPLAUSIBLE_COUNTS] = "implausible counts",
    [MG_RECORD_BAD_STRIDE] = "wrong sample size",
    [MG_RECORD_PLUGINS_OUTSIDE] = "plugin table outside the file",
    [MG_RECORD_METRICS_OUTSIDE] = "metric table outside the file",
    [MG_RECORD_SAMPLES_OUTSIDE] = "sample slots outside the file",
    [MG_RECORD_TOO_MANY_SAMPLES] = "more samples than slots",
    [MG_RECORD_UNTERMINATED_HEADER] = "unterminated string in the header",
    [MG_RECORD_BAD_STATE] = "unknown process state",
    [MG_RECORD_UNTERMINATED_PLUGIN] = "unterminated string in the plugin table",
    [MG_RECORD_BAD_PLUGIN_STATE] = "unknown plugin state",
    [MG_RECORD_UNTERMINATED_METRIC] = "unterminated string in the metric table",
    [MG_RECORD_BAD_PLUGIN_INDEX] = "metric names a plugin that is not in the table",
    [MG_RECORD_BAD_TIME] = "a time out of range",
    [MG_RECORD_BAD_SAMPLE_TIMES] = "a sample whose times are out of range or out of order",
    [MG_RECORD_BAD_STACKS] = "a damaged call-stack section",
  };

  if ((size_t) problem >= sizeof texts / sizeof texts[0] || texts[problem] == NULL)
    return "unknown problem";
  return texts[problem];
}

bool
mg_record_is_of_run (const MgRecordHeader *h, const char *run_id)
{
  return memcmp (h->magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) == 0
         && h->version >= MG_RECORD_VERSION_MIN && h->version <= MG_RECORD_VERSION
         && strncmp (h->run_id, run_id, sizeof h->run_id) == 0;
}

static bool
write_field (int fd, size_t offset, const void *value, size_t size)
{
  return pwrite (fd, value, size, (off_t) offset) == (ssize_t) size;
}

bool
mg_record_write_end (int fd, const MgRecordHeader *h, MgRecordState state, int32_t end_status,
                     int64_t end_mono_ns)
{
  uint32_t state_value = state;
  bool done = write_field (fd, offsetof (MgRecordHeader, end_status), &end_status,
                           sizeof end_status);

  if (done && h->end_mono_ns == 0)
    done = write_field (fd, offsetof (MgRecordHeader, end_mono_ns), &end_mono_ns,
                        sizeof end_mono_ns);
  return done && write_field (fd, offsetof (MgRecordHeader, state), &state_value,
                              sizeof state_value);
}

static bool
read_header_of_run (int fd, const char *run_id, MgRecordHeader *header)
{
  return pread (fd, header, sizeof *header, 0) == (ssize_t) sizeof *header
         && mg_record_is_of_run (header, run_id);
}

bool
mg_record_read_header_of_run (const char *path, const char *run_id, MgRecordHeader *header)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  bool ok;

  if (fd < 0)
    return false;
  ok = read_header_of_run (fd, run_id, header);
  close (fd);
  return ok;
}

bool
mg_record_mark_ended (const char *path, const char *run_id, int32_t pid, MgRecordState state,
                      int32_t end_status, int64_t end_mono_ns)
{
  MgRecordHeader header;
  bool done = false;
  int fd;

  if (state != MG_RECORD_STATE_SIGNALLED && state != MG_RECORD_STATE_EXITED)
    return false;
  if (state == MG_RECORD_STATE_EXITED)
    end_status &= 0xff; /* as exit (3) passes it on */
  fd = open (path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return false;
  /* Read again under this descriptor: only a record still RUNNING is ours
   * to end, never one its sampler closed meanwhile. */
  if (read_header_of_run (fd, run_id, &header) && header.pid == pid
      && header.state == MG_RECORD_STATE_RUNNING)
    done = mg_record_write_end (fd, &header, state, end_status, end_mono_ns);
  close (fd);
  return done;
}

void
mg_record_copy_str (char *dst, size_t size, const char *src)
{
  size_t n = src ? strlen (src) : 0;
  if (n >= size)
    n = size - 1;
  if (n)
    memcpy (dst, src, n);
  memset (dst + n, 0, size - n);
}

void
mg_record_host_name (char host[MG_RECORD_HOST_LEN])
{
  if (gethostname (host, MG_RECORD_HOST_LEN) != 0)
    strcpy (host, "localhost");
  host[MG_RECORD_HOST_LEN - 1] = '\0';
  /* The host is part of the record's file name. */
  for (char *c = host; *c; c++)
    if (*c == '/')
      *c = '_';
}
