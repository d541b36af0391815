/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading a sampler record: a GLib adapter over the format's reader
 * (format/mg-record-view.h), which checks what is read. A live record's
 * header, tables and committed slots are copied with pread (not the unused
 * capacity): it is rewritten under the reader, and the copy is what its
 * seqlock vouches for. An ended record has no writer left (its state is
 * set last, docs/record-format.md), so it is read whole, mapped read-only
 * (or, up to 256 kB, copied with one pread) and checked in place: the run's
 * final merge reads every record whole once. Records are made at their full size
 * and never shrunk; the header is checked against the file's size before
 * any byte past it is touched. */
/* SEEK_DATA */
#define _GNU_SOURCE
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mg-record-reader.h"
#include "format/mg-record-view.h"
#include "mg-pread.h"

G_DEFINE_QUARK (mg-record-error-quark, mg_record_error)

/* Attempts at a consistent copy of a live record (1 ms apart). */
enum { MAX_TRIES = 200 };

void
mg_record_file_free (MgRecordFile *record)
{
  if (record == NULL)
    return;
  g_free (record->path);
  if (record->mapped != NULL || record->whole != NULL)
    {
      if (record->mapped != NULL)
        g_mapped_file_unref (record->mapped);
      g_free (record->whole);
      g_free (record);
      return;
    }
  g_free (record->plugins);
  g_free (record->metrics);
  g_free (record->slots);
  g_free (record->stacks);
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
  g_autofree char *name = NULL;
  int saved;

  if (mg_pread_full (fd, buf, len, offset) == len)
    return TRUE;
  saved = errno;
  name = g_filename_display_name (path);
  if (saved != 0)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                 _("Could not read the record “%s”: %s"), name, g_strerror (saved));
  else
    g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                 _("The record “%s” is truncated."), name);
  return FALSE;
}

/* The format's problem as the app's error, naming the file. */
static gboolean
problem_error (MgRecordProblem problem, const MgRecordHeader *h, guint64 actual_size,
               const char *path, GError **error)
{
  g_autofree char *name = g_filename_display_name (path);

  switch (problem)
    {
    case MG_RECORD_OK:
      return TRUE;
    case MG_RECORD_BAD_VERSION:
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_VERSION,
                   _("The record “%s” has format version %u; this Metrograph reads version %u. "
                     "Use the same Metrograph for the run and the merge."),
                   name, h->version, MG_RECORD_VERSION);
      return FALSE;
    case MG_RECORD_TRUNCATED:
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The record “%s” is truncated: %llu of %llu bytes."), name,
                   (unsigned long long) actual_size, (unsigned long long) h->file_size);
      return FALSE;
    default:
      return invalid (error, path, mg_record_problem_text (problem));
    }
}

static gboolean
check_header (const MgRecordHeader *h, guint64 actual_size, const char *path, GError **error)
{
  return problem_error (mg_record_check_header (h, actual_size), h, actual_size, path, error);
}

/* A file shorter than a header: the format's reader says whether its magic
 * is a record's; the message says what that means for the run. */
static gboolean
short_file_error (int fd, const char *path, guint64 actual_size, GError **error)
{
  g_autofree char *name = g_filename_display_name (path);
  MgRecordHeader bytes;
  MgRecordView view;

  /* Created, but not even its header could be written. */
  if (actual_size == 0)
    {
      g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
                   _("The record “%s” is empty: its process could not write it (is the "
                     "record folder's disk full?)."), name);
      return FALSE;
    }
  if (!read_at (fd, &bytes, actual_size, 0, path, error))
    return FALSE;
  if (mg_record_view_open (&view, &bytes, actual_size) == MG_RECORD_BAD_MAGIC)
    return invalid (error, path, mg_record_problem_text (MG_RECORD_BAD_MAGIC));
  g_set_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED,
               _("The record “%s” is truncated: %llu bytes, shorter than its header."),
               name, (unsigned long long) actual_size);
  return FALSE;
}

/* The call-stack section, whole, checked against the header. A record
 * without one (version 2, or --no-stacks), or whose section is not laid
 * out, leaves r->stacks NULL. */
