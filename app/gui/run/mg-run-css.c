/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-css.h"

void
mg_run_css_load (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr (GtkCssProvider) css = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "mg-run-css") != NULL)
    return;
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/org/metrograph/Metrograph/ui/mg-run.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "mg-run-css", g_steal_pointer (&css), g_object_unref);
}
