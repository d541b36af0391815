/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "Threads": the number of threads of the process.
 * The link count of the /proc/self/task directory is 2 plus the number of
 * threads (the "Threads:" of /proc/self/status), and one fstat() of a
 * descriptor kept open gives it, several times cheaper than reading and
 * parsing /proc/self/status. Metrograph's sampler makes that fstat once a
 * round for this plugin and CPU Time (mg_thread_count); under another host
 * the plugin keeps the folder open itself (mg_proc_file_stat: that same
 * fstat checks the descriptor, which is reopened after a fork). The
 * sampler's own thread is not the program's: it is left out while it runs
 * (mg_sampler_activity), so a single-threaded program reads 1; and so is
 * a main thread that called pthread_exit, listed until the process ends. */
#include "mg-metric-util.h"

static MgProcFile task_dir = MG_PROC_FILE (MG_PROC_TASK_DIR);

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int mg_threads_count (metric_id_t id, struct timespec *t, uint64_t *out);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  struct stat st;
  mg_watch_forks ();
  mg_proc_file_close (&task_dir);
  int r = mg_proc_file_stat (&task_dir, &st);
  mg_proc_file_done (&task_dir);
  if (r != 0 || st.st_nlink < 3)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "Threads: cannot stat /proc/self/task "
                                         "(errno %d): is /proc mounted?", errno);
      return -1;
    }
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  mg_proc_file_close (&task_dir);
  return 0;
}

int
mg_threads_count (metric_id_t id, struct timespec *t, uint64_t *out)
{
  struct metrograph_sampler_thread_activity own;
  if (mg_thread_count (t, &task_dir, out) != 0)
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot stat /proc/self/task (errno %d)",
                                         errno);
      return -1;
    }
  mg_sampler_activity (t, 0, &own);
  /* A main thread that called pthread_exit stays listed until the
   * process ends, but runs no more. */
  *out = mg_less (*out, own.threads + own.main_thread_exited);
  return 0;
}
