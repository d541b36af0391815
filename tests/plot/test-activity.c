/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity row (mg-activity-series.c, mg-activity-render.c) on a
 * profile of known phases: the classes' shares per column, the click's
 * range, and the stacked row's pixels in the classes' colours. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "activity-fixture.h"
#include "graph-fixture.h"
#include "plot/mg-activity-render.h"
#include "plot/mg-graph-render.h"
#include "plot/mg-view-export.h"
#include "mg-test-common.h"

#define W 400
#define PLOT_H 100

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

static void
assert_colour (cairo_surface_t *surface, int x, int y, MgRgba want)
{
  Pixel p = get_pixel (surface, x, y);

  if (distance (p, want) > 2)
    g_error ("pixel (%d, %d) is #%02x%02x%02x, expected #%02x%02x%02x", x, y, p.r, p.g, p.b,
             (int) lround (want.r * 255), (int) lround (want.g * 255),
             (int) lround (want.b * 255));
}

static MgRgba
colour (MgActivityClass klass)
{
  return mg_activity_render_class_colour (klass);
}

static cairo_surface_t *
render (const MgActivitySeries *series, gboolean dark)
{
  MgActivityRenderParams params;
  cairo_surface_t *surface;
  cairo_t *cr;

  mg_activity_render_params_init (&params);
  params.width = W;
  params.height = PLOT_H + mg_activity_render_legend_height ();
  params.series = series;
  params.t0 = 0;
  params.t1 = ACTIVITY_FIXTURE_DURATION;
  params.dark = dark;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, (int) params.height);
  cr = cairo_create (surface);
  mg_activity_render (cr, &params);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* The row of the stacked area at a share from the bottom (0–100). */
static int
share_y (double share)
{
  return (int) mg_activity_render_legend_height () + (int) lround (PLOT_H - share * PLOT_H / 100);
}

/* The middle column of a quarter of the run. */
static int
phase_x (guint phase)
{
  return W * (2 * (int) phase + 1) / 8;
}

/* WCAG's relative luminance and contrast ratio. */
static double
linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (MgRgba c)
{
  return 0.2126 * linear (c.r) + 0.7152 * linear (c.g) + 0.0722 * linear (c.b);
}

static double
contrast (MgRgba a, MgRgba b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* Each class keeps the 3:1 of WCAG's non-text contrast on both themes'
 * backgrounds, and no two classes share a colour. */
static void
test_palette (void)
{
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    {
      double light = contrast (colour (k), mg_graph_render_background (FALSE));
      double dark = contrast (colour (k), mg_graph_render_background (TRUE));

      g_test_message ("%s: %.2f:1 on light, %.2f:1 on dark", mg_activity_class_name (k), light,
                      dark);
      g_assert_cmpfloat (light, >=, 3.0);
      g_assert_cmpfloat (dark, >=, 3.0);
      for (guint j = 0; j < k; j++)
        {
          MgRgba a = colour (k), b = colour (j);

          g_assert_cmpfloat (fabs (a.r - b.r) + fabs (a.g - b.g) + fabs (a.b - b.b), >, 0.3);
        }
    }
}

/* Four columns, one per phase: each class's share as the fixture set it,
 * sleep, lock and other summed as waiting. */
static void
test_columns (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (2);
  static const double want0[4][MG_ACTIVITY_N_CLASSES] = {
    { 100, 0, 0, 0 }, { 0, 100, 0, 0 }, { 0, 0, 0, 100 }, { 0, 0, 100, 0 },
  };
  MgActivitySeries series;

  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, 0));
  g_assert_true (series.one_process);
  g_assert_cmpuint (series.n_parts[MG_ACTIVITY_WAITING], ==, 3);
  {
    g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (&series, 0, 4, 4);

    for (guint c = 0; c < 4; c++)
      for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
        g_assert_cmpfloat_with_epsilon (cols->shares[k][c], want0[c][k], 1e-9);
  }

  /* Across both processes: the first phase is 75 % computing, 25 % MPI,
   * computing between 50 (process 1) and 100 (process 0). */
  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, -1));
  g_assert_false (series.one_process);
  {
    g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (&series, 0, 4, 4);

    g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_COMPUTING][0], 75, 1e-9);
    g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_MPI][0], 25, 1e-9);
    g_assert_cmpfloat_with_epsilon (cols->computing_min[0], 50, 1e-9);
    g_assert_cmpfloat_with_epsilon (cols->computing_max[0], 100, 1e-9);
    g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_MPI][1], 100, 1e-9);
  }

  /* All threads: half computing, half waiting (on a lock). */
  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_ALL_THREADS, 1));
  {
    g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (&series, 0, 4, 2);

    for (guint c = 0; c < 2; c++)
      {
        g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_COMPUTING][c], 50, 1e-9);
        g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_WAITING][c], 50, 1e-9);
        g_assert_cmpfloat_with_epsilon (cols->shares[MG_ACTIVITY_IO][c], 0, 1e-9);
      }
  }

  /* Past the run: gaps. */
  {
    g_autoptr (MgActivityColumns) cols = mg_activity_columns_new (&series, 4, 8, 2);

    g_assert_true (isnan (cols->shares[MG_ACTIVITY_COMPUTING][1]));
  }
}

