/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The names and source text a profile carries (mg-profile-code.h): the
 * member MG_PAYLOAD_CODE_TYPE, made at the end of a run, and its indexes
 * for the namer and the Source view. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "mg-profile-code.h"
#include "mg-profile-internal.h"
#include "mg-profile-layout.h"
#include "mg-stack-set.h"

/* A frame's key: (module index, looked-up address). */
typedef struct {
  guint32 module;
  guint64 vaddr;
} CodeKey;

struct _MgProfileCodeIndex {
  GHashTable *names;   /* CodeKey → index + 1 into the member's names */
  GHashTable *modules; /* GBytes of (path NUL build-id) → module index + 1 */
  GHashTable *sources; /* path → index + 1 into the member's sources */
  GVariant *names_v, *sources_v, *omitted_v;
  gsize sources_size;
};

static guint
code_key_hash (gconstpointer p)
{
  const CodeKey *k = p;
  return g_int64_hash (&k->vaddr) ^ (k->module * 0x9e3779b1u);
}

static gboolean
code_key_equal (gconstpointer a, gconstpointer b)
{
  const CodeKey *x = a, *y = b;
  return x->module == y->module && x->vaddr == y->vaddr;
}

static GBytes *
module_key (const char *path, const guint8 *build_id, gsize build_id_len)
{
  gsize len = strlen (path) + 1;
  guint8 *key = g_malloc (len + build_id_len);

  memcpy (key, path, len);
  if (build_id_len > 0)
    memcpy (key + len, build_id, build_id_len);
  return g_bytes_new_take (key, len + build_id_len);
}

void
mg_profile_code_index_free (MgProfileCodeIndex *index)
{
  if (index == NULL)
    return;
  g_hash_table_unref (index->names);
  g_hash_table_unref (index->modules);
  g_hash_table_unref (index->sources);
  g_clear_pointer (&index->names_v, g_variant_unref);
  g_clear_pointer (&index->sources_v, g_variant_unref);
  g_clear_pointer (&index->omitted_v, g_variant_unref);
  g_free (index);
}

/* A name member ("ay" ending with its one NUL), or NULL. */
static const char *
name_of (GVariant *v)
{
  gsize len;
  const char *s = g_variant_get_fixed_array (v, &len, 1);

  if (len == 0 || s[len - 1] != '\0' || memchr (s, '\0', len - 1) != NULL)
    return NULL;
  return s;
}

/* The indexes of the profile's code member over the stacks' modules (set
 * first), or NULL when an index in it is out of range or a name is not a
 * name. */
MgProfileCodeIndex *
mg_profile_code_index_new (GVariant *code, GVariant *modules)
{
  guint n_modules = (guint) g_variant_n_children (modules);
  MgProfileCodeIndex *index = g_new0 (MgProfileCodeIndex, 1);

  index->names = g_hash_table_new_full (code_key_hash, code_key_equal, g_free, NULL);
  index->modules = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                          (GDestroyNotify) g_bytes_unref, NULL);
  index->sources = g_hash_table_new (g_str_hash, g_str_equal);
  index->names_v = g_variant_get_child_value (code, 0);
  index->sources_v = g_variant_get_child_value (code, 1);
  index->omitted_v = g_variant_get_child_value (code, 2);

  for (guint m = 0; m < n_modules; m++)
    {
      g_autoptr (GVariant) path_v = NULL, id_v = NULL;
      gsize id_len;

      g_variant_get_child (modules, m, "(@ay@ay)", &path_v, &id_v);
      const guint8 *id = g_variant_get_fixed_array (id_v, &id_len, 1);
      const char *path = name_of (path_v);
      if (path != NULL)
        g_hash_table_replace (index->modules, module_key (path, id, id_len),
                              GUINT_TO_POINTER (m + 1));
    }
  for (gsize i = 0; i < g_variant_n_children (index->names_v); i++)
    {
      g_autoptr (GVariant) entry = g_variant_get_child_value (index->names_v, i);
      g_autoptr (GVariant) chain = g_variant_get_child_value (entry, 2);
      CodeKey *key = g_new (CodeKey, 1);

      g_variant_get_child (entry, 0, "u", &key->module);
      g_variant_get_child (entry, 1, "t", &key->vaddr);
      g_hash_table_replace (index->names, key, GUINT_TO_POINTER (i + 1));
      if (key->module >= n_modules || i >= G_MAXUINT - 1)
        goto corrupt;
      for (gsize j = 0; j < g_variant_n_children (chain); j++)
        {
          g_autoptr (GVariant) name = g_variant_get_child_value (chain, j);
          g_autoptr (GVariant) file = g_variant_get_child_value (name, 1);
          if (name_of (file) == NULL)
            goto corrupt;
        }
    }
  for (gsize i = 0; i < g_variant_n_children (index->sources_v); i++)
    {
      g_autoptr (GVariant) entry = g_variant_get_child_value (index->sources_v, i);
      g_autoptr (GVariant) path_v = g_variant_get_child_value (entry, 0);
      g_autoptr (GVariant) text_v = g_variant_get_child_value (entry, 1);
      const char *path = name_of (path_v);

      if (path == NULL || i >= G_MAXUINT - 1)
        goto corrupt;
      /* The path points into the member, which the index holds. */
      g_hash_table_replace (index->sources, (gpointer) path, GUINT_TO_POINTER (i + 1));
      index->sources_size += g_variant_get_size (text_v);
    }
  for (gsize i = 0; i < g_variant_n_children (index->omitted_v); i++)
    {
      g_autoptr (GVariant) entry = g_variant_get_child_value (index->omitted_v, i);
      g_autoptr (GVariant) path_v = g_variant_get_child_value (entry, 0);
      if (name_of (path_v) == NULL)
        goto corrupt;
    }
  return index;

