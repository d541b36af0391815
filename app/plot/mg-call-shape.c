/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-call-shape-internal.h"

/* (parent << 32 | function), mixed: parent ^ function would put most
 * nodes of a big tree in a few buckets. */
static gsize
node_key_hash (guint64 v)
{
  v ^= v >> 33;
  v *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  v ^= v >> 33;
  return (gsize) v;
}

static void
lookup_alloc (ShapeTree *t, gsize capacity)
{
  t->capacity = capacity;
  t->keys = g_new0 (guint64, capacity);
  t->values = g_new (guint, capacity);
}

static void
lookup_free (ShapeTree *t)
{
  g_clear_pointer (&t->keys, g_free);
  g_clear_pointer (&t->values, g_free);
  t->capacity = 0;
}

static void
shape_tree_init (ShapeTree *t)
{
  guint none = G_MAXUINT;

  t->function = g_array_new (FALSE, FALSE, sizeof (guint));
  t->parent = g_array_new (FALSE, FALSE, sizeof (guint));
  /* [0] the root: no function, no parent. */
  g_array_append_val (t->function, none);
  g_array_append_val (t->parent, none);
  lookup_alloc (t, 1024);
}

static void
shape_tree_clear (ShapeTree *t)
{
  g_array_unref (t->function);
  g_array_unref (t->parent);
  lookup_free (t);
  g_free (t->child_start);
  g_free (t->children);
}

/* The slot of key, or the empty one where it would go. */
static gsize
lookup_slot (const ShapeTree *t, guint64 key)
{
  gsize mask = t->capacity - 1;
  gsize i = node_key_hash (key) & mask;

  while (t->keys[i] != 0 && t->keys[i] != key)
    i = (i + 1) & mask;
  return i;
}

static void
lookup_grow (ShapeTree *t)
{
  guint64 *keys = t->keys;
  guint *values = t->values;
  gsize capacity = t->capacity;

  lookup_alloc (t, capacity * 2);
  for (gsize i = 0; i < capacity; i++)
    if (keys[i] != 0)
      {
        gsize slot = lookup_slot (t, keys[i]);
        t->keys[slot] = keys[i];
        t->values[slot] = values[i];
      }
  g_free (keys);
  g_free (values);
}

static guint
shape_tree_child (ShapeTree *t, guint parent, guint function)
{
  /* + 1: no key is 0, the empty slot's mark. */
  guint64 key = (((guint64) parent << 32) | function) + 1;
  gsize slot = lookup_slot (t, key);

  if (t->keys[slot] == key)
    return t->values[slot];
  if (t->function->len + 1 > t->capacity / 2)
    {
      lookup_grow (t);
      slot = lookup_slot (t, key);
    }
  guint index = t->function->len;
  g_array_append_val (t->function, function);
  g_array_append_val (t->parent, parent);
  t->keys[slot] = key;
  t->values[slot] = index;
  return index;
}

/* (function << 32 | line), mixed: g_int64_hash's function ^ line would
 * put the spots of a big profile in few buckets (index 25 times slower). */
static guint
spot_key_hash (gconstpointer p)
{
  return (guint) node_key_hash (*(const guint64 *) p);
}

