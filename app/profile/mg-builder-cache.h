/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What repeated merges of a growing run (the live view's refreshes) carry
 * from one profile builder to the next: the last profile, its processes'
 * sample windows and its grid. A builder given it takes over the samples
 * that did not change (mg_profile_builder_reuse_samples) and, on a stable
 * grid, keeps the previous aggregates of every window no changed sample
 * touches. One builder at a time. GTK-free. */
#pragma once

#include "mg-builder-process.h"
#include "mg-grid-accumulator.h"

G_BEGIN_DECLS

typedef struct _MgProfileBuilderCache MgProfileBuilderCache;

MgProfileBuilderCache *mg_profile_builder_cache_new (void);
void mg_profile_builder_cache_free (MgProfileBuilderCache *cache);
/* How many builders finished with the cache: the process indices that
 * mg_profile_builder_reuse_samples takes are those of the last one's. */
guint mg_profile_builder_cache_get_generation (const MgProfileBuilderCache *cache);
/* What the last builder took from the one before: the windows whose
 * aggregates it kept, and the samples it copied rather than added. */
void mg_profile_builder_cache_get_reused (const MgProfileBuilderCache *cache, guint *windows,
                                          guint64 *samples);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgProfileBuilderCache, mg_profile_builder_cache_free)

/* For the builder (app/profile only). */

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
