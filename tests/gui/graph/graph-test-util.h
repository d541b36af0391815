/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the graph widgets' tests share: a widget as GTK draws it, and a
 * key pressed on it. */
#pragma once

#include <gtk/gtk.h>

/* The widget as drawn, through its window's renderer, once laid out (at
 * most 10 s: a widget made by the last action gets its size at the next
 * frame, later on a loaded machine). Free with cairo_surface_destroy. */
cairo_surface_t *graph_test_render_widget (GtkWidget *widget);

/* @keyval pressed on @widget through its key controllers, as GTK delivers
 * it: whether one handled it. */
gboolean graph_test_press_key (GtkWidget *widget, guint keyval);