MgCallShape *
mg_call_shape_new (MgFrameNamer *namer)
{
  MgCallShape *self = g_new0 (MgCallShape, 1);

  g_atomic_ref_count_init (&self->ref);
  self->namer = mg_frame_namer_ref (namer);
  shape_tree_init (&self->trees[MG_CALL_TREE_TOP_DOWN]);
  shape_tree_init (&self->trees[MG_CALL_TREE_BOTTOM_UP]);
  for (guint k = 0; k < 2; k++)
    self->leaf[k] = g_array_new (FALSE, FALSE, sizeof (guint));
  self->leaf_function = g_array_new (FALSE, FALSE, sizeof (guint));
  self->waiting = g_array_new (FALSE, FALSE, sizeof (guint8));
  self->function_start = g_array_new (FALSE, FALSE, sizeof (guint));
  self->functions = g_array_new (FALSE, FALSE, sizeof (guint));
  self->stamp = g_array_new (FALSE, TRUE, sizeof (guint));
  self->spot_ids = g_hash_table_new_full (spot_key_hash, g_int64_equal, g_free, NULL);
  self->spot_function = g_array_new (FALSE, FALSE, sizeof (guint));
  self->spot_line = g_array_new (FALSE, FALSE, sizeof (guint));
  self->spot_stamp = g_array_new (FALSE, TRUE, sizeof (guint));
  self->spot_start = g_array_new (FALSE, FALSE, sizeof (guint));
  self->spots = g_array_new (FALSE, FALSE, sizeof (guint));
  self->leaf_spot = g_array_new (FALSE, FALSE, sizeof (guint));
  guint zero = 0;
  g_array_append_val (self->function_start, zero);
  g_array_append_val (self->spot_start, zero);
  return self;
}

MgCallShape *
mg_call_shape_ref (MgCallShape *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
mg_call_shape_unref (MgCallShape *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref))
    return;
  shape_tree_clear (&self->trees[0]);
  shape_tree_clear (&self->trees[1]);
  for (guint k = 0; k < 2; k++)
    g_array_unref (self->leaf[k]);
  g_array_unref (self->leaf_function);
  g_array_unref (self->waiting);
  g_array_unref (self->function_start);
  g_array_unref (self->functions);
  g_array_unref (self->stamp);
  g_clear_pointer (&self->spot_ids, g_hash_table_unref);
  g_array_unref (self->spot_function);
  g_array_unref (self->spot_line);
  g_array_unref (self->spot_stamp);
  g_array_unref (self->spot_start);
  g_array_unref (self->spots);
  g_array_unref (self->leaf_spot);
  mg_frame_namer_unref (self->namer);
  g_free (self);
}

void
mg_call_shape_name_frames (MgCallShape *self, const MgStackModule *modules, guint n_modules,
                           const MgStackFrame *frames, guint n_frames, GArray *path,
                           GArray *lines)
{
  for (guint i = 0; i < n_frames; i++)
    {
      const MgStackModule *module = frames[i].module < n_modules ? &modules[frames[i].module]
                                                                 : NULL;
      guint n;
      const guint *line;
      const guint *ids = mg_frame_namer_name_lines_in (self->namer, module, &frames[i], i == 0,
                                                       &n, &line);
      g_array_append_vals (path, ids, n);
      if (lines)
        g_array_append_vals (lines, line, n);
    }
}

guint
mg_call_shape_add_path (MgCallShape *self, const guint *path, guint len)
{
  return mg_call_shape_add_path_flags (self, path, len, 0);
}

guint
mg_call_shape_add_path_flags (MgCallShape *self, const guint *path, guint len, guint flags)
{
  return mg_call_shape_add_path_lines (self, path, NULL, len, flags);
}

/* The spot of (function, line), made on first sight. */
static guint
spot_of (MgCallShape *self, guint function, guint line)
{
  gint64 key = (gint64) (((guint64) function << 32) | line);
  gpointer found = g_hash_table_lookup (self->spot_ids, &key);

  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  guint spot = self->spot_function->len;
  g_array_append_val (self->spot_function, function);
  g_array_append_val (self->spot_line, line);
  g_array_set_size (self->spot_stamp, spot + 1);
  g_hash_table_insert (self->spot_ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (spot + 1));
  return spot;
}

/* A stack's distinct spots, each once however often a recursion passes
 * it: its samples count once on each line; its innermost function's
 * spot, where its samples were that function's own. */
