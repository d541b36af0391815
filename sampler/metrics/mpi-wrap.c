/* The MPI wrapper preloaded into the profiled program (a <preload> of the
 * MPI metric source): defines the common MPI_* calls, counts them into
 * metrograph_mpi_counters and calls the real PMPI_* functions.
 *
 * It is linked without libmpi and finds each PMPI_* function at its first
 * call with dlsym(RTLD_NEXT): loading it into a program that does not use
 * MPI needs no MPI library and changes nothing, since nothing calls these
 * MPI_* definitions there. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mpi-counters.h"

__attribute__((visibility("default")))
struct metrograph_mpi_counters metrograph_mpi_counters = {
  .version = MG_MPI_COUNTERS_VERSION,
};

static void
add (uint64_t *counter, uint64_t amount)
{
  __atomic_fetch_add (counter, amount, __ATOMIC_RELAXED);
}

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void *
real (const char *name)
{
  void *fn = dlsym (RTLD_NEXT, name);
  if (fn == NULL)
    {
      /* Only reachable if the program calls MPI_* without an MPI library. */
      static const char msg[] = "metrograph MPI wrapper: no MPI library provides ";
      if (write (2, msg, sizeof msg - 1) < 0 || write (2, name, __builtin_strlen (name)) < 0
          || write (2, "\n", 1) < 0)
        abort ();
      abort ();
    }
  return fn;
}

/* The real function, PMPI_<name>, looked up at the first call. mpi.h
 * declares it; __typeof__ takes its type without referring to the symbol. */
#define REAL(name)                                                \
  static __typeof__ (&P##name) real_fn;                           \
  if (real_fn == NULL)                                            \
    real_fn = (__typeof__ (&P##name)) real ("P" #name);

static uint64_t
bytes (int count, MPI_Datatype type)
{
  int size = 0;
  static __typeof__ (&PMPI_Type_size) type_size;
  if (type_size == NULL)
    type_size = (__typeof__ (&PMPI_Type_size)) real ("PMPI_Type_size");
  if (count <= 0 || type_size (type, &size) != MPI_SUCCESS || size <= 0)
    return 0;
  return (uint64_t) count * (uint64_t) size;
}

static int
comm_size (MPI_Comm comm)
{
  int size = 1;
  static __typeof__ (&PMPI_Comm_size) fn;
  if (fn == NULL)
    fn = (__typeof__ (&PMPI_Comm_size)) real ("PMPI_Comm_size");
  fn (comm, &size);
  return size;
}

static int
comm_rank (MPI_Comm comm)
{
  int rank = 0;
  static __typeof__ (&PMPI_Comm_rank) fn;
  if (fn == NULL)
    fn = (__typeof__ (&PMPI_Comm_rank)) real ("PMPI_Comm_rank");
  fn (comm, &rank);
  return rank;
}

typedef enum { OTHER, P2P, COLLECTIVE } CallKind;

static void
account (CallKind kind, uint64_t start, uint64_t sent, uint64_t received)
{
  add (&metrograph_mpi_counters.time_ns, now_ns () - start);
  add (&metrograph_mpi_counters.calls, 1);
  add (&metrograph_mpi_counters.bytes_sent, sent);
  add (&metrograph_mpi_counters.bytes_recv, received);
  if (kind == P2P)
    {
      add (&metrograph_mpi_counters.p2p_calls, 1);
      add (&metrograph_mpi_counters.p2p_bytes, sent + received);
    }
  else if (kind == COLLECTIVE)
    {
      add (&metrograph_mpi_counters.collective_calls, 1);
      add (&metrograph_mpi_counters.collective_bytes, sent + received);
    }
}

int
MPI_Send (const void *buf, int count, MPI_Datatype type, int dest, int tag,
          MPI_Comm comm)
{
  REAL (MPI_Send)
  uint64_t t = now_ns ();
  int r = real_fn (buf, count, type, dest, tag, comm);
  account (P2P, t, bytes (count, type), 0);
  return r;
}

/* Received bytes are the posted count x type size (an upper bound when a
 * shorter message arrives). */
int
MPI_Recv (void *buf, int count, MPI_Datatype type, int source, int tag,
          MPI_Comm comm, MPI_Status *status)
{
  REAL (MPI_Recv)
  uint64_t t = now_ns ();
  int r = real_fn (buf, count, type, source, tag, comm, status);
  account (P2P, t, 0, bytes (count, type));
  return r;
}

int
MPI_Isend (const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Isend)
  uint64_t t = now_ns ();
  int r = real_fn (buf, count, type, dest, tag, comm, request);
  account (P2P, t, bytes (count, type), 0);
  return r;
}

int
MPI_Irecv (void *buf, int count, MPI_Datatype type, int source, int tag,
           MPI_Comm comm, MPI_Request *request)
{
  REAL (MPI_Irecv)
  uint64_t t = now_ns ();
  int r = real_fn (buf, count, type, source, tag, comm, request);
  account (P2P, t, 0, bytes (count, type));
  return r;
}

int
MPI_Wait (MPI_Request *request, MPI_Status *status)
{
  REAL (MPI_Wait)
  uint64_t t = now_ns ();
  int r = real_fn (request, status);
  account (OTHER, t, 0, 0);
  return r;
}

int
MPI_Waitall (int count, MPI_Request requests[], MPI_Status *statuses)
{
  REAL (MPI_Waitall)
  uint64_t t = now_ns ();
  int r = real_fn (count, requests, statuses);
  account (OTHER, t, 0, 0);
  return r;
}

int
MPI_Sendrecv (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              int dest, int sendtag, void *recvbuf, int recvcount,
              MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
              MPI_Status *status)
{
  REAL (MPI_Sendrecv)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                   recvcount, recvtype, source, recvtag, comm, status);
  account (P2P, t, bytes (sendcount, sendtype), bytes (recvcount, recvtype));
  return r;
}

/* Collectives: the root of a broadcast sends the buffer once, the others
 * receive it; reductions send their contribution and the ranks that get
 * the result receive it. */
int
MPI_Bcast (void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  REAL (MPI_Bcast)
  uint64_t t = now_ns ();
  int r = real_fn (buffer, count, type, root, comm);
  uint64_t n = bytes (count, type);
  bool is_root = comm_rank (comm) == root;
  account (COLLECTIVE, t, is_root ? n : 0, is_root ? 0 : n);
  return r;
}

int
MPI_Reduce (const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
            MPI_Op op, int root, MPI_Comm comm)
{
  REAL (MPI_Reduce)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, root, comm);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, comm_rank (comm) == root ? n : 0);
  return r;
}

