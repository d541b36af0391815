/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An MPI wrapper and its MPI library in miniature, for the tests of how
 * a frame of Metrograph's own libraries is shown (docs/symbols.md,
 * "Metrograph's own frames"): libmetrograph-mpi-frame-fixture.so defines
 * MPI_Barrier, as plugins/mpi-wrap.c does, calling PMPI_Barrier from
 * libmpi-frame-fixture.so, the "MPI library". Both built with -g, so the
 * wrapper's frame has a file and line the symboliser must drop. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int MPI_Barrier (int comm);
int PMPI_Barrier (int comm);

/* The path of the module that holds FN and FN's ELF virtual address in
 * it, plus OFFSET. */
char *mpi_frame_fixture_module_of (gpointer fn, guint offset, guint64 *vaddr);

G_END_DECLS
