/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's call stacks by sample window. */
#include "mg-config.h"

#include <string.h>

#include "mg-profile-internal.h"
#include "mg-stack-windows.h"

typedef struct {
  MgStackFrame *frames;
  guint n_frames;
  guint32 flags; /* as stored: the thread ordinal's bits included */
} Stack;

struct _MgStackWindows {
  GArray *stacks;        /* Stack */
  GHashTable *by_frames; /* GBytes of a stack variant → index + 1 */
  GArray *counts;        /* MgStackWindowCount */
};

static void
stack_clear (gpointer data)
{
  g_free (((Stack *) data)->frames);
}

/* The stack's index, added when new: identical stacks of different
 * processes are one. */
static guint
intern (MgStackWindows *self, GVariant *stack)
{
  GBytes *key = g_variant_get_data_as_bytes (stack);
  gpointer found = g_hash_table_lookup (self->by_frames, key);
  g_autoptr (GVariant) frames = NULL;
  Stack s = { 0 };

  if (found != NULL)
    {
      g_bytes_unref (key);
      return GPOINTER_TO_UINT (found) - 1;
    }
  frames = g_variant_get_child_value (stack, 0);
  s.n_frames = (guint) g_variant_n_children (frames);
  s.frames = g_new (MgStackFrame, MAX (s.n_frames, 1));
  {
    /* (ut) is fixed-size, 16 bytes as MgStackFrame: read in place rather
     * than a child variant per frame (most of the time of a big profile). */
    gsize n;
    const guint8 *data = g_variant_get_fixed_array (frames, &n, 16);

    /* A frames array not in normal form reads as none. */
    s.n_frames = (guint) MIN (n, s.n_frames);
    for (gsize f = 0; f < s.n_frames; f++)
      {
        memcpy (&s.frames[f].module, data + 16 * f, sizeof (guint32));
        memcpy (&s.frames[f].vaddr, data + 16 * f + 8, sizeof (guint64));
      }
  }
  if (g_variant_n_children (stack) > 1)
    g_variant_get_child (stack, 1, "u", &s.flags);
  g_array_append_val (self->stacks, s);
  g_hash_table_insert (self->by_frames, key, GUINT_TO_POINTER (self->stacks->len));
  return self->stacks->len - 1;
}

static void
add_process (MgStackWindows *self, GVariant *proc)
{
  g_autoptr (GVariant) stacks = g_variant_get_child_value (proc, 4);
  g_autoptr (GVariant) starts_v = g_variant_get_child_value (proc, 5);
  g_autoptr (GVariant) ends_v = g_variant_get_child_value (proc, 6);
  g_autoptr (GVariant) counts = g_variant_get_child_value (proc, 7);
  gsize n_windows, n_counts, n_stacks = g_variant_n_children (stacks);
  const double *starts = g_variant_get_fixed_array (starts_v, &n_windows, sizeof (double));
  const double *ends = g_variant_get_fixed_array (ends_v, &n_windows, sizeof (double));
  /* (uuu) is fixed-size: the counts read in place, not a child variant
   * each (2 million of them in a big profile). */
  const guint32 *triples = g_variant_get_fixed_array (counts, &n_counts, 3 * sizeof (guint32));
  g_autofree guint *index = g_new (guint, MAX (n_stacks, 1));

  for (gsize i = 0; i < n_stacks; i++)
    index[i] = G_MAXUINT;
  /* Indices were checked when the profile was read
   * (mg_stack_set_check_payload). */
  for (gsize i = 0; i < n_counts; i++)
    {
      guint32 w = triples[3 * i], stack = triples[3 * i + 1], count = triples[3 * i + 2];
      MgStackWindowCount entry;

      if (index[stack] == G_MAXUINT)
        {
          g_autoptr (GVariant) s = g_variant_get_child_value (stacks, stack);
          index[stack] = intern (self, s);
        }
      entry = (MgStackWindowCount) { starts[w], ends[w], index[stack], count };
      g_array_append_val (self->counts, entry);
    }
}

MgStackWindows *
mg_stack_windows_new (MgProfile *profile, int process)
{
  MgStackWindows *self;
  g_autoptr (GVariant) procs = NULL;

  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  self = g_new0 (MgStackWindows, 1);
  self->stacks = g_array_new (FALSE, TRUE, sizeof (Stack));
  g_array_set_clear_func (self->stacks, stack_clear);
  self->by_frames = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                           (GDestroyNotify) g_bytes_unref, NULL);
  self->counts = g_array_new (FALSE, FALSE, sizeof (MgStackWindowCount));
  procs = mg_profile_dup_process_stacks (profile, process);
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      gint32 p;

      g_variant_get_child (proc, 0, "i", &p);
      if (process < 0 || p == process)
        add_process (self, proc);
    }
  return self;
}

void
mg_stack_windows_free (MgStackWindows *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->stacks);
  g_hash_table_unref (self->by_frames);
  g_array_unref (self->counts);
  g_free (self);
}

guint
mg_stack_windows_get_n_stacks (const MgStackWindows *self)
{
  return self->stacks->len;
}

const MgStackFrame *
mg_stack_windows_get_frames (const MgStackWindows *self, guint stack, guint *n_frames)
{
  const Stack *s;

  g_return_val_if_fail (stack < self->stacks->len, NULL);
  s = &g_array_index (self->stacks, Stack, stack);
  if (n_frames != NULL)
    *n_frames = s->n_frames;
  return s->frames;
}

guint32
mg_stack_windows_get_flags (const MgStackWindows *self, guint stack)
{
  g_return_val_if_fail (stack < self->stacks->len, 0);
  return g_array_index (self->stacks, Stack, stack).flags;
}

guint
mg_stack_windows_get_n_counts (const MgStackWindows *self)
{
  return self->counts->len;
}

const MgStackWindowCount *
mg_stack_windows_get_count (const MgStackWindows *self, guint i)
{
  g_return_val_if_fail (i < self->counts->len, NULL);
  return &g_array_index (self->counts, MgStackWindowCount, i);
}
