/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rank overview widget (mg-rank-overview.h): its properties, the
 * grid kept and when it is computed, the series read in a worker thread,
 * pointer and keys; the drawing is in mg-rank-overview-draw.c. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "defs/mg-units.h"
#include "graph/mg-theme.h"
#include "graph/mg-time-axis.h"
#include "mg-rank-overview-internal.h"

G_DEFINE_FINAL_TYPE (MgRankOverview, mg_rank_overview, GTK_TYPE_WIDGET)

G_DEFINE_ENUM_TYPE (MgHeatSort, mg_heat_sort,
  G_DEFINE_ENUM_VALUE (MG_HEAT_SORT_PROCESS, "process"),
  G_DEFINE_ENUM_VALUE (MG_HEAT_SORT_MEAN, "mean"),
  G_DEFINE_ENUM_VALUE (MG_HEAT_SORT_MAX, "max"),
  G_DEFINE_ENUM_VALUE (MG_HEAT_SORT_MIN, "min"))

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_VIEW,
  PROP_METRIC_ID,
  PROP_SORT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum { PROCESS_ACTIVATED, N_SIGNALS };

static guint signals[N_SIGNALS];

static void
invalidate (MgRankOverview *self)
{
  g_clear_pointer (&self->map, mg_heat_map_free);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  gtk_widget_queue_draw (self->heat_area);
  gtk_widget_queue_draw (self->labels_area);
  gtk_widget_queue_draw (self->figures_area);
  gtk_widget_queue_draw (self->legend_area);
}

const MgMetricDef *
mg_rank_overview_get_def (MgRankOverview *self)
{
  return self->profile != NULL && self->metric >= 0
    ? mg_profile_get_metric (self->profile, (guint) self->metric) : NULL;
}

const char *
mg_rank_overview_stat_name (MgHeatSort sort)
{
  switch (sort)
    {
    /* Translators: the legend's title: each cell's colour is the maximum
     * of that process over the cell's time */
    case MG_HEAT_SORT_MAX: return C_("legend", "Maximum");
    case MG_HEAT_SORT_MIN: return C_("legend", "Minimum");
    case MG_HEAT_SORT_PROCESS:
    case MG_HEAT_SORT_MEAN:
    default: return C_("legend", "Mean");
    }
}

/* The legend's figures and the range the order describes. */
static void
update_labels (MgRankOverview *self)
{
  const MgMetricDef *def = mg_rank_overview_get_def (self);
  g_autofree char *low = NULL, *high = NULL, *from = NULL, *to = NULL, *range = NULL;

  gtk_label_set_label (GTK_LABEL (self->stat_label), mg_rank_overview_stat_name (self->sort));
  if (self->source_error != NULL)
    {
      gtk_label_set_label (GTK_LABEL (self->range_label), self->source_error);
      return;
    }
  if (self->reading != NULL)
    {
      g_autofree char *reading =
        /* Translators: while the rank overview copies each process's series */
        g_strdup_printf (ngettext ("Reading the series of %u process…",
                                   "Reading the series of %u processes…", self->processes->len),
                         self->processes->len);

      gtk_label_set_label (GTK_LABEL (self->range_label), reading);
      return;
    }
  if (self->map == NULL || def == NULL)
    return;
  low = mg_units_format_value (def, self->map->lo);
  high = mg_units_format_value (def, self->map->hi);
  gtk_label_set_label (GTK_LABEL (self->low_label), low);
  gtk_label_set_label (GTK_LABEL (self->high_label), high);
  from = mg_units_format_time (self->map->f0);
  to = mg_units_format_time (self->map->f1);
  if (self->sort == MG_HEAT_SORT_PROCESS)
    /* Translators: the range the rows' figures (in the tooltips) describe */
    range = g_strdup_printf (_("Figures over %s – %s"), from, to);
  else
    /* Translators: the range the rows' order describes */
    range = g_strdup_printf (_("Sorted over %s – %s"), from, to);
  gtk_label_set_label (GTK_LABEL (self->range_label), range);
}

static gboolean
update_labels_idle (gpointer user_data)
{
  MgRankOverview *self = user_data;

  self->labels_idle = 0;
  update_labels (self);
  return G_SOURCE_REMOVE;
}

