/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-record-finish.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "format/mg-record-format.h"

static gboolean
finish_one (const char *path, const char *run_id, int pid, int signal, gint64 end_mono_ns)
{
  MgRecordHeader header;
  gboolean done = FALSE;
  int fd = open (path, O_RDWR | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  if (pread (fd, &header, sizeof header, 0) == (ssize_t) sizeof header
      && mg_record_is_of_run (&header, run_id) && header.pid == pid
      && header.state == MG_RECORD_STATE_RUNNING)
    done = mg_record_write_end (fd, &header, MG_RECORD_STATE_SIGNALLED, signal, end_mono_ns);
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

/* The header of a record of @run_id, or FALSE. */
static gboolean
read_header (const char *path, const char *run_id, MgRecordHeader *header)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = pread (fd, header, sizeof *header, 0) == (ssize_t) sizeof *header
       && mg_record_is_of_run (header, run_id);
  close (fd);
  return ok;
}

/* A process of this host that still exists cannot have been killed. */
static gboolean
process_gone (const MgRecordHeader *header)
{
  char host[MG_RECORD_HOST_LEN + 1] = "";

  if (gethostname (host, sizeof host - 1) != 0
      || strncmp (header->host, host, MG_RECORD_HOST_LEN) != 0)
    return TRUE; /* another node: its mpirun or srun waited for it */
  return kill (header->pid, 0) != 0 && errno == ESRCH;
}

gboolean
mg_record_finish_lone_running (const char *record_dir, const char *run_id, int launcher_status,
                               gint64 end_mono_ns)
{
  g_autoptr (GDir) dir = g_dir_open (record_dir, 0, NULL);
  g_autofree char *running_path = NULL;
  MgRecordHeader running = { 0 };
  guint n_running = 0;
  int signal = launcher_status - 128;
  const char *name;

  if (dir == NULL || signal < 1 || signal > SIGRTMAX)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      MgRecordHeader header;

      if (!g_str_has_suffix (name, MG_RECORD_SUFFIX))
        continue;
      path = g_build_filename (record_dir, name, NULL);
      if (!read_header (path, run_id, &header))
        continue;
      if (header.state == MG_RECORD_STATE_EXITED && header.end_status == launcher_status)
        return FALSE;
      /* A copy rank 0 received at MPI_Finalize: its process went on. */
      if (header.flags & MG_RECORD_FLAG_TRANSFERRED)
        continue;
      if (header.state == MG_RECORD_STATE_RUNNING && n_running++ == 0)
        {
          running = header;
          running_path = g_steal_pointer (&path);
        }
    }
  if (n_running != 1 || !process_gone (&running))
    return FALSE;
  return finish_one (running_path, run_id, running.pid, signal, end_mono_ns);
}
