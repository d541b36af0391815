/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-record-finish.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "format/mg-record-format.h"

/* The record files in @record_dir, whatever their run. */
static GPtrArray *
record_paths (const char *record_dir)
{
  g_autoptr (GDir) dir = g_dir_open (record_dir, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, MG_RECORD_SUFFIX))
      g_ptr_array_add (paths, g_build_filename (record_dir, name, NULL));
  return paths;
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

/* The one record of @run_id still RUNNING (its process in @pid), or NULL
 * when none is, several are, or a record EXITED with @launcher_status. */
static const char *
lone_running (GPtrArray *paths, const char *run_id, int launcher_status, MgRecordHeader *running)
{
  const char *running_path = NULL;
  guint n_running = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      MgRecordHeader header;

      if (!mg_record_read_header_of_run (paths->pdata[i], run_id, &header))
        continue;
      if (header.state == MG_RECORD_STATE_EXITED && header.end_status == launcher_status)
        return NULL;
      /* A copy rank 0 received at MPI_Finalize: its process went on. */
      if (header.flags & MG_RECORD_FLAG_TRANSFERRED)
        continue;
      if (header.state == MG_RECORD_STATE_RUNNING && n_running++ == 0)
        {
          *running = header;
          running_path = paths->pdata[i];
        }
    }
  return n_running == 1 ? running_path : NULL;
}

guint
mg_record_finish (const char *record_dir, const char *run_id, GPid pid, MgRecordState state,
                  int end_status, gint64 end_mono_ns)
{
  g_autoptr (GPtrArray) paths = record_paths (record_dir);
  MgRecordHeader running = { 0 };
  const char *path = NULL;
  guint n = 0;

  if (state == MG_RECORD_STATE_SIGNALLED && (end_status < 1 || end_status > SIGRTMAX))
    return 0;
  if (pid == 0)
    {
      if (state != MG_RECORD_STATE_SIGNALLED)
        return 0;
      path = lone_running (paths, run_id, 128 + end_status, &running);
      if (path == NULL || !process_gone (&running))
        return 0;
      return mg_record_mark_ended (path, run_id, running.pid, state, end_status, end_mono_ns);
    }
  for (guint i = 0; i < paths->len; i++)
    n += mg_record_mark_ended (paths->pdata[i], run_id, pid, state, end_status, end_mono_ns);
  return n;
}