/* Not now: this may run while the heat map is drawn, and labels that
 * change size in a snapshot leave their box unallocated. */
static void
schedule_labels (MgRankOverview *self)
{
  if (self->labels_idle == 0)
    self->labels_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, update_labels_idle, self, NULL);
  gtk_widget_queue_draw (self->labels_area);
  gtk_widget_queue_draw (self->figures_area);
}

/* The grid and its picture at the heat map's device size, computed when
 * missing. */
const MgHeatMap *
mg_rank_overview_ensure_map (MgRankOverview *self)
{
  int scale = gtk_widget_get_scale_factor (self->heat_area);
  int width = gtk_widget_get_width (self->heat_area) * scale;
  int height = gtk_widget_get_height (self->heat_area) * scale;
  double f0, f1;
  gint64 start;

  if (self->map != NULL && self->picture != NULL
      && cairo_image_surface_get_width (self->picture) == width
      && cairo_image_surface_get_height (self->picture) == height)
    {
      if (!self->order_stale)
        return self->map;
      start = g_get_monotonic_time ();
      mg_time_view_get_figures_range (self->view, &f0, &f1);
      if (f0 != self->map->f0 || f1 != self->map->f1)
        {
          mg_heat_map_set_figures_range (self->map, self->source, f0, f1);
          cairo_surface_destroy (self->picture);
          self->picture = mg_heat_map_render (self->map, height);
        }
      self->order_stale = FALSE;
      self->last_compute_us = g_get_monotonic_time () - start;
      schedule_labels (self);
      return self->map;
    }
  self->order_stale = FALSE;
  g_clear_pointer (&self->map, mg_heat_map_free);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  if (self->source == NULL || self->view == NULL || width <= 0 || height <= 0)
    return NULL;

  start = g_get_monotonic_time ();
  mg_time_view_get_figures_range (self->view, &f0, &f1);
  self->map = mg_heat_map_new (self->source, mg_time_view_get_start (self->view),
                               mg_time_view_get_end (self->view), (guint) width, f0, f1,
                               self->sort);
  self->picture = mg_heat_map_render (self->map, height);
  self->last_compute_us = g_get_monotonic_time () - start;
  schedule_labels (self);
  return self->map;
}

int
mg_rank_overview_row_at_y (MgRankOverview *self, double y)
{
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  int height = gtk_widget_get_height (self->heat_area);

  if (map == NULL || map->n_rows == 0 || height <= 0)
    return -1;
  return (int) MIN ((guint) (MAX (y, 0) * map->n_rows / height), map->n_rows - 1);
}

static void
activate_row (MgRankOverview *self, int row)
{
  if (self->map == NULL || row < 0 || (guint) row >= self->map->n_rows)
    return;
  g_signal_emit (self, signals[PROCESS_ACTIVATED], 0, (int) self->map->processes[row]);
}

static void
on_released (GtkGestureClick *gesture, int n_press, double x, double y, gpointer user_data)
{
  MgRankOverview *self = user_data;
  int row = mg_rank_overview_row_at_y (self, y);

  gtk_widget_grab_focus (self->heat_area);
  self->cursor_row = row;
  activate_row (self, row);
  gtk_widget_queue_draw (self->heat_area);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, gpointer user_data)
{
  MgRankOverview *self = user_data;
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);

  if (map == NULL || map->n_rows == 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      self->cursor_row = MAX (self->cursor_row - 1, 0);
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      self->cursor_row = MIN (self->cursor_row + 1, (int) map->n_rows - 1);
      break;
    case GDK_KEY_Home:
      self->cursor_row = 0;
      break;
    case GDK_KEY_End:
      self->cursor_row = (int) map->n_rows - 1;
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      activate_row (self, self->cursor_row);
      return TRUE;
    default:
      return FALSE;
    }
  gtk_widget_queue_draw (self->heat_area);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, gpointer user_data)
{
  MgRankOverview *self = user_data;
  int width = gtk_widget_get_width (self->heat_area);
  double t0, t1;

  if (self->view == NULL || width <= 0)
    return;
  t0 = mg_time_view_get_start (self->view);
  t1 = mg_time_view_get_end (self->view);
  mg_time_view_set_hover_time (self->view, t0 + CLAMP (x / width, 0, 1) * (t1 - t0));
}

