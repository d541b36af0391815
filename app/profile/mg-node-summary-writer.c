/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node's records reduced into its summary (mg_node_summary_merge): each
 * record's facts and tables into the index, its slots packed losslessly
 * into a block; the processes of the node's earlier summary kept as they
 * are. Written to a temporary file, synced and renamed over the old
 * summary before the records taken are removed. */
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mg-crc32.h"
#include "mg-node-summary-internal.h"
#include "mg-process-block.h"
#include "mg-record-folder.h"

/* --- Strings as bytes --- */

static GVariant *
bytes_of (const char *field, gsize size)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, field, strnlen (field, size), 1);
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
process_to_variant (const MgRecordFile *r, gsize block_size, gsize stacks_size)
{
  g_autoptr (GVariantBuilder) plugins =
    g_variant_builder_new (G_VARIANT_TYPE ("a" MG_NODE_PLUGIN_TYPE));
  g_autoptr (GVariantBuilder) metrics =
    g_variant_builder_new (G_VARIANT_TYPE ("a" MG_NODE_METRIC_TYPE));
  MgRecordHeader h = r->header;

  for (guint i = 0; i < r->header.n_plugins; i++)
    g_variant_builder_add_value (plugins, plugin_to_variant (&r->plugins[i]));
  for (guint i = 0; i < r->header.n_metrics; i++)
    g_variant_builder_add_value (metrics, metric_to_variant (&r->metrics[i]));
  h.n_samples = r->n_samples;
  return g_variant_new (MG_NODE_PROCESS_FORMAT, facts_to_variant (&h),
                        g_variant_builder_end (plugins), g_variant_builder_end (metrics),
                        r->n_samples, (guint64) block_size, (guint64) stacks_size);
}

static void
put_integer (double *row, gsize k, guint64 v)
{
  memcpy (&row[k], &v, sizeof v);
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
      const MgRecordValue *value =
        p >= MG_NODE_PART_FIRST_METRIC ? &v[(p - MG_NODE_PART_FIRST_METRIC) / 2] : NULL;

      if (p == MG_NODE_PART_STARTS)
        put_integer (rows, k, (guint64) s->t_start_ns);
      else if (p == MG_NODE_PART_N_RAW)
        put_integer (rows, k, s->n_raw);
      else if ((p - MG_NODE_PART_FIRST_METRIC) % 2 == 1)
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
  guint parts_n = mg_node_n_parts (r->header.n_metrics);
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

/* --- Writing --- */

/* What goes into a new summary: each process's index entry and block. */
typedef struct {
  GPtrArray *entries;          /* GVariant*, floating refs sunk */
  GPtrArray *blocks;           /* GBytes*: the block, then the stacks */
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

static GBytes *
join_bytes (GBytes *a, GBytes *b)
{
  gsize na = g_bytes_get_size (a), nb = g_bytes_get_size (b);
  guint8 *data = g_malloc (MAX (na + nb, 1));

  if (na > 0)
    memcpy (data, g_bytes_get_data (a, NULL), na);
  if (nb > 0)
    memcpy (data + na, g_bytes_get_data (b, NULL), nb);
  return g_bytes_new_take (data, na + nb);
}

/* An index entry of an earlier summary as this version's: one of version
 * 1 has no stacks. */
static GVariant *
entry_of (GVariant *process, guint version)
{
  if (version != MG_NODE_VERSION_NO_STACKS)
    return g_variant_ref (process);

  g_autoptr (GVariant) facts = g_variant_get_child_value (process, 0);
  g_autoptr (GVariant) plugins = g_variant_get_child_value (process, 1);
  g_autoptr (GVariant) metrics = g_variant_get_child_value (process, 2);
  guint32 n;
  guint64 size;

  g_variant_get_child (process, 3, "u", &n);
  g_variant_get_child (process, 4, "t", &size);
  return g_variant_ref_sink (g_variant_new (MG_NODE_PROCESS_FORMAT, facts, plugins, metrics, n,
                                            size, (guint64) 0));
}

/* A record's process still runs on this host: its record is not done.
 * A copy taken at MPI_Finalize (TRANSFERRED) never changes, whatever its
 * process does next. */
static gboolean
still_running (const MgRecordHeader *h)
{
  char host[MG_RECORD_HOST_LEN + 1] = "";

  if (h->state != MG_RECORD_STATE_RUNNING || (h->flags & MG_RECORD_FLAG_TRANSFERRED)
      || gethostname (host, sizeof host - 1) != 0
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
      g_autoptr (GBytes) slots = NULL;
      g_autoptr (GBytes) stacks = NULL;

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
      slots = encode_slots (r);
      stacks = mg_node_stacks_encode (r);
      writer_add (w, process_to_variant (r, g_bytes_get_size (slots), g_bytes_get_size (stacks)),
                  join_bytes (slots, stacks));
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
    return mg_node_io_error (error, errno, path, MG_NODE_ON_OPEN);
  for (guint i = 0; i < earlier->n_processes; i++)
    {
      guint64 size = earlier->sizes[i], stacks = earlier->stack_sizes[i];
      g_autoptr (GVariant) process = NULL;
      g_autoptr (GVariant) entry = NULL;
      guint8 *block;

      if (taken_again (w, n_new, &earlier->headers[i]))
        continue;
      block = g_malloc (MAX (size + stacks, 1));
      if (!mg_node_read_exactly (fd, block, size + stacks, earlier->offsets[i], path, error)
          || !mg_process_block_check (block, size)
          || !mg_node_stacks_check (block + size, stacks))
        {
          g_free (block);
          close (fd);
          if (error != NULL && *error == NULL)
            mg_node_damaged (error, path,
                                     _("the samples of process %u do not match their CRC"), i + 1);
          return FALSE;
        }
      process = g_variant_get_child_value (processes, i);
      entry = entry_of (process, earlier->version);
      writer_add (w, entry, g_bytes_new_take (block, size + stacks));
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
        return mg_node_io_error (error, errno, path, MG_NODE_ON_WRITE);
      p += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
write_summary (NodeWriter *w, const char *host, const char *path, GError **error)
{
  g_autoptr (GVariantBuilder) processes =
    g_variant_builder_new (G_VARIANT_TYPE ("a" MG_NODE_PROCESS_TYPE));
  g_autoptr (GVariant) index = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  guint8 header[MG_NODE_HEADER_LEN] = MG_NODE_MAGIC;
  guint32 version = GUINT32_TO_LE (MG_NODE_VERSION), crc;
  guint64 length;
  gboolean ok;
  int fd;

  for (guint i = 0; i < w->entries->len; i++)
    g_variant_builder_add_value (processes, g_ptr_array_index (w->entries, i));
  index = g_variant_ref_sink (g_variant_new ("(@ay@a" MG_NODE_PROCESS_TYPE ")",
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
    return mg_node_io_error (error, errno, path, MG_NODE_ON_WRITE);
  ok = write_all (fd, header, sizeof header, path, error)
       && write_all (fd, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), path, error);
  for (guint i = 0; ok && i < w->blocks->len; i++)
    {
      GBytes *block = g_ptr_array_index (w->blocks, i);

      ok = write_all (fd, g_bytes_get_data (block, NULL), g_bytes_get_size (block), path, error);
    }
  /* On disk before it replaces anything, and before the records go. */
  if (ok && fsync (fd) != 0)
    ok = mg_node_io_error (error, errno, path, MG_NODE_ON_WRITE);
  close (fd);
  if (ok && g_rename (tmp, path) != 0)
    ok = mg_node_io_error (error, errno, path, MG_NODE_ON_WRITE);
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
