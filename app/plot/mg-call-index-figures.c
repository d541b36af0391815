/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one function or one file did over time, from the call index: the
 * stacks that hold it (listed per function when the index was built) and
 * their own (window, count) lists, with every window's total kept per
 * slot, instead of a pass over every entry and every stack's frames. */
#include "mg-config.h"

#include "mg-call-index-internal.h"

#include <math.h>
#include <string.h>

#include "mg-call-shape-internal.h"

/* Marks in IN (by slot) the slots of PROCESS (-1: every process). */
static void
mark_process_slots (const MgCallIndex *self, int process, guint8 *in)
{
  for (guint p = 0; p < self->n_processes; p++)
    if (process < 0 || mg_stack_table_get_process (self->table, p) == process)
      memset (in + self->slot_first[p], 1, self->slot_first[p + 1] - self->slot_first[p]);
}

static guint
n_slots (const MgCallIndex *self)
{
  return self->slot_first[self->n_processes];
}

/* Marks in HELD (by stack) every stack holding a function id that
 * MATCHES: each stack once, however many of the ids it holds. Returns
 * how many. */
typedef gboolean (*IdMatch) (MgFrameNamer *namer, guint id, const char *what);

static guint
mark_stacks (const MgCallIndex *self, IdMatch matches, const char *what, guint8 *held)
{
  MgFrameNamer *namer = mg_call_shape_get_namer (self->shape);
  guint n = 0;

  for (guint f = 0; f < self->n_functions; f++)
    {
      if (self->function_start[f] == self->function_start[f + 1] || !matches (namer, f, what))
        continue;
      for (guint i = self->function_start[f]; i < self->function_start[f + 1]; i++)
        if (!held[self->function_stacks[i]])
          {
            held[self->function_stacks[i]] = 1;
            n++;
          }
    }
  return n;
}

static gboolean
named (MgFrameNamer *namer, guint id, const char *function)
{
  const MgCallFunction *f = mg_frame_namer_get_function (namer, id);
  return f != NULL && g_strcmp0 (f->name, function) == 0;
}

double *
mg_call_index_function_share (const MgCallIndex *self, int process, const char *function,
                              const MgSeriesView *grid)
{
  guint n_stacks = mg_call_shape_get_n_stacks (self->shape);
  g_autofree int *grid_of = g_new (int, MAX (n_slots (self), 1));
  g_autofree guint8 *held = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint64 *with = g_new0 (guint64, MAX (grid->n, 1));
  g_autofree guint64 *all = g_new0 (guint64, MAX (grid->n, 1));
  double *share = g_new (double, MAX (grid->n, 1));

  /* Each slot's grid window (that of its middle), -1 outside the grid
   * or the process; every stack's samples counted there at once. */
  g_autofree guint8 *in = g_new0 (guint8, MAX (n_slots (self), 1));
  mark_process_slots (self, process, in);
  for (guint slot = 0; slot < n_slots (self); slot++)
    {
      grid_of[slot] = in[slot] ? mg_series_view_window_at (grid, (self->slot_starts[slot]
                                                                  + self->slot_ends[slot]) / 2)
                               : -1;
      if (grid_of[slot] >= 0)
        all[grid_of[slot]] += self->slot_totals[slot];
    }
  mark_stacks (self, named, function, held);
  for (guint s = 0; s < n_stacks; s++)
    if (held[s])
      for (guint i = self->entry_start[s]; i < self->entry_start[s + 1]; i++)
        {
          int w = grid_of[self->entries[i].slot];
          if (w >= 0)
            with[w] += self->entries[i].count;
        }
  for (guint w = 0; w < grid->n; w++)
    share[w] = all[w] > 0 ? 100.0 * with[w] / all[w] : NAN;
  return share;
}

static gboolean
in_file (MgFrameNamer *namer, guint id, const char *file)
{
  return mg_frame_namer_names_file (namer, id, file);
}

/* The lines of the file one stack passes, each once (indices into the
 * figures' lines), its innermost frame's line first (G_MAXUINT: not in
 * the file): a group's key. Returns FALSE where it passes none. */
typedef struct {
  MgLineFigures *figures;
  const MgStackModule *modules;
  guint n_modules;
  guint *lines_at;      /* by address: into indices, its lines' figures, once named */
  guint *n_lines;       /* by address: G_MAXUINT until named */
  guint *first_line;    /* by address: its innermost line's figures, G_MAXUINT: none */
  GArray *indices;      /* guint: the addresses' lines as indices of the figures */
  GArray *stamp;        /* guint by line index: the last stack + 1 passing it */
} LineFinder;

/* An address's lines in the file, as indices of the figures' lines. */
static void
name_address (const MgCallIndex *self, LineFinder *finder, guint a)
{
  guint32 m = self->address_module[a];
  const MgStackModule *module = m < finder->n_modules ? &finder->modules[m] : NULL;
  guint first;
  const guint *lines = mg_line_figures_name_address (finder->figures, module, m,
                                                     self->address_vaddr[a],
                                                     &finder->n_lines[a], &first);

  finder->first_line[a] = first > 0 ? mg_line_figures_line_index (finder->figures, first)
                                    : G_MAXUINT;
  finder->lines_at[a] = finder->indices->len;
  for (guint l = 0; l < finder->n_lines[a]; l++)
    {
      guint index = mg_line_figures_line_index (finder->figures, lines[l]);
      g_array_append_val (finder->indices, index);
    }
}

