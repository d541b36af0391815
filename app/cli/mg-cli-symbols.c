/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgSymbolizer as the profile's frame namer. */
#include "mg-config.h"

#include "mg-cli-symbols.h"

static gboolean
name_frame (gpointer data, const char *module_path, const guint8 *build_id, gsize build_id_len,
            guint64 vaddr, GPtrArray *names)
{
  MgSymbolizer *symbolizer = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) frames = mg_symbolizer_resolve (symbolizer, module_path, build_id,
                                                        build_id_len, vaddr, &error);
  /* Unresolved: the caller's module + offset says as much as the
   * symboliser's fallback frame. */
  if (error != NULL)
    return FALSE;
  guint before = names->len;
  for (guint i = 0; i < frames->len; i++)
    {
      const MgSymbolFrame *f = g_ptr_array_index (frames, i);
      if (f->function == NULL)
        continue;
      MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
      n->function = g_strdup (f->function);
      n->file = g_strdup (f->file);
      n->line = f->line;
      n->label = g_strdup (f->function);
      g_ptr_array_add (names, n);
    }
  return names->len > before;
}

MgStackNamer
mg_cli_symbol_namer (MgSymbolizer *symbolizer)
{
  return (MgStackNamer) { name_frame, symbolizer };
}
