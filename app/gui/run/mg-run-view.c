/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-view.h"
#include "mg-run-view-private.h"

#include <glib/gi18n.h>

#include "gui/mg-error-list.h"
#include "gui/mg-metric-row.h"
#include "gui/mg-metric-rows.h"
#include "gui/mg-metric-visibility.h"
#include "mg-run-css.h"
#include "plot/mg-time-view.h"

#define MAX_OUTPUT_LINES 2000

struct _MgRunView
{
  GtkWidget parent_instance;

  GtkWidget *content;
  GtkWidget *spinner;
  GtkWidget *title_label;
  GtkWidget *figures_label;
  GtkWidget *problems_label;
  GtkWidget *stop_button;
  GtkWidget *cancel_button;
  GtkWidget *graphs_stack;
  GtkWidget *waiting_label;
  GtkWidget *rows_box;
  GtkWidget *output_scroller;
  GtkWidget *output_view;

  MgRunSession *session;
  MgTimeView *time_view;
  GtkSizeGroup *label_group;
  GtkWidget *rows;             /* MgMetricRows, as in the viewer */
  GtkTextMark *end_mark;
  guint n_updates;
};

G_DEFINE_FINAL_TYPE (MgRunView, mg_run_view, GTK_TYPE_WIDGET)

static void
update_title (MgRunView *self)
{
  g_autofree char *name = mg_run_session_dup_program_name (self->session);
  g_autofree char *title = NULL;
  MgRunState state = mg_run_session_get_state (self->session);

  switch (state)
    {
    case MG_RUN_STATE_PREPARING:
      title = g_strdup_printf (_("Preparing to profile %s…"), name);
      break;
    case MG_RUN_STATE_RUNNING:
      title = g_strdup_printf (mg_run_session_get_stopped (self->session) ? _("Stopping %s…")
                                                                          : _("Profiling %s"), name);
      break;
    case MG_RUN_STATE_MERGING:
      title = g_strdup_printf (_("%s ended: saving the profile…"), name);
      break;
    case MG_RUN_STATE_DONE:
      title = g_strdup_printf (_("%s: profile saved"), name);
      break;
    case MG_RUN_STATE_FAILED:
      title = g_strdup_printf (_("%s: no profile"), name);
      break;
    case MG_RUN_STATE_CANCELLED:
      title = g_strdup_printf (_("%s: cancelled"), name);
      break;
    case MG_RUN_STATE_IDLE:
    default:
      title = g_strdup (name);
      break;
    }
  gtk_label_set_text (GTK_LABEL (self->title_label), title);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), !mg_run_session_is_finished (self->session));
  gtk_widget_set_visible (self->spinner, !mg_run_session_is_finished (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run-view.stop",
                                 state == MG_RUN_STATE_RUNNING
                                   && !mg_run_session_get_stopped (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run-view.cancel",
                                 !mg_run_session_is_finished (self->session));
  if (state == MG_RUN_STATE_FAILED && mg_run_view_get_n_rows (self) == 0)
    gtk_label_set_text (GTK_LABEL (self->waiting_label), _("No samples were recorded"));
}

static void
update_figures (MgRunView *self)
{
  guint processes = mg_run_session_get_n_processes (self->session);
  guint samples = mg_run_session_get_n_samples (self->session);
  g_autofree char *p = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process", "%u processes",
                                                     processes), processes);
  g_autofree char *n = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u sample", "%u samples",
                                                     samples), samples);
  /* Translators: the live run's figures: elapsed seconds, then "N processes"
   * and "N samples" (translated on their own). */
  g_autofree char *text = g_strdup_printf (_("%.1f s · %s · %s"),
                                           mg_run_session_get_elapsed (self->session), p, n);

  gtk_label_set_text (GTK_LABEL (self->figures_label), text);
}

static void
clear_rows (MgRunView *self)
{
  mg_metric_rows_set_visibility (MG_METRIC_ROWS (self->rows), NULL, NULL, NULL);
}

/* Rows are cheap next to a merge: rebuilt from each live profile, grouped
 * as the viewer groups them, every recorded metric shown (the run's metrics
 * were chosen in the dialog); collapsed groups stay collapsed. */
static void
update_rows (MgRunView *self)
{
  MgProfile *profile = mg_run_session_get_profile (self->session);
  guint n_windows = profile != NULL ? mg_profile_get_n_windows (profile) : 0;
  g_autoptr (MgMetricVisibility) visibility = NULL;
  double duration;

  if (profile == NULL || n_windows == 0)
    return;
  duration = MAX (mg_profile_get_window_ends (profile)[n_windows - 1], 0.1);
  mg_time_view_set_duration (self->time_view, duration);
  mg_time_view_reset (self->time_view);
  visibility = mg_metric_visibility_new (profile, NULL);
  mg_metric_visibility_set_preset (visibility, "all");
  mg_metric_rows_set_visibility (MG_METRIC_ROWS (self->rows), visibility, self->time_view,
                                 self->label_group);
  self->n_updates++;
  gtk_stack_set_visible_child_name (GTK_STACK (self->graphs_stack),
                                    mg_run_view_get_n_rows (self) > 0 ? "graphs" : "waiting");
}

/* What the live profile says went wrong so far (a plugin that crashed or
 * hangs, a process that crashed or was killed, recording stopped), as the
 * viewer's error list says it, one a line. */
