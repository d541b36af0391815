/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>

#include "format/mg-bounded-mean.h"
#include "mg-slot-combiner.h"

struct _MgSlotCombiner {
  guint64 id;
  guint n_values;
  guint max_buckets;
  guint per;                   /* slots per full bucket */
  guint n_buckets, n_alloc;
  guint n_fed;
  gint64 *t_start, *t_end;     /* per bucket */
  guint *n_slots;              /* per bucket */
  /* Per bucket × value. While a bucket holds one slot, sum is that slot's
   * mean itself (given back unchanged); from two on, the sum of mean ×
   * duration, weight the sum of durations of the slots with a value. */
  double *min, *max, *sum, *weight;
  double *last_mean;           /* per value */
  guint *last_slot;            /* per value: index + 1 */
  gint64 *last_end;            /* per value */
};

static guint64
next_id (void)
{
  static guint64 last;
  G_LOCK_DEFINE_STATIC (last);
  guint64 id;

  G_LOCK (last);
  id = ++last;
  G_UNLOCK (last);
  return id;
}

MgSlotCombiner *
mg_slot_combiner_new (guint n_values, guint max_buckets)
{
  MgSlotCombiner *self = g_new0 (MgSlotCombiner, 1);

  g_return_val_if_fail (max_buckets > 0, NULL);
  self->id = next_id ();
  self->n_values = n_values;
  self->max_buckets = max_buckets;
  self->per = 1;
  self->last_mean = g_new (double, MAX (n_values, 1));
  self->last_slot = g_new0 (guint, MAX (n_values, 1));
  self->last_end = g_new0 (gint64, MAX (n_values, 1));
  for (guint i = 0; i < n_values; i++)
    self->last_mean[i] = NAN;
  return self;
}

void
mg_slot_combiner_free (MgSlotCombiner *self)
{
  if (self == NULL)
    return;
  g_free (self->t_start);
  g_free (self->t_end);
  g_free (self->n_slots);
  g_free (self->min);
  g_free (self->max);
  g_free (self->sum);
  g_free (self->weight);
  g_free (self->last_mean);
  g_free (self->last_slot);
  g_free (self->last_end);
  g_free (self);
}

/* Room for one more bucket, grown as needed: short runs stay small. */
static void
grow (MgSlotCombiner *self)
{
  gsize n;

  if (self->n_buckets < self->n_alloc)
    return;
  self->n_alloc = MIN (MAX (self->n_alloc * 2, 16), self->max_buckets);
  n = (gsize) self->n_alloc * MAX (self->n_values, 1);
  self->t_start = g_renew (gint64, self->t_start, self->n_alloc);
  self->t_end = g_renew (gint64, self->t_end, self->n_alloc);
  self->n_slots = g_renew (guint, self->n_slots, self->n_alloc);
  self->min = g_renew (double, self->min, n);
  self->max = g_renew (double, self->max, n);
  self->sum = g_renew (double, self->sum, n);
  self->weight = g_renew (double, self->weight, n);
}

/* A one-slot bucket's raw means as weighted sums, before anything joins it. */
static void
to_weighted (MgSlotCombiner *self, guint b)
{
  gsize base = (gsize) b * self->n_values;

  if (self->n_slots[b] != 1)
    return;
  for (guint i = 0; i < self->n_values; i++)
    self->sum[base + i] = self->weight[base + i] > 0 ? self->sum[base + i] * self->weight[base + i]
                                                     : 0;
}

/* Value i of src folded into bucket dst's (both weighted). */
static void
fold (MgSlotCombiner *self, gsize dst, double min, double max, double sum, double weight)
{
  if (weight <= 0)
    return;
  if (self->weight[dst] <= 0)
    {
      self->min[dst] = min;
      self->max[dst] = max;
    }
  else
    {
      self->min[dst] = MIN (self->min[dst], min);
      self->max[dst] = MAX (self->max[dst], max);
    }
  self->sum[dst] += sum;
  self->weight[dst] += weight;
}

/* Neighbours merged pairwise: half the buckets, twice the slots each. */
static void
halve (MgSlotCombiner *self)
{
  guint n = 0;

  for (guint b = 0; b < self->n_buckets; b += 2, n++)
    {
      gsize dst = (gsize) n * self->n_values, src = (gsize) b * self->n_values;

      /* A bucket left alone keeps its form (a lone slot's raw mean). */
      if (b + 1 < self->n_buckets)
        {
          to_weighted (self, b);
          to_weighted (self, b + 1);
        }
      self->t_start[n] = self->t_start[b];
      self->t_end[n] = self->t_end[b];
      self->n_slots[n] = self->n_slots[b];
      for (guint i = 0; i < self->n_values; i++)
        {
          self->min[dst + i] = self->min[src + i];
          self->max[dst + i] = self->max[src + i];
          self->sum[dst + i] = self->sum[src + i];
          self->weight[dst + i] = self->weight[src + i];
        }
      if (b + 1 == self->n_buckets)
        continue;
      src += self->n_values;
      for (guint i = 0; i < self->n_values; i++)
        fold (self, dst + i, self->min[src + i], self->max[src + i], self->sum[src + i],
              self->weight[src + i]);
      self->t_end[n] = self->t_end[b + 1];
      self->n_slots[n] += self->n_slots[b + 1];
    }
  self->n_buckets = n;
  self->per *= 2;
}

