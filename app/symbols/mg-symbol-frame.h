/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One frame of a symbolised address: a function (or an inlined instance of
 * one) with its source position, or, where nothing could be resolved, the
 * module and the offset alone. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define MG_TYPE_SYMBOL_FRAME (mg_symbol_frame_get_type ())

typedef struct {
  char *function;  /* demangled; NULL when the address is not resolved */
  char *file;      /* absolute source path; NULL when unknown */
  guint line;      /* 0 when unknown */
  guint column;    /* 0 when unknown */
  gboolean inlined; /* an inlined instance, called from the next frame */
  char *module;    /* the module's path, as the run saw it */
  guint64 vaddr;   /* the ELF virtual address looked up (pc - load bias) */
} MgSymbolFrame;

GType mg_symbol_frame_get_type (void) G_GNUC_CONST;

MgSymbolFrame *mg_symbol_frame_new (const char *module, guint64 vaddr);
MgSymbolFrame *mg_symbol_frame_copy (const MgSymbolFrame *frame);
void mg_symbol_frame_free (MgSymbolFrame *frame);

/* "function (file:line)", "function", or "module+0xoffset": for messages
 * and tests, not for storage. */
char *mg_symbol_frame_describe (const MgSymbolFrame *frame);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSymbolFrame, mg_symbol_frame_free)

G_END_DECLS
