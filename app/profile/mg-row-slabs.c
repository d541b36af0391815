/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-profile-internal.h"
#include "mg-row-slabs.h"

/* 32 huge pages: a 1024-process profile's rows take a few dozen. */
#define SLAB_SIZE ((gsize) 64 << 20)

struct _MgRowSlabs {
  gatomicrefcount ref;
  GMutex lock;
  GPtrArray *free;             /* MgSlabSet* given back */
};

struct _MgSlabSet {
  MgRowSlabs *pool;            /* while taken */
  GPtrArray *slabs;            /* g_free'd, SLAB_SIZE each */
  guint current;               /* the slab being carved */
  gsize used;                  /* of it */
};

static void
slab_set_free (MgSlabSet *set)
{
  g_ptr_array_unref (set->slabs);
  g_free (set);
}

MgRowSlabs *
mg_row_slabs_new (void)
{
  MgRowSlabs *self = g_new0 (MgRowSlabs, 1);

  g_atomic_ref_count_init (&self->ref);
  g_mutex_init (&self->lock);
  self->free = g_ptr_array_new_with_free_func ((GDestroyNotify) slab_set_free);
  return self;
}

MgRowSlabs *
mg_row_slabs_ref (MgRowSlabs *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
mg_row_slabs_unref (MgRowSlabs *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  g_ptr_array_unref (self->free);
  g_mutex_clear (&self->lock);
  g_free (self);
}

MgSlabSet *
mg_row_slabs_take (MgRowSlabs *self)
{
  MgSlabSet *set = NULL;

  g_mutex_lock (&self->lock);
  if (self->free->len > 0)
    set = g_ptr_array_steal_index (self->free, self->free->len - 1);
  g_mutex_unlock (&self->lock);
  if (set == NULL)
    {
      set = g_new0 (MgSlabSet, 1);
      set->slabs = g_ptr_array_new_with_free_func (g_free);
    }
  set->pool = mg_row_slabs_ref (self);
  set->current = 0;
  set->used = 0;
  return set;
}

gpointer
mg_slab_set_alloc (MgSlabSet *set, gsize size)
{
  guint8 *slab;

  size = (size + 63) / 64 * 64;
  if (size > SLAB_SIZE / 16)
    return NULL;
  if (set->current < set->slabs->len && set->used + size > SLAB_SIZE)
    {
      set->current++;
      set->used = 0;
    }
  if (set->current == set->slabs->len)
    g_ptr_array_add (set->slabs, mg_profile_alloc_big (SLAB_SIZE));
  slab = g_ptr_array_index (set->slabs, set->current);
  set->used += size;
  return slab + set->used - size;
}

void
mg_slab_set_release (MgSlabSet *set)
{
  MgRowSlabs *pool = g_steal_pointer (&set->pool);

  /* Slabs past those used last are not kept for the next. */
  if (set->slabs->len > set->current + 1)
    g_ptr_array_set_size (set->slabs, set->current + 1);
  g_mutex_lock (&pool->lock);
  g_ptr_array_add (pool->free, set);
  g_mutex_unlock (&pool->lock);
  mg_row_slabs_unref (pool);
}

GBytes *
mg_slab_set_to_bytes (MgSlabSet *set)
{
  return g_bytes_new_with_free_func (NULL, 0, (GDestroyNotify) mg_slab_set_release, set);
}
