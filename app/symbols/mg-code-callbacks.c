/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgSymbolizer as the profile's frame namer, MgSourceBundle as its source
 * collector. */
#include "mg-config.h"

#include "symbols/mg-code-callbacks.h"

#include "symbols/mg-source-bundle.h"

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
mg_code_callbacks_namer (MgSymbolizer *symbolizer)
{
  return (MgStackNamer) { name_frame, symbolizer };
}

static void
collect_sources (gpointer data, const char *const *files, const guint64 *samples, guint n_files,
                 gsize limit, GPtrArray *texts, GPtrArray *omissions)
{
  g_autoptr (MgSourceBundle) bundle = mg_source_bundle_new (limit);
  GPtrArray *kept, *left;

  for (guint i = 0; i < n_files; i++)
    mg_source_bundle_add (bundle, files[i], samples[i]);
  mg_source_bundle_collect (bundle);
  kept = mg_source_bundle_get_texts (bundle);
  for (guint i = 0; i < kept->len; i++)
    {
      const MgSourceText *t = g_ptr_array_index (kept, i);
      MgCodeSource *s = g_new0 (MgCodeSource, 1);
      s->path = g_strdup (t->path);
      s->text = g_bytes_ref (t->text);
      g_ptr_array_add (texts, s);
    }
  left = mg_source_bundle_get_omissions (bundle);
  for (guint i = 0; i < left->len; i++)
    {
      const MgSourceOmission *o = g_ptr_array_index (left, i);
      MgCodeOmission *m = g_new0 (MgCodeOmission, 1);
      m->path = g_strdup (o->path);
      m->reason = g_strdup (o->reason);
      g_ptr_array_add (omissions, m);
    }
}

MgSourceCollector
mg_code_callbacks_sources (void)
{
  return (MgSourceCollector) { collect_sources, NULL };
}
