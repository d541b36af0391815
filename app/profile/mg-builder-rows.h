/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the profile builder's process rows (mg-builder-process.h) get their
 * memory: slabs the profile will hold (the live view's refreshes, given a
 * cache), rows a packed process gave back, or new memory. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-row-slabs.h"

G_BEGIN_DECLS

typedef struct {
  /* With a cache (the live view's refreshes), the processes' rows are
   * carved from slabs the profile holds and gives back to the cache's
   * pool when it goes: each refresh copies every running process's rows,
   * into memory the refresh before last used rather than into new pages. */
  MgRowSlabs *pool;        /* the cache's, or NULL */
  MgSlabSet *slabs;        /* taken from the pool at the first rows */
  /* The rows of processes already packed, kept for the next ones: a full
   * merge's processes have rows of one size, and new rows are huge pages
   * the kernel clears as they are first written (a tenth of the merge's
   * CPU time at 256 processes). Packer threads give them back. */
  GMutex lock;             /* guards spare */
  GArray *spare;           /* MgSpareRows, at most max_spare + 1 */
  guint max_spare;
} MgBuilderRows;

void mg_builder_rows_init (MgBuilderRows *rows, guint max_spare);
void mg_builder_rows_clear (MgBuilderRows *rows);
/* Memory for *size bytes of rows: from a slab with a pool, else spare
 * rows or new ones (then *size: what they hold). */
double *mg_builder_rows_alloc (MgBuilderRows *rows, gsize *size, gboolean *in_slab);
/* Rows no longer needed: kept for another process, or freed. */
void mg_builder_rows_give_back (MgBuilderRows *rows, double *mem, gsize size, gboolean in_slab);
void mg_builder_rows_free_spare (MgBuilderRows *rows);

G_END_DECLS
