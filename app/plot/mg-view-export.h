/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The current view as an image or a document: the title and which range
 * the figures describe, every shown group's header (its display name;
 * collapsed groups show the header alone), each visible row (colour,
 * display name, units, max / mean / min of that range, then its graph drawn by
 * mg_graph_render) and the shared time axis, on a PNG, SVG or PDF cairo
 * surface. cairo writes an SVG's glyphs as outlines: its texts are written
 * as <text> elements instead (mg-text-sink.h), and it also carries the
 * title and the group and metric names (<title>, <desc>). GTK-free. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "profile/mg-profile.h"
#include "mg-time-view.h"

G_BEGIN_DECLS

typedef enum {
  MG_VIEW_FORMAT_PNG,
  MG_VIEW_FORMAT_SVG,
  MG_VIEW_FORMAT_PDF,
} MgViewFormat;

/* One group as the window shows it. */
typedef struct {
  char *title;        /* its header */
  gboolean expanded;  /* FALSE: the header alone */
  GArray *metrics;    /* guint: its visible rows, top to bottom */
  /* An activity group (plot/mg-activity-series.h): its metrics are drawn
   * as one stacked row of that scope; -1: a row per metric. */
  int activity_scope;
} MgViewGroup;

MgViewGroup *mg_view_group_new (const char *title, gboolean expanded);
void mg_view_group_free (MgViewGroup *group);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgViewGroup, mg_view_group_free)

/* The page layout, in points (pixels for PNG). */
#define MG_VIEW_EXPORT_WIDTH 1200.0
#define MG_VIEW_EXPORT_TITLE_HEIGHT 44.0
#define MG_VIEW_EXPORT_HEADER_HEIGHT 30.0
#define MG_VIEW_EXPORT_ROW_HEIGHT 96.0
#define MG_VIEW_EXPORT_ROW_GAP 8.0
#define MG_VIEW_EXPORT_AXIS_HEIGHT 34.0
#define MG_VIEW_EXPORT_MARGIN 16.0

/* From a file name's extension; FALSE when it is none of .png .svg .pdf. */
gboolean mg_view_export_format_from_path (const char *path, MgViewFormat *format);

/* The page height for these groups. */
double mg_view_export_height (MgViewGroup *const *groups, guint n_groups);

/* The largest PNG scale offered. */
#define MG_VIEW_EXPORT_MAX_SCALE 4.0

/* groups: what to draw, top to bottom. @scale: a PNG's pixels per point
 * (1: 1200 px wide, 2: 2400 px; between 1 and MG_VIEW_EXPORT_MAX_SCALE,
 * else 1), ignored by SVG and PDF. An SVG's texts are <text> elements. */
gboolean mg_view_export_save (MgProfile *profile, MgTimeView *view, MgViewGroup *const *groups,
                              guint n_groups, const char *title, gboolean dark, double scale,
                              const char *path, GError **error);

/* Draws a page of WIDTH × HEIGHT points into PATH (.png, .svg or .pdf,
 * by its extension) as mg_view_export_save () does: DRAW paints it; an
 * SVG gets its texts as <text> elements, TITLE and DESCRIPTION as <title>
 * and <desc>. For the other exported views (the flame graph). */
typedef void (*MgViewDrawFunc) (cairo_t *cr, gpointer user_data);
gboolean mg_view_export_draw (const char *path, double width, double height, double scale,
                              MgViewDrawFunc draw, gpointer user_data, const char *title,
                              const char *description, GError **error);

G_END_DECLS
