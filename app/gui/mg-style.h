/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's own styles (ui/style.css) and its icons, loaded once per
 * display by every widget that needs them. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void mg_style_load (GdkDisplay *display);

G_END_DECLS
