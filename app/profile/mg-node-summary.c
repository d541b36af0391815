/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node's records in one file (docs/node-summary.md): a 24-byte header,
 * an index (one GVariant: every process's record facts and tables, with
 * the size of its block) under one CRC, then each process's slots as a
 * process block (mg-process-block.c) carrying its own CRC. The index is
 * read when the summary is opened; a block only when its process is
 * merged, so that the merge holds a few processes' slots at a time. This
 * is the reader; mg-node-summary-writer.c writes summaries. */
#include "mg-config.h"

#include "mg-node-summary-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mg-crc32.h"
#include "mg-process-block.h"
#include "mg-profile-internal.h"
#include "mg-pread.h"

MgNodeSummary *
mg_node_summary_ref (MgNodeSummary *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
mg_node_summary_unref (MgNodeSummary *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_free (self->path);
  g_clear_pointer (&self->index, g_variant_unref);
  g_free (self->headers);
  g_free (self->offsets);
  g_free (self->sizes);
  g_free (self->stack_sizes);
  g_free (self);
}

const char *
mg_node_summary_get_path (MgNodeSummary *self)
{
  return self->path;
}

guint
mg_node_summary_get_n_processes (MgNodeSummary *self)
{
  return self->n_processes;
}

const MgRecordHeader *
mg_node_summary_get_header (MgNodeSummary *self, guint i)
{
  g_return_val_if_fail (i < self->n_processes, NULL);
  return &self->headers[i];
}

char *
mg_node_summary_file_name (const char *host)
{
  g_autofree char *safe = g_strdup (host);

  /* Host names hold no slash, but a record's host is only bytes. */
  g_strdelimit (safe, "/", '_');
  return g_strconcat (safe, MG_NODE_SUMMARY_SUFFIX, NULL);
}

/* --- Errors, each naming the file --- */

gboolean
mg_node_damaged (GError **error, const char *path, const char *format, ...)
{
  g_autofree char *name = g_filename_display_name (path);
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID,
               _("The node summary “%s” is damaged or not a Metrograph node summary: %s."),
               name, what);
  return FALSE;
}

gboolean
mg_node_io_error (GError **error, int saved, const char *path, MgNodeSummaryStep step)
{
  g_autofree char *name = g_filename_display_name (path);
  GFileError code = g_file_error_from_errno (saved);

  if (step == MG_NODE_ON_OPEN)
    g_set_error (error, G_FILE_ERROR, code, _("Could not open the node summary “%s”: %s"), name,
                 g_strerror (saved));
  else if (step == MG_NODE_ON_READ)
    g_set_error (error, G_FILE_ERROR, code, _("Could not read the node summary “%s”: %s"), name,
                 g_strerror (saved));
  else
    g_set_error (error, G_FILE_ERROR, code, _("Could not write the node summary “%s”: %s"),
                 name, g_strerror (saved));
  return FALSE;
}

gboolean
mg_node_read_exactly (int fd, void *buf, gsize len, guint64 offset, const char *path,
                      GError **error)
{
  if (mg_pread_full (fd, buf, len, offset) == len)
    return TRUE;
  if (errno != 0)
    return mg_node_io_error (error, errno, path, MG_NODE_ON_READ);
  return mg_node_damaged (error, path, "%s", _("it ends early (changed while being read?)"));
}

/* FALSE when the bytes do not fit the field with its NUL. */
static gboolean
copy_bytes (GVariant *v, char *field, gsize size)
{
  gsize n;
  const char *data = g_variant_get_fixed_array (v, &n, 1);

  if (n >= size)
    return FALSE;
  if (n > 0) /* an empty array's data is NULL */
    memcpy (field, data, n);
  field[n] = '\0';
  return TRUE;
}

/* The header of a process of the index, its layout made from the counts,
 * and checked by the record's own rules; NULL: what is wrong. */
