/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stacked activity row, drawn with cairo alone. */
#include "mg-config.h"

#include "mg-activity-render.h"

#include <math.h>

#include "mg-graph-render.h"
#include "mg-text-sink.h"

#define LEGEND_HEIGHT 16.0
#define LEGEND_FONT 10.0
#define SWATCH 9.0
/* Computing's spread across processes: a thin line at its min and max. */
#define BAND_LINE_WIDTH 1.0

void
mg_activity_render_params_init (MgActivityRenderParams *params)
{
  *params = (MgActivityRenderParams) {
    .draw_legend = TRUE,
    .hover_time = -1,
    .text_scale = 1,
  };
}

MgRgba
mg_activity_render_class_colour (MgActivityClass klass)
{
  /* From the Okabe–Ito palette (told apart with the common colour
   * vision deficiencies), the blue lightened and the grey chosen so that
   * each has 3:1 contrast on white and on the dark background
   * (tests/plot/test-activity.c checks it). */
  static const MgRgba colours[MG_ACTIVITY_N_CLASSES] = {
    [MG_ACTIVITY_COMPUTING] = { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0, 1 },
    [MG_ACTIVITY_MPI] = { 0x2B / 255.0, 0x7F / 255.0, 0xC0 / 255.0, 1 },
    [MG_ACTIVITY_IO] = { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0, 1 },
    [MG_ACTIVITY_WAITING] = { 0x8C / 255.0, 0x8C / 255.0, 0x8C / 255.0, 1 },
  };

  g_return_val_if_fail (klass < MG_ACTIVITY_N_CLASSES, colours[0]);
  return colours[klass];
}

double
mg_activity_render_legend_height (void)
{
  return LEGEND_HEIGHT;
}

/* The legend's size factor: large text makes it larger, never smaller. */
static double
legend_scale (const MgActivityRenderParams *p)
{
  return p->text_scale > 1 ? p->text_scale : 1;
}

void
mg_activity_render_plot_area (const MgActivityRenderParams *p, double *y, double *height)
{
  double legend = p->draw_legend ? MIN (LEGEND_HEIGHT * legend_scale (p), p->height / 2) : 0;

  *y = p->y + legend;
  *height = p->height - legend;
}

static void
set_source (cairo_t *cr, MgRgba c, double alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, c.a * alpha);
}

static MgRgba
text_colour (gboolean dark)
{
  return dark ? (MgRgba) { 1, 1, 1, 0.75 } : (MgRgba) { 0, 0, 0, 0.7 };
}

/* Device pixels per user unit across (HiDPI and exports at a scale). */
static double
pixel_scale_x (cairo_t *cr)
{
  double sx = 1, sy = 0, dx, dy;

  cairo_user_to_device_distance (cr, &sx, &sy);
  cairo_surface_get_device_scale (cairo_get_group_target (cr), &dx, &dy);
  return MAX (fabs (sx * dx), 1e-6);
}

static void
draw_legend (cairo_t *cr, const MgActivityRenderParams *p)
{
  double scale = legend_scale (p), swatch = SWATCH * scale, height = LEGEND_HEIGHT * scale;
  double x = p->x + 6;
  double baseline = p->y + height / 2 + LEGEND_FONT * scale / 2 - 1.5;

  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, LEGEND_FONT * scale);
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    {
      const char *name = mg_activity_class_name (k);
      cairo_text_extents_t ext;

      set_source (cr, mg_activity_render_class_colour (k), 1);
      cairo_rectangle (cr, x, p->y + (height - swatch) / 2, swatch, swatch);
      cairo_fill (cr);
      x += swatch + 4;
      set_source (cr, text_colour (p->dark), 1);
      cairo_move_to (cr, x, baseline);
      mg_text_show (cr, name);
      cairo_text_extents (cr, name, &ext);
      x += ext.x_advance + 12;
    }
}

/* Runs of equal columns become one box per class, so a vector export of a
 * long phase is one rectangle, not a rectangle per pixel. */
static gboolean
same_column (const MgActivityColumns *cols, guint a, guint b)
{
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    {
      double x = cols->shares[k][a], y = cols->shares[k][b];

      if (!(x == y || (isnan (x) && isnan (y))))
        return FALSE;
    }
  return TRUE;
}

