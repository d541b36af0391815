/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-call-index.h"

#include "mg-call-shape.h"

typedef struct {
  const MgStackFrame *frames;
  guint n;
  guint flags;  /* MG_STACK_MPI or 0: a wait and a computation apart */
} StackKey;

struct _MgCallIndex {
  gatomicrefcount ref;
  MgStackTable *table;
  MgCallShape *shape;
  guint **global;          /* by process entry: its stacks' indices in the shape */
  guint n_processes;
};

static guint
stack_key_hash (gconstpointer p)
{
  const StackKey *k = p;
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325) ^ k->n ^ ((guint64) k->flags << 32);

  for (guint i = 0; i < k->n; i++)
    {
      h = (h ^ k->frames[i].vaddr) * G_GUINT64_CONSTANT (0x100000001b3);
      h = (h ^ k->frames[i].module) * G_GUINT64_CONSTANT (0x100000001b3);
    }
  return (guint) (h ^ (h >> 32));
}

static gboolean
stack_key_equal (gconstpointer a, gconstpointer b)
{
  const StackKey *x = a, *y = b;

  if (x->n != y->n || x->flags != y->flags)
    return FALSE;
  for (guint i = 0; i < x->n; i++)
    if (x->frames[i].vaddr != y->frames[i].vaddr || x->frames[i].module != y->frames[i].module)
      return FALSE;
  return TRUE;
}

/* Each process's stacks: the same frames in two processes are one
 * stack, named and placed once. */
static void
place_stacks (MgCallIndex *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (stack_key_hash, stack_key_equal, g_free,
                                                       NULL);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_modules = mg_stack_table_get_n_modules (self->table);
  const MgStackModule *modules = n_modules ? mg_stack_table_get_module (self->table, 0) : NULL;

  for (guint p = 0; p < self->n_processes; p++)
    {
      guint n = mg_stack_table_get_n_stacks (self->table, p);
      self->global[p] = g_new (guint, MAX (n, 1));
      for (guint s = 0; s < n; s++)
        {
          StackKey key;
          key.frames = mg_stack_table_get_frames (self->table, p, s, &key.n);
          key.flags = mg_stack_table_get_flags (self->table, p, s) & MG_STACK_MPI;
          gpointer found = g_hash_table_lookup (seen, &key);
          if (found != NULL)
            {
              self->global[p][s] = GPOINTER_TO_UINT (found) - 1;
              continue;
            }
          g_array_set_size (path, 0);
          mg_call_shape_name_frames (self->shape, modules, n_modules, key.frames, key.n, path);
          guint g = mg_call_shape_add_path_flags (self->shape, (const guint *) path->data,
                                                  path->len, key.flags);
          self->global[p][s] = g;
          g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (g + 1));
        }
    }
  mg_call_shape_seal (self->shape);
}

MgCallIndex *
mg_call_index_new_for_table (MgFrameNamer *namer, MgStackTable *table)
{
  MgCallIndex *self = g_new0 (MgCallIndex, 1);

  g_atomic_ref_count_init (&self->ref);
  self->table = table;
  self->shape = mg_call_shape_new (namer);
  self->n_processes = mg_stack_table_get_n_processes (table);
  self->global = g_new0 (guint *, MAX (self->n_processes, 1));
  place_stacks (self);
  return self;
}

MgCallIndex *
mg_call_index_new (MgFrameNamer *namer, MgProfile *profile)
{
  return mg_call_index_new_for_table (namer, mg_stack_table_new (profile));
}

MgCallIndex *
mg_call_index_ref (MgCallIndex *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
mg_call_index_unref (MgCallIndex *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  for (guint p = 0; p < self->n_processes; p++)
    g_free (self->global[p]);
  g_free (self->global);
  mg_call_shape_unref (self->shape);
  mg_stack_table_free (self->table);
  g_free (self);
}

guint
mg_call_index_get_n_stacks (const MgCallIndex *self)
{
  return mg_call_shape_get_n_stacks (self->shape);
}

guint
mg_call_index_get_n_nodes (const MgCallIndex *self, MgCallTreeKind kind)
{
  return mg_call_shape_get_n_nodes (self->shape, kind);
}

/* The first entry of a window at or after w (entries come in window order). */
static guint
first_entry (const MgStackCount *counts, guint n, guint w)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (counts[mid].window < w)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first window ending after start_s (windows come in order). */
static guint
first_window (const double *ends, guint n, double start_s)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (!(ends[mid] > start_s))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static guint64
count_process (const MgCallIndex *self, guint p, double start_s, double end_s, guint64 *counts)
{
  const double *ends;
  guint n_windows, n_counts, n_stacks = mg_stack_table_get_n_stacks (self->table, p);
  const double *starts = mg_stack_table_get_windows (self->table, p, &ends, &n_windows);
  const MgStackCount *entries = mg_stack_table_get_counts (self->table, p, &n_counts);
  guint64 total = 0;

  for (guint i = first_entry (entries, n_counts, first_window (ends, n_windows, start_s));
       i < n_counts; i++)
    {
      const MgStackCount *e = &entries[i];
      if (e->window >= n_windows || e->stack >= n_stacks)
        continue;  /* the file's check let nothing such in */
      if (!(starts[e->window] < end_s))
        break;
      if (!(ends[e->window] > start_s))
        continue;
      counts[self->global[p][e->stack]] += e->count;
      total += e->count;
    }
  return total;
}

MgCallTree *
mg_call_index_query (const MgCallIndex *self, int process, double start_s, double end_s,
                     guint *n_processes)
{
  guint64 *counts = g_new0 (guint64, MAX (mg_call_shape_get_n_stacks (self->shape), 1));
  guint64 total = 0;
  guint n = 0;

  for (guint p = 0; p < self->n_processes; p++)
    if (process < 0 || mg_stack_table_get_process (self->table, p) == process)
      {
        n++;
        total += count_process (self, p, start_s, end_s, counts);
      }
  if (n_processes)
    *n_processes = n;
  return mg_call_tree_new_for_shape (self->shape, counts, total);
}
