/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-code-namer.h"

#include "symbols/mg-symbolizer.h"

typedef struct {
  MgSymbolizer *symbolizer;
  GPtrArray *last;  /* the frames the last entries point into */
} CodeNamer;

static void
code_namer_free (gpointer data)
{
  CodeNamer *namer = data;
  g_clear_object (&namer->symbolizer);
  g_clear_pointer (&namer->last, g_ptr_array_unref);
  g_free (namer);
}

static guint
name_frame (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
            gpointer user_data)
{
  CodeNamer *namer = user_data;
  g_autoptr (GError) error = NULL;
  guint n;

  /* Outside every module: the address is all there is. */
  if (module == NULL)
    return 0;
  g_clear_pointer (&namer->last, g_ptr_array_unref);
  /* On failure the one fallback frame has no function: named by offset. */
  namer->last = mg_symbolizer_resolve (namer->symbolizer, module->path, module->build_id,
                                       module->build_id_len, vaddr, &error);
  n = MIN (namer->last->len, max);
  for (guint i = 0; i < n; i++)
    {
      /* A chain deeper than max keeps its innermost part and the
       * function that holds it. */
      guint from = i == n - 1 ? namer->last->len - 1 : i;
      const MgSymbolFrame *f = g_ptr_array_index (namer->last, from);
      entries[i] = (MgFrameNameEntry) { f->function, f->file, f->line };
    }
  return n;
}

MgFrameNamer *
mg_code_namer_new_for (MgSymbolizer *symbolizer)
{
  CodeNamer *namer = g_new0 (CodeNamer, 1);

  namer->symbolizer = g_object_ref (symbolizer);
  return mg_frame_namer_new (name_frame, namer, code_namer_free);
}

MgFrameNamer *
mg_code_namer_new (void)
{
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  return mg_code_namer_new_for (symbolizer);
}
