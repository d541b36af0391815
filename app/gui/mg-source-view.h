/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Code pane's Source view (issue 30, docs/viewer.md "Source"): the
 * selected function's source file, read-only and highlighted
 * (GtkSourceView 5, light or dark with the window), scrolled to its
 * line; beside each line its Self and Total share of the range's samples
 * and, on hot lines, a sparkline of when in the range it was busy, for
 * what the rows' figures describe and the process chosen. Recomputed on
 * a worker thread when the file, range or process changes. The text
 * comes from a lookup (the disk by default), else from the chosen source
 * folder (mg-source-find.h), else an empty state says what to do. */
#pragma once

#include <gtk/gtk.h>

#include "mg-source-find.h"
#include "plot/mg-call-index.h"
#include "plot/mg-time-view.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_TYPE_SOURCE_VIEW (mg_source_view_get_type ())
G_DECLARE_FINAL_TYPE (MgSourceView, mg_source_view, MG, SOURCE_VIEW, GtkBox)

GtkWidget *mg_source_view_new (MgTimeView *view);
/* NULL: nothing shown. */
void mg_source_view_set_profile (MgSourceView *self, MgProfile *profile);
/* Where the text comes from before the source folder: by default (LOOKUP
 * NULL) the text the profile carries, else the disk at the recorded
 * path; a lookup set here replaces both for every profile. Called on the worker thread; DESTROY frees USER_DATA
 * once no computation uses it. Files shown are read again. */
/* The profile's call index (the Code pane's, built with the same
 * symbols), NULL: none; cleared with the profile. With it the figures
 * look only at the stacks that may pass the file. */
void mg_source_view_set_index (MgSourceView *self, MgCallIndex *index);
void mg_source_view_set_lookup (MgSourceView *self, MgSourceLookupFunc lookup, gpointer user_data,
                                GDestroyNotify destroy);
/* Shows FUNCTION's FILE (as its frames name it) scrolled to LINE (0: the
 * top). FUNCTION NULL: none selected; FILE NULL: its debug information
 * names none. */
void mg_source_view_show_function (MgSourceView *self, const char *function, const char *file,
                                   guint line);

G_END_DECLS