static gboolean
stack_lines (const MgCallIndex *self, LineFinder *finder, guint stack, GArray *key)
{
  guint self_line = G_MAXUINT;

  g_array_set_size (key, 1);
  for (guint i = self->address_start[stack]; i < self->address_start[stack + 1]; i++)
    {
      guint a = self->stack_addresses[i];
      if (finder->n_lines[a] == G_MAXUINT)
        name_address (self, finder, a);
      if (i == self->address_start[stack])
        self_line = finder->first_line[a];
      /* A line twice in a stack (a recursion) counts the stack once. */
      for (guint l = 0; l < finder->n_lines[a]; l++)
        {
          guint index = g_array_index (finder->indices, guint, finder->lines_at[a] + l);
          if (index >= finder->stamp->len)
            g_array_set_size (finder->stamp, index + 1);
          if (g_array_index (finder->stamp, guint, index) == stack + 1)
            continue;
          g_array_index (finder->stamp, guint, index) = stack + 1;
          g_array_append_val (key, index);
        }
    }
  g_array_index (key, guint, 0) = self_line;
  return key->len > 1;
}

static guint
group_hash (gconstpointer p)
{
  const guint *k = p;
  guint h = 2166136261u;
  for (guint i = 0; i <= k[0]; i++)
    h = (h ^ k[i]) * 16777619u;
  return h;
}

static gboolean
group_equal (gconstpointer a, gconstpointer b)
{
  const guint *x = a, *y = b;
  return x[0] == y[0] && memcmp (x + 1, y + 1, x[0] * sizeof (guint)) == 0;
}

void
mg_call_index_add_line_figures (const MgCallIndex *self, MgLineFigures *figures, int process,
                                double start_s, double end_s)
{
  guint n_stacks = mg_call_shape_get_n_stacks (self->shape);
  guint n_bins = mg_line_figures_get_n_bins (figures);
  guint n_modules = mg_stack_table_get_n_modules (self->table);
  g_autofree guint *bin = g_new (guint, MAX (n_slots (self), 1));
  g_autofree guint64 *bin_totals = g_new0 (guint64, n_bins);
  g_autofree guint8 *held = g_new0 (guint8, MAX (n_stacks, 1));
  g_autofree guint *lines_at = g_new0 (guint, MAX (self->n_addresses, 1));
  g_autofree guint *n_lines = g_new (guint, MAX (self->n_addresses, 1));
  g_autofree guint *first_line = g_new0 (guint, MAX (self->n_addresses, 1));
  LineFinder finder = { figures, n_modules ? mg_stack_table_get_module (self->table, 0) : NULL,
                        n_modules, lines_at, n_lines, first_line,
                        g_array_new (FALSE, FALSE, sizeof (guint)),
                        g_array_new (FALSE, TRUE, sizeof (guint)) };
  /* Stacks passing the same lines are summed as one group first: key
   * (length, innermost line, lines) → group + 1. */
  g_autoptr (GHashTable) groups = g_hash_table_new_full (group_hash, group_equal, g_free, NULL);
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_autoptr (GArray) sums = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_autoptr (GArray) key = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint a = 0; a < self->n_addresses; a++)
    n_lines[a] = G_MAXUINT;
  /* Every sample of the range, in the file or not: what shares and
   * sparkline bars are of. The windows that overlap the range count,
   * as a stack set's; G_MAXUINT: a slot outside them. */
  g_autofree guint8 *in = g_new0 (guint8, MAX (n_slots (self), 1));
  mark_process_slots (self, process, in);
  for (guint slot = 0; slot < n_slots (self); slot++)
    {
      bin[slot] = G_MAXUINT;
      if (!in[slot] || !(self->slot_ends[slot] > start_s)
          || !(self->slot_starts[slot] < end_s))
        continue;
      bin[slot] = mg_line_figures_get_bin (figures, self->slot_starts[slot],
                                           self->slot_ends[slot]);
      bin_totals[bin[slot]] += self->slot_totals[slot];
    }
  mg_line_figures_add_to_totals (figures, bin_totals);
  /* The stacks that may pass the file (holding a function an address of
   * which named it), each one's samples per bin into its group's. */
  mark_stacks (self, in_file, mg_line_figures_get_file (figures), held);
  for (guint s = 0; s < n_stacks; s++)
    {
      if (!held[s] || !stack_lines (self, &finder, s, key))
        continue;
      guint lead = key->len;  /* what follows it: the innermost line, the lines */
      g_array_prepend_val (key, lead);
      gpointer found = g_hash_table_lookup (groups, key->data);
      guint g;
      if (found == NULL)
        {
          guint *k = g_memdup2 (key->data, key->len * sizeof (guint));
          g = keys->len;
          g_ptr_array_add (keys, k);
          g_hash_table_insert (groups, k, GUINT_TO_POINTER (g + 1));
          g_array_set_size (sums, (gsize) (g + 1) * n_bins);
        }
      else
        g = GPOINTER_TO_UINT (found) - 1;
      guint64 *group = &g_array_index (sums, guint64, (gsize) g * n_bins);
      for (guint i = self->entry_start[s]; i < self->entry_start[s + 1]; i++)
        if (bin[self->entries[i].slot] != G_MAXUINT)
          group[bin[self->entries[i].slot]] += self->entries[i].count;
    }
  /* Each group's samples to its lines. */
  for (guint g = 0; g < keys->len; g++)
    {
      const guint *k = g_ptr_array_index (keys, g);
      const guint64 *group = &g_array_index (sums, guint64, (gsize) g * n_bins);
      guint64 total = 0;
      for (guint b = 0; b < n_bins; b++)
        total += group[b];
      if (total == 0)
        continue;
      if (k[1] != G_MAXUINT)
        mg_line_figures_add_to_line (figures, k[1], total, 0, NULL);
      for (guint i = 2; i <= k[0]; i++)
        mg_line_figures_add_to_line (figures, k[i], 0, total, group);
    }
  g_array_unref (finder.indices);
  g_array_unref (finder.stamp);
}
