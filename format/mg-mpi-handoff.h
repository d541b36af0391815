/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the MPI wrapper (plugins/mpi-wrap.c) takes a process's record from
 * the sampler at MPI_Finalize, to carry it to rank 0 over the job's MPI
 * (docs/mpi.md). The sampler exports the two functions below; the wrapper
 * finds them with dlsym, so that either works without the other. libc
 * only. */
#ifndef MG_MPI_HANDOFF_H
#define MG_MPI_HANDOFF_H

#include <stddef.h>

#define MG_MPI_HANDOFF_HOLD "metrograph_sampler_hold_record"
#define MG_MPI_HANDOFF_RELEASE "metrograph_sampler_release_record"
/* The longest record file name (<host>.<pid>.<start>.mgrec), with its NUL. */
#define MG_MPI_HANDOFF_NAME_LEN 256
/* The metrograph program whose --merge-node a node's leader runs at
 * MPI_Finalize to reduce its node's records (docs/mpi.md): the launcher
 * sets it to its own, unless the environment names one already. */
#define MG_MPI_MERGE_NODE_ENV "METROGRAPH_MERGE_NODE"

typedef struct {
  const char *record_dir;  /* the plan's record folder (absolute) */
  const char *name;        /* the record's file name in it */
  /* The record as it is to be copied: a header marked as a copy (flag
   * TRANSFERRED, end time now), then the rest of the file as mapped. */
  const void *head;
  size_t head_len;
  const void *body;
  size_t body_len;
} MgMpiHandoff;

/* Takes a final sample and pauses sampling, so that the record holds still
 * while it is copied; fills *out. Returns 0, or -1 when this process has no
 * record (not sampled, not selected, already ended): then *out is zeroed
 * but record_dir may still name the plan's folder. Rank 0 calls it too. */
typedef int (*MgMpiHandoffHold) (MgMpiHandoff *out);
/* Resumes sampling after a successful hold. */
typedef void (*MgMpiHandoffRelease) (void);

#endif /* MG_MPI_HANDOFF_H */
