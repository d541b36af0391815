/* Reading a sampler record: only the header, the tables and the committed
 * slots are read (not the unused capacity), each checked against the file. */
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mg-record-reader.h"

G_DEFINE_QUARK (mg-record-error-quark, mg_record_error)

/* Generous limits that no real plan reaches; they bound what a damaged
 * header can make us allocate. */
enum { MAX_PLUGINS = 4096, MAX_METRICS = 65536, MAX_CAPACITY = 1 << 24, MAX_TRIES = 200 };

void
mg_record_file_free (MgRecordFile *record)
{
  if (record == NULL)
    return;
  g_free (record->path);
  g_free (record->plugins);
  g_free (record->metrics);
  g_free (record->slots);
  g_free (record);
}

const MgRecordSample *
mg_record_file_get_sample (const MgRecordFile *record, guint i)
{
  g_return_val_if_fail (i < record->n_samples, NULL);
  return (const MgRecordSample *) (record->slots + (gsize) i * record->stride);
}

const MgRecordValue *
mg_record_file_get_values (const MgRecordFile *record, guint i)
{
  g_return_val_if_fail (i < record->n_samples, NULL);
  return (const MgRecordValue *) (record->slots + (gsize) i * record->stride
                                  + sizeof (MgRecordSample));
}

static gboolean
invalid (GError **error, const char *path, const char *what)
{
  g_autofree char *name = g_filename_display_name (path);

  g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID,
               _("The record “%s” is damaged or not a Metrograph record: %s."), name, what);
  return FALSE;
}

static gboolean
read_at (int fd, void *buf, gsize len, guint64 offset, const char *path, GError **error)
{
  guchar *p = buf;

  while (len > 0)
    {
      gssize n = pread (fd, p, len, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_autofree char *name = g_filename_display_name (path);

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Could not read the record “%s”: %s"), name, g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        {
          g_autofree char *name = g_filename_display_name (path);

          g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                       _("The record “%s” is truncated."), name);
          return FALSE;
        }
      p += n;
      len -= n;
      offset += n;
    }
  return TRUE;
}

static gboolean
terminated (const char *s, gsize size)
{
  return memchr (s, '\0', size) != NULL;
}

/* Does [offset, offset + count × size) lie in [start, end)? No overflow. */
static gboolean
region_ok (guint64 offset, guint64 count, guint64 size, guint64 start, guint64 end)
{
  return offset >= start && offset <= end && count <= (end - offset) / MAX (size, 1);
}

static gboolean
check_header (const MgRecordHeader *h, guint64 actual_size, const char *path, GError **error)
{
  g_autofree char *name = g_filename_display_name (path);
  guint64 plugins_end, metrics_end;

  if (memcmp (h->magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) != 0)
    return invalid (error, path, "wrong magic");
  if (h->version != MG_RECORD_VERSION)
    {
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_VERSION,
                   _("The record “%s” has format version %u; this Metrograph reads version %u. "
                     "Use the same Metrograph for the run and the merge."),
                   name, h->version, MG_RECORD_VERSION);
      return FALSE;
    }
  if (h->header_size != sizeof (MgRecordHeader))
    return invalid (error, path, "wrong header size");
  if (h->file_size > actual_size)
    {
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The record “%s” is truncated: %llu of %llu bytes."), name,
                   (unsigned long long) actual_size, (unsigned long long) h->file_size);
      return FALSE;
    }
  if (h->n_plugins > MAX_PLUGINS || h->n_metrics > MAX_METRICS || h->capacity > MAX_CAPACITY)
    return invalid (error, path, "implausible counts");
  if (h->sample_stride != sizeof (MgRecordSample) + (guint64) h->n_metrics * sizeof (MgRecordValue))
    return invalid (error, path, "wrong sample size");
  if (!region_ok (h->plugins_offset, h->n_plugins, sizeof (MgRecordPlugin), h->header_size,
                  h->file_size))
    return invalid (error, path, "plugin table outside the file");
  plugins_end = h->plugins_offset + (guint64) h->n_plugins * sizeof (MgRecordPlugin);
  if (!region_ok (h->metrics_offset, h->n_metrics, sizeof (MgRecordMetric), plugins_end,
                  h->file_size))
    return invalid (error, path, "metric table outside the file");
  metrics_end = h->metrics_offset + (guint64) h->n_metrics * sizeof (MgRecordMetric);
  if (!region_ok (h->samples_offset, h->capacity, h->sample_stride, metrics_end, h->file_size))
    return invalid (error, path, "sample slots outside the file");
  if (h->n_samples > h->capacity)
    return invalid (error, path, "more samples than slots");
  if (!terminated (h->host, sizeof h->host) || !terminated (h->program, sizeof h->program)
      || !terminated (h->run_id, sizeof h->run_id)
      || !terminated (h->record_error, sizeof h->record_error))
    return invalid (error, path, "unterminated string in the header");
  if (h->state > MG_RECORD_STATE_EXECED)
    return invalid (error, path, "unknown process state");
  return TRUE;
}