corrupt:
  mg_profile_code_index_free (index);
  return NULL;
}

GVariant *
mg_profile_code_empty (void)
{
  return g_variant_ref_sink (g_variant_new_parsed ("@" MG_PAYLOAD_CODE_TYPE " ([], [], [], 0)"));
}

void
mg_code_source_free (MgCodeSource *source)
{
  g_free (source->path);
  g_clear_pointer (&source->text, g_bytes_unref);
  g_free (source);
}

void
mg_code_omission_free (MgCodeOmission *omission)
{
  g_free (omission->path);
  g_free (omission->reason);
  g_free (omission);
}

/* ---- storing ------------------------------------------------------------ */

typedef struct {
  GVariantBuilder names;
  GHashTable *seen;            /* CodeKey → GPtrArray of MgStackFrameName (NULL: unnamed) */
  GHashTable *file_samples;    /* file → guint64 * */
} Store;

static GVariant *
name_bytes (const char *s)
{
  return g_variant_new_bytestring (s != NULL ? s : "");
}

/* The names of one frame, through namer once per (module, address). */
static GPtrArray *
frame_names (Store *st, const MgStackSet *set, const MgStackFrame *frame, gboolean leaf,
             const MgStackNamer *namer)
{
  CodeKey key = { frame->module, leaf || frame->vaddr == 0 ? frame->vaddr : frame->vaddr - 1 };
  gpointer found;

  if (g_hash_table_lookup_extended (st->seen, &key, NULL, &found))
    return found;
  const MgStackModule *module = mg_stack_set_get_module (set, frame->module);
  g_autoptr (GPtrArray) names =
    g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  GPtrArray *kept = NULL;

  if (!mg_stack_set_module_replaced (set, frame->module)
      && namer->func (namer->data, module->path, module->build_id, module->build_id_len, key.vaddr,
                      names)
      && names->len > 0)
    {
      GVariantBuilder chain;

      g_variant_builder_init (&chain, G_VARIANT_TYPE ("a(sayu)"));
      for (guint i = 0; i < names->len; i++)
        {
          const MgStackFrameName *n = g_ptr_array_index (names, i);
          g_autofree char *function = g_utf8_make_valid (n->function != NULL ? n->function
                                                                            : n->label, -1);
          g_variant_builder_add (&chain, "(s@ayu)", function, name_bytes (n->file),
                                 (guint32) n->line);
        }
      g_variant_builder_add (&st->names, "(ut@a(sayu))", key.module, key.vaddr,
                             g_variant_builder_end (&chain));
      kept = g_steal_pointer (&names);
    }
  g_hash_table_insert (st->seen, g_memdup2 (&key, sizeof key), kept);
  return kept;
}

