/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run view shows, read from its widgets: for tests, not for the
 * rest of the application. */
#pragma once

#include "mg-run-view.h"
#include "plot/mg-time-view.h"

G_BEGIN_DECLS

/* Visible graph rows (a metric in two groups
 * counts twice), the figures line, the output. */
guint mg_run_view_get_n_rows (MgRunView *self);
/* The code views following the live profiles (MgCodeView). */
GtkWidget *mg_run_view_get_code_view (MgRunView *self);
/* The visible group headers, top to bottom; collapsing a group by its
 * title (FALSE when there is none), which later updates keep. */
char **mg_run_view_dup_group_titles (MgRunView *self);
gboolean mg_run_view_set_group_expanded (MgRunView *self, const char *title, gboolean expanded);
gboolean mg_run_view_get_group_expanded (MgRunView *self, const char *title);
/* How many times the rows were rebuilt from a live profile. */
guint mg_run_view_get_n_updates (MgRunView *self);
const char *mg_run_view_get_figures (MgRunView *self);
/* The live profile's notable events as the view shows them, one a line;
 * "" when it shows none. */
const char *mg_run_view_get_problems (MgRunView *self);
char *mg_run_view_dup_output (MgRunView *self);
/* The "Program output" pane (hidden until the program prints), the end
 * child of the paned under the graphs (its divider folds it away). */
GtkWidget *mg_run_view_get_output_expander (MgRunView *self);
GtkWidget *mg_run_view_get_output_paned (MgRunView *self);
/* The pane's header button, which folds it (run-view.fold-output). */
GtkWidget *mg_run_view_get_output_fold_button (MgRunView *self);
/* The pane's text (hidden while it is folded). */
GtkWidget *mg_run_view_get_output_scroller (MgRunView *self);
/* The pointer taken as over the graph of metric_id (NULL: the graph the
 * hover tooltip found last); the readout is what the tooltip says, that
 * graph's values at the hover time (NULL off the graphs). */
void mg_run_view_hover_metric (MgRunView *self, const char *metric_id);
const char *mg_run_view_get_readout (MgRunView *self);
/* What the rows' hover tooltip says with the pointer at (x, y) of the
 * rows' scrolled window (NULL: no tooltip), as its query-tooltip answers;
 * the graph found there becomes the hovered one. */
char *mg_run_view_dup_tooltip_at (MgRunView *self, double x, double y);
GtkWidget *mg_run_view_get_rows_scroller (MgRunView *self);
/* What the hover tooltip of a metric's live graph says at t, or NULL. */
char *mg_run_view_dup_hover_text (MgRunView *self, const char *metric_id, double t);
/* The live graphs' shared time view (its axis is under the rows). */
MgTimeView *mg_run_view_get_time_view (MgRunView *self);

G_END_DECLS
