/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-live-merge.h"

typedef struct {
  guint32 seq;                 /* the record's seqlock when last read */
  gint64 start_mono_ns;
  int pid;
  guint n_metrics;
  guint max_buckets;
  MgSlotCombiner *combiner;
  GArray *times;               /* gint64 pairs: each slot read so far, start and end */
  /* What the merge that last used it saw: its combiner then, its time
   * offset and its process index; valid only if that merge finished,
   * making the cache's generation `generation`. */
  MgSlotCombinerMark mark;
  gint64 offset_ns;
  guint index;
  guint generation;
} LiveRecord;

struct _MgLiveMerge {
  GHashTable *records;         /* path → LiveRecord */
  MgProfileBuilderCache *cache;
};

static void
live_record_free (LiveRecord *record)
{
  mg_slot_combiner_free (record->combiner);
  g_array_unref (record->times);
  g_free (record);
}

MgLiveMerge *
mg_live_merge_new (void)
{
  MgLiveMerge *self = g_new0 (MgLiveMerge, 1);

  self->records = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) live_record_free);
  self->cache = mg_profile_builder_cache_new ();
  return self;
}

void
mg_live_merge_free (MgLiveMerge *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->records);
  mg_profile_builder_cache_free (self->cache);
  g_free (self);
}

/* Whether the slots combined so far are still the record's first ones. */
static gboolean
still_valid (const LiveRecord *kept, const MgRecordFile *r, guint max_buckets)
{
  const MgRecordHeader *h = &r->header;

  return kept->seq == h->seq && kept->start_mono_ns == h->start_mono_ns && kept->pid == h->pid
         && kept->n_metrics == h->n_metrics && kept->max_buckets == max_buckets
         && r->first == mg_slot_combiner_get_n_slots (kept->combiner);
}

MgRecordFile *
mg_live_merge_read (MgLiveMerge *self, const char *path, guint max_buckets,
                    MgSlotCombiner **combiner, GError **error)
{
  LiveRecord *kept = g_hash_table_lookup (self->records, path);
  guint first = kept != NULL ? mg_slot_combiner_get_n_slots (kept->combiner) : 0;
  g_autoptr (MgRecordFile) r = mg_record_file_read_from (path, first, error);

  if (r == NULL)
    {
      g_hash_table_remove (self->records, path);
      return NULL;
    }
  if (kept != NULL && !still_valid (kept, r, max_buckets))
    {
      g_hash_table_remove (self->records, path);
      kept = NULL;
      if (first > 0)
        {
          g_clear_pointer (&r, mg_record_file_free);
          r = mg_record_file_read (path, error);
          if (r == NULL)
            return NULL;
        }
    }
  if (kept == NULL)
    {
      kept = g_new0 (LiveRecord, 1);
      kept->combiner = mg_slot_combiner_new (r->header.n_metrics, max_buckets);
      kept->times = g_array_new (FALSE, FALSE, sizeof (gint64));
      kept->n_metrics = r->header.n_metrics;
      kept->max_buckets = max_buckets;
      g_hash_table_insert (self->records, g_strdup (path), kept);
    }
  /* The slots' times, for the stacks' windows of the slots read before. */
  g_array_set_size (kept->times, 2 * (gsize) r->first);
  for (guint k = 0; k < r->n_samples; k++)
    {
      const MgRecordSample *sample = mg_record_file_get_sample (r, k);
      g_array_append_val (kept->times, sample->t_start_ns);
      g_array_append_val (kept->times, sample->t_end_ns);
    }
  kept->seq = r->header.seq;
  kept->start_mono_ns = r->header.start_mono_ns;
  kept->pid = r->header.pid;
  *combiner = kept->combiner;
  return g_steal_pointer (&r);
}

const gint64 *
mg_live_merge_get_slot_times (MgLiveMerge *self, const char *path, guint *n_slots)
{
  LiveRecord *kept = g_hash_table_lookup (self->records, path);

  *n_slots = kept ? kept->times->len / 2 : 0;
  return kept ? (const gint64 *) (void *) kept->times->data : NULL;
}

MgProfileBuilderCache *
mg_live_merge_get_cache (MgLiveMerge *self)
{
  return self->cache;
}

guint
mg_live_merge_count_unchanged (MgLiveMerge *self, const char *path, gint64 offset_ns,
                               guint index, guint *previous)
{
  LiveRecord *kept = g_hash_table_lookup (self->records, path);
  guint generation = mg_profile_builder_cache_get_generation (self->cache);
  guint unchanged = 0;

  g_return_val_if_fail (kept != NULL, 0);
  if (kept->generation == generation && kept->offset_ns == offset_ns)
    {
      unchanged = mg_slot_combiner_count_unchanged (kept->combiner, &kept->mark);
      *previous = kept->index;
    }
  mg_slot_combiner_get_mark (kept->combiner, &kept->mark);
  kept->offset_ns = offset_ns;
  kept->index = index;
  kept->generation = generation + 1;
  return unchanged;
}
