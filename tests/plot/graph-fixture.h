/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles of known shape for the graph tests, the demo and the benchmark. */
#pragma once

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* Metric i is of kind i % 4:
 *   0 "cpu_<i>"  CPU time, %, type colour, imbalance grows with the rank
 *   1 "mem_<i>"  memory, B, rising, type colour
 *   2 "io_<i>"   IO, B/s, a gap for every process over [0.4, 0.5) of the run
 *                when with_gap, definition colour #E65100
 *   3 "mpi_<i>"  MPI calls/s, definition colour #8E24AA
 * Processes have ranks 0..n-1 and pids 1000 + rank. Windows are equal. */
MgProfile *graph_fixture_profile (guint n_processes, guint n_metrics, guint n_windows,
                                  double duration, gboolean with_gap);

/* The fixture's definition colours (kinds 2 and 3). */
#define GRAPH_FIXTURE_IO_COLOUR 0xE65100
#define GRAPH_FIXTURE_MPI_COLOUR 0x8E24AA

G_END_DECLS
