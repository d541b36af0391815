/* Built-in metric plugin "CPU Time": CPU time percentages, context switches
 * and the node's running threads, with MAP's ids and meanings.
 *
 * One getrusage(RUSAGE_SELF) per sampling round serves every getter: it is a
 * single system call (no libc state, so safe in a signal handler) and, unlike
 * /proc/self/status, sums all threads of the process. Its user and system
 * times (microseconds) are split from the scheduler's exact run time, so
 * their sum is the process's CPU time. */
#include <sys/resource.h>

#include "mg-metric-util.h"

typedef struct {
  uint64_t cpu_ns, user_ns, system_ns;
  uint64_t voluntary, involuntary;
} CpuSnapshot;

static CpuSnapshot cur;
static int64_t cur_round;
static int physical_cores = 1;
static MgProcFile loadavg_file = MG_PROC_FILE ("/proc/loadavg");

/* The previous value each getter saw, so each returns its own delta. */
static CpuSnapshot prev_cpu, prev_user, prev_system, prev_vol, prev_invol;

static uint64_t
timeval_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

static int
take_snapshot (CpuSnapshot *s)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return -1;
  s->user_ns = timeval_ns (&ru.ru_utime);
  s->system_ns = timeval_ns (&ru.ru_stime);
  s->cpu_ns = s->user_ns + s->system_ns;
  s->voluntary = (uint64_t) ru.ru_nvcsw;
  s->involuntary = (uint64_t) ru.ru_nivcsw;
  return 0;
}

static int
refresh (metric_id_t id, const struct timespec *now)
{
  if (mg_same_round (now, &cur_round))
    return 0;
  if (take_snapshot (&cur) != 0)
    {
      cur_round = 0;
      allinea_set_metric_error_messagef (id, errno,
                                         "getrusage failed (errno %d)", errno);
      return -1;
    }
  return 0;
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  mg_watch_forks ();
  if (take_snapshot (&cur) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "CPU Time: getrusage failed: errno %d",
                                         errno);
      return -1;
    }
  prev_cpu = prev_user = prev_system = prev_vol = prev_invol = cur;
  cur_round = 0;
  int cores = allinea_get_physical_core_count ();
  if (cores <= 0)
    cores = allinea_get_logical_core_count ();
  physical_cores = cores > 0 ? cores : 1;
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  mg_proc_file_close (&loadavg_file);
  return 0;
}

/* Seconds of CPU consumed since the previous call: the sampler divides by
 * the sample time and multiplies by 100 (units "%", divideBySampleTime). */
#define SECONDS_GETTER(name, field, prev)                                      \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, double *out); \
  int name (metric_id_t id, struct timespec *t, double *out)                   \
  {                                                                            \
    if (refresh (id, t) != 0)                                                  \
      return -1;                                                               \
    uint64_t d = cur.field >= prev.field ? cur.field - prev.field : 0;         \
    prev.field = cur.field;                                                    \
    *out = (double) d / 1e9;                                                   \
    return 0;                                                                  \
  }

#define COUNT_GETTER(name, field, prev)                                          \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    if (refresh (id, t) != 0)                                                    \
      return -1;                                                                 \
    *out = cur.field >= prev.field ? cur.field - prev.field : 0;                 \
    prev.field = cur.field;                                                      \
    return 0;                                                                    \
  }

SECONDS_GETTER (mg_cpu_time, cpu_ns, prev_cpu)
SECONDS_GETTER (mg_cpu_user_time, user_ns, prev_user)
SECONDS_GETTER (mg_cpu_system_time, system_ns, prev_system)
COUNT_GETTER (mg_cpu_voluntary_switches, voluntary, prev_vol)
COUNT_GETTER (mg_cpu_involuntary_switches, involuntary, prev_invol)

/* Runnable threads on the node (4th field of /proc/loadavg, "running/total")
 * as a percentage of the physical cores. The count includes the thread that
 * is reading it. */
MG_PLUGIN_EXPORT int mg_cpu_loadavg (metric_id_t id, struct timespec *t, double *out);
int
mg_cpu_loadavg (metric_id_t id, struct timespec *t, double *out)
{
  char buf[128];
  if (mg_proc_file_read (&loadavg_file, buf, sizeof buf) < 0)
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot read /proc/loadavg (errno %d)",
                                         errno);
      return -1;
    }
  const char *p = buf;
  for (int field = 0; field < 3; field++)
    {
      p = mg_skip_spaces (p);
      while (*p && *p != ' ')
        p++;
    }
  uint64_t running = mg_parse_u64 (&p);
  *out = (double) running * 100.0 / physical_cores;
  return 0;
}
