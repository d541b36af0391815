/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane under the metric rows (issue 30, docs/viewer.md): the
 * Functions table and the Call Tree (top-down or bottom-up) of the
 * profile's call stacks, for what the rows' figures describe (the
 * selection, else the visible range, else the whole run) and the process
 * chosen. Recomputed on a worker thread when either changes; the frames
 * are named by the symboliser once each per profile. */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-call-index.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_CODE_VIEW (mg_code_view_get_type ())
G_DECLARE_FINAL_TYPE (MgCodeView, mg_code_view, MG, CODE_VIEW, GtkBox)

GtkWidget *mg_code_view_new (MgTimeView *view);
/* NULL: nothing shown. */
void mg_code_view_set_profile (MgCodeView *self, MgProfile *profile);
/* A live run's newer profile (the first, or after set_profile: as a new
 * run): the views keep showing the last result until this one's is
 * computed, the symbols loaded once for the run. */
void mg_code_view_set_live_profile (MgCodeView *self, MgProfile *profile);

/* The "selected-function" property: the function (as named by
 * mg_call_tree_find_function ()) of the row or flame box the user
 * selected, NULL when none; setting it selects its Functions row (the
 * Source view shows its file). The "function-activated" signal (one
 * const char *: the function) follows a double click or Enter on a row
 * or box: the Source tab opens. */
const char *mg_code_view_get_selected_function (MgCodeView *self);
/* The profile's call index once the first computation built it (NULL
 * before, and for a live run): for the views that follow the selected
 * function (its row over time, its file's line figures). */
MgCallIndex *mg_code_view_get_index (MgCodeView *self);
void mg_code_view_set_selected_function (MgCodeView *self, const char *name);
/* The keyboard into the search field (win.find-code, Ctrl+F): from the
 * graphs, Tab went through every graph and four buttons first. */
void mg_code_view_focus_search (MgCodeView *self);

G_END_DECLS
