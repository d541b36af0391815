/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-symbolizer.h"

#include "symbols/mg-symbol-module-internal.h"

#include <glib/gi18n.h>
#include <string.h>

struct _MgSymbolizer {
  GObject parent_instance;
  char *debug_path;
  /* "path\nbuild-id hex" → MgSymbolModule, open or failed */
  GHashTable *modules;
  /* The process's modules named by the caller ("path\nbuild-id hex"),
   * searched for the library an interposed MPI function comes from. */
  GPtrArray *process_modules;
  /* "MPI_<name>" → the path of the module defining it ("" for none) */
  GHashTable *mpi_libraries;
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
  g_ptr_array_unref (self->process_modules);
  g_hash_table_unref (self->mpi_libraries);
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
  self->process_modules = g_ptr_array_new_with_free_func (g_free);
  self->mpi_libraries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
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
module_of_key (MgSymbolizer *self, const char *key)
{
  MgSymbolModule *module = g_hash_table_lookup (self->modules, key);

  if (module == NULL)
    {
      const char *newline = strchr (key, '\n');
      g_autofree char *path = g_strndup (key, (gsize) (newline - key));
      g_autoptr (GByteArray) id = g_byte_array_new ();

      for (const char *hex = newline + 1; g_ascii_isxdigit (hex[0]) && g_ascii_isxdigit (hex[1]);
           hex += 2)
        {
          guint8 byte = (guint8) (g_ascii_xdigit_value (hex[0]) << 4 | g_ascii_xdigit_value (hex[1]));
          g_byte_array_append (id, &byte, 1);
        }
      module = mg_symbol_module_open (path, id->data, id->len, self->debug_path);
      g_hash_table_insert (self->modules, g_strdup (key), module);
    }
  return module;
}

static MgSymbolModule *
lookup_module (MgSymbolizer *self, const char *path, const guint8 *build_id, gsize build_id_len)
{
  g_autofree char *key = module_key (path, build_id, build_id_len);

  return module_of_key (self, key);
}

void
mg_symbolizer_add_process_module (MgSymbolizer *self,
                                  const char *path,
                                  const guint8 *build_id,
                                  gsize build_id_len)
{
  g_return_if_fail (MG_IS_SYMBOLIZER (self));
  g_return_if_fail (path != NULL);
  g_autofree char *key = module_key (path, build_id, build_id_len);

  if (g_ptr_array_find_with_equal_func (self->process_modules, key, g_str_equal, NULL))
    return;
  g_ptr_array_add (self->process_modules, g_steal_pointer (&key));
  /* A library not found before may be this one. */
  g_hash_table_remove_all (self->mpi_libraries);
}

gboolean
mg_symbolizer_is_own_module (const char *module_path)
{
  g_autofree char *base = g_path_get_basename (module_path);

  return g_str_has_prefix (base, "libmetrograph-");
}

/* Only a module named like an MPI library (libmpi, libmpich,
 * libmpi_ibm…) is opened to look: reading every module's symbols could
 * ask a debuginfod server for each. */
static gboolean
might_be_mpi (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *lower = g_ascii_strdown (base, -1);

  return strstr (lower, "mpi") != NULL;
}

/* The path of the module that defines NAME ("MPI_<name>": its profiling
 * entry PMPI_<name> first, which only the MPI library has), among the
 * process's modules and those opened; NULL when none does. */
static const char *
mpi_library (MgSymbolizer *self, const char *name)
{
  g_autofree char *pname = g_strconcat ("P", name, NULL);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  const char *found = g_hash_table_lookup (self->mpi_libraries, name);
  GHashTableIter iter;
  gpointer key;

  if (found != NULL)
    return found[0] != '\0' ? found : NULL;
  for (guint i = 0; i < self->process_modules->len; i++)
    g_ptr_array_add (keys, g_strdup (self->process_modules->pdata[i]));
  g_hash_table_iter_init (&iter, self->modules);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  for (guint pass = 0; pass < 2 && found == NULL; pass++)
    for (guint i = 0; i < keys->len && found == NULL; i++)
      {
        const char *k = keys->pdata[i];
        g_autofree char *path = g_strndup (k, (gsize) (strchr (k, '\n') - k));

        if (!mg_symbolizer_is_own_module (path) && might_be_mpi (path)
            && mg_symbol_module_defines (module_of_key (self, k), pass == 0 ? pname : name))
          found = g_steal_pointer (&path);
      }
  g_hash_table_insert (self->mpi_libraries, g_strdup (name), found ? (char *) found : g_strdup (""));
  return found;
}

/* A frame of Metrograph's own libraries (the MPI wrapper, the sampler) as
 * the user knows it: the MPI function it interposes, in the MPI library
 * that implements it, without our source file and line, so that no
 * view, export or stored source shows our code in the user's profile. */
static void
present_own_frame (MgSymbolizer *self, GPtrArray *frames)
{
  MgSymbolFrame *outer = g_ptr_array_steal_index (frames, frames->len - 1);
  const char *library = NULL;

  g_ptr_array_set_size (frames, 0);
  g_clear_pointer (&outer->file, g_free);
  outer->line = 0;
  outer->column = 0;
  outer->inlined = FALSE;
  if (g_str_has_prefix (outer->function, "PMPI_"))
    {
      char *name = g_strdup (outer->function + 1);
      g_free (outer->function);
      outer->function = name;
    }
  if (g_str_has_prefix (outer->function, "MPI_"))
    {
      library = mpi_library (self, outer->function);
      g_free (outer->module);
      outer->module = g_strdup (library != NULL ? library : _("MPI library"));
    }
  g_ptr_array_add (frames, outer);
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
  else if (mg_symbolizer_is_own_module (module_path))
    present_own_frame (self, frames);
  return frames;
}
