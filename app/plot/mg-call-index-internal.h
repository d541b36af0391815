/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgCallIndex's fields, for the queries beyond the call tree
 * (mg-call-index-figures.c): a function's share over time and a file's
 * line figures, which read each stack's own (window, count) list. */
#pragma once

#include "mg-call-index.h"
#include "mg-call-shape.h"

G_BEGIN_DECLS

/* One count of a distinct stack: COUNT samples in SLOT, a window of one
 * process (slots number every process's windows one after the other). */
typedef struct {
  guint32 slot;
  guint32 count;
} MgCallIndexEntry;

struct _MgCallIndex {
  gatomicrefcount ref;
  MgStackTable *table;
  MgCallShape *shape;
  guint **global;          /* by process entry: its stacks' indices in the shape */
  guint n_processes;
  guint n_threads;         /* the table's */
  /* The entries transposed, by distinct stack: stack s's counts are
   * entries[entry_start[s] .. entry_start[s + 1]), in slot order. */
  guint *entry_start;
  MgCallIndexEntry *entries;
  /* Slots: process entry p's windows are slot_first[p] + window. */
  guint *slot_first;       /* by process entry + 1 */
  double *slot_starts, *slot_ends;
  guint64 *slot_totals;    /* every stack's samples in the slot */
  /* Each distinct stack's frames as distinct addresses (a return address
   * one less, as they are named), innermost first:
   * stack_addresses[address_start[s] .. address_start[s + 1]). */
  guint *address_start;
  guint *stack_addresses;
  guint n_addresses;
  guint64 *address_vaddr;
  guint32 *address_module;
  /* By function id: the distinct stacks holding it, in stack order:
   * function_stacks[function_start[f] .. function_start[f + 1]). */
  guint n_functions;
  guint *function_start;
  guint *function_stacks;
};

G_END_DECLS
