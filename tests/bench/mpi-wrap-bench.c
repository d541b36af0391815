/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the MPI wrapper costs per MPI call, with its goal and verdict (run
 * by hand, not by CI):
 *   bench-mpi-wrap [WRAPPER.so [BEFORE.so]]
 * WRAPPER.so defaults to <build>/sampler/libmetrograph-sampler.so, which
 * carries the wrapper (idle without a plan: only the wrapper works). For
 * each library, the benchmark runs itself again as a singleton MPI process
 * with the library preloaded and times, in the same process, calls through
 * the wrapper (MPI_*) and straight to the library (PMPI_*): the difference
 * is the wrapper's cost per call. Four calls, one of each kind the wrapper
 * counts: MPI_Barrier on MPI_COMM_SELF (collective, no bytes), MPI_Sendrecv
 * of one int with itself (point-to-point, bytes both ways), MPI_Test of
 * MPI_REQUEST_NULL (completion) and MPI_Isend + MPI_Wait to itself, matched
 * by a receive posted before each block. Blocks of 20,000 calls alternate
 * wrapped and direct, 15 of each, and a run's figure is the median block;
 * the libraries take turns for 9 runs each (A B A B ...), and the figure
 * is the median run.
 *
 * Goal: no more than the wrapper before calls in flight were counted
 * (BEFORE.so, a build of plugins/mpi-wrap.c from before that change; the
 * verdict allows 5 % + 2 ns of noise); without BEFORE.so, at most 100 ns a
 * call (two clock reads and a few atomic additions).
 *
 * The machine's load is printed: on a busy machine, figures are upper
 * bounds. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BLOCK = 20000, BLOCKS = 15, RUNS = 9 };
#define GOAL_NS 100.0

typedef enum { BARRIER, SENDRECV, TEST, ISEND_WAIT, N_CALLS } Call;
static const char *const call_names[N_CALLS] = {
  "MPI_Barrier (self)", "MPI_Sendrecv (1 int, self)", "MPI_Test (null request)",
  "MPI_Isend + MPI_Wait (1 int, self)",
};

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* ns per call of one block, through the wrapper or not. An Isend + Wait
 * pair counts as one call of each (the figure is per pair). */
static double
block (Call call, int wrapped)
{
  static int inbox[BLOCK];
  int out = 1, in = 0, flag = 0;
  MPI_Request null_request = MPI_REQUEST_NULL, request, receives[BLOCK];
  MPI_Status status;
  if (call == ISEND_WAIT)
    for (int i = 0; i < BLOCK; i++)
      PMPI_Irecv (&inbox[i], 1, MPI_INT, 0, 7, MPI_COMM_SELF, &receives[i]);
  double start = now_s ();
  for (int i = 0; i < BLOCK; i++)
    switch (call)
      {
      case BARRIER:
        wrapped ? MPI_Barrier (MPI_COMM_SELF) : PMPI_Barrier (MPI_COMM_SELF);
        break;
      case SENDRECV:
        wrapped ? MPI_Sendrecv (&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &status)
                : PMPI_Sendrecv (&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &status);
        break;
      case TEST:
        null_request = MPI_REQUEST_NULL;
        wrapped ? MPI_Test (&null_request, &flag, &status) : PMPI_Test (&null_request, &flag, &status);
        break;
      default:
        if (wrapped)
          {
            MPI_Isend (&out, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &request);
            MPI_Wait (&request, &status);
          }
        else
          {
            PMPI_Isend (&out, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &request);
            PMPI_Wait (&request, &status);
          }
      }
  double elapsed = now_s () - start;
  if (call == ISEND_WAIT)
    PMPI_Waitall (BLOCK, receives, MPI_STATUSES_IGNORE);
  return elapsed / BLOCK * 1e9;
}

/* The child: prints one line per call, "cost WRAPPED DIRECT" in ns. */
static int
measure (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  for (Call c = 0; c < N_CALLS; c++)
    {
      double wrapped[BLOCKS], direct[BLOCKS];
      block (c, 1); /* warm up */
      block (c, 0);
      for (int b = 0; b < BLOCKS; b++)
        {
          wrapped[b] = block (c, 1);
          direct[b] = block (c, 0);
        }
      qsort (wrapped, BLOCKS, sizeof (double), compare);
      qsort (direct, BLOCKS, sizeof (double), compare);
      printf ("%d %.2f %.2f\n", (int) c, wrapped[BLOCKS / 2], direct[BLOCKS / 2]);
    }
  MPI_Finalize ();
  return 0;
}

