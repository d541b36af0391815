/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-frame-namer.h"
#include "profile/mg-display-text.h"

typedef struct {
  guint64 vaddr;
  guint32 module;
} FrameKey;

/* ids[0 .. n) the functions, ids[n .. 2n) their lines (0: unknown, or in
 * another file than the function's first one, which the views show). */
typedef struct {
  guint n;
  guint ids[];
} FrameFunctions;

struct _MgFrameNamer {
  gatomicrefcount ref;
  GMutex lock;
  MgFrameNameFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
  GHashTable *frames;     /* FrameKey → FrameFunctions */
  GHashTable *by_name;    /* "name\nmodule" → MgCallFunction */
  GPtrArray *functions;   /* MgCallFunction, by id */
  GHashTable *other_files; /* id → GPtrArray of the files other addresses of it named */
};

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

static void
call_function_free (gpointer p)
{
  MgCallFunction *f = p;
  g_free (f->name);
  g_free (f->file);
  g_free (f->module);
  g_free (f);
}

MgFrameNamer *
mg_frame_namer_new (MgFrameNameFunc func, gpointer user_data, GDestroyNotify destroy)
{
  MgFrameNamer *self = g_new0 (MgFrameNamer, 1);

  g_atomic_ref_count_init (&self->ref);
  g_mutex_init (&self->lock);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  self->frames = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, g_free);
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->functions = g_ptr_array_new_with_free_func (call_function_free);
  self->other_files = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  return self;
}

MgFrameNamer *
mg_frame_namer_ref (MgFrameNamer *self)
{
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
mg_frame_namer_unref (MgFrameNamer *self)
{
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  if (self->destroy)
    self->destroy (self->user_data);
  g_hash_table_destroy (self->frames);
  g_hash_table_destroy (self->by_name);
  g_hash_table_destroy (self->other_files);
  g_ptr_array_unref (self->functions);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* A file named by an address of F other than its first one's (two
 * static functions of one name in one module), kept under the lock. */
static void
note_file (MgFrameNamer *self, const MgCallFunction *f, const char *file)
{
  GPtrArray *files;

  if (file == NULL || g_strcmp0 (f->file, file) == 0)
    return;
  files = g_hash_table_lookup (self->other_files, GUINT_TO_POINTER (f->id));
  if (files == NULL)
    {
      files = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->other_files, GUINT_TO_POINTER (f->id), files);
    }
  if (!g_ptr_array_find_with_equal_func (files, file, g_str_equal, NULL))
    g_ptr_array_add (files, g_strdup (file));
}

/* The id of (name, module), made on first sight with the file and line
 * of that first address. */
static guint
intern (MgFrameNamer *self, const char *name, const char *file, guint line, const char *module)
{
  g_autofree char *key = g_strconcat (name, "\n", module ? module : "", NULL);
  MgCallFunction *f = g_hash_table_lookup (self->by_name, key);

  /* Never changed once made: other threads read it without the lock. */
  if (f)
    {
      note_file (self, f, file);
      return f->id;
    }
  f = g_new0 (MgCallFunction, 1);
  /* Shown as the report and the exports show it (mg-display-text.h):
   * UTF-8, as cairo stops drawing at a string that is not (a module
   * called caf\xe9 naming unresolved frames), the rest of the flame graph
   * with it; control characters as escapes, which an SVG cannot hold. */
  f->name = mg_display_one_line (name);
  f->file = g_strdup (file);
  f->line = line;
  f->module = g_strdup (module);
  f->id = self->functions->len;
  g_ptr_array_add (self->functions, f);
  g_hash_table_insert (self->by_name, g_steal_pointer (&key), f);
  return f->id;
}

/* LOOKUP is where the frame is looked up (one byte back for a return
 * address); SHOWN is its own address, the one an unresolved frame is
 * named by, as the exports and the report name it (docs/export.md). */