static void
count_file (Store *st, const char *file, guint64 count)
{
  guint64 *n = g_hash_table_lookup (st->file_samples, file);

  if (n == NULL)
    {
      n = g_new0 (guint64, 1);
      g_hash_table_insert (st->file_samples, g_strdup (file), n);
    }
  *n += count;
}

static void
name_stacks (Store *st, const MgStackSet *set, const MgStackNamer *namer)
{
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n_frames, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n_frames, &flags);
      guint64 count = mg_stack_set_get_count (set, s);

      for (guint f = 0; f < n_frames; f++)
        {
          if (frames[f].module == MG_STACK_MODULE_UNKNOWN)
            continue;
          GPtrArray *names = frame_names (st, set, &frames[f], f == 0, namer);
          for (guint i = 0; names != NULL && i < names->len; i++)
            {
              const MgStackFrameName *n = g_ptr_array_index (names, i);
              if (n->file != NULL && n->file[0] != '\0')
                count_file (st, n->file, count);
            }
        }
    }
}

static GVariant *
collect_sources (Store *st, const MgSourceCollector *sources, gsize limit, GVariant **omitted)
{
  guint n = g_hash_table_size (st->file_samples);
  g_autofree const char **files = g_new0 (const char *, n + 1);
  g_autofree guint64 *samples = g_new0 (guint64, n + 1);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_code_source_free);
  g_autoptr (GPtrArray) left = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_code_omission_free);
  GHashTableIter iter;
  gpointer k, v;
  GVariantBuilder tb, ob;
  guint i = 0;

  g_hash_table_iter_init (&iter, st->file_samples);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      files[i] = k;
      samples[i++] = *(guint64 *) v;
    }
  if (sources != NULL && n > 0)
    sources->func (sources->data, files, samples, n, limit, texts, left);
  g_variant_builder_init (&tb, G_VARIANT_TYPE ("a(ayay)"));
  for (i = 0; i < texts->len; i++)
    {
      const MgCodeSource *t = g_ptr_array_index (texts, i);
      gsize len;
      gconstpointer data = g_bytes_get_data (t->text, &len);
      g_variant_builder_add (&tb, "(@ay@ay)", name_bytes (t->path),
                             g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, len, 1));
    }
  g_variant_builder_init (&ob, G_VARIANT_TYPE ("a(ays)"));
  for (i = 0; i < left->len; i++)
    {
      const MgCodeOmission *o = g_ptr_array_index (left, i);
      g_autofree char *reason = g_utf8_make_valid (o->reason, -1);
      g_variant_builder_add (&ob, "(@ays)", name_bytes (o->path), reason);
    }
  *omitted = g_variant_builder_end (&ob);
  return g_variant_builder_end (&tb);
}

static void
free_names (gpointer p)
{
  if (p != NULL)
    g_ptr_array_unref (p);
}

void
mg_profile_store_code (MgProfile *profile, const MgStackNamer *namer,
                       const MgSourceCollector *sources, gsize source_limit)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  Store st = { 0 };
  GVariant *texts, *omitted;

  g_return_if_fail (namer != NULL && namer->func != NULL);
  g_variant_builder_init (&st.names, G_VARIANT_TYPE ("a(uta(sayu))"));
  st.seen = g_hash_table_new_full (code_key_hash, code_key_equal, g_free, free_names);
  st.file_samples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  name_stacks (&st, set, namer);
  texts = collect_sources (&st, sources, source_limit, &omitted);
  g_autoptr (GVariant) code = g_variant_ref_sink (
    g_variant_new ("(@a(uta(sayu))@a(ayay)@a(ays)t)", g_variant_builder_end (&st.names), texts,
                   omitted, (guint64) (sources != NULL ? source_limit : 0)));
  g_hash_table_unref (st.seen);
  g_hash_table_unref (st.file_samples);
  mg_profile_set_code (profile, code);
}

/* Takes a code member (checked) and its index. FALSE: the member is
 * damaged, and the profile keeps what it had. */
