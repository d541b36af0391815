/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI ranks a run expected whose records never reached the front end:
 * on a cluster without a shared folder a rank's record comes to rank 0's
 * node at MPI_Finalize (docs/mpi.md), so a run that ended without it (a
 * crash, an abort) leaves the other nodes' records where they were. The
 * expected ranks are 0 … N-1, N the world size the records state (else the
 * number of processes asked for), less those --select-ranks leaves out.
 * GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A sentence naming the ranks of run @run_id (NULL: any) missing from
 * @record_dir, for the profile's plugin errors and the summary; NULL when
 * none is missing or the run is not an MPI run. @n_processes: the -n asked
 * for (0 or 1: not known); @select_ranks: the --select-ranks list or NULL. */
char *mg_missing_ranks_describe (const char *record_dir, const char *run_id, guint n_processes,
                                 const char *select_ranks);

G_END_DECLS
