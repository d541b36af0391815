/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Saving a profile: its processes' blocks encoded on every core, the
 * payload (mg-profile-writer.c) serialised straight into a mapped,
 * unnamed file in the target's folder (a temporary one beside it where
 * the file system has none), synced, and given the target's name. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mg-process-block.h"
#include "mg-profile-header.h"
#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-profile-writer.h"

typedef struct {
  MgProfile *profile;
  GBytes **blocks;
  gint failed;                   /* a process whose block did not decode, + 1; or 0 */
} EncodeJob;

/* A packed process's block again at the profile's precision (the blocks
 * were packed exact, to compute the aggregates): decoded and encoded; NULL
 * when it does not decode (a file's block whose CRC matches its damage). */
static GBytes *
transcode (MgProfile *self, guint p)
{
  const MgPackedProcess *packed = &self->packed[p];
  guint n_metrics = self->metrics->len;
  gsize n = self->process_n[p];
  g_autofree double *times = g_new (double, MAX (n, 1));
  g_autofree double *values = g_new (double, MAX ((gsize) n_metrics * MG_PROCESS_SERIES_N * n, 1));

  if (!mg_process_block_decode (packed->block, packed->size, n, n_metrics, packed->reported,
                                times, values))
    return NULL;
  return mg_process_block_encode (n, n_metrics, times, values, packed->reported,
                                  self->process_precision);
}

static void
encode_one (gpointer data, gpointer user_data)
{
  guint p = GPOINTER_TO_UINT (data) - 1;
  EncodeJob *job = user_data;
  MgProfile *self = job->profile;
  guint n_metrics = self->metrics->len;
  const MgProcessSeries *first;
  g_autofree guint8 *reported = NULL;
  gsize n = n_metrics > 0 ? self->process_n[p] : 0;

  if (self->packed != NULL)
    {
      job->blocks[p] = transcode (self, p);
      if (job->blocks[p] == NULL)
        g_atomic_int_compare_and_exchange (&job->failed, 0, (gint) p + 1);
      return;
    }
  first = &self->process_series[(gsize) p * n_metrics];
  reported = g_new0 (guint8, MAX (n_metrics, 1));
  for (guint m = 0; m < n_metrics; m++)
    reported[m] = first[m].n > 0;
  job->blocks[p] = mg_process_block_encode (n, n_metrics, n > 0 ? first->times : NULL,
                                            n > 0 ? first->mins : NULL, reported,
                                            self->process_precision);
}

/* Each process's block: a packed profile's as they are, unless they are
 * to be stored at a lower precision than they were packed at; others
 * encoded. *failed: a process whose block did not decode, + 1 (its block
 * NULL); or 0. */
static GBytes **
process_blocks (MgProfile *self, guint *failed)
{
  guint n_proc = self->processes->len;
  EncodeJob job = { self, g_new0 (GBytes *, MAX (n_proc, 1)), 0 };
  GThreadPool *pool = NULL;

  for (guint p = 0; p < n_proc; p++)
    {
      if (self->packed != NULL && self->packed_precision == self->process_precision)
        {
          job.blocks[p] = g_bytes_new_static (self->packed[p].block, self->packed[p].size);
          continue;
        }
      /* One process (a tool, a script's step): no thread to start. */
      if (n_proc == 1)
        {
          encode_one (GUINT_TO_POINTER (p + 1), &job);
          continue;
        }
      if (pool == NULL)
        pool = g_thread_pool_new (encode_one, &job, (int) MIN (g_get_num_processors (), 8),
                                  FALSE, NULL);
      g_thread_pool_push (pool, GUINT_TO_POINTER (p + 1), NULL);
    }
  if (pool != NULL)
    g_thread_pool_free (pool, FALSE, TRUE);
  *failed = (guint) job.failed;
  return job.blocks;
}

typedef enum { IO_CREATE, IO_WRITE, IO_RENAME } IoStep;

static gboolean
io_error (GError **error, IoStep step, const char *path, int saved)
{
  g_autofree char *name = g_filename_display_name (path);
  GFileError code = g_file_error_from_errno (saved);

  if (step == IO_CREATE)
    g_set_error (error, G_FILE_ERROR, code, _("Could not create the profile “%s”: %s"), name,
                 g_strerror (saved));
  else if (step == IO_WRITE)
    g_set_error (error, G_FILE_ERROR, code, _("Could not write the profile “%s”: %s"), name,
                 g_strerror (saved));
  else
    g_set_error (error, G_FILE_ERROR, code, _("Could not save the profile as “%s”: %s"), name,
                 g_strerror (saved));
  return FALSE;
}

/* Serialises the payload straight into the (pre-allocated, so that a full
 * disk is an error here rather than a SIGBUS later) mapped file: no copy of
 * a few hundred megabytes in between. */
