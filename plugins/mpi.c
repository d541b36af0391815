/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "MPI": calls, bytes and time in MPI, from the
 * counters of the MPI wrapper (mpi-wrap.c, linked into the preloaded
 * sampler), found with dlsym(RTLD_DEFAULT, "metrograph_mpi_counters").
 * In a program that is not an MPI program the plugin declines: it returns
 * -1 from initialise with error code 0, which says that nothing went wrong
 * (docs/builtin-metrics.md), and the MPI group shows as unavailable with
 * the reason "not an MPI program". */
#include <dlfcn.h>

#include "mg-metric-util.h"
#include "mpi-counters.h"

enum {
  CALL_TIME, SENT, RECV, P2P_BYTES, COLLECT_BYTES, CALLS, P2P, COLLECT,
  CALLS_FOR_TIME, /* the same sum as CALLS, with a previous value of its own */
  N_GETTERS
};

static const struct metrograph_mpi_counters *counters;
static uint64_t prev[N_GETTERS];
static uint64_t time_prev_ns;     /* time in MPI up to the previous sample (mod 2^48) */
static uint64_t sample_prev_ns;   /* the previous sample's time (CLOCK_MONOTONIC, as
                                     the sampler's and the wrapper's; at first the
                                     plugin's initialisation) */

static uint64_t
load (const uint64_t *counter)
{
  return __atomic_load_n (counter, __ATOMIC_RELAXED);
}

/* The wrapper adds each call to its kind's counters only: the totals are
 * sums here. */
static uint64_t
current (int which)
{
  const struct metrograph_mpi_counters *c = counters;
  switch (which)
    {
    case CALL_TIME: return load (&c->time_ns);
    case SENT: return load (&c->p2p_sent) + load (&c->collective_sent);
    case RECV: return load (&c->p2p_recv) + load (&c->collective_recv);
    case P2P_BYTES: return load (&c->p2p_sent) + load (&c->p2p_recv);
    case COLLECT_BYTES: return load (&c->collective_sent) + load (&c->collective_recv);
    case CALLS:
    case CALLS_FOR_TIME:
      return load (&c->p2p_calls) + load (&c->collective_calls) + load (&c->other_calls);
    case P2P: return load (&c->p2p_calls);
    default: return load (&c->collective_calls);
    }
}

static uint64_t
ts_ns (const struct timespec *t)
{
  return (uint64_t) t->tv_sec * 1000000000u + (uint64_t) t->tv_nsec;
}

static uint64_t
mono_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts_ns (&ts);
}

/* In a forked child only the forking thread goes on, and it was not in an
 * MPI call: calls other threads had in flight end at the fork (their time
 * so far stays), or the child would read 100 % MPI time for ever. */
static void
calls_end_at_fork (void)
{
  struct metrograph_mpi_counters *c = (struct metrograph_mpi_counters *) counters;
  if (c == NULL)
    return;
  uint64_t word = __atomic_load_n (&c->in_mpi, __ATOMIC_RELAXED);
  uint64_t active = word & ((UINT64_C (1) << MG_MPI_ACTIVE_BITS) - 1);
  if (active == 0)
    return;
  mg_mpi_counters_leave_many (c, mono_now_ns (), active);
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  if (dlsym (RTLD_DEFAULT, "PMPI_Init") == NULL)
    {
      allinea_set_plugin_error_message (plugin_id, 0,
                                        "MPI: not an MPI program (no MPI library is loaded)");
      return -1;
    }
  counters = dlsym (RTLD_DEFAULT, "metrograph_mpi_counters");
  if (counters == NULL)
    {
      allinea_set_plugin_error_message (
          plugin_id, 0,
          "MPI: the preloaded sampler has no MPI wrapper (Metrograph was built "
          "without the Open MPI development files): rebuild it with them");
      return -1;
    }
  if (counters->version != MG_MPI_COUNTERS_VERSION)
    {
      allinea_set_plugin_error_messagef (
          plugin_id, EINVAL,
          "MPI: the preloaded sampler's MPI wrapper has counters version %d, this "
          "plugin needs %d: reinstall Metrograph",
          (int) counters->version, MG_MPI_COUNTERS_VERSION);
      counters = NULL;
      return -1;
    }
  static bool fork_handler;
  if (!fork_handler)
    fork_handler = pthread_atfork (NULL, NULL, calls_end_at_fork) == 0;
  for (int i = 0; i < N_GETTERS; i++)
    prev[i] = current (i);
  sample_prev_ns = mono_now_ns ();
  time_prev_ns = mg_mpi_counters_time_at (load (&counters->in_mpi), sample_prev_ns);
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  return 0;
}

static uint64_t
delta (int which)
{
  uint64_t v = current (which);
  uint64_t d = v - prev[which];
  prev[which] = v;
  return d;
}

/* Mean duration of the MPI calls that ended since the previous sample
 * (ns), each its whole duration, counted when it ends; 0 when none ended. */
MG_PLUGIN_EXPORT int mg_mpi_call_time (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_mpi_call_time (metric_id_t id, struct timespec *t, uint64_t *out)
{
  uint64_t ns = delta (CALL_TIME);
  uint64_t n = delta (CALLS_FOR_TIME);
  *out = n ? ns / n : 0;
  return 0;
}

/* Seconds inside MPI calls since the previous sample, calls still in
 * flight included up to the sample's time t: units "%" with
 * divideBySampleTime make it the percentage of wall time spent in MPI. A
 * rank blocked in a call reads 100 % in every sample of the wait, not when
 * the call returns. Summed over the threads in MPI, at most the sample's
 * length. Reads one word and does arithmetic: async-signal-safe. */
MG_PLUGIN_EXPORT int mg_mpi_time (metric_id_t id, struct timespec *t, double *out);
int
mg_mpi_time (metric_id_t id, struct timespec *t, double *out)
{
  uint64_t now = ts_ns (t);
  uint64_t in_mpi = mg_mpi_counters_time_at (load (&counters->in_mpi), now);
  uint64_t ns = (in_mpi - time_prev_ns) & MG_MPI_TIME_MASK;
  uint64_t span = now > sample_prev_ns ? now - sample_prev_ns : 0;

  /* A call that ended between the sample's time and the read makes a
   * sliver past the time (or before it, next time): kept in [0, span]. */
  if (ns > MG_MPI_TIME_MASK / 2)
    ns = 0;
  if (ns > span)
    ns = span;
  time_prev_ns = in_mpi;
  sample_prev_ns = now;
  *out = (double) ns / 1e9;
  return 0;
}

/* The others: the change since the previous sample (divideBySampleTime). */
#define DELTA_GETTER(name, which)                                                \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    *out = delta (which);                                                        \
    return 0;                                                                    \
  }

DELTA_GETTER (mg_mpi_sent, SENT)
DELTA_GETTER (mg_mpi_recv, RECV)
DELTA_GETTER (mg_mpi_p2p_bytes, P2P_BYTES)
DELTA_GETTER (mg_mpi_collect_bytes, COLLECT_BYTES)
DELTA_GETTER (mg_mpi_calls, CALLS)
DELTA_GETTER (mg_mpi_p2p, P2P)
DELTA_GETTER (mg_mpi_collect, COLLECT)