static FrameFunctions *
name_frame (MgFrameNamer *self, const MgStackModule *module, guint64 lookup, guint64 shown)
{
  MgFrameNameEntry entries[MG_FRAME_NAMER_MAX_INLINE] = { 0 };
  guint n = self->func (module, lookup, entries, G_N_ELEMENTS (entries), self->user_data);
  const char *path = module ? module->path : NULL;

  n = MIN (n, G_N_ELEMENTS (entries));
  if (n == 0)
    {
      entries[0] = (MgFrameNameEntry) { 0 };
      n = 1;
    }
  FrameFunctions *ff = g_malloc (sizeof *ff + 2 * n * sizeof (guint));
  ff->n = n;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *fallback = NULL;
      const char *name = entries[i].name;
      if (!name)
        {
          g_autofree char *base = path ? g_path_get_basename (path) : NULL;
          fallback = base ? g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, shown)
                          : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", shown);
          name = fallback;
        }
      ff->ids[i] = intern (self, name, entries[i].file, entries[i].line,
                           entries[i].module ? entries[i].module : path);
      const MgCallFunction *f = g_ptr_array_index (self->functions, ff->ids[i]);
      ff->ids[n + i] = g_strcmp0 (f->file, entries[i].file) == 0 ? entries[i].line : 0;
    }
  return ff;
}

const guint *
mg_frame_namer_name_in (MgFrameNamer *self, const MgStackModule *module,
                        const MgStackFrame *frame, gboolean leaf, guint *n_functions)
{
  return mg_frame_namer_name_lines_in (self, module, frame, leaf, n_functions, NULL);
}

const guint *
mg_frame_namer_name_lines_in (MgFrameNamer *self, const MgStackModule *module,
                              const MgStackFrame *frame, gboolean leaf, guint *n_functions,
                              const guint **lines)
{
  /* A return address points after the call: its line is the call's
   * when looked up one byte earlier. That byte is inside the call
   * instruction, never an instruction's start as a leaf's address is, so
   * a key names one kind of frame only. */
  FrameKey key = { .vaddr = leaf || frame->vaddr == 0 ? frame->vaddr : frame->vaddr - 1,
                   .module = frame->module };
  FrameFunctions *ff;

  g_mutex_lock (&self->lock);
  ff = g_hash_table_lookup (self->frames, &key);
  if (!ff)
    {
      ff = name_frame (self, module, key.vaddr, frame->vaddr);
      g_hash_table_insert (self->frames, g_memdup2 (&key, sizeof key), ff);
    }
  g_mutex_unlock (&self->lock);
  *n_functions = ff->n;
  if (lines)
    *lines = ff->ids + ff->n;
  return ff->ids;
}

const guint *
mg_frame_namer_name (MgFrameNamer *self, const MgStackSet *set, const MgStackFrame *frame,
                     gboolean leaf, guint *n_functions)
{
  return mg_frame_namer_name_lines (self, set, frame, leaf, n_functions, NULL);
}

const guint *
mg_frame_namer_name_lines (MgFrameNamer *self, const MgStackSet *set, const MgStackFrame *frame,
                           gboolean leaf, guint *n_functions, const guint **lines)
{
  const MgStackModule *module = NULL;

  if (set && frame->module != MG_STACK_MODULE_UNKNOWN
      && frame->module < mg_stack_set_get_n_modules (set))
    module = mg_stack_set_get_module (set, frame->module);
  return mg_frame_namer_name_lines_in (self, module, frame, leaf, n_functions, lines);
}

const MgCallFunction *
mg_frame_namer_get_function (MgFrameNamer *self, guint id)
{
  const MgCallFunction *f = NULL;

  g_mutex_lock (&self->lock);
  if (id < self->functions->len)
    f = g_ptr_array_index (self->functions, id);
  g_mutex_unlock (&self->lock);
  return f;
}

guint
mg_frame_namer_get_n_functions (MgFrameNamer *self)
{
  g_mutex_lock (&self->lock);
  guint n = self->functions->len;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
mg_frame_namer_get_n_named (MgFrameNamer *self)
{
  g_mutex_lock (&self->lock);
  guint n = g_hash_table_size (self->frames);
  g_mutex_unlock (&self->lock);
  return n;
}

gboolean
mg_frame_namer_names_file (MgFrameNamer *self, guint id, const char *file)
{
  const MgCallFunction *f = mg_frame_namer_get_function (self, id);
  GPtrArray *files;
  gboolean found;

  if (f == NULL || file == NULL)
    return FALSE;
  if (g_strcmp0 (f->file, file) == 0)
    return TRUE;
  g_mutex_lock (&self->lock);
  files = g_hash_table_lookup (self->other_files, GUINT_TO_POINTER (id));
  found = files != NULL && g_ptr_array_find_with_equal_func (files, file, g_str_equal, NULL);
  g_mutex_unlock (&self->lock);
  return found;
}
