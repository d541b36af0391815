/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node's records in one file (docs/node-summary.md): a 24-byte header,
 * an index (one GVariant: every process's record facts and tables, with
 * the size of its block) under one CRC, then each process's slots as a
 * process block (mg-process-block.c) carrying its own CRC. The index is
 * read when the summary is opened; a block only when its process is
 * merged, so that the merge holds a few processes' slots at a time. */
#include "mg-config.h"

#include "mg-node-summary.h"

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
#include "mg-record-folder.h"

#define NODE_MAGIC "MGNODE\r\n"
#define NODE_MAGIC_LEN 8
#define NODE_VERSION 1u
#define NODE_HEADER_LEN 24

/* A record's header fields that are not its layout (which follows from the
 * counts), its plugin and metric tables; strings as bytes (a record's
 * strings need not be UTF-8). */
#define FACTS_TYPE "(iiiuayayayxxxuittutiayi)"
#define PLUGIN_TYPE "(ayayuiay)"
#define METRIC_TYPE "(ayuuuiuuxxay)"
/* Facts, plugins, metrics, number of slots, size of the block. */
#define PROCESS_TYPE "(" FACTS_TYPE "a" PLUGIN_TYPE "a" METRIC_TYPE "ut)"
/* The node's host, its processes. */
#define INDEX_TYPE "(aya" PROCESS_TYPE ")"

/* A block's parts besides the times (each slot's end): the slots' starts,
 * their raw sample counts, then per record metric its [min, max, mean] rows
 * and its counts. Integers travel as their bit patterns, which the block
 * keeps exactly. */
enum { PART_STARTS, PART_N_RAW, PART_FIRST_METRIC };

static guint
n_parts (guint n_metrics)
{
  return PART_FIRST_METRIC + 2 * n_metrics;
}

struct _MgNodeSummary {
  gint ref_count;
  char *path;
  GVariant *index;
  guint n_processes;
  MgRecordHeader *headers;
  guint64 *offsets;            /* of each block in the file */
  guint64 *sizes;
};

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

static gboolean
damaged (GError **error, const char *path, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
damaged (GError **error, const char *path, const char *format, ...)
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

typedef enum { ON_OPEN, ON_READ, ON_WRITE } Step;

static gboolean
io_error (GError **error, int saved, const char *path, Step step)
{
  g_autofree char *name = g_filename_display_name (path);
  GFileError code = g_file_error_from_errno (saved);

  if (step == ON_OPEN)
    g_set_error (error, G_FILE_ERROR, code, _("Could not open the node summary “%s”: %s"), name,
                 g_strerror (saved));
  else if (step == ON_READ)
    g_set_error (error, G_FILE_ERROR, code, _("Could not read the node summary “%s”: %s"), name,
                 g_strerror (saved));
  else
    g_set_error (error, G_FILE_ERROR, code, _("Could not write the node summary “%s”: %s"), name,
                 g_strerror (saved));
  return FALSE;
}

static gboolean
read_exactly (int fd, void *buf, gsize len, guint64 offset, const char *path, GError **error)
{
  if (mg_pread_full (fd, buf, len, offset) == len)
    return TRUE;
  if (errno != 0)
    return io_error (error, errno, path, ON_READ);
  return damaged (error, path, "%s", _("it ends early (changed while being read?)"));
}

/* --- Strings as bytes --- */

static GVariant *
bytes_of (const char *field, gsize size)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, field, strnlen (field, size), 1);
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

/* --- The index --- */

static GVariant *
facts_to_variant (const MgRecordHeader *h)
{
  return g_variant_new ("(iiiu@ay@ay@ayxxxuittuti@ayi)", h->pid, h->ppid, h->rank, h->flags,
                        bytes_of (h->host, sizeof h->host),
                        bytes_of (h->program, sizeof h->program),
                        bytes_of (h->run_id, sizeof h->run_id), (gint64) h->start_mono_ns,
                        (gint64) h->start_real_ns, (gint64) h->end_mono_ns, h->state,
                        h->end_status, (guint64) h->interval_start_ns, (guint64) h->interval_ns,
                        h->capacity, (guint64) h->n_merges, h->record_error_code,
                        bytes_of (h->record_error, sizeof h->record_error), h->world_size);
}