int
MPI_Allreduce (const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  REAL (MPI_Allreduce)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, recvbuf, count, type, op, comm);
  uint64_t n = bytes (count, type);
  account (COLLECTIVE, t, n, n);
  return r;
}

int
MPI_Barrier (MPI_Comm comm)
{
  REAL (MPI_Barrier)
  uint64_t t = now_ns ();
  int r = real_fn (comm);
  account (COLLECTIVE, t, 0, 0);
  return r;
}

int
MPI_Gather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
  REAL (MPI_Gather)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm);
  uint64_t received = comm_rank (comm) == root
    ? bytes (recvcount, recvtype) * (uint64_t) comm_size (comm) : 0;
  account (COLLECTIVE, t, bytes (sendcount, sendtype), received);
  return r;
}

int
MPI_Scatter (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm)
{
  REAL (MPI_Scatter)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm);
  uint64_t sent = comm_rank (comm) == root
    ? bytes (sendcount, sendtype) * (uint64_t) comm_size (comm) : 0;
  account (COLLECTIVE, t, sent, bytes (recvcount, recvtype));
  return r;
}

int
MPI_Allgather (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
               void *recvbuf, int recvcount, MPI_Datatype recvtype,
               MPI_Comm comm)
{
  REAL (MPI_Allgather)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype),
           bytes (recvcount, recvtype) * (uint64_t) comm_size (comm));
  return r;
}

int
MPI_Alltoall (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
              void *recvbuf, int recvcount, MPI_Datatype recvtype,
              MPI_Comm comm)
{
  REAL (MPI_Alltoall)
  uint64_t t = now_ns ();
  int r = real_fn (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm);
  uint64_t n = (uint64_t) comm_size (comm);
  account (COLLECTIVE, t, bytes (sendcount, sendtype) * n,
           bytes (recvcount, recvtype) * n);
  return r;
}