static const char *
header_from_variant (GVariant *process, MgRecordHeader *h)
{
  g_autoptr (GVariant) facts = g_variant_get_child_value (process, 0);
  g_autoptr (GVariant) plugins = g_variant_get_child_value (process, 1);
  g_autoptr (GVariant) metrics = g_variant_get_child_value (process, 2);
  g_autoptr (GVariant) host = NULL, program = NULL, run_id = NULL, record_error = NULL;
  gint32 pid, ppid, rank, end_status, record_error_code, world_size;
  guint32 flags, state, capacity, n_samples;
  gint64 start_mono, start_real, end_mono;
  guint64 interval_start, interval, n_merges;
  MgRecordProblem problem;

  g_variant_get_child (process, 3, "u", &n_samples);
  g_variant_get (facts, "(iiiu@ay@ay@ayxxxuittuti@ayi)", &pid, &ppid, &rank, &flags, &host,
                 &program, &run_id, &start_mono, &start_real, &end_mono, &state, &end_status,
                 &interval_start, &interval, &capacity, &n_merges, &record_error_code,
                 &record_error, &world_size);
  if (g_variant_n_children (plugins) > MG_RECORD_MAX_PLUGINS
      || g_variant_n_children (metrics) > MG_RECORD_MAX_METRICS
      || capacity > MG_RECORD_MAX_CAPACITY)
    return mg_record_problem_text (MG_RECORD_IMPLAUSIBLE_COUNTS);
  mg_record_header_init (h, (guint32) g_variant_n_children (plugins),
                         (guint32) g_variant_n_children (metrics), capacity);
  if (!copy_bytes (host, h->host, sizeof h->host)
      || !copy_bytes (program, h->program, sizeof h->program)
      || !copy_bytes (run_id, h->run_id, sizeof h->run_id)
      || !copy_bytes (record_error, h->record_error, sizeof h->record_error))
    return mg_record_problem_text (MG_RECORD_UNTERMINATED_HEADER);
  h->pid = pid;
  h->ppid = ppid;
  h->rank = rank;
  h->flags = flags;
  h->start_mono_ns = start_mono;
  h->start_real_ns = start_real;
  h->end_mono_ns = end_mono;
  h->state = state;
  h->end_status = end_status;
  h->interval_start_ns = interval_start;
  h->interval_ns = interval;
  h->n_samples = n_samples;
  h->n_merges = n_merges;
  h->record_error_code = record_error_code;
  h->world_size = world_size;
  problem = mg_record_check_header (h, h->file_size);
  return problem == MG_RECORD_OK ? NULL : mg_record_problem_text (problem);
}

/* Every process of the index: its header, and where its block lies (the
 * blocks follow the index back to back up to the end of the file). */
static gboolean
read_processes (MgNodeSummary *self, guint64 blocks_at, guint64 file_size, GError **error)
{
  g_autoptr (GVariant) processes = g_variant_get_child_value (self->index, 1);
  guint64 at = blocks_at;

  self->n_processes = (guint) MIN (g_variant_n_children (processes), G_MAXUINT);
  self->headers = g_new0 (MgRecordHeader, MAX (self->n_processes, 1));
  self->offsets = g_new0 (guint64, MAX (self->n_processes, 1));
  self->sizes = g_new0 (guint64, MAX (self->n_processes, 1));
  self->stack_sizes = g_new0 (guint64, MAX (self->n_processes, 1));
  for (guint i = 0; i < self->n_processes; i++)
    {
      g_autoptr (GVariant) process = g_variant_get_child_value (processes, i);
      g_autofree guint8 *reported = NULL;
      const char *problem = header_from_variant (process, &self->headers[i]);
      guint32 n;
      guint64 size, stack_size = 0;

      if (problem != NULL)
        return mg_node_damaged (error, self->path, _("process %u: %s"), i + 1, problem);
      g_variant_get_child (process, 3, "u", &n);
      g_variant_get_child (process, 4, "t", &size);
      if (self->version > MG_NODE_VERSION_NO_STACKS)
        g_variant_get_child (process, 5, "t", &stack_size);
      reported = g_malloc (mg_node_n_parts (self->headers[i].n_metrics));
      memset (reported, 1, mg_node_n_parts (self->headers[i].n_metrics));
      if (size > file_size - at
          || !mg_process_block_plausible (size, n, mg_node_n_parts (self->headers[i].n_metrics),
                                          reported))
        return mg_node_damaged (error, self->path, _("process %u: its samples do not fit the file"),
                        i + 1);
      if (stack_size > file_size - at - size)
        return mg_node_damaged (error, self->path,
                                _("process %u: its call stacks do not fit the file"), i + 1);
      self->offsets[i] = at;
      self->sizes[i] = size;
      self->stack_sizes[i] = stack_size;
      at += size + stack_size;
    }
  if (at != file_size)
    return mg_node_damaged (error, self->path, "%s", _("bytes after its last process"));
  return TRUE;
}

