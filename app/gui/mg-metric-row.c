/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One metric row. */
#include "mg-config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "plot/mg-graph-render.h"
#include "gui/graph/mg-metric-graph.h"
#include "mg-metric-row.h"
#include "plot/mg-selection-stats.h"
#include "plot/mg-series-view.h"
#include "gui/graph/mg-theme.h"
#include "defs/mg-units.h"

struct _MgMetricRow
{
  GtkWidget parent_instance;

  MgProfile *profile;
  guint metric;
  MgTimeView *view;

  GtkWidget *label_box;
  GtkWidget *swatch;
  GtkWidget *name_label;
  GtkWidget *units_label;
  GtkWidget *max_value;
  GtkWidget *mean_value;
  GtkWidget *min_value;
  GtkWidget *graph;
  GtkWidget *context_menu; /* built on the first secondary click */
  char *description;       /* plain text, NULL if none */
};

G_DEFINE_FINAL_TYPE (MgMetricRow, mg_metric_row, GTK_TYPE_WIDGET)

/* Tooltips are answered on demand (query-tooltip): setting a tooltip's
 * text makes GTK ask the X server where the pointer is, which cost a round
 * trip per label and most of the time of building the rows. A figure's
 * tooltip names the process that held it (max and min) and the range the
 * figures describe. */
static void
set_figure (GtkWidget *label, MgProfile *profile, const MgMetricDef *def, double value,
            int process, const char *range)
{
  g_autofree char *text = mg_units_format_value (def, value);
  g_autofree char *who = mg_selection_stats_describe_process (profile, process);
  char *tip = who != NULL ? g_strconcat (who, "\n", range, NULL) : g_strdup (range);

  gtk_label_set_text (GTK_LABEL (label), text);
  g_object_set_data_full (G_OBJECT (label), "mg-tooltip", tip, g_free);
  /* What the tooltip says, for screen readers (as a tooltip text would). */
  gtk_accessible_update_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  tip, -1);
}

static GtkWidget *
get_part (MgMetricRow *self, MgMetricRowPart part)
{
  switch (part)
    {
    case MG_METRIC_ROW_PART_NAME: return self->label_box;
    case MG_METRIC_ROW_PART_MAX: return self->max_value;
    case MG_METRIC_ROW_PART_MEAN: return self->mean_value;
    case MG_METRIC_ROW_PART_MIN: return self->min_value;
    default: return NULL;
    }
}

