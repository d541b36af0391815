/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The flame graph's own menu (issue 30): icicle or flame, coloured by
 * module or by activity, remembered in the settings (flame-orientation,
 * flame-colour). Its actions, in the group "flame-options" on the button:
 * "orientation" ("icicle" or "flame"), "colouring" ("module" or
 * "activity"). */
#pragma once

#include <gtk/gtk.h>

#include "mg-flame-view.h"

G_BEGIN_DECLS

/* A menu button for FLAME, which it sets up from the settings. */
GtkWidget *mg_flame_options_new (MgFlameView *flame);

G_END_DECLS
