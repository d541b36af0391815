/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code views exported (issue 30, point 7): the flame graph as a PNG,
 * SVG or PDF page through the graphs' exporter (mg-view-export.h), and
 * the functions table as CSV, both of the call tree of the selection and
 * process the views show. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "plot/mg-call-tree.h"
#include "plot/mg-flame-graph.h"

G_BEGIN_DECLS

/* The page's layout, in points (pixels for a PNG at scale 1). */
#define MG_FLAME_EXPORT_WIDTH 1200.0
#define MG_FLAME_EXPORT_TITLE_HEIGHT 44.0
#define MG_FLAME_EXPORT_ROW_HEIGHT 18.0
#define MG_FLAME_EXPORT_MARGIN 16.0

/* TREE's flame graph zoomed to FOCUS (MG_CALL_TREE_ROOT: all) as LOOK
 * draws it (the view's orientation, colouring, theme, root label and
 * search matches; its sizes are the page's), under TITLE and RANGE (what
 * the selection is, at the title's right). */
gboolean mg_flame_export_save (const MgCallTree *tree, guint focus, const MgFlameStyle *look,
                               const char *title, const char *range, double scale,
                               const char *path, GError **error);

/* The functions table, largest total first: function, self and total as %
 * of the samples and as samples, source file and line, module; ROWS (by
 * index of the table, NULL: every row) limits it to the rows shown. */
gboolean mg_functions_csv_save (const MgCallTree *tree, const GArray *rows, const char *path,
                                GError **error);

G_END_DECLS
