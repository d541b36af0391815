/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An MPI program with known communication, run by the MPI metrics test as
 * 4 ranks with the Metrograph MPI wrapper preloaded. Each rank loads the MPI
 * metric plugin, makes MPI calls, reads every getter and checks the counts
 * and bytes against what it did. Prints one line per rank and phase and
 * exits non-zero on a mismatch ("expected" in the line).
 *
 * Phase 1 is a fixed set of 7 calls with fixed counts. Phase 2 covers every
 * other wrapped call: the synchronous, ready and buffered sends and their
 * non-blocking forms, receives that post a larger buffer than the message
 * (with and without a status), receives completed by MPI_Wait, Waitany,
 * Waitsome, Test, Testall, Testany and Testsome, Sendrecv_replace and the
 * non-blocking collectives. The expected figures are tallied as the calls
 * are made, from what the sender sent, not from the buffers posted. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "plugins-test-support.h"

static const char *const getters[] = {
  "mg_mpi_calls", "mg_mpi_p2p", "mg_mpi_collect", "mg_mpi_sent",
  "mg_mpi_recv", "mg_mpi_p2p_bytes", "mg_mpi_collect_bytes",
};
#define N_GETTERS G_N_ELEMENTS (getters)
enum { CALLS, P2P, COLLECT, SENT, RECV, P2P_BYTES, COLLECT_BYTES };

static int rank, size, bad;

static void
read_all (void *plugin, uint64_t values[N_GETTERS])
{
  struct timespec t = plugins_test_now ();
  for (guint i = 0; i < N_GETTERS; i++)
    {
      PluginsTestIntGetter fn = (PluginsTestIntGetter) plugins_test_symbol (plugin, getters[i]);
      if (fn (i, &t, &values[i]) != 0)
        g_error ("%s failed", getters[i]);
    }
}

/* Prints the values read against those expected. */
static void
check (const char *phase, const uint64_t v[N_GETTERS], const uint64_t expected[N_GETTERS])
{
  printf ("rank %d %s:", rank, phase);
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
}

/* The tally of phase 2. */
static uint64_t expect[N_GETTERS];

static void
p2p (uint64_t sent, uint64_t received)
{
  expect[CALLS]++;
  expect[P2P]++;
  expect[SENT] += sent;
  expect[RECV] += received;
  expect[P2P_BYTES] += sent + received;
}

static void
collective (uint64_t sent, uint64_t received)
{
  expect[CALLS]++;
  expect[COLLECT]++;
  expect[SENT] += sent;
  expect[RECV] += received;
  expect[COLLECT_BYTES] += sent + received;
}

/* A completion call (Wait, Test, ...), and the bytes of the receives it
 * completed. */
static void
completion (uint64_t received)
{
  expect[CALLS]++;
  expect[RECV] += received;
  expect[P2P_BYTES] += received;
}

/* The program's own check that the message was what the test thinks. */
static void
check_count (const MPI_Status *status, MPI_Datatype type, int expected_count)
{
  int count = -1;
  MPI_Get_count (status, type, &count);
  if (count != expected_count)
    {
      printf ("rank %d: a message of %d elements arrived, the test expected %d\n",
              rank, count, expected_count);
      bad = 1;
    }
}

static void
phase_1 (void *plugin)
{
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int ints_out[1000] = { 0 }, ints_in[1000];
  double dbl_out[250] = { 0 }, dbl_in[250];
  MPI_Request requests[2];
  uint64_t v[N_GETTERS];

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
  check ("phase 1", v, expected);
}