static GVariant *
plugin_to_variant (const MgRecordPlugin *p)
{
  return g_variant_new ("(@ay@ayui@ay)", bytes_of (p->source_id, sizeof p->source_id),
                        bytes_of (p->library, sizeof p->library), p->state, p->error_code,
                        bytes_of (p->error, sizeof p->error));
}

static GVariant *
metric_to_variant (const MgRecordMetric *m)
{
  return g_variant_new ("(@ayuuuiuuxx@ay)", bytes_of (m->id, sizeof m->id), m->plan_index,
                        m->plugin_index, m->flags, m->error_code, m->error_count,
                        m->call_since_ms, (gint64) m->first_error_ns, (gint64) m->last_error_ns,
                        bytes_of (m->error, sizeof m->error));
}

static GVariant *
process_to_variant (const MgRecordFile *r, gsize block_size)
{
  g_autoptr (GVariantBuilder) plugins = g_variant_builder_new (G_VARIANT_TYPE ("a" PLUGIN_TYPE));
  g_autoptr (GVariantBuilder) metrics = g_variant_builder_new (G_VARIANT_TYPE ("a" METRIC_TYPE));
  MgRecordHeader h = r->header;

  for (guint i = 0; i < r->header.n_plugins; i++)
    g_variant_builder_add_value (plugins, plugin_to_variant (&r->plugins[i]));
  for (guint i = 0; i < r->header.n_metrics; i++)
    g_variant_builder_add_value (metrics, metric_to_variant (&r->metrics[i]));
  h.n_samples = r->n_samples;
  return g_variant_new ("(@" FACTS_TYPE "@a" PLUGIN_TYPE "@a" METRIC_TYPE "ut)",
                        facts_to_variant (&h), g_variant_builder_end (plugins),
                        g_variant_builder_end (metrics), r->n_samples, (guint64) block_size);
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
  guint64 interval_start, interval, n_merges, block_size;
  MgRecordProblem problem;

  g_variant_get (process, "(@" FACTS_TYPE "@a" PLUGIN_TYPE "@a" METRIC_TYPE "ut)", NULL, NULL,
                 NULL, &n_samples, &block_size);
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
  for (guint i = 0; i < self->n_processes; i++)
    {
      g_autoptr (GVariant) process = g_variant_get_child_value (processes, i);
      g_autofree guint8 *reported = NULL;
      const char *problem = header_from_variant (process, &self->headers[i]);
      guint32 n;
      guint64 size;

      if (problem != NULL)
        return damaged (error, self->path, _("process %u: %s"), i + 1, problem);
      g_variant_get_child (process, 3, "u", &n);
      g_variant_get_child (process, 4, "t", &size);
      reported = g_malloc (n_parts (self->headers[i].n_metrics));
      memset (reported, 1, n_parts (self->headers[i].n_metrics));
      if (size > file_size - at
          || !mg_process_block_plausible (size, n, n_parts (self->headers[i].n_metrics),
                                          reported))
        return damaged (error, self->path, _("process %u: its samples do not fit the file"),
                        i + 1);
      self->offsets[i] = at;
      self->sizes[i] = size;
      at += size;
    }
  if (at != file_size)
    return damaged (error, self->path, "%s", _("bytes after its last process"));
  return TRUE;
}