static gboolean
read_stacks (int fd, MgRecordFile *r, const char *path, GError **error)
{
  const MgRecordHeader *h = &r->header;
  if (h->version < 3 || !(h->sections & MG_RECORD_SECTION_STACKS))
    return TRUE;
  guint64 at = mg_record_sections_offset (h);
  guint64 size = h->file_size > at ? h->file_size - at : 0;
  if (size < sizeof (MgRecordStacks) || size > G_MAXSIZE / 2)
    return invalid (error, path, mg_record_problem_text (MG_RECORD_BAD_STACKS));
  /* Laid out only once the process has used CPU (docs/record-format.md,
   * "Call stacks"): until then the section is a hole, its max_stacks 0,
   * and the record has no stacks (yet). */
  MgRecordStacks head;
  if (!read_at (fd, &head, sizeof head, at, path, error))
    return FALSE;
  if (head.max_stacks == 0)
    return TRUE;
  r->stacks = g_malloc (size);
  if (!read_at (fd, r->stacks, size, at, path, error))
    return FALSE;
  /* The slots' pairs are checked up to the last slot read. */
  MgRecordHeader seen = *h;
  seen.n_samples = r->first + r->n_samples;
  if (!mg_record_stacks_check (r->stacks, size, &seen))
    return invalid (error, path, mg_record_problem_text (MG_RECORD_BAD_STACKS));
  return TRUE;
}

/* One attempt; *retry is set when a live writer got in the way. */
static MgRecordFile *
read_once (int fd, const char *path, guint64 actual_size, guint first, gboolean *retry,
           GError **error)
{
  g_autoptr(MgRecordFile) r = g_new0 (MgRecordFile, 1);
  MgRecordHeader *h = &r->header;
  MgRecordView view;
  guint32 seq_after;

  *retry = FALSE;
  r->path = g_strdup (path);
  if (actual_size < sizeof *h)
    {
      short_file_error (fd, path, actual_size, error);
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
  r->first = MIN (first, h->n_samples);
  r->n_samples = h->n_samples - r->first;
  r->slots = g_malloc (MAX ((gsize) r->n_samples * r->stride, 1));
  if (!read_at (fd, r->plugins, (gsize) h->n_plugins * sizeof (MgRecordPlugin),
                h->plugins_offset, path, error)
      || !read_at (fd, r->metrics, (gsize) h->n_metrics * sizeof (MgRecordMetric),
                   h->metrics_offset, path, error)
      || !read_at (fd, r->slots, (gsize) r->n_samples * r->stride,
                   h->samples_offset + (guint64) r->first * r->stride, path, error))
    return NULL;

  /* Whole on every read, a live one's too: its stacks and their counts
   * in earlier slots grow as the program runs. */
  if (!read_stacks (fd, r, path, error))
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
  /* The format's reader checks what was copied: header, tables, slots. */
  if (!problem_error (mg_record_view_open_parts (&view, h, actual_size, r->plugins, r->metrics,
                                                 r->slots, r->first, r->n_samples),
                      h, actual_size, path, error))
    return NULL;
  return g_steal_pointer (&r);
}

/* Whether the file has blocks at @at: a section the sampler never reserved
 * is a hole, and reading a hole through a mapping allocates a page on
 * tmpfs, which on a full one raises SIGBUS (the front end died merging a
 * run whose run folder had filled). A file system without SEEK_DATA says
 * data everywhere. */
static gboolean
has_data_at (int fd, guint64 at)
{
  off_t found = lseek (fd, (off_t) at, SEEK_DATA);

  return found < 0 ? errno != ENXIO : (guint64) found <= at;
}

/* The call-stack section of a mapped record, checked in place (as
 * read_stacks checks its copy); a section never reserved (a hole) is one
 * not laid out, as its zeros say. */
static gboolean
map_stacks (MgRecordFile *r, int fd, const guchar *data, const char *path, GError **error)
{
  const MgRecordHeader *h = &r->header;
  guint64 at = mg_record_sections_offset (h);
  guint64 size = h->file_size; /* checked against the mapping's size */
  MgRecordStacks *s;

  if (h->version < 3 || !(h->sections & MG_RECORD_SECTION_STACKS))
    return TRUE;
  if (at >= size || size - at < sizeof (MgRecordStacks) || size - at > G_MAXSIZE / 2)
    return invalid (error, path, mg_record_problem_text (MG_RECORD_BAD_STACKS));
  if (!has_data_at (fd, at))
    return TRUE;
  s = (MgRecordStacks *) (data + at);
  if (s->max_stacks == 0)
    return TRUE;
  if (!mg_record_stacks_check (s, size - at, h))
    return invalid (error, path, mg_record_problem_text (MG_RECORD_BAD_STACKS));
  r->stacks = s;
  return TRUE;
}

/* An ended record this small is read whole with one pread rather than
 * mapped: a short process's record (37-45 kB, life only) cost the merge
 * more in its mapping's faults and its munmap (a TLB shootdown across the
 * merge's threads) than the copy does. */
enum { WHOLE_COPY_MAX = 256 * 1024 };

/* The ended record on @fd whole in memory: mapped, or copied when small.
 * FALSE with an error naming @path. */
static gboolean
take_whole (MgRecordFile *r, int fd, guint64 file_size, const char *path,
            const guchar **data, guint64 *size, GError **error)
{
  g_autoptr (GError) map_error = NULL;

  if (file_size <= WHOLE_COPY_MAX)
    {
      r->whole = g_malloc (MAX (file_size, 1));
      /* A file cut since its size was taken reads short: the header check
       * below says so, as it does for a cut mapping. */
      gsize got = mg_pread_full (fd, r->whole, file_size, 0);
      int saved = errno;

      if (got == file_size || saved == 0)
        {
          *data = r->whole;
          *size = got;
          return TRUE;
        }
      {
        g_autofree char *name = g_filename_display_name (path);

        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                     _("Could not read the record “%s”: %s"), name, g_strerror (saved));
      }
      return FALSE;
    }
  r->mapped = g_mapped_file_new_from_fd (fd, FALSE, &map_error);
  if (r->mapped == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_set_error (error, G_FILE_ERROR, map_error->code, _("Could not read the record “%s”: %s"),
                   name, map_error->message);
      return FALSE;
    }
  *data = (const guchar *) g_mapped_file_get_contents (r->mapped);
  *size = g_mapped_file_get_length (r->mapped);
  return TRUE;
}

