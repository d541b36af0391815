/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef MG_MPI_TRANSFER_H
#define MG_MPI_TRANSFER_H

/* At MPI_Finalize, before the real one, in every rank: the ranks' records
 * go to rank 0's record folder (mpi-transfer.c). */
__attribute__((visibility("hidden"))) void mg_mpi_transfer_records (void);

#endif /* MG_MPI_TRANSFER_H */