static gboolean
check_tables (const MgRecordFile *r, GError **error)
{
  for (guint i = 0; i < r->header.n_plugins; i++)
    {
      const MgRecordPlugin *p = &r->plugins[i];

      if (!terminated (p->source_id, sizeof p->source_id)
          || !terminated (p->library, sizeof p->library) || !terminated (p->error, sizeof p->error))
        return invalid (error, r->path, "unterminated string in the plugin table");
      if (p->state > MG_PLUGIN_STATE_NOT_LEADER)
        return invalid (error, r->path, "unknown plugin state");
    }
  for (guint i = 0; i < r->header.n_metrics; i++)
    {
      const MgRecordMetric *m = &r->metrics[i];

      if (!terminated (m->id, sizeof m->id) || !terminated (m->error, sizeof m->error))
        return invalid (error, r->path, "unterminated string in the metric table");
      if (m->plugin_index >= r->header.n_plugins && r->header.n_plugins > 0)
        return invalid (error, r->path, "metric names a plugin that is not in the table");
    }
  return TRUE;
}

/* One attempt; *retry is set when a live writer got in the way. */
static MgRecordFile *
read_once (int fd, const char *path, guint64 actual_size, gboolean *retry, GError **error)
{
  g_autoptr(MgRecordFile) r = g_new0 (MgRecordFile, 1);
  MgRecordHeader *h = &r->header;
  guint32 seq_after;

  *retry = FALSE;
  r->path = g_strdup (path);
  if (actual_size < sizeof *h)
    {
      g_autofree char *name = g_filename_display_name (path);

      if (actual_size >= MG_RECORD_MAGIC_LEN)
        {
          char magic[MG_RECORD_MAGIC_LEN];

          if (!read_at (fd, magic, sizeof magic, 0, path, error))
            return NULL;
          if (memcmp (magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) != 0)
            {
              invalid (error, path, "wrong magic");
              return NULL;
            }
        }
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The record “%s” is truncated: %llu bytes, shorter than its header."),
                   name, (unsigned long long) actual_size);
      return NULL;
    }
  if (!read_at (fd, h, sizeof *h, 0, path, error))
    return NULL;
  if (!check_header (h, actual_size, path, error))
    return NULL;
  if (h->seq & 1)
    {
      *retry = TRUE;
      return NULL;
    }

  r->plugins = g_new0 (MgRecordPlugin, MAX (h->n_plugins, 1));
  r->metrics = g_new0 (MgRecordMetric, MAX (h->n_metrics, 1));
  r->stride = h->sample_stride;
  r->n_samples = h->n_samples;
  r->slots = g_malloc (MAX ((gsize) r->n_samples * r->stride, 1));
  if (!read_at (fd, r->plugins, (gsize) h->n_plugins * sizeof (MgRecordPlugin),
                h->plugins_offset, path, error)
      || !read_at (fd, r->metrics, (gsize) h->n_metrics * sizeof (MgRecordMetric),
                   h->metrics_offset, path, error)
      || !read_at (fd, r->slots, (gsize) r->n_samples * r->stride, h->samples_offset, path, error))
    return NULL;

  /* The seqlock: a rewrite during our copy means the slots may be mixed. */
  if (!read_at (fd, &seq_after, sizeof seq_after, G_STRUCT_OFFSET (MgRecordHeader, seq), path,
                error))
    return NULL;
  if (seq_after != h->seq)
    {
      *retry = TRUE;
      return NULL;
    }
  if (!check_tables (r, error))
    return NULL;
  return g_steal_pointer (&r);
}

gboolean
mg_record_file_read_header (const char *path, MgRecordHeader *header, GError **error)
{
  g_autoptr(MgRecordFile) r = NULL;
  struct stat st;
  int fd;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, FALSE);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;
      g_autofree char *name = g_filename_display_name (path);

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not open the record “%s”: %s"), name, g_strerror (saved));
      return FALSE;
    }
  if ((guint64) st.st_size < sizeof *header)
    {
      gboolean retry;

      /* read_once explains short files (foreign or truncated). */
      r = read_once (fd, path, (guint64) st.st_size, &retry, error);
    }
  else if (read_at (fd, header, sizeof *header, 0, path, error))
    ok = check_header (header, (guint64) st.st_size, path, error);
  close (fd);
  return ok;
}

MgRecordFile *
mg_record_file_read (const char *path, GError **error)
{
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;
      g_autofree char *name = g_filename_display_name (path);

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not open the record “%s”: %s"), name, g_strerror (saved));
      return NULL;
    }

  for (int attempt = 0; attempt < MAX_TRIES; attempt++)
    {
      gboolean retry;
      MgRecordFile *r = read_once (fd, path, (guint64) st.st_size, &retry, error);

      if (r != NULL || !retry)
        {
          close (fd);
          return r;
        }
      g_usleep (1000);
    }
  close (fd);
  {
    g_autofree char *name = g_filename_display_name (path);

    g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_BUSY,
                 _("The record “%s” kept changing while it was read; try again."), name);
  }
  return NULL;
}
