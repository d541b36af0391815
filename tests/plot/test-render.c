/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mg_graph_render into image surfaces, checked pixel by pixel. */
#define _GNU_SOURCE /* memmem */
#include "mg-config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gstdio.h>
#include <string.h>
#include <math.h>

#include "graph-fixture.h"
#include "plot/mg-graph-render.h"
#include "profile/mg-profile-builder.h"

#define W 400
#define H 100

typedef struct {
  int r, g, b;
} Pixel;

static Pixel
get_pixel (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 v = *(const guint32 *) (data + y * stride + x * 4);

  return (Pixel) { (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
}

static int
distance (Pixel p, MgRgba c)
{
  return MAX (MAX (abs (p.r - (int) lround (c.r * 255)), abs (p.g - (int) lround (c.g * 255))),
              abs (p.b - (int) lround (c.b * 255)));
}

typedef struct {
  MgProfile *profile;
  MgSeriesView series;
  MgAxis *axis;
  MgGraphRenderParams params;
  cairo_surface_t *surface;
} Fixture;

static void
render (Fixture *f, MgProfile *profile, guint metric, gboolean dark)
{
  cairo_t *cr;

  f->profile = profile;
  g_assert_true (mg_series_view_init (&f->series, profile, metric, -1));
  mg_graph_render_params_init (&f->params);
  f->params.width = W;
  f->params.height = H;
  f->params.def = mg_profile_get_metric (profile, metric);
  f->params.series = &f->series;
  f->params.t0 = 0;
  f->params.t1 = mg_profile_get_run_info (profile)->duration_s;
  f->params.dark = dark;
  f->params.draw_labels = FALSE;
  f->axis = mg_graph_render_fit_axis (f->params.def, &f->series, NULL, FALSE, H);
  f->params.axis = f->axis;
  f->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cr = cairo_create (f->surface);
  mg_graph_render (cr, &f->params);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (f->surface);
}

static void
fixture_clear (Fixture *f)
{
  cairo_surface_destroy (f->surface);
  mg_axis_free (f->axis);
  g_object_unref (f->profile);
}

/* Where the renderer puts value v (see map_y in mg-graph-render.c). */
static double
value_y (Fixture *f, double v)
{
  return H - 1 - (v - f->axis->min) * (H - 3) / (f->axis->max - f->axis->min);
}

static int
time_x (Fixture *f, double t)
{
  return (int) floor (t / f->params.t1 * W);
}

static void
test_band_line_and_gap (void)
{
  Fixture f;
  MgRgba colour, bg;
  int x, window, gap_x, mean_row;
  double mean_y, max_y, min_y;
  int best = 255;

  /* Metric 2: 4 processes, definition colour #E65100, a gap over
   * [4, 5) s of a 10 s run; 200 windows of 50 ms on 400 pixels. */
  render (&f, graph_fixture_profile (4, 4, 200, 10, TRUE), 2, FALSE);
  colour = mg_graph_render_metric_colour (f.params.def, FALSE);
  bg = mg_graph_render_background (FALSE);
  g_assert_cmpint (distance ((Pixel) { 0xE6, 0x51, 0x00 }, colour), ==, 0);

  /* The gap column shows the background from top to bottom (grid lines are
   * neutral grey). */
  gap_x = time_x (&f, 4.5);
  for (int y = 0; y < H; y++)
    {
      Pixel p = get_pixel (f.surface, gap_x, y);
      g_assert_cmpint (p.r, ==, p.g);
      g_assert_cmpint (p.g, ==, p.b);
    }
  g_assert_cmpint (distance (get_pixel (f.surface, gap_x, H / 2 + 1), bg), <=, 30);

  /* At window 50's centre: the mean line in full colour... */
  window = 50;
  x = time_x (&f, (window + 0.5) * 0.05);
  mean_y = value_y (&f, mg_profile_get_series (f.profile, 2)->means[window]);
  max_y = value_y (&f, mg_profile_get_series (f.profile, 2)->maxs[window]);
  min_y = value_y (&f, mg_profile_get_series (f.profile, 2)->mins[window]);
  g_assert_cmpfloat (min_y - max_y, >, 8); /* imbalance: a wide band */
  mean_row = (int) floor (mean_y);
  for (int y = mean_row - 1; y <= mean_row + 1; y++)
    best = MIN (best, distance (get_pixel (f.surface, x, y), colour));
  g_assert_cmpint (best, <=, 24);

  /* ...and the band tinted with it between max and min, lighter than the
   * line, never the background. */
  for (int y = (int) ceil (max_y) + 1; y < (int) floor (min_y) - 1; y++)
    {
      Pixel p = get_pixel (f.surface, x, y);
      if (abs (y - mean_row) <= 2)
        continue;
      g_assert_cmpint (p.r - p.b, >, 40);     /* orange, not grey */
      g_assert_cmpint (distance (p, bg), >, 20);
    }
  /* Above the band: background. */
  g_assert_cmpint (distance (get_pixel (f.surface, x, (int) max_y - 4), bg), <=, 30);
  fixture_clear (&f);
}

static void
test_dark (void)
{
  Fixture f;
  Pixel p;
  int gap_x;

  render (&f, graph_fixture_profile (4, 4, 200, 10, TRUE), 2, TRUE);
  gap_x = time_x (&f, 4.5);
  p = get_pixel (f.surface, gap_x, H / 2 + 1);
  g_assert_cmpint (MAX (MAX (p.r, p.g), p.b), <, 60);
  g_assert_true (f.params.dark);
  fixture_clear (&f);
}

static void
test_single_process (void)
{
  Fixture f;
  MgRgba bg = mg_graph_render_background (FALSE);
  MgRgba colour;
  double mean_y;
  int x, best = 255;

  /* One process: a clean line, no band around it. Metric 1, memory, type
   * colour. */
  render (&f, graph_fixture_profile (1, 4, 200, 10, FALSE), 1, FALSE);
  colour = mg_graph_render_metric_colour (f.params.def, FALSE);
  g_assert_false (f.params.def->has_colour);
  x = time_x (&f, 7.525);
  mean_y = value_y (&f, mg_profile_get_series (f.profile, 1)->means[150]);
  for (int y = (int) mean_y - 1; y <= (int) mean_y + 1; y++)
    best = MIN (best, distance (get_pixel (f.surface, x, y), colour));
  g_assert_cmpint (best, <=, 24);
  g_assert_cmpint (distance (get_pixel (f.surface, x, (int) mean_y - 4), bg), <=, 30);
  g_assert_cmpint (distance (get_pixel (f.surface, x, (int) mean_y + 5), bg), <=, 30);
  fixture_clear (&f);
}

/* Tinted pixels (neither background nor grey): band, shading and line. */
static guint
count_tinted (cairo_surface_t *surface)
{
  guint n = 0;

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        Pixel p = get_pixel (surface, x, y);

        n += MAX (MAX (abs (p.r - p.g), abs (p.g - p.b)), abs (p.r - p.b)) > 12;
      }
  return n;
}

/* Renders a crafted series into a fresh W x H surface. */
static cairo_surface_t *
render_view (const MgSeriesView *view, const MgMetricDef *def, double t1)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  MgGraphRenderParams params;

  mg_graph_render_params_init (&params);
  params.width = W;
  params.height = H;
  params.def = def;
  params.series = view;
  params.t0 = 0;
  params.t1 = t1;
  params.draw_labels = FALSE;
  mg_graph_render (cr, &params);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* One process's series, ten windows a pixel, alternating 10 and 90: its
 * min–max band would show only the variation within each pixel, and read
 * as a spread across processes (issue #32). None is drawn; the same
 * series marked as several processes' has one. */
static void
test_one_process_no_band (void)
{
  enum { N = W * 10 };
  g_autofree double *ends = g_new (double, N);
  g_autofree double *values = g_new (double, N);
  MgMetricDef def = { .id = (char *) "x", .units = (char *) "%", .display_factor = 1.0,
                      .decimal_places = -1 };
  MgSeriesView view = { 0 };
  cairo_surface_t *bare, *banded;
  guint n_bare, n_banded;

  for (guint i = 0; i < N; i++)
    {
      ends[i] = (i + 1) * 0.001;
      values[i] = i % 2 ? 90 : 10;
    }
  view = (MgSeriesView) { .n = N, .ends = ends, .mins = values, .maxs = values, .means = values,
                          .process = -1, .one_process = TRUE };
  bare = render_view (&view, &def, N * 0.001);
  view.one_process = FALSE;
  banded = render_view (&view, &def, N * 0.001);
  n_bare = count_tinted (bare);
  n_banded = count_tinted (banded);
  g_test_message ("tinted pixels: %u with the band, %u without", n_banded, n_bare);
  g_assert_cmpuint (n_bare, >, 0);
  /* The band fills 10..90 in every column: most of the height. */
  g_assert_cmpuint (n_banded, >, n_bare + W * H / 2);
  cairo_surface_destroy (bare);
  cairo_surface_destroy (banded);

  /* A process chosen among four is one process too; the aggregate is not;
   * the aggregate of a run of one is. */
  {
    g_autoptr (MgProfile) four = graph_fixture_profile (4, 4, 200, 10, FALSE);
    g_autoptr (MgProfile) one = graph_fixture_profile (1, 4, 200, 10, FALSE);

    g_assert_true (mg_series_view_init (&view, four, 0, -1));
    g_assert_false (view.one_process);
    g_assert_true (mg_series_view_init (&view, four, 0, 2));
    g_assert_true (view.one_process);
    g_assert_true (mg_series_view_init (&view, one, 0, -1));
    g_assert_true (view.one_process);
  }
}

static void
test_selection_and_hover (void)
{
  g_autoptr (MgProfile) profile = graph_fixture_profile (4, 4, 200, 10, TRUE);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  MgSeriesView series;
  MgGraphRenderParams params;
  Pixel sel, hover, plain;

  mg_series_view_init (&series, profile, 2, -1);
  mg_graph_render_params_init (&params);
  params.width = W;
  params.height = H;
  params.def = mg_profile_get_metric (profile, 2);
  params.series = &series;
  params.t1 = 10;
  params.has_selection = TRUE;
  params.selection_start = 4.0;
  params.selection_end = 4.8;
  params.hover_time = 4.9;
  mg_graph_render (cr, &params);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* Inside the gap: the selection tints blue, the hover line is dark. */
  sel = get_pixel (surface, 180, 3);
  plain = get_pixel (surface, 194, 3);
  hover = get_pixel (surface, 196, 3);
  g_assert_cmpint (sel.b - sel.r, >, 10);
  g_assert_cmpint (plain.r, ==, 255);
  g_assert_cmpint (hover.r, <, 160);
  cairo_surface_destroy (surface);
}

static void
test_vector_export (void)
{
  g_autoptr (MgProfile) profile = graph_fixture_profile (4, 4, 200, 10, TRUE);
  g_autofree char *dir = g_dir_make_tmp ("mg-render-XXXXXX", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "g.svg", NULL);
  g_autofree char *pdf_path = g_build_filename (dir, "g.pdf", NULL);
  g_autofree char *svg = NULL;
  g_autofree char *pdf = NULL;
  cairo_surface_t *surfaces[2];
  MgSeriesView series;
  MgGraphRenderParams params;
  gsize len;

  mg_series_view_init (&series, profile, 0, -1);
  mg_graph_render_params_init (&params);
  params.width = W;
  params.height = H;
  params.def = mg_profile_get_metric (profile, 0);
  params.series = &series;
  params.t1 = 10;
  surfaces[0] = cairo_svg_surface_create (svg_path, W, H + 24);
  surfaces[1] = cairo_pdf_surface_create (pdf_path, W, H + 24);
  for (guint i = 0; i < 2; i++)
    {
      cairo_t *cr = cairo_create (surfaces[i]);
      mg_graph_render (cr, &params);
      mg_graph_render_time_axis (cr, 0, H, W, 24, 0, 10, FALSE, 0, 0, -1, FALSE, 1);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      cairo_destroy (cr);
      cairo_surface_finish (surfaces[i]);
      g_assert_cmpint (cairo_surface_status (surfaces[i]), ==, CAIRO_STATUS_SUCCESS);
      cairo_surface_destroy (surfaces[i]);
    }
  g_assert_true (g_file_get_contents (svg_path, &svg, &len, NULL));
  g_assert_nonnull (strstr (svg, "<svg"));
  /* The labels are drawn as glyphs, so they travel with the file. */
  g_assert_nonnull (strstr (svg, "glyph"));
  g_assert_true (g_file_get_contents (pdf_path, &pdf, &len, NULL));
  g_assert_true (g_str_has_prefix (pdf, "%PDF"));
  g_assert_nonnull (memmem (pdf, len, "/Font", 5));
  g_unlink (svg_path);
  g_unlink (pdf_path);
  g_rmdir (dir);
}

static void
test_metric_colour (void)
{
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  MgRgba c, light, dark;

  /* No definition colour: the type's, lighter on dark backgrounds. */
  def->type = MG_METRIC_TYPE_MEMORY;
  light = mg_graph_render_metric_colour (def, FALSE);
  dark = mg_graph_render_metric_colour (def, TRUE);
  g_assert_cmpfloat (light.r + light.g + light.b, <, dark.r + dark.g + dark.b);
  /* A near-black definition colour is lifted on a dark theme. */
  def->has_colour = TRUE;
  def->colour = (MgRgba) { 0.05, 0.05, 0.3, 1 };
  c = mg_graph_render_metric_colour (def, TRUE);
  g_assert_cmpfloat (c.b, >, 0.5);
  c = mg_graph_render_metric_colour (def, FALSE);
  g_assert_cmpfloat (c.b, ==, 0.3);
}

/* The raster's mix of layers, exactly: one window over the whole view,
 * min 2, max 8, mean 5, sd 1, drawn at widths that are not a whole number
 * of the rasteriser's blocks, at device scale 1 and 2, into an image and
 * (at scale 1) through a recording surface, which is how the cairo
 * renderer's nodes draw it (GTK records them in widget units). */
typedef struct {
  double y_bottom, scale, lo;
} RowMap;

static int
row_of (const RowMap *m, double v, double scale)
{
  return (int) floor ((m->y_bottom - (v - m->lo) * m->scale) * scale);
}

/* White background, the colour at alpha a over it. */
static Pixel
mixed (MgRgba c, double a)
{
  return (Pixel) { (int) lround (255 * (1 - a + c.r * a)), (int) lround (255 * (1 - a + c.g * a)),
                   (int) lround (255 * (1 - a + c.b * a)) };
}

static int
pixel_distance (Pixel a, Pixel b)
{
  return MAX (MAX (abs (a.r - b.r), abs (a.g - b.g)), abs (a.b - b.b));
}

static cairo_surface_t *
render_constant (const MgMetricDef *def, const MgSeriesView *series, const MgAxis *axis,
                 int width, int height, double scale, gboolean recorded)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale,
                                                       height * scale);
  cairo_surface_t *target = image;
  MgGraphRenderParams p;
  cairo_t *cr;

  cairo_surface_set_device_scale (image, scale, scale);
  if (recorded)
    target = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA,
                                             &(cairo_rectangle_t) { 0, 0, width, height });
  mg_graph_render_params_init (&p);
  p.width = width;
  p.height = height;
  p.def = def;
  p.series = series;
  p.t1 = 10;
  p.axis = axis;
  p.draw_labels = FALSE;
  cr = cairo_create (target);
  mg_graph_render (cr, &p);
  cairo_destroy (cr);
  if (recorded)
    {
      cr = cairo_create (image);
      cairo_set_source_surface (cr, target, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (target);
    }
  cairo_surface_flush (image);
  return image;
}

