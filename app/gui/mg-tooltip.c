/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gtk_widget_set_tooltip_text asks the X server where the pointer is, to
 * show the tooltip at once if the pointer already rests on the widget: three
 * round trips for every visible widget it is set on, and the window's
 * header bar, side panel and groups set forty of them on the way to the
 * first frame (each a wait for the X server, long when it is busy). Here the
 * widget only says it has a tooltip and answers query-tooltip with the
 * text, which GTK asks for when the pointer comes to rest; the text is also
 * the widget's accessible description, as GTK's own tooltips make it. */
#include "mg-config.h"

#include "mg-tooltip.h"

#define TEXT_KEY "mg-tooltip-text"
#define CONNECTED_KEY "mg-tooltip-connected"

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  const char *text = mg_tooltip_get_text (widget);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
mg_tooltip_set_text (GtkWidget *widget, const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (text != NULL && g_object_get_data (G_OBJECT (widget), CONNECTED_KEY) == NULL)
    {
      g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
      g_object_set_data (G_OBJECT (widget), CONNECTED_KEY, GINT_TO_POINTER (TRUE));
    }
  g_object_set_data_full (G_OBJECT (widget), TEXT_KEY, g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL);
  if (text != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                    text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

const char *
mg_tooltip_get_text (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  return g_object_get_data (G_OBJECT (widget), TEXT_KEY);
}

void
mg_tooltip_name_icon_button (GtkWidget *button)
{
  const char *text;

  g_return_if_fail (GTK_IS_WIDGET (button));

  text = gtk_widget_get_tooltip_text (button);
  g_return_if_fail (text != NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);
}
