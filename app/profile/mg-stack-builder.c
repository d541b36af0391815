/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Records' call-stack sections into the profile's stacks member. */
#include "mg-config.h"

#include <string.h>

#include "mg-profile-internal.h"
#include "mg-stack-builder.h"
#include "mg-stack-set.h"

/* As the member's (uuu) elements are laid out: the counts travel as one
 * fixed array, not a GVariant each (a 1024-rank merge has millions). */
typedef struct {
  guint32 window, stack, count;
} Count;

/* A frame as the member's (ut) is laid out: 4 bytes of padding before
 * the address, which must be zero. */
typedef struct {
  guint32 module;
  guint32 padding;
  guint64 vaddr;
} FrameRow;

G_STATIC_ASSERT (sizeof (Count) == 12 && sizeof (FrameRow) == 16);

/* A thread the record named: ordinal, id, name (raw, NUL-terminated). */
typedef struct {
  guint32 ordinal;
  gint32 tid;
  char name[MG_RECORD_THREAD_NAME_LEN];
} Thread;

/* A distinct stack of the run, held once whichever processes sampled it:
 * a 1024-rank run samples the same few hundred stacks in every rank. */
typedef struct {
  GVariant *stack;         /* (a(ut)u), serialised: its frames at offset 0 */
  const FrameRow *rows;    /* its frames (in stack's data; the probe's own) */
  guint32 n_frames, flags;
  guint hash;
} Interned;

typedef struct {
  guint process;
  guint64 taken, lost;
  guint32 state;
  GArray *stacks;          /* guint32: the builder's interned stack */
  /* Sized exactly and given to the member as they are, not copied: a
   * 1024-rank run has 4 million windows. */
  double *starts, *ends;
  Count *counts;
  gsize n_windows, n_counts;
  GArray *threads;         /* Thread, one per ordinal */
} Proc;

struct _MgStackBuilder {
  GPtrArray *module_paths; /* char* */
  GPtrArray *module_ids;   /* GBytes* */
  GHashTable *module_index;/* "path\nhex" → index + 1 */
  GPtrArray *interned;     /* Interned*, in order of first sight */
  GHashTable *interned_index; /* Interned* → its index + 1 */
  GArray *procs;           /* Proc, in order of first sight */
  gboolean ended;          /* the windows and counts went to the member */
};

static guint
interned_hash (gconstpointer key)
{
  return ((const Interned *) key)->hash;
}

static gboolean
interned_equal (gconstpointer a, gconstpointer b)
{
  const Interned *x = a, *y = b;
  return x->hash == y->hash && x->n_frames == y->n_frames && x->flags == y->flags
         && memcmp (x->rows, y->rows, x->n_frames * sizeof (FrameRow)) == 0;
}

static void
interned_free (gpointer data)
{
  Interned *e = data;
  g_variant_unref (e->stack);
  g_free (e);
}

MgStackBuilder *
mg_stack_builder_new (void)
{
  MgStackBuilder *self = g_new0 (MgStackBuilder, 1);
  self->module_paths = g_ptr_array_new_with_free_func (g_free);
  self->module_ids = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->module_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->interned = g_ptr_array_new_with_free_func (interned_free);
  self->interned_index = g_hash_table_new (interned_hash, interned_equal);
  self->procs = g_array_new (FALSE, TRUE, sizeof (Proc));
  return self;
}

void
mg_stack_builder_free (MgStackBuilder *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->procs->len; i++)
    {
      Proc *p = &g_array_index (self->procs, Proc, i);
      g_array_unref (p->stacks);
      g_free (p->starts);
      g_free (p->ends);
      g_free (p->counts);
      g_array_unref (p->threads);
    }
  g_array_unref (self->procs);
  g_hash_table_unref (self->interned_index);
  g_ptr_array_unref (self->interned);
  g_ptr_array_unref (self->module_paths);
  g_ptr_array_unref (self->module_ids);
  g_hash_table_unref (self->module_index);
  g_free (self);
}

static Proc *
proc_for (MgStackBuilder *self, guint process)
{
  for (guint i = 0; i < self->procs->len; i++)
    if (g_array_index (self->procs, Proc, i).process == process)
      return &g_array_index (self->procs, Proc, i);
  Proc p = { .process = process,
             .stacks = g_array_new (FALSE, FALSE, sizeof (guint32)),
             .threads = g_array_new (FALSE, FALSE, sizeof (Thread)) };
  g_array_append_val (self->procs, p);
  return &g_array_index (self->procs, Proc, self->procs->len - 1);
}

/* The record's named threads into p: one entry per ordinal, the last
 * record's (a later image's, or a later read of a live one) winning. */
