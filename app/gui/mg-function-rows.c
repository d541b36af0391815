/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rows of a function's share of the stack samples over time. */
#include "mg-config.h"

#include "mg-function-rows.h"

#include <glib/gi18n.h>
#include <math.h>

#include "gui/graph/mg-theme.h"
#include "gui/mg-tooltip.h"
#include "mg-code-namer.h"
#include "plot/mg-call-index.h"
#include "plot/mg-function-share.h"
#include "plot/mg-graph-render.h"

#define GRAPH_HEIGHT 60
#define LABEL_WIDTH 220

typedef struct {
  char *function;
  gboolean pinned;
  GtkWidget *widget; /* the row: label column and graph */
  GtkWidget *graph;
  GtkWidget *pin;
  double *values;    /* per profile window, for values_process; NULL: not yet */
  int values_process;
  GCancellable *job; /* the computation under way, for job_process */
  int job_process;
  MgMetricDef *def;  /* how the renderer names and colours it */
} Row;

struct _MgFunctionRows
{
  GtkWidget parent_instance;

  GtkWidget *box;
  MgTimeView *view;
  MgProfile *profile;
  MgFrameNamer *namer;
  MgCallIndex *index;       /* the Code pane's, once built: NULL before */
  GPtrArray *rows;          /* Row* */
  GtkSizeGroup *label_group; /* the metric rows' label column width */
};

G_DEFINE_FINAL_TYPE (MgFunctionRows, mg_function_rows, GTK_TYPE_WIDGET)

static void
row_free (Row *row)
{
  if (row->job != NULL)
    g_cancellable_cancel (row->job);
  g_clear_object (&row->job);
  g_free (row->function);
  g_free (row->values);
  mg_metric_def_free (row->def);
  g_free (row);
}

/* One row's values, computed on a worker: the stacks' windows for the
 * process, then the share (naming each distinct stack's frames once: the
 * symboliser may take seconds on a first look at a big program). */
typedef struct {
  MgProfile *profile;
  MgFrameNamer *namer;
  MgCallIndex *index;  /* NULL: the stacks' windows read and named */
  char *function;
  int process;
} ShareJob;

static void
share_job_free (ShareJob *job)
{
  g_object_unref (job->profile);
  mg_frame_namer_unref (job->namer);
  g_clear_pointer (&job->index, mg_call_index_unref);
  g_free (job->function);
  g_free (job);
}

static void
share_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ShareJob *job = data;
  MgSeriesView grid = { 0 };

  grid.n = mg_profile_get_n_windows (job->profile);
  grid.starts = mg_profile_get_window_starts (job->profile);
  grid.ends = mg_profile_get_window_ends (job->profile);
  /* The Code pane's index lists the function's stacks: a sum over their
   * windows (tens of ms where the pass below takes hundreds). */
  if (job->index != NULL)
    {
      g_task_return_pointer (task,
                             mg_call_index_function_share (job->index, job->process,
                                                           job->function, &grid),
                             g_free);
      return;
    }
  g_autoptr (MgStackWindows) windows = mg_stack_windows_new (job->profile, job->process);
  /* A stack set of an empty range holds no stack, only the modules. */
  g_autoptr (MgStackSet) modules = mg_stack_set_new (job->profile, -1, 0, 0);
  g_task_return_pointer (task,
                         mg_function_share_compute (job->namer, modules, windows, job->function,
                                                    &grid),
                         g_free);
}

static void
share_done (GObject *source, GAsyncResult *result, gpointer data)
{
  MgFunctionRows *self = MG_FUNCTION_ROWS (source);
  double *values = g_task_propagate_pointer (G_TASK (result), NULL);
  Row *row = data;

  /* Cancelled: the row is gone, or wants another process's values. */
  if (values == NULL)
    return;
  g_free (row->values);
  row->values = values;
  row->values_process = row->job_process;
  g_clear_object (&row->job);
  gtk_widget_queue_draw (row->graph);
  g_signal_emit_by_name (self, "values-changed");
}

