/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a viewer window shows, read from its widgets: for tests, not for
 * the rest of the application (mg-window-queries.c). */
#pragma once

#include "plot/mg-time-view.h"
#include "mg-window.h"

G_BEGIN_DECLS

/* "start", "loading", "error" or "profile". */
const char *mg_window_get_page (MgWindow *self);
/* The message shown on the error page, or NULL. */
const char *mg_window_get_error_message (MgWindow *self);
/* The error page's title, or NULL; the header's subtitle, or NULL when
 * none is shown. */
const char *mg_window_get_error_title (MgWindow *self);
const char *mg_window_get_subtitle (MgWindow *self);
MgTimeView *mg_window_get_time_view (MgWindow *self);

/* The ids of the metrics with a visible row (each once, top to bottom),
 * the titles of the visible group headers, and the figures of a metric's
 * first row. */
char **mg_window_get_visible_metric_ids (MgWindow *self);
char **mg_window_get_visible_group_titles (MgWindow *self);
char *mg_window_dup_row_figures (MgWindow *self, const char *metric_id);
/* Collapses or expands the visible group headed title (FALSE: none). */
gboolean mg_window_set_group_expanded (MgWindow *self, const char *title, gboolean expanded);
/* The graph widget of a metric's first row, or NULL. */
GtkWidget *mg_window_get_metric_graph (MgWindow *self, const char *metric_id);
/* The recent profiles listed on the start page. */
guint mg_window_get_n_recent (MgWindow *self);
/* The interrupted runs listed on the start page. */
guint mg_window_get_n_recoverable (MgWindow *self);
/* The readout under the time axis (what the row figures describe), and
 * its Whole Run button (shown when they describe less); NULL without a
 * profile. */
const char *mg_window_get_range_readout (MgWindow *self, GtkWidget **whole_run_button);
/* The count in the errors banner; 0 when it is hidden. */
guint mg_window_get_error_count (MgWindow *self);
/* The entries of the side panel's Errors page (built now if it was not). */
guint mg_window_get_n_listed_errors (MgWindow *self);
/* The marks on the timeline, of every kind (crashed, killed, recording
 * stopped: mg-event-strip.h). */
guint mg_window_get_n_event_marks (MgWindow *self);
/* The Report page of the side panel (built now if it was not), or NULL
 * without a profile. */
GtkWidget *mg_window_get_report_view (MgWindow *self);
/* The rank overview (MgRankOverview) win.rank-overview opened, or NULL. */
GtkWidget *mg_window_get_rank_overview (MgWindow *self);

/* The Code pane (MgCodeView: mg-code-view-private.h). */
GtkWidget *mg_window_get_code_view (MgWindow *self);
/* The rows of functions' shares over time (MgFunctionRows). */
GtkWidget *mg_window_get_function_rows (MgWindow *self);

G_END_DECLS
