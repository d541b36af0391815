/* Built-in metric plugin "Sampler overhead": the CPU time of the sampler's
 * own thread (the getters of every plugin, the record writes, the wake-ups)
 * as a percentage of one core, so that a profile says what profiling cost.
 * The figures come from the sampler (mg_sampler_usage: its thread's own CPU
 * clock, exact, and kept after the thread ends); the CPU Time plugin leaves
 * the same time out of the program's. */
#include "mg-metric-util.h"

static uint64_t prev_ns;
static unsigned generation;

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int mg_sampler_overhead (metric_id_t id, struct timespec *t, double *out);

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
  generation = mg_fork_generation;
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
  if (generation != mg_fork_generation)
    {
      /* A forked child: its own sampler thread, counted from 0. */
      prev_ns = 0;
      generation = mg_fork_generation;
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
