/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One metric's graph, drawn with cairo alone. */
#include "mg-config.h"

#include "mg-graph-render.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "defs/mg-colour.h"
#include "mg-raster.h"
#include "mg-text-sink.h"

/* Alphas of the band layers: the min–max band is a light wash, the
 * mean ± standard deviation a stronger one, the mean line full colour. */
#define BAND_ALPHA 0.22
#define STDDEV_ALPHA 0.45
#define LINE_WIDTH 1.5
#define LABEL_SIZE 10.0
/* The patch under a label: the data shows through only faintly. */
#define LABEL_BACKGROUND_ALPHA 0.88
/* A tick label needs about this much height. */
#define TICK_SPACING 22.0

void
mg_graph_render_params_init (MgGraphRenderParams *params)
{
  *params = (MgGraphRenderParams) {
    .draw_labels = TRUE,
    .hover_time = -1,
    .text_scale = 1,
  };
}

MgRgba
mg_graph_render_background (gboolean dark)
{
  return dark ? (MgRgba) { 0.14, 0.14, 0.15, 1 } : (MgRgba) { 1, 1, 1, 1 };
}

MgRgba
mg_graph_render_selection_colour (gboolean dark)
{
  return dark ? (MgRgba) { 0.45, 0.65, 1, 1 } : (MgRgba) { 0.21, 0.52, 0.89, 1 };
}

MgRgba
mg_graph_render_hover_colour (gboolean dark)
{
  return dark ? (MgRgba) { 1, 1, 1, 0.63 } : (MgRgba) { 0, 0, 0, 0.56 };
}

static MgRgba
grid_colour (gboolean dark)
{
  return dark ? (MgRgba) { 1, 1, 1, 0.10 } : (MgRgba) { 0, 0, 0, 0.09 };
}

static MgRgba
text_colour (gboolean dark)
{
  return dark ? (MgRgba) { 1, 1, 1, 0.70 } : (MgRgba) { 0, 0, 0, 0.62 };
}

static double
luminance (MgRgba c)
{
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

MgRgba
mg_graph_render_metric_colour (const MgMetricDef *def, gboolean dark)
{
  MgRgba colour;

  if (def != NULL && def->has_colour)
    {
      colour = def->colour;
      colour.a = 1;
      /* A definition's colour is chosen for one background: lift very dark
       * colours on a dark theme (and darken very light ones on a light
       * theme) so the line stays legible, keeping the hue. */
      if (dark && luminance (colour) < 0.35)
        {
          double k = 0.45;
          colour.r += (1 - colour.r) * k;
          colour.g += (1 - colour.g) * k;
          colour.b += (1 - colour.b) * k;
        }
      else if (!dark && luminance (colour) > 0.85)
        {
          colour.r *= 0.7;
          colour.g *= 0.7;
          colour.b *= 0.7;
        }
      return colour;
    }
  colour = mg_colour_for_type (def != NULL ? def->type : MG_METRIC_TYPE_OTHER, dark);
  colour.a = 1;
  return colour;
}

static void
set_source (cairo_t *cr, MgRgba c, double alpha)
{
  cairo_set_source_rgba (cr, c.r, c.g, c.b, c.a * alpha);
}

MgAxis *
mg_graph_render_fit_axis (const MgMetricDef *def, const MgSeriesView *series,
                          const MgLod *lod, gboolean auto_zoom_vertical, double height)
{
  double lo = NAN, hi = NAN;
  guint max_ticks = (guint) CLAMP (height / TICK_SPACING, 2, 8) + 1;

  if (auto_zoom_vertical && lod != NULL)
    {
      lo = lod->data_min;
      hi = lod->data_max;
    }
  else if (series != NULL)
    mg_series_view_get_extent (series, &lo, &hi);
  return mg_axis_new (def, lo, hi, max_ticks);
}

static double
time_to_x (const MgGraphRenderParams *p, double t)
{
  return p->x + (t - p->t0) / (p->t1 - p->t0) * p->width;
}

/* Value to y in user space; the axis range fills the rectangle. */
typedef struct {
  double y_bottom, scale, lo;
} YMap;

static double
map_y (const YMap *m, double v)
{
  return m->y_bottom - (v - m->lo) * m->scale;
}

static void
draw_grid (cairo_t *cr, const MgGraphRenderParams *p, const MgAxis *axis, const YMap *m)
{
  /* All zero: the ticks would be an invented scale. */
  if (axis->flat)
    return;
  set_source (cr, grid_colour (p->dark), 1);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < axis->n_ticks; i++)
    {
      /* Half-pixel offset: crisp one-pixel lines. */
      double y = floor (map_y (m, axis->ticks[i])) + 0.5;
      if (y < p->y || y > p->y + p->height)
        continue;
      cairo_move_to (cr, p->x, y);
      cairo_line_to (cr, p->x + p->width, y);
    }
  cairo_stroke (cr);
}

