/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview's parts, for its own files only: the instance, and
 * what the drawing (mg-rank-overview-draw.c) and the widget
 * (mg-rank-overview.c) ask of each other. */
#pragma once

#include "mg-rank-overview.h"

G_BEGIN_DECLS

struct _MgRankOverview
{
  GtkWidget parent_instance;

  /* template children */
  GtkWidget *box;
  GtkWidget *metric_dropdown;
  GtkWidget *sort_dropdown;
  GtkWidget *range_label;
  GtkWidget *grid;
  GtkWidget *labels_area;
  GtkWidget *heat_area;
  GtkWidget *figures_area;
  GtkWidget *stat_label;
  GtkWidget *low_label;
  GtkWidget *legend_area;
  GtkWidget *high_label;
  GtkWidget *hint_label;

  GtkWidget *time_axis;
  MgProfile *profile;
  MgTimeView *view;
  char *metric_id;
  int metric;               /* -1: none */
  MgHeatSort sort;
  GArray *processes;        /* guint: the processes shown, in profile order */
  GArray *metrics;          /* guint: the time-domain metrics, as listed */
  MgHeatSource *source;     /* the metric's series, NULL while read */
  GCancellable *reading;    /* the source being read, or NULL */
  char *source_error;       /* why there is no source, or NULL */
  MgHeatMap *map;           /* NULL: to compute at the next draw */
  cairo_surface_t *picture; /* the map drawn at device size */
  int cursor_row;           /* the row Up/Down chose, -1: none */
  gint64 last_compute_us;
  guint labels_idle;
  gboolean order_stale;     /* the figures' range changed: re-sort the map */
};

/* mg-rank-overview.c */
const MgMetricDef *mg_rank_overview_get_def (MgRankOverview *self);
/* "Mean", "Maximum" or "Minimum": what the cells and bars hold. */
const char *mg_rank_overview_stat_name (MgHeatSort sort);
/* The grid and its picture at the heat map's device size, computed (or
 * re-sorted) when stale; NULL while there is nothing to show. */
const MgHeatMap *mg_rank_overview_ensure_map (MgRankOverview *self);
/* The row at y on the heat map, or -1. */
int mg_rank_overview_row_at_y (MgRankOverview *self, double y);

/* mg-rank-overview-draw.c: the drawing areas' draw functions. */
void mg_rank_overview_draw_heat (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                                 gpointer user_data);
void mg_rank_overview_draw_labels (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                                   gpointer user_data);
void mg_rank_overview_draw_figures (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                                    gpointer user_data);
void mg_rank_overview_draw_legend (GtkDrawingArea *area, cairo_t *cr, int width, int height,
                                   gpointer user_data);
/* The bars' tooltip: what they are, and the row's figure. */
gboolean mg_rank_overview_on_figures_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                              GtkTooltip *tooltip, gpointer user_data);
/* A process's short label: its rank, else "pid N". */
char *mg_rank_overview_row_label (MgRankOverview *self, guint process);

G_END_DECLS
