/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backfill1: an example of a backfilled metric.
 *
 * A backfilled metric (<backfill>true</backfill> in backfill1.xml) is not
 * read while the program runs: when sampling ends, the profiler calls the
 * getter once for every sample taken, passing that sample's time, so data
 * gathered outside the sampler (power logs, I/O logs...) can be lined up
 * with the other metrics. Here every sample simply gets the value 5. */
#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"

int backfilled_metric (metric_id_t metric_id, struct timespec *in_out_sample_time,
                       uint64_t *out_value);

int
allinea_plugin_initialise (plugin_id_t plugin_id, void *unused)
{
  (void) plugin_id;
  (void) unused;
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *unused)
{
  (void) plugin_id;
  (void) unused;
  return 0;
}

/* <functions><start>: called when the sampler starts. */
int
start_profiling (plugin_id_t plugin_id)
{
  (void) plugin_id;
  return 0;
}

/* <functions><stop>: called when sampling has stopped; may run in a signal
 * handler, so async-signal-safe calls only. */
int
stop_profiling (plugin_id_t plugin_id)
{
  (void) plugin_id;
  return 0;
}

int
backfilled_metric (metric_id_t metric_id, struct timespec *in_out_sample_time,
                   uint64_t *out_value)
{
  (void) metric_id;
  /* in_out_sample_time is the time of the sample being filled in; for a
   * backfilled metric it must not be written. */
  (void) in_out_sample_time;
  *out_value = 5;
  return 0;
}
