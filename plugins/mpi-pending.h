/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI wrapper's table of posted receives that have not completed yet
 * (MPI_Irecv), so that their bytes are counted when they complete (in
 * MPI_Wait, MPI_Test and their -all/-any/-some forms), from the status: a
 * receive may post a larger buffer than the message that arrives, and only
 * the status tells how much did.
 *
 * A fixed-size open-addressing table keyed by the request handle, guarded by
 * a spinlock (the wrapper runs in the program's threads, which may call MPI
 * concurrently under MPI_THREAD_MULTIPLE). Handles are reused by the MPI
 * library once a request is freed, so every other request-producing call
 * the wrapper sees forgets its handle here (mg_mpi_pending_forget). */
#ifndef MG_MPI_PENDING_H
#define MG_MPI_PENDING_H

#include <mpi.h>
#include <stdbool.h>

#define MG_MPI_PENDING_CAPACITY 4096 /* a power of two */

/* Records a posted receive of elements of type. False when the table is
 * full (the caller then counts the posted size at once). */
bool mg_mpi_pending_add (MPI_Request request, MPI_Datatype type);

/* Removes the receive request and gives its element type; false when the
 * request is not a pending receive. */
bool mg_mpi_pending_take (MPI_Request request, MPI_Datatype *type);

/* The element type of a pending receive, leaving it in the table. */
bool mg_mpi_pending_peek (MPI_Request request, MPI_Datatype *type);

/* Forgets request if the table has it (a handle now naming something else). */
void mg_mpi_pending_forget (MPI_Request request);

#endif /* MG_MPI_PENDING_H */
