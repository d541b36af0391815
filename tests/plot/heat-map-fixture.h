/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles for the rank overview's tests and benchmark: one metric "cpu"
 * (%, "CPU") of n_ranks processes (ranks 0..n-1, pids 1000 + rank) over
 * n_windows windows of HEAT_MAP_FIXTURE_WINDOW seconds. Rank r holds
 * 10 + r / 100 everywhere, except: rank spike_rank holds 90 in window
 * n_windows / 2; rank idle_rank holds 1 in windows [n/5, n/5 + n/10);
 * every rank has a gap in windows [0.8 n, 0.85 n) when with_gap. -1: no
 * such rank. */
#pragma once

#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define HEAT_MAP_FIXTURE_WINDOW 0.01

MgProfile *heat_map_fixture_profile (guint n_ranks, guint n_windows, int spike_rank,
                                     int idle_rank, gboolean with_gap);
/* The value of rank r in window w. */
double heat_map_fixture_value (guint n_windows, int spike_rank, int idle_rank, gboolean with_gap,
                               guint r, guint w);

G_END_DECLS
