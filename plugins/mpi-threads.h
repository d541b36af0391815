/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which threads are inside an MPI call, for the activity plugin
 * (plugins/activity.c), which finds the table with
 * dlsym(RTLD_DEFAULT, "metrograph_mpi_threads"). The wrapper
 * (mpi-wrap.c) already marks every call's start and end for the MPI time
 * (mpi-counters.h); that count is the process's, and a thread's class
 * needs its own: each thread that calls MPI takes a slot (its tid, with
 * a compare-and-swap, once) and keeps its calls in flight there with a
 * plain atomic store, no lock. Only the owning thread writes its depth;
 * the sampler's thread reads it.
 *
 * A slot stays with its tid after the thread ends: a later thread with the
 * same tid takes it again (depth 0 then, since a thread ends outside MPI).
 * More than MG_MPI_THREAD_SLOTS MPI-calling threads: the others are not
 * followed (read as not in MPI). */
#ifndef MG_MPI_THREADS_H
#define MG_MPI_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MG_MPI_THREADS_VERSION 1
#define MG_MPI_THREAD_SLOTS 256

struct metrograph_mpi_threads {
  uint64_t version;                    /* MG_MPI_THREADS_VERSION */
  int32_t tid[MG_MPI_THREAD_SLOTS];    /* 0: free */
  uint32_t depth[MG_MPI_THREAD_SLOTS]; /* the slot's thread's calls in flight */
};

/* The slot of tid, taking a free one if it has none; -1 when full. */
static inline int
mg_mpi_threads_claim (struct metrograph_mpi_threads *t, pid_t tid)
{
  for (int i = 0; i < MG_MPI_THREAD_SLOTS; i++)
    {
      int32_t owner = __atomic_load_n (&t->tid[i], __ATOMIC_ACQUIRE);
      if (owner == tid)
        return i;
      if (owner == 0)
        {
          int32_t expected = 0;
          if (__atomic_compare_exchange_n (&t->tid[i], &expected, (int32_t) tid, false,
                                           __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return i;
          if (expected == tid)
            return i;
        }
    }
  return -1;
}

/* The owner's side: one call more (+1) or less (-1) in flight. */
static inline void
mg_mpi_threads_step (struct metrograph_mpi_threads *t, int slot, int step)
{
  if (slot < 0)
    return;
  uint32_t d = __atomic_load_n (&t->depth[slot], __ATOMIC_RELAXED);
  if (step < 0 && d == 0)
    return;
  __atomic_store_n (&t->depth[slot], d + (uint32_t) step, __ATOMIC_RELEASE);
}

/* The reader's side: is thread tid inside an MPI call now? */
static inline bool
mg_mpi_threads_in_call (const struct metrograph_mpi_threads *t, pid_t tid)
{
  for (int i = 0; i < MG_MPI_THREAD_SLOTS; i++)
    {
      int32_t owner = __atomic_load_n (&t->tid[i], __ATOMIC_ACQUIRE);
      if (owner == 0)
        return false; /* slots are taken in order: none after a free one */
      if (owner == tid)
        return __atomic_load_n (&t->depth[i], __ATOMIC_ACQUIRE) > 0;
    }
  return false;
}

/* A forked child: the parent's threads are gone; only the forking thread
 * goes on, outside MPI. */
static inline void
mg_mpi_threads_forget_all (struct metrograph_mpi_threads *t)
{
  for (int i = 0; i < MG_MPI_THREAD_SLOTS; i++)
    {
      __atomic_store_n (&t->depth[i], 0, __ATOMIC_RELAXED);
      __atomic_store_n (&t->tid[i], 0, __ATOMIC_RELEASE);
    }
}

#endif /* MG_MPI_THREADS_H */