static void
test_raster_mix (void)
{
  static const double w_ends[] = { 10 }, w_mins[] = { 2 }, w_maxs[] = { 8 }, w_means[] = { 5 },
                      w_vars[] = { 1 };
  MgSeriesView series = { .n = 1, .first_start = 0, .ends = w_ends, .mins = w_mins,
                          .maxs = w_maxs, .means = w_means, .vars = w_vars, .process = -1 };
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  MgAxis *axis;
  MgRgba c;
  const int widths[] = { 37, 16, 5 };
  const int height = 100;

  def->has_colour = TRUE;
  def->colour = (MgRgba) { 0.2, 0.4, 0.8, 1 };
  c = mg_graph_render_metric_colour (def, FALSE);
  /* Ticks (grid lines) at 0 and 10 only: no grid row inside the band. */
  axis = mg_axis_new (def, 0, 10, 2);
  g_assert_cmpfloat (axis->min, ==, 0);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (double scale = 1; scale <= 2; scale++)
      {
        RowMap m = { height - 1, (height - 3) / (axis->max - axis->min), axis->min };
        /* Rows well inside each layer: band only (7 and 3), band and
         * mean ± sd (5.5 and 4.5), all three (the mean's row), outside. */
        const struct {
          double value;
          double alpha;
        } rows[] = {
          { 7, 0.22 }, { 3, 0.22 }, { 5.6, 1 - 0.78 * 0.55 }, { 4.4, 1 - 0.78 * 0.55 },
          { 9, 0 }, { 1, 0 },
        };
        cairo_surface_t *image = render_constant (def, &series, axis, widths[w], height, scale, FALSE);
        cairo_surface_t *replayed = scale == 1 ? render_constant (def, &series, axis, widths[w],
                                                                  height, scale, TRUE)
                                               : NULL;
        int device_width = (int) (widths[w] * scale);

        for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
          {
            int y = row_of (&m, rows[r].value, scale);

            /* Every column, the last (partial) block included. */
            for (int x = 0; x < device_width; x++)
              g_assert_cmpint (pixel_distance (get_pixel (image, x, y), mixed (c, rows[r].alpha)),
                               <=, 2);
          }
        /* The band's edges: rows it covers part of, in proportion. */
        for (int edge = 0; edge < 2; edge++)
          {
            double v = edge == 0 ? 8 : 2;
            double y = (m.y_bottom - (v - m.lo) * m.scale) * scale;
            int row = (int) floor (y);
            double part = edge == 0 ? row + 1 - y : y - row;

            for (int x = 0; x < device_width; x++)
              g_assert_cmpint (pixel_distance (get_pixel (image, x, row), mixed (c, 0.22 * part)),
                               <=, 2);
          }
        /* The mean's row is the line's: full colour. */
        for (int x = 0; x < device_width; x++)
          {
            int y = row_of (&m, 5, scale);
            int best = 255;

            for (int dy = -1; dy <= 1; dy++)
              best = MIN (best, pixel_distance (get_pixel (image, x, y + dy), mixed (c, 1)));
            g_assert_cmpint (best, <=, 2);
          }
        /* The cairo renderer's path draws the same pixels. */
        for (int y = 0; replayed != NULL && y < height; y++)
          for (int x = 0; x < device_width; x++)
            g_assert_cmpint (pixel_distance (get_pixel (image, x, y), get_pixel (replayed, x, y)),
                             <=, 1);
        cairo_surface_destroy (image);
        g_clear_pointer (&replayed, cairo_surface_destroy);
      }
  mg_axis_free (axis);
}

