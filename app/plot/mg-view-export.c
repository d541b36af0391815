/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exporting the view with cairo. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "defs/mg-units.h"
#include "mg-activity-render.h"
#include "mg-graph-render.h"
#include "mg-text-sink.h"
#include "mg-selection-stats.h"
#include "mg-series-view.h"
#include "mg-view-export.h"

#define PAGE_WIDTH MG_VIEW_EXPORT_WIDTH
#define LABEL_WIDTH 230.0
#define ROW_HEIGHT MG_VIEW_EXPORT_ROW_HEIGHT
#define ROW_GAP MG_VIEW_EXPORT_ROW_GAP
#define HEADER_HEIGHT MG_VIEW_EXPORT_HEADER_HEIGHT
#define TITLE_HEIGHT MG_VIEW_EXPORT_TITLE_HEIGHT
#define AXIS_HEIGHT MG_VIEW_EXPORT_AXIS_HEIGHT
#define MARGIN MG_VIEW_EXPORT_MARGIN

MgViewGroup *
mg_view_group_new (const char *title, gboolean expanded)
{
  MgViewGroup *group = g_new0 (MgViewGroup, 1);

  group->title = g_strdup (title);
  group->expanded = expanded;
  group->metrics = g_array_new (FALSE, FALSE, sizeof (guint));
  group->activity_scope = -1;
  return group;
}

void
mg_view_group_free (MgViewGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->title);
  g_array_unref (group->metrics);
  g_free (group);
}

gboolean
mg_view_export_format_from_path (const char *path, MgViewFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *format = MG_VIEW_FORMAT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = MG_VIEW_FORMAT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = MG_VIEW_FORMAT_PDF;
  else
    return FALSE;
  return TRUE;
}

/* The rows a group takes: an activity group's metrics are one. */
static guint
group_rows (const MgViewGroup *group)
{
  if (group->activity_scope >= 0)
    return group->metrics->len > 0 ? 1 : 0;
  return group->metrics->len;
}

double
mg_view_export_height (MgViewGroup *const *groups, guint n_groups)
{
  double height = TITLE_HEIGHT + AXIS_HEIGHT + MARGIN;

  for (guint g = 0; g < n_groups; g++)
    {
      height += HEADER_HEIGHT;
      if (groups[g]->expanded)
        height += group_rows (groups[g]) * (ROW_HEIGHT + ROW_GAP);
    }
  return height;
}

static void
set_colour (cairo_t *cr, gboolean dark, double alpha)
{
  double v = dark ? 0.92 : 0.13;

  cairo_set_source_rgba (cr, v, v, v, alpha);
}

static void
show_text (cairo_t *cr, double x, double y, double size, gboolean bold, const char *text)
{
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  cairo_move_to (cr, x, y);
  mg_text_show (cr, text);
}

/* The group header as the window draws it: a tinted band with a rule above,
 * the expander's triangle and the display name. */
static void
draw_group_header (cairo_t *cr, const MgViewGroup *group, double y, gboolean dark)
{
  double cx = MARGIN + 6, cy = y + HEADER_HEIGHT / 2;

  set_colour (cr, dark, 0.06);
  cairo_rectangle (cr, 0, y, PAGE_WIDTH, HEADER_HEIGHT);
  cairo_fill (cr);
  set_colour (cr, dark, 0.14);
  cairo_rectangle (cr, 0, y, PAGE_WIDTH, 1);
  cairo_fill (cr);

  set_colour (cr, dark, 0.8);
  if (group->expanded)
    {
      cairo_move_to (cr, cx - 5, cy - 3);
      cairo_line_to (cr, cx + 5, cy - 3);
      cairo_line_to (cr, cx, cy + 3);
    }
  else
    {
      cairo_move_to (cr, cx - 3, cy - 5);
      cairo_line_to (cr, cx + 3, cy);
      cairo_line_to (cr, cx - 3, cy + 5);
    }
  cairo_close_path (cr);
  cairo_fill (cr);
  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN + 20, cy + 5, 14, TRUE, group->title);
}