/* Looking the font up is costly (fontconfig): once per process. */
static void
set_label_font (cairo_t *cr, double size)
{
  static cairo_font_face_t *face;

  if (g_once_init_enter (&face))
    g_once_init_leave (&face, cairo_toy_font_face_create ("Sans", CAIRO_FONT_SLANT_NORMAL,
                                                          CAIRO_FONT_WEIGHT_NORMAL));
  cairo_set_font_face (cr, face);
  cairo_set_font_size (cr, size);
}

/* The labels' size at the desktop's text scale (large text: 1.5). */
static double
label_size (double text_scale)
{
  return LABEL_SIZE * (text_scale > 0 ? text_scale : 1);
}

/* A label over the graph on a near-opaque patch of the background, so
 * neither the data nor the grid runs through it. */
static void
draw_label (cairo_t *cr, const MgGraphRenderParams *p, const char *text, double x, double baseline)
{
  cairo_text_extents_t ext;
  double size = label_size (p->text_scale);

  cairo_text_extents (cr, text, &ext);
  set_source (cr, mg_graph_render_background (p->dark), LABEL_BACKGROUND_ALPHA);
  cairo_rectangle (cr, x - 3, baseline - size + 0.5, ext.x_advance + 6, size + 3);
  cairo_fill (cr);
  set_source (cr, text_colour (p->dark), 1);
  cairo_move_to (cr, x, baseline);
  mg_text_show (cr, text);
}

static void
draw_labels (cairo_t *cr, const MgGraphRenderParams *p, const MgAxis *axis, const YMap *m)
{
  double size = label_size (p->text_scale);

  set_label_font (cr, size);
  /* All zero: a scale would be invented, so say so instead. */
  if (axis->flat)
    {
      draw_label (cr, p, _("0 throughout"), p->x + 5, p->y + p->height - 6);
      return;
    }
  for (guint i = 0; i < axis->n_ticks; i++)
    {
      double y = map_y (m, axis->ticks[i]);
      double ty;

      /* Labels hang just below their line, so the top one stays inside. */
      ty = y + size + 2;
      if (i == 0 && axis->n_ticks > 1)
        continue; /* the baseline needs no label: it is 0 or obvious */
      if (ty - size < p->y - 1 || ty > p->y + p->height + 1)
        continue;
      draw_label (cr, p, axis->labels[i], p->x + 5, ty);
    }
}

/* The edge of a band at column c: min/max, or mean ± spread. */
static double
band_edge (const MgLod *lod, const double *values, const double *spread, int sign, guint c)
{
  return spread != NULL ? lod->means[c] + sign * spread[c] : values[c];
}

/* A band between lo and hi (or mean ± spread) as one polygon per run of
 * points with values, through the points and out to the edges of the time
 * the run stands for; all filled at once. Gaps add nothing: the background
 * shows through. */
static void
fill_band (cairo_t *cr, const MgGraphRenderParams *p, const MgLod *lod, const YMap *m,
           const double *lo, const double *hi, const double *spread)
{
  guint c = 0;

  while (c < lod->n_points)
    {
      guint a, b;

      if (mg_lod_is_gap (lod, c))
        {
          c++;
          continue;
        }
      a = c;
      while (c < lod->n_points && !mg_lod_is_gap (lod, c))
        c++;
      b = c - 1;

      cairo_move_to (cr, time_to_x (p, lod->starts[a]),
                     map_y (m, band_edge (lod, hi, spread, +1, a)));
      for (guint k = a; k <= b; k++)
        cairo_line_to (cr, time_to_x (p, lod->times[k]),
                       map_y (m, band_edge (lod, hi, spread, +1, k)));
      cairo_line_to (cr, time_to_x (p, lod->ends[b]), map_y (m, band_edge (lod, hi, spread, +1, b)));
      cairo_line_to (cr, time_to_x (p, lod->ends[b]), map_y (m, band_edge (lod, lo, spread, -1, b)));
      for (guint k = b + 1; k-- > a;)
        cairo_line_to (cr, time_to_x (p, lod->times[k]),
                       map_y (m, band_edge (lod, lo, spread, -1, k)));
      cairo_line_to (cr, time_to_x (p, lod->starts[a]),
                     map_y (m, band_edge (lod, lo, spread, -1, a)));
      cairo_close_path (cr);
    }
  cairo_fill (cr);
}

