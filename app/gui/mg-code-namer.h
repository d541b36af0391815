/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views' frame namer (plot/mg-frame-namer.h) on the symboliser
 * (app/symbols): each distinct address of a profile is resolved once, on
 * whichever thread asks, one at a time (the namer's lock). */
#pragma once

#include "plot/mg-frame-namer.h"

G_BEGIN_DECLS

MgFrameNamer *mg_code_namer_new (void);

G_END_DECLS