static gboolean
read_index (MgNodeSummary *self, int fd, guint64 file_size, GError **error)
{
  guint8 header[MG_NODE_HEADER_LEN];
  guint32 version, crc;
  guint64 length;
  g_autofree guint8 *index = NULL;
  g_autoptr (GBytes) bytes = NULL;

  if (file_size < MG_NODE_MAGIC_LEN)
    return mg_node_damaged (error, self->path, "%s", _("too short"));
  if (!mg_node_read_exactly (fd, header, MIN (file_size, MG_NODE_HEADER_LEN), 0, self->path, error))
    return FALSE;
  if (memcmp (header, MG_NODE_MAGIC, MG_NODE_MAGIC_LEN) != 0)
    return mg_node_damaged (error, self->path, "%s", _("wrong magic"));
  if (file_size < MG_NODE_HEADER_LEN)
    return mg_node_damaged (error, self->path, "%s", _("shorter than its header"));
  memcpy (&version, header + 8, 4);
  memcpy (&crc, header + 12, 4);
  memcpy (&length, header + 16, 8);
  version = GUINT32_FROM_LE (version);
  if (version != MG_NODE_VERSION && version != MG_NODE_VERSION_STACKS
      && version != MG_NODE_VERSION_NO_STACKS)
    {
      g_autofree char *name = g_filename_display_name (self->path);

      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_VERSION,
                   _("The node summary “%s” has format version %u; this Metrograph reads "
                     "version %u. Merge the node with the same Metrograph as the front end."),
                   name, version, MG_NODE_VERSION);
      return FALSE;
    }
  self->version = version;
  length = GUINT64_FROM_LE (length);
  if (length > file_size - MG_NODE_HEADER_LEN)
    {
      g_autofree char *name = g_filename_display_name (self->path);

      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The node summary “%s” is truncated: its index needs %llu bytes, %llu "
                     "are there."), name, (unsigned long long) length,
                   (unsigned long long) (file_size - MG_NODE_HEADER_LEN));
      return FALSE;
    }
  index = g_malloc (MAX (length, 1));
  if (!mg_node_read_exactly (fd, index, length, MG_NODE_HEADER_LEN, self->path, error))
    return FALSE;
  if (mg_crc32_update (0, index, length) != GUINT32_FROM_LE (crc))
    return mg_node_damaged (error, self->path, "%s", _("its index does not match its CRC"));
  bytes = g_bytes_new_take (g_steal_pointer (&index), length);
  self->index = g_variant_ref_sink (g_variant_new_from_bytes (
    G_VARIANT_TYPE (version != MG_NODE_VERSION_NO_STACKS ? MG_NODE_INDEX_TYPE
                                                       : MG_NODE_INDEX_TYPE_1),
    bytes, FALSE));
  if (!g_variant_is_normal_form (self->index))
    return mg_node_damaged (error, self->path, "%s", _("its index is not in normal form"));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (self->index);

      g_variant_unref (self->index);
      self->index = swapped;
    }
  return read_processes (self, MG_NODE_HEADER_LEN + length, file_size, error);
}

