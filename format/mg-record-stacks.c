/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record's call-stack table: layout, the handler's lock-free insertion,
 * the round's drain into slots and the halving. */
#include "format/mg-record-stacks.h"

#include <string.h>

static uint64_t
align8 (uint64_t v)
{
  return (v + 7) & ~(uint64_t) 7;
}

static uint32_t
index_size_for (uint32_t max_stacks)
{
  uint32_t n = 2;
  while (n < 2 * (uint64_t) max_stacks)
    n *= 2;
  return n;
}

uint64_t
mg_record_stacks_layout (MgRecordStacks *out, uint32_t max_stacks, uint32_t capacity)
{
  MgRecordStacks s = { 0 };
  s.max_stacks = max_stacks;
  s.index_size = index_size_for (max_stacks);
  s.pool_frames = max_stacks * MG_RECORD_STACK_FRAMES_AVG;
  if (s.pool_frames < MG_RECORD_STACK_MAX_FRAMES)
    s.pool_frames = MG_RECORD_STACK_MAX_FRAMES;
  s.slot_pairs = MG_RECORD_STACK_SLOT_PAIRS;
  s.max_modules = MG_RECORD_STACK_MODULES;
  s.capacity = capacity;
  s.slot_stride = (uint32_t) (sizeof (MgRecordStackSlot)
                              + s.slot_pairs * sizeof (MgRecordStackCount));
  s.index_offset = align8 (sizeof s);
  s.stacks_offset = align8 (s.index_offset + (uint64_t) s.index_size * sizeof (uint32_t));
  s.pending_offset = align8 (s.stacks_offset + (uint64_t) max_stacks * sizeof (MgRecordStack));
  s.pool_offset = align8 (s.pending_offset + (uint64_t) max_stacks * sizeof (uint32_t));
  s.modules_offset = align8 (s.pool_offset + (uint64_t) s.pool_frames * sizeof (uint64_t));
  s.slots_offset = align8 (s.modules_offset + (uint64_t) s.max_modules * sizeof (MgRecordModule));
  s.version = MG_RECORD_STACKS_VERSION;
  s.max_threads = MG_RECORD_STACK_THREADS;
  s.threads_offset = align8 (s.slots_offset + (uint64_t) capacity * s.slot_stride);
  if (out)
    *out = s;
  return s.threads_offset + (uint64_t) s.max_threads * sizeof (MgRecordThread);
}

bool
mg_record_stacks_name_thread (MgRecordStacks *s, int32_t tid, uint32_t ordinal, const char *name)
{
  MgRecordThread *threads = mg_record_stacks_threads (s);
  uint32_t n = s->n_thread_names;
  if (threads == NULL || n >= s->max_threads)
    return false;
  MgRecordThread *t = &threads[n];
  t->tid = tid;
  t->ordinal = ordinal;
  mg_record_copy_str (t->name, sizeof t->name, name);
  __atomic_store_n (&s->n_thread_names, n + 1, __ATOMIC_RELEASE);
  return true;
}

void
mg_record_stacks_rename_thread (MgRecordStacks *s, int32_t tid, uint32_t ordinal, const char *name)
{
  MgRecordThread *threads = mg_record_stacks_threads (s);
  uint32_t n = threads ? __atomic_load_n (&s->n_thread_names, __ATOMIC_ACQUIRE) : 0;
  for (uint32_t i = n; i-- > 0;)
    if (threads[i].tid == tid && threads[i].ordinal == ordinal)
      {
        if (strncmp (threads[i].name, name, sizeof threads[i].name) != 0)
          mg_record_copy_str (threads[i].name, sizeof threads[i].name, name);
        return;
      }
}

void
mg_record_header_add_stacks (MgRecordHeader *h, uint32_t max_stacks)
{
  h->sections |= MG_RECORD_SECTION_STACKS;
  h->file_size = mg_record_sections_offset (h)
                 + mg_record_stacks_layout (NULL, max_stacks, h->capacity);
}

MgRecordStacks *
mg_record_stacks_at (void *base, const MgRecordHeader *h)
{
  if (base == NULL || h->version < 3 || !(h->sections & MG_RECORD_SECTION_STACKS))
    return NULL;
  return (MgRecordStacks *) ((char *) base + mg_record_sections_offset (h));
}