char *
mg_metric_row_dup_tooltip (MgMetricRow *self, MgMetricRowPart part)
{
  GtkWidget *widget;

  g_return_val_if_fail (MG_IS_METRIC_ROW (self), NULL);

  widget = get_part (self, part);
  if (widget == NULL)
    return NULL;
  if (part == MG_METRIC_ROW_PART_NAME)
    return g_strdup (self->description);
  return g_strdup (g_object_get_data (G_OBJECT (widget), "mg-tooltip"));
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  MgMetricRow *self)
{
  g_autofree char *text = NULL;

  /* Not over the row's open menu (GTK 4.8 leaves a tooltip drawn over a
   * popover). */
  if (mg_metric_row_menu_is_open (self))
    return FALSE;
  for (MgMetricRowPart part = MG_METRIC_ROW_PART_NAME; part <= MG_METRIC_ROW_PART_MIN; part++)
    if (get_part (self, part) == widget)
      text = mg_metric_row_dup_tooltip (self, part);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
update_figures (MgMetricRow *self)
{
  const MgMetricDef *def = mg_profile_get_metric (self->profile, self->metric);
  MgSeriesView series;
  MgSelectionStats stats = { NAN, NAN, NAN, -1, -1, 0 };
  g_autofree char *range = mg_time_view_describe_figures_range (self->view);
  double t0, t1;

  mg_time_view_get_figures_range (self->view, &t0, &t1);
  if (mg_series_view_init (&series, self->profile, self->metric,
                           mg_time_view_get_process (self->view)))
    mg_selection_stats_compute (&series, t0, t1, &stats);

  set_figure (self->max_value, self->profile, def, stats.max, stats.max_process, range);
  set_figure (self->mean_value, self->profile, def, stats.mean, -1, range);
  set_figure (self->min_value, self->profile, def, stats.min, stats.min_process, range);
}

static void
on_view_notify (MgMetricRow *self)
{
  update_figures (self);
}

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  MgMetricRow *self = user_data;
  const MgMetricDef *def = mg_profile_get_metric (self->profile, self->metric);
  MgRgba colour = mg_graph_render_metric_colour (def, mg_theme_is_dark (self->graph));
  double r = MIN (width, height) / 2.0;

  cairo_set_source_rgba (cr, colour.r, colour.g, colour.b, colour.a);
  cairo_arc (cr, width / 2.0, height / 2.0, r, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* The menu opened or closed: the tooltip under the pointer (the row's
 * figures', the graph's) is asked again, and says nothing while the
 * menu is open: it closes (it stayed drawn over the menu). */
static void
on_menu_visible (MgMetricRow *self)
{
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

gboolean
mg_metric_row_menu_is_open (MgMetricRow *self)
{
  g_return_val_if_fail (MG_IS_METRIC_ROW (self), FALSE);
  return self->context_menu != NULL && gtk_widget_get_visible (self->context_menu);
}

/* Built when first asked for: a popover menu per row costs more than the
 * rest of the row. */
static void
build_context_menu (MgMetricRow *self)
{
  const MgMetricDef *def = mg_profile_get_metric (self->profile, self->metric);
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenuItem) item = g_menu_item_new (_("Hide This Metric"), NULL);

  g_menu_item_set_action_and_target_value (item, "win.hide-metric", g_variant_new_string (def->id));
  g_menu_append_item (menu, item);
  g_clear_object (&item);
  /* The metric's heat map of processes × time (mg-rank-overview.h). */
  item = g_menu_item_new (_("Rank Overview"), NULL);
  g_menu_item_set_action_and_target_value (item, "win.rank-overview", g_variant_new_string (def->id));
  g_menu_append_item (menu, item);
  g_menu_append (menu, _("Zoom to Selection"), "win.zoom-selection");
  g_menu_append (menu, _("Reset Zoom"), "win.zoom-reset");
  self->context_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  /* On the graph, which takes the keyboard: a closing popover gives the
   * focus to its parent, else to the parent's nearest focusable ancestor.
   * On the row that was the group's expander, as tall as every row of
   * the group, and the rows scrolled to show its bottom: Escape on the
   * first row's menu of thirty took them 2264 px down. */
  gtk_widget_set_parent (self->context_menu, self->graph);
  g_signal_connect_swapped (self->context_menu, "notify::visible",
                            G_CALLBACK (on_menu_visible), self);
}

/* The menu at (x, y) of the graph. */
static void
popup_context_menu (MgMetricRow *self, double x, double y)
{
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  if (self->context_menu == NULL)
    build_context_menu (self);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu), &at);
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
on_secondary_click (GtkGestureClick *gesture, int n_press, double x, double y, gpointer user_data)
{
  MgMetricRow *self = user_data;
  double gx = x, gy = y;

  /* The click is the row's; the menu is the graph's. */
  gtk_widget_translate_coordinates (GTK_WIDGET (self), self->graph, x, y, &gx, &gy);
  popup_context_menu (self, gx, gy);
}

/* Shift+F10 or the Menu key on the focused graph: the same menu, at the
 * graph's middle. Without them "Rank Overview" could not be reached
 * from the keyboard at all. */
static gboolean
on_menu_key (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  MgMetricRow *self = MG_METRIC_ROW (widget);

  popup_context_menu (self, gtk_widget_get_width (self->graph) / 2.0,
                      gtk_widget_get_height (self->graph) / 2.0);
  return TRUE;
}

static void
add_context_click (MgMetricRow *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_secondary_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

static void
mg_metric_row_dispose (GObject *object)
{
  MgMetricRow *self = MG_METRIC_ROW (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_METRIC_ROW);
  g_clear_pointer (&self->graph, gtk_widget_unparent);
  G_OBJECT_CLASS (mg_metric_row_parent_class)->dispose (object);
}

static void
mg_metric_row_finalize (GObject *object)
{
  MgMetricRow *self = MG_METRIC_ROW (object);

  g_clear_object (&self->view);
  g_clear_object (&self->profile);
  g_free (self->description);
  G_OBJECT_CLASS (mg_metric_row_parent_class)->finalize (object);
}

static void
mg_metric_row_class_init (MgMetricRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_metric_row_dispose;
  object_class->finalize = mg_metric_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-metric-row.ui");
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, label_box);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, swatch);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, units_label);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, max_value);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, mean_value);
  gtk_widget_class_bind_template_child (widget_class, MgMetricRow, min_value);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "metricrow");
  gtk_widget_class_add_binding (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, on_menu_key, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Menu, 0, on_menu_key, NULL);
}

