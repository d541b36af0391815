/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile's aggregates across processes, window by window (min, max,
 * mean, variance, sum, and which process held the min and the max), and
 * single values: computed on threads beside the caller when the processes
 * are packed. GTK-free. */
#pragma once

#include "mg-grid-accumulator.h"
#include "mg-profile.h"

G_BEGIN_DECLS

/* Gives profile (its metrics copied, its grid laid) its aggregates and
 * single values from processes (MgBuilderProcess*). Windows before from
 * are those of previous (the last profile of a live view's cache), which
 * has the same grid up to there. n_threads: how many may share the work. */
void mg_builder_aggregate (MgProfile *profile, GPtrArray *processes, const MgProfile *previous,
                           const MgGrid *grid, guint from, guint n_threads);

G_END_DECLS