/* FNV-1a over the frames and flags: cheap, and good enough for a table
 * that compares frames on a hash match. Never 0 (the empty index). */
static uint64_t
hash_stack (const uint64_t *pcs, unsigned n, unsigned flags)
{
  uint64_t h = 1469598103934665603ull ^ flags;
  for (unsigned i = 0; i < n; i++)
    {
      h ^= pcs[i];
      h *= 1099511628211ull;
      h ^= h >> 29;
    }
  return h ? h : 1;
}

/* A loop, not memcmp: the handler calls no function a sanitizer runtime
 * intercepts (ThreadSanitizer's memcmp would record an event for a thread
 * interrupted inside its own runtime; docs/sampler.md, "The signal"). */
static bool
same_stack (MgRecordStacks *s, const MgRecordStack *e, const uint64_t *pcs, unsigned n,
            unsigned flags)
{
  if (e->n_frames != n || (e->flags & ~MG_RECORD_STACK_READY) != flags)
    return false;
  const uint64_t *frames = mg_record_stacks_pool (s) + e->frame_offset;
  for (unsigned i = 0; i < n; i++)
    if (frames[i] != pcs[i])
      return false;
  return true;
}

static void
count (MgRecordStacks *s, uint32_t id, uint32_t weight)
{
  __atomic_fetch_add (&mg_record_stacks_pending (s)[id], weight, __ATOMIC_RELAXED);
}

static void
lost (uint64_t *counter, uint32_t weight)
{
  __atomic_fetch_add (counter, weight, __ATOMIC_RELAXED);
}

/* Hands out n frames of the pool, or returns false: never past its end,
 * whatever other threads do meanwhile. */
static bool
take_frames (MgRecordStacks *s, unsigned n, uint32_t *offset)
{
  uint32_t used = __atomic_load_n (&s->pool_used, __ATOMIC_RELAXED);
  do
    {
      if (n > s->pool_frames - used)
        return false;
    }
  while (!__atomic_compare_exchange_n (&s->pool_used, &used, used + n, true, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED));
  *offset = used;
  return true;
}

static bool
take_id (MgRecordStacks *s, uint32_t *id)
{
  uint32_t used = __atomic_load_n (&s->n_stacks, __ATOMIC_RELAXED);
  do
    {
      if (used >= s->max_stacks)
        return false;
    }
  while (!__atomic_compare_exchange_n (&s->n_stacks, &used, used + 1, true, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED));
  *id = used;
  return true;
}

#define INDEX_BUSY UINT32_MAX

/* Writes a new stack into the index entry claimed (BUSY) at *cell. */
static bool
insert (MgRecordStacks *s, uint32_t *cell, uint64_t hash, const uint64_t *pcs, unsigned n,
        unsigned flags, uint32_t weight)
{
  uint32_t id, offset;
  if (!take_id (s, &id))
    {
      __atomic_store_n (cell, 0, __ATOMIC_RELEASE);
      return false;
    }
  if (!take_frames (s, n, &offset))
    {
      /* The id stays used but never ready: readers skip it. */
      __atomic_store_n (cell, 0, __ATOMIC_RELEASE);
      return false;
    }
  MgRecordStack *e = &mg_record_stacks_entries (s)[id];
  memcpy (mg_record_stacks_pool (s) + offset, pcs, n * sizeof *pcs);
  e->hash = hash;
  e->frame_offset = offset;
  e->n_frames = (uint16_t) n;
  /* Ready before counted: a drained count always names a whole stack. */
  __atomic_store_n (&e->flags, (uint16_t) (flags | MG_RECORD_STACK_READY), __ATOMIC_RELEASE);
  count (s, id, weight);
  __atomic_store_n (cell, id + 1, __ATOMIC_RELEASE);
  return true;
}

bool
mg_record_stacks_add (MgRecordStacks *s, const uint64_t *pcs, unsigned n, unsigned flags)
{
  return mg_record_stacks_add_weighted (s, pcs, n, flags, 1);
}