/* The mean through the points; a gap breaks the line. Each run reaches out
 * to the edges of its time, so an isolated point still shows. */
static void
stroke_mean (cairo_t *cr, const MgGraphRenderParams *p, const MgLod *lod, const YMap *m)
{
  guint c = 0;

  while (c < lod->n_points)
    {
      guint a;
      double y = 0;

      if (mg_lod_is_gap (lod, c))
        {
          c++;
          continue;
        }
      a = c;
      cairo_move_to (cr, time_to_x (p, lod->starts[a]), map_y (m, lod->means[a]));
      for (; c < lod->n_points && !mg_lod_is_gap (lod, c); c++)
        {
          y = map_y (m, lod->means[c]);
          cairo_line_to (cr, time_to_x (p, lod->times[c]), y);
        }
      cairo_line_to (cr, time_to_x (p, lod->ends[c - 1]), y);
    }
  cairo_set_line_width (cr, LINE_WIDTH);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
}

/* Raster drawing: on pixels (image and recording surfaces, so the widget)
 * the points are resampled to one column per device pixel and each layer is
 * a set of pixel-wide boxes, which cairo composites far faster than
 * tessellating a polygon of thousands of vertices. Vector surfaces (SVG,
 * PDF) get true polygons and strokes instead (draw_vector). */
typedef struct {
  guint n;
  const double *lo, *hi, *mean, *sd; /* NaN mean: gap */
  double *own;                       /* the four arrays when resampled */
} Columns;

static void
columns_free (Columns *cols)
{
  g_free (cols->own);
}

/* Column c at time tc between points k and k + 1. Both with values: linear
 * interpolation, as a line through the points would look; one with a value:
 * that value up to the edge of the time it stands for; else a gap. */
static void
columns_interpolate (double *lo, double *hi, double *mean, double *sd, const MgLod *lod,
                     guint k, double tc)
{
  gboolean left = k < lod->n_points && !mg_lod_is_gap (lod, k) && lod->times[k] <= tc;
  gboolean right = k + 1 < lod->n_points && !mg_lod_is_gap (lod, k + 1);
  int from = -1;

  if (left && right)
    {
      double f = (tc - lod->times[k]) / (lod->times[k + 1] - lod->times[k]);
      *lo = lod->mins[k] + f * (lod->mins[k + 1] - lod->mins[k]);
      *hi = lod->maxs[k] + f * (lod->maxs[k + 1] - lod->maxs[k]);
      *mean = lod->means[k] + f * (lod->means[k + 1] - lod->means[k]);
      *sd = lod->stddevs[k] + f * (lod->stddevs[k + 1] - lod->stddevs[k]);
      return;
    }
  if (left && tc < lod->ends[k])
    from = (int) k;
  else if (right && tc >= lod->starts[k + 1] && tc >= lod->times[k + 1] - (lod->times[k + 1] - lod->starts[k + 1]))
    from = (int) k + 1;
  else if (!left && k < lod->n_points && !mg_lod_is_gap (lod, k) && tc >= lod->starts[k])
    from = (int) k;
  if (from < 0)
    {
      *lo = *hi = *mean = *sd = NAN;
      return;
    }
  *lo = lod->mins[from];
  *hi = lod->maxs[from];
  *mean = lod->means[from];
  *sd = lod->stddevs[from];
}

/* The LOD's points as one column per device pixel: its own arrays when
 * they are already that (zoomed out, the usual case while panning), else
 * resampled. */
