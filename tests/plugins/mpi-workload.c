/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI workload of the end-to-end metric tests: 100 rounds, 20 ms apart,
 * of 7 MPI calls per rank (Sendrecv, Irecv, Isend, Waitall, Bcast,
 * Allreduce, Barrier): 700 calls, 300 point-to-point and 300 collective,
 * and 600 kB of point-to-point traffic each way per rank.
 *
 * "mpi-workload per-rank": rank r makes 100 x (r + 1) MPI_Sendrecv calls
 * with itself, 2 ms apart, then one MPI_Barrier: each rank's count is its
 * own. "mpi-workload crash": the same, then the last rank aborts while the
 * others wait to be killed, so that no rank reaches MPI_Finalize.
 *
 * Modes for MPI time of calls in flight (2 ranks; the late rank sleeps or
 * computes, the other waits in MPI meanwhile). Each starts with one
 * MPI_Barrier, whose end marks the start of the wait in the profile (the
 * first sample with a call), and the late rank's last call marks its end:
 * "late": rank 1 sleeps 3 s, then both meet in one MPI_Barrier;
 * "wait-loop": 12 rounds of rank 1 computing 250 ms and sending one int,
 *   while rank 0 posts MPI_Irecv and waits for it in MPI_Wait;
 * "finalize-early": rank 1 computes 3 s, makes one MPI_Barrier on
 *   MPI_COMM_SELF (the end mark: MPI_Finalize is not a call) and calls
 *   MPI_Finalize; rank 0 calls it at once;
 * "deadlock": both ranks receive from each other and never send (the test
 *   ends them with --stop-after);
 * "chain": rank 1 sleeps 3 s, then both meet in an MPI_Barrier called
 *   through chain_outer and chain_inner (rank 0's wait has a deeper stack);
 * "churn": 12,000 collectives from two call chains taking turns
 *   (churn_reduce -> MPI_Allreduce; churn_outer -> churn_inner ->
 *   MPI_Barrier), each after up to 240 us of computing by one rank or the
 *   other (waits of every length), then 1.5 s of the same calls on
 *   MPI_COMM_SELF back to back (calls of well under a microsecond, that
 *   end while the sampler walks their stacks). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
sleep_ms (long ms)
{
  struct timespec d = { ms / 1000, (ms % 1000) * 1000000 };
  nanosleep (&d, NULL);
}

static int
per_rank (int rank, int size, int crash)
{
  int out = rank, in = -1;
  for (int i = 0; i < 100 * (rank + 1); i++)
    {
      MPI_Sendrecv (&out, 1, MPI_INT, rank, 3, &in, 1, MPI_INT, rank, 3, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
      sleep_ms (2);
    }
  MPI_Barrier (MPI_COMM_WORLD);
  /* Idle for a few samples so that the last calls are sampled. */
  sleep_ms (300);
  if (crash)
    {
      if (rank == size - 1)
        abort ();
      sleep_ms (20000);
    }
  MPI_Finalize ();
  return 0;
}

/* Burns the CPU for ms milliseconds of wall time. */
static void
compute_ms (long ms)
{
  struct timespec start, now;
  volatile double x = 1;
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      for (int i = 0; i < 10000; i++)
        x = x * 1.0000001 + 1e-9;
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

/* Distinct frames, never inlined nor cloned, and no tail calls: the
 * tests read these chains whole from the MPI waits' stacks. */
static volatile int sink;

__attribute__((noinline, noclone)) static void
chain_inner (void)
{
  sink += MPI_Barrier (MPI_COMM_WORLD); /* the chain's barrier */
}

__attribute__((noinline, noclone)) static void
chain_outer (void)
{
  chain_inner ();
  sink++;
}

__attribute__((noinline, noclone)) static void
churn_reduce (int value, MPI_Comm comm)
{
  int sum = 0;
  MPI_Allreduce (&value, &sum, 1, MPI_INT, MPI_SUM, comm);
  sink += sum;
}

__attribute__((noinline, noclone)) static void
churn_inner (MPI_Comm comm)
{
  sink += MPI_Barrier (comm);
}

__attribute__((noinline, noclone)) static void
churn_outer (MPI_Comm comm)
{
  churn_inner (comm);
  sink++;
}

static void
spin_us (long us)
{
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    clock_gettime (CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000000 + (now.tv_nsec - start.tv_nsec) / 1000 < us);
}

static void
churn (int rank)
{
  for (int i = 0; i < 12000; i++)
    {
      if (i % 2 == rank)
        spin_us ((i * 7919L) % 241);
      if (i % 3 == 0)
        churn_reduce (i, MPI_COMM_WORLD);
      else
        churn_outer (MPI_COMM_WORLD);
    }
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  for (int i = 0;; i++)
    {
      if (i % 3 == 0)
        churn_reduce (i, MPI_COMM_SELF);
      else
        churn_outer (MPI_COMM_SELF);
      clock_gettime (CLOCK_MONOTONIC, &now);
      if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >= 1500)
        break;
    }
}

/* The modes of calls in flight (above); after the waits, a few idle
 * samples so that the last calls are sampled. */
static int
in_flight (const char *mode, int rank)
{
  int value = rank, in = -1;
  MPI_Barrier (MPI_COMM_WORLD);
  if (strcmp (mode, "late") == 0)
    {
      if (rank == 1)
        sleep_ms (3000);
      MPI_Barrier (MPI_COMM_WORLD); /* the late barrier (tests find this line) */
    }
  else if (strcmp (mode, "wait-loop") == 0)
    for (int i = 0; i < 12; i++)
      {
        MPI_Request request;
        if (rank == 1)
          {
            compute_ms (250);
            MPI_Send (&value, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
            continue;
          }
        MPI_Irecv (&in, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &request);
        MPI_Wait (&request, MPI_STATUS_IGNORE);
      }
  else if (strcmp (mode, "finalize-early") == 0)
    {
      if (rank == 1)
        {
          compute_ms (3000);
          MPI_Barrier (MPI_COMM_SELF);
        }
      MPI_Finalize ();
      sleep_ms (300);
      return 0;
    }
  else if (strcmp (mode, "chain") == 0)
    {
      if (rank == 1)
        sleep_ms (3000);
      chain_outer ();
    }
  else if (strcmp (mode, "churn") == 0)
    churn (rank);
  else if (strcmp (mode, "deadlock") == 0)
    MPI_Recv (&in, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  sleep_ms (300);
  MPI_Finalize ();
  return 0;
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc > 1 && (strcmp (argv[1], "per-rank") == 0 || strcmp (argv[1], "crash") == 0))
    return per_rank (rank, size, strcmp (argv[1], "crash") == 0);
  if (argc > 1)
    return in_flight (argv[1], rank);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static int ints_out[1000], ints_in[1000], bcast[100];
  static double dbl_out[250], dbl_in[250], sum_in[10], sum_out[10];
  for (int round = 0; round < 100; round++)
    {
      MPI_Request requests[2];
      MPI_Sendrecv (ints_out, 1000, MPI_INT, right, 1, ints_in, 1000, MPI_INT,
                    left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Irecv (dbl_in, 250, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend (dbl_out, 250, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall (2, requests, MPI_STATUSES_IGNORE);
      MPI_Bcast (bcast, 100, MPI_INT, 0, MPI_COMM_WORLD);
      MPI_Allreduce (sum_in, sum_out, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      MPI_Barrier (MPI_COMM_WORLD);
      sleep_ms (20);
    }
  /* Idle for a few samples so that the last calls are sampled. */
  sleep_ms (200);
  MPI_Finalize ();
  return 0;
}
