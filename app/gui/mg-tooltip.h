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

G_END_DECLS
