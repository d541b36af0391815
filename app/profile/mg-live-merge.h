/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the live view's merges keep between refreshes: per record, its
 * slots combined so far (MgSlotCombiner), so that each refresh reads and
 * combines only the slots committed since the last one. Given to
 * mg_merge_records through MgMergeInput.live; one merge at a time. */
#pragma once

#include <glib.h>

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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgLiveMerge, mg_live_merge_free)

G_END_DECLS
