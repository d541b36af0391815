/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the call-stack handler's walk costs (sampler/mg-unwind.h): a
 * SIGPROF handler times mg_unwind_context on a 30-frame stack built -O2
 * without frame pointers, against the goal of issue #29 (at most 5 µs,
 * signal delivery excluded), and beside it the frame-pointer walk
 * (mg_unwind_context_fp) on the same depth built with frame pointers, and
 * the floor of the clock reads around each walk. The first eh_frame phase
 * alternates its walks with the walk as it was before the rule cache was
 * made two-way and the walk prefetched its lines (mg_unwind_before), so
 * that both figures come from the same run, under the same load. A last
 * phase runs THREADS threads (default 64) busy on the same stack, for the
 * walk's cost in a many-thread program (handlers on several threads at
 * once, sharing the rule cache and the snapshot).
 *
 * Run by hand: <build>/tests/bench/bench-unwind [SECONDS_PER_PHASE [THREADS]] */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "mg-unwind-internal.h"
#include "mg-unwind.h"

#define GOAL_NS 5000.0
#define DEPTH 30 /* frames in each walk */
#define MAX_WALKS 8192

enum
{
  PHASE_CFI,
  PHASE_CFI_PLAIN, /* the same walks, alternating with PHASE_CFI's */
  PHASE_FP,
  PHASE_THREADS,
  N_PHASES
};

static const char *const phase_names[N_PHASES] = {
  "eh_frame walk, -O2 without frame pointers",
  "the same, as before (direct-mapped, no prefetch)",
  "frame-pointer walk, built with frame pointers",
  "eh_frame walk, in one of THREADS busy threads",
};

static struct
{
  unsigned n;
  double cold_ns[MAX_WALKS], warm_ns[MAX_WALKS], floor_ns[MAX_WALKS];
  unsigned frames[MAX_WALKS], flags[MAX_WALKS];
} phases[N_PHASES];
static volatile int phase = -1;
static volatile double sink;

static double
ns_between (const struct timespec *a, const struct timespec *b)
{
  return (double) (b->tv_sec - a->tv_sec) * 1e9 + (double) (b->tv_nsec - a->tv_nsec);
}

static void
on_prof (int sig, siginfo_t *info, void *uc)
{
  (void) sig;
  (void) info;
  static unsigned turn;
  int p = phase;
  if (p == PHASE_CFI && (turn++ & 1))
    p = PHASE_CFI_PLAIN;
  if (p < 0 || phases[p].n >= MAX_WALKS)
    return;
  mg_unwind_before = p == PHASE_CFI_PLAIN;
  uint64_t pcs[MG_UNWIND_MAX_FRAMES];
  unsigned flags, n = 0;
  struct timespec t0, t1, t2, t3, t4;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  clock_gettime (CLOCK_MONOTONIC, &t1);
  if (p != PHASE_FP)
    n = mg_unwind_context (uc, pcs, MG_UNWIND_MAX_FRAMES, &flags);
  else
    n = mg_unwind_context_fp (uc, pcs, MG_UNWIND_MAX_FRAMES, &flags);
  clock_gettime (CLOCK_MONOTONIC, &t2);
  if (p != PHASE_FP)
    mg_unwind_context (uc, pcs, MG_UNWIND_MAX_FRAMES, &flags);
  else
    mg_unwind_context_fp (uc, pcs, MG_UNWIND_MAX_FRAMES, &flags);
  clock_gettime (CLOCK_MONOTONIC, &t3);
  (void) t4;
  unsigned i = __atomic_fetch_add (&phases[p].n, 1, __ATOMIC_RELAXED); /* threads */
  if (i >= MAX_WALKS)
    return;
  phases[p].floor_ns[i] = ns_between (&t0, &t1);
  phases[p].cold_ns[i] = ns_between (&t1, &t2);
  phases[p].warm_ns[i] = ns_between (&t2, &t3);
  phases[p].frames[i] = n;
  phases[p].flags[i] = flags;
}