static void
add_threads (Proc *p, MgRecordStacks *s)
{
  const MgRecordThread *named = mg_record_stacks_threads (s);
  for (guint i = 0; named != NULL && i < s->n_thread_names; i++)
    {
      Thread t = { named[i].ordinal, named[i].tid, { 0 } };
      /* Bounded: a damaged record's name may lack its NUL. */
      memcpy (t.name, named[i].name, strnlen (named[i].name, sizeof t.name - 1));
      guint k = 0;
      while (k < p->threads->len && g_array_index (p->threads, Thread, k).ordinal != t.ordinal)
        k++;
      if (k < p->threads->len)
        g_array_index (p->threads, Thread, k) = t;
      else
        g_array_append_val (p->threads, t);
    }
}

/* The profile's index of a record's module: one entry per path and
 * build-id across the run. */
static guint32
module_index (MgStackBuilder *self, const MgRecordModule *m)
{
  GString *key = g_string_new (m->path);
  g_string_append_c (key, '\n');
  for (guint i = 0; i < m->build_id_len; i++)
    g_string_append_printf (key, "%02x", m->build_id[i]);
  gpointer found = g_hash_table_lookup (self->module_index, key->str);
  if (found != NULL)
    {
      g_string_free (key, TRUE);
      return GPOINTER_TO_UINT (found) - 1;
    }
  guint32 index = self->module_paths->len;
  g_ptr_array_add (self->module_paths, g_strdup (m->path));
  g_ptr_array_add (self->module_ids, g_bytes_new (m->build_id, m->build_id_len));
  g_hash_table_insert (self->module_index, g_string_free (key, FALSE),
                       GUINT_TO_POINTER (index + 1));
  return index;
}

/* Whether a and b, mapped over the same addresses, hold the same code: the
 * same build-id (or, without one, the same file) at the same load bias. */
static gboolean
same_code (const MgRecordModule *a, const MgRecordModule *b)
{
  if (a->load_bias != b->load_bias || a->build_id_len != b->build_id_len
      || memcmp (a->build_id, b->build_id, a->build_id_len) != 0)
    return FALSE;
  return a->build_id_len > 0 || strncmp (a->path, b->path, sizeof a->path) == 0;
}

/* Whether two of the record's modules that hold different code were
 * mapped over the same addresses: one was unloaded and another loaded in
 * its place (a plugin's dlclose, then a dlopen). The record does not say
 * which one a pc was sampled in. */
static gboolean
modules_overlap (const MgRecordModule *mods, guint n)
{
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (mods[i].start < mods[j].end && mods[j].start < mods[i].end && !same_code (&mods[i], &mods[j]))
        return TRUE;
  return FALSE;
}

/* The record module holding pc, or -1: outside every module, or, where
 * modules overlap, in two that hold different code (the first one's names
 * would be wrong for a pc of the second: unnamed is right). A return
 * address is looked up one byte back: a call that ends its function
 * returns past the function's end. */
static int
record_module_at (const MgRecordModule *mods, guint n, gboolean overlap, guint64 pc)
{
  int found = -1;
  for (guint i = 0; i < n; i++)
    if (pc >= mods[i].start && pc < mods[i].end)
      {
        if (!overlap)
          return (int) i;
        if (found < 0)
          found = (int) i;
        else if (!same_code (&mods[found], &mods[i]))
          return -1;
      }
  return found;
}

/* FNV-1a over a stack's frames and flags. */
static guint
rows_hash (const FrameRow *rows, guint n, guint32 flags)
{
  guint64 h = 14695981039346656037ULL ^ flags;
  for (guint f = 0; f < n; f++)
    {
      h = (h ^ rows[f].module) * 1099511628211ULL;
      h = (h ^ rows[f].vaddr) * 1099511628211ULL;
    }
  return (guint) (h ^ (h >> 32));
}

/* The run's index of a stack, added when new. */
static guint32
intern (MgStackBuilder *self, const FrameRow *rows, guint n, guint32 flags)
{
  Interned probe = { NULL, rows, n, flags, rows_hash (rows, n, flags) };
  gpointer found = g_hash_table_lookup (self->interned_index, &probe);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  Interned *e = g_new (Interned, 1);
  *e = probe;
  GVariant *frames = g_variant_new_fixed_array (G_VARIANT_TYPE ("(ut)"), rows, n,
                                                sizeof (FrameRow));
  e->stack = g_variant_ref_sink (g_variant_new ("(@a(ut)u)", frames, flags));
  /* Serialised now, once: one buffer instead of a tree of three, and the
   * frames, of fixed size, lie back to back at its start. */
  e->rows = g_variant_get_data (e->stack);
  g_ptr_array_add (self->interned, e);
  g_hash_table_insert (self->interned_index, e, GUINT_TO_POINTER (self->interned->len));
  return self->interned->len - 1;
}

