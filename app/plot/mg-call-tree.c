/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-call-tree.h"

typedef struct {
  guint function;     /* namer id; G_MAXUINT for the root */
  guint parent;
  guint64 self;
  guint64 total;
  guint child_start;  /* into the tree's children, after finish */
  guint n_children;
} Node;

typedef struct {
  GArray *nodes;       /* Node; [0] the root */
  guint64 *keys;       /* open addressing: (parent << 32 | function) + 1, 0 empty */
  guint *values;       /* the node of keys[i] */
  gsize capacity;      /* a power of two, kept under half full */
  GArray *children;    /* node indices, grouped by parent */
} Tree;

typedef struct {
  guint64 self;
  guint64 total;
  guint64 stamp;       /* the last stack counted in total, + 1 */
} FunctionSums;

struct _MgCallTree {
  MgFrameNamer *namer;
  Tree trees[2];
  GArray *sums;        /* FunctionSums by namer id */
  GArray *table;       /* namer ids of the functions table, sorted */
  GArray *path;        /* scratch: the stack's functions, innermost first */
  guint64 n_stacks;
  guint64 total;
};

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
tree_alloc_lookup (Tree *t, gsize capacity)
{
  t->capacity = capacity;
  t->keys = g_new0 (guint64, capacity);
  t->values = g_new (guint, capacity);
}

