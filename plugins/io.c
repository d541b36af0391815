/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "IO": rates and running totals of the process's I/O
 * from /proc/self/io, read once per sampling round.
 *
 * rchar/wchar/syscr/syscw count read(2)/write(2)-family system calls; the
 * bytes and calls made through the allinea_safe_* functions (by plugins,
 * including this one, and by the sampler) are subtracted using Metrograph's
 * metrograph_get_safe_io_counts() when the host provides it. read_bytes and
 * write_bytes are what reached the storage layer, charged to the thread
 * that caused it (for writes, the thread that dirtied the page): the
 * sampler thread's own (its /proc/thread-self/io, mg_sampler_activity),
 * which are the record's pages it writes through the record's mapping,
 * are subtracted.
 *
 * The totals count from the start of sampling: the baseline is taken at
 * initialisation and again by the start function, which the sampler calls
 * once every plugin is initialised, so that what the plugins read while
 * initialising (libraries, /proc/cpuinfo, the run plan) is not the
 * program's.
 *
 * A forked child, which the sampler keeps sampling with the plugins it
 * inherited, has a /proc/self/io of its own, from 0 at the fork, while the
 * safe I/O counters it inherited hold the parent's counts: the sampler
 * notes them at the fork (metrograph_get_safe_io_counts_at_fork, read at
 * the child's first sample), or under another host an atfork child
 * handler of this plugin's, so that only the safe I/O done since the fork is
 * subtracted, and the child's totals and rates are its own I/O since it
 * started (as MAP's per-process counters are). */
#include <dlfcn.h>

#include "mg-proc-cache.h"
#include "metrograph_plugin_ext.h"

enum { RCHAR, WCHAR, SYSCR, SYSCW, READ_BYTES, WRITE_BYTES, N_COUNTERS };

static const char *const keys[N_COUNTERS] = {
  "rchar:", "wchar:", "syscr:", "syscw:", "read_bytes:", "write_bytes:",
};

static metrograph_get_safe_io_counts_fn get_safe_counts;
/* Under Metrograph's sampler: the counts at the fork, noted by it. */
static metrograph_get_safe_io_counts_fn get_safe_counts_at_fork;
/* The safe I/O counts at the fork that made this process (zero in the
 * process that initialised the plugin): what is left of them afterwards is
 * this process's own. */
static struct metrograph_safe_io_counts safe_at_fork;
static unsigned io_generation;     /* mg_forks_seen () at base, cur, prev */
static uint64_t base[N_COUNTERS];  /* at sampling start: totals count from 0 */
static uint64_t cur[N_COUNTERS];
static uint64_t prev[N_COUNTERS];  /* per rate getter */
MG_PROC_CACHE (io_file, "/proc/self/io", 512);

/* The counters of /proc/self/io as read for the round of now (now NULL:
 * afresh); -1 with errno EINVAL when the text read lacks one. */
static int
read_counters (const struct timespec *now, uint64_t values[N_COUNTERS])
{
  const char *text = io_file.text;
  if (now)
    text = mg_proc_cache_text (&io_file, now, NULL);
  else if (mg_proc_file_read (&io_file.file, io_file.text, io_file.size) < 0)
    text = NULL;
  if (text == NULL)
    return -1;
  for (int i = 0; i < N_COUNTERS; i++)
    {
      bool found;
      values[i] = mg_key_u64 (text, keys[i], &found);
      if (!found)
        {
          errno = EINVAL;
          return -1;
        }
    }
  return 0;
}

/* Reads /proc/self/io for the round of now (at initialisation: now NULL)
 * into values, less the safe I/O. */
static int
snapshot (const struct timespec *now, uint64_t values[N_COUNTERS])
{
  struct metrograph_safe_io_counts safe = { 0 };
  struct metrograph_sampler_thread_activity own;
  /* Taken before the read below: neither this nor /proc/self/io includes
   * the read in progress, so the two stay consistent. The sampler thread
   * dirties no page between the two (it is this thread, reading). */
  mg_sampler_activity (now, METROGRAPH_ACTIVITY_STORAGE, &own);
  if (get_safe_counts)
    {
      get_safe_counts (&safe);
      safe.bytes_read -= safe_at_fork.bytes_read;
      safe.bytes_written -= safe_at_fork.bytes_written;
      safe.read_calls -= safe_at_fork.read_calls;
      safe.write_calls -= safe_at_fork.write_calls;
    }
  for (int attempt = 0;; attempt++)
    {
      if (read_counters (now, values) == 0)
        break;
      if (errno != EINVAL || attempt > 0)
        return -1;
      /* Another file's text: the program closed our descriptor (close_range
       * at its start, as daemons do) and another file kept open took its
       * number. Checked (fstat) and opened again at once, rather than read
       * wrong until the next periodic check. */
      mg_proc_cache_recheck (&io_file);
    }
  const uint64_t adjust[N_COUNTERS] = { safe.bytes_read, safe.bytes_written,
                                        safe.read_calls, safe.write_calls,
                                        own.storage_read_bytes, own.storage_write_bytes };
  for (int i = 0; i < N_COUNTERS; i++)
    values[i] = mg_less (values[i], adjust[i]);
  return 0;
}

/* In the child, before anything else runs there but the other fork
 * handlers (the sampler's first round in the child comes an interval
 * later). */
static void
note_fork (void)
{
  if (get_safe_counts)
    get_safe_counts (&safe_at_fork);
}

/* Totals count from now. */
static int
take_baseline (void)
{
  mg_proc_cache_invalidate (&io_file);
  if (snapshot (NULL, base) != 0)
    return -1;
  for (int i = 0; i < N_COUNTERS; i++)
    cur[i] = prev[i] = base[i];
  io_generation = mg_forks_seen ();
  return 0;
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int mg_io_start (plugin_id_t plugin_id);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  static bool fork_handler;
  mg_watch_forks ();
  get_safe_counts = (metrograph_get_safe_io_counts_fn)
    dlsym (RTLD_DEFAULT, "metrograph_get_safe_io_counts");
  get_safe_counts_at_fork = (metrograph_get_safe_io_counts_fn)
    dlsym (RTLD_DEFAULT, "metrograph_get_safe_io_counts_at_fork");
  /* Under another host, an atfork handler of its own: under Metrograph's
   * sampler it would be run, a code page and a data page of this plugin
   * faulted in, in every fork child. */
  if (!fork_handler && !get_safe_counts_at_fork)
    fork_handler = pthread_atfork (NULL, NULL, note_fork) == 0;
  if (take_baseline () != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "I/O: cannot read /proc/self/io "
                                         "(errno %d): the kernel needs "
                                         "CONFIG_TASK_IO_ACCOUNTING", errno);
      return -1;
    }
  return 0;
}

/* The <start> function: called once every plugin is initialised. */
int
mg_io_start (plugin_id_t plugin_id)
{
  return take_baseline () == 0 ? 0 : -1;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  mg_proc_cache_close (&io_file);
  return 0;
}

static int
refresh (metric_id_t id, const struct timespec *now)
{
  if (io_generation != mg_forks_seen ())
    {
      /* A forked child: its own I/O, from 0 at the fork (the sampler's
       * first sample window in the child starts there too). */
      for (int i = 0; i < N_COUNTERS; i++)
        base[i] = cur[i] = prev[i] = 0;
      if (get_safe_counts_at_fork)
        get_safe_counts_at_fork (&safe_at_fork);
      io_generation = mg_forks_seen ();
      mg_proc_cache_invalidate (&io_file);
    }
  if (mg_proc_cache_is_current (&io_file, now))
    return 0;
  uint64_t v[N_COUNTERS];
  if (snapshot (now, v) != 0)
    {
      mg_proc_cache_invalidate (&io_file);
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot read /proc/self/io (errno %d)",
                                         errno);
      return -1;
    }
  for (int i = 0; i < N_COUNTERS; i++)
    cur[i] = v[i] > cur[i] ? v[i] : cur[i]; /* never run backwards */
  return 0;
}

