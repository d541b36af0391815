/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the code views show, for tests (mg-code-view.c). */
#pragma once

#include "mg-code-item.h"
#include "mg-code-view.h"

G_BEGIN_DECLS

/* A computation is running or waiting. */
gboolean mg_code_view_is_busy (MgCodeView *self);
/* The search field, and the share it found ("Matched 12.3 %") while
 * one is typed, else NULL. */
GtkWidget *mg_code_view_get_search_entry (MgCodeView *self);
const char *mg_code_view_get_matched (MgCodeView *self);
/* The Functions table as shown (sorted, filtered): MgCodeItem items. */
GListModel *mg_code_view_get_functions_model (MgCodeView *self);
/* The call tree's rows as shown: GtkTreeListRow items of MgCodeItem. */
GListModel *mg_code_view_get_tree_model (MgCodeView *self);
/* Shows "functions", "tree", "flame" or "source". */
void mg_code_view_show_page (MgCodeView *self, const char *page);
/* The Functions table's and the call tree's column views. */
GtkWidget *mg_code_view_get_functions_view (MgCodeView *self);
GtkWidget *mg_code_view_get_tree_view (MgCodeView *self);
/* The call tree shown, NULL before the first. */
MgCodeTree *mg_code_view_get_tree (MgCodeView *self);
/* The Source view (MgSourceView). */
GtkWidget *mg_code_view_get_source_view (MgCodeView *self);
/* The flame graph (MgFlameView). */
GtkWidget *mg_code_view_get_flame_view (MgCodeView *self);
/* The flame graph's menu button (mg-flame-options.h), its actions on it. */
GtkWidget *mg_code_view_get_flame_options (MgCodeView *self);
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

/* The flame graph as shown (its zoom, the search's highlight) to a
 * .png (at SCALE), .svg or .pdf, or the Functions table as shown (sorted,
 * filtered) to a .csv: of the selection and process the views follow. */
gboolean mg_code_view_export (MgCodeView *self, const char *path, double scale, GError **error);

G_END_DECLS
