/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' frame namer (plot/mg-frame-namer.h) on the symboliser
 * (app/symbols): each distinct address of a profile is resolved once, on
 * whichever thread asks, one at a time (the namer's lock). */
#pragma once

#include "plot/mg-frame-namer.h"

G_BEGIN_DECLS

#include "symbols/mg-symbolizer.h"

MgFrameNamer *mg_code_namer_new (void);
/* On SYMBOLIZER (kept), whose modules are loaded already: the live
 * run's successive profiles each get a namer of their own (their module
 * indices are their merge's), the symbols loaded once. */
MgFrameNamer *mg_code_namer_new_for (MgSymbolizer *symbolizer);

G_END_DECLS