static void
on_leave (GtkEventControllerMotion *controller, gpointer user_data)
{
  MgRankOverview *self = user_data;

  if (self->view != NULL)
    mg_time_view_set_hover_time (self->view, -1);
}

/* "Rank 37 on node1 (pid 1037)", the value under the pointer and the
 * row's figures over the range the order describes. */
static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer user_data)
{
  MgRankOverview *self = user_data;
  const MgHeatMap *map = mg_rank_overview_ensure_map (self);
  const MgMetricDef *def = mg_rank_overview_get_def (self);
  const MgProcessInfo *info;
  int row = keyboard ? self->cursor_row : mg_rank_overview_row_at_y (self, y);
  int width = gtk_widget_get_width (widget);
  g_autofree char *who = NULL, *at = NULL, *value = NULL, *mean = NULL, *max = NULL;
  g_autofree char *min = NULL, *text = NULL;
  double t;
  guint column;

  if (map == NULL || def == NULL || row < 0 || (guint) row >= map->n_rows || width <= 0)
    return FALSE;
  info = mg_profile_get_process (self->profile, map->processes[row]);
  if (info->rank >= 0)
    who = g_strdup_printf (_("Rank %d on %s (pid %d)"), info->rank, info->host ? info->host : "",
                           info->pid);
  else
    who = g_strdup_printf (_("Process %d on %s"), info->pid, info->host ? info->host : "");
  t = map->t0 + CLAMP ((double) x / width, 0, 1) * (map->t1 - map->t0);
  column = mg_heat_map_column_at (map, t);
  at = mg_units_format_time (t);
  value = mg_units_format_value (def, mg_heat_map_get (map, (guint) row, column));
  mean = mg_units_format_value (def, map->row_means[row]);
  max = mg_units_format_value (def, map->row_maxs[row]);
  min = mg_units_format_value (def, map->row_mins[row]);
  /* Translators: a rank overview tooltip: the process; the time and the
   * value (mean, maximum or minimum) there; the process's figures over
   * the range the order describes */
  text = g_strdup_printf (_("%s\n%s at %s: %s\nMean %s, max %s, min %s"), who,
                          mg_rank_overview_stat_name (map->sort), at, value, mean, max, min);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
on_view_notify (MgTimeView *view, GParamSpec *pspec, MgRankOverview *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "hover-time") || g_str_equal (name, "process")
      || g_str_equal (name, "auto-zoom-vertical") || g_str_equal (name, "can-zoom-out"))
    gtk_widget_queue_draw (self->heat_area);
  else if (g_str_has_prefix (name, "selection") || g_str_equal (name, "has-selection"))
    {
      /* The cells stay; the figures and the order follow the selection. */
      self->order_stale = TRUE;
      gtk_widget_queue_draw (self->heat_area);
      gtk_widget_queue_draw (self->labels_area);
      gtk_widget_queue_draw (self->figures_area);
    }
  else
    invalidate (self);
}

typedef struct {
  MgProfile *profile;
  guint metric;
  GArray *processes;
} SourceJob;

static void
source_job_free (gpointer data)
{
  SourceJob *job = data;

  g_object_unref (job->profile);
  g_array_unref (job->processes);
  g_free (job);
}

static void
read_source (GTask *task, gpointer object, gpointer data, GCancellable *cancellable)
{
  SourceJob *job = data;
  GError *error = NULL;
  MgHeatSource *source = mg_heat_source_new (job->profile, job->metric,
                                             (const guint *) job->processes->data,
                                             job->processes->len, cancellable, &error);

  if (source == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, source, (GDestroyNotify) mg_heat_source_free);
}

static void
on_source_read (GObject *object, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  MgHeatSource *source = g_task_propagate_pointer (G_TASK (result), &error);
  MgRankOverview *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return; /* replaced, or the widget is gone */
  self = MG_RANK_OVERVIEW (object);
  g_clear_object (&self->reading);
  self->source = source;
  if (error != NULL)
    self->source_error = g_strdup (error->message);
  invalidate (self);
  update_labels (self);
}

/* Reads the metric's series of the processes shown, in a worker thread:
 * from a file that is every process's block decoded once. */
