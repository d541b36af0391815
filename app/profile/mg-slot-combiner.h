/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One record's slots combined into at most max_buckets samples, fed one
 * slot at a time: runs of `per` consecutive slots (a power of two, doubled
 * by merging neighbours whenever the buckets are full) become one sample
 * with the min of the minima, the max of the maxima and the time-weighted
 * mean. Feeding the same slots in the same order gives the same values
 * whether they come at once (a merge) or a few per refresh (the live view). */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"

G_BEGIN_DECLS

typedef struct _MgSlotCombiner MgSlotCombiner;

/* Where a combiner stood (mg_slot_combiner_get_mark), to learn later which
 * of its buckets changed since. */
typedef struct {
  guint64 id;                  /* the combiner's: unique in the process */
  guint n_slots;
  guint per;
} MgSlotCombinerMark;

/* n_values: the record's metrics; max_buckets > 0. */
MgSlotCombiner *mg_slot_combiner_new (guint n_values, guint max_buckets);
void mg_slot_combiner_free (MgSlotCombiner *self);

void mg_slot_combiner_add (MgSlotCombiner *self, const MgRecordSample *sample,
                           const MgRecordValue *values);

guint mg_slot_combiner_get_n_slots (const MgSlotCombiner *self);
guint mg_slot_combiner_get_n_buckets (const MgSlotCombiner *self);
/* Bucket b's window on the record's monotonic clock. */
void mg_slot_combiner_get_window (const MgSlotCombiner *self, guint b, gint64 *t_start_ns,
                                  gint64 *t_end_ns);
/* Value i of bucket b; FALSE (a gap) if no slot of it had one. */
gboolean mg_slot_combiner_get_value (const MgSlotCombiner *self, guint b, guint i, double *min,
                                     double *max, double *mean);
/* The mean of value i's latest slot that had one (NAN if none), and that
 * slot's end with its index + 1 (0 if none). */
double mg_slot_combiner_get_last_mean (const MgSlotCombiner *self, guint i);
guint mg_slot_combiner_get_last_slot (const MgSlotCombiner *self, guint i, gint64 *t_end_ns);

void mg_slot_combiner_get_mark (const MgSlotCombiner *self, MgSlotCombinerMark *mark);
/* How many of the first buckets are as they were at mark: slots fed since
 * change only the last bucket of then and add new ones, unless the buckets
 * were halved (then none is). 0 for another combiner's mark. */
guint mg_slot_combiner_count_unchanged (const MgSlotCombiner *self, const MgSlotCombinerMark *mark);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSlotCombiner, mg_slot_combiner_free)

G_END_DECLS