static gboolean
write_mapped (int fd, GVariant *payload, guint32 format, const char *path, GError **error)
{
  gsize size = g_variant_get_size (payload);
  gsize total = MG_PROFILE_HEADER_LEN + size;
  guint32 version = GUINT32_TO_LE (format), crc;
  guint64 length = GUINT64_TO_LE ((guint64) size);
  guchar *map;
  int rc;

  rc = posix_fallocate (fd, 0, (off_t) total);
  if (rc != 0)
    return io_error (error, IO_WRITE, path, rc);
  map = mmap (NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED)
    return io_error (error, IO_WRITE, path, errno);
  g_variant_store (payload, map + MG_PROFILE_HEADER_LEN);
  crc = GUINT32_TO_LE (mg_profile_payload_crc (map + MG_PROFILE_HEADER_LEN, size, format));
  memcpy (map, MG_PROFILE_MAGIC, MG_PROFILE_MAGIC_LEN);
  memcpy (map + 8, &version, 4);
  memcpy (map + 12, &crc, 4);
  memcpy (map + 16, &length, 8);
  /* No msync: on Linux the mapping's pages are the file's page cache, and
   * the caller's fsync writes them (msync (MS_SYNC) was a second fsync). */
  munmap (map, total);
  return TRUE;
}

/* An unnamed file (O_TMPFILE) in @path's folder, or -1 where its file
 * system has none. Mode 0666 less the umask, as a named one. */
static int
open_unnamed (const char *path)
{
  g_autofree char *folder = g_path_get_dirname (path);

  return open (folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
}

/* Gives the unnamed file @fd the name @path, replacing what is there:
 * linked to a fresh name beside it and renamed over it (a link cannot
 * replace), or linked to @path itself when nothing is there. FALSE when
 * it cannot be linked (no /proc); nothing is then left behind. */
static gboolean
name_unnamed (int fd, const char *path)
{
  char self[64];

  g_snprintf (self, sizeof self, "/proc/self/fd/%d", fd);
  if (linkat (AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0)
    return TRUE;
  if (errno != EEXIST)
    return FALSE;
  for (int attempt = 0; attempt < 16; attempt++)
    {
      g_autofree char *tmp = g_strdup_printf ("%s.%08x", path, g_random_int ());

      if (linkat (AT_FDCWD, self, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) != 0)
        {
          if (errno == EEXIST)
            continue;
          return FALSE;
        }
      if (g_rename (tmp, path) == 0)
        return TRUE;
      g_unlink (tmp);
      return FALSE;
    }
  return FALSE;
}

gboolean
mg_profile_save (MgProfile *self, const char *path, GError **error)
{
  g_autoptr(GVariant) payload = NULL;
  g_autofree char *tmp_path = NULL;
  GBytes **blocks;
  guint failed;
  int fd;
  /* Format 8's payload is format 9's: the version says which edition of
   * the helper rule the aggregates followed, and stays so when saved
   * again. */
  guint32 format = self->helper_rule == MG_HELPER_RULE_STEPS_HELPERS
                     ? MG_PROFILE_VERSION_STEPS_MAY_BE_WORK - 1
                     : MG_PROFILE_VERSION;

  g_return_val_if_fail (MG_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A profile opened from a file reads its processes' series when asked;
   * a format 3 file's blocks are written again as they are. */
  for (guint p = 0; p < self->processes->len; p++)
    if (!mg_profile_fetch_process (self, p, TRUE, error))
      return FALSE;
  blocks = process_blocks (self, &failed);
  if (failed == 0)
    payload = g_variant_ref_sink (mg_profile_to_payload (self, blocks));
  for (guint p = 0; p < self->processes->len; p++)
    g_clear_pointer (&blocks[p], g_bytes_unref);
  g_clear_pointer (&blocks, g_free);
  /* Decoding it as a reader would says so, naming the file and the process. */
  if (failed > 0 && !mg_profile_fetch_process (self, failed - 1, FALSE, error))
    return FALSE;
  g_return_val_if_fail (failed == 0, FALSE);
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      GVariant *swapped = g_variant_byteswap (payload);

      g_variant_unref (payload);
      payload = swapped;
    }

  /* An unnamed file in the target's folder, given its name once on disk:
   * never a half-written file under the final name, nor a partial one
   * left beside it by a kill during the save. */
  fd = open_unnamed (path);
  if (fd >= 0)
    {
      if (!write_mapped (fd, payload, format, path, error))
        {
          close (fd);
          return FALSE;
        }
      if (fsync (fd) != 0)
        {
          int saved = errno;

          close (fd);
          return io_error (error, IO_WRITE, path, saved);
        }
      if (name_unnamed (fd, path))
        return close (fd) == 0 || io_error (error, IO_WRITE, path, errno);
      close (fd); /* no /proc to name it by: written again, the old way */
    }
  /* A file system without unnamed files: a temporary name beside the
   * target, renamed over it. */
  tmp_path = g_strconcat (path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (tmp_path, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    return io_error (error, IO_CREATE, path, errno);
  if (!write_mapped (fd, payload, format, path, error))
    {
      close (fd);
      g_unlink (tmp_path);
      return FALSE;
    }
  if (fsync (fd) != 0 || close (fd) != 0)
    {
      int saved = errno;

      g_unlink (tmp_path);
      return io_error (error, IO_WRITE, path, saved);
    }
  if (g_rename (tmp_path, path) != 0)
    {
      int saved = errno;

      g_unlink (tmp_path);
      return io_error (error, IO_RENAME, path, saved);
    }
  return TRUE;
}
