/* The current view as an image or a document: every visible row (its label
 * and figures, then its graph drawn by mg_graph_render) and the shared time
 * axis, on a PNG, SVG or PDF cairo surface. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "mg-profile.h"
#include "mg-time-view.h"

G_BEGIN_DECLS

typedef enum {
  MG_VIEW_FORMAT_PNG,
  MG_VIEW_FORMAT_SVG,
  MG_VIEW_FORMAT_PDF,
} MgViewFormat;

/* From a file name's extension; FALSE when it is none of .png .svg .pdf. */
gboolean mg_view_export_format_from_path (const char *path, MgViewFormat *format);

/* metrics: the rows to draw, top to bottom. */
gboolean mg_view_export_save (MgProfile *profile, MgTimeView *view, const guint *metrics,
                              guint n_metrics, const char *title, gboolean dark,
                              const char *path, GError **error);

G_END_DECLS
