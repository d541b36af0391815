/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Workloads with a known activity, profiled by tests/plugins/test-activity-e2e.c.
 * Usage: activity-workload phases|threads|waits
 *   phases  the main thread computes for 1 s, sleeps 1 s in nanosleep,
 *           blocks about 1 s in read on a pipe that a helper thread writes
 *           to after 1 s, then waits 1 s in pthread_cond_timedwait that no
 *           one signals; prints "phase NAME START END" (seconds from the
 *           start of main) for each
 *   threads 4 threads: 1 computes and 2 sleep for 2 s while the main
 *           thread waits for them in pthread_join
 *   waits   the main thread waits 0.6 s each in poll, epoll_wait and
 *           select on a pipe no one writes to, then in sem_timedwait;
 *           prints "phase poll|epoll|select|sem START END"
 * Any call that fails with EINTR (a signal reached a blocked thread) makes
 * it print "EINTR in CALL" and exit with status 3: the profiler must never
 * be noticed. Built without sanitizers: the sampler is preloaded into it. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <semaphore.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static double start;

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static void
eintr (const char *call)
{
  printf ("EINTR in %s\n", call);
  fflush (stdout);
  _exit (3);
}

/* nanosleep for s seconds, once: an interruption is a failure. */
static void
sleep_once (double s)
{
  struct timespec d = { (time_t) s, (long) ((s - (double) (time_t) s) * 1e9) };
  while (nanosleep (&d, &d) != 0)
    {
      if (errno == EINTR)
        eintr ("nanosleep");
    }
}

static void
compute_for (double s)
{
  volatile uint64_t x = 0;
  double until = now () + s;
  while (now () < until)
    for (int i = 0; i < 10000; i++)
      x++;
}

static void
phase (const char *name, double from)
{
  printf ("phase %s %.4f %.4f\n", name, from - start, now () - start);
}

static void *
write_later (void *data)
{
  int fd = *(int *) data;
  sleep_once (1.0);
  if (write (fd, "x", 1) != 1)
    {
      if (errno == EINTR)
        eintr ("write");
      abort ();
    }
  return NULL;
}

static int
phases (void)
{
  int pipe_fds[2];
  pthread_t writer;
  char byte;

  start = now ();
  compute_for (1.0);
  phase ("computing", start);

  double t = now ();
  sleep_once (1.0);
  phase ("sleep", t);

  if (pipe (pipe_fds) != 0)
    return 1;
  t = now ();
  if (pthread_create (&writer, NULL, write_later, &pipe_fds[1]) != 0)
    return 1;
  ssize_t n = read (pipe_fds[0], &byte, 1);
  if (n < 0 && errno == EINTR)
    eintr ("read");
  if (n != 1)
    return 1;
  phase ("io", t);
  pthread_join (writer, NULL);

  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  struct timespec until;
  t = now ();
  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_sec += 1;
  pthread_mutex_lock (&lock);
  int r;
  do
    r = pthread_cond_timedwait (&cond, &lock, &until); /* spurious wake-ups: again */
  while (r == 0);
  pthread_mutex_unlock (&lock);
  if (r == EINTR)
    eintr ("pthread_cond_timedwait");
  if (r != ETIMEDOUT)
    return 1;
  phase ("lock", t);
  return 0;
}

static void *
compute_thread (void *data)
{
  compute_for (2.0);
  return NULL;
}

static void *
sleep_thread (void *data)
{
  sleep_once (2.0);
  return NULL;
}

static int
threads (void)
{
  pthread_t t[3];
  start = now ();
  if (pthread_create (&t[0], NULL, compute_thread, NULL) != 0
      || pthread_create (&t[1], NULL, sleep_thread, NULL) != 0
      || pthread_create (&t[2], NULL, sleep_thread, NULL) != 0)
    return 1;
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  phase ("threads", start);
  return 0;
}

/* Each wait must time out: a return with EINTR is a failure. */
static int
waits (void)
{
  int fds[2];
  double t;
  start = now ();
  if (pipe (fds) != 0)
    return 1;

  t = now ();
  struct pollfd p = { fds[0], POLLIN, 0 };
  int r = poll (&p, 1, 600);
  if (r < 0 && errno == EINTR)
    eintr ("poll");
  if (r != 0)
    return 1;
  phase ("poll", t);

  t = now ();
  int ep = epoll_create1 (EPOLL_CLOEXEC);
  struct epoll_event e = { .events = EPOLLIN };
  if (ep < 0 || epoll_ctl (ep, EPOLL_CTL_ADD, fds[0], &e) != 0)
    return 1;
  r = epoll_wait (ep, &e, 1, 600);
  if (r < 0 && errno == EINTR)
    eintr ("epoll_wait");
  if (r != 0)
    return 1;
  phase ("epoll", t);

  t = now ();
  fd_set set;
  FD_ZERO (&set);
  FD_SET (fds[0], &set);
  struct timeval tv = { 0, 600000 };
  r = select (fds[0] + 1, &set, NULL, NULL, &tv);
  if (r < 0 && errno == EINTR)
    eintr ("select");
  if (r != 0)
    return 1;
  phase ("select", t);

  t = now ();
  sem_t sem;
  struct timespec until;
  if (sem_init (&sem, 0, 0) != 0)
    return 1;
  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_nsec += 600000000;
  if (until.tv_nsec >= 1000000000)
    until.tv_sec++, until.tv_nsec -= 1000000000;
  r = sem_timedwait (&sem, &until);
  if (r < 0 && errno == EINTR)
    eintr ("sem_timedwait");
  if (r == 0 || errno != ETIMEDOUT)
    return 1;
  phase ("sem", t);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  setvbuf (stdout, NULL, _IOLBF, 0);
  if (strcmp (mode, "phases") == 0)
    return phases ();
  if (strcmp (mode, "threads") == 0)
    return threads ();
  if (strcmp (mode, "waits") == 0)
    return waits ();
  fprintf (stderr, "usage: activity-workload phases|threads|waits\n");
  return 2;
}
