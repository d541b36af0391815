/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-code-namer.h"

#include "profile/mg-profile-code.h"
#include "symbols/mg-symbolizer.h"

typedef struct {
  MgProfile *profile;
  MgSymbolizer *symbolizer;
  GPtrArray *last;       /* the symboliser's frames the last entries point into */
  GPtrArray *last_names; /* or the stored names (MgStackFrameName) they point into */
} CodeNamer;

static void
code_namer_free (gpointer data)
{
  CodeNamer *namer = data;
  g_clear_object (&namer->profile);
  g_clear_object (&namer->symbolizer);
  g_clear_pointer (&namer->last, g_ptr_array_unref);
  g_clear_pointer (&namer->last_names, g_ptr_array_unref);
  g_free (namer);
}

/* A chain deeper than max keeps its innermost part and the function that
 * holds it: the index of entry i of n out of len. */
static guint
chain_index (guint i, guint n, guint len)
{
  return i == n - 1 ? len - 1 : i;
}

/* The names the profile carries, resolved at the end of its run. */
static guint
name_stored (CodeNamer *namer, const MgStackModule *module, guint64 vaddr,
             MgFrameNameEntry *entries, guint max)
{
  MgStackNamer stored = mg_profile_get_stored_namer (namer->profile);
  guint n;

  g_ptr_array_set_size (namer->last_names, 0);
  if (!stored.func (stored.data, module->path, module->build_id, module->build_id_len, vaddr,
                    namer->last_names))
    return 0;
  n = MIN (namer->last_names->len, max);
  for (guint i = 0; i < n; i++)
    {
      const MgStackFrameName *f =
        g_ptr_array_index (namer->last_names, chain_index (i, n, namer->last_names->len));
      entries[i] = (MgFrameNameEntry) { f->function, f->file, f->line };
    }
  return n;
}

static guint
name_frame (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
            gpointer user_data)
{
  CodeNamer *namer = user_data;
  g_autoptr (GError) error = NULL;
  gboolean own;
  guint n;

  /* Outside every module: the address is all there is. */
  if (module == NULL)
    return 0;
  /* Our own libraries' frames are the symboliser's to present (an MPI
   * function in its MPI library); stored names carry no module. */
  own = mg_symbolizer_is_own_module (module->path);
  n = own ? 0 : name_stored (namer, module, vaddr, entries, max);
  if (n > 0)
    return n;
  g_clear_pointer (&namer->last, g_ptr_array_unref);
  /* On failure the one fallback frame has no function: named by offset. */
  namer->last = mg_symbolizer_resolve (namer->symbolizer, module->path, module->build_id,
                                       module->build_id_len, vaddr, &error);
  /* Our library is not on this machine: the names the run stored. */
  if (own && error != NULL)
    {
      n = name_stored (namer, module, vaddr, entries, max);
      if (n > 0)
        return n;
    }
  n = MIN (namer->last->len, max);
  for (guint i = 0; i < n; i++)
    {
      const MgSymbolFrame *f = g_ptr_array_index (namer->last, chain_index (i, n, namer->last->len));
      entries[i] = (MgFrameNameEntry) { f->function, f->file, f->line,
                                        g_strcmp0 (f->module, module->path) != 0 ? f->module
                                                                                  : NULL };
    }
  return n;
}

/* The profile's modules, where the symboliser finds the MPI library of
 * an MPI function our wrapper interposed. */
static void
add_process_modules (MgSymbolizer *symbolizer, MgProfile *profile)
{
  /* The module table alone: the window makes this namer when it opens a
   * profile, which must not decode its stacks. */
  for (guint m = 0; m < mg_profile_get_n_stack_modules (profile); m++)
    {
      MgStackModule module;

      mg_profile_get_stack_module (profile, m, &module);
      mg_symbolizer_add_process_module (symbolizer, module.path, module.build_id,
                                        module.build_id_len);
    }
}

MgFrameNamer *
mg_code_namer_new_for (MgProfile *profile, MgSymbolizer *symbolizer)
{
  CodeNamer *namer = g_new0 (CodeNamer, 1);

  namer->profile = g_object_ref (profile);
  namer->symbolizer = g_object_ref (symbolizer);
  add_process_modules (symbolizer, profile);
  namer->last_names = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  return mg_frame_namer_new (name_frame, namer, code_namer_free);
}

MgFrameNamer *
mg_code_namer_new (MgProfile *profile)
{
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  return mg_code_namer_new_for (profile, symbolizer);
}