static void
mg_metric_row_init (MgMetricRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (MgMetricRowPart part = MG_METRIC_ROW_PART_NAME; part <= MG_METRIC_ROW_PART_MIN; part++)
    {
      GtkWidget *widget = get_part (self, part);

      gtk_widget_set_has_tooltip (widget, TRUE);
      g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
    }
}

GtkWidget *
mg_metric_row_new (MgProfile *profile, guint metric, MgTimeView *view, GtkSizeGroup *label_group)
{
  MgMetricRow *self = g_object_new (MG_TYPE_METRIC_ROW, NULL);
  const MgMetricDef *def = mg_profile_get_metric (profile, metric);
  g_autofree char *units = mg_units_dup_family (def);

  self->profile = g_object_ref (profile);
  self->metric = metric;
  self->view = g_object_ref (view);

  gtk_label_set_text (GTK_LABEL (self->name_label), def->display_name ? def->display_name : def->id);
  if (def->description != NULL && def->description[0] != '\0')
    {
      /* Descriptions may carry HTML line breaks from CDATA. */
      static GRegex *tags;
      char *plain;

      if (g_once_init_enter (&tags))
        g_once_init_leave (&tags, g_regex_new ("<br\\s*/?>|<[^>]*>", G_REGEX_CASELESS, 0, NULL));
      plain = g_regex_replace (tags, def->description, -1, 0, "\n", 0, NULL);
      self->description = g_strdup (g_strstrip (plain));
      g_free (plain);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->label_box),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->description, -1);
    }
  if (units != NULL && units[0] != '\0')
    gtk_label_set_text (GTK_LABEL (self->units_label), units);
  else
    gtk_widget_set_visible (self->units_label, FALSE);

  self->graph = mg_metric_graph_new (profile, metric, view);
  gtk_widget_set_hexpand (self->graph, TRUE);
  gtk_widget_set_parent (self->graph, GTK_WIDGET (self));
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->swatch), draw_swatch, self, NULL);
  if (label_group != NULL)
    gtk_size_group_add_widget (label_group, self->label_box);
  add_context_click (self);

  g_signal_connect_swapped (view, "notify::has-selection", G_CALLBACK (on_view_notify), self);
  g_signal_connect_swapped (view, "notify::selection-start", G_CALLBACK (on_view_notify), self);
  g_signal_connect_swapped (view, "notify::selection-end", G_CALLBACK (on_view_notify), self);
  g_signal_connect_swapped (view, "notify::process", G_CALLBACK (on_view_notify), self);
  /* Zoomed in without a selection, the figures describe what is visible. */
  g_signal_connect_swapped (view, "notify::start", G_CALLBACK (on_view_notify), self);
  g_signal_connect_swapped (view, "notify::end", G_CALLBACK (on_view_notify), self);
  update_figures (self);
  return GTK_WIDGET (self);
}

GtkWidget *
mg_metric_row_get_part (MgMetricRow *self, MgMetricRowPart part)
{
  g_return_val_if_fail (MG_IS_METRIC_ROW (self), NULL);
  return get_part (self, part);
}

guint
mg_metric_row_get_metric (MgMetricRow *self)
{
  return self->metric;
}

GtkWidget *
mg_metric_row_get_graph (MgMetricRow *self)
{
  return self->graph;
}

char *
mg_metric_row_dup_figures_text (MgMetricRow *self)
{
  return g_strdup_printf (_("Max %s · Mean %s · Min %s"),
                          gtk_label_get_text (GTK_LABEL (self->max_value)),
                          gtk_label_get_text (GTK_LABEL (self->mean_value)),
                          gtk_label_get_text (GTK_LABEL (self->min_value)));
}