/* One process, one "%" metric holding value in each of 100 windows over
 * 1 s. */
static MgProfile *
constant_profile (double value)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  MgMetricDef *def = mg_metric_def_new ();
  MgProcessInfo info = { 0 };
  const char *argv[] = { "/bin/true", NULL };
  g_autoptr (GError) error = NULL;
  MgProfile *profile;
  guint p;

  mg_profile_builder_set_command (builder, argv, "/");
  mg_profile_builder_set_interval (builder, 10, 10, 1000);
  def->id = g_strdup ("busy");
  g_free (def->units);
  def->units = g_strdup ("%");
  def->data_type = MG_DATA_TYPE_DOUBLE;
  def->type = MG_METRIC_TYPE_CPU_TIME;
  def->colour_spec = g_strdup ("#000000");
  def->has_colour = TRUE;
  def->colour = (MgRgba) { 0, 0, 0, 1 };
  mg_profile_builder_add_metric (builder, def);
  mg_metric_def_free (def);
  info.pid = 42;
  info.rank = -1;
  info.end_s = 1;
  info.end = MG_PROCESS_END_EXITED;
  p = mg_profile_builder_add_process (builder, &info);
  for (guint w = 0; w < 100; w++)
    mg_profile_builder_add_sample (builder, p, w * 0.01, (w + 1) * 0.01, &value, &value, &value);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  return profile;
}

