/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the code views show, for tests (mg-code-view.c). */
#pragma once

#include "mg-code-view.h"

G_BEGIN_DECLS

/* A computation is running or waiting. */
gboolean mg_code_view_is_busy (MgCodeView *self);
/* The Functions table as shown (sorted): MgCodeItem items. */
GListModel *mg_code_view_get_functions_model (MgCodeView *self);
/* The call tree's rows as shown: GtkTreeListRow items of MgCodeItem. */
GListModel *mg_code_view_get_tree_model (MgCodeView *self);
/* Shows "functions", "tree", "flame" or "source". */
void mg_code_view_show_page (MgCodeView *self, const char *page);
/* The Source view (MgSourceView). */
GtkWidget *mg_code_view_get_source_view (MgCodeView *self);
/* The flame graph (MgFlameView). */
GtkWidget *mg_code_view_get_flame_view (MgCodeView *self);
/* Shows the bottom-up tree (TRUE) or the top-down one. */
void mg_code_view_set_bottom_up (MgCodeView *self, gboolean bottom_up);
/* The empty state's title when it is shown, else NULL. */
const char *mg_code_view_get_empty_title (MgCodeView *self);
/* Whether the Functions table shows its Min, Mean and Max columns
 * (figures across processes). */
gboolean mg_code_view_get_spread_shown (MgCodeView *self);
/* The line above the views: samples and range. */
const char *mg_code_view_get_summary (MgCodeView *self);
/* The thread drop-down: All Threads, then Main Thread, Thread 1, … */
GtkWidget *mg_code_view_get_threads (MgCodeView *self);

G_END_DECLS
