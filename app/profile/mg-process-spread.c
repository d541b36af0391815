/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Figures across processes: kept sparse (a key holds an entry only for the
 * processes it appeared in), computed once in finish. */
#include "mg-config.h"

#include "mg-process-spread.h"

typedef struct {
  guint process;
  guint64 total;
} Process;

typedef struct {
  guint slot;              /* index into processes */
  guint64 counts[2];       /* self, total */
} Entry;

typedef struct {
  GArray *entries;         /* Entry, by slot */
  MgSpreadFigures figures[2];
} Key;

struct _MgProcessSpread {
  GArray *processes;       /* Process, in order given */
  GHashTable *keys;        /* key → Key* */
  gboolean finished;
};

static void
key_free (gpointer data)
{
  Key *k = data;
  g_array_unref (k->entries);
  g_free (k);
}

MgProcessSpread *
mg_process_spread_new (void)
{
  MgProcessSpread *self = g_new0 (MgProcessSpread, 1);
  self->processes = g_array_new (FALSE, FALSE, sizeof (Process));
  self->keys = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, key_free);
  return self;
}

void
mg_process_spread_free (MgProcessSpread *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->processes);
  g_hash_table_unref (self->keys);
  g_free (self);
}

void
mg_process_spread_begin_process (MgProcessSpread *self, guint process, guint64 total)
{
  g_return_if_fail (!self->finished && total > 0);
  Process p = { process, total };
  g_array_append_val (self->processes, p);
}

void
mg_process_spread_add (MgProcessSpread *self, guint key, guint64 self_samples,
                       guint64 total_samples)
{
  g_return_if_fail (!self->finished && self->processes->len > 0);
  Key *k = g_hash_table_lookup (self->keys, GUINT_TO_POINTER (key));
  if (k == NULL)
    {
      k = g_new0 (Key, 1);
      k->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
      g_hash_table_insert (self->keys, GUINT_TO_POINTER (key), k);
    }
  guint slot = self->processes->len - 1;
  Entry *last = k->entries->len > 0 ? &g_array_index (k->entries, Entry, k->entries->len - 1)
                                    : NULL;
  if (last == NULL || last->slot != slot)
    {
      Entry e = { slot, { 0, 0 } };
      g_array_append_val (k->entries, e);
      last = &g_array_index (k->entries, Entry, k->entries->len - 1);
    }
  last->counts[MG_SPREAD_SELF] += self_samples;
  last->counts[MG_SPREAD_TOTAL] += total_samples;
}

/* One kind's figures of a key: every process in order, 0 % where the key
 * has no entry; ties go to the first process, so the figures do not
 * depend on anything but the input. */
static void
compute (MgProcessSpread *self, Key *k, MgSpreadKind kind)
{
  MgSpreadFigures *f = &k->figures[kind];
  guint next = 0;
  double sum = 0;

  for (guint slot = 0; slot < self->processes->len; slot++)
    {
      const Process *p = &g_array_index (self->processes, Process, slot);
      guint64 count = 0;
      if (next < k->entries->len && g_array_index (k->entries, Entry, next).slot == slot)
        count = g_array_index (k->entries, Entry, next++).counts[kind];
      double share = 100.0 * (double) count / (double) p->total;
      if (slot == 0 || share < f->min)
        {
          f->min = share;
          f->min_process = p->process;
        }
      if (slot == 0 || share > f->max)
        {
          f->max = share;
          f->max_process = p->process;
        }
      sum += share;
    }
  f->mean = self->processes->len > 0 ? sum / self->processes->len : 0;
}

void
mg_process_spread_finish (MgProcessSpread *self)
{
  GHashTableIter iter;
  gpointer value;

  g_return_if_fail (!self->finished);
  self->finished = TRUE;
  g_hash_table_iter_init (&iter, self->keys);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      compute (self, value, MG_SPREAD_SELF);
      compute (self, value, MG_SPREAD_TOTAL);
    }
}

guint
mg_process_spread_get_n_processes (const MgProcessSpread *self)
{
  return self->processes->len;
}

gboolean
mg_process_spread_get (const MgProcessSpread *self, guint key, MgSpreadKind kind,
                       MgSpreadFigures *out)
{
  *out = (MgSpreadFigures) { 0 };
  g_return_val_if_fail (self->finished, FALSE);
  if (self->processes->len < 2)
    return FALSE;
  const Key *k = g_hash_table_lookup (self->keys, GUINT_TO_POINTER (key));
  if (k == NULL)
    return FALSE;
  *out = k->figures[kind];
  return TRUE;
}