static void
render_labelled (Fixture *f, double value)
{
  render (f, constant_profile (value), 0, FALSE);
  f->params.draw_labels = TRUE;
  {
    cairo_t *cr = cairo_create (f->surface);

    mg_graph_render (cr, &f->params);
    cairo_destroy (cr);
    cairo_surface_flush (f->surface);
  }
}

/* The darkest pixel of a rectangle, as a grey level. */
static int
darkest (cairo_surface_t *surface, int x0, int y0, int x1, int y1)
{
  int best = 255;

  for (int y = y0; y <= y1; y++)
    for (int x = x0; x <= x1; x++)
      {
        Pixel p = get_pixel (surface, x, y);

        best = MIN (best, MIN (p.r, MIN (p.g, p.b)));
      }
  return best;
}

/* A tick label lies on a patch of background: a black line at 35 % runs
 * under the "40 %" label (0–40 % axis, ticks every 10, labels hanging
 * below their lines) yet does not show through it, while it is black away
 * from the labels. */
static void
test_labels_over_data (void)
{
  Fixture f;
  double line_y;
  cairo_text_extents_t ext;
  int line_row, label_x0 = 5, label_x1;
  guint top;

  render_labelled (&f, 35);
  g_assert_cmpfloat (f.axis->max, ==, 40);
  top = f.axis->n_ticks - 1;
  g_assert_cmpstr (f.axis->labels[top], ==, "40 %");
  line_y = value_y (&f, 35);
  line_row = (int) line_y;
  /* The label's patch: from y(40) + 2.5 to y(40) + 15. */
  g_assert_cmpfloat (line_y, >, value_y (&f, 40) + 3);
  g_assert_cmpfloat (line_y, <, value_y (&f, 40) + 14);
  {
    cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create (scratch);

    cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size (cr, 10);
    cairo_text_extents (cr, f.axis->labels[top], &ext);
    cairo_destroy (cr);
    cairo_surface_destroy (scratch);
  }
  label_x1 = label_x0 + (int) ext.x_advance;
  /* Away from the label the line is black... */
  g_assert_cmpint (darkest (f.surface, 300, line_row - 1, 300, line_row + 1), <, 40);
  /* ...under it, between the glyphs, it is faint: the patch covers it.
   * (The glyphs themselves are grey text, lighter than the line.) */
  g_assert_cmpint (darkest (f.surface, label_x1 + 1, line_row - 1, label_x1 + 2, line_row + 1), >, 210);
  fixture_clear (&f);
}