/* The row's values for the view's process, NULL while they are computed
 * (a computation is started when none is under way for that process). */
static const double *
row_values (MgFunctionRows *self, Row *row)
{
  int process = mg_time_view_get_process (self->view);
  ShareJob *job;
  g_autoptr (GTask) task = NULL;

  if (row->values != NULL && row->values_process == process)
    return row->values;
  if (row->job != NULL && row->job_process == process)
    return NULL;
  if (row->job != NULL)
    g_cancellable_cancel (row->job);
  g_clear_object (&row->job);
  g_clear_pointer (&row->values, g_free);
  row->job = g_cancellable_new ();
  row->job_process = process;
  job = g_new0 (ShareJob, 1);
  job->profile = g_object_ref (self->profile);
  job->namer = mg_frame_namer_ref (self->namer);
  job->index = self->index ? mg_call_index_ref (self->index) : NULL;
  job->function = g_strdup (row->function);
  job->process = process;
  task = g_task_new (self, row->job, share_done, row);
  g_task_set_task_data (task, job, (GDestroyNotify) share_job_free);
  g_task_run_in_thread (task, share_thread);
  return NULL;
}

static void
draw_graph (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  Row *row = data;
  MgFunctionRows *self = g_object_get_data (G_OBJECT (area), "mg-function-rows");
  const double *values;
  MgGraphRenderParams params;
  MgSeriesView series = { 0 };
  g_autoptr (MgAxis) axis = NULL;

  if (self == NULL || self->profile == NULL)
    return;
  values = row_values (self, row);
  /* While computed: the empty graph (background and axis). */
  series.n = values != NULL ? mg_profile_get_n_windows (self->profile) : 0;
  series.starts = mg_profile_get_window_starts (self->profile);
  series.ends = mg_profile_get_window_ends (self->profile);
  series.mins = series.maxs = series.means = values;
  series.process = -1;
  series.one_process = TRUE;
  /* A share: always 0–100 %, so rows of several functions compare. */
  axis = mg_axis_new (row->def, 0, 100, (guint) CLAMP (height / 22, 2, 5) + 1);
  mg_graph_render_params_init (&params);
  params.width = width;
  params.height = height;
  params.def = row->def;
  params.series = &series;
  params.axis = axis;
  params.t0 = mg_time_view_get_start (self->view);
  params.t1 = mg_time_view_get_end (self->view);
  params.dark = mg_theme_is_dark (GTK_WIDGET (area));
  params.has_selection = mg_time_view_get_has_selection (self->view);
  params.selection_start = mg_time_view_get_selection_start (self->view);
  params.selection_end = mg_time_view_get_selection_end (self->view);
  params.hover_time = mg_time_view_get_hover_time (self->view);
  mg_graph_render (cr, &params);
}

static int
find_row (MgFunctionRows *self, GtkWidget *widget)
{
  for (guint i = 0; i < self->rows->len; i++)
    if (((Row *) g_ptr_array_index (self->rows, i))->widget == widget)
      return (int) i;
  return -1;
}

static void
on_pin_toggled (GtkToggleButton *button, MgFunctionRows *self)
{
  int i = find_row (self, g_object_get_data (G_OBJECT (button), "mg-row"));

  if (i >= 0)
    ((Row *) g_ptr_array_index (self->rows, i))->pinned = gtk_toggle_button_get_active (button);
}

static void
on_close_clicked (GtkButton *button, MgFunctionRows *self)
{
  int i = find_row (self, g_object_get_data (G_OBJECT (button), "mg-row"));

  if (i >= 0)
    mg_function_rows_remove (self, (guint) i);
}

