/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window's size and maximised state, remembered as GNOME apps do
 * (keys window-width, window-height and window-maximized of
 * org.metrograph.Metrograph): restored when the window is made, stored when
 * it is closed and when the application shuts down. The size stored is the
 * unmaximised one, so a maximised window comes back to its old size. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Applies the stored state to window (before it is shown) and stores it
 * again on every close-request. settings may be NULL: nothing remembered. */
void mg_window_state_track (GtkWindow *window, GSettings *settings);
/* Stores the state now. */
void mg_window_state_save (GtkWindow *window, GSettings *settings);

G_END_DECLS
