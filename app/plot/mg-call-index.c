/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-call-index-internal.h"

#include "mg-call-shape-internal.h"

#include <string.h>

typedef struct {
  const MgStackFrame *frames;
  guint n;
  guint flags;  /* MG_STACK_MPI or 0: a wait and a computation apart */
} StackKey;

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

/* A frame's address as it is named: a return address one less. */
typedef struct {
  guint64 vaddr;
  guint32 module;
} FrameKey;

static guint
frame_key_hash (gconstpointer p)
{
  const FrameKey *k = p;
  guint64 v = k->vaddr * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + k->module;
  return (guint) (v ^ (v >> 32));
}

static gboolean
frame_key_equal (gconstpointer a, gconstpointer b)
{
  const FrameKey *x = a, *y = b;
  return x->vaddr == y->vaddr && x->module == y->module;
}

/* The distinct addresses being numbered, and each stack's. */
typedef struct {
  GHashTable *ids;   /* FrameKey → id + 1 */
  GArray *start;     /* guint by stack */
  GArray *stacks;    /* guint: each stack's address ids */
  GArray *vaddrs;    /* guint64 by id */
  GArray *modules;   /* guint32 by id */
} Addresses;

static void
number_addresses (Addresses *a, const MgStackFrame *frames, guint n)
{
  g_array_append_val (a->start, a->stacks->len);
  for (guint f = 0; f < n; f++)
    {
      FrameKey key = { f == 0 || frames[f].vaddr == 0 ? frames[f].vaddr : frames[f].vaddr - 1,
                       frames[f].module };
      guint id = GPOINTER_TO_UINT (g_hash_table_lookup (a->ids, &key));
      if (id == 0)
        {
          g_array_append_val (a->vaddrs, key.vaddr);
          g_array_append_val (a->modules, key.module);
          id = a->vaddrs->len;
          g_hash_table_insert (a->ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (id));
        }
      id--;
      g_array_append_val (a->stacks, id);
    }
}

/* Each process's stacks: the same frames in two processes are one
 * stack, named and placed once. */
static void
place_stacks (MgCallIndex *self)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (stack_key_hash, stack_key_equal, g_free,
                                                       NULL);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
  Addresses addresses = { g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, NULL),
                          g_array_new (FALSE, FALSE, sizeof (guint)),
                          g_array_new (FALSE, FALSE, sizeof (guint)),
                          g_array_new (FALSE, FALSE, sizeof (guint64)),
                          g_array_new (FALSE, FALSE, sizeof (guint32)) };
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
          g_array_set_size (lines, 0);
          mg_call_shape_name_frames (self->shape, modules, n_modules, key.frames, key.n, path,
                                     lines);
          guint g = mg_call_shape_add_path_lines (self->shape, (const guint *) path->data,
                                                  (const guint *) lines->data, path->len,
                                                  key.flags);
          self->global[p][s] = g;
          number_addresses (&addresses, key.frames, key.n);
          g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (g + 1));
        }
    }
  mg_call_shape_seal (self->shape);
  g_array_append_val (addresses.start, addresses.stacks->len);
  self->n_addresses = addresses.vaddrs->len;
  self->address_start = (guint *) g_array_free (addresses.start, FALSE);
  self->stack_addresses = (guint *) g_array_free (addresses.stacks, FALSE);
  self->address_vaddr = (guint64 *) g_array_free (addresses.vaddrs, FALSE);
  self->address_module = (guint32 *) g_array_free (addresses.modules, FALSE);
  g_hash_table_destroy (addresses.ids);
}

/* Each process's windows numbered as slots, with every stack's samples. */
static void
number_slots (MgCallIndex *self)
{
  guint n_slots = 0;

  self->slot_first = g_new (guint, self->n_processes + 1);
  for (guint p = 0; p < self->n_processes; p++)
    {
      const double *ends;
      guint n_windows;
      self->slot_first[p] = n_slots;
      mg_stack_table_get_windows (self->table, p, &ends, &n_windows);
      n_slots += n_windows;
    }
  self->slot_first[self->n_processes] = n_slots;
  self->slot_starts = g_new (double, MAX (n_slots, 1));
  self->slot_ends = g_new (double, MAX (n_slots, 1));
  self->slot_totals = g_new0 (guint64, MAX (n_slots, 1));
  for (guint p = 0; p < self->n_processes; p++)
    {
      const double *ends;
      guint n_windows, first = self->slot_first[p];
      const double *starts = mg_stack_table_get_windows (self->table, p, &ends, &n_windows);
      memcpy (self->slot_starts + first, starts, n_windows * sizeof (double));
      memcpy (self->slot_ends + first, ends, n_windows * sizeof (double));
    }
}

