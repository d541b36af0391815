/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile with call stacks of known counts for the code views' tests:
 * gui_fixture_imbalance's 4 processes (1 s, 100 windows), its stacks
 * member made by the stacks fixture (stacks-fixture.h) over two windows
 * per process, (0, 0.5] and (0.5, 1], of frames in this test program's
 * own functions code_fixture_main, _a, _b and _c (so the symboliser
 * names them):
 *
 *   process 0: first window  main→a→c ×30, main→a ×60; second main→b→c ×10
 *   process 1: first window  main→b→c ×20;             second main→a ×40
 *
 * Whole run: 160 samples, a 130 total (81.25 %), 100 self (62.5 %), c
 * 60 (37.5 %), b 30 total; the second half alone: 50 samples, a 80 %,
 * c 20 %; process 1 alone: 60, a 66.7 %, c 33.3 %. */
#pragma once

#include "gui/mg-code-view.h"
#include "gui/mg-window.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

MgProfile *code_fixture_profile (void);
/* One function, code_fixture_two, calling code_fixture_d from two
 * lines ("  sink = code_fixture_d (x);" and "... (x + 1);"), process 0:
 * the second call ×30 in (0, 0.5] and ×5 in (0.5, 1], named first; the
 * first call ×10 and ×40: the whole run's and the second half's hottest
 * line of two is the first call's, the first half's the second call's. */
MgProfile *code_fixture_two_lines_profile (void);

/* A chain, as a C program's start-up (_start, __libc_start_main_impl,
 * __libc_start_call_main, main), process 0: d→main→b→a→c ×75, d→main→b→a
 * ×25: a 100 total, 25 self; c 75. */
MgProfile *code_fixture_chain_profile (void);

/* Ties (process 0, one window): main→b→c ×40, main→a→c ×40: main and c
 * 80 total (100 %), a and b 40 (50 %) each; c 80 self. */
MgProfile *code_fixture_ties_profile (void);

/* Threads (docs/profile-format.md, stack flags): process 0 alone, main→a
 * in its main thread ×70, main→b in thread 1 ×25, main→a in thread 2 ×5:
 * all threads a 75 %, b 25 %; the main thread a only; thread 1 b only. */
MgProfile *code_fixture_threads_profile (void);

/* The same, its threads named as a profile of format 8 names them:
 * process 0's main thread "main", thread 1 "worker-3", thread 2
 * "gamma\xe9" (not UTF-8); process 1's main thread "other". */
MgProfile *code_fixture_named_threads_profile (void);

/* An MPI wait (mpi-frame-fixture.h), process 0: MPI_Barrier in the
 * miniature wrapper libmetrograph-mpi-frame-fixture.so called from
 * main ×30, main→a ×10; the module table holds the wrapper and the
 * miniature MPI library libmpi-frame-fixture.so. */
MgProfile *code_fixture_mpi_profile (void);

/* The window's Code pane once its computation is done (at most 20 s). */
MgCodeView *code_fixture_view (MgWindow *window);

G_END_DECLS
