/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A selection of a profile's call stacks, merged across processes. */
#include "mg-config.h"

#include <string.h>
#include <sys/stat.h>

#include "mg-profile-internal.h"
#include "mg-stack-builder.h"
#include "mg-stack-set.h"
#include "format/mg-record-stacks.h"

typedef struct {
  MgStackFrame *frames;
  guint n_frames;
  guint flags;             /* without the thread bits */
  int thread;              /* ordinal, -1: not known or several */
  guint64 count;
} Stack;

struct _MgStackSet {
  MgProfile *profile;      /* for the names it stores (mg-profile-code.h) */
  GVariant *payload;       /* the profile's member, kept for the module names */
  GArray *stacks;          /* Stack */
  GHashTable *by_frames;   /* GBytes of a stack variant → index + 1 */
  MgStackModule *modules;
  guint n_modules;
  guint64 total, taken, lost;
  guint n_processes;
  guint n_stepped_aside;
  int thread;              /* the filter: MG_STACK_THREAD_ALL or an ordinal */
  guint n_threads;         /* 1 + the highest ordinal of the processes' stacks */
};

/* The member's (ut) frames and (uuu) counts as laid out in fixed arrays,
 * read in place rather than a GVariant each (a 1024-rank profile has
 * millions). MgStackFrame has the layout of (ut). */
typedef struct {
  guint32 window, stack, count;
} CountRow;

G_STATIC_ASSERT (sizeof (CountRow) == 12 && sizeof (MgStackFrame) == 16
                 && G_STRUCT_OFFSET (MgStackFrame, vaddr) == 8);

static const MgStackFrame *
frames_of (GVariant *frames, gsize *n)
{
  return g_variant_get_fixed_array (frames, n, sizeof (MgStackFrame));
}

static const CountRow *
counts_of (GVariant *counts, gsize *n)
{
  return g_variant_get_fixed_array (counts, n, sizeof (CountRow));
}

static void
stack_clear (gpointer data)
{
  g_free (((Stack *) data)->frames);
}

/* The thread ordinal of a stack's flags, -1 when not known. */
static int
thread_of (guint flags)
{
  guint v = flags >> MG_STACK_THREAD_SHIFT;
  return v == 0 ? -1 : (int) v - 1;
}

/* The stack's index in the set, added when new: one per frames and flags
 * but the thread, so that the same stack of two threads is one (its
 * thread then -1) where the set takes every thread. */
static guint
intern (MgStackSet *set, GVariant *stack)
{
  guint32 flags;
  g_variant_get_child (stack, 1, "u", &flags);
  int thread = thread_of (flags);
  flags &= ~MG_STACK_THREAD_MASK;
  g_autoptr (GVariant) frames = g_variant_get_child_value (stack, 0);
  g_autoptr (GVariant) keyed = g_variant_ref_sink (g_variant_new ("(@a(ut)u)", frames, flags));
  GBytes *key = g_variant_get_data_as_bytes (keyed);
  gpointer found = g_hash_table_lookup (set->by_frames, key);
  if (found != NULL)
    {
      g_bytes_unref (key);
      Stack *known = &g_array_index (set->stacks, Stack, GPOINTER_TO_UINT (found) - 1);
      if (known->thread != thread)
        known->thread = -1;
      return GPOINTER_TO_UINT (found) - 1;
    }
  Stack s = { 0 };
  s.flags = flags;
  s.thread = thread;
  gsize n_frames;
  const MgStackFrame *rows = frames_of (frames, &n_frames);
  s.n_frames = (guint) n_frames;
  s.frames = g_new (MgStackFrame, MAX (s.n_frames, 1));
  if (n_frames > 0)
    memcpy (s.frames, rows, n_frames * sizeof (MgStackFrame));
  g_array_append_val (set->stacks, s);
  g_hash_table_insert (set->by_frames, key, GUINT_TO_POINTER (set->stacks->len));
  return set->stacks->len - 1;
}

