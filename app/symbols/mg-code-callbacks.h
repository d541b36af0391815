/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The symbols area behind the profile's two code callbacks: an
 * MgSymbolizer as its MgStackNamer, so frames get function names, inline
 * chains and source lines (docs/symbols.md), and an MgSourceBundle as its
 * MgSourceCollector, for the source text a profile carries
 * (mg-profile-code.h). One home for both front ends, which hand them to a
 * run's end, a recovery, an export or a report; the profile sees only the
 * callback types, never this area. */
#pragma once

#include "profile/mg-profile-code.h"
#include "profile/mg-stack-namer.h"
#include "symbols/mg-symbolizer.h"

G_BEGIN_DECLS

/* A namer resolving through @symbolizer, which must outlive it. */
MgStackNamer mg_code_callbacks_namer (MgSymbolizer *symbolizer);

/* A collector reading the files through an MgSourceBundle of the limit
 * it is given. */
MgSourceCollector mg_code_callbacks_sources (void);

G_END_DECLS
