/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile's stacks member read in place: fixed-size arrays of the
 * GVariant are the C arrays (the layouts are asserted below). */
#include "mg-config.h"

#include <stddef.h>

#include "mg-profile-internal.h"
#include "mg-stack-table.h"

/* "(ut)" and "(uuu)" serialise as these structs do. */
G_STATIC_ASSERT (sizeof (MgStackFrame) == 16 && offsetof (MgStackFrame, vaddr) == 8);
G_STATIC_ASSERT (sizeof (MgStackCount) == 12);

typedef struct {
  int process;
  GVariant *stacks;        /* a(a(ut)u) */
  GVariant **frames;       /* a(ut) of each stack */
  guint32 *flags;          /* of each stack, without the thread bits */
  GVariant *starts, *ends, *counts;
} Process;

struct _MgStackTable {
  GVariant *payload;
  MgStackModule *modules;
  guint n_modules;
  GArray *processes;       /* Process */
  guint n_threads;         /* 1 + the highest thread ordinal of any stack */
};

static void
process_clear (gpointer data)
{
  Process *p = data;
  for (gsize i = 0; p->frames && i < g_variant_n_children (p->stacks); i++)
    g_variant_unref (p->frames[i]);
  g_free (p->frames);
  g_free (p->flags);
  g_clear_pointer (&p->stacks, g_variant_unref);
  g_clear_pointer (&p->starts, g_variant_unref);
  g_clear_pointer (&p->ends, g_variant_unref);
  g_clear_pointer (&p->counts, g_variant_unref);
}

static void
read_modules (MgStackTable *self)
{
  g_autoptr (GVariant) modules = g_variant_get_child_value (self->payload, 0);

  self->n_modules = (guint) g_variant_n_children (modules);
  self->modules = g_new0 (MgStackModule, MAX (self->n_modules, 1));
  for (guint i = 0; i < self->n_modules; i++)
    {
      g_autoptr (GVariant) m = g_variant_get_child_value (modules, i);
      g_autoptr (GVariant) path = g_variant_get_child_value (m, 0);
      g_autoptr (GVariant) id = g_variant_get_child_value (m, 1);
      /* Both point into the payload, which the table keeps. */
      self->modules[i].path = g_variant_get_bytestring (path);
      self->modules[i].build_id = g_variant_get_fixed_array (id, &self->modules[i].build_id_len, 1);
      if (self->modules[i].build_id_len == 0)
        self->modules[i].build_id = NULL;
    }
}

MgStackTable *
mg_stack_table_new (MgProfile *profile)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  MgStackTable *self = g_new0 (MgStackTable, 1);

  self->payload = g_variant_ref (mg_profile_peek_stacks (profile));
  read_modules (self);
  self->processes = g_array_new (FALSE, TRUE, sizeof (Process));
  g_array_set_clear_func (self->processes, process_clear);
  g_autoptr (GVariant) procs = g_variant_get_child_value (self->payload, 1);
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      Process p = { 0 };
      g_variant_get_child (proc, 0, "i", &p.process);
      p.stacks = g_variant_get_child_value (proc, 4);
      p.starts = g_variant_get_child_value (proc, 5);
      p.ends = g_variant_get_child_value (proc, 6);
      p.counts = g_variant_get_child_value (proc, 7);
      gsize n = g_variant_n_children (p.stacks);
      p.frames = g_new (GVariant *, MAX (n, 1));
      p.flags = g_new (guint32, MAX (n, 1));
      for (gsize s = 0; s < n; s++)
        {
          g_autoptr (GVariant) stack = g_variant_get_child_value (p.stacks, s);
          p.frames[s] = g_variant_get_child_value (stack, 0);
          g_variant_get_child (stack, 1, "u", &p.flags[s]);
          /* The ordinal + 1 in the thread bits, 0: not known. */
          self->n_threads = MAX (self->n_threads, p.flags[s] >> MG_STACK_THREAD_SHIFT);
          p.flags[s] &= ~MG_STACK_THREAD_MASK;
        }
      g_array_append_val (self->processes, p);
    }
  return self;
}

void
mg_stack_table_free (MgStackTable *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->processes);
  g_free (self->modules);
  g_variant_unref (self->payload);
  g_free (self);
}

guint
mg_stack_table_get_n_modules (const MgStackTable *self)
{
  return self->n_modules;
}

const MgStackModule *
mg_stack_table_get_module (const MgStackTable *self, guint module)
{
  g_return_val_if_fail (module < self->n_modules, NULL);
  return &self->modules[module];
}

guint
mg_stack_table_get_n_threads (const MgStackTable *self)
{
  return self->n_threads;
}

guint
mg_stack_table_get_n_processes (const MgStackTable *self)
{
  return self->processes->len;
}

static const Process *
process_of (const MgStackTable *self, guint i)
{
  g_return_val_if_fail (i < self->processes->len, NULL);
  return &g_array_index (self->processes, Process, i);
}

int
mg_stack_table_get_process (const MgStackTable *self, guint i)
{
  const Process *p = process_of (self, i);
  return p ? p->process : -1;
}

guint
mg_stack_table_get_n_stacks (const MgStackTable *self, guint i)
{
  const Process *p = process_of (self, i);
  return p ? (guint) g_variant_n_children (p->stacks) : 0;
}

const MgStackFrame *
mg_stack_table_get_frames (const MgStackTable *self, guint i, guint stack, guint *n_frames)
{
  const Process *p = process_of (self, i);
  gsize n = 0;

  g_return_val_if_fail (p && stack < g_variant_n_children (p->stacks), NULL);
  const MgStackFrame *frames = g_variant_get_fixed_array (p->frames[stack], &n,
                                                          sizeof (MgStackFrame));
  *n_frames = (guint) n;
  return frames;
}

guint
mg_stack_table_get_flags (const MgStackTable *self, guint i, guint stack)
{
  const Process *p = process_of (self, i);

  g_return_val_if_fail (p && stack < g_variant_n_children (p->stacks), 0);
  return p->flags[stack];
}

const double *
mg_stack_table_get_windows (const MgStackTable *self, guint i, const double **ends,
                            guint *n_windows)
{
  const Process *p = process_of (self, i);
  gsize n = 0, n_ends = 0;

  g_return_val_if_fail (p, NULL);
  const double *starts = g_variant_get_fixed_array (p->starts, &n, sizeof (double));
  *ends = g_variant_get_fixed_array (p->ends, &n_ends, sizeof (double));
  *n_windows = (guint) MIN (n, n_ends);
  return starts;
}

const MgStackCount *
mg_stack_table_get_counts (const MgStackTable *self, guint i, guint *n_counts)
{
  const Process *p = process_of (self, i);
  gsize n = 0;

  g_return_val_if_fail (p, NULL);
  const MgStackCount *counts = g_variant_get_fixed_array (p->counts, &n, sizeof (MgStackCount));
  *n_counts = (guint) n;
  return counts;
}