static Row *
row_new (MgFunctionRows *self, const char *function)
{
  Row *row = g_new0 (Row, 1);
  GtkWidget *label_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *name, *units, *close;
  g_autofree char *title = g_strdup_printf (_("Function %s"), function);

  row->function = g_strdup (function);
  row->def = mg_metric_def_new ();
  row->def->id = g_strdup_printf ("function:%s", function);
  row->def->display_name = g_strdup (title);
  g_free (row->def->units);
  row->def->units = g_strdup ("%");
  row->def->data_type = MG_DATA_TYPE_DOUBLE;
  /* A colour of no metric type, the same in both themes (a purple). */
  row->def->has_colour = TRUE;
  row->def->colour = (MgRgba) { 0.62, 0.35, 0.80, 1 };

  row->widget = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (row->widget, "function-row");
  gtk_widget_set_size_request (label_box, LABEL_WIDTH, -1);
  gtk_widget_set_hexpand (label_box, FALSE);
  if (self->label_group != NULL)
    gtk_size_group_add_widget (self->label_group, label_box);
  gtk_widget_add_css_class (label_box, "metric-label");
  name = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_MIDDLE);
  /* Fills the column up to its buttons, never wider. */
  gtk_label_set_width_chars (GTK_LABEL (name), 1);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_tooltip_text (name, function);
  gtk_widget_add_css_class (name, "heading");
  row->pin = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (row->pin), "view-pin-symbolic");
  gtk_widget_add_css_class (row->pin, "flat");
  gtk_widget_set_tooltip_text (row->pin, _("Keep this row when another function is selected"));
  mg_tooltip_name_icon_button (row->pin);
  g_object_set_data (G_OBJECT (row->pin), "mg-row", row->widget);
  g_signal_connect (row->pin, "toggled", G_CALLBACK (on_pin_toggled), self);
  close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Remove this row"));
  mg_tooltip_name_icon_button (close);
  g_object_set_data (G_OBJECT (close), "mg-row", row->widget);
  g_signal_connect (close, "clicked", G_CALLBACK (on_close_clicked), self);
  gtk_box_append (GTK_BOX (title_box), name);
  gtk_box_append (GTK_BOX (title_box), row->pin);
  gtk_box_append (GTK_BOX (title_box), close);
  /* xgettext:no-c-format */
  units = gtk_label_new (_("% of the stack samples"));
  gtk_label_set_xalign (GTK_LABEL (units), 0);
  gtk_widget_add_css_class (units, "dim-label");
  gtk_widget_add_css_class (units, "caption");
  gtk_box_append (GTK_BOX (label_box), title_box);
  gtk_box_append (GTK_BOX (label_box), units);

  row->graph = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (row->graph, TRUE);
  gtk_widget_set_size_request (row->graph, -1, GRAPH_HEIGHT);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->graph), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title, -1);
  g_object_set_data (G_OBJECT (row->graph), "mg-function-rows", self);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (row->graph), draw_graph, row, NULL);
  mg_theme_follow (row->graph);
  gtk_box_append (GTK_BOX (row->widget), label_box);
  gtk_box_append (GTK_BOX (row->widget), row->graph);
  return row;
}

void
mg_function_rows_remove (MgFunctionRows *self, guint i)
{
  Row *row;

  g_return_if_fail (MG_IS_FUNCTION_ROWS (self));
  g_return_if_fail (i < self->rows->len);
  row = g_ptr_array_index (self->rows, i);
  gtk_box_remove (GTK_BOX (self->box), row->widget);
  g_ptr_array_remove_index (self->rows, i);
  gtk_widget_set_visible (GTK_WIDGET (self), self->rows->len > 0);
}

void
mg_function_rows_show_function (MgFunctionRows *self, const char *name)
{
  g_return_if_fail (MG_IS_FUNCTION_ROWS (self));
  if (self->profile == NULL)
    return;
  /* One row per function: a pinned one stays as it is. */
  for (guint i = 0; name != NULL && i < self->rows->len; i++)
    if (g_str_equal (((Row *) g_ptr_array_index (self->rows, i))->function, name))
      return;
  for (guint i = self->rows->len; i-- > 0;)
    if (!((Row *) g_ptr_array_index (self->rows, i))->pinned)
      mg_function_rows_remove (self, i);
  if (name != NULL)
    {
      Row *row = row_new (self, name);

      g_ptr_array_add (self->rows, row);
      gtk_box_append (GTK_BOX (self->box), row->widget);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), self->rows->len > 0);
}

