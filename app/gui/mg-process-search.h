/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The process chooser's search: a drop-down whose typed text finds an entry
 * by any part of it (a rank, a host, a pid), whatever the case, and whose
 * search field has the keyboard as soon as the list opens. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* For a drop-down with enable-search and a string expression; lasts as
 * long as the drop-down, across its models. */
void mg_process_search_setup (GtkDropDown *dropdown);

/* The drop-down's search field, or NULL (for tests). */
GtkWidget *mg_process_search_get_entry (GtkDropDown *dropdown);
/* The entries the list shows now, after the search (for tests). */
guint mg_process_search_get_n_shown (GtkDropDown *dropdown);

G_END_DECLS