static void
tree_init (Tree *t)
{
  Node root = { .function = G_MAXUINT, .parent = G_MAXUINT };

  t->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  g_array_append_val (t->nodes, root);
  tree_alloc_lookup (t, 1024);
  t->children = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
tree_free_lookup (Tree *t)
{
  g_clear_pointer (&t->keys, g_free);
  g_clear_pointer (&t->values, g_free);
  t->capacity = 0;
}

static void
tree_clear (Tree *t)
{
  g_array_unref (t->nodes);
  tree_free_lookup (t);
  g_array_unref (t->children);
}

/* The slot of key, or the empty one where it would go. */
static gsize
tree_slot (const Tree *t, guint64 key)
{
  gsize mask = t->capacity - 1;
  gsize i = node_key_hash (key) & mask;

  while (t->keys[i] != 0 && t->keys[i] != key)
    i = (i + 1) & mask;
  return i;
}

static void
tree_grow (Tree *t)
{
  guint64 *keys = t->keys;
  guint *values = t->values;
  gsize capacity = t->capacity;

  tree_alloc_lookup (t, capacity * 2);
  for (gsize i = 0; i < capacity; i++)
    if (keys[i] != 0)
      {
        gsize slot = tree_slot (t, keys[i]);
        t->keys[slot] = keys[i];
        t->values[slot] = values[i];
      }
  g_free (keys);
  g_free (values);
}

static guint
tree_child (Tree *t, guint parent, guint function)
{
  /* + 1: no key is 0, the empty slot's mark. */
  guint64 key = (((guint64) parent << 32) | function) + 1;
  gsize slot = tree_slot (t, key);

  if (t->keys[slot] == key)
    return t->values[slot];
  if (t->nodes->len + 1 > t->capacity / 2)
    {
      tree_grow (t);
      slot = tree_slot (t, key);
    }
  Node n = { .function = function, .parent = parent };
  guint index = t->nodes->len;
  g_array_append_val (t->nodes, n);
  t->keys[slot] = key;
  t->values[slot] = index;
  return index;
}

MgCallTree *
mg_call_tree_new_empty (MgFrameNamer *namer)
{
  MgCallTree *self = g_new0 (MgCallTree, 1);

  self->namer = mg_frame_namer_ref (namer);
  tree_init (&self->trees[MG_CALL_TREE_TOP_DOWN]);
  tree_init (&self->trees[MG_CALL_TREE_BOTTOM_UP]);
  self->sums = g_array_new (FALSE, TRUE, sizeof (FunctionSums));
  self->table = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

MgCallTree *
mg_call_tree_new (MgFrameNamer *namer, const MgStackSet *set)
{
  MgCallTree *self = mg_call_tree_new_empty (namer);

  for (guint s = 0; set && s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n_frames;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n_frames, NULL);
      mg_call_tree_add_stack (self, set, frames, n_frames, mg_stack_set_get_count (set, s));
    }
  mg_call_tree_finish (self);
  return self;
}

void
mg_call_tree_free (MgCallTree *self)
{
  if (!self)
    return;
  tree_clear (&self->trees[0]);
  tree_clear (&self->trees[1]);
  g_array_unref (self->sums);
  g_array_unref (self->table);
  g_array_unref (self->path);
  mg_frame_namer_unref (self->namer);
  g_free (self);
}

static FunctionSums *
sums_of (MgCallTree *self, guint id)
{
  if (id >= self->sums->len)
    g_array_set_size (self->sums, id + 1);
  return &g_array_index (self->sums, FunctionSums, id);
}

void
mg_call_tree_add_stack (MgCallTree *self, const MgStackSet *set, const MgStackFrame *frames,
                        guint n_frames, guint64 count)
{
  Tree *down = &self->trees[MG_CALL_TREE_TOP_DOWN];
  Tree *up = &self->trees[MG_CALL_TREE_BOTTOM_UP];
  guint node;

  g_return_if_fail (down->keys != NULL);  /* not after mg_call_tree_finish () */
  self->total += count;
  g_array_index (down->nodes, Node, 0).total += count;
  g_array_index (up->nodes, Node, 0).total += count;
  if (n_frames == 0 || count == 0)
    return;
  self->n_stacks++;
  g_array_set_size (self->path, 0);
  for (guint i = 0; i < n_frames; i++)
    {
      guint n;
      const guint *ids = mg_frame_namer_name (self->namer, set, &frames[i], i == 0, &n);
      g_array_append_vals (self->path, ids, n);
    }

  const guint *path = (const guint *) self->path->data;
  guint len = self->path->len;
  sums_of (self, path[0])->self += count;
  /* A recursion names a function twice in one stack: its total counts
   * the stack once. */
  for (guint j = 0; j < len; j++)
    {
      FunctionSums *f = sums_of (self, path[j]);
      if (f->stamp != self->n_stacks)
        {
          f->stamp = self->n_stacks;
          f->total += count;
        }
    }

  node = MG_CALL_TREE_ROOT;
  for (guint j = len; j-- > 0;)
    {
      node = tree_child (down, node, path[j]);
      g_array_index (down->nodes, Node, node).total += count;
    }
  g_array_index (down->nodes, Node, node).self += count;

  node = MG_CALL_TREE_ROOT;
  for (guint j = 0; j < len; j++)
    {
      node = tree_child (up, node, path[j]);
      Node *n = &g_array_index (up->nodes, Node, node);
      n->total += count;
      if (j == 0)
        n->self += count;
    }
}

/* Larger total first, then larger self, then the lower id (a stable,
 * reproducible order). */
static int
compare_sums (guint64 total_a, guint64 self_a, guint id_a, guint64 total_b, guint64 self_b,
              guint id_b)
{
  if (total_a != total_b)
    return total_a > total_b ? -1 : 1;
  if (self_a != self_b)
    return self_a > self_b ? -1 : 1;
  return id_a < id_b ? -1 : id_a > id_b;
}

static int
compare_table (gconstpointer a, gconstpointer b, gpointer data)
{
  const FunctionSums *sums = (const FunctionSums *) ((GArray *) data)->data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  return compare_sums (sums[x].total, sums[x].self, x, sums[y].total, sums[y].self, y);
}

static int
compare_nodes (gconstpointer a, gconstpointer b, gpointer data)
{
  const Node *nodes = (const Node *) ((GArray *) data)->data;
  const Node *x = &nodes[*(const guint *) a], *y = &nodes[*(const guint *) b];
  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  return compare_sums (x->total, x->self, x->function, y->total, y->self, y->function);
}

static void
tree_finish (Tree *t)
{
  g_array_set_size (t->children, 0);
  for (guint i = 1; i < t->nodes->len; i++)
    g_array_append_val (t->children, i);
  g_array_sort_with_data (t->children, compare_nodes, t->nodes);
  for (guint k = 0; k < t->children->len; k++)
    {
      guint child = g_array_index (t->children, guint, k);
      Node *parent = &g_array_index (t->nodes, Node, g_array_index (t->nodes, Node, child).parent);
      if (parent->n_children++ == 0)
        parent->child_start = k;
    }
  /* Finished: no node is added any more. */
  tree_free_lookup (t);
}

void
mg_call_tree_finish (MgCallTree *self)
{
  g_array_set_size (self->table, 0);
  for (guint id = 0; id < self->sums->len; id++)
    if (g_array_index (self->sums, FunctionSums, id).total > 0)
      g_array_append_val (self->table, id);
  g_array_sort_with_data (self->table, compare_table, self->sums);
  tree_finish (&self->trees[MG_CALL_TREE_TOP_DOWN]);
  tree_finish (&self->trees[MG_CALL_TREE_BOTTOM_UP]);
}

MgFrameNamer *
mg_call_tree_get_namer (const MgCallTree *self)
{
  return self->namer;
}

guint64
mg_call_tree_get_total (const MgCallTree *self)
{
  return self->total;
}

guint
mg_call_tree_get_n_functions (const MgCallTree *self)
{
  return self->table->len;
}

const MgCallFunction *
mg_call_tree_get_function (const MgCallTree *self, guint i, guint64 *self_samples,
                           guint64 *total_samples)
{
  g_return_val_if_fail (i < self->table->len, NULL);
  guint id = g_array_index (self->table, guint, i);
  const FunctionSums *f = &g_array_index (self->sums, FunctionSums, id);
  if (self_samples)
    *self_samples = f->self;
  if (total_samples)
    *total_samples = f->total;
  return mg_frame_namer_get_function (self->namer, id);
}

int
mg_call_tree_find_function (const MgCallTree *self, const char *name)
{
  for (guint i = 0; i < self->table->len; i++)
    if (g_strcmp0 (mg_call_tree_get_function (self, i, NULL, NULL)->name, name) == 0)
      return (int) i;
  return -1;
}

static const Node *
node_of (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  const Tree *t = &self->trees[kind];
  g_return_val_if_fail (node < t->nodes->len, NULL);
  return &g_array_index (t->nodes, Node, node);
}

guint
mg_call_tree_get_n_children (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  const Node *n = node_of (self, kind, node);
  return n ? n->n_children : 0;
}

guint
mg_call_tree_get_child (const MgCallTree *self, MgCallTreeKind kind, guint node, guint i)
{
  const Node *n = node_of (self, kind, node);
  g_return_val_if_fail (n && i < n->n_children, G_MAXUINT);
  return g_array_index (self->trees[kind].children, guint, n->child_start + i);
}

const MgCallFunction *
mg_call_tree_get_node (const MgCallTree *self, MgCallTreeKind kind, guint node,
                       guint64 *self_samples, guint64 *total_samples)
{
  const Node *n = node_of (self, kind, node);
  if (self_samples)
    *self_samples = n ? n->self : 0;
  if (total_samples)
    *total_samples = n ? n->total : 0;
  if (!n || n->function == G_MAXUINT)
    return NULL;
  return mg_frame_namer_get_function (self->namer, n->function);
}

guint
mg_call_tree_find_child (const MgCallTree *self, MgCallTreeKind kind, guint node,
                         const char *name)
{
  for (guint i = 0; i < mg_call_tree_get_n_children (self, kind, node); i++)
    {
      guint child = mg_call_tree_get_child (self, kind, node, i);
      if (g_strcmp0 (mg_call_tree_get_node (self, kind, child, NULL, NULL)->name, name) == 0)
        return child;
    }
  return G_MAXUINT;
}

guint
mg_call_tree_get_parent (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  const Node *n = node_of (self, kind, node);
  return n ? n->parent : G_MAXUINT;
}