static void
draw_row_label (cairo_t *cr, MgProfile *profile, guint metric, MgTimeView *view,
                const MgSeriesView *series, double y, gboolean dark)
{
  const MgMetricDef *def = mg_profile_get_metric (profile, metric);
  MgRgba colour = mg_graph_render_metric_colour (def, dark);
  MgSelectionStats stats = { NAN, NAN, NAN, -1, -1, 0 };
  const char *names[3] = { C_("figure", "Max"), C_("figure", "Mean"), C_("figure", "Min") };
  g_autofree char *units = mg_units_dup_family (def);
  double values[3];
  double t0, t1;

  mg_time_view_get_figures_range (view, &t0, &t1);
  if (series->n > 0)
    mg_selection_stats_compute (series, t0, t1, &stats);
  values[0] = stats.max;
  values[1] = stats.mean;
  values[2] = stats.min;

  cairo_set_source_rgba (cr, colour.r, colour.g, colour.b, 1.0);
  cairo_arc (cr, MARGIN + 5, y + 16, 5, 0, 2 * G_PI);
  cairo_fill (cr);
  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN + 16, y + 20, 13, TRUE, def->display_name ? def->display_name : def->id);
  if (units != NULL && units[0] != '\0')
    {
      set_colour (cr, dark, 0.6);
      show_text (cr, MARGIN + 16, y + 36, 11, FALSE, units);
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = mg_units_format_value (def, values[i]);

      set_colour (cr, dark, 0.6);
      show_text (cr, MARGIN + 16, y + 56 + 14 * i, 11, FALSE, names[i]);
      set_colour (cr, dark, 1.0);
      show_text (cr, MARGIN + 60, y + 56 + 14 * i, 11, FALSE, text);
    }
}

static void
draw_row (cairo_t *cr, MgProfile *profile, MgTimeView *view, guint metric, double y,
          gboolean dark)
{
  double graph_x = MARGIN + LABEL_WIDTH;
  MgGraphRenderParams params;
  MgSeriesView series;

  if (!mg_series_view_init (&series, profile, metric, mg_time_view_get_process (view)))
    series.n = 0;
  draw_row_label (cr, profile, metric, view, &series, y, dark);

  mg_graph_render_params_init (&params);
  params.x = graph_x;
  params.y = y;
  params.width = PAGE_WIDTH - graph_x - MARGIN;
  params.height = ROW_HEIGHT;
  params.def = mg_profile_get_metric (profile, metric);
  params.series = &series;
  params.t0 = mg_time_view_get_start (view);
  params.t1 = mg_time_view_get_end (view);
  params.auto_zoom_vertical = mg_time_view_get_auto_zoom_vertical (view);
  params.dark = dark;
  params.has_selection = mg_time_view_get_has_selection (view);
  params.selection_start = mg_time_view_get_selection_start (view);
  params.selection_end = mg_time_view_get_selection_end (view);
  params.hover_time = -1;
  cairo_save (cr);
  mg_graph_render (cr, &params);
  cairo_restore (cr);
}

/* An activity group as the window draws it: one stacked row. */
static void
draw_activity_row (cairo_t *cr, MgProfile *profile, MgTimeView *view, MgActivityScope scope,
                   double y, gboolean dark)
{
  double graph_x = MARGIN + LABEL_WIDTH;
  MgActivityRenderParams params;
  MgActivitySeries series;

  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN, y + 20, 13, TRUE,
             scope == MG_ACTIVITY_MAIN_THREAD ? _("Main thread activity")
                                              : _("All threads activity"));
  set_colour (cr, dark, 0.6);
  /* xgettext:no-c-format */
  show_text (cr, MARGIN, y + 36, 11, FALSE, scope == MG_ACTIVITY_MAIN_THREAD
                                              ? _("% of the samples, stacked")
                                              /* xgettext:no-c-format */
                                              : _("% of the threads, stacked"));
  mg_activity_render_params_init (&params);
  params.x = graph_x;
  params.y = y;
  params.width = PAGE_WIDTH - graph_x - MARGIN;
  params.height = ROW_HEIGHT;
  params.series = mg_activity_series_init (&series, profile, scope,
                                           mg_time_view_get_process (view))
                    ? &series
                    : NULL;
  params.t0 = mg_time_view_get_start (view);
  params.t1 = mg_time_view_get_end (view);
  params.dark = dark;
  params.has_selection = mg_time_view_get_has_selection (view);
  params.selection_start = mg_time_view_get_selection_start (view);
  params.selection_end = mg_time_view_get_selection_end (view);
  cairo_save (cr);
  mg_activity_render (cr, &params);
  cairo_restore (cr);
}