static void
add_spots (MgCallShape *self, guint stack, const guint *path, const guint *lines, guint len)
{
  guint leaf = G_MAXUINT;

  for (guint j = 0; lines && j < len; j++)
    {
      if (lines[j] == 0)
        continue;
      guint spot = spot_of (self, path[j], lines[j]);
      if (j == 0)
        leaf = spot;
      guint *stamp = &g_array_index (self->spot_stamp, guint, spot);
      if (*stamp != stack + 1)
        {
          *stamp = stack + 1;
          g_array_append_val (self->spots, spot);
        }
    }
  guint end = self->spots->len;
  g_array_append_val (self->spot_start, end);
  g_array_append_val (self->leaf_spot, leaf);
}

guint
mg_call_shape_add_path_lines (MgCallShape *self, const guint *path, const guint *lines,
                              guint len, guint flags)
{
  guint8 waiting = (flags & MG_STACK_MPI) != 0;
  ShapeTree *down = &self->trees[MG_CALL_TREE_TOP_DOWN];
  ShapeTree *up = &self->trees[MG_CALL_TREE_BOTTOM_UP];
  guint stack = self->leaf_function->len;
  guint node, innermost = len > 0 ? path[0] : G_MAXUINT;

  g_return_val_if_fail (down->keys != NULL, G_MAXUINT);  /* not after sealing */
  node = MG_CALL_TREE_ROOT;
  for (guint j = len; j-- > 0;)
    node = shape_tree_child (down, node, path[j]);
  g_array_append_val (self->leaf[MG_CALL_TREE_TOP_DOWN], node);
  node = MG_CALL_TREE_ROOT;
  for (guint j = 0; j < len; j++)
    node = shape_tree_child (up, node, path[j]);
  g_array_append_val (self->leaf[MG_CALL_TREE_BOTTOM_UP], node);
  g_array_append_val (self->leaf_function, innermost);
  g_array_append_val (self->waiting, waiting);

  /* A recursion names a function twice in one stack: its total counts
   * the stack once. */
  for (guint j = 0; j < len; j++)
    {
      if (path[j] >= self->stamp->len)
        g_array_set_size (self->stamp, path[j] + 1);
      guint *stamp = &g_array_index (self->stamp, guint, path[j]);
      if (*stamp != stack + 1)
        {
          *stamp = stack + 1;
          g_array_append_val (self->functions, path[j]);
        }
      self->n_functions = MAX (self->n_functions, path[j] + 1);
    }
  guint end = self->functions->len;
  g_array_append_val (self->function_start, end);
  add_spots (self, stack, path, lines, len);
  return stack;
}

/* Nodes grouped by parent, in node order (the tree sorts each group by
 * its own counts when first asked). */
static void
shape_tree_seal (ShapeTree *t)
{
  guint n = t->function->len;
  const guint *parent = (const guint *) t->parent->data;

  t->child_start = g_new0 (guint, n + 1);
  t->children = g_new (guint, MAX (n, 1));
  for (guint i = 1; i < n; i++)
    t->child_start[parent[i] + 1]++;
  for (guint i = 0; i < n; i++)
    t->child_start[i + 1] += t->child_start[i];
  g_autofree guint *at = g_memdup2 (t->child_start, sizeof (guint) * n);
  for (guint i = 1; i < n; i++)
    t->children[at[parent[i]]++] = i;
  lookup_free (t);
}

void
mg_call_shape_seal (MgCallShape *self)
{
  if (self->sealed)
    return;
  self->sealed = TRUE;
  g_clear_pointer (&self->spot_ids, g_hash_table_unref);
  shape_tree_seal (&self->trees[0]);
  shape_tree_seal (&self->trees[1]);
}

MgFrameNamer *
mg_call_shape_get_namer (MgCallShape *self)
{
  return self->namer;
}

guint
mg_call_shape_get_n_stacks (MgCallShape *self)
{
  return self->leaf_function->len;
}

guint
mg_call_shape_get_n_nodes (MgCallShape *self, MgCallTreeKind kind)
{
  return self->trees[kind].function->len;
}
