/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Workloads with known behaviour, profiled by the end-to-end metric tests.
 * Usage: metrics-workload busy|half|rss|write|sleep
 *   busy   burns CPU for 1 s; prints "starved=SECONDS": the most time the
 *          machine kept it off the CPU within 30 ms
 *   half   1 s of CPU in 2 s: 10 ms of CPU per 20 ms period, catching up
 *          when the machine is busy; prints "cpu=SECONDS wall=SECONDS"
 *   rss    idles 0.3 s, touches 200 MiB, then holds it for 0.3 s; prints
 *          "rss_peak=BYTES" (its own reading of /proc/self/statm)
 *   write  writes 64 MB to /dev/null with write(2), then idles 0.3 s
 *   sleep  200 sleeps of 2 ms (200 voluntary context switches or more)
 *   idle   sleeps 0.5 s: no I/O at all
 *   main-exits
 *          idles 0.3 s, starts a thread that burns the CPU for 1 s, and
 *          leaves it with pthread_exit from main; the thread prints
 *          "cpu=SECONDS" (its own CPU time); the process ends when it
 *          does, with status 0
 *   compute SECONDS
 *          only computes, in one thread, for SECONDS of wall time: no
 *          I/O, no output, no page it did not touch at its start
 *   threads N
 *          starts N busy threads at once (before the sampler's first
 *          sample), lets them burn for 1 s; prints "cpu=SECONDS
 *          wall=SECONDS" (the process's CPU time over that second)
 *   fork   the parent touches 64 MiB and writes 16 MiB to /dev/null, then
 *          forks a child that writes 8 MiB in 8 write(2) calls and touches
 *          8 MiB (2048 pages), each followed by idling; prints
 *          "child=PID"
 *   spawning
 *          starts a thread every millisecond, 120 in all, each living
 *          until 1 s after the start (threads made while the sampler's
 *          first round opens its perf counters)
 *   churning
 *          a thread pinned to one CPU creates and joins threads for 1 s
 *          while the main thread waits on another (as Open MPI's threads
 *          at MPI_Init); prints "joins=N"
 *   energy FILE
 *          a fake RAPL counter: rewrites FILE in place 20 times, 50 ms
 *          apart, adding 0.5 J each time (10 J in 1 s), then idles 0.3 s
 * Built without sanitizers: the sampler is preloaded into it. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static void
sleep_s (double s)
{
  struct timespec d = { (time_t) s, (long) ((s - (double) (time_t) s) * 1e9) };
  while (nanosleep (&d, &d) != 0)
    ;
}

static double
cpu_now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static double
thread_cpu_now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

/* The time the machine kept the busy thread off the CPU is measured in
 * 10 ms steps; any 20 ms sample lies within 3 consecutive steps, so the
 * largest loss over 3 steps bounds what a sample can miss. */
static int
busy (void)
{
  volatile uint64_t x = 0;
  double start = now (), step = start, cpu_step = thread_cpu_now ();
  double lost[3] = { 0, 0, 0 }, starved = 0;
  int k = 0;
  while (now () - start < 1.0)
    {
      for (int i = 0; i < 10000; i++)
        x++;
      double t = now ();
      if (t - step >= 0.01)
        {
          double cpu = thread_cpu_now ();
          lost[k++ % 3] = (t - step) - (cpu - cpu_step);
          if (lost[0] + lost[1] + lost[2] > starved)
            starved = lost[0] + lost[1] + lost[2];
          step = t;
          cpu_step = cpu;
        }
    }
  printf ("starved=%.4f\n", starved);
  return 0;
}

static int
half (void)
{
  volatile uint64_t x = 0;
  double start = now (), cpu_start = cpu_now ();
  for (int period = 1; period <= 100; period++)
    {
      while (cpu_now () - cpu_start < period * 0.01)
        x++;
      double wake = start + period * 0.02;
      if (wake > now ())
        sleep_s (wake - now ());
    }
  printf ("cpu=%.4f wall=%.4f\n", cpu_now () - cpu_start, now () - start);
  return 0;
}

/* The block comes straight from mmap(), not malloc(): with MALLOC_PERTURB_
 * set (meson sets it for every test, and it reaches the profiled program),
 * glibc's malloc fills a new block at once, so the 200 MiB would be touched
 * at start-up, while the first samples are taken, and the rise measured
 * from a baseline already a few MiB up. */
