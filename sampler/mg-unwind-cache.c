/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The handlers' shared cache of frame rules (mg-unwind-internal.h): a
 * sample mostly meets the return addresses earlier samples met, and a hit
 * costs one cache line instead of the search table, the FDE and the CIE.
 * Two-way set-associative by pc, both ways of a set in one 64-byte line:
 * direct-mapped, two of a stack's pcs that shared a slot (about one pair
 * in a 30-frame stack) evicted each other at every walk, and each miss
 * paid a whole lookup (bench-unwind: 4 of 30 frames a walk). A slot is
 * written by whichever handler claims its sequence count (odd while
 * written) and read only when the count is even and unchanged around the
 * read, so readers and writers never wait. Slots name the snapshot
 * generation they were filled under: a new snapshot (modules loaded or
 * unloaded) retires them all. */

#include "mg-unwind-internal.h"

#define SETS_LOG2 8
#define WAYS 2
#define SLOTS (WAYS << SETS_LOG2) /* 16 KiB: few pages, so that a walk takes few TLB misses */

/* 32 bytes, aligned: one cache line's read per hit */
typedef struct __attribute__((aligned (32)))
{
  uint32_t seq;
  uint32_t generation;
  uint64_t pc;
  int32_t cfa_offset;
  int16_t ra_offset;
  uint8_t cfa_reg;
  uint8_t outermost;
  int8_t saved[6]; /* in 8-byte units from the CFA */
} Slot;

static Slot slots[SLOTS] __attribute__((aligned (64)));
/* The direct-mapped cache this one replaced, for bench-unwind's "before"
 * walks (mg_unwind_before): bss never touched otherwise. */
static Slot direct_slots[SLOTS] __attribute__((aligned (64)));
static const uint8_t columns[6] = MG_UNWIND_FAST_COLUMNS;
bool mg_unwind_before;

void
mg_unwind_cache_extent (const void **start, size_t *size)
{
  *start = slots;
  *size = sizeof slots;
}

void
mg_unwind_cache_prefetch (void)
{
  for (unsigned i = 0; i < SLOTS; i += 64 / sizeof (Slot))
    __builtin_prefetch (&slots[i], 0, 3);
}

/* The first way of pc's set, and in *pick the way a new entry takes when
 * neither is free (a bit of the hash the index did not use). */
static Slot *
set_of (uint64_t pc, unsigned *pick, unsigned *ways)
{
  uint64_t h = pc * 0x9e3779b97f4a7c15u; /* Fibonacci hashing: nearby pcs spread */
  if (__builtin_expect (mg_unwind_before, false))
    {
      *pick = 0;
      *ways = 1;
      return &direct_slots[h >> (64 - SETS_LOG2 - 1)];
    }
  *pick = (unsigned) (h >> (63 - SETS_LOG2)) & 1;
  *ways = WAYS;
  return &slots[(h >> (64 - SETS_LOG2)) * WAYS];
}

static bool
get_way (Slot *s, uint32_t generation, uint64_t pc, struct mg_unwind_fast_rules *out)
{
  uint32_t before = __atomic_load_n (&s->seq, __ATOMIC_ACQUIRE);
  if (before & 1)
    return false;
  bool same = __atomic_load_n (&s->pc, __ATOMIC_RELAXED) == pc
              && __atomic_load_n (&s->generation, __ATOMIC_RELAXED) == generation;
  out->cfa_offset = __atomic_load_n (&s->cfa_offset, __ATOMIC_RELAXED);
  out->cfa_reg = __atomic_load_n (&s->cfa_reg, __ATOMIC_RELAXED);
  out->outermost = __atomic_load_n (&s->outermost, __ATOMIC_RELAXED);
  out->ra_offset = __atomic_load_n (&s->ra_offset, __ATOMIC_RELAXED);
  for (unsigned i = 0; i < 6; i++)
    out->saved[i] = (int16_t) (__atomic_load_n (&s->saved[i], __ATOMIC_RELAXED) * 8);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  return same && __atomic_load_n (&s->seq, __ATOMIC_RELAXED) == before;
}