/* The run's index of a record's stack e. */
static guint32
intern_record_stack (MgStackBuilder *self, MgRecordStacks *s, const MgRecordStack *e,
                     const guint32 *profile_module, gboolean overlap)
{
  const guint64 *pcs = mg_record_stacks_pool (s) + e->frame_offset;
  const MgRecordModule *mods = mg_record_stacks_modules (s);
  FrameRow rows[MG_RECORD_STACK_MAX_FRAMES];
  for (guint f = 0; f < e->n_frames; f++)
    {
      guint64 pc = pcs[f];
      int m = record_module_at (mods, s->n_modules, overlap, f > 0 && pc > 0 ? pc - 1 : pc);
      if (m < 0)
        rows[f] = (FrameRow) { MG_STACK_MODULE_UNKNOWN, 0, pc };
      else
        rows[f] = (FrameRow) { profile_module[m], 0, pc - mods[m].load_bias };
    }
  guint32 flags = e->flags & (MG_RECORD_STACK_TRUNCATED | MG_RECORD_STACK_UNKNOWN
                               | MG_RECORD_STACK_MPI);
  int thread = mg_record_stack_thread (e->flags);
  if (thread >= 0)
    flags |= (guint32) (thread + 1) << MG_STACK_THREAD_SHIFT;
  return intern (self, rows, e->n_frames, flags);
}

void
mg_stack_builder_add_record (MgStackBuilder *self, guint process, const MgRecordFile *r,
                             gint64 base_ns)
{
  mg_stack_builder_add_record_times (self, process, r, base_ns, NULL, 0);
}

/* Slot k's times when it holds counts that are stored here; FALSE if not. */
static gboolean
slot_times (const MgRecordFile *r, guint k, const gint64 *times, guint n_times,
            gint64 *t_start, gint64 *t_end)
{
  if (mg_record_stacks_slot (r->stacks, k)->n_pairs == 0)
    return FALSE;
  if (k < r->first)
    {
      if (k >= n_times)
        return FALSE;  /* not read before: not stored here */
      *t_start = times[2 * k], *t_end = times[2 * k + 1];
      return TRUE;
    }
  const MgRecordSample *sample = mg_record_file_get_sample (r, k - r->first);
  *t_start = sample->t_start_ns, *t_end = sample->t_end_ns;
  return TRUE;
}

void
mg_stack_builder_add_record_times (MgStackBuilder *self, guint process, const MgRecordFile *r,
                                   gint64 base_ns, const gint64 *times, guint n_times)
{
  MgRecordStacks *s = r->stacks;
  g_return_if_fail (!self->ended);
  if (s == NULL)
    {
      /* Room for stacks that the disk could not give: said, as a failure. */
      if (r->header.flags & MG_RECORD_FLAG_STACKS_NO_ROOM)
        proc_for (self, process)->state = MG_RECORD_STACKS_FAILED;
      return;
    }
  Proc *p = proc_for (self, process);
  add_threads (p, s);
  g_autofree guint32 *profile_module = g_new (guint32, MAX (s->n_modules, 1));
  for (guint i = 0; i < s->n_modules; i++)
    profile_module[i] = module_index (self, &mg_record_stacks_modules (s)[i]);
  gboolean overlap = modules_overlap (mg_record_stacks_modules (s), s->n_modules);

  /* Record stack id → the process's stack index (ready stacks only). */
  g_autofree guint32 *local = g_new (guint32, MAX (s->n_stacks, 1));
  const MgRecordStack *entries = mg_record_stacks_entries (s);
  for (guint id = 0; id < s->n_stacks; id++)
    {
      local[id] = G_MAXUINT32;
      if (!(entries[id].flags & MG_RECORD_STACK_READY))
        continue;
      local[id] = p->stacks->len;
      guint32 index = intern_record_stack (self, s, &entries[id], profile_module, overlap);
      g_array_append_val (p->stacks, index);
    }

  /* The slots before the first read: their times from the reads before. */
  guint from = times != NULL ? 0 : r->first;
  guint end_k = r->first + r->n_samples;
  gsize n_windows = p->n_windows, n_counts = p->n_counts;
  gint64 t_start, t_end;
  for (guint k = from; k < end_k; k++)
    if (slot_times (r, k, times, n_times, &t_start, &t_end))
      {
        n_windows++;
        n_counts += mg_record_stacks_slot (s, k)->n_pairs;
      }
  p->starts = g_renew (double, p->starts, n_windows);
  p->ends = g_renew (double, p->ends, n_windows);
  p->counts = g_renew (Count, p->counts, n_counts);

  guint64 stored = 0;
  for (guint k = from; k < end_k; k++)
    {
      if (!slot_times (r, k, times, n_times, &t_start, &t_end))
        continue;
      guint32 window = (guint32) p->n_windows++;
      p->starts[window] = (double) (t_start - base_ns) / 1e9;
      p->ends[window] = (double) (t_end - base_ns) / 1e9;
      MgRecordStackSlot *slot = mg_record_stacks_slot (s, k);
      const MgRecordStackCount *pairs = mg_record_stacks_slot_pairs (slot);
      for (guint i = 0; i < slot->n_pairs; i++)
        {
          p->counts[p->n_counts++] = (Count) { window, local[pairs[i].stack], pairs[i].count };
          stored += pairs[i].count;
        }
    }
  p->taken += s->n_taken;
  /* What was taken but is in no slot: the table or a slot was full, or
   * the sample came after the last round. */
  p->lost += s->n_taken > stored ? s->n_taken - stored : 0;
  if (s->state != MG_RECORD_STACKS_ON || p->state == 0)
    p->state = s->state;
}

