/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counters shared between the MPI wrapper (mpi-wrap.c, linked into
 * the sampler preloaded into the program) and the MPI metric plugin
 * (libmetrograph-mpi.so), which finds them with
 * dlsym(RTLD_DEFAULT, "metrograph_mpi_counters"): plain process memory,
 * updated with relaxed atomic additions, no shared-memory segment.
 *
 * Each call adds only to the counters it changes (its kind's calls, its
 * non-zero bytes): the totals (all calls, all bytes sent, ...) are sums the
 * plugin makes. */
#ifndef MG_MPI_COUNTERS_H
#define MG_MPI_COUNTERS_H

#include <stdint.h>

#define MG_MPI_COUNTERS_VERSION 2

/* in_mpi packs the calls in flight and their time into one word, so that
 * the plugin reads both at once: the low MG_MPI_ACTIVE_BITS count the
 * calls in flight, the rest is, modulo 2^48 ns, the time of the calls that
 * ended minus the start times of those in flight. The time spent in MPI up
 * to a moment `now` is then (rest + active x now) mod 2^48 (CLOCK_MONOTONIC
 * ns): calls in flight count as the time passes, not when they return. A
 * call adds 1 - start x 2^16 when it starts and end x 2^16 - 1 when it
 * ends: one addition each, with no lock. */
#define MG_MPI_ACTIVE_BITS 16
#define MG_MPI_TIME_MASK ((UINT64_C (1) << (64 - MG_MPI_ACTIVE_BITS)) - 1)

struct metrograph_mpi_counters {
  uint64_t version;          /* MG_MPI_COUNTERS_VERSION */
  uint64_t in_mpi;           /* calls in flight and their time, see above */
  uint64_t time_ns;          /* whole durations of the counted calls that ended */
  uint64_t p2p_calls;        /* [I][S|R|B]send, Recv, Irecv, Sendrecv[_replace] */
  uint64_t collective_calls; /* [I]Bcast, [I]Reduce, [I]Allreduce, [I]Barrier,
                                [I]Gather, [I]Scatter, [I]Allgather, [I]Alltoall */
  uint64_t other_calls;      /* Wait, Test and their -all/-any/-some forms */
  uint64_t p2p_sent;         /* count x type size */
  uint64_t p2p_recv;         /* what arrived, from the status */
  uint64_t collective_sent;
  uint64_t collective_recv;
};

/* The wrapper's side: a call starts at start_ns, ends at end_ns. */
static inline void
mg_mpi_counters_enter (struct metrograph_mpi_counters *c, uint64_t start_ns)
{
  __atomic_fetch_add (&c->in_mpi, (uint64_t) 1 - (start_ns << MG_MPI_ACTIVE_BITS),
                      __ATOMIC_RELAXED);
}

static inline void
mg_mpi_counters_leave (struct metrograph_mpi_counters *c, uint64_t end_ns)
{
  __atomic_fetch_add (&c->in_mpi, (end_ns << MG_MPI_ACTIVE_BITS) - 1, __ATOMIC_RELAXED);
}

/* n calls in flight end at end_ns (a forked child, whose other threads
 * are gone). */
static inline void
mg_mpi_counters_leave_many (struct metrograph_mpi_counters *c, uint64_t end_ns, uint64_t n)
{
  __atomic_fetch_add (&c->in_mpi, ((n * end_ns) << MG_MPI_ACTIVE_BITS) - n, __ATOMIC_RELAXED);
}

/* The plugin's side: the time in MPI up to now_ns (mod 2^48), from a value
 * of in_mpi read before now_ns was taken. */
static inline uint64_t
mg_mpi_counters_time_at (uint64_t in_mpi, uint64_t now_ns)
{
  uint64_t active = in_mpi & ((UINT64_C (1) << MG_MPI_ACTIVE_BITS) - 1);
  return ((in_mpi >> MG_MPI_ACTIVE_BITS) + active * now_ns) & MG_MPI_TIME_MASK;
}

#endif /* MG_MPI_COUNTERS_H */
