/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's drawing: the heat map with its overlays, the rank
 * labels, the rows' figures as bars and the legend's ramp
 * (mg-rank-overview.h). */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "defs/mg-units.h"
#include "graph/mg-theme.h"
#include "mg-rank-overview-internal.h"
#include "plot/mg-graph-render.h"

/* Row r's band in widget coordinates. */
static void
row_band (const MgHeatMap *map, guint row, int height, double *y0, double *y1)
{
  *y0 = (double) row * height / map->n_rows;
  *y1 = (double) (row + 1) * height / map->n_rows;
}

static double
time_to_x (MgRankOverview *self, double t, int width)
{
  double t0 = mg_time_view_get_start (self->view), t1 = mg_time_view_get_end (self->view);

  return t1 > t0 ? (t - t0) / (t1 - t0) * width : 0;
}

static void
outline_row (cairo_t *cr, const MgHeatMap *map, guint row, int width, int height, gboolean dashed)
{
  double y0, y1;

  row_band (map, row, height, &y0, &y1);
  /* At least 3 px, so that a row thinner than a pixel is still found. */
  if (y1 - y0 < 3)
    {
      double mid = (y0 + y1) / 2;

      y0 = mid - 1.5;
      y1 = mid + 1.5;
    }
  if (dashed)
    cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  else
    cairo_set_dash (cr, NULL, 0, 0);
  cairo_rectangle (cr, 1, y0 + 0.5, width - 2, MAX (y1 - y0 - 1, 1));
  cairo_stroke (cr);
}

void
mg_rank_overview_draw_heat (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                            gpointer user_data)
{
  MgRankOverview *self = user_data;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  gboolean dark = mg_theme_is_dark (GTK_WIDGET (area));
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  double hover;
  int process;

  if (map == NULL || self->picture == NULL)
    return;
  cairo_save (cr);
  cairo_scale (cr, 1.0 / scale, 1.0 / scale);
  cairo_set_source_surface (cr, self->picture, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);

  if (mg_time_view_get_has_selection (self->view))
    {
      MgRgba tint = mg_graph_render_selection_colour (dark);
      double x0 = time_to_x (self, mg_time_view_get_selection_start (self->view), width);
      double x1 = time_to_x (self, mg_time_view_get_selection_end (self->view), width);

      x0 = CLAMP (x0, 0, width);
      x1 = CLAMP (x1, 0, width);

      cairo_set_source_rgba (cr, tint.r, tint.g, tint.b, 0.18);
      cairo_rectangle (cr, x0, 0, MAX (x1 - x0, 1), height);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, tint.r, tint.g, tint.b, 0.9);
      cairo_rectangle (cr, floor (x0), 0, 1, height);
      cairo_rectangle (cr, floor (x1) - 1, 0, 1, height);
      cairo_fill (cr);
    }
  hover = mg_time_view_get_hover_time (self->view);
  if (hover >= mg_time_view_get_start (self->view) && hover <= mg_time_view_get_end (self->view))
    {
      MgRgba c = mg_graph_render_hover_colour (dark);

      cairo_set_source_rgba (cr, c.r, c.g, c.b, c.a);
      cairo_rectangle (cr, floor (time_to_x (self, hover, width)), 0, 1, height);
      cairo_fill (cr);
    }

  /* The process the graphs show, and the keyboard's row. */
  cairo_set_line_width (cr, 1.5);
  if (dark)
    cairo_set_source_rgb (cr, 1, 1, 1);
  else
    cairo_set_source_rgb (cr, 0, 0, 0);
  process = mg_time_view_get_process (self->view);
  if (process >= 0 && mg_heat_map_row_of_process (map, (guint) process) >= 0)
    outline_row (cr, map, (guint) mg_heat_map_row_of_process (map, (guint) process), width,
                 height, FALSE);
  if (self->cursor_row >= 0 && (guint) self->cursor_row < map->n_rows
      && gtk_widget_has_focus (GTK_WIDGET (area)))
    outline_row (cr, map, (guint) self->cursor_row, width, height, TRUE);
}

/* A process's short label: its rank, else its pid. */
char *
mg_rank_overview_row_label (MgRankOverview *self, guint process)
{
  const MgProcessInfo *info = mg_profile_get_process (self->profile, process);

  if (info->rank >= 0)
    return g_strdup_printf ("%d", info->rank);
  /* Translators: a process without an MPI rank, by its pid, in the rank overview */
  return g_strdup_printf (_("pid %d"), info->pid);
}

/* Rank labels beside their rows: every row when there is room, else
 * rows spaced by a label's height, the first always. */
