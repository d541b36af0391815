/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-symbolizer.h"

#include "symbols/mg-symbol-module-internal.h"

struct _MgSymbolizer {
  GObject parent_instance;
  char *debug_path;
  /* "path\nbuild-id hex" → MgSymbolModule, open or failed */
  GHashTable *modules;
};

G_DEFINE_TYPE (MgSymbolizer, mg_symbolizer, G_TYPE_OBJECT)

G_DEFINE_QUARK (mg-symbols-error-quark, mg_symbols_error)

enum {
  PROP_0,
  PROP_DEBUG_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
mg_symbolizer_finalize (GObject *object)
{
  MgSymbolizer *self = MG_SYMBOLIZER (object);

  g_hash_table_unref (self->modules);
  g_free (self->debug_path);
  G_OBJECT_CLASS (mg_symbolizer_parent_class)->finalize (object);
}

static void
mg_symbolizer_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgSymbolizer *self = MG_SYMBOLIZER (object);

  switch (prop_id)
    {
    case PROP_DEBUG_PATH:
      g_value_set_string (value, self->debug_path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_symbolizer_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  MgSymbolizer *self = MG_SYMBOLIZER (object);

  switch (prop_id)
    {
    case PROP_DEBUG_PATH:
      mg_symbolizer_set_debug_path (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_symbolizer_class_init (MgSymbolizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mg_symbolizer_finalize;
  object_class->get_property = mg_symbolizer_get_property;
  object_class->set_property = mg_symbolizer_set_property;
  properties[PROP_DEBUG_PATH] =
    g_param_spec_string ("debug-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mg_symbolizer_init (MgSymbolizer *self)
{
  self->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) mg_symbol_module_free);
}

MgSymbolizer *
mg_symbolizer_new (void)
{
  return g_object_new (MG_TYPE_SYMBOLIZER, NULL);
}

void
mg_symbolizer_set_debug_path (MgSymbolizer *self, const char *debug_path)
{
  g_return_if_fail (MG_IS_SYMBOLIZER (self));
  if (g_strcmp0 (self->debug_path, debug_path) == 0)
    return;
  g_free (self->debug_path);
  self->debug_path = g_strdup (debug_path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEBUG_PATH]);
}

const char *
mg_symbolizer_get_debug_path (MgSymbolizer *self)
{
  g_return_val_if_fail (MG_IS_SYMBOLIZER (self), NULL);
  return self->debug_path;
}

guint
mg_symbolizer_get_n_modules (MgSymbolizer *self)
{
  g_return_val_if_fail (MG_IS_SYMBOLIZER (self), 0);
  return g_hash_table_size (self->modules);
}

static char *
module_key (const char *path, const guint8 *build_id, gsize build_id_len)
{
  GString *key = g_string_new (path);

  g_string_append_c (key, '\n');
  for (gsize i = 0; i < build_id_len; i++)
    g_string_append_printf (key, "%02x", build_id[i]);
  return g_string_free (key, FALSE);
}

static MgSymbolModule *
lookup_module (MgSymbolizer *self, const char *path, const guint8 *build_id, gsize build_id_len)
{
  g_autofree char *key = module_key (path, build_id, build_id_len);
  MgSymbolModule *module = g_hash_table_lookup (self->modules, key);

  if (module == NULL)
    {
      module = mg_symbol_module_open (path, build_id, build_id_len, self->debug_path);
      g_hash_table_insert (self->modules, g_steal_pointer (&key), module);
    }
  return module;
}

GPtrArray *
mg_symbolizer_resolve (MgSymbolizer *self,
                       const char *module_path,
                       const guint8 *build_id,
                       gsize build_id_len,
                       guint64 vaddr,
                       GError **error)
{
  GPtrArray *frames;
  MgSymbolModule *module;

  g_return_val_if_fail (MG_IS_SYMBOLIZER (self), NULL);
  g_return_val_if_fail (module_path != NULL, NULL);
  g_return_val_if_fail (build_id != NULL || build_id_len == 0, NULL);

  frames = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_symbol_frame_free);
  module = lookup_module (self, module_path, build_id, build_id_len);
  if (!mg_symbol_module_resolve (module, vaddr, frames, error))
    g_ptr_array_add (frames, mg_symbol_frame_new (module_path, vaddr));
  return frames;
}