static void
add_process (MgStackSet *set, GVariant *proc, double start_s, double end_s)
{
  guint64 taken, lost;
  guint32 state;
  g_autoptr (GVariant) stacks = g_variant_get_child_value (proc, 4);
  g_autoptr (GVariant) starts_v = g_variant_get_child_value (proc, 5);
  g_autoptr (GVariant) ends_v = g_variant_get_child_value (proc, 6);
  g_autoptr (GVariant) counts = g_variant_get_child_value (proc, 7);
  gsize n_windows;
  const double *starts = g_variant_get_fixed_array (starts_v, &n_windows, sizeof (double));
  const double *ends = g_variant_get_fixed_array (ends_v, &n_windows, sizeof (double));

  g_variant_get_child (proc, 1, "t", &taken);
  g_variant_get_child (proc, 2, "t", &lost);
  g_variant_get_child (proc, 3, "u", &state);
  if (state == MG_RECORD_STACKS_STEPPED_ASIDE)
    set->n_stepped_aside++;
  set->taken += taken;
  set->lost += lost;
  set->n_processes++;
  g_autofree guint *index = g_new (guint, MAX (g_variant_n_children (stacks), 1));
  /* Per stack of the process: its index in the set, G_MAXUINT not yet
   * interned, G_MAXUINT - 1 of another thread than the filter's. */
  for (gsize i = 0; i < g_variant_n_children (stacks); i++)
    {
      index[i] = G_MAXUINT;
      guint32 flags;
      g_autoptr (GVariant) st = g_variant_get_child_value (stacks, i);
      g_variant_get_child (st, 1, "u", &flags);
      int thread = thread_of (flags);
      set->n_threads = MAX (set->n_threads, (guint) (thread + 1));
      if (set->thread != MG_STACK_THREAD_ALL && thread != set->thread)
        index[i] = G_MAXUINT - 1;
    }
  gsize n;
  const CountRow *rows = counts_of (counts, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint32 w = rows[i].window, stack = rows[i].stack, count = rows[i].count;
      if (!(ends[w] > start_s && starts[w] < end_s) || index[stack] == G_MAXUINT - 1)
        continue;
      if (index[stack] == G_MAXUINT)
        {
          g_autoptr (GVariant) s = g_variant_get_child_value (stacks, stack);
          index[stack] = intern (set, s);
        }
      g_array_index (set->stacks, Stack, index[stack]).count += count;
      set->total += count;
    }
}

MgStackSet *
mg_stack_set_new (MgProfile *profile, int process, double start_s, double end_s)
{
  return mg_stack_set_new_for_thread (profile, process, MG_STACK_THREAD_ALL, start_s, end_s);
}

static MgStackSet *
new_set (MgProfile *profile, int process, const gboolean *processes, int thread, double start_s,
         double end_s)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  MgStackSet *set = g_new0 (MgStackSet, 1);
  set->profile = g_object_ref (profile);
  set->thread = thread;
  set->payload = g_variant_ref (mg_profile_peek_stacks (profile));
  set->stacks = g_array_new (FALSE, TRUE, sizeof (Stack));
  g_array_set_clear_func (set->stacks, stack_clear);
  set->by_frames = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                          (GDestroyNotify) g_bytes_unref, NULL);

  g_autoptr (GVariant) modules = g_variant_get_child_value (set->payload, 0);
  set->n_modules = (guint) g_variant_n_children (modules);
  set->modules = g_new0 (MgStackModule, MAX (set->n_modules, 1));
  for (guint i = 0; i < set->n_modules; i++)
    {
      g_autoptr (GVariant) m = g_variant_get_child_value (modules, i);
      g_autoptr (GVariant) path = g_variant_get_child_value (m, 0);
      g_autoptr (GVariant) id = g_variant_get_child_value (m, 1);
      /* Both point into the payload, which the set keeps. */
      set->modules[i].path = g_variant_get_bytestring (path);
      set->modules[i].build_id = g_variant_get_fixed_array (id, &set->modules[i].build_id_len, 1);
      if (set->modules[i].build_id_len == 0)
        set->modules[i].build_id = NULL;
    }

  g_autoptr (GVariant) procs = g_variant_get_child_value (set->payload, 1);
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      gint32 p;
      g_variant_get_child (proc, 0, "i", &p);
      gboolean wanted = processes != NULL ? p >= 0 && (guint) p < profile->processes->len
                                            && processes[p]
                                          : process < 0 || p == process;
      if (wanted)
        add_process (set, proc, start_s, end_s);
    }
  return set;
}

MgStackSet *
mg_stack_set_new_for_thread (MgProfile *profile, int process, int thread, double start_s,
                             double end_s)
{
  return new_set (profile, process, NULL, thread, start_s, end_s);
}

MgStackSet *
mg_stack_set_new_for_processes (MgProfile *profile, const gboolean *processes, double start_s,
                                double end_s)
{
  return new_set (profile, -1, processes, MG_STACK_THREAD_ALL, start_s, end_s);
}

MgStackSet *
mg_stack_set_new_for_processes_thread (MgProfile *profile, const gboolean *processes, int thread,
                                       double start_s, double end_s)
{
  return new_set (profile, -1, processes, thread, start_s, end_s);
}

void
mg_stack_set_free (MgStackSet *set)
{
  if (set == NULL)
    return;
  g_array_unref (set->stacks);
  g_hash_table_unref (set->by_frames);
  g_free (set->modules);
  g_variant_unref (set->payload);
  g_object_unref (set->profile);
  g_free (set);
}

MgProfile *
mg_stack_set_get_profile (const MgStackSet *set)
{
  return set->profile;
}

guint
mg_stack_set_get_n_stacks (const MgStackSet *set)
{
  return set->stacks->len;
}

