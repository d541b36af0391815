/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Memory for the rows of the live view's profiles: big blocks (huge
 * pages) carved in order, one set per profile, given back to a pool when
 * that profile goes, so that the next refresh copies its rows into memory
 * already faulted in rather than into new pages. Sets may be given back
 * on any thread. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _MgRowSlabs MgRowSlabs;  /* the pool */
typedef struct _MgSlabSet MgSlabSet;    /* one profile's */

MgRowSlabs *mg_row_slabs_new (void);
MgRowSlabs *mg_row_slabs_ref (MgRowSlabs *self);
void mg_row_slabs_unref (MgRowSlabs *self);

/* A set given back earlier, else a new one (it holds a reference to the pool). */
MgSlabSet *mg_row_slabs_take (MgRowSlabs *self);
/* size bytes, 64-byte aligned; NULL if larger than a slab's sixteenth
 * (the caller allocates those itself). */
gpointer mg_slab_set_alloc (MgSlabSet *set, gsize size);
/* Back to the pool (or freed, if the pool is gone). */
void mg_slab_set_release (MgSlabSet *set);
/* Bytes (empty) whose last reference gives the set back: for the profile
 * that points into it to hold. */
GBytes *mg_slab_set_to_bytes (MgSlabSet *set);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgRowSlabs, mg_row_slabs_unref)

G_END_DECLS
