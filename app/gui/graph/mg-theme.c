/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graphs' theme. */
#include "mg-theme.h"

gboolean
mg_theme_is_dark (GtkWidget *widget)
{
  GtkSettings *settings;
  gboolean prefer_dark = FALSE;
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  settings = gtk_widget_get_settings (widget);
  if (settings != NULL)
    g_object_get (settings, "gtk-application-prefer-dark-theme", &prefer_dark, NULL);
  if (prefer_dark)
    return TRUE;
  /* A dark theme has light text: the foreground colour tells, whatever the
   * theme's name. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

double
mg_theme_text_scale (GtkWidget *widget)
{
  double dpi;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), 1);

  /* GTK sets the context's resolution from gtk-xft-dpi (CSS -gtk-dpi). */
  dpi = pango_cairo_context_get_resolution (gtk_widget_get_pango_context (widget));
  return dpi > 96 ? MIN (dpi / 96, 4) : 1;
}

/* The dark preference can change without a CSS change (a theme forced by
 * GTK_THEME): the setting itself is followed. */
static void
on_realize (GtkWidget *widget)
{
  g_signal_connect_object (gtk_widget_get_settings (widget),
                           "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (gtk_widget_queue_draw), widget, G_CONNECT_SWAPPED);
}

static void
on_unrealize (GtkWidget *widget)
{
  g_signal_handlers_disconnect_by_func (gtk_widget_get_settings (widget),
                                        gtk_widget_queue_draw, widget);
}

void
mg_theme_follow (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  g_signal_connect (widget, "realize", G_CALLBACK (on_realize), NULL);
  g_signal_connect (widget, "unrealize", G_CALLBACK (on_unrealize), NULL);
}