static void
load_source (MgRankOverview *self)
{
  g_autoptr (GTask) task = NULL;
  SourceJob *job;

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_pointer (&self->source, mg_heat_source_free);
  g_clear_pointer (&self->source_error, g_free);
  invalidate (self);
  if (self->profile == NULL || self->metric < 0)
    return;
  job = g_new0 (SourceJob, 1);
  job->profile = g_object_ref (self->profile);
  job->metric = (guint) self->metric;
  job->processes = g_array_ref (self->processes);
  self->reading = g_cancellable_new ();
  task = g_task_new (self, self->reading, on_source_read, NULL);
  g_task_set_task_data (task, job, source_job_free);
  g_task_run_in_thread (task, read_source);
  update_labels (self);
}

/* The metric drop-down lists the profile's time-domain metrics. */
static void
fill_metrics (MgRankOverview *self)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);

  g_array_set_size (self->metrics, 0);
  /* A new array: a reading in progress holds the old one. */
  g_array_unref (self->processes);
  self->processes = g_array_new (FALSE, FALSE, sizeof (guint));
  if (self->profile != NULL)
    {
      for (guint m = 0; m < mg_profile_get_n_metrics (self->profile); m++)
        if (mg_profile_get_series (self->profile, m) != NULL)
          {
            const MgMetricDef *def = mg_profile_get_metric (self->profile, m);

            g_array_append_val (self->metrics, m);
            gtk_string_list_append (names, def->display_name ? def->display_name : def->id);
          }
      for (guint p = 0; p < mg_profile_get_n_processes (self->profile); p++)
        if (!mg_profile_get_process (self->profile, p)->helper)
          g_array_append_val (self->processes, p);
      /* Only helpers (a profile of a launcher alone): show them. */
      if (self->processes->len == 0)
        for (guint p = 0; p < mg_profile_get_n_processes (self->profile); p++)
          g_array_append_val (self->processes, p);
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->metric_dropdown), G_LIST_MODEL (names));
}

static void
on_metric_selected (MgRankOverview *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->metric_dropdown));

  if (self->profile == NULL || selected >= self->metrics->len)
    return;
  mg_rank_overview_set_metric_id (self,
    mg_profile_get_metric (self->profile, g_array_index (self->metrics, guint, selected))->id);
}

static void
on_sort_selected (MgRankOverview *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->sort_dropdown));

  if (selected <= MG_HEAT_SORT_LAST)
    mg_rank_overview_set_sort (self, (MgHeatSort) selected);
}

/* Finds metric_id among the listed metrics (else the first) and shows it
 * in the drop-down. */
static void
resolve_metric (MgRankOverview *self)
{
  guint index = 0;
  const char *id;

  self->metric = -1;
  if (self->profile == NULL || self->metrics->len == 0)
    return;
  for (guint i = 0; i < self->metrics->len; i++)
    {
      guint m = g_array_index (self->metrics, guint, i);

      if (g_strcmp0 (mg_profile_get_metric (self->profile, m)->id, self->metric_id) == 0)
        index = i;
    }
  self->metric = (int) g_array_index (self->metrics, guint, index);
  id = mg_profile_get_metric (self->profile, (guint) self->metric)->id;
  if (g_strcmp0 (self->metric_id, id) != 0)
    {
      g_free (self->metric_id);
      self->metric_id = g_strdup (id);
    }
  g_signal_handlers_block_by_func (self->metric_dropdown, on_metric_selected, self);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->metric_dropdown), index);
  g_signal_handlers_unblock_by_func (self->metric_dropdown, on_metric_selected, self);
}

static void
update_accessible (MgRankOverview *self)
{
  const MgMetricDef *def = mg_rank_overview_get_def (self);
  g_autofree char *label = NULL;

  if (def == NULL)
    return;
  /* Translators: the rank overview's accessible name: metric, number of processes */
  label = g_strdup_printf (ngettext ("Heat map of %s for %u process",
                                     "Heat map of %s for %u processes", self->processes->len),
                           def->display_name ? def->display_name : def->id, self->processes->len);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->heat_area),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

MgProfile *
mg_rank_overview_get_profile (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), NULL);
  return self->profile;
}