/* Which metrics the row stands for, and a profile without them. */
static void
test_metrics (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (1);
  MgActivitySeries series;
  int sleep = mg_profile_find_metric (profile, "org.metrograph.activity.main.sleep");
  int threads = mg_profile_find_metric (profile, "org.metrograph.activity.threads.io");

  g_assert_cmpint (sleep, >=, 0);
  g_assert_true (mg_activity_is_metric (profile, (guint) sleep, MG_ACTIVITY_MAIN_THREAD));
  g_assert_false (mg_activity_is_metric (profile, (guint) sleep, MG_ACTIVITY_ALL_THREADS));
  g_assert_true (mg_activity_is_metric (profile, (guint) threads, MG_ACTIVITY_ALL_THREADS));
  g_assert_null (mg_activity_metric_id (MG_ACTIVITY_MAIN_THREAD, MG_ACTIVITY_IO, 1));
  g_assert_cmpstr (mg_activity_metric_id (MG_ACTIVITY_ALL_THREADS, MG_ACTIVITY_WAITING, 2), ==,
                   "org.metrograph.activity.threads.other");
  /* The fixture's threads differ from its main thread. */
  g_assert_true (mg_activity_profile_is_multithreaded (profile));
  {
    g_autoptr (MgProfile) plain = graph_fixture_profile (1, 4, 10, 1, FALSE);

    g_assert_false (mg_activity_profile_is_multithreaded (plain));
    g_assert_false (mg_activity_series_init (&series, plain, MG_ACTIVITY_MAIN_THREAD, -1));
  }
  /* A process the profile does not have. */
  g_assert_false (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, 5));
}

/* A click's range: the windows (40 ms each) under the pixel. */
static void
test_snap (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (1);
  MgActivitySeries series;
  double start, end;

  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, -1));
  g_assert_true (mg_activity_series_snap (&series, 1.01, 1.02, &start, &end));
  g_assert_cmpfloat_with_epsilon (start, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 1.04, 1e-9);
  /* Across a window's edge: both windows. */
  g_assert_true (mg_activity_series_snap (&series, 1.03, 1.05, &start, &end));
  g_assert_cmpfloat_with_epsilon (start, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 1.08, 1e-9);
  /* Ending on an edge: not the next window. */
  g_assert_true (mg_activity_series_snap (&series, 1.01, 1.04, &start, &end));
  g_assert_cmpfloat_with_epsilon (end, 1.04, 1e-9);
  g_assert_false (mg_activity_series_snap (&series, 4.5, 4.6, &start, &end));
}

/* One process, each phase's column filled with its class's colour from
 * the bottom of the area to its top, on both themes; the legend strip
 * above shows each colour. */
