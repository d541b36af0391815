/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One module (an executable or a shared library) opened for symbols: its
 * Dwfl session, kept for every address of the module, or the error that
 * keeps all its addresses at module + offset. Shared by the files of
 * app/symbols only. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _MgSymbolModule MgSymbolModule;

/* Opens PATH if its GNU build-id is BUILD_ID (any file when BUILD_ID_LEN
 * is 0), else the file with that build-id in DEBUG_PATH's folders. Never
 * NULL: a module that could not be opened keeps the reason
 * (mg_symbol_module_error), so its next addresses fail at once.
 * DEBUG_PATH is libdwfl's search path (NULL: ":.debug:/usr/lib/debug"). */
MgSymbolModule *mg_symbol_module_open (const char *path,
                                       const guint8 *build_id,
                                       gsize build_id_len,
                                       const char *debug_path);
void mg_symbol_module_free (MgSymbolModule *module);

/* NULL when the module is open. */
const GError *mg_symbol_module_error (MgSymbolModule *module);

/* Appends VADDR's frames to FRAMES (MgSymbolFrame), innermost inlined
 * instance first, the function that holds them last. FALSE with ERROR
 * when nothing is known of the address (FRAMES unchanged). */
gboolean mg_symbol_module_resolve (MgSymbolModule *module,
                                   guint64 vaddr,
                                   GPtrArray *frames,
                                   GError **error);

/* Whether the module defines the function NAME (its symbol tables). */
gboolean mg_symbol_module_defines (MgSymbolModule *module, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSymbolModule, mg_symbol_module_free)

G_END_DECLS
