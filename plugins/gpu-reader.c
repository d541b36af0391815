/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrograph-gpu-reader: the process that makes every NVML call for the
 * GPU plugin (gpu-nvml.c), so that none is made in the program's process:
 * NVML's start leaves descriptors (14 on an H100 with driver 580, at the
 * lowest free numbers) and a thread there, which the program would see.
 *
 *   metrograph-gpu-reader PERIOD_NS PID
 *
 * The region (gpu-shared.h) is at descriptor MG_GPU_SHARED_FD. The reader
 * reads the GPUs every PERIOD_NS (the run's sampling interval) until the
 * program's process PID ends or the plugin's cleanup sets the stop flag;
 * PID's start time (field 22 of /proc/PID/stat), read at the reader's
 * start, tells the program from a process that took its pid later where
 * pidfd_open is missing. A watcher thread ends the process at once, so that an NVML call
 * that does not return cannot keep it. libc + libdl only: no GLib, no
 * sampler (the plugin starts it without the sampler's preload). */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gpu-reader-core.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static MgGpuShared *shared;
static pid_t program;
static unsigned long long program_start;
static int64_t period_ns;

static int64_t
now_ns (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (int64_t) t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Field 22 of /proc/PID/stat (the start time in clock ticks); 0 when the
 * process is not there. */
static unsigned long long
start_time (pid_t pid)
{
  char path[64], text[1024];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  FILE *f = fopen (path, "re");
  if (f == NULL)
    return 0;
  size_t n = fread (text, 1, sizeof text - 1, f);
  fclose (f);
  text[n] = '\0';
  /* After the command's closing parenthesis: field 3 onwards. */
  char *p = strrchr (text, ')');
  if (p == NULL)
    return 0;
  p++;
  for (int field = 3; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  return p != NULL ? strtoull (p + 1, NULL, 10) : 0;
}

static bool
program_alive (void)
{
  if (kill (program, 0) < 0 && errno == ESRCH)
    return false;
  /* A zombie still answers kill: its state ends it too. */
  return start_time (program) == program_start;
}

static bool
stopped (void)
{
  return atomic_load_explicit (&shared->stop, memory_order_acquire) != 0;
}

/* Ends the process when the program's does or the plugin says stop. */
static void *
watch (void *data)
{
  int pidfd = (int) syscall (SYS_pidfd_open, program, 0);
  struct timespec wait = { period_ns / 1000000000LL, period_ns % 1000000000LL };
  for (;;)
    {
      if (stopped ())
        break;
      if (pidfd >= 0)
        {
          struct pollfd p = { .fd = pidfd, .events = POLLIN };
          if (ppoll (&p, 1, &wait, NULL) > 0)
            break;
        }
      else
        {
          if (!program_alive ())
            break;
          nanosleep (&wait, NULL);
        }
    }
  _exit (0);
}

int
main (int argc, char **argv)
{
  pthread_t watcher;

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s PERIOD_NS PID (started by the GPU plugin)\n", argv[0]);
      return 2;
    }
  /* Started with every signal blocked (the sampler thread's mask, kept
   * until the exec): from here they act as by default. */
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  period_ns = strtoll (argv[1], NULL, 10);
  program = (pid_t) strtol (argv[2], NULL, 10);
  /* Read here: the program waits for this reader's answer, so it is the
   * process of that pid (a later one of the same pid starts later). */
  program_start = start_time (program);
  if (period_ns < 1000000)
    period_ns = 1000000;
  shared = mmap (NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED, MG_GPU_SHARED_FD, 0);
  if (shared == MAP_FAILED || shared->magic != MG_GPU_SHARED_MAGIC
      || shared->version != MG_GPU_SHARED_VERSION)
    {
      fprintf (stderr, "%s: no GPU plugin region at descriptor %d\n", argv[0],
               MG_GPU_SHARED_FD);
      return 2;
    }
  close (MG_GPU_SHARED_FD);
  if (pthread_create (&watcher, NULL, watch, NULL) != 0)
    {
      snprintf (shared->message, sizeof shared->message,
                "GPU: the GPU reader cannot start its watcher thread: %s", strerror (errno));
      shared->decline_code = EAGAIN;
      atomic_store_explicit (&shared->state, MG_GPU_DECLINED, memory_order_release);
      return 1;
    }
  mg_gpu_reader_open (shared, getenv ("METROGRAPH_NVML_LIBRARY"), program);
  if (atomic_load_explicit (&shared->state, memory_order_acquire) != MG_GPU_READY)
    _exit (0);
  for (int64_t next = now_ns ();; next += period_ns)
    {
      int64_t now = now_ns ();
      if (stopped ())
        break;
      mg_gpu_reader_round (shared, now);
      /* Late by more than a round (a slow call): the next one from now. */
      if (now_ns () - next > period_ns)
        next = now_ns ();
      int64_t wait = next + period_ns - now_ns ();
      if (wait > 0)
        {
          struct timespec t = { wait / 1000000000LL, wait % 1000000000LL };
          nanosleep (&t, NULL);
        }
    }
  /* Not NVML's shutdown: a hung call may hold it; the process ends. */
  _exit (0);
}
