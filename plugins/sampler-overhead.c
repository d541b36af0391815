/* Built-in metric plugin "Sampler overhead": the CPU time of the sampler's
 * own thread (the getters of every plugin, the record writes, the wake-ups)
 * as a percentage of one core, so that a profile says what profiling cost.
 * The figures come from the sampler (mg_sampler_usage: its thread's own CPU
 * clock, exact, and kept after the thread ends); the CPU Time plugin leaves
 * the same time out of the program's.
 *
 * Beside it, what the other built-in metrics leave out of the program's
 * figures, so that nothing is hidden: the sampler's threads (Threads), its
 * thread's page faults and storage I/O and the record's resident pages
 * (mg_sampler_activity: Memory, IO)
 * and the system calls made through allinea_safe_* by the plugins and the
 * sampler (metrograph_get_safe_io_counts: IO). */
#include "mg-metric-util.h"

static uint64_t prev_ns;
static unsigned generation;

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int mg_sampler_overhead (metric_id_t id, struct timespec *t, double *out);

extern int metrograph_get_safe_io_counts (struct metrograph_safe_io_counts *out)
  __attribute__((weak));

enum { MINOR_FAULTS, MAJOR_FAULTS, STORAGE_READ, STORAGE_WRITE, READ_CALLS, WRITE_CALLS,
       READ_BYTES, WRITE_BYTES, N_LEFT_OUT };
static uint64_t left_out_prev[N_LEFT_OUT];
static unsigned left_out_generation;

/* Counts from now: the sampler thread's from 0 (it starts after the
 * plugins are initialised, and a forked child's is new), the safe I/O
 * counts from what they hold (the plugins' initialisation, or in a forked
 * child the parent's). */
static void
left_out_baseline (void)
{
  struct metrograph_safe_io_counts safe = { 0 };
  if (metrograph_get_safe_io_counts != NULL)
    metrograph_get_safe_io_counts (&safe);
  for (int i = 0; i < N_LEFT_OUT; i++)
    left_out_prev[i] = 0;
  left_out_prev[READ_CALLS] = safe.read_calls;
  left_out_prev[WRITE_CALLS] = safe.write_calls;
  left_out_prev[READ_BYTES] = safe.bytes_read;
  left_out_prev[WRITE_BYTES] = safe.bytes_written;
  left_out_generation = mg_forks_seen ();
}

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  struct metrograph_sampler_thread_usage self;
  mg_watch_forks ();
  if (!mg_sampler_usage (&self))
    {
      allinea_set_plugin_error_messagef (plugin_id, ENOSYS,
                                         "Sampler overhead: only Metrograph's own sampler "
                                         "(libmetrograph-sampler.so) tells its cost; "
                                         "disable this metric under other hosts");
      return -1;
    }
  prev_ns = self.cpu_ns;
  generation = mg_forks_seen ();
  left_out_baseline ();
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  return 0;
}

/* Seconds of the sampler thread's CPU since the previous call; the sampler
 * divides by the sample time and multiplies by 100 (units "%"). */
int
mg_sampler_overhead (metric_id_t id, struct timespec *t, double *out)
{
  struct metrograph_sampler_thread_usage self;
  if (generation != mg_forks_seen ())
    {
      /* A forked child: its own sampler thread, counted from 0. */
      prev_ns = 0;
      generation = mg_forks_seen ();
    }
  /* The round's figures, read once for this plugin and CPU Time. */
  if (mg_round_usage (t, NULL, &self) != 0 || (self.cpu_ns == 0 && !mg_sampler_usage (&self)))
    {
      allinea_set_metric_error_messagef (id, EINVAL,
                                         "the sampler thread's CPU time cannot be read "
                                         "from this thread");
      return -1;
    }
  uint64_t d = self.cpu_ns > prev_ns ? self.cpu_ns - prev_ns : 0;
  prev_ns = self.cpu_ns;
  *out = (double) d / 1e9;
  struct timespec read_time = allinea_get_current_time ();
  mg_report_read_time (t, &read_time);
  return 0;
}

/* Threads of Metrograph's running in the process (left out of Threads). */
MG_PLUGIN_EXPORT int mg_sampler_threads (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_sampler_threads (metric_id_t id, struct timespec *t, uint64_t *out)
{
  struct metrograph_sampler_thread_activity own;
  mg_sampler_activity (t, 0, &own);
  *out = own.threads;
  return 0;
}

/* The record's pages in the process's memory (left out of RSS). */
MG_PLUGIN_EXPORT int mg_sampler_record_memory (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_sampler_record_memory (metric_id_t id, struct timespec *t, uint64_t *out)
{
  struct metrograph_sampler_thread_activity own;
  mg_sampler_activity (t, 0, &own);
  *out = own.record_resident_bytes;
  return 0;
}

/* One of the counts left out of the program's, so far. */
static int
left_out_now (metric_id_t id, const struct timespec *t, int which, uint64_t *out)
{
  struct metrograph_sampler_thread_activity own;
  struct metrograph_safe_io_counts safe = { 0 };
  unsigned what = which <= MAJOR_FAULTS ? METROGRAPH_ACTIVITY_FAULTS : METROGRAPH_ACTIVITY_STORAGE;
  if (which >= READ_CALLS)
    {
      if (metrograph_get_safe_io_counts == NULL)
        {
          allinea_set_metric_error_message (id, ENOSYS, "only Metrograph's sampler counts its system calls");
          return -1;
        }
      metrograph_get_safe_io_counts (&safe);
    }
  else if (!mg_sampler_activity (t, what, &own))
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "the sampler thread's counters cannot be read "
                                         "(errno %d)", errno);
      return -1;
    }
  switch (which)
    {
    case MINOR_FAULTS: *out = own.minor_faults; break;
    case MAJOR_FAULTS: *out = own.major_faults; break;
    case STORAGE_READ: *out = own.storage_read_bytes; break;
    case STORAGE_WRITE: *out = own.storage_write_bytes; break;
    case READ_CALLS: *out = safe.read_calls; break;
    case WRITE_CALLS: *out = safe.write_calls; break;
    case READ_BYTES: *out = safe.bytes_read; break;
    default: *out = safe.bytes_written; break;
    }
  return 0;
}

/* The change since the previous call (divideBySampleTime). */
static int
left_out_delta (metric_id_t id, const struct timespec *t, int which, uint64_t *out)
{
  uint64_t v;
  if (left_out_generation != mg_forks_seen ())
    left_out_baseline ();
  if (left_out_now (id, t, which, &v) != 0)
    return -1;
  *out = mg_less (v, left_out_prev[which]);
  left_out_prev[which] = v > left_out_prev[which] ? v : left_out_prev[which];
  return 0;
}

#define LEFT_OUT_GETTER(name, which)                                             \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    return left_out_delta (id, t, which, out);                                   \
  }

LEFT_OUT_GETTER (mg_sampler_minor_faults, MINOR_FAULTS)
LEFT_OUT_GETTER (mg_sampler_major_faults, MAJOR_FAULTS)
LEFT_OUT_GETTER (mg_sampler_storage_reads, STORAGE_READ)
LEFT_OUT_GETTER (mg_sampler_storage_writes, STORAGE_WRITE)
LEFT_OUT_GETTER (mg_sampler_read_calls, READ_CALLS)
LEFT_OUT_GETTER (mg_sampler_write_calls, WRITE_CALLS)
LEFT_OUT_GETTER (mg_sampler_read_bytes, READ_BYTES)
LEFT_OUT_GETTER (mg_sampler_write_bytes, WRITE_BYTES)
