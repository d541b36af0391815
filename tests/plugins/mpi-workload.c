/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI workload of the end-to-end metric tests: 100 rounds, 20 ms apart,
 * of 7 MPI calls per rank (Sendrecv, Irecv, Isend, Waitall, Bcast,
 * Allreduce, Barrier): 700 calls, 300 point-to-point and 300 collective,
 * and 600 kB of point-to-point traffic each way per rank.
 *
 * "mpi-workload per-rank": rank r makes 100 x (r + 1) MPI_Sendrecv calls
 * with itself, 2 ms apart, then one MPI_Barrier: each rank's count is its
 * own. "mpi-workload crash": the same, then the last rank aborts while the
 * others wait to be killed, so that no rank reaches MPI_Finalize. */
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

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc > 1)
    return per_rank (rank, size, strcmp (argv[1], "crash") == 0);
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