void
mg_rank_overview_set_profile (MgRankOverview *self, MgProfile *profile)
{
  g_return_if_fail (MG_IS_RANK_OVERVIEW (self));
  g_return_if_fail (profile == NULL || MG_IS_PROFILE (profile));

  if (!g_set_object (&self->profile, profile))
    return;
  self->cursor_row = -1;
  fill_metrics (self);
  resolve_metric (self);
  update_accessible (self);
  load_source (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PROFILE]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_METRIC_ID]);
}

MgTimeView *
mg_rank_overview_get_view (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), NULL);
  return self->view;
}

void
mg_rank_overview_set_view (MgRankOverview *self, MgTimeView *view)
{
  g_return_if_fail (MG_IS_RANK_OVERVIEW (self));
  g_return_if_fail (view == NULL || MG_IS_TIME_VIEW (view));

  if (self->view == view)
    return;
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_func (self->view, on_view_notify, self);
  g_set_object (&self->view, view);
  if (view != NULL)
    g_signal_connect_object (view, "notify", G_CALLBACK (on_view_notify), self, 0);
  mg_time_axis_set_view (MG_TIME_AXIS (self->time_axis), view);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_VIEW]);
}

const char *
mg_rank_overview_get_metric_id (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), NULL);
  return self->metric_id;
}

void
mg_rank_overview_set_metric_id (MgRankOverview *self, const char *metric_id)
{
  int previous;

  g_return_if_fail (MG_IS_RANK_OVERVIEW (self));

  if (g_strcmp0 (self->metric_id, metric_id) == 0 && self->metric >= 0)
    return;
  g_free (self->metric_id);
  self->metric_id = g_strdup (metric_id);
  previous = self->metric;
  resolve_metric (self);
  update_accessible (self);
  if (self->metric != previous || (self->source == NULL && self->reading == NULL))
    load_source (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_METRIC_ID]);
}

MgHeatSort
mg_rank_overview_get_sort (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), MG_HEAT_SORT_PROCESS);
  return self->sort;
}

void
mg_rank_overview_set_sort (MgRankOverview *self, MgHeatSort sort)
{
  g_return_if_fail (MG_IS_RANK_OVERVIEW (self));
  g_return_if_fail (sort <= MG_HEAT_SORT_LAST);

  if (self->sort == sort)
    return;
  self->sort = sort;
  g_signal_handlers_block_by_func (self->sort_dropdown, on_sort_selected, self);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->sort_dropdown), sort);
  g_signal_handlers_unblock_by_func (self->sort_dropdown, on_sort_selected, self);
  self->cursor_row = -1;
  invalidate (self);
  update_labels (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SORT]);
}

const MgHeatMap *
mg_rank_overview_get_heat_map (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), NULL);
  return mg_rank_overview_ensure_map (self);
}

GtkWidget *
mg_rank_overview_get_heat_area (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), NULL);
  return self->heat_area;
}

gint64
mg_rank_overview_get_last_compute_us (MgRankOverview *self)
{
  g_return_val_if_fail (MG_IS_RANK_OVERVIEW (self), 0);
  return self->last_compute_us;
}

GtkWidget *
mg_rank_overview_new (MgProfile *profile, MgTimeView *view, const char *metric_id)
{
  return g_object_new (MG_TYPE_RANK_OVERVIEW, "view", view, "metric-id", metric_id,
                       "profile", profile, NULL);
}

static void
on_heat_resize (GtkDrawingArea *area, int width, int height, gpointer user_data)
{
  invalidate (MG_RANK_OVERVIEW (user_data));
}

