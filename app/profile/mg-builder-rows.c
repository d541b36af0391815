/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builder's row memory: slabs, spare rows, new memory. Moved out of the
 * builder so that its process storage and its packer threads share the
 * spare rows without reaching into the builder. */
#include "mg-config.h"

#include "mg-builder-rows.h"
#include "mg-profile-internal.h"

/* Rows a packed process gave back, for the next process's. */
typedef struct {
  double *mem;
  gsize size;
} MgSpareRows;

void
mg_builder_rows_init (MgBuilderRows *rows, guint max_spare)
{
  *rows = (MgBuilderRows) { .max_spare = max_spare };
  g_mutex_init (&rows->lock);
  rows->spare = g_array_new (FALSE, FALSE, sizeof (MgSpareRows));
}

void
mg_builder_rows_free_spare (MgBuilderRows *rows)
{
  for (guint i = 0; i < rows->spare->len; i++)
    g_free (g_array_index (rows->spare, MgSpareRows, i).mem);
  g_array_set_size (rows->spare, 0);
}

void
mg_builder_rows_clear (MgBuilderRows *rows)
{
  g_clear_pointer (&rows->slabs, mg_slab_set_release);
  mg_builder_rows_free_spare (rows);
  g_array_unref (rows->spare);
  g_mutex_clear (&rows->lock);
}

/* Spare rows of at least *size bytes (then *size: their size), or NULL. */
static double *
take_spare_rows (MgBuilderRows *rows, gsize *size)
{
  double *mem = NULL;

  g_mutex_lock (&rows->lock);
  for (guint i = 0; i < rows->spare->len && mem == NULL; i++)
    {
      MgSpareRows *spare = &g_array_index (rows->spare, MgSpareRows, i);

      if (spare->size >= *size)
        {
          mem = spare->mem;
          *size = spare->size;
          g_array_remove_index_fast (rows->spare, i);
        }
    }
  g_mutex_unlock (&rows->lock);
  return mem;
}

double *
mg_builder_rows_alloc (MgBuilderRows *rows, gsize *size, gboolean *in_slab)
{
  double *mem = NULL;

  if (rows->pool != NULL && rows->slabs == NULL)
    rows->slabs = mg_row_slabs_take (rows->pool);
  if (rows->slabs != NULL)
    mem = mg_slab_set_alloc (rows->slabs, *size);
  *in_slab = mem != NULL;
  if (mem == NULL)
    mem = take_spare_rows (rows, size);
  return mem != NULL ? mem : mg_profile_alloc_big (*size);
}

void
mg_builder_rows_give_back (MgBuilderRows *rows, double *mem, gsize size, gboolean in_slab)
{
  MgSpareRows spare = { mem, size };

  /* A slab's rows go with the slab. */
  if (in_slab || spare.mem == NULL)
    return;
  g_mutex_lock (&rows->lock);
  if (rows->spare->len <= rows->max_spare)
    {
      g_array_append_val (rows->spare, spare);
      spare.mem = NULL;
    }
  g_mutex_unlock (&rows->lock);
  g_free (spare.mem);
}