/* Runs the child with library preloaded; fills the wrapper's cost per
 * call. False when it failed. */
static int
run_with (const char *self, const char *library, double cost[N_CALLS], int verbose)
{
  int pipe_fd[2];
  if (pipe (pipe_fd) != 0)
    return 0;
  pid_t pid = fork ();
  if (pid == 0)
    {
      dup2 (pipe_fd[1], 1);
      close (pipe_fd[0]);
      close (pipe_fd[1]);
      setenv ("LD_PRELOAD", library, 1);
      /* The sampler without a plan stays idle: the wrapper's cost alone. */
      unsetenv ("METROGRAPH_PLAN");
      unsetenv ("METROGRAPH_PLAN_TEXT");
      execl (self, self, "--measure", (char *) NULL);
      _exit (127);
    }
  close (pipe_fd[1]);
  FILE *in = fdopen (pipe_fd[0], "r");
  int which, got = 0;
  double wrapped, direct;
  while (in && fscanf (in, "%d %lf %lf", &which, &wrapped, &direct) == 3)
    if (which >= 0 && which < N_CALLS)
      {
        cost[which] = wrapped - direct;
        if (verbose)
          printf ("  %-36s %8.1f ns through the wrapper, %8.1f ns direct: %6.1f ns\n",
                call_names[which], wrapped, direct, cost[which]);
        got++;
      }
  if (in)
    fclose (in);
  int status = 0;
  waitpid (pid, &status, 0);
  return got == N_CALLS && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static void
print_load (const char *when)
{
  double load[3];
  if (getloadavg (load, 3) == 3)
    printf ("load average %s: %.2f %.2f %.2f (%ld cores)\n", when, load[0], load[1], load[2],
            sysconf (_SC_NPROCESSORS_ONLN));
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--measure") == 0)
    return measure (argc, argv);

  char self[4096], dir[4096], wrapper[8192];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';
  snprintf (dir, sizeof dir, "%s", self);
  *strrchr (dir, '/') = '\0';
  snprintf (wrapper, sizeof wrapper, "%s/../../sampler/libmetrograph-sampler.so", dir);
  const char *after = argc > 1 ? argv[1] : wrapper;
  const char *before = argc > 2 ? argv[2] : NULL;
  double cost_after[N_CALLS], cost_before[N_CALLS];

  print_load ("before");
  double runs_after[N_CALLS][RUNS], runs_before[N_CALLS][RUNS];
  for (int r = 0; r < RUNS; r++)
    {
      printf ("run %d, %s:\n", r + 1, after);
      if (!run_with (self, after, cost_after, 1))
        {
          fprintf (stderr, "bench-mpi-wrap: the run with %s failed\n", after);
          return 1;
        }
      for (Call c = 0; c < N_CALLS; c++)
        runs_after[c][r] = cost_after[c];
      if (before == NULL)
        continue;
      printf ("run %d, %s:\n", r + 1, before);
      if (!run_with (self, before, cost_before, 1))
        {
          fprintf (stderr, "bench-mpi-wrap: the run with %s failed\n", before);
          return 1;
        }
      for (Call c = 0; c < N_CALLS; c++)
        runs_before[c][r] = cost_before[c];
    }
  for (Call c = 0; c < N_CALLS; c++)
    {
      qsort (runs_after[c], RUNS, sizeof (double), compare);
      qsort (runs_before[c], RUNS, sizeof (double), compare);
      cost_after[c] = runs_after[c][RUNS / 2];
      cost_before[c] = runs_before[c][RUNS / 2];
    }
  print_load ("after");

  int ok = 1;
  for (Call c = 0; c < N_CALLS; c++)
    {
      double goal = before ? cost_before[c] * 1.05 + 2 : GOAL_NS;
      int met = cost_after[c] <= goal;
      if (before)
        printf ("%-36s before: %6.1f ns a call (median of %d runs)\n", call_names[c],
                cost_before[c], RUNS);
      printf ("%-36s %6.1f ns a call (median of %d runs), goal <= %.1f ns (%s): %s\n",
              call_names[c], cost_after[c], RUNS, goal, before ? "the wrapper before, + 5 % + 2 ns" : "fixed",
              met ? "met" : "NOT met");
      ok &= met;
    }
  printf ("verdict: %s\n", ok ? "goal met" : "goal NOT met");
  return 0;
}
