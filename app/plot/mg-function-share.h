/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A function's share of the stack samples over time (issue 30, point 3:
 * the row "Function NAME" that follows the Code pane's selection): per
 * window of a grid (the profile's sample windows), the percentage of the
 * stack samples whose stack holds the function in any frame (inlined ones
 * included), counted once per stack however deep a recursion goes. Each
 * process window's counts go to the grid window holding its middle. GTK-free,
 * built on any thread. */
#pragma once

#include <glib.h>

#include "mg-frame-namer.h"
#include "mg-series-view.h"
#include "profile/mg-stack-windows.h"

G_BEGIN_DECLS

/* Returns grid->n values in percent, NaN where the grid window got no
 * stack samples. modules: a stack set of the same profile, for its module
 * table (the namer's callback names modules through it). */
double *mg_function_share_compute (MgFrameNamer *namer, const MgStackSet *modules,
                                   const MgStackWindows *windows, const char *function,
                                   const MgSeriesView *grid);

G_END_DECLS
