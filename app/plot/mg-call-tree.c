/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A call tree is counts over an MgCallShape: each stack's count added at
 * its leaf nodes, then summed up to the root in one pass over the nodes
 * (a parent comes before its children), the functions' sums from each
 * stack's distinct functions. A node's children are sorted only when
 * first asked for, so a selection change costs what the views read. */
#include "mg-call-shape-internal.h"
#include "mg-call-tree.h"
#include "profile/mg-function-order.h"
#include "profile/mg-hot-line.h"

typedef struct {
  guint64 self;
  guint64 total;
  guint height;        /* most frames below it in a stack with samples */
} FunctionSums;

typedef struct {
  guint64 *total;      /* by node */
  guint64 *waiting;    /* by node: of total, the samples waiting in MPI;
                        * summed when first asked (the activity colours) */
  GHashTable *sorted;  /* node → its children with samples, sorted when first
                        * asked: guint [n, child…] */
} TreeCounts;

struct _MgCallTree {
  MgCallShape *shape;
  guint64 *counts;     /* by stack */
  TreeCounts trees[2];
  FunctionSums *sums;  /* by function id below the shape's n_functions */
  guint *hot_line;     /* by function id: its hottest line, 0 when none */
  GArray *table;       /* function ids of the functions table, sorted */
  guint64 total;
  gboolean building;   /* mg_call_tree_new_empty () until finished */
  GArray *path;        /* scratch while building */
  GArray *lines;       /* scratch while building: path's lines */
  GArray *added;       /* guint64 by stack, while building */
};

MgCallTree *
mg_call_tree_new_empty (MgFrameNamer *namer)
{
  MgCallTree *self = g_new0 (MgCallTree, 1);

  self->shape = mg_call_shape_new (namer);
  self->building = TRUE;
  self->added = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->path = g_array_new (FALSE, FALSE, sizeof (guint));
  self->lines = g_array_new (FALSE, FALSE, sizeof (guint));
  self->table = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

MgCallTree *
mg_call_tree_new (MgFrameNamer *namer, const MgStackSet *set)
{
  MgCallTree *self = mg_call_tree_new_empty (namer);

  for (guint s = 0; set && s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n_frames;
      guint flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n_frames, &flags);
      mg_call_tree_add_stack_flags (self, set, frames, n_frames, mg_stack_set_get_count (set, s),
                                    flags);
    }
  mg_call_tree_finish (self);
  return self;
}

