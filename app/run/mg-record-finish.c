#include "mg-config.h"

#include "mg-record-finish.h"

#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "mg-record-format.h"

static gboolean
write_field (int fd, size_t offset, const void *value, size_t size)
{
  return pwrite (fd, value, size, (off_t) offset) == (ssize_t) size;
}

static gboolean
finish_one (const char *path, const char *run_id, int pid, int signal, gint64 end_mono_ns)
{
  MgRecordHeader header;
  guint32 state = MG_RECORD_STATE_SIGNALLED;
  gint32 status = signal;
  gboolean done = FALSE;
  int fd = open (path, O_RDWR | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  if (pread (fd, &header, sizeof header, 0) == (ssize_t) sizeof header
      && memcmp (header.magic, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN) == 0
      && header.version == MG_RECORD_VERSION && header.pid == pid
      && header.state == MG_RECORD_STATE_RUNNING
      && strncmp (header.run_id, run_id, sizeof header.run_id) == 0)
    {
      done = write_field (fd, offsetof (MgRecordHeader, end_status), &status, sizeof status);
      if (done && header.end_mono_ns == 0)
        done = write_field (fd, offsetof (MgRecordHeader, end_mono_ns), &end_mono_ns,
                            sizeof end_mono_ns);
      /* The state last: a reader that sees SIGNALLED sees the rest. */
      done = done && write_field (fd, offsetof (MgRecordHeader, state), &state, sizeof state);
    }
  close (fd);
  return done;
}

guint
mg_record_finish_signalled (const char *record_dir, const char *run_id, int pid, int signal,
                            gint64 end_mono_ns)
{
  g_autoptr (GDir) dir = g_dir_open (record_dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;

      if (!g_str_has_suffix (name, MG_RECORD_SUFFIX))
        continue;
      path = g_build_filename (record_dir, name, NULL);
      n += finish_one (path, run_id, pid, signal, end_mono_ns);
    }
  return n;
}