bool
mg_record_stacks_add_weighted (MgRecordStacks *s, const uint64_t *pcs, unsigned n, unsigned flags,
                               uint32_t weight)
{
  if (weight == 0)
    return true;
  if (n > MG_RECORD_STACK_MAX_FRAMES)
    {
      n = MG_RECORD_STACK_MAX_FRAMES;
      flags |= MG_RECORD_STACK_TRUNCATED;
    }
  flags &= MG_RECORD_STACK_TRUNCATED | MG_RECORD_STACK_UNKNOWN | MG_RECORD_STACK_MPI
           | MG_RECORD_STACK_THREAD_MASK;
  __atomic_fetch_add (&s->n_taken, weight, __ATOMIC_RELAXED);
  uint64_t hash = hash_stack (pcs, n, flags);
  uint32_t *index = mg_record_stacks_index (s);
  uint32_t mask = s->index_size - 1;
  bool busy = false;
  /* Linear probing; the index is at least twice the stacks, so an empty
   * cell comes soon while the table has room. */
  for (uint32_t probe = 0; probe <= mask; probe++)
    {
      uint32_t *cell = &index[(hash + probe) & mask];
      uint32_t v = __atomic_load_n (cell, __ATOMIC_ACQUIRE);
      if (v == 0)
        {
          if (__atomic_compare_exchange_n (cell, &v, INDEX_BUSY, false, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE))
            {
              if (insert (s, cell, hash, pcs, n, flags, weight))
                return true;
              lost (&s->n_lost_table, weight);
              return false;
            }
          /* Taken meanwhile: look at what took it. */
        }
      if (v == INDEX_BUSY)
        {
          /* Being written by another thread (or by the code this handler
           * interrupted): it may be this stack, and waiting is not allowed
           * here. */
          busy = true;
          continue;
        }
      if (v == 0)
        continue;
      MgRecordStack *e = &mg_record_stacks_entries (s)[v - 1];
      if (e->hash == hash && same_stack (s, e, pcs, n, flags))
        {
          count (s, v - 1, weight);
          return true;
        }
    }
  lost (busy ? &s->n_lost_busy : &s->n_lost_table, weight);
  return false;
}

static void
slot_add (MgRecordStacks *s, MgRecordStackSlot *slot, uint32_t id, uint32_t c)
{
  MgRecordStackCount *pairs = mg_record_stacks_slot_pairs (slot);
  for (uint32_t i = 0; i < slot->n_pairs; i++)
    if (pairs[i].stack == id)
      {
        pairs[i].count += c;
        return;
      }
  if (slot->n_pairs < s->slot_pairs)
    {
      pairs[slot->n_pairs++] = (MgRecordStackCount) { id, c };
      return;
    }
  slot->n_lost += c;
  s->n_lost_slot += c;
}

void
mg_record_stacks_drain (MgRecordStacks *s, uint32_t i)
{
  MgRecordStackSlot *slot = mg_record_stacks_slot (s, i);
  uint32_t *pending = mg_record_stacks_pending (s);
  uint32_t n = __atomic_load_n (&s->n_stacks, __ATOMIC_ACQUIRE);
  for (uint32_t id = 0; id < n; id++)
    {
      if (__atomic_load_n (&pending[id], __ATOMIC_RELAXED) == 0)
        continue;
      uint32_t c = __atomic_exchange_n (&pending[id], 0, __ATOMIC_RELAXED);
      if (c)
        slot_add (s, slot, id, c);
    }
}