/* Sends of each kind, each received into a larger buffer than the message. */
static void
phase_2_sends (void)
{
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int partner = rank ^ 1;
  static int ints_out[1000], ints_in[1000];
  static double dbl_out[200], dbl_in[200];
  MPI_Status status;
  MPI_Request req, reqs[2];
  int flag = 0, index, outcount, indices[2];

  /* Ssend of 100 ints, received into 1000 without a status: 400 B. */
  if (rank % 2 == 0)
    {
      MPI_Ssend (ints_out, 100, MPI_INT, partner, 20, MPI_COMM_WORLD);
      MPI_Recv (ints_in, 1000, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  else
    {
      MPI_Recv (ints_in, 1000, MPI_INT, partner, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Ssend (ints_out, 100, MPI_INT, partner, 20, MPI_COMM_WORLD);
    }
  p2p (400, 0);
  p2p (0, 400);

  /* Bsend of 50 doubles, received into 200 with a status: 400 B. */
  static char bsend_buffer[4096 + 4 * MPI_BSEND_OVERHEAD];
  MPI_Buffer_attach (bsend_buffer, sizeof bsend_buffer);
  MPI_Bsend (dbl_out, 50, MPI_DOUBLE, right, 21, MPI_COMM_WORLD);
  p2p (400, 0);
  MPI_Recv (dbl_in, 200, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &status);
  check_count (&status, MPI_DOUBLE, 50);
  p2p (0, 400);

  /* Rsend of 16 ints into a posted Irecv of 64, completed by MPI_Wait:
   * 64 B, counted at the Wait. */
  MPI_Irecv (ints_in, 64, MPI_INT, left, 22, MPI_COMM_WORLD, &req);
  p2p (0, 0);
  MPI_Barrier (MPI_COMM_WORLD); /* every receive is posted */
  collective (0, 0);
  MPI_Rsend (ints_out, 16, MPI_INT, right, 22, MPI_COMM_WORLD);
  p2p (64, 0);
  MPI_Wait (&req, &status);
  check_count (&status, MPI_INT, 16);
  completion (64);

  /* Issend of 32 ints into an Irecv of 128, completed by two Waitany
   * without a status: 128 B. */
  MPI_Irecv (ints_in, 128, MPI_INT, left, 23, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Issend (ints_out, 32, MPI_INT, right, 23, MPI_COMM_WORLD, &reqs[1]);
  p2p (128, 0);
  for (int k = 0; k < 2; k++)
    {
      MPI_Waitany (2, reqs, &index, MPI_STATUS_IGNORE);
      completion (index == 0 ? 128 : 0);
    }

  /* Irsend of 10 doubles into an Irecv of 100, completed by Waitsome
   * (as many calls as it takes), statuses ignored: 80 B. */
  MPI_Irecv (dbl_in, 100, MPI_DOUBLE, left, 24, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Barrier (MPI_COMM_WORLD);
  collective (0, 0);
  MPI_Irsend (dbl_out, 10, MPI_DOUBLE, right, 24, MPI_COMM_WORLD, &reqs[1]);
  p2p (80, 0);
  for (int done = 0; done < 2;)
    {
      MPI_Waitsome (2, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
      uint64_t received = 0;
      for (int j = 0; j < outcount; j++)
        received += indices[j] == 0 ? 80 : 0;
      completion (received);
      done += outcount;
    }

  /* Ibsend of 8 ints into an Irecv of 64, polled with MPI_Test (with a
   * status) and Testall (without): 32 B. */
  MPI_Irecv (ints_in, 64, MPI_INT, left, 25, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Ibsend (ints_out, 8, MPI_INT, right, 25, MPI_COMM_WORLD, &reqs[1]);
  p2p (32, 0);
  do
    {
      MPI_Test (&reqs[0], &flag, &status);
      completion (flag ? 32 : 0);
    }
  while (!flag);
  check_count (&status, MPI_INT, 8);
  do
    {
      MPI_Testall (1, &reqs[1], &flag, MPI_STATUSES_IGNORE);
      completion (0);
    }
  while (!flag);
  int attached_size;
  void *attached;
  MPI_Buffer_detach (&attached, &attached_size);

  /* Isend of 5 doubles into an Irecv of 50, polled with Testany (with a
   * status) and then Testsome (with statuses): 40 B. */
  MPI_Irecv (dbl_in, 50, MPI_DOUBLE, left, 26, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Isend (dbl_out, 5, MPI_DOUBLE, right, 26, MPI_COMM_WORLD, &reqs[1]);
  p2p (40, 0);
  do
    {
      MPI_Testany (1, &reqs[0], &index, &flag, &status);
      completion (flag && index == 0 ? 40 : 0);
    }
  while (!flag);
  check_count (&status, MPI_DOUBLE, 5);
  MPI_Status statuses[1];
  for (outcount = 0; outcount == 0;)
    {
      MPI_Testsome (1, &reqs[1], &outcount, indices, statuses);
      completion (0);
    }

  /* Irecv of 100 ints, the message of 20 ints, completed by Testsome with
   * statuses ignored: 80 B. */
  MPI_Irecv (ints_in, 100, MPI_INT, left, 27, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Send (ints_out, 20, MPI_INT, right, 27, MPI_COMM_WORLD);
  p2p (80, 0);
  for (outcount = 0; outcount == 0;)
    {
      MPI_Testsome (1, &reqs[0], &outcount, indices, MPI_STATUSES_IGNORE);
      completion (outcount == 1 ? 80 : 0);
    }

  /* Sendrecv_replace of 20 doubles: 160 B each way. */
  MPI_Sendrecv_replace (dbl_in, 20, MPI_DOUBLE, right, 28, left, 28,
                        MPI_COMM_WORLD, &status);
  check_count (&status, MPI_DOUBLE, 20);
  p2p (160, 160);

  /* Sendrecv of 10 ints into 1000: 40 B each way. */
  MPI_Sendrecv (ints_out, 10, MPI_INT, right, 29, ints_in, 1000, MPI_INT, left,
                29, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  p2p (40, 40);

  /* Irecv of 100 ints whose message of 30 ints is completed by a Waitall
   * with statuses ignored, among a send: 120 B. */
  MPI_Irecv (ints_in, 100, MPI_INT, left, 30, MPI_COMM_WORLD, &reqs[0]);
  p2p (0, 0);
  MPI_Isend (ints_out, 30, MPI_INT, right, 30, MPI_COMM_WORLD, &reqs[1]);
  p2p (120, 0);
  MPI_Waitall (2, reqs, MPI_STATUSES_IGNORE);
  completion (120);
}

/* The non-blocking collectives, completed by one Waitall. */
static void
phase_2_collectives (void)
{
  static int bcast[100], gather_out[5], gather_in[20], scatter_out[20], scatter_in[5];
  static int allgather_in[20], alltoall_out[20], alltoall_in[20];
  static double sum_in[10], sum_out[10], all_out[10];
  MPI_Request reqs[8];
  uint64_t n = (uint64_t) size;
  int root = rank == 0;

  MPI_Ibarrier (MPI_COMM_WORLD, &reqs[0]);
  collective (0, 0);
  MPI_Ibcast (bcast, 100, MPI_INT, 0, MPI_COMM_WORLD, &reqs[1]);
  collective (root ? 400 : 0, root ? 0 : 400);
  MPI_Ireduce (sum_in, sum_out, 10, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &reqs[2]);
  collective (80, root ? 80 : 0);
  MPI_Iallreduce (sum_in, all_out, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &reqs[3]);
  collective (80, 80);
  MPI_Igather (gather_out, 5, MPI_INT, gather_in, 5, MPI_INT, 0, MPI_COMM_WORLD, &reqs[4]);
  collective (20, root ? 20 * n : 0);
  MPI_Iscatter (scatter_out, 5, MPI_INT, scatter_in, 5, MPI_INT, 0, MPI_COMM_WORLD, &reqs[5]);
  collective (root ? 20 * n : 0, 20);
  MPI_Iallgather (gather_out, 5, MPI_INT, allgather_in, 5, MPI_INT, MPI_COMM_WORLD, &reqs[6]);
  collective (20, 20 * n);
  MPI_Ialltoall (alltoall_out, 5, MPI_INT, alltoall_in, 5, MPI_INT, MPI_COMM_WORLD, &reqs[7]);
  collective (20 * n, 20 * n);
  MPI_Waitall (8, reqs, MPI_STATUSES_IGNORE);
  completion (0);
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (size != 4)
    {
      fprintf (stderr, "mpi-ranks needs 4 ranks, not %d\n", size);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }

  void *plugin = plugins_test_load_plugin ("metrograph-mpi");
  if (plugins_test_init_plugin (plugin, 1) != 0)
    {
      fprintf (stderr, "rank %d: MPI plugin: %s\n", rank, plugins_test_plugin_error (NULL));
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  uint64_t v[N_GETTERS];
  read_all (plugin, v); /* nothing yet: all zero */

  phase_1 (plugin);
  phase_2_sends ();
  phase_2_collectives ();
  read_all (plugin, v);
  check ("phase 2", v, expect);

  MPI_Finalize ();
  return bad;
}