static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

__attribute__((noinline, noclone)) static double
spin (double seconds)
{
  double end = cpu_now () + seconds, acc = 1;
  while (cpu_now () < end)
    for (int i = 0; i < 2000; i++)
      acc = acc * 1.0000001 + 1e-9;
  return acc;
}

/* The stack: 24 distinct functions (as a real program's frames, not one
 * recursive function whose frames all share a return address). */
#define LINK(name, next) \
  __attribute__((noinline, noclone)) static double name (double seconds) \
  { \
    return next (seconds) + sink; \
  }
LINK (f23, spin) LINK (f22, f23) LINK (f21, f22) LINK (f20, f21) LINK (f19, f20) LINK (f18, f19)
LINK (f17, f18) LINK (f16, f17) LINK (f15, f16) LINK (f14, f15) LINK (f13, f14) LINK (f12, f13)
LINK (f11, f12) LINK (f10, f11) LINK (f9, f10) LINK (f8, f9) LINK (f7, f8) LINK (f6, f7)
LINK (f5, f6) LINK (f4, f5) LINK (f3, f4) LINK (f2, f3) LINK (f1, f2) LINK (f0, f1)

#define WITH_FP __attribute__((noinline, noclone, optimize ("no-omit-frame-pointer")))

WITH_FP static double
spin_fp (double seconds)
{
  double end = cpu_now () + seconds, acc = 1;
  while (cpu_now () < end)
    for (int i = 0; i < 2000; i++)
      acc = acc * 1.0000001 + 1e-9;
  return acc;
}

#define LINK_FP(name, next) \
  WITH_FP static double name (double seconds) \
  { \
    return next (seconds) + sink; \
  }
LINK_FP (g23, spin_fp) LINK_FP (g22, g23) LINK_FP (g21, g22) LINK_FP (g20, g21) LINK_FP (g19, g20)
LINK_FP (g18, g19) LINK_FP (g17, g18) LINK_FP (g16, g17) LINK_FP (g15, g16) LINK_FP (g14, g15)
LINK_FP (g13, g14) LINK_FP (g12, g13) LINK_FP (g11, g12) LINK_FP (g10, g11) LINK_FP (g9, g10)
LINK_FP (g8, g9) LINK_FP (g7, g8) LINK_FP (g6, g7) LINK_FP (g5, g6) LINK_FP (g4, g5) LINK_FP (g3, g4)
LINK_FP (g2, g3) LINK_FP (g1, g2) LINK_FP (g0, g1)

static double thread_seconds;

static void *
busy_thread (void *data)
{
  (void) data;
  sink = f0 (thread_seconds);
  return NULL;
}

/* Each thread spins until the process's CPU time has grown by seconds
 * since it started: about seconds of CPU in all. */
static void
run_threads (unsigned n, double seconds)
{
  pthread_t t[256];
  thread_seconds = seconds;
  for (unsigned i = 0; i < n; i++)
    if (pthread_create (&t[i], NULL, busy_thread, NULL) != 0)
      {
        n = i;
        break;
      }
  /* a new thread's stack is a new mapping: known to walks from here */
  mg_unwind_refresh_memory ();
  phase = PHASE_THREADS;
  for (unsigned i = 0; i < n; i++)
    pthread_join (t[i], NULL);
}

