/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the graph widgets' tests share: their set-up, a widget as GTK
 * draws it, and a key pressed on it. */
#pragma once

#include <gtk/gtk.h>

/* g_test_init and GTK's, for pixels that do not depend on the display:
 * @renderer (GSK_RENDERER), the Adwaita theme, accessible properties kept
 * for the tests to read, and GTK's warning that it cannot reach a session
 * bus (xvfb-run in CI has none) dropped. FALSE, the tests skipped, where
 * there is no display. */
gboolean graph_test_init (int *argc, char ***argv, const char *renderer);

/* The widget as drawn, through its window's renderer, once laid out (at
 * most 10 s: a widget made by the last action gets its size at the next
 * frame, later on a loaded machine). Free with cairo_surface_destroy. */
cairo_surface_t *graph_test_render_widget (GtkWidget *widget);

/* @keyval pressed on @widget through its key controllers, as GTK delivers
 * it: whether one handled it. */
gboolean graph_test_press_key (GtkWidget *widget, guint keyval);
