/* An MPI program with known communication, run by the MPI metrics test as
 * 4 ranks with the Metrograph MPI wrapper preloaded. Each rank loads the MPI
 * metric plugin, does a fixed set of calls, reads every getter and checks
 * the counts and bytes against what it did. Prints one line per rank and
 * exits non-zero on a mismatch. */
#include <mpi.h>
#include <stdio.h>

#include "metrics-test-support.h"

static const char *const getters[] = {
  "mg_mpi_calls", "mg_mpi_p2p", "mg_mpi_collect", "mg_mpi_sent",
  "mg_mpi_recv", "mg_mpi_p2p_bytes", "mg_mpi_collect_bytes",
};
#define N_GETTERS G_N_ELEMENTS (getters)

static void
read_all (void *plugin, uint64_t values[N_GETTERS])
{
  struct timespec t = mg_test_now ();
  for (guint i = 0; i < N_GETTERS; i++)
    {
      MgTestIntGetter fn = (MgTestIntGetter) mg_test_symbol (plugin, getters[i]);
      if (fn (i, &t, &values[i]) != 0)
        g_error ("%s failed", getters[i]);
    }
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);

  void *plugin = mg_test_load_plugin ("metrograph-mpi");
  if (mg_test_init_plugin (plugin, 1) != 0)
    {
      fprintf (stderr, "rank %d: MPI plugin: %s\n", rank, mg_test_plugin_error (NULL));
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  uint64_t v[N_GETTERS];
  read_all (plugin, v); /* nothing yet: all zero */

  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int ints_out[1000] = { 0 }, ints_in[1000];
  double dbl_out[250] = { 0 }, dbl_in[250];
  MPI_Request requests[2];

  /* Point-to-point: 3 calls, 6000 B sent, 6000 B received. */
  MPI_Sendrecv (ints_out, 1000, MPI_INT, right, 1, ints_in, 1000, MPI_INT,
                left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Irecv (dbl_in, 250, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend (dbl_out, 250, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall (2, requests, MPI_STATUSES_IGNORE);
  /* Collectives: 3 calls; broadcast 400 B from rank 0, allreduce 80 B. */
  int bcast[100] = { 0 };
  double sum_in[10] = { 0 }, sum_out[10];
  MPI_Bcast (bcast, 100, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allreduce (sum_in, sum_out, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier (MPI_COMM_WORLD);

  read_all (plugin, v);
  uint64_t expected[N_GETTERS] = {
    7, 3, 3,
    4000 + 2000 + (rank == 0 ? 400 : 0) + 80,
    4000 + 2000 + (rank == 0 ? 0 : 400) + 80,
    12000, 400 + 160,
  };
  int bad = 0;
  printf ("rank %d:", rank);
  for (guint i = 0; i < N_GETTERS; i++)
    {
      printf (" %s=%" G_GUINT64_FORMAT, getters[i] + 7, v[i]);
      if (v[i] != expected[i])
        {
          printf (" (expected %" G_GUINT64_FORMAT ")", expected[i]);
          bad = 1;
        }
    }
  printf ("\n");
  fflush (stdout);
  MPI_Finalize ();
  return bad;
}
