/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "MPI": calls, bytes and time in MPI, from the
 * counters of the MPI wrapper (libmetrograph-mpi-wrap.so, this source's
 * <preload>), found with dlsym(RTLD_DEFAULT, "metrograph_mpi_counters").
 * In a program that is not an MPI program the plugin declines: it returns
 * -1 from initialise with error code 0, which says that nothing went wrong
 * (docs/builtin-metrics.md), and the MPI group shows as unavailable with
 * the reason "not an MPI program". */
#include <dlfcn.h>

#include "mg-metric-util.h"
#include "mpi-counters.h"

enum {
  CALL_TIME, SENT, RECV, P2P_BYTES, COLLECT_BYTES, CALLS, P2P, COLLECT,
  TIME_IN_MPI, /* the same counter as CALL_TIME, with a previous value of its own */
  N_GETTERS
};

static const struct metrograph_mpi_counters *counters;
static uint64_t prev[N_GETTERS];
static uint64_t prev_calls_for_time;
static double time_carry;  /* MPI time of past samples beyond their length (s) */
static double time_prev;   /* the previous sample's time (s), 0 before the first */

static uint64_t
load (const uint64_t *counter)
{
  return __atomic_load_n (counter, __ATOMIC_RELAXED);
}

static uint64_t
current (int which)
{
  switch (which)
    {
    case CALL_TIME:
    case TIME_IN_MPI: return load (&counters->time_ns);
    case SENT: return load (&counters->bytes_sent);
    case RECV: return load (&counters->bytes_recv);
    case P2P_BYTES: return load (&counters->p2p_bytes);
    case COLLECT_BYTES: return load (&counters->collective_bytes);
    case CALLS: return load (&counters->calls);
    case P2P: return load (&counters->p2p_calls);
    default: return load (&counters->collective_calls);
    }
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  counters = dlsym (RTLD_DEFAULT, "metrograph_mpi_counters");
  if (counters == NULL || dlsym (RTLD_DEFAULT, "PMPI_Init") == NULL)
    {
      counters = NULL;
      allinea_set_plugin_error_message (
          plugin_id, 0,
          "MPI: not an MPI program (no MPI library is loaded, or the "
          "Metrograph MPI wrapper libmetrograph-mpi-wrap.so was not preloaded)");
      return -1;
    }
  if (counters->version != MG_MPI_COUNTERS_VERSION)
    {
      allinea_set_plugin_error_messagef (
          plugin_id, EINVAL,
          "MPI: the preloaded MPI wrapper has counters version %d, this "
          "plugin needs %d: reinstall Metrograph",
          (int) counters->version, MG_MPI_COUNTERS_VERSION);
      counters = NULL;
      return -1;
    }
  for (int i = 0; i < N_GETTERS; i++)
    prev[i] = current (i);
  prev_calls_for_time = current (CALLS);
  time_carry = time_prev = 0;
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

/* Mean duration of the MPI calls completed since the previous sample (ns);
 * 0 when there were none. */
MG_PLUGIN_EXPORT int mg_mpi_call_time (metric_id_t id, struct timespec *t, uint64_t *out);
int
mg_mpi_call_time (metric_id_t id, struct timespec *t, uint64_t *out)
{
  uint64_t ns = delta (CALL_TIME);
  uint64_t calls = current (CALLS);
  uint64_t n = calls - prev_calls_for_time;
  prev_calls_for_time = calls;
  *out = n ? ns / n : 0;
  return 0;
}

/* Seconds inside MPI calls since the previous sample: units "%" with
 * divideBySampleTime make it the percentage of wall time spent in MPI. A
 * call is counted when it returns, so a long one would put more than the
 * sample's time into one sample: the excess is carried into the next ones,
 * which keeps the total and never goes past 100 %. */
MG_PLUGIN_EXPORT int mg_mpi_time (metric_id_t id, struct timespec *t, double *out);
int
mg_mpi_time (metric_id_t id, struct timespec *t, double *out)
{
  double seconds = (double) delta (TIME_IN_MPI) / 1e9 + time_carry;
  double now = (double) t->tv_sec + (double) t->tv_nsec / 1e9;

  time_carry = 0;
  if (time_prev > 0 && seconds > now - time_prev)
    {
      time_carry = seconds - (now - time_prev);
      seconds = now - time_prev;
    }
  time_prev = now;
  *out = seconds;
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
