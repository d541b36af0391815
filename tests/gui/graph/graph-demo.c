/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Looks at what the graphs draw: writes PNGs of one graph (light and dark)
 * and, with a display, shows a window of graph rows for a screenshot.
 *   graph-demo OUTDIR [--window SECONDS] */
#include "mg-config.h"

#include <gtk/gtk.h>

#include "graph-fixture.h"
#include "plot/mg-graph-render.h"
#include "gui/graph/mg-metric-graph.h"
#include "gui/graph/mg-time-axis.h"

static void
write_png (MgProfile *profile, const char *dir, gboolean dark)
{
  int width = 900, row = 90, n = 4;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width,
                                                         row * n + 24);
  cairo_t *cr = cairo_create (surface);
  double duration = mg_profile_get_run_info (profile)->duration_s;
  g_autofree char *path = g_build_filename (dir, dark ? "graph-dark.png" : "graph-light.png",
                                            NULL);

  for (int i = 0; i < n; i++)
    {
      MgSeriesView series;
      MgGraphRenderParams params;

      mg_series_view_init (&series, profile, i, -1);
      mg_graph_render_params_init (&params);
      params.y = i * row;
      params.width = width;
      params.height = row - 2;
      params.def = mg_profile_get_metric (profile, i);
      params.series = &series;
      params.t1 = duration;
      params.dark = dark;
      params.has_selection = i == 0;
      params.selection_start = 2;
      params.selection_end = 3;
      params.hover_time = 6.2;
      mg_graph_render (cr, &params);
    }
  {
    MgRgba bg = mg_graph_render_background (dark);
    cairo_set_source_rgb (cr, bg.r, bg.g, bg.b);
    cairo_rectangle (cr, 0, row * n, width, 24);
    cairo_fill (cr);
  }
  mg_graph_render_time_axis (cr, 0, row * n, width, 24, 0, duration, FALSE, 0, 0, -1, dark, 1);
  cairo_destroy (cr);
  cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  g_print ("wrote %s\n", path);
}

static GtkWidget *
make_window (MgProfile *profile, MgTimeView *view)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *grid = gtk_grid_new ();

  gtk_window_set_title (GTK_WINDOW (window), "Metrograph graphs");
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 460);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 12);
  for (guint i = 0; i < 4; i++)
    {
      const MgMetricDef *def = mg_profile_get_metric (profile, i);
      GtkWidget *label = gtk_label_new (def->display_name);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_size_request (label, 220, -1);
      gtk_grid_attach (GTK_GRID (grid), label, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), mg_metric_graph_new (profile, i, view), 1, i, 1, 1);
    }
  gtk_grid_attach (GTK_GRID (grid), mg_time_axis_new (view), 1, 4, 1, 1);
  gtk_window_set_child (GTK_WINDOW (window), grid);
  return window;
}

int
main (int argc, char **argv)
{
  g_autoptr (MgProfile) profile = graph_fixture_profile (4, 4, 200, 10, TRUE);
  const char *dir = argc > 1 ? argv[1] : ".";

  write_png (profile, dir, FALSE);
  write_png (profile, dir, TRUE);

  if (argc > 3 && g_str_equal (argv[2], "--window") && gtk_init_check ())
    {
      g_autoptr (MgTimeView) view = mg_time_view_new (10);
      GtkWidget *window = make_window (profile, view);
      gint64 end = g_get_monotonic_time () + (gint64) (g_ascii_strtod (argv[3], NULL) * 1e6);

      if (g_getenv ("DEMO_DARK"))
        g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE,
                      NULL);
      mg_time_view_set_selection (view, 2, 3);
      gtk_window_present (GTK_WINDOW (window));
      while (g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, FALSE), g_usleep (10000);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  return 0;
}