static int
rss (void)
{
  size_t size = 200u << 20;
  volatile char *block = mmap (NULL, size, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED)
    return 1;
  sleep_s (0.3); /* samples of the size before */
  for (size_t i = 0; i < size; i += 4096)
    block[i] = 1;
  unsigned long pages = 0, resident = 0;
  FILE *statm = fopen ("/proc/self/statm", "r");
  if (statm == NULL || fscanf (statm, "%lu %lu", &pages, &resident) != 2)
    return 1;
  fclose (statm);
  printf ("rss_peak=%lu\n", resident * (unsigned long) sysconf (_SC_PAGESIZE));
  fflush (stdout);
  sleep_s (0.3);
  munmap ((void *) block, size);
  return 0;
}

static int
write_64mb (void)
{
  static char buf[1 << 20];
  int fd = open ("/dev/null", O_WRONLY);
  if (fd < 0)
    return 1;
  sleep_s (0.1);
  for (int i = 0; i < 64; i++)
    for (size_t done = 0; done < sizeof buf;)
      {
        ssize_t n = write (fd, buf + done, sizeof buf - done);
        if (n <= 0)
          return 1;
        done += (size_t) n;
      }
  close (fd);
  sleep_s (0.3);
  return 0;
}

static int
sleeper (void)
{
  for (int i = 0; i < 200; i++)
    sleep_s (0.002);
  return 0;
}

static volatile int stop_burning;

static void *
burn (void *data)
{
  volatile uint64_t x = 0;
  while (!stop_burning)
    x++;
  return NULL;
}

static int
threads (int n)
{
  pthread_t t[64];
  if (n < 1 || n > 64)
    return 2;
  double cpu_start = cpu_now (), start = now ();
  for (int i = 0; i < n; i++)
    if (pthread_create (&t[i], NULL, burn, NULL) != 0)
      return 1;
  sleep_s (1.0);
  stop_burning = 1;
  for (int i = 0; i < n; i++)
    pthread_join (t[i], NULL);
  printf ("cpu=%.4f wall=%.4f\n", cpu_now () - cpu_start, now () - start);
  return 0;
}

/* size bytes of fresh pages, one fault each (no huge pages). */
static int
touch_pages (size_t size)
{
  char *block = mmap (NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED)
    return 1;
  madvise (block, size, MADV_NOHUGEPAGE);
  for (size_t i = 0; i < size; i += 4096)
    block[i] = 1;
  munmap (block, size);
  return 0;
}

static int
write_mib (int mib)
{
  static char buf[1 << 20];
  int fd = open ("/dev/null", O_WRONLY);
  if (fd < 0)
    return 1;
  for (int i = 0; i < mib; i++)
    if (write (fd, buf, sizeof buf) != (ssize_t) sizeof buf)
      return 1;
  close (fd);
  return 0;
}

/* MIB MiB read from /dev/zero in 1 MiB calls. */
static int
read_mib (int mib)
{
  static char buf[1 << 20];
  int fd = open ("/dev/zero", O_RDONLY);
  if (fd < 0)
    return 1;
  for (int i = 0; i < mib; i++)
    if (read (fd, buf, sizeof buf) != (ssize_t) sizeof buf)
      return 1;
  close (fd);
  return 0;
}

static int
forking (void)
{
  if (touch_pages (64u << 20) != 0 || write_mib (16) != 0)
    return 1;
  sleep_s (0.1);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    return 1;
  if (pid == 0)
    {
      sleep_s (0.1);
      int bad = write_mib (8) | read_mib (4) | touch_pages (8u << 20);
      sleep_s (0.2);
      _exit (bad);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status))
    return 1;
  printf ("child=%d\n", (int) pid);
  sleep_s (0.1);
  return 0;
}

/* Fixed-width values, written in place: the plugin, which keeps the file
 * open and re-reads it, never sees it truncated. */
static int
energy (const char *path)
{
  int fd = open (path, O_WRONLY);
  if (fd < 0)
    return 1;
  for (int k = 1; k <= 20; k++)
    {
      sleep_s (0.05);
      char text[32];
      int n = snprintf (text, sizeof text, "%012llu\n",
                        1000000ULL + (unsigned long long) k * 500000ULL);
      if (pwrite (fd, text, (size_t) n, 0) != n)
        return 1;
    }
  close (fd);
  sleep_s (0.3);
  return 0;
}