/* The rows of the surface from y0 down holding text (a pixel darker than
 * mid grey on white): the labels' ink height. */
static int
ink_rows (cairo_surface_t *surface, int y0)
{
  int width = cairo_image_surface_get_width (surface);
  int height = cairo_image_surface_get_height (surface);
  int first = -1, last = -1;

  for (int y = y0; y < height; y++)
    if (darkest (surface, 0, y, width - 1, y) < 128)
      {
        if (first < 0)
          first = y;
        last = y;
      }
  return first < 0 ? 0 : last - first + 1;
}

/* Large text (a desktop at 144 dpi: text scale 1.5): the time axis's
 * labels grow with it, and fewer fit (10 s at 600 px: 6 ticks "0 s" to
 * "10 s" at 1, fewer at 1.5), where they stayed at 10 px beside text half
 * as large again. */
static void
test_time_axis_text_scale (void)
{
  int ink[2];
  const double scales[2] = { 1, 1.5 };

  for (guint i = 0; i < 2; i++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 40);
      cairo_t *cr = cairo_create (surface);

      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      mg_graph_render_time_axis (cr, 0, 0, 600, 40, 0, 10, FALSE, 0, 0, -1, FALSE, scales[i]);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      /* Below the ticks (5 px). */
      ink[i] = ink_rows (surface, 6);
      g_test_message ("text scale %.1f: labels %d px high", scales[i], ink[i]);
      cairo_surface_destroy (surface);
    }
  g_assert_cmpint (ink[0], >=, 6);
  g_assert_cmpfloat ((double) ink[1] / ink[0], >=, 1.3);
}

