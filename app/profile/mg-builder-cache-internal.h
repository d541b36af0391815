/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the profile builder asks of its cache (mg-builder-cache.h). Not for
 * use outside app/profile. */
#pragma once

#include "mg-builder-cache.h"
#include "mg-builder-process.h"
#include "mg-grid-accumulator.h"

G_BEGIN_DECLS

/* The pool the builders' rows are carved from. */
MgRowSlabs *mg_builder_cache_get_slabs (MgProfileBuilderCache *cache);
/* The last finished profile, or NULL. */
MgProfile *mg_builder_cache_get_profile (MgProfileBuilderCache *cache);
/* Copies the first n samples of the cache profile's process `previous`
 * into p (no samples yet), when the profile has the same metrics
 * (MgMetricDef*); returns how many were taken. */
guint mg_builder_cache_reuse (MgProfileBuilderCache *cache, MgBuilderProcess *p, guint previous,
                              guint n, GPtrArray *metrics, MgBuilderRows *rows);
/* The first window whose aggregates may differ from the cache profile's:
 * those before keep their values (0: every window is computed). */
guint mg_builder_cache_first_changed_window (MgProfileBuilderCache *cache, GPtrArray *processes,
                                             GPtrArray *metrics, const MgGrid *grid);
/* Keeps what the next builder reuses: the profile and its processes'
 * (MgBuilderProcess*) sample windows, unless they were packed. */
void mg_builder_cache_keep (MgProfileBuilderCache *cache, MgProfile *profile,
                            GPtrArray *processes, gboolean packed, double width,
                            guint reused_windows);

G_END_DECLS