bool
mg_unwind_cache_get (uint32_t generation, uint64_t pc, struct mg_unwind_fast_rules *out)
{
  unsigned pick, ways;
  Slot *set = set_of (pc, &pick, &ways);
  for (unsigned w = 0; w < ways; w++)
    if (get_way (&set[w], generation, pc, out))
      return true;
  return false;
}

/* A way that holds pc already, or one that is free or of an older
 * snapshot, or else the way pick names. */
static Slot *
way_for (uint32_t generation, uint64_t pc)
{
  unsigned pick, ways;
  Slot *set = set_of (pc, &pick, &ways);
  for (unsigned w = 0; w < ways; w++)
    if (__atomic_load_n (&set[w].pc, __ATOMIC_RELAXED) == pc)
      return &set[w];
  for (unsigned w = 0; w < ways; w++)
    if (__atomic_load_n (&set[w].generation, __ATOMIC_RELAXED) != generation)
      return &set[w];
  return &set[pick];
}

void
mg_unwind_cache_put (uint32_t generation, uint64_t pc, const struct mg_eh_rules *ru)
{
  if (ru->cfa_is_expr || (ru->cfa_reg != 6 && ru->cfa_reg != 7) || ru->cfa_offset < INT32_MIN
      || ru->cfa_offset > INT32_MAX || ru->ra_column != 16)
    return;
  struct mg_unwind_fast_rules f = { .cfa_offset = (int32_t) ru->cfa_offset, .cfa_reg = ru->cfa_reg };
  /* every followed column must be plain: unchanged, or saved on the stack */
  for (unsigned reg = 0; reg < MG_EH_REGS; reg++)
    {
      if (!(ru->set & (1u << reg)) || ru->regs[reg].kind == MG_EH_SAME)
        {
          if (reg == 16)
            return;
          continue;
        }
      const struct mg_eh_rule *r = &ru->regs[reg];
      if (reg == 16 && r->kind == MG_EH_UNDEFINED)
        {
          f.outermost = true;
          continue;
        }
      if (r->kind != MG_EH_OFFSET || r->offset == 0 || r->offset < INT16_MIN || r->offset > INT16_MAX
          || (reg != 16 && (r->offset % 8 != 0 || r->offset / 8 < INT8_MIN || r->offset / 8 > INT8_MAX)))
        return;
      if (reg == 16)
        {
          f.ra_offset = (int16_t) r->offset;
          continue;
        }
      unsigned k = 0;
      while (k < 6 && columns[k] != reg)
        k++;
      if (k == 6)
        return; /* a caller-saved register's rule: not for the fast form */
      f.saved[k] = (int16_t) r->offset;
    }
  Slot *s = way_for (generation, pc);
  uint32_t seq = __atomic_load_n (&s->seq, __ATOMIC_RELAXED);
  if ((seq & 1) || !__atomic_compare_exchange_n (&s->seq, &seq, seq + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return; /* another handler writes it */
  __atomic_thread_fence (__ATOMIC_RELEASE);
  __atomic_store_n (&s->pc, pc, __ATOMIC_RELAXED);
  __atomic_store_n (&s->generation, generation, __ATOMIC_RELAXED);
  __atomic_store_n (&s->cfa_offset, f.cfa_offset, __ATOMIC_RELAXED);
  __atomic_store_n (&s->cfa_reg, f.cfa_reg, __ATOMIC_RELAXED);
  __atomic_store_n (&s->outermost, f.outermost, __ATOMIC_RELAXED);
  __atomic_store_n (&s->ra_offset, f.ra_offset, __ATOMIC_RELAXED);
  for (unsigned i = 0; i < 6; i++)
    __atomic_store_n (&s->saved[i], (int8_t) (f.saved[i] / 8), __ATOMIC_RELAXED);
  __atomic_store_n (&s->seq, seq + 2, __ATOMIC_RELEASE);
}