void
mg_function_rows_set_profile (MgFunctionRows *self, MgProfile *profile, GtkSizeGroup *label_group)
{
  g_return_if_fail (MG_IS_FUNCTION_ROWS (self));
  while (self->rows->len > 0)
    mg_function_rows_remove (self, self->rows->len - 1);
  g_set_object (&self->profile, profile);
  g_set_object (&self->label_group, label_group);
  g_clear_pointer (&self->index, mg_call_index_unref);
  /* Names come from the profile first (those its run stored), so a namer
   * per profile. */
  g_clear_pointer (&self->namer, mg_frame_namer_unref);
  if (profile != NULL)
    self->namer = mg_code_namer_new (profile);
}

void
mg_function_rows_set_index (MgFunctionRows *self, MgCallIndex *index)
{
  g_return_if_fail (MG_IS_FUNCTION_ROWS (self));
  if (index == self->index)
    return;
  g_clear_pointer (&self->index, mg_call_index_unref);
  if (index != NULL)
    self->index = mg_call_index_ref (index);
}

gboolean
mg_function_rows_has_index (MgFunctionRows *self)
{
  g_return_val_if_fail (MG_IS_FUNCTION_ROWS (self), FALSE);
  return self->index != NULL;
}

guint
mg_function_rows_get_n_rows (MgFunctionRows *self)
{
  return self->rows->len;
}

const char *
mg_function_rows_get_function (MgFunctionRows *self, guint i)
{
  g_return_val_if_fail (i < self->rows->len, NULL);
  return ((Row *) g_ptr_array_index (self->rows, i))->function;
}

const double *
mg_function_rows_get_values (MgFunctionRows *self, guint i, guint *n)
{
  g_return_val_if_fail (i < self->rows->len, NULL);
  *n = mg_profile_get_n_windows (self->profile);
  return row_values (self, g_ptr_array_index (self->rows, i));
}

gboolean
mg_function_rows_get_pinned (MgFunctionRows *self, guint i)
{
  g_return_val_if_fail (i < self->rows->len, FALSE);
  return ((Row *) g_ptr_array_index (self->rows, i))->pinned;
}

void
mg_function_rows_set_pinned (MgFunctionRows *self, guint i, gboolean pinned)
{
  g_return_if_fail (i < self->rows->len);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (((Row *) g_ptr_array_index (self->rows, i))->pin),
                                pinned);
}

static void
on_view_notify (MgFunctionRows *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    gtk_widget_queue_draw (((Row *) g_ptr_array_index (self->rows, i))->graph);
}

static void
mg_function_rows_dispose (GObject *object)
{
  MgFunctionRows *self = MG_FUNCTION_ROWS (object);

  mg_time_view_unfollow (&self->view, self);
  if (self->rows != NULL)
    g_ptr_array_set_size (self->rows, 0);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->namer, mg_frame_namer_unref);
  g_clear_pointer (&self->index, mg_call_index_unref);
  g_clear_object (&self->profile);
  g_clear_object (&self->label_group);
  G_OBJECT_CLASS (mg_function_rows_parent_class)->dispose (object);
}

static void
mg_function_rows_finalize (GObject *object)
{
  g_ptr_array_unref (MG_FUNCTION_ROWS (object)->rows);
  G_OBJECT_CLASS (mg_function_rows_parent_class)->finalize (object);
}

static void
mg_function_rows_class_init (MgFunctionRowsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_function_rows_dispose;
  object_class->finalize = mg_function_rows_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* A row's values arrived from the worker. */
  g_signal_new ("values-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                NULL, G_TYPE_NONE, 0);
}

static void
mg_function_rows_init (MgFunctionRows *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
mg_function_rows_new (MgTimeView *view)
{
  MgFunctionRows *self = g_object_new (MG_TYPE_FUNCTION_ROWS, NULL);

  mg_time_view_follow (&self->view, view, self, G_CALLBACK (on_view_notify), G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}