static void
update_problems (MgRunView *self)
{
  MgProfile *profile = mg_run_session_get_profile (self->session);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; profile != NULL && i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *event = mg_profile_get_event (profile, i);
      g_autofree char *line = NULL;

      /* A process whose record has no end yet is still running. */
      if (!mg_error_list_is_notable_event (event)
          || (event->kind == MG_EVENT_SIGNAL && event->status == 0))
        continue;
      line = mg_error_list_describe_event (profile, event);
      g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "", line);
    }
  gtk_label_set_text (GTK_LABEL (self->problems_label), text->str);
  gtk_widget_set_visible (self->problems_label, text->len > 0);
}

static void
append_output (MgRunView *self, const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  GtkTextIter end;
  int lines;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, text, -1);
  lines = gtk_text_buffer_get_line_count (buffer);
  if (lines > MAX_OUTPUT_LINES + 1)
    {
      GtkTextIter start, cut;

      gtk_text_buffer_get_start_iter (buffer, &start);
      gtk_text_buffer_get_iter_at_line (buffer, &cut, lines - MAX_OUTPUT_LINES - 1);
      gtk_text_buffer_delete (buffer, &start, &cut);
    }
  gtk_text_view_scroll_mark_onscreen (GTK_TEXT_VIEW (self->output_view), self->end_mark);
}

static void
on_output (MgRunSession *session, const char *text, MgRunView *self)
{
  append_output (self, text);
}

static void
on_stop (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunView *self = MG_RUN_VIEW (widget);

  if (self->session != NULL)
    mg_run_session_stop (self->session);
}

static void
on_cancel (GtkWidget *widget, const char *action, GVariant *parameter)
{
  MgRunView *self = MG_RUN_VIEW (widget);

  if (self->session != NULL)
    mg_run_session_cancel (self->session);
}

static void
disconnect_session (MgRunView *self)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
}

void
mg_run_view_set_session (MgRunView *self, MgRunSession *session)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  g_autofree char *output = NULL;

  disconnect_session (self);
  self->session = g_object_ref (session);
  clear_rows (self);
  gtk_label_set_text (GTK_LABEL (self->waiting_label), _("Waiting for the first samples…"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->graphs_stack), "waiting");
  output = mg_run_session_dup_output (session);
  gtk_text_buffer_set_text (buffer, output, -1);

  g_signal_connect_swapped (session, "notify::state", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (session, "notify::stopped", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (session, "notify::elapsed", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::n-samples", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::n-processes", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (update_rows), self);
  g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (update_problems), self);
  g_signal_connect (session, "output", G_CALLBACK (on_output), self);
  update_title (self);
  update_figures (self);
  update_rows (self);
  update_problems (self);
}

MgRunSession *
mg_run_view_get_session (MgRunView *self)
{
  return self->session;
}

guint
mg_run_view_get_n_rows (MgRunView *self)
{
  return mg_metric_rows_get_n_visible_rows (MG_METRIC_ROWS (self->rows));
}

char **
mg_run_view_dup_group_titles (MgRunView *self)
{
  return mg_metric_rows_dup_visible_titles (MG_METRIC_ROWS (self->rows));
}

gboolean
mg_run_view_set_group_expanded (MgRunView *self, const char *title, gboolean expanded)
{
  return mg_metric_rows_set_expanded (MG_METRIC_ROWS (self->rows), title, expanded);
}

gboolean
mg_run_view_get_group_expanded (MgRunView *self, const char *title)
{
  return mg_metric_rows_get_expanded (MG_METRIC_ROWS (self->rows), title);
}

guint
mg_run_view_get_n_updates (MgRunView *self)
{
  return self->n_updates;
}

const char *
mg_run_view_get_figures (MgRunView *self)
{
  return gtk_label_get_text (GTK_LABEL (self->figures_label));
}

const char *
mg_run_view_get_problems (MgRunView *self)
{
  return gtk_widget_get_visible (self->problems_label)
           ? gtk_label_get_text (GTK_LABEL (self->problems_label)) : "";
}

char *
mg_run_view_dup_output (MgRunView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
mg_run_view_dispose (GObject *object)
{
  MgRunView *self = MG_RUN_VIEW (object);

  disconnect_session (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_RUN_VIEW);
  G_OBJECT_CLASS (mg_run_view_parent_class)->dispose (object);
}

static void
mg_run_view_finalize (GObject *object)
{
  MgRunView *self = MG_RUN_VIEW (object);

  g_clear_object (&self->time_view);
  g_clear_object (&self->label_group);
  G_OBJECT_CLASS (mg_run_view_parent_class)->finalize (object);
}

static void
mg_run_view_class_init (MgRunViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_run_view_dispose;
  object_class->finalize = mg_run_view_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-run-view.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, MgRunView, name)
  BIND (content);
  BIND (spinner);
  BIND (title_label);
  BIND (figures_label);
  BIND (problems_label);
  BIND (stop_button);
  BIND (cancel_button);
  BIND (graphs_stack);
  BIND (waiting_label);
  BIND (rows_box);
  BIND (output_scroller);
  BIND (output_view);
#undef BIND
  gtk_widget_class_install_action (widget_class, "run-view.stop", NULL, on_stop);
  gtk_widget_class_install_action (widget_class, "run-view.cancel", NULL, on_cancel);
}

static void
mg_run_view_init (MgRunView *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter end;

  g_type_ensure (MG_TYPE_METRIC_ROW);
  mg_run_css_load ();
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = mg_metric_rows_new ();
  gtk_box_append (GTK_BOX (self->rows_box), self->rows);
  self->time_view = mg_time_view_new (1.0);
  self->label_group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  gtk_text_buffer_get_end_iter (buffer, &end);
  self->end_mark = gtk_text_buffer_create_mark (buffer, "end", &end, FALSE);
}

GtkWidget *
mg_run_view_new (void)
{
  return g_object_new (MG_TYPE_RUN_VIEW, NULL);
}
