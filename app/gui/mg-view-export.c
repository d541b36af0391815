/* Exporting the view with cairo. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "mg-graph-render.h"
#include "mg-selection-stats.h"
#include "mg-series-view.h"
#include "mg-units.h"
#include "mg-view-export.h"

#define PAGE_WIDTH 1200.0
#define LABEL_WIDTH 230.0
#define ROW_HEIGHT 96.0
#define ROW_GAP 8.0
#define TITLE_HEIGHT 44.0
#define AXIS_HEIGHT 34.0
#define MARGIN 16.0

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
  cairo_show_text (cr, text);
}

static void
draw_row_label (cairo_t *cr, MgProfile *profile, guint metric, MgTimeView *view,
                const MgSeriesView *series, double y, gboolean dark)
{
  const MgMetricDef *def = mg_profile_get_metric (profile, metric);
  MgRgba colour = mg_graph_render_metric_colour (def, dark);
  MgSelectionStats stats = { NAN, NAN, NAN, -1, -1, 0 };
  const char *names[3] = { C_("figure", "Max"), C_("figure", "Mean"), C_("figure", "Min") };
  double values[3];
  double t0, t1;

  mg_time_view_get_figures_range (view, &t0, &t1);
  if (series->n > 0)
    mg_selection_stats_compute (series, t0, t1, &stats);
  values[0] = stats.max;
  values[1] = stats.mean;
  values[2] = stats.min;

  cairo_set_source_rgba (cr, colour.r, colour.g, colour.b, 1.0);
  cairo_arc (cr, MARGIN + 5, y + 20, 5, 0, 2 * G_PI);
  cairo_fill (cr);
  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN + 16, y + 24, 13, TRUE, def->display_name ? def->display_name : def->id);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *text = mg_units_format_value (def, values[i]);

      set_colour (cr, dark, 0.6);
      show_text (cr, MARGIN + 16, y + 44 + 16 * i, 11, FALSE, names[i]);
      set_colour (cr, dark, 1.0);
      show_text (cr, MARGIN + 60, y + 44 + 16 * i, 11, FALSE, text);
    }
}

static void
draw_view (cairo_t *cr, MgProfile *profile, MgTimeView *view, const guint *metrics,
           guint n_metrics, const char *title, gboolean dark, double height)
{
  MgRgba background = mg_graph_render_background (dark);
  double graph_x = MARGIN + LABEL_WIDTH;
  double graph_width = PAGE_WIDTH - graph_x - MARGIN;
  double t0 = mg_time_view_get_start (view), t1 = mg_time_view_get_end (view);
  double y = TITLE_HEIGHT;

  cairo_set_source_rgba (cr, background.r, background.g, background.b, 1.0);
  cairo_paint (cr);
  set_colour (cr, dark, 1.0);
  show_text (cr, MARGIN, 28, 16, TRUE, title);

  for (guint i = 0; i < n_metrics; i++)
    {
      MgGraphRenderParams params;
      MgSeriesView series;

      if (!mg_series_view_init (&series, profile, metrics[i], mg_time_view_get_process (view)))
        series.n = 0;
      draw_row_label (cr, profile, metrics[i], view, &series, y, dark);

      mg_graph_render_params_init (&params);
      params.x = graph_x;
      params.y = y;
      params.width = graph_width;
      params.height = ROW_HEIGHT;
      params.def = mg_profile_get_metric (profile, metrics[i]);
      params.series = &series;
      params.t0 = t0;
      params.t1 = t1;
      params.auto_zoom_vertical = mg_time_view_get_auto_zoom_vertical (view);
      params.dark = dark;
      params.has_selection = mg_time_view_get_has_selection (view);
      params.selection_start = mg_time_view_get_selection_start (view);
      params.selection_end = mg_time_view_get_selection_end (view);
      params.hover_time = -1;
      cairo_save (cr);
      mg_graph_render (cr, &params);
      cairo_restore (cr);
      y += ROW_HEIGHT + ROW_GAP;
    }

  cairo_save (cr);
  mg_graph_render_time_axis (cr, graph_x, height - AXIS_HEIGHT - MARGIN / 2, graph_width,
                             AXIS_HEIGHT, t0, t1, mg_time_view_get_has_selection (view),
                             mg_time_view_get_selection_start (view),
                             mg_time_view_get_selection_end (view), -1, dark);
  cairo_restore (cr);
}

gboolean
mg_view_export_save (MgProfile *profile, MgTimeView *view, const guint *metrics,
                     guint n_metrics, const char *title, gboolean dark, const char *path,
                     GError **error)
{
  double height = TITLE_HEIGHT + n_metrics * (ROW_HEIGHT + ROW_GAP) + AXIS_HEIGHT + MARGIN;
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

  switch (format)
    {
    case MG_VIEW_FORMAT_SVG:
      surface = cairo_svg_surface_create (path, PAGE_WIDTH, height);
      break;
    case MG_VIEW_FORMAT_PDF:
      surface = cairo_pdf_surface_create (path, PAGE_WIDTH, height);
      break;
    case MG_VIEW_FORMAT_PNG:
    default:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) PAGE_WIDTH, (int) height);
      break;
    }

  cr = cairo_create (surface);
  draw_view (cr, profile, view, metrics, n_metrics, title, dark, height);
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
  return TRUE;
}
