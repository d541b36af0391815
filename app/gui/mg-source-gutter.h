/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Source view's gutter (mg-source-view.c): beside each line with
 * samples its Self and Total (% of the range's samples) and, on a hot
 * line, a sparkline of the range cut in bins: each bar the share of the
 * bin's samples that were on the line, so when in the run it was busy. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "plot/mg-line-figures.h"

G_BEGIN_DECLS

#define MG_TYPE_SOURCE_GUTTER (mg_source_gutter_get_type ())
G_DECLARE_FINAL_TYPE (MgSourceGutter, mg_source_gutter, MG, SOURCE_GUTTER, GtkSourceGutterRenderer)

GtkSourceGutterRenderer *mg_source_gutter_new (void);
/* FIGURES (NULL: none) must outlive their use: set NULL before freeing. */
void mg_source_gutter_set_figures (MgSourceGutter *self, const MgLineFigures *figures);
/* What the gutter shows beside LINE (1 for the first), for tests and
 * the accessible description: "Self 62.5 %, Total 81.3 %", or NULL. */
char *mg_source_gutter_describe_line (MgSourceGutter *self, guint line);
/* The tooltip over LINE: its figures, and what a hot line's bars say. */
char *mg_source_gutter_dup_tooltip (MgSourceGutter *self, guint line);
/* The tooltip at (X, Y) in the gutter, or NULL. */
char *mg_source_gutter_dup_tooltip_at (MgSourceGutter *self, double x, double y);

G_END_DECLS
