/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' frame namer (plot/mg-frame-namer.h): the names the
 * profile carries first (mg-profile-code.h), the symboliser (app/symbols)
 * for the frames it does not name; each distinct address of a profile is
 * resolved once, on whichever thread asks, one at a time (the namer's
 * lock). */
#pragma once

#include "plot/mg-frame-namer.h"
#include "profile/mg-profile.h"
#include "symbols/mg-symbolizer.h"

G_BEGIN_DECLS

/* A namer of profile's frames; it holds a reference to profile. */
MgFrameNamer *mg_code_namer_new (MgProfile *profile);
/* The same on SYMBOLIZER (kept), whose modules are loaded already: the
 * live run's successive profiles each get a namer of their own (their
 * module indices are their merge's), the symbols loaded once. */
MgFrameNamer *mg_code_namer_new_for (MgProfile *profile, MgSymbolizer *symbolizer);

G_END_DECLS
