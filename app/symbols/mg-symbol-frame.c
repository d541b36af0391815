/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols/mg-symbol-frame.h"

G_DEFINE_BOXED_TYPE (MgSymbolFrame, mg_symbol_frame, mg_symbol_frame_copy, mg_symbol_frame_free)

MgSymbolFrame *
mg_symbol_frame_new (const char *module, guint64 vaddr)
{
  MgSymbolFrame *frame = g_new0 (MgSymbolFrame, 1);

  frame->module = g_strdup (module);
  frame->vaddr = vaddr;
  return frame;
}

MgSymbolFrame *
mg_symbol_frame_copy (const MgSymbolFrame *frame)
{
  MgSymbolFrame *copy = g_new0 (MgSymbolFrame, 1);

  *copy = *frame;
  copy->function = g_strdup (frame->function);
  copy->file = g_strdup (frame->file);
  copy->module = g_strdup (frame->module);
  return copy;
}

void
mg_symbol_frame_free (MgSymbolFrame *frame)
{
  if (frame == NULL)
    return;
  g_free (frame->function);
  g_free (frame->file);
  g_free (frame->module);
  g_free (frame);
}

char *
mg_symbol_frame_describe (const MgSymbolFrame *frame)
{
  if (frame->function == NULL)
    return g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x",
                            frame->module ? frame->module : "?", frame->vaddr);
  if (frame->file == NULL)
    return g_strdup (frame->function);
  return g_strdup_printf ("%s (%s:%u)", frame->function, frame->file, frame->line);
}