const MgStackFrame *
mg_stack_set_get_frames (const MgStackSet *set, guint stack, guint *n_frames, guint *flags)
{
  g_return_val_if_fail (stack < set->stacks->len, NULL);
  const Stack *s = &g_array_index (set->stacks, Stack, stack);
  if (n_frames)
    *n_frames = s->n_frames;
  if (flags)
    *flags = s->flags;
  return s->frames;
}

int
mg_stack_set_get_thread (const MgStackSet *set, guint stack)
{
  g_return_val_if_fail (stack < set->stacks->len, -1);
  return g_array_index (set->stacks, Stack, stack).thread;
}

guint
mg_stack_set_get_n_threads (const MgStackSet *set)
{
  return set->n_threads;
}

guint64
mg_stack_set_get_count (const MgStackSet *set, guint stack)
{
  g_return_val_if_fail (stack < set->stacks->len, 0);
  return g_array_index (set->stacks, Stack, stack).count;
}

guint64
mg_stack_set_get_total (const MgStackSet *set)
{
  return set->total;
}

guint
mg_stack_set_get_n_modules (const MgStackSet *set)
{
  return set->n_modules;
}

const MgStackModule *
mg_stack_set_get_module (const MgStackSet *set, guint module)
{
  g_return_val_if_fail (module < set->n_modules, NULL);
  return &set->modules[module];
}

gboolean
mg_stack_set_module_replaced (const MgStackSet *set, guint module)
{
  const MgStackModule *m = mg_stack_set_get_module (set, module);
  struct stat st;

  if (m == NULL || m->build_id_len > 0 || set->profile == NULL)
    return FALSE;
  gint64 start_us = mg_profile_get_run_info (set->profile)->start_time_us;
  if (start_us <= 0 || stat (m->path, &st) != 0)
    return FALSE; /* a file that is gone is said so by the namer */
  return (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000 > start_us;
}

guint64
mg_stack_set_get_taken (const MgStackSet *set)
{
  return set->taken;
}

guint64
mg_stack_set_get_lost (const MgStackSet *set)
{
  return set->lost;
}

guint
mg_stack_set_get_n_processes (const MgStackSet *set)
{
  return set->n_processes;
}

guint
mg_stack_set_get_n_stepped_aside (const MgStackSet *set)
{
  return set->n_stepped_aside;
}

static gboolean
check_process (GVariant *proc, guint n_processes, gsize n_modules)
{
  gint32 p;
  g_variant_get_child (proc, 0, "i", &p);
  if (p < 0 || (guint) p >= n_processes)
    return FALSE;
  g_autoptr (GVariant) stacks = g_variant_get_child_value (proc, 4);
  g_autoptr (GVariant) starts = g_variant_get_child_value (proc, 5);
  g_autoptr (GVariant) ends = g_variant_get_child_value (proc, 6);
  g_autoptr (GVariant) counts = g_variant_get_child_value (proc, 7);
  gsize n_stacks = g_variant_n_children (stacks);
  gsize n_windows = g_variant_n_children (starts);
  if (g_variant_n_children (ends) != n_windows)
    return FALSE;
  for (gsize i = 0; i < n_stacks; i++)
    {
      g_autoptr (GVariant) s = g_variant_get_child_value (stacks, i);
      g_autoptr (GVariant) frames = g_variant_get_child_value (s, 0);
      gsize n_frames;
      const MgStackFrame *rows = frames_of (frames, &n_frames);
      for (gsize f = 0; f < n_frames; f++)
        if (rows[f].module != MG_STACK_MODULE_UNKNOWN && rows[f].module >= n_modules)
          return FALSE;
    }
  gsize n_counts;
  const CountRow *rows = counts_of (counts, &n_counts);
  for (gsize i = 0; i < n_counts; i++)
    if (rows[i].window >= n_windows || rows[i].stack >= n_stacks)
      return FALSE;
  return TRUE;
}

gboolean
mg_stack_set_check_modules (GVariant *modules)
{
  for (gsize i = 0; i < g_variant_n_children (modules); i++)
    {
      g_autoptr (GVariant) m = g_variant_get_child_value (modules, i);
      g_autoptr (GVariant) path = g_variant_get_child_value (m, 0);
      gsize len;
      const char *bytes = g_variant_get_fixed_array (path, &len, 1);
      /* A name: bytes ending with one NUL. */
      if (len == 0 || bytes[len - 1] != '\0' || memchr (bytes, '\0', len - 1) != NULL)
        return FALSE;
    }
  return TRUE;
}

gboolean
mg_stack_set_check_payload (GVariant *stacks, guint n_processes)
{
  g_autoptr (GVariant) modules = g_variant_get_child_value (stacks, 0);
  g_autoptr (GVariant) procs = g_variant_get_child_value (stacks, 1);
  gsize n_modules = g_variant_n_children (modules);
  if (!mg_stack_set_check_modules (modules))
    return FALSE;
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
      if (!check_process (proc, n_processes, n_modules))
        return FALSE;
    }
  return TRUE;
}