void
mg_rank_overview_draw_labels (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                              gpointer user_data)
{
  MgRankOverview *self = user_data;
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  g_autoptr (PangoLayout) layout = NULL;
  GdkRGBA fg;
  int text_height, extreme;
  double row_height, next_free = -1e9, extreme_y0 = 0, extreme_y1 = -1;

  if (map == NULL || map->n_rows == 0)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), "0");
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  row_height = (double) height / map->n_rows;
  gdk_cairo_set_source_rgba (cr, &fg);
  /* The outlier's label always, in bold with a mark; the others where
   * they leave it room. */
  extreme = mg_heat_map_extreme_row (map);
  if (extreme >= 0)
    {
      g_autofree char *text = mg_rank_overview_row_label (self, map->processes[extreme]);
      g_autofree char *marked = g_strdup_printf ("<b>%s ▸</b>", text);
      double y0, y1;
      int text_width;

      pango_layout_set_markup (layout, marked, -1);
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      row_band (map, (guint) extreme, height, &y0, &y1);
      extreme_y0 = CLAMP ((y0 + y1) / 2 - text_height / 2.0, 0, height - text_height);
      extreme_y1 = extreme_y0 + text_height;
      cairo_move_to (cr, width - text_width - 2, extreme_y0);
      pango_cairo_show_layout (cr, layout);
      pango_layout_set_attributes (layout, NULL);
    }
  for (guint r = 0; r < map->n_rows; r++)
    {
      double y0, y1, y;
      g_autofree char *text = NULL;
      int text_width;

      row_band (map, r, height, &y0, &y1);
      y = CLAMP ((y0 + y1) / 2 - text_height / 2.0, 0, height - text_height);
      if (y < next_free || (int) r == extreme)
        continue;
      if (y + text_height > extreme_y0 && y < extreme_y1)
        continue;
      text = mg_rank_overview_row_label (self, map->processes[r]);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, NULL);
      cairo_move_to (cr, width - text_width - 8, y);
      pango_cairo_show_layout (cr, layout);
      next_free = y + text_height + (row_height < text_height ? 2 : 0);
    }
}

/* The rows' figures as bars (mg_heat_map_render_figures). */
void
mg_rank_overview_draw_figures (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                               gpointer user_data)
{
  MgRankOverview *self = user_data;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (area));
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  cairo_surface_t *bars;
  int extreme;

  if (map == NULL || map->n_rows == 0)
    return;
  bars = mg_heat_map_render_figures (map, width * scale, height * scale);
  cairo_save (cr);
  cairo_scale (cr, 1.0 / scale, 1.0 / scale);
  cairo_set_source_surface (cr, bars, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (bars);
  /* The outlier's bar at least 3 px high, where rows are thinner. */
  extreme = mg_heat_map_extreme_row (map);
  if (extreme >= 0 && (double) height / map->n_rows < 3)
    {
      double f = mg_heat_map_fraction (map, mg_heat_map_row_figure (map, (guint) extreme));
      double y = ((double) extreme + 0.5) * height / map->n_rows;
      guint8 rgb[3];

      mg_heat_map_colour (f, rgb);
      cairo_set_source_rgb (cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
      cairo_rectangle (cr, 0, CLAMP (y - 1.5, 0, height - 3), MAX (1, f * width), 3);
      cairo_fill (cr);
    }
}

/* What the bars are: "Maximum of each process over 0 s – 10 s". */
gboolean
mg_rank_overview_on_figures_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                     GtkTooltip *tooltip,
                    gpointer user_data)
{
  MgRankOverview *self = user_data;
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  const MgMetricDef *def = mg_rank_overview_get_def (self);
  g_autofree char *from = NULL, *to = NULL, *value = NULL, *text = NULL, *who = NULL;
  int row = mg_rank_overview_row_at_y (self, y);

  if (map == NULL || def == NULL || row < 0)
    return FALSE;
  from = mg_units_format_time (map->f0);
  to = mg_units_format_time (map->f1);
  who = mg_rank_overview_row_label (self, map->processes[row]);
  value = mg_units_format_value (def, mg_heat_map_row_figure (map, (guint) row));
  /* Translators: the rank overview's bars: the statistic (Mean, Maximum,
   * Minimum), the range, then a process's label and its value */
  text = g_strdup_printf (_("%s of each process over %s – %s\n%s: %s"),
                          mg_rank_overview_stat_name (map->sort),
                          from, to, who, value);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
mg_rank_overview_draw_legend (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                              gpointer user_data)
{
  for (int x = 0; x < width; x++)
    {
      guint8 rgb[3];

      mg_heat_map_colour (width > 1 ? (double) x / (width - 1) : 1, rgb);
      cairo_set_source_rgb (cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
      cairo_rectangle (cr, x, 0, 1, height);
      cairo_fill (cr);
    }
}