static void
draw_stack (cairo_t *cr, const MgActivityRenderParams *p, const MgActivityColumns *cols,
            double y0, double height, double column_width)
{
  double scale = height / 100.0;

  for (guint c = 0; c < cols->n;)
    {
      guint end = c + 1;
      double bottom = y0 + height;
      double x0, x1;

      while (end < cols->n && same_column (cols, c, end))
        end++;
      x0 = p->x + c * column_width;
      x1 = p->x + end * column_width;
      for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
        {
          double share = cols->shares[k][c];
          double top;

          if (isnan (share) || share <= 0)
            continue;
          top = MAX (bottom - share * scale, y0);
          set_source (cr, mg_activity_render_class_colour (k), 1);
          cairo_rectangle (cr, x0, top, x1 - x0, bottom - top);
          cairo_fill (cr);
          bottom = top;
        }
      c = end;
    }
}

/* Computing's min and max across processes: where the band of a single
 * metric's row would be. */
static void
draw_band (cairo_t *cr, const MgActivityRenderParams *p, const MgActivityColumns *cols, double y0,
           double height, double column_width)
{
  const double *edges[2] = { cols->computing_min, cols->computing_max };

  set_source (cr, text_colour (p->dark), 0.9);
  cairo_set_line_width (cr, BAND_LINE_WIDTH);
  for (guint e = 0; e < 2; e++)
    {
      gboolean pen_down = FALSE;

      for (guint c = 0; c < cols->n; c++)
        {
          double v = edges[e][c];
          double y = y0 + height - CLAMP (v, 0, 100) / 100.0 * height;

          /* Where every process agrees there is no band to draw. */
          if (isnan (v) || !(cols->computing_max[c] - cols->computing_min[c] > 0.5))
            {
              pen_down = FALSE;
              continue;
            }
          if (!pen_down)
            cairo_move_to (cr, p->x + c * column_width, y);
          else
            cairo_line_to (cr, p->x + c * column_width, y);
          cairo_line_to (cr, p->x + (c + 1) * column_width, y);
          pen_down = TRUE;
        }
      cairo_stroke (cr);
    }
}

static double
time_to_x (const MgActivityRenderParams *p, double t)
{
  return p->x + (t - p->t0) / (p->t1 - p->t0) * p->width;
}

static void
draw_selection (cairo_t *cr, const MgActivityRenderParams *p, double y0, double height)
{
  MgRgba tint = mg_graph_render_selection_colour (p->dark);
  double x0 = CLAMP (time_to_x (p, p->selection_start), p->x, p->x + p->width);
  double x1 = CLAMP (time_to_x (p, p->selection_end), p->x, p->x + p->width);

  if (x1 - x0 < 1)
    x1 = x0 + 1;
  /* Over the stack (it fills the row): a light wash and firm edges. */
  set_source (cr, tint, 0.25);
  cairo_rectangle (cr, x0, y0, x1 - x0, height);
  cairo_fill (cr);
  set_source (cr, tint, 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, floor (x0) + 0.5, y0);
  cairo_line_to (cr, floor (x0) + 0.5, y0 + height);
  cairo_move_to (cr, floor (x1) - 0.5, y0);
  cairo_line_to (cr, floor (x1) - 0.5, y0 + height);
  cairo_stroke (cr);
}

static void
draw_hover (cairo_t *cr, const MgActivityRenderParams *p, double y0, double height)
{
  if (p->hover_time < p->t0 || p->hover_time > p->t1)
    return;
  mg_graph_render_hover_line (cr, time_to_x (p, p->hover_time), y0, height, p->dark);
}

void
mg_activity_render (cairo_t *cr, const MgActivityRenderParams *p)
{
  double y0, height;

  if (p->width <= 0 || p->height <= 0)
    return;
  mg_activity_render_plot_area (p, &y0, &height);
  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y, p->width, p->height);
  cairo_clip (cr);
  set_source (cr, mg_graph_render_background (p->dark), 1);
  cairo_paint (cr);
  if (p->draw_legend)
    draw_legend (cr, p);

  if (p->series != NULL && p->t1 > p->t0 && height > 0)
    {
      /* One column per device pixel. */
      guint n = (guint) MAX (1, ceil (p->width * pixel_scale_x (cr) - 1e-6));
      g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (p->series, p->t0, p->t1, n);

      cairo_save (cr);
      cairo_rectangle (cr, p->x, y0, p->width, height);
      cairo_clip (cr);
      /* Edges between boxes on device pixels: no seams of background. */
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
      draw_stack (cr, p, cols, y0, height, p->width / n);
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
      if (!p->series->one_process)
        draw_band (cr, p, cols, y0, height, p->width / n);
      cairo_restore (cr);
    }
  if (p->has_selection)
    draw_selection (cr, p, y0, height);
  if (p->hover_time >= 0)
    draw_hover (cr, p, y0, height);
  cairo_restore (cr);
}