MgNodeSummary *
mg_node_summary_open (const char *path, GError **error)
{
  g_autoptr (MgNodeSummary) self = g_new0 (MgNodeSummary, 1);
  struct stat st;
  int fd;
  gboolean ok;

  self->ref_count = 1;
  self->path = g_strdup (path);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      mg_node_io_error (error, errno, path, MG_NODE_ON_OPEN);
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    ok = mg_node_io_error (error, errno, path, MG_NODE_ON_READ);
  else if (!S_ISREG (st.st_mode))
    ok = mg_node_damaged (error, path, "%s", _("not a regular file"));
  else
    ok = read_index (self, fd, (guint64) st.st_size, error);
  close (fd);
  return ok ? g_steal_pointer (&self) : NULL;
}

/* --- Slots in a block --- */

static guint64
get_integer (const double *row, gsize k)
{
  guint64 v;

  memcpy (&v, &row[k], sizeof v);
  return v;
}

/* The decoded parts back into the record's slots. */
static void
fill_slots (MgRecordFile *r, const double *times, const double *values)
{
  gsize n = r->n_samples;

  for (gsize k = 0; k < n; k++)
    {
      MgRecordSample *s = (MgRecordSample *) (r->slots + k * r->stride);
      MgRecordValue *v = (MgRecordValue *) (s + 1);

      s->t_end_ns = (gint64) get_integer (times, k);
      s->t_start_ns = (gint64) get_integer (values + MG_NODE_PART_STARTS * 3 * n, k);
      s->n_raw = (guint32) get_integer (values + MG_NODE_PART_N_RAW * 3 * n, k);
      for (guint i = 0; i < r->header.n_metrics; i++)
        {
          const double *rows = values + (MG_NODE_PART_FIRST_METRIC + 2 * (gsize) i) * 3 * n;
          const double *counts = rows + 3 * n;

          v[i].min = rows[k];
          v[i].max = rows[n + k];
          v[i].mean = rows[2 * n + k];
          v[i].count = (guint32) get_integer (counts, k);
        }
    }
}

static char *
string_of (GVariant *tuple, gsize i, char *field, gsize size)
{
  g_autoptr (GVariant) v = g_variant_get_child_value (tuple, i);

  return copy_bytes (v, field, size) ? field : NULL;
}

/* The plugin and metric tables of process i; what is wrong, or NULL. */
static const char *
read_tables (MgRecordFile *r, GVariant *process)
{
  g_autoptr (GVariant) plugins = g_variant_get_child_value (process, 1);
  g_autoptr (GVariant) metrics = g_variant_get_child_value (process, 2);
  MgRecordProblem problem = MG_RECORD_OK;

  r->plugins = g_new0 (MgRecordPlugin, MAX (r->header.n_plugins, 1));
  r->metrics = g_new0 (MgRecordMetric, MAX (r->header.n_metrics, 1));
  for (guint i = 0; i < r->header.n_plugins && problem == MG_RECORD_OK; i++)
    {
      g_autoptr (GVariant) v = g_variant_get_child_value (plugins, i);
      MgRecordPlugin *p = &r->plugins[i];

      g_variant_get_child (v, 2, "u", &p->state);
      g_variant_get_child (v, 3, "i", &p->error_code);
      if (string_of (v, 0, p->source_id, sizeof p->source_id) == NULL
          || string_of (v, 1, p->library, sizeof p->library) == NULL
          || string_of (v, 4, p->error, sizeof p->error) == NULL)
        problem = MG_RECORD_UNTERMINATED_PLUGIN;
      else
        problem = mg_record_check_plugin (p);
    }
  for (guint i = 0; i < r->header.n_metrics && problem == MG_RECORD_OK; i++)
    {
      g_autoptr (GVariant) v = g_variant_get_child_value (metrics, i);
      MgRecordMetric *m = &r->metrics[i];
      gint64 first, last;

      g_variant_get (v, "(@ayuuuiuuxx@ay)", NULL, &m->plan_index, &m->plugin_index, &m->flags,
                     &m->error_code, &m->error_count, &m->call_since_ms, &first, &last, NULL);
      m->first_error_ns = first;
      m->last_error_ns = last;
      if (string_of (v, 0, m->id, sizeof m->id) == NULL
          || string_of (v, 9, m->error, sizeof m->error) == NULL)
        problem = MG_RECORD_UNTERMINATED_METRIC;
      else
        problem = mg_record_check_metric (m, r->header.n_plugins);
    }
  return problem == MG_RECORD_OK ? NULL : mg_record_problem_text (problem);
}

