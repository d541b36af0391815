/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "Memory": resident set size, node memory use,
 * installed memory and page faults.
 *
 * rss: /proc/self/statm (resident pages) x page size, less the record's
 * pages the sampler has written through its mapping (mg_sampler_activity).
 * node_mem_percent, memory_per_node: /proc/meminfo (MemTotal, MemAvailable),
 * read at most every NODE_REFRESH_NS: the kernel formats its 50 lines and
 * walks the block devices for it, a fifth of a whole sampling round, for a
 * node-wide figure that a tenth of a second does not make stale.
 * Page faults: getrusage(RUSAGE_SELF), read once a round for this plugin
 * and CPU Time (mg_round_usage), all
 * threads (and waited-for children are not included) but the sampler's:
 * its own faults (mg_sampler_activity: the record's pages it touches
 * through the record's mapping are major faults) are subtracted. In a forked child,
 * which the sampler keeps sampling with the plugins it inherited,
 * getrusage counts the child's own faults, from 0 at the fork: the
 * baseline is reset to 0 there, so that the child's first sample holds its
 * faults since it started, and a delta is never taken across the fork. */
#include <sys/resource.h>
#include <unistd.h>

#include "mg-proc-cache.h"

static uint64_t page_size = 4096;
static uint64_t minflt_cur, majflt_cur, minflt_prev, majflt_prev;
static int64_t fault_round;
static unsigned fault_generation; /* mg_forks_seen () at the baseline */
static struct timespec fault_read_time;
MG_PROC_CACHE (statm, "/proc/self/statm", 256);
/* Shared by the node metrics; its two numbers parsed once per reading. */
MG_PROC_CACHE (meminfo, "/proc/meminfo", 4096);
static uint64_t meminfo_total_kb, meminfo_available_kb;
#define NODE_REFRESH_NS 100000000
static int64_t meminfo_read_ns; /* sample time of the last reading; 0: none */

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  mg_watch_forks ();
  long ps = sysconf (_SC_PAGESIZE);
  if (ps > 0)
    page_size = (uint64_t) ps;
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "Memory: getrusage failed: errno %d",
                                         errno);
      return -1;
    }
  minflt_prev = minflt_cur = (uint64_t) ru.ru_minflt;
  majflt_prev = majflt_cur = (uint64_t) ru.ru_majflt;
  fault_round = 0;
  fault_generation = mg_forks_seen ();
  mg_proc_cache_invalidate (&statm);
  mg_proc_cache_invalidate (&meminfo);
  meminfo_read_ns = 0;
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  mg_proc_cache_close (&statm);
  mg_proc_cache_close (&meminfo);
  return 0;
}

/* /proc/self/statm's seven numbers, one space apart, a newline last. */
static bool
is_statm (const char *text)
{
  int fields = 0;
  while (*text >= '0' && *text <= '9')
    {
      while (*text >= '0' && *text <= '9')
        text++;
      fields++;
      if (*text == '\n')
        return fields == 7 && text[1] == '\0';
      if (*text++ != ' ')
        return false;
    }
  return false;
}

/* statm's text for the round of now; a text that is not statm's (another
 * file at our descriptor's number, mg_proc_cache_recheck) is read again
 * from the file itself, once. NULL with errno set on failure. */
static const char *
read_statm (const struct timespec *now)
{
  const char *text = mg_proc_cache_text (&statm, now, NULL);
  if (text == NULL || is_statm (text))
    return text;
  mg_proc_cache_recheck (&statm);
  text = mg_proc_cache_text (&statm, now, NULL);
  if (text != NULL && !is_statm (text))
    {
      mg_proc_cache_invalidate (&statm);
      errno = EINVAL;
      return NULL;
    }
  return text;
}

MG_PLUGIN_EXPORT int mg_memory_rss (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_memory_rss (metric_id_t id, struct timespec *t, uint64_t *out)
{
  const char *p = read_statm (t);
  if (p == NULL)
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot read /proc/self/statm (errno %d)",
                                         errno);
      return -1;
    }
  struct metrograph_sampler_thread_activity own;
  mg_parse_u64 (&p); /* size */
  mg_sampler_activity (t, 0, &own);
  *out = mg_less (mg_parse_u64 (&p) * page_size, own.record_resident_bytes);
  return 0;
}