static void
draw_view (cairo_t *cr, MgProfile *profile, MgTimeView *view, MgViewGroup *const *groups,
           guint n_groups, const char *title, gboolean dark, double height)
{
  MgRgba background = mg_graph_render_background (dark);
  double graph_x = MARGIN + LABEL_WIDTH;
  double y = TITLE_HEIGHT;

  cairo_set_source_rgba (cr, background.r, background.g, background.b, 1.0);
  cairo_paint (cr);
  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN, 28, 16, TRUE, title);
  {
    /* Which range the figures describe, at the title's right. */
    g_autofree char *line = mg_time_view_describe_figures_range (view);
    cairo_text_extents_t extents;

    cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size (cr, 12);
    cairo_text_extents (cr, line, &extents);
    set_colour (cr, dark, 0.7);
    show_text (cr, PAGE_WIDTH - MARGIN - extents.x_advance, 28, 12, FALSE, line);
  }

  for (guint g = 0; g < n_groups; g++)
    {
      draw_group_header (cr, groups[g], y, dark);
      y += HEADER_HEIGHT;
      if (!groups[g]->expanded)
        continue;
      if (groups[g]->activity_scope >= 0 && groups[g]->metrics->len > 0)
        {
          draw_activity_row (cr, profile, view, (MgActivityScope) groups[g]->activity_scope,
                             y + ROW_GAP / 2, dark);
          y += ROW_HEIGHT + ROW_GAP;
          continue;
        }
      for (guint i = 0; i < groups[g]->metrics->len; i++)
        {
          draw_row (cr, profile, view, g_array_index (groups[g]->metrics, guint, i), y + ROW_GAP / 2,
                    dark);
          y += ROW_HEIGHT + ROW_GAP;
        }
    }

  cairo_save (cr);
  mg_graph_render_time_axis (cr, graph_x, height - AXIS_HEIGHT - MARGIN / 2,
                             PAGE_WIDTH - graph_x - MARGIN, AXIS_HEIGHT,
                             mg_time_view_get_start (view), mg_time_view_get_end (view),
                             mg_time_view_get_has_selection (view),
                             mg_time_view_get_selection_start (view),
                             mg_time_view_get_selection_end (view), -1, dark, 1);
  cairo_restore (cr);
}

/* What the figures describe, then "Group: metric (units), metric…" per
 * line, for the SVG's <desc>. */
