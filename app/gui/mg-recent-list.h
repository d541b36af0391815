/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The start page's recent profiles: the last eight existing .mgprof files
 * GtkRecentManager knows, each a list row (file name, folder beneath) that
 * carries its URI. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Refills list; returns how many rows it holds. */
guint mg_recent_list_fill (GtkListBox *list);
const char *mg_recent_list_row_get_uri (GtkListBoxRow *row);

G_END_DECLS
