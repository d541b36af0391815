/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One address of a module → its frames: the function from the index, its
 * inlined instances nested down to the address, each with its name and
 * source position; the symbol table where DWARF has nothing. Shared by
 * the files of app/symbols only. */
#pragma once

#include <elfutils/libdwfl.h>
#include <glib.h>

#include "symbols/mg-function-index-internal.h"
#include "symbols/mg-symbol-spans-internal.h"

G_BEGIN_DECLS

/* Appends VADDR's frames (MgSymbolFrame, named after MODULE) to FRAMES,
 * innermost first; FALSE with ERROR (MG_SYMBOLS_ERROR_NO_SYMBOLS) and
 * FRAMES unchanged when nothing names the address. BIAS: where libdwfl
 * placed the module's ELF (vaddr + bias is libdwfl's address). SPANS
 * (NULL: not known) spares the symbol table's reading where no symbol
 * can name the address, and names alike the addresses the same symbols
 * hold. */
gboolean mg_symbol_lookup (Dwfl_Module *mod,
                           GElf_Addr bias,
                           MgFunctionIndex *index,
                           MgSymbolSpans *spans,
                           const char *module,
                           guint64 vaddr,
                           GPtrArray *frames,
                           GError **error);

G_END_DECLS
