/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a viewer window shows, read from its widgets (for tests:
 * mg-window-private.h). */
#include "mg-config.h"

#include "mg-event-strip.h"
#include "mg-metric-row.h"
#include "mg-metric-rows.h"
#include "mg-window-internal.h"
#include "mg-window-private.h"

const char *
mg_window_get_page (MgWindow *self)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

const char *
mg_window_get_error_message (MgWindow *self)
{
  if (!g_str_equal (mg_window_get_page (self), "error"))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->error_message));
}

const char *
mg_window_get_error_title (MgWindow *self)
{
  if (!g_str_equal (mg_window_get_page (self), "error"))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->error_title));
}

const char *
mg_window_get_subtitle (MgWindow *self)
{
  if (!gtk_widget_get_visible (self->subtitle_label))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->subtitle_label));
}

MgTimeView *
mg_window_get_time_view (MgWindow *self)
{
  return self->view;
}

char **
mg_window_get_visible_metric_ids (MgWindow *self)
{
  return mg_metric_rows_dup_visible_ids (MG_METRIC_ROWS (self->rows));
}

char **
mg_window_get_visible_group_titles (MgWindow *self)
{
  return mg_metric_rows_dup_visible_titles (MG_METRIC_ROWS (self->rows));
}

static MgMetricRow *
find_row (MgWindow *self, const char *metric_id)
{
  return mg_metric_rows_find_row (MG_METRIC_ROWS (self->rows), metric_id);
}

gboolean
mg_window_set_group_expanded (MgWindow *self, const char *title, gboolean expanded)
{
  return mg_metric_rows_set_expanded (MG_METRIC_ROWS (self->rows), title, expanded);
}

GtkWidget *
mg_window_get_metric_graph (MgWindow *self, const char *metric_id)
{
  MgMetricRow *row = find_row (self, metric_id);

  return row ? mg_metric_row_get_graph (row) : NULL;
}

char *
mg_window_dup_row_figures (MgWindow *self, const char *metric_id)
{
  MgMetricRow *row = find_row (self, metric_id);

  return row ? mg_metric_row_dup_figures_text (row) : NULL;
}

guint
mg_window_get_n_recoverable (MgWindow *self)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (self->recover_list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n++;
  return n;
}

guint
mg_window_get_n_recent (MgWindow *self)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (self->recent_list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n++;
  return n;
}

guint
mg_window_get_error_count (MgWindow *self)
{
  if (self->profile == NULL ||
      !gtk_revealer_get_reveal_child (GTK_REVEALER (self->errors_revealer)))
    return 0;
  return self->error_count;
}

guint
mg_window_get_n_event_marks (MgWindow *self)
{
  return self->event_strip ? mg_event_strip_get_n_marks (MG_EVENT_STRIP (self->event_strip)) : 0;
}

GtkWidget *
mg_window_get_report_view (MgWindow *self)
{
  mg_window_build_side_panel (self);
  return gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (self->report_scroller));
}

guint
mg_window_get_n_listed_errors (MgWindow *self)
{
  GtkWidget *viewport, *list;
  guint n = 0;

  mg_window_build_side_panel (self);
  /* The scrolled window wraps the list in a viewport. */
  viewport = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (self->errors_scroller));
  if (viewport == NULL)
    return 0;
  list = GTK_IS_VIEWPORT (viewport) ? gtk_viewport_get_child (GTK_VIEWPORT (viewport)) : viewport;
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n += GTK_IS_LIST_BOX_ROW (row);
  return n;
}

const char *
mg_window_get_range_readout (MgWindow *self, GtkWidget **whole_run_button)
{
  if (whole_run_button != NULL)
    *whole_run_button = self->range_button;
  return self->range_label != NULL ? gtk_label_get_text (GTK_LABEL (self->range_label)) : NULL;
}

GtkWidget *
mg_window_get_code_view (MgWindow *self)
{
  return self->code_view;
}

GtkWidget *
mg_window_get_function_rows (MgWindow *self)
{
  return self->function_rows;
}
