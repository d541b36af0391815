/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MG_MPI_NODE_REDUCE_H
#define MG_MPI_NODE_REDUCE_H

/* At MPI_Finalize, on a node whose folder rank 0 cannot see: the node's
 * ranks copy their held records into a staging run folder, and the node's
 * leader reduces them there into the node's summary with `metrograph
 * --merge-node` (mpi-node-reduce.c). libc only. */

#include <stdbool.h>
#include <stddef.h>

#include "format/mg-mpi-handoff.h"

#define MG_MPI_NODE_WHY_LEN 512

/* The staging run folder of host's ranks: <record_dir>/.finalize.<host>. */
__attribute__((visibility("hidden"))) void mg_mpi_node_staging (const char *record_dir, const char *host,
                                                                char *out, size_t len);
/* Any rank of the node: its held record, copied into the staging folder's
 * records/ (made by whichever rank comes first). */
__attribute__((visibility("hidden"))) bool mg_mpi_node_stage_record (const char *staging,
                                                                     const MgMpiHandoff *mine);
/* The leader, once every rank of the node has staged its record: runs the
 * metrograph program named by MG_MPI_MERGE_NODE_ENV on the staging folder
 * and finds the summary it wrote (its file name into summary_name). On
 * failure, why says what went wrong, in one line. */
__attribute__((visibility("hidden"))) bool mg_mpi_node_reduce (const char *staging, char *summary_name,
                                                               size_t name_len, char why[MG_MPI_NODE_WHY_LEN]);
/* The leader, at the end: the staging folder and all it holds go. */
__attribute__((visibility("hidden"))) void mg_mpi_node_clean (const char *staging);

#endif /* MG_MPI_NODE_REDUCE_H */