static gboolean
read_index (MgNodeSummary *self, int fd, guint64 file_size, GError **error)
{
  guint8 header[NODE_HEADER_LEN];
  guint32 version, crc;
  guint64 length;
  g_autofree guint8 *index = NULL;
  g_autoptr (GBytes) bytes = NULL;

  if (file_size < NODE_MAGIC_LEN)
    return damaged (error, self->path, "%s", _("too short"));
  if (!read_exactly (fd, header, MIN (file_size, NODE_HEADER_LEN), 0, self->path, error))
    return FALSE;
  if (memcmp (header, NODE_MAGIC, NODE_MAGIC_LEN) != 0)
    return damaged (error, self->path, "%s", _("wrong magic"));
  if (file_size < NODE_HEADER_LEN)
    return damaged (error, self->path, "%s", _("shorter than its header"));
  memcpy (&version, header + 8, 4);
  memcpy (&crc, header + 12, 4);
  memcpy (&length, header + 16, 8);
  version = GUINT32_FROM_LE (version);
  if (version != NODE_VERSION)
    {
      g_autofree char *name = g_filename_display_name (self->path);

      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_VERSION,
                   _("The node summary “%s” has format version %u; this Metrograph reads "
                     "version %u. Merge the node with the same Metrograph as the front end."),
                   name, version, NODE_VERSION);
      return FALSE;
    }
  length = GUINT64_FROM_LE (length);
  if (length > file_size - NODE_HEADER_LEN)
    {
      g_autofree char *name = g_filename_display_name (self->path);

      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The node summary “%s” is truncated: its index needs %llu bytes, %llu "
                     "are there."), name, (unsigned long long) length,
                   (unsigned long long) (file_size - NODE_HEADER_LEN));
      return FALSE;
    }
  index = g_malloc (MAX (length, 1));
  if (!read_exactly (fd, index, length, NODE_HEADER_LEN, self->path, error))
    return FALSE;
  if (mg_crc32_update (0, index, length) != GUINT32_FROM_LE (crc))
    return damaged (error, self->path, "%s", _("its index does not match its CRC"));
  bytes = g_bytes_new_take (g_steal_pointer (&index), length);
  self->index = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (INDEX_TYPE),
                                                              bytes, FALSE));
  if (!g_variant_is_normal_form (self->index))
    return damaged (error, self->path, "%s", _("its index is not in normal form"));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (self->index);

      g_variant_unref (self->index);
      self->index = swapped;
    }
  return read_processes (self, NODE_HEADER_LEN + length, file_size, error);
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
      io_error (error, errno, path, ON_OPEN);
      return NULL;
    }
  if (fstat (fd, &st) != 0)
    ok = io_error (error, errno, path, ON_READ);
  else if (!S_ISREG (st.st_mode))
    ok = damaged (error, path, "%s", _("not a regular file"));
  else
    ok = read_index (self, fd, (guint64) st.st_size, error);
  close (fd);
  return ok ? g_steal_pointer (&self) : NULL;
}

/* --- Slots in a block --- */

static void
put_integer (double *row, gsize k, guint64 v)
{
  memcpy (&row[k], &v, sizeof v);
}

static guint64
get_integer (const double *row, gsize k)
{
  guint64 v;

  memcpy (&v, &row[k], sizeof v);
  return v;
}

/* Part p of the slots into rows[3 × n] ([mins, maxs, means]). */
static void
fill_part (const MgRecordFile *r, guint p, double *rows)
{
  gsize n = r->n_samples;

  for (gsize k = 0; k < n; k++)
    {
      const MgRecordSample *s = mg_record_file_get_sample (r, (guint) k);
      const MgRecordValue *v = mg_record_file_get_values (r, (guint) k);
      const MgRecordValue *value = p >= PART_FIRST_METRIC ? &v[(p - PART_FIRST_METRIC) / 2] : NULL;

      if (p == PART_STARTS)
        put_integer (rows, k, (guint64) s->t_start_ns);
      else if (p == PART_N_RAW)
        put_integer (rows, k, s->n_raw);
      else if ((p - PART_FIRST_METRIC) % 2 == 1)
        put_integer (rows, k, value->count);
      else
        {
          rows[k] = value->min;
          rows[n + k] = value->max;
          rows[2 * n + k] = value->mean;
          continue;
        }
      rows[n + k] = rows[2 * n + k] = rows[k];
    }
}

