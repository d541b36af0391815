/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counters shared between the MPI wrapper (preloaded into the program,
 * libmetrograph-mpi-wrap.so) and the MPI metric plugin
 * (libmetrograph-mpi.so), which finds them with
 * dlsym(RTLD_DEFAULT, "metrograph_mpi_counters"): plain process memory,
 * updated with relaxed atomic additions, no shared-memory segment. */
#ifndef MG_MPI_COUNTERS_H
#define MG_MPI_COUNTERS_H

#include <stdint.h>

#define MG_MPI_COUNTERS_VERSION 1

struct metrograph_mpi_counters {
  uint64_t version;          /* MG_MPI_COUNTERS_VERSION */
  uint64_t calls;            /* every wrapped call */
  uint64_t p2p_calls;        /* [I][S|R|B]send, Recv, Irecv, Sendrecv[_replace] */
  uint64_t collective_calls; /* [I]Bcast, [I]Reduce, [I]Allreduce, [I]Barrier,
                                [I]Gather, [I]Scatter, [I]Allgather, [I]Alltoall */
  uint64_t bytes_sent;       /* count x type size, point-to-point and collective */
  uint64_t bytes_recv;       /* received: from the status for point-to-point */
  uint64_t p2p_bytes;        /* sent + received, point-to-point */
  uint64_t collective_bytes; /* sent + received, collective */
  uint64_t time_ns;          /* wall-clock time inside wrapped calls */
};

#endif /* MG_MPI_COUNTERS_H */