static void
columns_compute (Columns *cols, const MgGraphRenderParams *p, const MgLod *lod, guint n)
{
  double dt = (p->t1 - p->t0) / n;
  double *lo, *hi, *mean, *sd;
  guint k = 0;

  cols->n = n;
  cols->own = NULL;
  if (!lod->by_window && lod->n_points == n && lod->t0 == p->t0 && lod->t1 == p->t1)
    {
      cols->lo = lod->mins;
      cols->hi = lod->maxs;
      cols->mean = lod->means;
      cols->sd = lod->stddevs;
      return;
    }
  cols->own = g_new (double, 4 * (gsize) n);
  cols->lo = lo = cols->own;
  cols->hi = hi = cols->own + n;
  cols->mean = mean = cols->own + 2 * (gsize) n;
  cols->sd = sd = cols->own + 3 * (gsize) n;
  for (guint c = 0; c < n; c++)
    {
      double tc = p->t0 + (c + 0.5) * dt;

      /* k: the last point at or before tc (or 0). */
      while (k + 1 < lod->n_points && lod->times[k + 1] <= tc)
        k++;
      columns_interpolate (&lo[c], &hi[c], &mean[c], &sd[c], lod, k, tc);
    }
}

/* Device pixels per user unit: the transformation's, times the target's
 * own device scale (HiDPI), which cairo_user_to_device_distance leaves
 * out. */
static void
pixel_scale (cairo_t *cr, double *sx, double *sy)
{
  double dx, dy;

  *sx = *sy = 1;
  cairo_user_to_device_distance (cr, sx, sy);
  cairo_surface_get_device_scale (cairo_get_group_target (cr), &dx, &dy);
  *sx = fabs (*sx * dx);
  *sy = fabs (*sy * dy);
}

/* The mask (an A8 image of width × height), cleared. When the target is an
 * image (the benchmark, PNG export, the GL renderer's textures) the last
 * one is kept per thread and reused, which saves a fresh allocation and its
 * page faults on every row of every frame. A recording surface (a cairo
 * node, for the cairo renderer) keeps a copy-on-write snapshot of what was
 * painted, so reusing the mask there would copy it: it gets its own. */
static GPrivate layer_cache = G_PRIVATE_INIT ((GDestroyNotify) cairo_surface_destroy);

static cairo_surface_t *
get_layer (int width, int height, gboolean reuse)
{
  cairo_surface_t *layer = g_private_get (&layer_cache);

  if (!reuse)
    return cairo_image_surface_create (CAIRO_FORMAT_A8, width, height);
  if (layer != NULL && cairo_surface_get_reference_count (layer) == 1
      && cairo_image_surface_get_width (layer) == width
      && cairo_image_surface_get_height (layer) == height)
    {
      cairo_surface_flush (layer);
      memset (cairo_image_surface_get_data (layer), 0,
              (size_t) cairo_image_surface_get_stride (layer) * height);
      cairo_surface_set_device_scale (layer, 1, 1);
      return cairo_surface_reference (layer);
    }
  layer = cairo_image_surface_create (CAIRO_FORMAT_A8, width, height);
  if (cairo_surface_status (layer) == CAIRO_STATUS_SUCCESS)
    g_private_replace (&layer_cache, cairo_surface_reference (layer));
  return layer;
}

/* The min–max band is a spread across processes: none for one process's
 * series. */
static gboolean
draws_band (const MgGraphRenderParams *p)
{
  return p->series == NULL || !p->series->one_process;
}

/* On pixels (image and recording surfaces: the widget, PNG export) the
 * graph is rasterised column by column into an alpha mask of device pixels
 * and the metric's colour painted through it once: far cheaper than cairo
 * tessellating polygons of thousands of vertices, and the cost depends on
 * pixels only. */
