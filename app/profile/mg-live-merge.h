/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the live view's merges keep between refreshes: per record, its
 * slots combined so far (MgSlotCombiner), so that each refresh reads and
 * combines only the slots committed since the last one; and the last
 * profile with its builder's state (MgProfileBuilderCache), so that a
 * refresh copies the samples that did not change and recomputes only the
 * aggregates of the windows the others touch. Given to mg_merge_records
 * through MgMergeInput.live; one merge at a time. */
#pragma once

#include <glib.h>

#include "mg-profile-builder.h"
#include "mg-record-reader.h"
#include "mg-slot-combiner.h"

G_BEGIN_DECLS

typedef struct _MgLiveMerge MgLiveMerge;

MgLiveMerge *mg_live_merge_new (void);
void mg_live_merge_free (MgLiveMerge *self);

/* Reads the record at path from its first slot not yet combined, and sets
 * *combiner (owned by self) to its slots so far, into which the caller
 * feeds the record's. A record whose slots were rewritten since (the
 * sampler halved them when full: its seqlock moved), or that is another
 * record now, is read whole into a new combiner. */
MgRecordFile *mg_live_merge_read (MgLiveMerge *self, const char *path, guint max_buckets,
                                  MgSlotCombiner **combiner, GError **error);

/* The times of the record's slots read so far (each its start and end,
 * mono ns): from its first slot, across reads; NULL for a record not
 * read. The stacks of a record read from a later slot need them for the
 * windows of the slots before. */
const gint64 *mg_live_merge_get_slot_times (MgLiveMerge *self, const char *path,
                                            guint *n_slots);

/* The cache the merges' builders share. */
MgProfileBuilderCache *mg_live_merge_get_cache (MgLiveMerge *self);

/* For the record at path, read by mg_live_merge_read and its slots fed to
 * its combiner, whose times are offset by offset_ns from the run's start:
 * how many of its combined samples are unchanged since the merge that
 * made the cache's profile, and which process of that profile it was
 * (*previous). 0 when it is new, was read again whole, moved in time or
 * that merge failed. Notes that it is process `index` of this merge. */
guint mg_live_merge_count_unchanged (MgLiveMerge *self, const char *path, gint64 offset_ns,
                                     guint index, guint *previous);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgLiveMerge, mg_live_merge_free)

G_END_DECLS
