/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-thread activity strip as a collapsible part of the main-thread
 * activity group, under its stacked row: a header naming the process
 * shown (with a hint when the view shows every process, which shows rank
 * 0's threads), then a label column with one name per thread
 * (mg_thread_strips_thread_name) beside the MgThreadStrip. Whether it is
 * expanded is remembered (GSettings "thread-strips-expanded"). Hidden
 * while the process has fewer than two threads known (one is the row
 * above again; stacks off, older records). */
#pragma once

#include <gtk/gtk.h>

#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_THREAD_STRIP_ROW (mg_thread_strip_row_get_type ())
G_DECLARE_FINAL_TYPE (MgThreadStripRow, mg_thread_strip_row, MG, THREAD_STRIP_ROW, GtkWidget)

GtkWidget *mg_thread_strip_row_new (MgProfile *profile, MgTimeView *view,
                                    GtkSizeGroup *label_group);

/* The MgThreadStrip. */
GtkWidget *mg_thread_strip_row_get_strip (MgThreadStripRow *self);
GtkExpander *mg_thread_strip_row_get_expander (MgThreadStripRow *self);
/* The thread names of the label column, top to bottom (NULL-terminated). */
char **mg_thread_strip_row_dup_labels (MgThreadStripRow *self);

G_END_DECLS