static char *
describe_groups (MgProfile *profile, MgTimeView *view, MgViewGroup *const *groups,
                 guint n_groups)
{
  GString *text = g_string_new (NULL);
  g_autofree char *range = mg_time_view_describe_figures_range (view);

  g_string_append_printf (text, "%s\n", range);

  for (guint g = 0; g < n_groups; g++)
    {
      g_string_append_printf (text, "%s:", groups[g]->title);
      for (guint i = 0; groups[g]->expanded && i < groups[g]->metrics->len; i++)
        {
          const MgMetricDef *def = mg_profile_get_metric (profile, g_array_index (groups[g]->metrics,
                                                                                  guint, i));
          g_autofree char *units = mg_units_dup_family (def);

          g_string_append_printf (text, "%s %s", i > 0 ? "," : "",
                                  def->display_name ? def->display_name : def->id);
          if (units != NULL && units[0] != '\0')
            g_string_append_printf (text, " (%s)", units);
        }
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

/* cairo writes text as glyph outlines: the names go in as <title> and
 * <desc> too, so the file can be searched and read aloud. */
/* "rgb(…)" and an opacity for a text run's colour. */
static void
set_text_style (xmlNodePtr node, const MgTextRun *run)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *fill = g_strdup_printf ("rgb(%d,%d,%d)", (int) lround (run->r * 255),
                                           (int) lround (run->g * 255), (int) lround (run->b * 255));

  xmlSetProp (node, BAD_CAST "x", BAD_CAST g_ascii_formatd (number, sizeof number, "%.2f", run->x));
  xmlSetProp (node, BAD_CAST "y", BAD_CAST g_ascii_formatd (number, sizeof number, "%.2f", run->y));
  xmlSetProp (node, BAD_CAST "font-family", BAD_CAST "sans-serif");
  xmlSetProp (node, BAD_CAST "font-size",
              BAD_CAST g_ascii_formatd (number, sizeof number, "%.2f", run->size));
  if (run->bold)
    xmlSetProp (node, BAD_CAST "font-weight", BAD_CAST "bold");
  xmlSetProp (node, BAD_CAST "fill", BAD_CAST fill);
  if (run->a < 1)
    xmlSetProp (node, BAD_CAST "fill-opacity",
                BAD_CAST g_ascii_formatd (number, sizeof number, "%.3f", run->a));
}

/* The texts as <text> elements over the drawing, in one group. */
static void
add_text_runs (xmlDocPtr doc, xmlNodePtr root, MgTextSink *sink)
{
  xmlNodePtr group = xmlNewDocNode (doc, root->ns, BAD_CAST "g", NULL);

  xmlSetProp (group, BAD_CAST "id", BAD_CAST "text");
  xmlAddChild (root, group);
  for (guint i = 0; i < mg_text_sink_get_n_runs (sink); i++)
    {
      const MgTextRun *run = mg_text_sink_get_run (sink, i);
      xmlNodePtr node = xmlNewDocNode (doc, root->ns, BAD_CAST "text", NULL);

      set_text_style (node, run);
      xmlNodeAddContent (node, BAD_CAST run->text);
      xmlAddChild (group, node);
    }
}

static gboolean
add_svg_text (const char *path, const char *title, const char *description, MgTextSink *sink,
              GError **error)
{
  xmlDocPtr doc = xmlReadFile (path, NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
  xmlNodePtr root = doc != NULL ? xmlDocGetRootElement (doc) : NULL;
  xmlNodePtr title_node, desc_node;
  int written;

  if (root == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Cannot read back “%s” to add its text"), path);
      xmlFreeDoc (doc);
      return FALSE;
    }
  title_node = xmlNewDocNode (doc, root->ns, BAD_CAST "title", NULL);
  xmlNodeAddContent (title_node, BAD_CAST title);
  desc_node = xmlNewDocNode (doc, root->ns, BAD_CAST "desc", NULL);
  xmlNodeAddContent (desc_node, BAD_CAST description);
  if (root->children != NULL)
    xmlAddPrevSibling (root->children, title_node);
  else
    xmlAddChild (root, title_node);
  xmlAddNextSibling (title_node, desc_node);
  add_text_runs (doc, root, sink);
  written = xmlSaveFileEnc (path, doc, "UTF-8");
  xmlFreeDoc (doc);
  if (written < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”"), path);
      return FALSE;
    }
  return TRUE;
}

static cairo_surface_t *
create_surface (MgViewFormat format, const char *path, double width, double height, double scale)
{
  switch (format)
    {
    case MG_VIEW_FORMAT_SVG:
      return cairo_svg_surface_create (path, width, height);
    case MG_VIEW_FORMAT_PDF:
      return cairo_pdf_surface_create (path, width, height);
    case MG_VIEW_FORMAT_PNG:
    default:
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                         (int) ceil (height * scale));
    }
}

gboolean
mg_view_export_draw (const char *path, double width, double height, double scale,
                     MgViewDrawFunc draw, gpointer user_data, const char *title,
                     const char *description, GError **error)
{
  g_autoptr (MgTextSink) sink = NULL;
  MgViewFormat format;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (!mg_view_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot export the view to “%s”: name the file .png, .svg or .pdf"), path);
      return FALSE;
    }

  if (format != MG_VIEW_FORMAT_PNG || !(scale >= 1 && scale <= MG_VIEW_EXPORT_MAX_SCALE))
    scale = 1;
  surface = create_surface (format, path, width, height, scale);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  if (format == MG_VIEW_FORMAT_SVG)
    {
      /* Real text, not cairo's glyph outlines (mg-text-sink.h). */
      sink = mg_text_sink_new ();
      mg_text_sink_attach (sink, cr);
    }
  draw (cr, user_data);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (format == MG_VIEW_FORMAT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  if (format == MG_VIEW_FORMAT_SVG)
    return add_svg_text (path, title, description, sink, error);
  return TRUE;
}

typedef struct {
  MgProfile *profile;
  MgTimeView *view;
  MgViewGroup *const *groups;
  guint n_groups;
  const char *title;
  gboolean dark;
  double height;
} ViewPage;

static void
draw_view_page (cairo_t *cr, gpointer user_data)
{
  const ViewPage *page = user_data;
  draw_view (cr, page->profile, page->view, page->groups, page->n_groups, page->title, page->dark,
             page->height);
}

gboolean
mg_view_export_save (MgProfile *profile, MgTimeView *view, MgViewGroup *const *groups,
                     guint n_groups, const char *title, gboolean dark, double scale,
                     const char *path, GError **error)
{
  ViewPage page = { profile, view, groups, n_groups, title, dark,
                    mg_view_export_height (groups, n_groups) };
  g_autofree char *description = describe_groups (profile, view, groups, n_groups);

  return mg_view_export_draw (path, PAGE_WIDTH, page.height, scale, draw_view_page, &page, title,
                              description, error);
}
