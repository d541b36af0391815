/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tooltips answered when shown (mg-tooltip.c). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Like gtk_widget_set_tooltip_text (the same tooltip, the same accessible
 * description) without asking the X server where the pointer is. NULL
 * removes it. */
void mg_tooltip_set_text (GtkWidget *widget, const char *text);
/* What mg_tooltip_set_text set, or NULL. */
const char *mg_tooltip_get_text (GtkWidget *widget);
/* An icon-only button's tooltip (set with gtk_widget_set_tooltip_text) as
 * its accessible name too: GTK 4.8 names a button by its label only, the
 * tooltip being its description, so a screen reader said "button". */
void mg_tooltip_name_icon_button (GtkWidget *button);

G_END_DECLS