static void
draw_raster (cairo_t *cr, const MgGraphRenderParams *p, const MgLod *lod, const YMap *m,
             MgRgba colour)
{
  double sx = 1, sy = 1;
  cairo_surface_t *layer;
  cairo_pattern_t *pattern;
  cairo_matrix_t matrix;
  guint8 *pixels;
  int n, height, stride, row0, row1;
  MgRasterColumns raster_columns;
  MgRasterMap map;
  Columns cols;

  pixel_scale (cr, &sx, &sy);
  n = (int) MAX (1, ceil (p->width * sx - 1e-6));
  height = (int) MAX (1, ceil (p->height * sy - 1e-6));
  layer = get_layer (n, height,
                     cairo_surface_get_type (cairo_get_group_target (cr))
                       == CAIRO_SURFACE_TYPE_IMAGE);
  if (cairo_surface_status (layer) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (layer);
      return;
    }
  cairo_surface_flush (layer);
  pixels = cairo_image_surface_get_data (layer);
  stride = cairo_image_surface_get_stride (layer);

  columns_compute (&cols, p, lod, (guint) n);
  raster_columns = (MgRasterColumns) { cols.n, cols.lo, cols.hi, cols.mean, cols.sd };
  map = (MgRasterMap) {
    .y_bottom = m->y_bottom, .scale = m->scale, .lo = m->lo, .y0 = p->y, .sy = sy,
    /* One process: no band across processes (mg-series-view.h). */
    .alphas = { draws_band (p) ? BAND_ALPHA : 0, STDDEV_ALPHA, 1 },
    .line_width = LINE_WIDTH,
  };
  mg_raster (pixels, stride, height, &raster_columns, &map, &row0, &row1);
  columns_free (&cols);
  cairo_surface_mark_dirty (layer);
  if (row0 >= row1)
    {
      cairo_surface_destroy (layer); /* all gaps */
      return;
    }

  /* Painted only across the rows with data, plus one of nothing on each
   * side (so an edge that is not on a device pixel changes no pixel):
   * compositing costs per pixel, empty ones too. */
  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y + (row0 - 1) / sy, p->width, (row1 - row0 + 2) / sy);
  cairo_clip (cr);
  cairo_surface_set_device_scale (layer, sx, sy);
  pattern = cairo_pattern_create_for_surface (layer);
  cairo_matrix_init_translate (&matrix, -p->x, -p->y);
  cairo_pattern_set_matrix (pattern, &matrix);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  set_source (cr, colour, 1);
  cairo_mask (cr, pattern);
  cairo_restore (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (layer);
}

static void
draw_vector (cairo_t *cr, const MgGraphRenderParams *p, const MgLod *lod, const YMap *m,
             MgRgba colour)
{
  if (draws_band (p))
    {
      set_source (cr, colour, BAND_ALPHA);
      fill_band (cr, p, lod, m, lod->mins, lod->maxs, NULL);
    }
  set_source (cr, colour, STDDEV_ALPHA);
  fill_band (cr, p, lod, m, NULL, NULL, lod->stddevs);
  set_source (cr, colour, 1);
  stroke_mean (cr, p, lod, m);
}

static gboolean
is_vector (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
draw_selection (cairo_t *cr, const MgGraphRenderParams *p)
{
  double x0 = time_to_x (p, p->selection_start);
  double x1 = time_to_x (p, p->selection_end);
  MgRgba tint = mg_graph_render_selection_colour (p->dark);

  x0 = CLAMP (x0, p->x, p->x + p->width);
  x1 = CLAMP (x1, p->x, p->x + p->width);
  if (x1 - x0 < 0.5)
    x1 = x0 + 1;
  set_source (cr, tint, 0.14);
  cairo_rectangle (cr, x0, p->y, x1 - x0, p->height);
  cairo_fill (cr);
  set_source (cr, tint, 0.6);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, floor (x0) + 0.5, p->y);
  cairo_line_to (cr, floor (x0) + 0.5, p->y + p->height);
  cairo_move_to (cr, floor (x1) - 0.5, p->y);
  cairo_line_to (cr, floor (x1) - 0.5, p->y + p->height);
  cairo_stroke (cr);
}

void
mg_graph_render_hover_line (cairo_t *cr, double x, double y, double height, gboolean dark)
{
  x = floor (x) + 0.5;
  set_source (cr, mg_graph_render_hover_colour (dark), 1);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x, y + height);
  cairo_stroke (cr);
}

static void
draw_hover (cairo_t *cr, const MgGraphRenderParams *p, double y, double height)
{
  if (p->hover_time < p->t0 || p->hover_time > p->t1)
    return;
  mg_graph_render_hover_line (cr, time_to_x (p, p->hover_time), y, height, p->dark);
}