/* The block of process i, read and decoded into the record's slots. */
static gboolean
read_slots (MgNodeSummary *self, guint i, MgRecordFile *r, GError **error)
{
  gsize n = r->n_samples, size = self->sizes[i];
  guint parts_n = mg_node_n_parts (r->header.n_metrics);
  g_autofree guint8 *block = g_malloc (MAX (size, 1));
  g_autofree guint8 *reported = g_malloc (parts_n);
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree double *values = g_new (double, MAX ((gsize) parts_n * 3 * n, 1));
  int fd = open (self->path, O_RDONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return mg_node_io_error (error, errno, self->path, MG_NODE_ON_OPEN);
  ok = mg_node_read_exactly (fd, block, size, self->offsets[i], self->path, error);
  close (fd);
  if (!ok)
    return FALSE;
  memset (reported, 1, parts_n);
  if (!mg_process_block_decode (block, size, n, parts_n, reported, times, values))
    return mg_node_damaged (error, self->path, _("the samples of process %u (pid %d) do not match "
                                         "their CRC or their counts (changed on disk?)"),
                    i + 1, r->header.pid);
  r->slots = g_malloc0 (MAX (n * r->stride, 1));
  fill_slots (r, times, values);
  for (gsize k = 0; k < n; k++)
    if (mg_record_check_sample (mg_record_file_get_sample (r, (guint) k)) != MG_RECORD_OK)
      return mg_node_damaged (error, self->path, _("process %u (pid %d): %s"), i + 1, r->header.pid,
                      mg_record_problem_text (MG_RECORD_BAD_SAMPLE_TIMES));
  return TRUE;
}

/* The stacks after process i's block, as its record's section. */
static gboolean
read_stacks (MgNodeSummary *self, guint i, MgRecordFile *r, GError **error)
{
  gsize size = self->stack_sizes[i];
  g_autofree guint8 *data = NULL;
  int fd;
  gboolean ok;

  if (size == 0)
    return TRUE;
  data = g_malloc (size);
  fd = open (self->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return mg_node_io_error (error, errno, self->path, MG_NODE_ON_OPEN);
  ok = mg_node_read_exactly (fd, data, size, self->offsets[i] + self->sizes[i], self->path,
                             error);
  close (fd);
  return ok && mg_node_stacks_decode (data, size, r, self->path, i, error);
}

MgRecordFile *
mg_node_summary_read_process (MgNodeSummary *self, guint i, GError **error)
{
  g_autoptr (GVariant) processes = NULL;
  g_autoptr (GVariant) process = NULL;
  g_autoptr (MgRecordFile) r = NULL;
  const char *problem;

  g_return_val_if_fail (i < self->n_processes, NULL);
  processes = g_variant_get_child_value (self->index, 1);
  process = g_variant_get_child_value (processes, i);
  r = g_new0 (MgRecordFile, 1);
  r->path = g_strdup (self->path);
  r->header = self->headers[i];
  r->stride = r->header.sample_stride;
  r->n_samples = r->header.n_samples;
  if ((problem = read_tables (r, process)) != NULL)
    {
      mg_node_damaged (error, self->path, _("process %u (pid %d): %s"), i + 1, r->header.pid,
                       problem);
      return NULL;
    }
  if (!read_slots (self, i, r, error) || !read_stacks (self, i, r, error))
    return NULL;
  return g_steal_pointer (&r);
}

