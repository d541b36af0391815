/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stack namer of the command line's exports and reports: one
 * MgSymbolizer (app/symbols) behind the profile's MgStackNamer, so frames
 * get function names, inline chains and source lines (docs/symbols.md). */
#pragma once

#include "profile/mg-stack-namer.h"
#include "symbols/mg-symbolizer.h"

G_BEGIN_DECLS

/* A namer resolving through symbolizer, which must outlive it. */
MgStackNamer mg_cli_symbol_namer (MgSymbolizer *symbolizer);

G_END_DECLS
