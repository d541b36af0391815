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
struct mg_unwind_entry
{
  uint64_t start, end; /* span of its PT_LOAD segments */
  int32_t module;      /* index in the module list (mg_unwind_module) */
  struct mg_eh_module eh;
};

/* A readable mapping of /proc/self/maps: stacks are read only inside one. */
struct mg_unwind_range
{
  uint64_t lo, hi;
};

struct mg_unwind_snapshot
{
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
const struct mg_unwind_entry *mg_unwind_snapshot_entry (const struct mg_unwind_snapshot *s, uint64_t pc);
const struct mg_unwind_range *mg_unwind_snapshot_range (const struct mg_unwind_snapshot *s, uint64_t addr);
/* A handler found a stack in no known range: the next refresh rereads the maps. */
void mg_unwind_note_stack_miss (void);

/* Fills ranges (at most max) with the readable mappings of /proc/self/maps,
 * read with open/read into buf (no stdio, no allocation). Returns the
 * count, or 0 when the file cannot be read. */
uint32_t mg_unwind_maps_read (struct mg_unwind_range *ranges, uint32_t max, char *buf, size_t buf_size);

/* The dlclose interposer's bracket: modules stop being read by handlers
 * (and those in flight are waited for) before the unload, and a new
 * snapshot is published after it. */
void mg_unwind_unload_begin (void);
void mg_unwind_unload_end (void);