void
mg_record_stacks_merge (MgRecordStacks *s, uint32_t n)
{
  uint32_t n_new = (n + 1) / 2;
  MgRecordStackCount pairs[MG_RECORD_STACK_SLOT_PAIRS * 2];
  for (uint32_t i = 0; i < n_new; i++)
    {
      MgRecordStackSlot *a = mg_record_stacks_slot (s, 2 * i);
      MgRecordStackSlot *b = 2 * i + 1 < n ? mg_record_stacks_slot (s, 2 * i + 1) : NULL;
      uint32_t na = a->n_pairs <= s->slot_pairs ? a->n_pairs : s->slot_pairs;
      uint32_t nb = b && b->n_pairs <= s->slot_pairs ? b->n_pairs : 0;
      uint32_t lost_a = a->n_lost, lost_b = b ? b->n_lost : 0;
      /* Both read before slot i (which may be slot 2i) is written. */
      memcpy (pairs, mg_record_stacks_slot_pairs (a), na * sizeof *pairs);
      if (nb)
        memcpy (pairs + na, mg_record_stacks_slot_pairs (b), nb * sizeof *pairs);
      MgRecordStackSlot *out = mg_record_stacks_slot (s, i);
      out->n_pairs = 0;
      out->n_lost = lost_a + lost_b;
      /* Pairs beyond what fits are counted lost here, once: n_lost_slot
       * is the total over the whole run. */
      for (uint32_t k = 0; k < na + nb; k++)
        slot_add (s, out, pairs[k].stack, pairs[k].count);
    }
  for (uint32_t i = n_new; i < n; i++)
    memset (mg_record_stacks_slot (s, i), 0, s->slot_stride);
}

bool
mg_record_stacks_check (const MgRecordStacks *s, uint64_t section_size, const MgRecordHeader *h)
{
  MgRecordStacks want;
  if (section_size < sizeof *s || s->max_stacks < MG_RECORD_STACKS_MIN
      || s->max_stacks > MG_RECORD_STACKS_LIMIT || s->capacity != h->capacity)
    return false;
  uint64_t size = mg_record_stacks_layout (&want, s->max_stacks, s->capacity);
  /* Version 0, from before the threads table: the same layout, ending at
   * the slots. */
  if (s->version == 0)
    size = want.threads_offset;
  else if (s->version != MG_RECORD_STACKS_VERSION || s->max_threads != want.max_threads
           || s->threads_offset != want.threads_offset || s->n_thread_names > s->max_threads)
    return false;
  if (size != section_size)
    return false;
  if (s->index_size != want.index_size || s->pool_frames != want.pool_frames
      || s->slot_pairs != want.slot_pairs || s->max_modules != want.max_modules
      || s->slot_stride != want.slot_stride || s->index_offset != want.index_offset
      || s->stacks_offset != want.stacks_offset || s->pending_offset != want.pending_offset
      || s->pool_offset != want.pool_offset || s->modules_offset != want.modules_offset
      || s->slots_offset != want.slots_offset)
    return false;
  if (s->n_stacks > s->max_stacks || s->pool_used > s->pool_frames
      || s->n_modules > s->max_modules || s->state > MG_RECORD_STACKS_FAILED)
    return false;
  MgRecordStacks *m = (MgRecordStacks *) s;
  const MgRecordStack *e = mg_record_stacks_entries (m);
  for (uint32_t id = 0; id < s->n_stacks; id++)
    if ((e[id].flags & MG_RECORD_STACK_READY)
        && (e[id].n_frames > MG_RECORD_STACK_MAX_FRAMES
            || e[id].frame_offset > s->pool_frames
            || e[id].n_frames > s->pool_frames - e[id].frame_offset))
      return false;
  const MgRecordModule *mods = mg_record_stacks_modules (m);
  for (uint32_t i = 0; i < s->n_modules; i++)
    if (memchr (mods[i].path, '\0', sizeof mods[i].path) == NULL
        || mods[i].build_id_len > MG_RECORD_BUILD_ID_MAX)
      return false;
  const MgRecordThread *threads = mg_record_stacks_threads (m);
  for (uint32_t i = 0; threads != NULL && i < s->n_thread_names; i++)
    if (memchr (threads[i].name, '\0', sizeof threads[i].name) == NULL)
      return false;
  for (uint32_t i = 0; i < h->n_samples; i++)
    {
      MgRecordStackSlot *slot = mg_record_stacks_slot (m, i);
      if (slot->n_pairs > s->slot_pairs)
        return false;
      const MgRecordStackCount *p = mg_record_stacks_slot_pairs (slot);
      for (uint32_t k = 0; k < slot->n_pairs; k++)
        if (p[k].stack >= s->n_stacks || !(e[p[k].stack].flags & MG_RECORD_STACK_READY))
          return false;
    }
  return true;
}
