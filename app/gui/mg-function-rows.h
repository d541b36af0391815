/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rows "Function NAME" above the metric rows (issue 30, point 3): the
 * share of the stack samples whose stack holds the function, per sample
 * window (plot/mg-function-share.h), drawn like a metric row of one
 * process and following the shared MgTimeView (range, process, hover,
 * selection). The function selected in the Code pane gets a row that
 * follows the selection; its pin button keeps it when another is
 * selected, its close button removes it. The shares are computed on a
 * worker thread (naming a stack's frames may take the symboliser a while),
 * so selecting a function never blocks drawing. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-call-index.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_FUNCTION_ROWS (mg_function_rows_get_type ())
G_DECLARE_FINAL_TYPE (MgFunctionRows, mg_function_rows, MG, FUNCTION_ROWS, GtkWidget)

GtkWidget *mg_function_rows_new (MgTimeView *view);

/* Removes every row; NULL: nothing to show. label_group: the size group
 * giving the metric rows' label columns one width (may be NULL). */
void mg_function_rows_set_profile (MgFunctionRows *self, MgProfile *profile,
                                   GtkSizeGroup *label_group);

/* The selected function (NULL: none): its row replaces the unpinned one. */
/* The profile's call index (the Code pane's), NULL: none yet. With it a
 * row's values are a sum over the function's stacks; without it the
 * stacks' windows are read and every stack's frames looked at. */
void mg_function_rows_set_index (MgFunctionRows *self, MgCallIndex *index);
gboolean mg_function_rows_has_index (MgFunctionRows *self);

void mg_function_rows_show_function (MgFunctionRows *self, const char *name);

/* Rows top to bottom. */
guint mg_function_rows_get_n_rows (MgFunctionRows *self);
const char *mg_function_rows_get_function (MgFunctionRows *self, guint row);
/* The row's share per window of the profile (NaN: no stack samples), for
 * the view's process; NULL while it is computed on a worker thread (the
 * signal "values-changed" follows; the row draws an empty graph till then). */
const double *mg_function_rows_get_values (MgFunctionRows *self, guint row, guint *n);
gboolean mg_function_rows_get_pinned (MgFunctionRows *self, guint row);
/* What the row's pin and close buttons do. */
void mg_function_rows_set_pinned (MgFunctionRows *self, guint row, gboolean pinned);
void mg_function_rows_remove (MgFunctionRows *self, guint row);

G_END_DECLS
