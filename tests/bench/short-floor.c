/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The floor of bench-short: what any in-process sampler costs a short
 * process on this machine before it does any work. Preloaded into the
 * unprofiled loop, with MG_SHORT_FLOOR=
 *   library  it only loads (the price of one more preloaded library);
 *   thread   it also starts one idle thread in every process image and in
 *            every fork child, as a sampler must to see a process that
 *            lives on (threads are not inherited by a fork child);
 *   root     one idle thread in the first process image only (the shell of
 *            the loop), none in its descendants: the floor of a sampler
 *            that would start a descendant's thread only once it has used
 *            CPU, so that a short descendant never gets one.
 * The thread is made as the sampler makes its own (sampler/mg-sampling.c):
 * every signal blocked, so the program's signals never land on it, and
 * started on its creator's CPU. It never wakes, writes or allocates after
 * that: the figures are a lower bound for the sampler's, not a model of
 * it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cpu_set_t creator_cpus;

static void *
idle_main (void *data)
{
  if (data != NULL)
    sched_setaffinity (0, sizeof creator_cpus, &creator_cpus);
  for (;;)
    pause ();
  return NULL;
}

static void
start_idle_thread (void)
{
  pthread_attr_t attr;
  pthread_t thread;
  sigset_t all;
  cpu_set_t one;
  if (pthread_attr_init (&attr) != 0)
    return;
  pthread_attr_setstacksize (&attr, 1 << 20);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  sigfillset (&all);
  pthread_attr_setsigmask_np (&attr, &all);
  int cpu = sched_getcpu ();
  bool pinned = false;
  if (cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity (0, sizeof creator_cpus, &creator_cpus) == 0)
    {
      CPU_ZERO (&one);
      CPU_SET (cpu, &one);
      pinned = sched_setaffinity (0, sizeof one, &one) == 0;
    }
  pthread_create (&thread, &attr, idle_main, pinned ? &creator_cpus : NULL);
  if (pinned)
    sched_setaffinity (0, sizeof creator_cpus, &creator_cpus);
  pthread_attr_destroy (&attr);
}

__attribute__((constructor)) static void
short_floor_constructor (void)
{
  const char *kind = getenv ("MG_SHORT_FLOOR");
  if (kind != NULL && strcmp (kind, "root") == 0)
    {
      /* The environment marks the descendants: the shell exports it. */
      if (getenv ("MG_SHORT_FLOOR_DESCENDANT") == NULL)
        {
          setenv ("MG_SHORT_FLOOR_DESCENDANT", "1", 1);
          start_idle_thread ();
        }
      return;
    }
  if (kind == NULL || strcmp (kind, "thread") != 0)
    return;
  start_idle_thread ();
  pthread_atfork (NULL, NULL, start_idle_thread);
}
