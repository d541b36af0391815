/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The address ranges of all a module's functions (its DW_TAG_subprogram
 * DIEs, in every compile unit, namespace and class), sorted: an address
 * finds its function by a binary search, where libdw's dwarf_getscopes
 * walks the compile unit's whole DIE tree for each address (some 5 000
 * addresses/s against some 60 000). Shared by the files of app/symbols
 * only. */
#pragma once

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _MgFunctionIndex MgFunctionIndex;

/* The index of MOD's DWARF (empty when it has none). */
MgFunctionIndex *mg_function_index_new (Dwfl_Module *mod);
void mg_function_index_free (MgFunctionIndex *index);

/* The function DIE whose code holds MODULE_ADDR (an address of the
 * module, as libdwfl places it), and that address in the DWARF's own
 * terms (the debug file's bias taken off). */
gboolean mg_function_index_find (MgFunctionIndex *index,
                                 Dwarf_Addr module_addr,
                                 Dwarf_Die *function,
                                 Dwarf_Addr *dwarf_addr);

G_END_DECLS