WITH_FP static void
run_phases (double seconds, unsigned threads)
{
  struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
  setitimer (ITIMER_PROF, &it, NULL);
  phase = PHASE_CFI;
  sink = f0 (seconds);
  phase = PHASE_FP;
  sink = g0 (seconds);
  phase = -1;
  run_threads (threads, seconds);
  phase = -1;
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_PROF, &off, NULL);
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
percentile (double *v, unsigned n, double q)
{
  if (n == 0)
    return 0;
  qsort (v, n, sizeof *v, compare_double);
  return v[(unsigned) (q * (n - 1) + 0.5)];
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 2.0;
  int threads = argc > 2 ? atoi (argv[2]) : 64;
  if (seconds <= 0 || threads < 1 || threads > 256)
    {
      fprintf (stderr, "usage: %s [SECONDS_PER_PHASE [THREADS (1-256)]]\n", argv[0]);
      return 2;
    }
  struct sigaction sa = { .sa_sigaction = on_prof, .sa_flags = SA_SIGINFO | SA_RESTART };
  sigfillset (&sa.sa_mask);
  sigaction (SIGPROF, &sa, NULL);
  if (mg_unwind_prepare () != 0)
    {
      perror ("mg_unwind_prepare");
      return 1;
    }
  /* _start, __libc_start_main, __libc_start_call_main, main and
   * run_phases lie below the 24 functions, spin above them: 30 frames */
  run_phases (seconds, (unsigned) threads);

  /* cold walks pay cache and TLB misses: on a shared, loaded machine they
   * cost several times what they cost on an idle one */
  char load[64] = "?";
  FILE *f = fopen ("/proc/loadavg", "r");
  if (f)
    {
      if (fgets (load, sizeof load, f))
        load[strcspn (load, " ")] = '\0';
      fclose (f);
    }
  printf ("bench-unwind: one walk per SIGPROF, in the handler, %g s of CPU per phase (load average %s)\n", seconds,
          load);
  double median[N_PHASES] = { 0 };
  for (int p = 0; p < N_PHASES; p++)
    {
      unsigned n = phases[p].n < MAX_WALKS ? phases[p].n : MAX_WALKS, full = 0;
      double frames = 0;
      for (unsigned i = 0; i < n; i++)
        {
          frames += phases[p].frames[i];
          full += phases[p].flags[i] == 0;
        }
      double cold = percentile (phases[p].cold_ns, n, 0.5);
      double cold90 = percentile (phases[p].cold_ns, n, 0.9);
      double cold99 = percentile (phases[p].cold_ns, n, 0.99);
      double warm = percentile (phases[p].warm_ns, n, 0.5);
      double floor = percentile (phases[p].floor_ns, n, 0.5);
      median[p] = cold;
      char name[64];
      snprintf (name, sizeof name, "%s", phase_names[p]);
      if (p == PHASE_THREADS)
        snprintf (name, sizeof name, "eh_frame walk, in one of %d busy threads", threads);
      printf ("  %-50s %4u walks, %.1f frames (%u complete): median %.2f µs (p90 %.2f, p99 %.2f), again at once "
              "%.2f µs; clock floor %.2f µs\n",
              name, n, n ? frames / n : 0.0, full, cold / 1000, cold90 / 1000, cold99 / 1000, warm / 1000,
              floor / 1000);
    }
  /* what the capture side pays outside handlers */
  struct timespec a, b;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &a);
  for (int i = 0; i < 1000; i++)
    mg_unwind_refresh ();
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &b);
  double unchanged = ns_between (&a, &b) / 1000;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &a);
  for (int i = 0; i < 20; i++)
    mg_unwind_refresh_memory ();
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &b);
  printf ("  outside handlers (CPU time): mg_unwind_refresh with nothing changed %.2f µs, a new snapshot "
          "(mg_unwind_refresh_memory, %u modules) %.0f µs\n",
          unchanged / 1000, mg_unwind_module_count (), ns_between (&a, &b) / 20 / 1000);
  bool met = phases[PHASE_CFI].n > 0 && median[PHASE_CFI] <= GOAL_NS;
  printf ("  goal: the eh_frame walk of a %d-frame stack at most %.1f µs: %s (median %.2f µs; before %.2f µs; "
          "in %d threads %.2f µs)\n",
          DEPTH, GOAL_NS / 1000, met ? "met" : "MISSED", median[PHASE_CFI] / 1000, median[PHASE_CFI_PLAIN] / 1000,
          threads, median[PHASE_THREADS] / 1000);
  return met ? 0 : 1;
}