/* A fixed array of the member that takes *data (size bytes) as it is. */
static GVariant *
take_array (const char *type, gpointer *data, gsize size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_take (g_steal_pointer (data), size);
  return g_variant_new_from_bytes (G_VARIANT_TYPE (type), bytes, TRUE);
}

GVariant *
mg_stack_builder_end (MgStackBuilder *self)
{
  GVariantBuilder modules, procs;
  g_return_val_if_fail (!self->ended, NULL);
  self->ended = TRUE;
  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  for (guint i = 0; i < self->module_paths->len; i++)
    {
      GBytes *id = g_ptr_array_index (self->module_ids, i);
      gsize len;
      const void *data = g_bytes_get_data (id, &len);
      g_variant_builder_add (&modules, "(@ay@ay)",
                             g_variant_new_bytestring (g_ptr_array_index (self->module_paths, i)),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, len, 1));
    }
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  for (guint i = 0; i < self->procs->len; i++)
    {
      Proc *p = &g_array_index (self->procs, Proc, i);
      GVariantBuilder stacks;
      g_variant_builder_init (&stacks, G_VARIANT_TYPE ("a(a(ut)u)"));
      /* The run's stack, shared by every process that has it. */
      for (guint k = 0; k < p->stacks->len; k++)
        {
          guint32 index = g_array_index (p->stacks, guint32, k);
          g_variant_builder_add_value (&stacks,
                                       ((Interned *) g_ptr_array_index (self->interned,
                                                                        index))->stack);
        }
      gsize n_windows = p->n_windows, n_counts = p->n_counts;
      p->n_windows = p->n_counts = 0;
      g_variant_builder_add (&procs, "(ittu@a(a(ut)u)@ad@ad@a(uuu))", (gint32) p->process,
                             p->taken, p->lost, p->state, g_variant_builder_end (&stacks),
                             take_array ("ad", (gpointer *) &p->starts,
                                         n_windows * sizeof (double)),
                             take_array ("ad", (gpointer *) &p->ends,
                                         n_windows * sizeof (double)),
                             take_array ("a(uuu)", (gpointer *) &p->counts,
                                         n_counts * sizeof (Count)));
    }
  return g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                            g_variant_builder_end (&modules),
                                            g_variant_builder_end (&procs)));
}

GVariant *
mg_stack_builder_end_threads (MgStackBuilder *self)
{
  GVariantBuilder threads;
  g_variant_builder_init (&threads, G_VARIANT_TYPE (MG_PAYLOAD_THREADS_TYPE));
  for (guint i = 0; i < self->procs->len; i++)
    {
      Proc *p = &g_array_index (self->procs, Proc, i);
      for (guint k = 0; k < p->threads->len; k++)
        {
          const Thread *t = &g_array_index (p->threads, Thread, k);
          g_variant_builder_add (&threads, "(iui^ay)", (gint32) p->process, t->ordinal, t->tid,
                                 t->name);
        }
    }
  return g_variant_ref_sink (g_variant_builder_end (&threads));
}

void
mg_stack_builder_finish_profile (MgStackBuilder *self, MgProfile *profile)
{
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = mg_stack_builder_end (self);
  g_autoptr (GVariant) threads = mg_stack_builder_end_threads (self);
  /* The builder's processes are the profile's. */
  if (!mg_profile_set_threads (profile, threads))
    g_warn_if_reached ();
}

GVariant *
mg_stack_payload_empty (void)
{
  g_autoptr (MgStackBuilder) b = mg_stack_builder_new ();
  return mg_stack_builder_end (b);
}
