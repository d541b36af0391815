/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-style.h"

void
mg_style_load (GdkDisplay *display)
{
  g_autoptr (GtkCssProvider) css = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "mg-css") != NULL)
    return;
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/metrograph/Metrograph/ui/style.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "mg-css", g_steal_pointer (&css), g_object_unref);
  /* The app icon for the start page, also when not installed. */
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                    "/org/metrograph/Metrograph/icons");
}