static void
test_pixels_phases (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (1);
  static const MgActivityClass phases[] = { MG_ACTIVITY_COMPUTING, MG_ACTIVITY_MPI,
                                            MG_ACTIVITY_WAITING, MG_ACTIVITY_IO };
  MgActivitySeries series;

  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, -1));
  for (int dark = 0; dark <= 1; dark++)
    {
      cairo_surface_t *surface = render (&series, dark);
      guint found[MG_ACTIVITY_N_CLASSES] = { 0 };

      for (guint q = 0; q < 4; q++)
        for (double share = 1; share < 100; share += 24.5)
          assert_colour (surface, phase_x (q), share_y (share), colour (phases[q]));
      /* Nothing of the band for one process: the middle stays filled. */
      assert_colour (surface, phase_x (0), share_y (50), colour (MG_ACTIVITY_COMPUTING));
      /* The legend: each class's swatch somewhere in its strip. */
      for (int x = 0; x < W; x++)
        for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
          found[k] += distance (get_pixel (surface, x, (int) mg_activity_render_legend_height () / 2),
                                colour (k)) <= 2;
      for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
        g_assert_cmpuint (found[k], >=, 5);
      /* The legend's right end is the background. */
      assert_colour (surface, W - 2, 2, mg_graph_render_background (dark));
      cairo_surface_destroy (surface);
    }
}

/* Across two processes: the first phase stacks 75 % computing under 25 %
 * MPI, with lines at computing's min (50 %) and max (100 %); process 1
 * alone stacks 50 / 50 with no lines. */
static void
test_pixels_processes (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (2);
  MgActivitySeries series;
  cairo_surface_t *surface;
  Pixel line;

  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, -1));
  surface = render (&series, FALSE);
  assert_colour (surface, phase_x (0), share_y (90), colour (MG_ACTIVITY_MPI));
  assert_colour (surface, phase_x (0), share_y (60), colour (MG_ACTIVITY_COMPUTING));
  assert_colour (surface, phase_x (0), share_y (10), colour (MG_ACTIVITY_COMPUTING));
  /* The min line (dark over green) at 50 %. */
  line = get_pixel (surface, phase_x (0), share_y (50));
  g_assert_cmpint (distance (line, colour (MG_ACTIVITY_COMPUTING)), >, 40);
  assert_colour (surface, phase_x (1), share_y (50), colour (MG_ACTIVITY_MPI));
  cairo_surface_destroy (surface);

  g_assert_true (mg_activity_series_init (&series, profile, MG_ACTIVITY_MAIN_THREAD, 1));
  surface = render (&series, TRUE);
  assert_colour (surface, phase_x (0), share_y (75), colour (MG_ACTIVITY_MPI));
  assert_colour (surface, phase_x (0), share_y (50) + 1, colour (MG_ACTIVITY_COMPUTING));
  assert_colour (surface, phase_x (0), share_y (25), colour (MG_ACTIVITY_COMPUTING));
  assert_colour (surface, phase_x (2), share_y (50), colour (MG_ACTIVITY_WAITING));
  cairo_surface_destroy (surface);
}

/* The export draws an activity group as the window does: one stacked row
 * (PNG pixels in the phases' colours), its legend's names in an SVG. */