/* All zero: no invented scale, a "0 throughout" note at the bottom left
 * instead of tick labels. */
static void
test_flat_series (void)
{
  Fixture f;

  render_labelled (&f, 0);
  g_assert_true (f.axis->flat);
  /* Text at the bottom left... */
  g_assert_cmpint (darkest (f.surface, 5, H - 16, 60, H - 6), <, 160);
  /* ...and none where the tick labels of a scale would be. */
  g_assert_cmpint (darkest (f.surface, 5, 10, 60, H - 25), >, 200);
  fixture_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/band-line-and-gap", test_band_line_and_gap);
  g_test_add_func ("/render/raster-mix", test_raster_mix);
  g_test_add_func ("/render/dark", test_dark);
  g_test_add_func ("/render/single-process", test_single_process);
  g_test_add_func ("/render/one-process-no-band", test_one_process_no_band);
  g_test_add_func ("/render/selection-and-hover", test_selection_and_hover);
  g_test_add_func ("/render/vector-export", test_vector_export);
  g_test_add_func ("/render/metric-colour", test_metric_colour);
  g_test_add_func ("/render/labels-over-data", test_labels_over_data);
  g_test_add_func ("/render/flat-series", test_flat_series);
  g_test_add_func ("/render/time-axis-text-scale", test_time_axis_text_scale);
  return g_test_run ();
}