void
mg_graph_render (cairo_t *cr, const MgGraphRenderParams *p)
{
  g_autoptr (MgLod) own_lod = NULL;
  g_autoptr (MgAxis) own_axis = NULL;
  const MgLod *lod = p->lod;
  const MgAxis *axis = p->axis;
  MgRgba colour = mg_graph_render_metric_colour (p->def, p->dark);
  MgRgba bg = mg_graph_render_background (p->dark);
  YMap m;

  if (p->width <= 0 || p->height <= 0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, p->x, p->y, p->width, p->height);
  cairo_clip (cr);
  set_source (cr, bg, 1);
  cairo_paint (cr);

  if (p->series != NULL && p->series->n > 0 && p->t1 > p->t0 && lod == NULL)
    {
      double sx, sy;

      /* One column per device pixel, whatever the surface's scale. */
      pixel_scale (cr, &sx, &sy);
      own_lod = mg_lod_new ((guint) MAX (1, ceil (p->width * sx - 1e-6)));
      mg_lod_compute (own_lod, p->series, p->t0, p->t1);
      lod = own_lod;
    }
  if (axis == NULL)
    axis = own_axis = mg_graph_render_fit_axis (p->def, p->series, lod, p->auto_zoom_vertical,
                                                p->height);

  /* A pixel of room at top and bottom keeps the line off the edges. */
  m.lo = axis->min;
  m.y_bottom = p->y + p->height - 1;
  m.scale = axis->max > axis->min ? (p->height - 3) / (axis->max - axis->min) : 1;

  if (p->has_selection)
    draw_selection (cr, p);
  draw_grid (cr, p, axis, &m);

  if (lod != NULL && is_vector (cr))
    draw_vector (cr, p, lod, &m, colour);
  else if (lod != NULL)
    draw_raster (cr, p, lod, &m, colour);

  if (p->draw_labels)
    draw_labels (cr, p, axis, &m);
  if (p->hover_time >= 0)
    draw_hover (cr, p, p->y, p->height);
  cairo_restore (cr);
}

void
mg_graph_render_time_axis (cairo_t *cr, double x, double y, double width, double height,
                           double t0, double t1, gboolean has_selection,
                           double selection_start, double selection_end, double hover_time,
                           gboolean dark, double text_scale)
{
  g_autoptr (MgAxis) axis = NULL;
  MgRgba text = text_colour (dark);
  MgGraphRenderParams p;
  guint max_ticks;

  if (width <= 0 || height <= 0 || !(t1 > t0))
    return;
  /* Room for a label and a gap, wider with larger text. */
  max_ticks = (guint) CLAMP (width / (90 * (text_scale > 1 ? text_scale : 1)), 2, 20);
  axis = mg_axis_new_time (t0, t1, max_ticks);

  mg_graph_render_params_init (&p);
  p.x = x;
  p.y = y;
  p.width = width;
  p.height = height;
  p.t0 = t0;
  p.t1 = t1;
  p.dark = dark;
  p.selection_start = selection_start;
  p.selection_end = selection_end;
  p.hover_time = hover_time;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  if (has_selection)
    draw_selection (cr, &p);

  set_source (cr, text, 0.5);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, x, y + 0.5);
  cairo_line_to (cr, x + width, y + 0.5);
  for (guint i = 0; i < axis->n_ticks; i++)
    {
      double tx = floor (time_to_x (&p, axis->ticks[i])) + 0.5;
      cairo_move_to (cr, tx, y);
      cairo_line_to (cr, tx, y + 5);
    }
  cairo_stroke (cr);

  set_label_font (cr, label_size (text_scale));
  set_source (cr, text, 1);
  for (guint i = 0; i < axis->n_ticks; i++)
    {
      cairo_text_extents_t ext;
      double tx = time_to_x (&p, axis->ticks[i]);

      cairo_text_extents (cr, axis->labels[i], &ext);
      /* Centred under the tick, kept inside the rectangle. */
      tx -= ext.x_advance / 2;
      tx = CLAMP (tx, x + 1, x + width - ext.x_advance - 1);
      cairo_move_to (cr, tx, y + 6 + label_size (text_scale));
      mg_text_show (cr, axis->labels[i]);
    }
  if (hover_time >= 0)
    draw_hover (cr, &p, y, height);
  cairo_restore (cr);
}
