/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the Source view shows, for tests (mg-source-view.c). */
#pragma once

#include "mg-source-view.h"
#include "plot/mg-line-figures.h"

G_BEGIN_DECLS

/* A computation is running or waiting. */
gboolean mg_source_view_is_busy (MgSourceView *self);
/* The text shown, or NULL while the empty state is. */
char *mg_source_view_dup_text (MgSourceView *self);
/* Where the text was read from (NULL: none shown). */
const char *mg_source_view_get_found_at (MgSourceView *self);
/* The line scrolled to and the cursor's (1 for the first; 0: none). */
guint mg_source_view_get_line (MgSourceView *self);
/* Whether it is still scrolling to its line while the text is laid out. */
gboolean mg_source_view_is_scrolling (MgSourceView *self);
/* Whether LINE (1 for the first) is within the visible part. */
gboolean mg_source_view_line_is_visible (MgSourceView *self, guint line);
/* Whether LINE is marked hot. */
gboolean mg_source_view_line_is_hot (MgSourceView *self, guint line);
/* Whether the figures come from the Code pane's call index. */
gboolean mg_source_view_has_index (MgSourceView *self);
/* The figures shown (NULL: none). */
const MgLineFigures *mg_source_view_get_figures (MgSourceView *self);
/* Addresses named for the profile so far (each once). */
guint mg_source_view_get_n_named (MgSourceView *self);
/* The gutter's tooltip at the middle of LINE's row, or NULL. */
char *mg_source_view_dup_gutter_tooltip (MgSourceView *self, guint line);
/* The gutter's text for LINE, or NULL. */
char *mg_source_view_describe_line (MgSourceView *self, guint line);
/* The empty state's title and detail when it is shown, else NULL. */
const char *mg_source_view_get_empty_title (MgSourceView *self);
const char *mg_source_view_get_empty_detail (MgSourceView *self);
/* The style scheme in use ("Adwaita", "Adwaita-dark"). */
const char *mg_source_view_get_scheme (MgSourceView *self);
/* The source folder, as the chooser sets it (NULL or "": none). */
void mg_source_view_set_source_folder (MgSourceView *self, const char *folder);

G_END_DECLS
