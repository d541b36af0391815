/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-window-state.h"

void
mg_window_state_save (GtkWindow *window, GSettings *settings)
{
  gboolean maximized = gtk_window_is_maximized (window);
  int width, height;

  if (settings == NULL)
    return;
  g_settings_delay (settings);
  g_settings_set_boolean (settings, "window-maximized", maximized);
  /* While maximised the default size is still the unmaximised one. */
  gtk_window_get_default_size (window, &width, &height);
  if (width >= 200 && height >= 200)
    {
      g_settings_set_int (settings, "window-width", MIN (width, 32767));
      g_settings_set_int (settings, "window-height", MIN (height, 32767));
    }
  g_settings_apply (settings);
}

static gboolean
on_close_request (GtkWindow *window, GSettings *settings)
{
  mg_window_state_save (window, settings);
  return FALSE;
}

/* Asked for when the window is realized, just before it is first shown: a
 * request made while the window is still being constructed is lost. */
static void
on_realize (GtkWindow *window, GSettings *settings)
{
  g_signal_handlers_disconnect_by_func (window, on_realize, settings);
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
}

void
mg_window_state_track (GtkWindow *window, GSettings *settings)
{
  if (settings == NULL)
    return;
  gtk_window_set_default_size (window, g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));
  g_signal_connect_object (window, "realize", G_CALLBACK (on_realize), settings, 0);
  g_signal_connect_object (window, "close-request", G_CALLBACK (on_close_request), settings, 0);
}