static GBytes *
encode_slots (const MgRecordFile *r)
{
  gsize n = r->n_samples;
  guint parts_n = n_parts (r->header.n_metrics);
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree double *rows = g_new (double, 3 * MAX (n, 1));
  g_autofree GBytes **parts = g_new0 (GBytes *, parts_n);
  g_autoptr (GBytes) times_part = NULL;
  GBytes *block;

  for (gsize k = 0; k < n; k++)
    put_integer (times, k, (guint64) mg_record_file_get_sample (r, (guint) k)->t_end_ns);
  times_part = mg_process_block_encode_times (n, times);
  for (guint p = 0; p < parts_n; p++)
    {
      fill_part (r, p, rows);
      /* Exact: a node summary is an intermediate of the profile. */
      parts[p] = mg_process_block_encode_metric (n, rows, MG_PROCESS_PRECISION_EXACT);
    }
  block = mg_process_block_join (times_part, parts, parts_n);
  for (guint p = 0; p < parts_n; p++)
    g_bytes_unref (parts[p]);
  return block;
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
      s->t_start_ns = (gint64) get_integer (values + PART_STARTS * 3 * n, k);
      s->n_raw = (guint32) get_integer (values + PART_N_RAW * 3 * n, k);
      for (guint i = 0; i < r->header.n_metrics; i++)
        {
          const double *rows = values + (PART_FIRST_METRIC + 2 * (gsize) i) * 3 * n;
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
  guint parts_n = n_parts (r->header.n_metrics);
  g_autofree guint8 *block = g_malloc (MAX (size, 1));
  g_autofree guint8 *reported = g_malloc (parts_n);
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree double *values = g_new (double, MAX ((gsize) parts_n * 3 * n, 1));
  int fd = open (self->path, O_RDONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return io_error (error, errno, self->path, ON_OPEN);
  ok = read_exactly (fd, block, size, self->offsets[i], self->path, error);
  close (fd);
  if (!ok)
    return FALSE;
  memset (reported, 1, parts_n);
  if (!mg_process_block_decode (block, size, n, parts_n, reported, times, values))
    return damaged (error, self->path, _("the samples of process %u (pid %d) do not match "
                                         "their CRC or their counts (changed on disk?)"),
                    i + 1, r->header.pid);
  r->slots = g_malloc0 (MAX (n * r->stride, 1));
  fill_slots (r, times, values);
  for (gsize k = 0; k < n; k++)
    if (mg_record_check_sample (mg_record_file_get_sample (r, (guint) k)) != MG_RECORD_OK)
      return damaged (error, self->path, _("process %u (pid %d): %s"), i + 1, r->header.pid,
                      mg_record_problem_text (MG_RECORD_BAD_SAMPLE_TIMES));
  return TRUE;
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
      damaged (error, self->path, _("process %u (pid %d): %s"), i + 1, r->header.pid, problem);
      return NULL;
    }
  if (!read_slots (self, i, r, error))
    return NULL;
  return g_steal_pointer (&r);
}

/* --- Writing --- */

/* What goes into a new summary: each process's index entry and block. */
typedef struct {
  GPtrArray *entries;          /* GVariant*, floating refs sunk */
  GPtrArray *blocks;           /* GBytes* */
  GPtrArray *taken;            /* char*: the records to remove once written */
} NodeWriter;

static void
writer_clear (NodeWriter *w)
{
  g_clear_pointer (&w->entries, g_ptr_array_unref);
  g_clear_pointer (&w->blocks, g_ptr_array_unref);
  g_clear_pointer (&w->taken, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NodeWriter, writer_clear)

static void
writer_add (NodeWriter *w, GVariant *entry, GBytes *block)
{
  g_ptr_array_add (w->entries, g_variant_ref_sink (entry));
  g_ptr_array_add (w->blocks, block);
}

/* A record's process still runs on this host: its record is not done.
 * A copy taken at MPI_Finalize (TRANSFERRED) never changes, whatever its
 * process does next. */
static gboolean
still_running (const MgRecordHeader *h)
{
  char host[MG_RECORD_HOST_LEN + 1] = "";

  if (h->state != MG_RECORD_STATE_RUNNING || (h->flags & MG_RECORD_FLAG_TRANSFERRED) || gethostname (host, sizeof host - 1) != 0
      || strncmp (h->host, host, MG_RECORD_HOST_LEN) != 0)
    return FALSE;
  return kill (h->pid, 0) == 0 || errno == EPERM;
}

/* The records of host in record_dir, in name order, into w. */
static gboolean
take_records (NodeWriter *w, const char *record_dir, const char *host,
              MgNodeSummaryStats *stats, GError **error)
{
  g_autoptr (GPtrArray) names = mg_record_folder_list (record_dir, MG_RECORD_FOLDER_RECORDS, error);

  if (names == NULL)
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (record_dir, g_ptr_array_index (names, i), NULL);
      g_autoptr (MgRecordFile) r = NULL;
      MgRecordHeader h;
      GBytes *block;

      if (!mg_record_file_read_header (path, &h, NULL))
        {
          stats->n_damaged++;
          continue;
        }
      if (strncmp (h.host, host, sizeof h.host) != 0)
        continue;
      if (still_running (&h))
        {
          stats->n_running++;
          continue;
        }
      r = mg_record_file_read (path, NULL);
      if (r == NULL)
        {
          stats->n_damaged++;
          continue;
        }
      block = encode_slots (r);
      writer_add (w, process_to_variant (r, g_bytes_get_size (block)), block);
      g_ptr_array_add (w->taken, g_steal_pointer (&path));
      stats->n_records++;
    }
  return TRUE;
}

/* Whether the records taken already hold the process (same pid and start):
 * a record whose removal failed after an earlier summary was written. */
static gboolean
taken_again (NodeWriter *w, guint n_new, const MgRecordHeader *h)
{
  for (guint i = 0; i < n_new; i++)
    {
      g_autoptr (GVariant) facts = g_variant_get_child_value (g_ptr_array_index (w->entries, i), 0);
      gint32 pid;
      gint64 start;

      g_variant_get_child (facts, 0, "i", &pid);
      g_variant_get_child (facts, 7, "x", &start);
      if (pid == h->pid && start == h->start_mono_ns)
        return TRUE;
    }
  return FALSE;
}

/* The processes of the node's earlier summary, blocks as they are. */
static gboolean
keep_earlier (NodeWriter *w, const char *path, MgNodeSummaryStats *stats, GError **error)
{
  g_autoptr (MgNodeSummary) earlier = NULL;
  g_autoptr (GVariant) processes = NULL;
  guint n_new = w->entries->len;
  int fd;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  earlier = mg_node_summary_open (path, error);
  if (earlier == NULL)
    return FALSE;
  processes = g_variant_get_child_value (earlier->index, 1);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return io_error (error, errno, path, ON_OPEN);
  for (guint i = 0; i < earlier->n_processes; i++)
    {
      guint8 *block;

      if (taken_again (w, n_new, &earlier->headers[i]))
        continue;
      block = g_malloc (MAX (earlier->sizes[i], 1));
      if (!read_exactly (fd, block, earlier->sizes[i], earlier->offsets[i], path, error)
          || !mg_process_block_check (block, earlier->sizes[i]))
        {
          g_free (block);
          close (fd);
          if (error != NULL && *error == NULL)
            damaged (error, path, _("the samples of process %u do not match their CRC"), i + 1);
          return FALSE;
        }
      writer_add (w, g_variant_get_child_value (processes, i),
                  g_bytes_new_take (block, earlier->sizes[i]));
      stats->n_kept++;
    }
  close (fd);
  return TRUE;
}

static gboolean
write_all (int fd, const void *data, gsize len, const char *path, GError **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      gssize n = write (fd, p, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return io_error (error, errno, path, ON_WRITE);
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
write_summary (NodeWriter *w, const char *host, const char *path, GError **error)
{
  g_autoptr (GVariantBuilder) processes = g_variant_builder_new (G_VARIANT_TYPE ("a" PROCESS_TYPE));
  g_autoptr (GVariant) index = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  guint8 header[NODE_HEADER_LEN] = NODE_MAGIC;
  guint32 version = GUINT32_TO_LE (NODE_VERSION), crc;
  guint64 length;
  gboolean ok;
  int fd;

  for (guint i = 0; i < w->entries->len; i++)
    g_variant_builder_add_value (processes, g_ptr_array_index (w->entries, i));
  index = g_variant_ref_sink (g_variant_new ("(@ay@a" PROCESS_TYPE ")",
                                             bytes_of (host, strlen (host) + 1),
                                             g_variant_builder_end (processes)));
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (index);

      g_variant_unref (index);
      index = swapped;
    }
  bytes = g_variant_get_data_as_bytes (index);
  length = GUINT64_TO_LE ((guint64) g_bytes_get_size (bytes));
  crc = GUINT32_TO_LE (mg_crc32_update (0, g_bytes_get_data (bytes, NULL),
                                        g_bytes_get_size (bytes)));
  memcpy (header + 8, &version, 4);
  memcpy (header + 12, &crc, 4);
  memcpy (header + 16, &length, 8);

  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return io_error (error, errno, path, ON_WRITE);
  ok = write_all (fd, header, sizeof header, path, error)
       && write_all (fd, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), path, error);
  for (guint i = 0; ok && i < w->blocks->len; i++)
    {
      GBytes *block = g_ptr_array_index (w->blocks, i);

      ok = write_all (fd, g_bytes_get_data (block, NULL), g_bytes_get_size (block), path, error);
    }
  /* On disk before it replaces anything, and before the records go. */
  if (ok && fsync (fd) != 0)
    ok = io_error (error, errno, path, ON_WRITE);
  close (fd);
  if (ok && g_rename (tmp, path) != 0)
    ok = io_error (error, errno, path, ON_WRITE);
  if (!ok)
    g_unlink (tmp);
  return ok;
}

/* The rename itself on disk too, so that the records' removal cannot
 * outlive it after a crash. */
static void
sync_folder (const char *folder)
{
  int fd = open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
}

/* One reduction of a folder at a time (every rank of a node may run one
 * as it ends): a lock on the folder itself, held until closed. Where the
 * filesystem has no such lock, reductions are not guarded (-1 is fine). */
static int
lock_folder (const char *folder)
{
  int fd = open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  while (fd >= 0 && flock (fd, LOCK_EX) != 0 && errno == EINTR)
    ;
  return fd;
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
}

gboolean
mg_node_summary_merge (const char *record_dir, const char *host, MgNodeSummaryStats *stats,
                       GError **error)
{
  /* Held until return: merges of one folder take turns. */
  __attribute__ ((cleanup (close_fd), unused)) int lock = lock_folder (record_dir);
  g_auto (NodeWriter) w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref),
                            g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
                            g_ptr_array_new_with_free_func (g_free) };
  g_autofree char *name = mg_node_summary_file_name (host);
  g_autofree char *path = g_build_filename (record_dir, name, NULL);
  MgNodeSummaryStats local = { 0 };

  g_return_val_if_fail (record_dir != NULL && host != NULL, FALSE);
  if (stats == NULL)
    stats = &local;
  *stats = (MgNodeSummaryStats) { 0 };
  if (!take_records (&w, record_dir, host, stats, error))
    return FALSE;
  if (stats->n_records == 0)
    return TRUE;
  if (!keep_earlier (&w, path, stats, error) || !write_summary (&w, host, path, error))
    return FALSE;
  sync_folder (record_dir);
  for (guint i = 0; i < w.taken->len; i++)
    g_unlink (g_ptr_array_index (w.taken, i));
  return TRUE;
}