gboolean
mg_profile_set_code (MgProfile *self, GVariant *code)
{
  g_autoptr (GVariant) modules = mg_profile_dup_stack_modules (self);
  MgProfileCodeIndex *index = mg_profile_code_index_new (code, modules);

  if (index == NULL)
    return FALSE;
  g_clear_pointer (&self->code, g_variant_unref);
  self->code = g_variant_ref (code);
  g_clear_pointer (&self->code_index, mg_profile_code_index_free);
  self->code_index = index;
  return TRUE;
}

/* ---- reading ------------------------------------------------------------ */

gboolean
mg_profile_name_stored_frame (MgProfile *profile, guint32 module, guint64 lookup_vaddr,
                              GPtrArray *names)
{
  MgProfileCodeIndex *index = profile->code_index;
  CodeKey key = { module, lookup_vaddr };
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (index->names, &key));
  if (i == 0)
    return FALSE;
  g_autoptr (GVariant) entry = g_variant_get_child_value (index->names_v, i - 1);
  g_autoptr (GVariant) chain = g_variant_get_child_value (entry, 2);
  for (gsize j = 0; j < g_variant_n_children (chain); j++)
    {
      MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
      g_autoptr (GVariant) file = NULL;

      g_variant_get_child (chain, j, "(s@ayu)", &n->function, &file, &n->line);
      const char *f = g_variant_get_bytestring (file);
      n->file = f[0] != '\0' ? g_strdup (f) : NULL;
      n->label = g_strdup (n->function);
      g_ptr_array_add (names, n);
    }
  return TRUE;
}

static gboolean
stored_name (gpointer data, const char *module_path, const guint8 *build_id, gsize build_id_len,
             guint64 vaddr, GPtrArray *names)
{
  MgProfile *profile = data;
  g_autoptr (GBytes) mkey = module_key (module_path, build_id, build_id_len);
  guint module = GPOINTER_TO_UINT (g_hash_table_lookup (profile->code_index->modules, mkey));

  return module != 0 && mg_profile_name_stored_frame (profile, module - 1, vaddr, names);
}

gboolean
mg_profile_has_stored_names (MgProfile *profile)
{
  return g_variant_n_children (profile->code_index->names_v) > 0;
}

MgStackNamer
mg_profile_get_stored_namer (MgProfile *profile)
{
  return (MgStackNamer) { stored_name, profile };
}

GBytes *
mg_profile_get_source_text (MgProfile *profile, const char *file)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile) && file != NULL, NULL);
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (profile->code_index->sources, file));
  if (i == 0)
    return NULL;
  g_autoptr (GVariant) entry = g_variant_get_child_value (profile->code_index->sources_v, i - 1);
  g_autoptr (GVariant) text = g_variant_get_child_value (entry, 1);
  return g_variant_get_data_as_bytes (text);
}

guint
mg_profile_get_n_sources (MgProfile *profile)
{
  return (guint) g_variant_n_children (profile->code_index->sources_v);
}

const char *
mg_profile_get_source_path (MgProfile *profile, guint index)
{
  g_autoptr (GVariant) entry = g_variant_get_child_value (profile->code_index->sources_v, index);
  g_autoptr (GVariant) path = g_variant_get_child_value (entry, 0);
  /* Points into the member, which the profile holds. */
  return g_variant_get_bytestring (path);
}

gsize
mg_profile_get_sources_size (MgProfile *profile)
{
  return profile->code_index->sources_size;
}

gsize
mg_profile_get_source_limit (MgProfile *profile)
{
  guint64 limit;

  g_variant_get_child (profile->code, 3, "t", &limit);
  return (gsize) limit;
}

guint
mg_profile_get_n_source_omissions (MgProfile *profile)
{
  return (guint) g_variant_n_children (profile->code_index->omitted_v);
}

const char *
mg_profile_get_source_omission (MgProfile *profile, guint index, const char **reason)
{
  g_autoptr (GVariant) entry = g_variant_get_child_value (profile->code_index->omitted_v, index);
  g_autoptr (GVariant) path = g_variant_get_child_value (entry, 0);
  g_autoptr (GVariant) why = g_variant_get_child_value (entry, 1);

  if (reason != NULL)
    *reason = g_variant_get_string (why, NULL);
  return g_variant_get_bytestring (path);
}
