/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the unwinder's files share: the snapshot a signal handler reads
 * (modules with their CFI, readable memory ranges), published by
 * mg-unwind.c and read by mg-unwind-walk.c. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "mg-eh-frame.h"

#define MG_UNWIND_MAX_MODULES 1024
#define MG_UNWIND_MAX_RANGES 16384

/* One loaded module as a handler sees it. */
#define MG_UNWIND_PROBE 16

struct mg_unwind_entry
{
  uint64_t start, end; /* span of its PT_LOAD segments */
  int32_t module;      /* index in the module list (mg_unwind_module) */
  /* Loaded after the first snapshot, so glibc may unload it without a
   * dlclose (a gconv module): its first bytes at probe_at (its
   * .eh_frame_hdr, else its first code) are checked against probe, copied
   * when the snapshot was made, before its memory is read. */
  uint8_t check;
  uint8_t probe[MG_UNWIND_PROBE];
  uint64_t probe_at;
  struct mg_eh_module eh;
};

/* A readable mapping of /proc/self/maps: stacks are read only inside one. */
struct mg_unwind_range
{
  uint64_t lo, hi;
};

struct mg_unwind_snapshot
{
  uint32_t generation; /* of the rebuild that filled it (never 0): keys the rule cache */
  uint32_t n_entries, n_ranges;
  struct mg_unwind_entry entries[MG_UNWIND_MAX_MODULES];   /* sorted by start */
  struct mg_unwind_range ranges[MG_UNWIND_MAX_RANGES];    /* sorted, disjoint */
};

/* The published snapshot, pinned until mg_unwind_snapshot_release (slot
 * gets what to pass back); NULL when there is none, or while modules are
 * being unloaded (a dlclose in flight), when no module may be read.
 * Async-signal-safe, never waits. */
const struct mg_unwind_snapshot *mg_unwind_snapshot_acquire (int *slot);
void mg_unwind_snapshot_release (int slot);

/* Lookups in a snapshot (async-signal-safe). */
/* The entry holding pc, NULL when none or when its module is gone
 * (mg_unwind_entry.check); _lookup without that check. */
const struct mg_unwind_entry *mg_unwind_snapshot_entry (const struct mg_unwind_snapshot *s, uint64_t pc);
const struct mg_unwind_entry *mg_unwind_snapshot_lookup (const struct mg_unwind_snapshot *s, uint64_t pc);
const struct mg_unwind_range *mg_unwind_snapshot_range (const struct mg_unwind_snapshot *s, uint64_t addr);
/* A handler found a stack in no known range: the next refresh rereads the maps. */
void mg_unwind_note_stack_miss (void);

/* The common frame's rules, as the handlers' shared cache keeps them: CFA
 * = rsp or rbp + offset, the return address and the callee-saved
 * registers rbx, rbp, r12-r15 saved at CFA + offset (0: not saved); or
 * the outermost frame's (_start's, a thread's clone's). */
struct mg_unwind_fast_rules
{
  int32_t cfa_offset;
  uint8_t cfa_reg;
  bool outermost; /* the return address is undefined: the walk ends here */
  int16_t ra_offset;
  int16_t saved[6];
};
/* Which columns saved[] describes, in order. */
#define MG_UNWIND_FAST_COLUMNS { 3, 6, 12, 13, 14, 15 }

/* Where the cache lies (for the sampler's own-memory count). */
/* Asks the memory system for the whole cache at once (async-signal-safe):
 * a walk's lookups then hit lines already on their way instead of waiting
 * for each in turn. */
void mg_unwind_cache_prefetch (void);
/* Set: walks as before the prefetch and the two-way cache (no prefetch, a
 * separate direct-mapped cache), for bench-unwind's side-by-side "before"
 * figure in the same run; never set by the sampler. */
extern bool mg_unwind_before;

void mg_unwind_cache_extent (const void **start, size_t *size);

/* The rules cached for lookup pc under the snapshot generation, or false.
 * Lock-free (a sequence count per slot): async-signal-safe, never waits. */
bool mg_unwind_cache_get (uint32_t generation, uint64_t pc, struct mg_unwind_fast_rules *out);
/* Keeps full rules that fit the fast form; others are left out. */
void mg_unwind_cache_put (uint32_t generation, uint64_t pc, const struct mg_eh_rules *rules);

/* Fills ranges (at most max) with the readable mappings of /proc/self/maps,
 * read with open/read into buf (no stdio, no allocation). Returns the
 * count, or 0 when the file cannot be read. */
uint32_t mg_unwind_maps_read (struct mg_unwind_range *ranges, uint32_t max, char *buf, size_t buf_size);

/* Maps a module's unwind tables (.eh_frame_hdr to its segment's end) into
 * the process at once, outside handlers, with the loader's lock held; returns
 * the bytes this made resident that were not before (mg-unwind-tables.c). */
uint64_t mg_unwind_tables_map (const struct mg_eh_module *eh);

/* The dlclose interposer's bracket: modules stop being read by handlers
 * (and those in flight are waited for) before the unload, and a new
 * snapshot is published after it. */
void mg_unwind_unload_begin (void);
void mg_unwind_unload_end (void);
