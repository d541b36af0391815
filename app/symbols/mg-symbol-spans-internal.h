/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A module's symbol table as ranges: the union of its sized symbols'
 * ranges, the lowest sizeless symbol, and the pieces between the sized
 * symbols' bounds. libdwfl's dwfl_module_addrname reads every symbol of
 * the table for each address (28 898 in cc1's .dynsym); an address no
 * symbol can name (a static function of a stripped program) is answered
 * without it, and the addresses of one piece, which the same symbols
 * hold, share one answer. Shared by the files of app/symbols only. */
#pragma once

#include <elfutils/libdwfl.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _MgSymbolSpans MgSymbolSpans;

/* Reads MOD's symbol table (its .symtab or .dynsym, and the auxiliary one
 * libdwfl adds), in libdwfl's addresses. */
MgSymbolSpans *mg_symbol_spans_new (Dwfl_Module *mod);
void mg_symbol_spans_free (MgSymbolSpans *spans);

/* FALSE when no symbol can name ADDR (a libdwfl address): none lies in a
 * sized symbol's range, and no sizeless symbol is at or below it, so
 * dwfl_module_addrname (MOD, ADDR) is NULL. TRUE: it may name it. */
gboolean mg_symbol_spans_may_name (const MgSymbolSpans *spans, GElf_Addr addr);

/* dwfl_module_addrname (MOD, ADDR), asked once for the addresses that the
 * same sized symbols hold, and never where no symbol can name ADDR. */
const char *mg_symbol_spans_name (MgSymbolSpans *spans, GElf_Addr addr);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgSymbolSpans, mg_symbol_spans_free)

G_END_DECLS
