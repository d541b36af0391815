/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What repeated merges of a growing run (the live view's refreshes) carry
 * from one profile builder to the next: the last profile, its processes'
 * sample windows and its grid. A builder given it takes over the samples
 * that did not change (mg_profile_builder_reuse_samples) and, on a stable
 * grid, keeps the previous aggregates of every window no changed sample
 * touches. One builder at a time. GTK-free. */
#pragma once

#include "mg-profile.h"

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

G_END_DECLS
