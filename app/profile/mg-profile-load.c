/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening a .mgprof: a 24-byte header (magic, version, payload length,
 * CRC-32) and one little-endian GVariant payload (docs/profile-format.md).
 * The header and the checksum are checked here, the file read in place
 * (its processes' series when asked for) or whole; the payload is read by
 * mg-profile-reader.c. */
#include "mg-config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mg-pread.h"
#include "mg-profile-header.h"
#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-profile-reader.h"
#include "mg-profile-source.h"

static gboolean
check_header (const guchar *data, gsize size, const char *name, guint64 *payload_len,
              guint32 *crc, guint32 *version_out, GError **error)
{
  guint32 version = MG_PROFILE_VERSION;

  if (size == 0)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is empty, not a Metrograph profile."), name);
      return FALSE;
    }
  if (memcmp (data, MG_PROFILE_MAGIC, MIN (size, MG_PROFILE_MAGIC_LEN)) != 0)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is not a Metrograph profile (.mgprof)."), name);
      return FALSE;
    }
  if (size >= MG_PROFILE_MAGIC_LEN + 4)
    {
      memcpy (&version, data + 8, 4);
      version = GUINT32_FROM_LE (version);
      if (version > MG_PROFILE_VERSION)
        {
          g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_VERSION,
                       _("The profile “%s” was written by a newer Metrograph (format %u; this "
                         "version reads format %u and older). Update Metrograph to open it."),
                       name, version, MG_PROFILE_VERSION);
          return FALSE;
        }
      if (version == 0)
        return mg_profile_corrupt (error, name, "format version 0");
    }
  if (size < MG_PROFILE_HEADER_LEN)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED,
                   _("The profile “%s” is truncated: %zu bytes, shorter than its header."),
                   name, size);
      return FALSE;
    }
  *version_out = version;
  memcpy (crc, data + 12, 4);
  *crc = GUINT32_FROM_LE (*crc);
  memcpy (payload_len, data + 16, 8);
  *payload_len = GUINT64_FROM_LE (*payload_len);
  /* No file holds more than G_MAXUINT64 bytes: the length plus the header
   * would wrap around in the message. */
  if (*payload_len > G_MAXUINT64 - MG_PROFILE_HEADER_LEN)
    return mg_profile_corrupt (error, name, "payload length beyond any file");
  if (*payload_len > size - MG_PROFILE_HEADER_LEN)
    {
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED,
                   _("The profile “%s” is truncated: %zu of %llu bytes are there. It may still "
                     "be being written, or the copy was cut short."),
                   name, size, (unsigned long long) (*payload_len + MG_PROFILE_HEADER_LEN));
      return FALSE;
    }
  if (*payload_len < size - MG_PROFILE_HEADER_LEN)
    return mg_profile_corrupt (error, name, "extra bytes after the data");
  return TRUE;
}

MgProfile *
mg_profile_load_bytes (GBytes *bytes, const char *name, GError **error)
{
  g_autoptr(GBytes) payload_bytes = NULL;
  const guchar *data;
  gsize size;
  guint64 payload_len;
  guint32 crc, version;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (name == NULL)
    name = "(memory)";

  data = g_bytes_get_data (bytes, &size);
  if (!check_header (data, size, name, &payload_len, &crc, &version, error))
    return NULL;
  if (mg_profile_payload_crc (data + MG_PROFILE_HEADER_LEN, payload_len, version) != crc)
    {
      mg_profile_corrupt (error, name, "checksum mismatch");
      return NULL;
    }

  /* GVariant needs 8-byte alignment; the header is 24 bytes and g_malloc'd
   * or mapped memory is aligned, so this is a view, not a copy. */
  payload_bytes = g_bytes_new_from_bytes (bytes, MG_PROFILE_HEADER_LEN, payload_len);
  return mg_profile_parse_payload (payload_bytes, version, name, error);
}

/* The file opened for reading, with its status in *st; -1 with error. */
static int
open_profile (const char *path, const char *display, struct stat *st, GError **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  int saved;

  if (fd >= 0 && fstat (fd, st) == 0)
    return fd;
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               _("Could not open the profile “%s”: %s"), display, g_strerror (saved));
  return -1;
}

/* The whole file in memory: for big-endian machines (the payload is
 * byte-swapped as a whole) and files that change while being read. Not a
 * mapping: a file truncated or rewritten in place (cp over it) while the
 * profile is open would make a mapping fault (SIGBUS) in the middle of
 * drawing. */
static GBytes *
read_whole_file (const char *path, const char *display, GError **error)
{
  struct stat st;
  guchar *data;
  gsize done = 0;
  int fd = open_profile (path, display, &st, error);

  if (fd < 0)
    return NULL;
  data = mg_profile_alloc_big (MAX ((gsize) st.st_size, 1));
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, data + done, (gsize) st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_free (data);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                       _("Could not read the profile “%s”: %s"), display, g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        break; /* shrank while we read: the header check reports it */
      done += n;
    }
  close (fd);
  return g_bytes_new_with_free_func (data, done, g_free, data);
}

static MgProfile *
load_whole_file (const char *path, const char *display, GError **error)
{
  g_autoptr(GBytes) bytes = read_whole_file (path, display, error);

  return bytes != NULL ? mg_profile_load_bytes (bytes, display, error) : NULL;
}

/* The header, as much of it as the file has. */
static gsize
read_header (int fd, guchar *header, gsize size)
{
  return mg_pread_full (fd, header, MIN (size, MG_PROFILE_HEADER_LEN), 0);
}

/* Read in place (mg-profile-source.h): all but the processes' own series
 * now, those when first asked for. */
static MgProfile *
load_in_place (int fd, gsize size, const char *path, const char *display, GError **error)
{
  guchar header[MG_PROFILE_HEADER_LEN];
  g_autoptr(GBytes) payload = NULL;
  MgProfileSource *source = NULL;
  MgProfile *self;
  guint64 payload_len;
  guint32 crc, version;
  gboolean changed = FALSE;
  gsize got = read_header (fd, header, size);

  /* A file shorter than fstat said has shrunk: judged by what is there. */
  if (got < MIN (size, MG_PROFILE_HEADER_LEN))
    size = got;
  if (!check_header (header, size, display, &payload_len, &crc, &version, error))
    return NULL;
  /* The bulk of a process: its times and values, or its block. */
  payload = mg_profile_source_open (fd, payload_len, crc, mg_profile_payload_type (version),
                                    MG_PAYLOAD_SERIES_MEMBER,
                                    mg_profile_payload_hole_first (version), 1, version >= 3,
                                    display, &source, &changed, error);
  if (changed)
    return load_whole_file (path, display, error);
  if (payload == NULL)
    return NULL;
  self = mg_profile_parse_payload (payload, version, display, error);
  if (self == NULL)
    {
      mg_profile_source_free (source);
      return NULL;
    }
  self->source = source;
  mg_profile_source_attach (source, self->process_series, self->metrics->len);
  return self;
}

MgProfile *
mg_profile_load (const char *path, GError **error)
{
  g_autofree char *display = NULL;
  struct stat st;
  MgProfile *self;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);
  fd = open_profile (path, display, &st, error);
  if (fd < 0)
    return NULL;
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE,
                   _("“%s” is not a regular file, not a Metrograph profile."), display);
      return NULL;
    }
  if (G_BYTE_ORDER == G_BIG_ENDIAN)
    {
      close (fd);
      return load_whole_file (path, display, error);
    }
  self = load_in_place (fd, (gsize) st.st_size, path, display, error);
  close (fd);
  return self;
}
