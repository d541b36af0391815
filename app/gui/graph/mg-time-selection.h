/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Choosing times with the pointer on a widget that spans the visible range
 * of an MgTimeView across its width (a graph row, the time axis). The
 * widget must have a "view" property (MgTimeView), which is followed.
 *
 * Motion sets the view's hover time, so one line crosses every row; the
 * pointer leaving clears it, unless keys placed it (the keyboard cursor:
 * see mg_time_selection_set_keyboard_cursor). A drag selects the range it
 * covers; a press that moves less than a few pixels is a click, and clears
 * the selection. A focusable widget takes the focus on a press. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-time-view.h"

G_BEGIN_DECLS

#define MG_TYPE_TIME_SELECTION (mg_time_selection_get_type ())
G_DECLARE_FINAL_TYPE (MgTimeSelection, mg_time_selection, MG, TIME_SELECTION, GObject)

/* Adds its event controllers to widget; the widget keeps the result and
 * releases it when disposed. */
MgTimeSelection *mg_time_selection_new (GtkWidget *widget);

MgTimeView *mg_time_selection_get_view (MgTimeSelection *self);

/* The time at x (widget coordinates, clamped to the widget); 0 without a
 * view. */
double mg_time_selection_x_to_time (MgTimeSelection *self, double x);

/* The pointer's last position on the widget, -1 when outside. */
double mg_time_selection_get_pointer_x (MgTimeSelection *self);

/* Whether the view's hover time was last set by keys (TRUE) or by the
 * pointer: the keys' line stays when the pointer leaves; moving the
 * pointer takes it over. */
gboolean mg_time_selection_get_keyboard_cursor (MgTimeSelection *self);
void mg_time_selection_set_keyboard_cursor (MgTimeSelection *self, gboolean keyboard_cursor);

/* What a click (a press that did not drag) does instead of clearing the
 * selection: func (widget, x, user_data), x where the press was. */
typedef void (*MgTimeSelectionClickFunc) (GtkWidget *widget, double x, gpointer user_data);
void mg_time_selection_set_click_func (MgTimeSelection *self, MgTimeSelectionClickFunc func,
                                       gpointer user_data);

G_END_DECLS
