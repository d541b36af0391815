/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Two children side by side when both fit at their minimum widths (the
 * first at its natural width, the second taking the rest), else the second
 * on a line of its own under the first; mirrored right to left. The Code
 * pane's header: on one line its Call Tree buttons asked 1053 px, past a
 * 1024 px window, and 1111 to 1403 px on every page with large text. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define MG_TYPE_WRAP_LAYOUT (mg_wrap_layout_get_type ())
G_DECLARE_FINAL_TYPE (MgWrapLayout, mg_wrap_layout, MG, WRAP_LAYOUT, GtkLayoutManager)

/* spacing: between the two, across or down. */
GtkLayoutManager *mg_wrap_layout_new (int spacing);
/* TRUE when the last allocation put the second child under the first. */
gboolean mg_wrap_layout_get_wrapped (MgWrapLayout *self);

G_END_DECLS