static void *
late_busy (void *data)
{
  volatile uint64_t x = 0;
  double start = now ();
  while (now () - start < 1.0)
    for (int i = 0; i < 10000; i++)
      x++;
  printf ("cpu=%.4f\n", thread_cpu_now ());
  fflush (stdout);
  return NULL;
}

static int
main_exits (void)
{
  pthread_t thread;
  sleep_s (0.3);
  if (pthread_create (&thread, NULL, late_busy, NULL) != 0)
    return 1;
  pthread_exit (NULL);
}

static int
compute (double seconds)
{
  volatile uint64_t x = 0;
  double start = now ();
  while (now () - start < seconds)
    for (int i = 0; i < 10000; i++)
      x++;
  return 0;
}

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_done = PTHREAD_COND_INITIALIZER;
static bool spawn_over;

static void *
spawned (void *data)
{
  pthread_mutex_lock (&spawn_lock);
  while (!spawn_over)
    pthread_cond_wait (&spawn_done, &spawn_lock);
  pthread_mutex_unlock (&spawn_lock);
  return NULL;
}

static int
spawning (void)
{
  enum { N = 120 };
  pthread_t t[N];
  double start = now ();
  int n = 0;
  for (; n < N; n++)
    {
      if (pthread_create (&t[n], NULL, spawned, NULL) != 0)
        break;
      sleep_s (0.001);
    }
  double left = 1.0 - (now () - start);
  if (left > 0)
    sleep_s (left);
  pthread_mutex_lock (&spawn_lock);
  spawn_over = true;
  pthread_cond_broadcast (&spawn_done);
  pthread_mutex_unlock (&spawn_lock);
  for (int k = 0; k < n; k++)
    pthread_join (t[k], NULL);
  return n == N ? 0 : 1;
}

static void *
churn_child (void *data)
{
  return data;
}

/* The CPUs allowed to this process: the first for the churner, the last
 * for the main thread (the same one on a single CPU). */
static void
pin_to (bool first)
{
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return;
  int chosen = -1;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &set) && (chosen < 0 || !first))
      chosen = c;
  CPU_ZERO (&set);
  CPU_SET (chosen, &set);
  sched_setaffinity (0, sizeof set, &set);
}

static void *
churner (void *data)
{
  long *joins = data;
  pin_to (true);
  double start = now ();
  while (now () - start < 1.0)
    {
      pthread_t child;
      if (pthread_create (&child, NULL, churn_child, NULL) != 0)
        break;
      pthread_join (child, NULL);
      (*joins)++;
    }
  return NULL;
}

static int
churning (void)
{
  long joins = 0;
  pthread_t t;
  pin_to (false);
  if (pthread_create (&t, NULL, churner, &joins) != 0)
    return 1;
  pthread_join (t, NULL);
  printf ("joins=%ld\n", joins);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp (mode, "busy") == 0)
    return busy ();
  if (strcmp (mode, "half") == 0)
    return half ();
  if (strcmp (mode, "rss") == 0)
    return rss ();
  if (strcmp (mode, "write") == 0)
    return write_64mb ();
  if (strcmp (mode, "sleep") == 0)
    return sleeper ();
  if (strcmp (mode, "idle") == 0)
    {
      sleep_s (0.5);
      return 0;
    }
  if (strcmp (mode, "main-exits") == 0)
    return main_exits ();
  if (strcmp (mode, "compute") == 0 && argc > 2)
    return compute (atof (argv[2]));
  if (strcmp (mode, "threads") == 0 && argc > 2)
    return threads (atoi (argv[2]));
  if (strcmp (mode, "fork") == 0)
    return forking ();
  if (strcmp (mode, "spawning") == 0)
    return spawning ();
  if (strcmp (mode, "churning") == 0)
    return churning ();
  if (strcmp (mode, "energy") == 0 && argc > 2)
    return energy (argv[2]);
  fprintf (stderr, "usage: metrics-workload busy|half|rss|write|sleep|idle|"
           "main-exits|compute SECONDS|threads N|fork|spawning|churning|"
           "energy FILE\n");
  return 2;
}