static void
start_bucket (MgSlotCombiner *self, const MgRecordSample *sample, const MgRecordValue *values,
              double w)
{
  guint b = self->n_buckets++;
  gsize base = (gsize) b * self->n_values;

  self->t_start[b] = sample->t_start_ns;
  self->t_end[b] = sample->t_end_ns;
  self->n_slots[b] = 1;
  for (guint i = 0; i < self->n_values; i++)
    {
      gboolean has = values[i].count > 0;

      self->min[base + i] = has ? values[i].min : NAN;
      self->max[base + i] = has ? values[i].max : NAN;
      self->sum[base + i] = has ? values[i].mean : 0;
      self->weight[base + i] = has ? w : 0;
    }
}

void
mg_slot_combiner_add (MgSlotCombiner *self, const MgRecordSample *sample,
                      const MgRecordValue *values)
{
  double w = MAX ((double) (sample->t_end_ns - sample->t_start_ns), 1.0);
  guint b = self->n_buckets;

  if (b > 0 && self->n_slots[b - 1] >= self->per && b == self->max_buckets)
    halve (self);
  b = self->n_buckets;
  if (b > 0 && self->n_slots[b - 1] < self->per)
    {
      gsize base = (gsize) (b - 1) * self->n_values;

      to_weighted (self, b - 1);
      for (guint i = 0; i < self->n_values; i++)
        if (values[i].count > 0)
          fold (self, base + i, values[i].min, values[i].max, values[i].mean * w, w);
      self->t_end[b - 1] = sample->t_end_ns;
      self->n_slots[b - 1]++;
    }
  else
    {
      grow (self);
      start_bucket (self, sample, values, w);
    }
  for (guint i = 0; i < self->n_values; i++)
    if (values[i].count > 0)
      {
        self->last_mean[i] = values[i].mean;
        self->last_slot[i] = self->n_fed + 1;
        self->last_end[i] = sample->t_end_ns;
      }
  self->n_fed++;
}

guint
mg_slot_combiner_get_n_slots (const MgSlotCombiner *self)
{
  return self->n_fed;
}

guint
mg_slot_combiner_get_n_buckets (const MgSlotCombiner *self)
{
  return self->n_buckets;
}

void
mg_slot_combiner_get_window (const MgSlotCombiner *self, guint b, gint64 *t_start_ns,
                             gint64 *t_end_ns)
{
  g_return_if_fail (b < self->n_buckets);
  *t_start_ns = self->t_start[b];
  *t_end_ns = self->t_end[b];
}

gboolean
mg_slot_combiner_get_value (const MgSlotCombiner *self, guint b, guint i, double *min,
                            double *max, double *mean)
{
  gsize k = (gsize) b * self->n_values + i;

  g_return_val_if_fail (b < self->n_buckets && i < self->n_values, FALSE);
  if (self->weight[k] <= 0)
    return FALSE;
  *min = self->min[k];
  *max = self->max[k];
  *mean = self->n_slots[b] == 1 ? self->sum[k]
                                : mg_bounded_mean (self->sum[k], self->weight[k], *min, *max);
  return TRUE;
}

double
mg_slot_combiner_get_last_mean (const MgSlotCombiner *self, guint i)
{
  return self->last_mean[i];
}

guint
mg_slot_combiner_get_last_slot (const MgSlotCombiner *self, guint i, gint64 *t_end_ns)
{
  *t_end_ns = self->last_end[i];
  return self->last_slot[i];
}

void
mg_slot_combiner_get_mark (const MgSlotCombiner *self, MgSlotCombinerMark *mark)
{
  *mark = (MgSlotCombinerMark) { self->id, self->n_fed, self->per };
}

guint
mg_slot_combiner_count_unchanged (const MgSlotCombiner *self, const MgSlotCombinerMark *mark)
{
  /* Every bucket but the last holds exactly per slots, so slot s is in
   * bucket s / per: the first slot after the mark joined bucket
   * mark->n_slots / per (the last then, or a new one) and changed it. */
  if (mark->id != self->id || mark->per != self->per || mark->n_slots > self->n_fed)
    return 0;
  if (mark->n_slots == self->n_fed)
    return self->n_buckets;
  return MIN (mark->n_slots / self->per, self->n_buckets);
}