static void
test_export (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (1);
  g_autoptr (MgTimeView) view = mg_time_view_new (ACTIVITY_FIXTURE_DURATION);
  g_autoptr (MgViewGroup) group = mg_view_group_new ("Main thread activity", TRUE);
  g_autofree char *dir = g_dir_make_tmp ("mg-activity-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "view.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "view.svg", NULL);
  g_autofree char *svg_text = NULL;
  g_autoptr (GError) error = NULL;
  MgViewGroup *groups[1];
  cairo_surface_t *surface;
  double graph_x = MG_VIEW_EXPORT_MARGIN + 230, graph_w = MG_VIEW_EXPORT_WIDTH - graph_x
                                                           - MG_VIEW_EXPORT_MARGIN;
  double plot_y = MG_VIEW_EXPORT_TITLE_HEIGHT + MG_VIEW_EXPORT_HEADER_HEIGHT
                  + MG_VIEW_EXPORT_ROW_GAP / 2 + mg_activity_render_legend_height ();
  double plot_h = MG_VIEW_EXPORT_ROW_HEIGHT - mg_activity_render_legend_height ();
  static const MgActivityClass phases[] = { MG_ACTIVITY_COMPUTING, MG_ACTIVITY_MPI,
                                            MG_ACTIVITY_WAITING, MG_ACTIVITY_IO };

  g_assert_nonnull (dir);
  for (guint k = 0; k < MG_ACTIVITY_N_CLASSES; k++)
    for (guint i = 0; mg_activity_metric_id (MG_ACTIVITY_MAIN_THREAD, k, i) != NULL; i++)
      {
        guint metric = (guint) mg_profile_find_metric (profile,
                                                       mg_activity_metric_id (MG_ACTIVITY_MAIN_THREAD, k, i));
        g_array_append_val (group->metrics, metric);
      }
  group->activity_scope = MG_ACTIVITY_MAIN_THREAD;
  groups[0] = group;
  /* One row for six metrics. */
  g_assert_cmpfloat (mg_view_export_height (groups, 1), ==,
                     MG_VIEW_EXPORT_TITLE_HEIGHT + MG_VIEW_EXPORT_AXIS_HEIGHT
                       + MG_VIEW_EXPORT_MARGIN + MG_VIEW_EXPORT_HEADER_HEIGHT
                       + MG_VIEW_EXPORT_ROW_HEIGHT + MG_VIEW_EXPORT_ROW_GAP);
  g_assert_true (mg_view_export_save (profile, view, groups, 1, "phases", FALSE, 1, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  for (guint q = 0; q < 4; q++)
    for (double f = 0.1; f < 1; f += 0.4)
      assert_colour (surface, (int) (graph_x + graph_w * (2 * q + 1) / 8),
                     (int) (plot_y + plot_h * f), colour (phases[q]));
  cairo_surface_destroy (surface);

  g_assert_true (mg_view_export_save (profile, view, groups, 1, "phases", TRUE, 1, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, ">Computing<"));
  g_assert_nonnull (strstr (svg_text, ">Waiting<"));
  mg_test_remove_tree (dir);
}

/* Large text (text scale 1.5): the legend's words and swatches grow and
 * the stacked area starts below it (16 px of legend at 1, 24 at 1.5);
 * they stayed 10 px beside text half as large again. */
static void
test_legend_text_scale (void)
{
  const double scales[2] = { 1, 1.5 };
  int ink[2];

  for (guint i = 0; i < 2; i++)
    {
      MgActivityRenderParams params;
      cairo_surface_t *surface;
      cairo_t *cr;
      double y, height;
      int first = -1, last = -1;

      mg_activity_render_params_init (&params);
      params.width = W;
      params.height = 120;
      params.text_scale = scales[i];
      mg_activity_render_plot_area (&params, &y, &height);
      g_assert_cmpfloat (y, ==, mg_activity_render_legend_height () * scales[i]);
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, 120);
      cr = cairo_create (surface);
      mg_activity_render (cr, &params);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      /* The legend's text: dark grey on white, above the stacked area. */
      for (int row = 0; row < (int) y; row++)
        for (int x = 0; x < W; x++)
          {
            Pixel px = get_pixel (surface, x, row);

            if (px.r < 128 && px.g < 128 && px.b < 128)
              {
                if (first < 0)
                  first = row;
                last = row;
                break;
              }
          }
      ink[i] = first < 0 ? 0 : last - first + 1;
      g_test_message ("text scale %.1f: legend %.0f px, its words %d px high", scales[i], y, ink[i]);
      cairo_surface_destroy (surface);
    }
  g_assert_cmpint (ink[0], >=, 6);
  g_assert_cmpfloat ((double) ink[1] / ink[0], >=, 1.3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/activity/palette", test_palette);
  g_test_add_func ("/activity/columns", test_columns);
  g_test_add_func ("/activity/metrics", test_metrics);
  g_test_add_func ("/activity/snap", test_snap);
  g_test_add_func ("/activity/pixels-phases", test_pixels_phases);
  g_test_add_func ("/activity/pixels-processes", test_pixels_processes);
  g_test_add_func ("/activity/export", test_export);
  g_test_add_func ("/activity/legend-text-scale", test_legend_text_scale);
  return g_test_run ();
}