static void
mg_rank_overview_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRankOverview *self = MG_RANK_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE: g_value_set_object (value, self->profile); break;
    case PROP_VIEW: g_value_set_object (value, self->view); break;
    case PROP_METRIC_ID: g_value_set_string (value, self->metric_id); break;
    case PROP_SORT: g_value_set_enum (value, self->sort); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_rank_overview_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  MgRankOverview *self = MG_RANK_OVERVIEW (object);

  switch (prop_id)
    {
    case PROP_PROFILE: mg_rank_overview_set_profile (self, g_value_get_object (value)); break;
    case PROP_VIEW: mg_rank_overview_set_view (self, g_value_get_object (value)); break;
    case PROP_METRIC_ID: mg_rank_overview_set_metric_id (self, g_value_get_string (value)); break;
    case PROP_SORT: mg_rank_overview_set_sort (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_rank_overview_dispose (GObject *object)
{
  MgRankOverview *self = MG_RANK_OVERVIEW (object);

  if (self->view != NULL)
    g_signal_handlers_disconnect_by_func (self->view, on_view_notify, self);
  g_clear_object (&self->view);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->map, mg_heat_map_free);
  g_clear_pointer (&self->picture, cairo_surface_destroy);
  g_clear_handle_id (&self->labels_idle, g_source_remove);
  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_pointer (&self->source, mg_heat_source_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_RANK_OVERVIEW);
  G_OBJECT_CLASS (mg_rank_overview_parent_class)->dispose (object);
}

static void
mg_rank_overview_finalize (GObject *object)
{
  MgRankOverview *self = MG_RANK_OVERVIEW (object);

  g_free (self->metric_id);
  g_free (self->source_error);
  g_array_unref (self->processes);
  g_array_unref (self->metrics);
  G_OBJECT_CLASS (mg_rank_overview_parent_class)->finalize (object);
}

static void
mg_rank_overview_class_init (MgRankOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = mg_rank_overview_get_property;
  object_class->set_property = mg_rank_overview_set_property;
  object_class->dispose = mg_rank_overview_dispose;
  object_class->finalize = mg_rank_overview_finalize;

  props[PROP_PROFILE] = g_param_spec_object ("profile", NULL, NULL, MG_TYPE_PROFILE,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                             | G_PARAM_STATIC_STRINGS);
  props[PROP_VIEW] = g_param_spec_object ("view", NULL, NULL, MG_TYPE_TIME_VIEW,
                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                          | G_PARAM_STATIC_STRINGS);
  props[PROP_METRIC_ID] = g_param_spec_string ("metric-id", NULL, NULL, NULL,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                               | G_PARAM_STATIC_STRINGS);
  props[PROP_SORT] = g_param_spec_enum ("sort", NULL, NULL, MG_TYPE_HEAT_SORT,
                                        MG_HEAT_SORT_PROCESS,
                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                        | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /* The process (profile index) of the row clicked or chosen with Enter. */
  signals[PROCESS_ACTIVATED] = g_signal_new ("process-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                             G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-rank-overview.ui");
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, box);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, sort_dropdown);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, range_label);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, grid);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, labels_area);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, heat_area);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, figures_area);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, stat_label);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, low_label);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, legend_area);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, high_label);
  gtk_widget_class_bind_template_child (widget_class, MgRankOverview, hint_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rank-overview");
}

static void
mg_rank_overview_init (MgRankOverview *self)
{
  GtkGesture *click;
  GtkEventController *controller;

  self->metric = -1;
  self->cursor_row = -1;
  self->processes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->metrics = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_widget_init_template (GTK_WIDGET (self));

  self->time_axis = mg_time_axis_new (NULL);
  gtk_grid_attach (GTK_GRID (self->grid), self->time_axis, 1, 1, 1, 1);

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->heat_area), mg_rank_overview_draw_heat,
                                  self, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->labels_area),
                                  mg_rank_overview_draw_labels, self, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->legend_area),
                                  mg_rank_overview_draw_legend, self, NULL);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->figures_area),
                                  mg_rank_overview_draw_figures, self, NULL);
  g_signal_connect (self->figures_area, "query-tooltip",
                    G_CALLBACK (mg_rank_overview_on_figures_tooltip), self);
  g_signal_connect (self->heat_area, "resize", G_CALLBACK (on_heat_resize), self);
  g_signal_connect (self->heat_area, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
  mg_theme_follow (self->heat_area);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (self->heat_area, GTK_EVENT_CONTROLLER (click));
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (self->heat_area, controller);
  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->heat_area, controller);

  g_signal_connect_swapped (self->metric_dropdown, "notify::selected",
                            G_CALLBACK (on_metric_selected), self);
  g_signal_connect_swapped (self->sort_dropdown, "notify::selected",
                            G_CALLBACK (on_sort_selected), self);
  update_labels (self);
}