/* The (window, stack, count) entries the file's check lets through. */
static gboolean
entry_valid (const MgStackCount *e, guint n_windows, guint n_stacks)
{
  return e->window < n_windows && e->stack < n_stacks;
}

/* Every process's entries by distinct stack (a counting sort: one pass
 * to count, one to place), so that what one stack or function did over
 * time is read without a pass over every entry. */
static void
transpose_entries (MgCallIndex *self)
{
  guint n_stacks = mg_call_shape_get_n_stacks (self->shape);
  g_autofree guint *fill = NULL;

  self->entry_start = g_new0 (guint, n_stacks + 1);
  for (int pass = 0; pass < 2; pass++)
    for (guint p = 0; p < self->n_processes; p++)
      {
        const double *ends;
        guint n_windows, n_counts, n_local = mg_stack_table_get_n_stacks (self->table, p);
        mg_stack_table_get_windows (self->table, p, &ends, &n_windows);
        const MgStackCount *counts = mg_stack_table_get_counts (self->table, p, &n_counts);
        for (guint i = 0; i < n_counts; i++)
          {
            if (!entry_valid (&counts[i], n_windows, n_local))
              continue;
            guint g = self->global[p][counts[i].stack];
            guint slot = self->slot_first[p] + counts[i].window;
            if (pass == 0)
              {
                self->entry_start[g + 1]++;
                self->slot_totals[slot] += counts[i].count;
                continue;
              }
            self->entries[fill[g]++] = (MgCallIndexEntry) { slot, counts[i].count };
          }
        if (pass == 0 && p + 1 == self->n_processes)
          {
            for (guint g = 0; g < n_stacks; g++)
              self->entry_start[g + 1] += self->entry_start[g];
            self->entries = g_new (MgCallIndexEntry, MAX (self->entry_start[n_stacks], 1));
            fill = g_memdup2 (self->entry_start, (n_stacks + 1) * sizeof (guint));
          }
      }
  if (self->entries == NULL)
    self->entries = g_new (MgCallIndexEntry, 1);
}

/* By function: the distinct stacks holding it (the shape lists each
 * stack's distinct functions; this turns the list around). */
static void
list_function_stacks (MgCallIndex *self)
{
  const MgCallShape *shape = self->shape;
  guint n_stacks = mg_call_shape_get_n_stacks (self->shape);
  const guint *start = (const guint *) shape->function_start->data;
  const guint *functions = (const guint *) shape->functions->data;
  g_autofree guint *fill = NULL;

  self->n_functions = shape->n_functions;
  self->function_start = g_new0 (guint, self->n_functions + 1);
  for (guint i = 0; i < (n_stacks ? start[n_stacks] : 0); i++)
    self->function_start[functions[i] + 1]++;
  for (guint f = 0; f < self->n_functions; f++)
    self->function_start[f + 1] += self->function_start[f];
  self->function_stacks = g_new (guint, MAX (self->function_start[self->n_functions], 1));
  fill = g_memdup2 (self->function_start, (self->n_functions + 1) * sizeof (guint));
  for (guint s = 0; s < n_stacks; s++)
    for (guint i = start[s]; i < start[s + 1]; i++)
      self->function_stacks[fill[functions[i]]++] = s;
}

MgCallIndex *
mg_call_index_new_for_table (MgFrameNamer *namer, MgStackTable *table)
{
  MgCallIndex *self = g_new0 (MgCallIndex, 1);

  g_atomic_ref_count_init (&self->ref);
  self->table = table;
  self->shape = mg_call_shape_new (namer);
  self->n_processes = mg_stack_table_get_n_processes (table);
  self->n_threads = mg_stack_table_get_n_threads (table);
  self->global = g_new0 (guint *, MAX (self->n_processes, 1));
  place_stacks (self);
  number_slots (self);
  transpose_entries (self);
  list_function_stacks (self);
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
  g_free (self->entry_start);
  g_free (self->entries);
  g_free (self->slot_first);
  g_free (self->slot_starts);
  g_free (self->slot_ends);
  g_free (self->slot_totals);
  g_free (self->address_start);
  g_free (self->stack_addresses);
  g_free (self->address_vaddr);
  g_free (self->address_module);
  g_free (self->function_start);
  g_free (self->function_stacks);
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
mg_call_index_get_n_threads (const MgCallIndex *self)
{
  return self->n_threads;
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
