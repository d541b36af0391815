/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Moving through time by action, so the header bar, the shortcuts and the
 * tests drive the same thing: zoom-in, zoom-out, zoom-selection,
 * zoom-reset, clear-selection, pan-left and pan-right over an MgTimeView,
 * added to an action map (a window). zoom-selection and clear-selection
 * are enabled only while there is a selection, zoom-out only when zoomed
 * in. */
#pragma once

#include <gio/gio.h>

#include "plot/mg-time-view.h"

G_BEGIN_DECLS

/* map must be a GObject that owns a reference to view. */
void mg_time_view_actions_add (GActionMap *map, MgTimeView *view);

G_END_DECLS
