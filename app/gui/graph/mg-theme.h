/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs' theme: whether they draw with dark colours, and redrawing
 * when that changes. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* TRUE when widget's theme is dark: the dark preference is set, or the
 * theme's text is light. */
gboolean mg_theme_is_dark (GtkWidget *widget);

/* The desktop's text scale for text the graphs draw themselves: the
 * widget's font resolution against 96 dpi (large text: 1.5, from
 * gtk-xft-dpi), at least 1. */
double mg_theme_text_scale (GtkWidget *widget);

/* Redraws widget whenever the dark preference changes while it is
 * realized. Call once, from the widget's init. */
void mg_theme_follow (GtkWidget *widget);

G_END_DECLS