void
mg_call_tree_free (MgCallTree *self)
{
  if (!self)
    return;
  for (guint k = 0; k < 2; k++)
    {
      g_free (self->trees[k].total);
      g_free (self->trees[k].waiting);
      g_clear_pointer (&self->trees[k].sorted, g_hash_table_unref);
    }
  g_free (self->counts);
  g_free (self->sums);
  g_free (self->hot_line);
  g_array_unref (self->table);
  g_clear_pointer (&self->path, g_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
  g_clear_pointer (&self->added, g_array_unref);
  mg_call_shape_unref (self->shape);
  g_free (self);
}

void
mg_call_tree_add_stack (MgCallTree *self, const MgStackSet *set, const MgStackFrame *frames,
                        guint n_frames, guint64 count)
{
  mg_call_tree_add_stack_flags (self, set, frames, n_frames, count, 0);
}

void
mg_call_tree_add_stack_flags (MgCallTree *self, const MgStackSet *set,
                              const MgStackFrame *frames, guint n_frames, guint64 count,
                              guint flags)
{
  g_return_if_fail (self->building);  /* not after mg_call_tree_finish () */
  self->total += count;
  if (n_frames == 0 || count == 0)
    return;
  g_array_set_size (self->path, 0);
  g_array_set_size (self->lines, 0);
  for (guint i = 0; i < n_frames; i++)
    {
      guint n;
      const guint *lines;
      const guint *ids = mg_frame_namer_name_lines (mg_call_shape_get_namer (self->shape), set,
                                                    &frames[i], i == 0, &n, &lines);
      g_array_append_vals (self->path, ids, n);
      g_array_append_vals (self->lines, lines, n);
    }
  mg_call_shape_add_path_lines (self->shape, (const guint *) self->path->data,
                                (const guint *) self->lines->data, self->path->len, flags);
  g_array_append_val (self->added, count);
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

/* The functions table: by total, ties callers first, then by name, as
 * the report lists them (mg-function-order.h), then by id (one name in
 * two files). */
static int
compare_table (gconstpointer a, gconstpointer b, gpointer data)
{
  const MgCallTree *self = data;
  MgFrameNamer *namer = mg_call_shape_get_namer (self->shape);
  guint x = *(const guint *) a, y = *(const guint *) b;
  MgFunctionOrderKey kx = { self->sums[x].total, self->sums[x].height,
                            mg_frame_namer_get_function (namer, x)->name };
  MgFunctionOrderKey ky = { self->sums[y].total, self->sums[y].height,
                            mg_frame_namer_get_function (namer, y)->name };
  int order = mg_function_order_compare (&kx, &ky);
  return order != 0 ? order : (x < y ? -1 : x > y);
}

/* Sums over the nodes of one tree: each stack's count at its leaf, then
 * children into parents, last node first. */
static void
count_tree (MgCallTree *self, MgCallTreeKind kind)
{
  const ShapeTree *t = &self->shape->trees[kind];
  TreeCounts *c = &self->trees[kind];
  guint n_nodes = t->function->len, n_stacks = mg_call_shape_get_n_stacks (self->shape);
  const guint *leaf = (const guint *) self->shape->leaf[kind]->data;
  const guint *parent = (const guint *) t->parent->data;

  c->total = g_new0 (guint64, n_nodes);
  for (guint s = 0; s < n_stacks; s++)
    if (leaf[s] != MG_CALL_TREE_ROOT)
      c->total[leaf[s]] += self->counts[s];
  for (guint n = n_nodes; n-- > 1;)
    if (parent[n] != MG_CALL_TREE_ROOT)
      c->total[parent[n]] += c->total[n];
  /* The root counts frameless samples too. */
  c->total[MG_CALL_TREE_ROOT] = self->total;
  c->sorted = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

static void
count_functions (MgCallTree *self)
{
  MgCallShape *shape = self->shape;
  guint n_stacks = mg_call_shape_get_n_stacks (shape);
  const guint *start = (const guint *) shape->function_start->data;
  const guint *functions = (const guint *) shape->functions->data;
  const guint *leaf = (const guint *) shape->leaf_function->data;

  self->sums = g_new0 (FunctionSums, MAX (shape->n_functions, 1));
  for (guint s = 0; s < n_stacks; s++)
    {
      guint64 count = self->counts[s];
      if (count == 0)
        continue;
      if (leaf[s] != G_MAXUINT)
        self->sums[leaf[s]].self += count;
      for (guint j = start[s]; j < start[s + 1]; j++)
        self->sums[functions[j]].total += count;
    }
  g_array_set_size (self->table, 0);
  for (guint id = 0; id < shape->n_functions; id++)
    if (self->sums[id].total > 0)
      g_array_append_val (self->table, id);
}

/* Each function's height, from the bottom-up tree (counted): a node's
 * depth under the root less one is the frames below it in its stacks,
 * those with samples counted, as the report counts them. */
static void
count_heights (MgCallTree *self)
{
  const ShapeTree *t = &self->shape->trees[MG_CALL_TREE_BOTTOM_UP];
  const guint64 *total = self->trees[MG_CALL_TREE_BOTTOM_UP].total;
  const guint *function = (const guint *) t->function->data;
  const guint *parent = (const guint *) t->parent->data;
  g_autofree guint *depth = g_new0 (guint, MAX (t->function->len, 1));

  /* A parent comes before its children. */
  for (guint n = 1; n < t->function->len; n++)
    {
      depth[n] = parent[n] == MG_CALL_TREE_ROOT ? 0 : depth[parent[n]] + 1;
      if (total[n] > 0 && function[n] < self->shape->n_functions)
        self->sums[function[n]].height = MAX (self->sums[function[n]].height, depth[n]);
    }
}

/* Each function's hottest line: the stacks' counts on each spot they
 * pass and on their innermost spot (a pass over the spots of the stacks
 * with samples, as over their functions above), then the hottest spot
 * of each function. */
static void
count_hot_lines (MgCallTree *self)
{
  MgCallShape *shape = self->shape;
  guint n_stacks = mg_call_shape_get_n_stacks (shape), n_spots = shape->spot_function->len;
  const guint *start = (const guint *) shape->spot_start->data;
  const guint *spots = (const guint *) shape->spots->data;
  const guint *leaf = (const guint *) shape->leaf_spot->data;
  const guint *function = (const guint *) shape->spot_function->data;
  const guint *line = (const guint *) shape->spot_line->data;
  g_autofree MgHotLine *counts = g_new0 (MgHotLine, MAX (n_spots, 1));
  g_autofree MgHotLine *best = g_new0 (MgHotLine, MAX (shape->n_functions, 1));

  self->hot_line = g_new0 (guint, MAX (shape->n_functions, 1));
  for (guint s = 0; s < n_stacks; s++)
    {
      guint64 count = self->counts[s];
      if (count == 0)
        continue;
      if (leaf[s] != G_MAXUINT)
        counts[leaf[s]].self += count;
      for (guint j = start[s]; j < start[s + 1]; j++)
        counts[spots[j]].total += count;
    }
  for (guint p = 0; p < n_spots; p++)
    {
      counts[p].line = line[p];
      if (mg_hot_line_beats (&counts[p], &best[function[p]]))
        best[function[p]] = counts[p];
    }
  for (guint f = 0; f < shape->n_functions; f++)
    self->hot_line[f] = best[f].line;
}

static void
count_all (MgCallTree *self)
{
  count_functions (self);
  count_hot_lines (self);
  count_tree (self, MG_CALL_TREE_TOP_DOWN);
  count_tree (self, MG_CALL_TREE_BOTTOM_UP);
  count_heights (self);
  g_array_sort_with_data (self->table, compare_table, self);
}

void
mg_call_tree_finish (MgCallTree *self)
{
  g_return_if_fail (self->building);
  self->building = FALSE;
  g_clear_pointer (&self->path, g_array_unref);
  g_clear_pointer (&self->lines, g_array_unref);
  mg_call_shape_seal (self->shape);
  self->counts = (guint64 *) (void *) g_array_free (g_steal_pointer (&self->added), FALSE);
  count_all (self);
}

MgCallTree *
mg_call_tree_new_for_shape (MgCallShape *shape, guint64 *counts, guint64 total)
{
  MgCallTree *self = g_new0 (MgCallTree, 1);

  g_return_val_if_fail (shape->sealed, NULL);
  self->shape = mg_call_shape_ref (shape);
  self->counts = counts;
  self->total = total;
  self->table = g_array_new (FALSE, FALSE, sizeof (guint));
  count_all (self);
  return self;
}

MgFrameNamer *
mg_call_tree_get_namer (const MgCallTree *self)
{
  return mg_call_shape_get_namer (self->shape);
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
  if (self_samples)
    *self_samples = self->sums[id].self;
  if (total_samples)
    *total_samples = self->sums[id].total;
  return mg_frame_namer_get_function (mg_call_tree_get_namer (self), id);
}

guint
mg_call_tree_get_line (const MgCallTree *self, const MgCallFunction *function)
{
  g_return_val_if_fail (!self->building, 0);
  if (function == NULL)
    return 0;
  if (function->id < self->shape->n_functions && self->hot_line[function->id] != 0)
    return self->hot_line[function->id];
  return function->line;
}

int
mg_call_tree_find_function (const MgCallTree *self, const char *name)
{
  for (guint i = 0; i < self->table->len; i++)
    if (g_strcmp0 (mg_call_tree_get_function (self, i, NULL, NULL)->name, name) == 0)
      return (int) i;
  return -1;
}

static gboolean
valid_node (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  return !self->building && node < self->shape->trees[kind].function->len;
}

/* A node's own samples: top down, its total less its children's; bottom
 * up, its total on the first level (where samples landed), else 0. */
static guint64
node_self (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  const ShapeTree *t = &self->shape->trees[kind];
  const guint64 *total = self->trees[kind].total;
  guint64 own = total[node];

  if (node == MG_CALL_TREE_ROOT)
    return 0;
  if (kind == MG_CALL_TREE_BOTTOM_UP)
    return g_array_index (t->parent, guint, node) == MG_CALL_TREE_ROOT ? own : 0;
  for (guint i = t->child_start[node]; i < t->child_start[node + 1]; i++)
    own -= total[t->children[i]];
  return own;
}

typedef struct {
  const MgCallTree *tree;
  MgCallTreeKind kind;
  const guint *function;
} SortData;

static int
compare_nodes (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *d = data;
  guint x = *(const guint *) a, y = *(const guint *) b;
  const guint64 *total = d->tree->trees[d->kind].total;
  if (total[x] != total[y])
    return total[x] > total[y] ? -1 : 1;
  return compare_sums (0, node_self (d->tree, d->kind, x), d->function[x], 0,
                       node_self (d->tree, d->kind, y), d->function[y]);
}

/* NODE's children with samples, by total, largest first, as [n, child…]:
 * sorted once per node, when first read (from one thread at a time). */
static const guint *
children_of (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  const ShapeTree *t = &self->shape->trees[kind];
  const TreeCounts *c = &self->trees[kind];
  guint *group = g_hash_table_lookup (c->sorted, GUINT_TO_POINTER (node + 1));

  if (group == NULL)
    {
      guint n = 0;
      group = g_new (guint, t->child_start[node + 1] - t->child_start[node] + 1);
      for (guint i = t->child_start[node]; i < t->child_start[node + 1]; i++)
        if (c->total[t->children[i]] > 0)
          group[1 + n++] = t->children[i];
      group[0] = n;
      SortData d = { self, kind, (const guint *) t->function->data };
      g_qsort_with_data (group + 1, (gint) n, sizeof (guint), compare_nodes, &d);
      g_hash_table_insert (c->sorted, GUINT_TO_POINTER (node + 1), group);
    }
  return group;
}

guint
mg_call_tree_get_n_children (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  g_return_val_if_fail (valid_node (self, kind, node), 0);
  return children_of (self, kind, node)[0];
}

guint
mg_call_tree_get_child (const MgCallTree *self, MgCallTreeKind kind, guint node, guint i)
{
  g_return_val_if_fail (valid_node (self, kind, node), G_MAXUINT);
  const guint *children = children_of (self, kind, node);
  g_return_val_if_fail (i < children[0], G_MAXUINT);
  return children[1 + i];
}

const MgCallFunction *
mg_call_tree_get_node (const MgCallTree *self, MgCallTreeKind kind, guint node,
                       guint64 *self_samples, guint64 *total_samples)
{
  gboolean valid = valid_node (self, kind, node);

  g_return_val_if_fail (valid, NULL);
  guint64 total = self->trees[kind].total[node];
  guint64 own = node_self (self, kind, node);
  if (self_samples)
    *self_samples = own;
  if (total_samples)
    *total_samples = total;
  guint function = g_array_index (self->shape->trees[kind].function, guint, node);
  if (function == G_MAXUINT)
    return NULL;
  return mg_frame_namer_get_function (mg_call_tree_get_namer (self), function);
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

/* The waits over the nodes of one tree as count_tree sums the totals: only
 * when the activity colours ask, so a selection change costs no more. */
static void
count_waiting (MgCallTree *self, MgCallTreeKind kind)
{
  const ShapeTree *t = &self->shape->trees[kind];
  TreeCounts *c = &self->trees[kind];
  guint n_nodes = t->function->len, n_stacks = mg_call_shape_get_n_stacks (self->shape);
  const guint *leaf = (const guint *) self->shape->leaf[kind]->data;
  const guint *parent = (const guint *) t->parent->data;
  const guint8 *waiting = (const guint8 *) self->shape->waiting->data;

  c->waiting = g_new0 (guint64, n_nodes);
  for (guint s = 0; s < n_stacks; s++)
    if (waiting[s])
      c->waiting[leaf[s]] += self->counts[s];
  for (guint n = n_nodes; n-- > 1;)
    c->waiting[parent[n]] += c->waiting[n];
}

guint64
mg_call_tree_get_waiting (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  g_return_val_if_fail (valid_node (self, kind, node), 0);
  /* As the children's order: filled in when first read (one reader at a time). */
  if (self->trees[kind].waiting == NULL)
    count_waiting ((MgCallTree *) self, kind);
  return self->trees[kind].waiting[node];
}

guint
mg_call_tree_get_parent (const MgCallTree *self, MgCallTreeKind kind, guint node)
{
  g_return_val_if_fail (valid_node (self, kind, node), G_MAXUINT);
  return g_array_index (self->shape->trees[kind].parent, guint, node);
}

static gboolean
is_match (const guint8 *matches, guint n_matches, guint function)
{
  return function < n_matches && matches[function];
}

guint8 *
mg_call_tree_find_matches (const MgCallTree *self, MgCallTreeKind kind, const guint8 *matches,
                           guint n_matches)
{
  const ShapeTree *t = &self->shape->trees[kind];
  const guint *parent = (const guint *) t->parent->data;
  const guint *function = (const guint *) t->function->data;
  const guint64 *total = self->trees[kind].total;
  guint n_nodes = t->function->len;
  guint8 *below = g_new0 (guint8, MAX (n_nodes, 1));

  g_return_val_if_fail (!self->building, below);
  /* Children come after their parents: last first, each tells its parent. */
  for (guint n = n_nodes; n-- > 1;)
    if (total[n] > 0 && (below[n] || is_match (matches, n_matches, function[n])))
      below[parent[n]] = TRUE;
  return below;
}

guint64
mg_call_tree_count_matching (const MgCallTree *self, const guint8 *matches, guint n_matches)
{
  MgCallShape *shape = self->shape;
  const guint *start = (const guint *) shape->function_start->data;
  const guint *functions = (const guint *) shape->functions->data;
  guint64 matched = 0;

  g_return_val_if_fail (!self->building, 0);
  for (guint s = 0; s < mg_call_shape_get_n_stacks (shape); s++)
    if (self->counts[s] > 0)
      for (guint j = start[s]; j < start[s + 1]; j++)
        if (is_match (matches, n_matches, functions[j]))
          {
            matched += self->counts[s];
            break;
          }
  return matched;
}