/* Rates: the change since the previous call (divideBySampleTime). */
#define RATE_GETTER(name, index)                                                 \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    if (refresh (id, t) != 0)                                                    \
      return -1;                                                                 \
    *out = cur[index] - prev[index];                                             \
    prev[index] = cur[index];                                                    \
    mg_report_read_time (t, &io_file.read_time);                                 \
    return 0;                                                                    \
  }

/* Totals: the count since sampling started. */
#define TOTAL_GETTER(name, index)                                                \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    if (refresh (id, t) != 0)                                                    \
      return -1;                                                                 \
    *out = cur[index] > base[index] ? cur[index] - base[index] : 0;              \
    return 0;                                                                    \
  }

RATE_GETTER (mg_io_rchar_rate, RCHAR)
RATE_GETTER (mg_io_wchar_rate, WCHAR)
RATE_GETTER (mg_io_syscr_rate, SYSCR)
RATE_GETTER (mg_io_syscw_rate, SYSCW)
RATE_GETTER (mg_io_read_bytes_rate, READ_BYTES)
RATE_GETTER (mg_io_write_bytes_rate, WRITE_BYTES)
TOTAL_GETTER (mg_io_rchar_total, RCHAR)
TOTAL_GETTER (mg_io_wchar_total, WCHAR)
TOTAL_GETTER (mg_io_syscr_total, SYSCR)
TOTAL_GETTER (mg_io_syscw_total, SYSCW)
TOTAL_GETTER (mg_io_read_bytes_total, READ_BYTES)
TOTAL_GETTER (mg_io_write_bytes_total, WRITE_BYTES)
