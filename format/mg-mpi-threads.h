/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which threads are inside an MPI call, and where they called it from,
 * for the activity plugin (plugins/activity.c) and the sampler's call
 * stacks (sampler/mg-stacks.c), which find the table with
 * dlsym(RTLD_DEFAULT, "metrograph_mpi_threads"). The MPI wrapper
 * (plugins/mpi-wrap.c) already marks every call's start and end for the MPI time
 * (mpi-counters.h); that count is the process's, and a thread's class
 * needs its own: each thread that calls MPI takes a slot (its tid, with
 * a compare-and-swap, once) and keeps its calls in flight there with a
 * plain atomic store, no lock. Only the owning thread writes its depth;
 * the sampler's thread reads it.
 *
 * A slot stays with its tid after the thread ends: a later thread with the
 * same tid takes it again (depth 0 then, since a thread ends outside MPI).
 * More than MG_MPI_THREAD_SLOTS MPI-calling threads: the others are not
 * followed (read as not in MPI).
 *
 * Version 2: the outermost call of a thread also leaves, before its depth
 * goes to 1, the address in the wrapper's MPI_<name> that entered it and
 * the return address into the program (the call site), two plain stores:
 * a thread blocked in MPI is sampled as the stack [MPI_<name>, call site]
 * without a signal (docs/sampler.md, "MPI waits").
 *
 * Version 3: the outermost call also leaves its wrapper's frame address
 * (the MPI_<name>'s frame pointer: the caller's saved rbp there, the
 * return address above it, the caller's stack pointer above that), and
 * numbers its calls (calls[], a sequence count written before the other
 * fields and read again after them, as a sequence lock): the sampler's
 * thread walks the caller's frames from there while the call is in
 * flight, and keeps the walk only when the same call is still in flight
 * after it (mg_mpi_threads_call_still). */
#ifndef MG_MPI_THREADS_H
#define MG_MPI_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define MG_MPI_THREADS_VERSION 3
#define MG_MPI_THREAD_SLOTS 256

struct metrograph_mpi_threads {
  uint64_t version;                    /* MG_MPI_THREADS_VERSION */
  int32_t tid[MG_MPI_THREAD_SLOTS];    /* 0: free */
  uint32_t depth[MG_MPI_THREAD_SLOTS]; /* the slot's thread's calls in flight */
  /* Of the outermost call in flight (meaningful while depth > 0). */
  uint64_t function[MG_MPI_THREAD_SLOTS]; /* an address inside the wrapper's MPI_<name> */
  uint64_t site[MG_MPI_THREAD_SLOTS];     /* the return address into its caller */
  uint64_t frame[MG_MPI_THREAD_SLOTS];    /* the wrapper's frame address, 0: none */
  uint32_t calls[MG_MPI_THREAD_SLOTS];    /* outermost calls entered, this one included */
};

/* One outermost call as the reader saw it. */
struct mg_mpi_call
{
  uint64_t function, site, frame;
  uint32_t seq; /* calls[] when it was read: names the call */
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

/* The owner's side: a call enters, from site, in the wrapper's function
 * (an address inside it). Only the outermost call leaves its place: an
 * MPI call that the MPI library makes from inside another (through the
 * wrapper's MPI_*) is the outer call's wait. */
static inline void
mg_mpi_threads_enter (struct metrograph_mpi_threads *t, int slot, uint64_t function,
                      uint64_t site, uint64_t frame)
{
  if (slot < 0)
    return;
  uint32_t d = __atomic_load_n (&t->depth[slot], __ATOMIC_RELAXED);
  if (d == 0)
    {
      /* The sequence count first (release: the last call's end before
       * it), the fields after it (the fence): a reader that saw a field of
       * this call sees the new count when it reads it again. On x86-64
       * all of it is plain moves. */
      uint32_t seq = __atomic_load_n (&t->calls[slot], __ATOMIC_RELAXED);
      __atomic_store_n (&t->calls[slot], seq + 1, __ATOMIC_RELEASE);
      __atomic_thread_fence (__ATOMIC_RELEASE);
      __atomic_store_n (&t->function[slot], function, __ATOMIC_RELAXED);
      __atomic_store_n (&t->site[slot], site, __ATOMIC_RELAXED);
      __atomic_store_n (&t->frame[slot], frame, __ATOMIC_RELAXED);
    }
  __atomic_store_n (&t->depth[slot], d + 1, __ATOMIC_RELEASE);
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

/* The reader's side: the call of the thread in slot i, when it is in
 * one: its function and call site, read after its depth (the owner
 * writes them before). A call that ended and another that began between
 * the reads may mix the two: one sample among thousands. */
static inline bool
mg_mpi_threads_call_at (const struct metrograph_mpi_threads *t, int i, uint64_t *function,
                        uint64_t *site)
{
  if (__atomic_load_n (&t->depth[i], __ATOMIC_ACQUIRE) == 0)
    return false;
  *function = __atomic_load_n (&t->function[i], __ATOMIC_RELAXED);
  *site = __atomic_load_n (&t->site[i], __ATOMIC_RELAXED);
  return *function != 0;
}

/* The reader's side, as a sequence lock: the outermost call of the
 * thread in slot i, when it is in one, its fields read whole (the count
 * before the depth, the fields after it). The call is only known to be
 * this one once mg_mpi_threads_call_still says so after the fields were
 * used. */
static inline bool
mg_mpi_threads_call_begin (const struct metrograph_mpi_threads *t, int i, struct mg_mpi_call *call)
{
  call->seq = __atomic_load_n (&t->calls[i], __ATOMIC_ACQUIRE);
  if (__atomic_load_n (&t->depth[i], __ATOMIC_ACQUIRE) == 0)
    return false;
  call->function = __atomic_load_n (&t->function[i], __ATOMIC_RELAXED);
  call->site = __atomic_load_n (&t->site[i], __ATOMIC_RELAXED);
  call->frame = __atomic_load_n (&t->frame[i], __ATOMIC_RELAXED);
  return call->function != 0;
}

/* True when the call that mg_mpi_threads_call_begin read is still in
 * flight: what was read of it (its fields, and memory that the call
 * keeps, such as its caller's frames) belongs to it. */
static inline bool
mg_mpi_threads_call_still (const struct metrograph_mpi_threads *t, int i, const struct mg_mpi_call *call)
{
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  return __atomic_load_n (&t->depth[i], __ATOMIC_RELAXED) > 0
         && __atomic_load_n (&t->calls[i], __ATOMIC_RELAXED) == call->seq;
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
