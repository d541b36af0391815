/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run view shows, read from its widgets: for tests, not for the
 * rest of the application. */
#pragma once

#include "mg-run-view.h"

G_BEGIN_DECLS

/* Visible graph rows (a metric in two groups
 * counts twice), the figures line, the output. */
guint mg_run_view_get_n_rows (MgRunView *self);
/* The visible group headers, top to bottom; collapsing a group by its
 * title (FALSE when there is none), which later updates keep. */
char **mg_run_view_dup_group_titles (MgRunView *self);
gboolean mg_run_view_set_group_expanded (MgRunView *self, const char *title, gboolean expanded);
gboolean mg_run_view_get_group_expanded (MgRunView *self, const char *title);
/* How many times the rows were rebuilt from a live profile. */
guint mg_run_view_get_n_updates (MgRunView *self);
const char *mg_run_view_get_figures (MgRunView *self);
char *mg_run_view_dup_output (MgRunView *self);

G_END_DECLS
