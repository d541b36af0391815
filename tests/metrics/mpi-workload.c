/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI workload of the end-to-end metric tests: 100 rounds, 20 ms apart,
 * of 7 MPI calls per rank (Sendrecv, Irecv, Isend, Waitall, Bcast,
 * Allreduce, Barrier): 700 calls, 300 point-to-point and 300 collective,
 * and 600 kB of point-to-point traffic each way per rank. */
#include <mpi.h>
#include <time.h>

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
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
      struct timespec d = { 0, 20000000 };
      nanosleep (&d, NULL);
    }
  /* Idle for a few samples so that the last calls are sampled. */
  struct timespec d = { 0, 200000000 };
  nanosleep (&d, NULL);
  MPI_Finalize ();
  return 0;
}