/* An ended record from slot @first on, whole in memory (take_whole): the
 * format's reader checks it in place (header, tables, every committed
 * slot). */
static MgRecordFile *
read_mapped (int fd, const char *path, guint64 file_size, guint first, GError **error)
{
  g_autoptr (MgRecordFile) r = g_new0 (MgRecordFile, 1);
  const guchar *data;
  guint64 size;
  MgRecordView view;

  r->path = g_strdup (path);
  if (!take_whole (r, fd, file_size, path, &data, &size, error))
    return NULL;
  if (size < sizeof r->header) /* cut since it was opened */
    {
      short_file_error (fd, path, size, error);
      return NULL;
    }
  r->header = *(const MgRecordHeader *) data;
  /* In the copying reader's order, for the same message on the same damage:
   * the header, the call stacks, then the tables and slots. */
  if (!check_header (&r->header, size, path, error) || !map_stacks (r, fd, data, path, error)
      || !problem_error (mg_record_view_open (&view, data, size), &r->header, size, path, error))
    return NULL;
  r->plugins = (MgRecordPlugin *) view.plugins;
  r->metrics = (MgRecordMetric *) view.metrics;
  r->stride = view.stride;
  r->first = MIN (first, view.n_samples);
  r->n_samples = view.n_samples - r->first;
  r->slots = (guchar *) view.slots + (gsize) r->first * r->stride;
  return g_steal_pointer (&r);
}

/* Whether the record on @fd has ended: checked like any header, and no
 * longer RUNNING, so no writer is left to change it under a mapping. A
 * header that fails a check is left to the copying reader's messages. */
static gboolean
has_ended (int fd, guint64 size)
{
  MgRecordHeader h;

  return size >= sizeof h && mg_pread_full (fd, &h, sizeof h, 0) == sizeof h
         && mg_record_check_header (&h, size) == MG_RECORD_OK
         && h.state != MG_RECORD_STATE_RUNNING && !(h.seq & 1);
}

/* Opens path for reading and gives its size; -1 with an error naming it. */
static int
open_record (const char *path, guint64 *size, GError **error)
{
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int saved = errno;
      g_autofree char *name = g_filename_display_name (path);

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("Could not open the record “%s”: %s"), name, g_strerror (saved));
      return -1;
    }
  *size = (guint64) st.st_size;
  return fd;
}

gboolean
mg_record_file_read_header (const char *path, MgRecordHeader *header, GError **error)
{
  guint64 size;
  int fd;
  gboolean ok;

  g_return_val_if_fail (path != NULL, FALSE);
  fd = open_record (path, &size, error);
  if (fd < 0)
    return FALSE;
  if (size < sizeof *header)
    ok = short_file_error (fd, path, size, error);
  else
    ok = read_at (fd, header, sizeof *header, 0, path, error)
         && check_header (header, size, path, error);
  close (fd);
  return ok;
}

MgRecordFile *
mg_record_file_read (const char *path, GError **error)
{
  return mg_record_file_read_from (path, 0, error);
}

MgRecordFile *
mg_record_file_read_from (const char *path, guint first, GError **error)
{
  guint64 size;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = open_record (path, &size, error);
  if (fd < 0)
    return NULL;
  if (has_ended (fd, size))
    {
      MgRecordFile *r = read_mapped (fd, path, size, first, error);

      close (fd);
      return r;
    }
  for (int attempt = 0; attempt < MAX_TRIES; attempt++)
    {
      gboolean retry;
      MgRecordFile *r = read_once (fd, path, size, first, &retry, error);

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