static int
read_meminfo (metric_id_t id, const struct timespec *now, uint64_t *total_kb,
              uint64_t *available_kb)
{
  bool fresh = false;
  const char *text = "";
  int64_t now_ns = mg_timespec_ns (now);
  if (meminfo_read_ns == 0 || now_ns - meminfo_read_ns >= NODE_REFRESH_NS
      || now_ns < meminfo_read_ns)
    text = mg_proc_cache_text (&meminfo, now, &fresh);
  if (text == NULL)
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot read /proc/meminfo (errno %d)",
                                         errno);
      return -1;
    }
  for (int attempt = 0; fresh; attempt++)
    {
      bool found_total, found_available;
      meminfo_total_kb = mg_key_u64 (text, "MemTotal:", &found_total);
      meminfo_available_kb = mg_key_u64 (text, "MemAvailable:", &found_available);
      meminfo_read_ns = now_ns;
      if (found_total && found_available)
        break;
      meminfo_total_kb = 0;
      /* Another file's text (mg_proc_cache_recheck), not an old kernel's
       * meminfo: once more, from the file itself. */
      bool is_meminfo;
      mg_key_u64 (text, "MemFree:", &is_meminfo);
      if (attempt > 0 || is_meminfo)
        break;
      mg_proc_cache_recheck (&meminfo);
      text = mg_proc_cache_text (&meminfo, now, &fresh);
      if (text == NULL)
        {
          allinea_set_metric_error_messagef (id, errno, "cannot read /proc/meminfo (errno %d)",
                                             errno);
          return -1;
        }
    }
  if (meminfo_total_kb == 0)
    {
      allinea_set_metric_error_message (id, EINVAL,
                                        "/proc/meminfo has no MemTotal or "
                                        "MemAvailable line (Linux 3.14 or later "
                                        "needed)");
      return -1;
    }
  *total_kb = meminfo_total_kb;
  *available_kb = meminfo_available_kb;
  return 0;
}

/* Memory in use on the node (total minus available) as a percentage. */
MG_PLUGIN_EXPORT int mg_memory_node_percent (metric_id_t id, struct timespec *t, double *out);
int
mg_memory_node_percent (metric_id_t id, struct timespec *t, double *out)
{
  uint64_t total, available;
  if (read_meminfo (id, t, &total, &available) != 0)
    return -1;
  uint64_t used = total > available ? total - available : 0;
  *out = (double) used * 100.0 / (double) total;
  return 0;
}

MG_PLUGIN_EXPORT int mg_memory_per_node (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_memory_per_node (metric_id_t id, struct timespec *t, uint64_t *out)
{
  uint64_t total, available;
  if (read_meminfo (id, t, &total, &available) != 0)
    return -1;
  *out = total * 1024;
  return 0;
}

static int
refresh_faults (metric_id_t id, const struct timespec *now)
{
  if (fault_generation != mg_forks_seen ())
    {
      /* A forked child: its counts started again from 0 at the fork. */
      fault_generation = mg_forks_seen ();
      minflt_cur = minflt_prev = majflt_cur = majflt_prev = 0;
      fault_round = 0;
    }
  if (mg_same_round (now, &fault_round))
    return 0;
  struct rusage ru;
  struct metrograph_sampler_thread_activity own;
  if (mg_round_usage (now, &ru, NULL) != 0)
    {
      fault_round = 0;
      allinea_set_metric_error_messagef (id, errno,
                                         "getrusage failed (errno %d)", errno);
      return -1;
    }
  mg_sampler_activity (now, METROGRAPH_ACTIVITY_FAULTS, &own);
  minflt_cur = mg_less ((uint64_t) ru.ru_minflt, own.minor_faults);
  majflt_cur = mg_less ((uint64_t) ru.ru_majflt, own.major_faults);
  fault_read_time = allinea_get_current_time ();
  return 0;
}

/* cur - prev, never wrapped: the counts never fall within one process, but
 * a wrapped difference would read as 1.8e19 faults. */
static uint64_t
fault_delta (uint64_t cur, uint64_t *prev)
{
  uint64_t d = cur >= *prev ? cur - *prev : 0;
  *prev = cur;
  return d;
}

/* Faults since the previous call; the sampler divides by the sample time. */
MG_PLUGIN_EXPORT int mg_memory_minor_faults (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_memory_minor_faults (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (refresh_faults (id, t) != 0)
    return -1;
  *out = fault_delta (minflt_cur, &minflt_prev);
  mg_report_read_time (t, &fault_read_time);
  return 0;
}

MG_PLUGIN_EXPORT int mg_memory_major_faults (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_memory_major_faults (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (refresh_faults (id, t) != 0)
    return -1;
  *out = fault_delta (majflt_cur, &majflt_prev);
  mg_report_read_time (t, &fault_read_time);
  return 0;
}
