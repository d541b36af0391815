/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-view.h"
#include "mg-run-view-private.h"

#include <glib/gi18n.h>

#include "gui/graph/mg-metric-graph.h"
#include "gui/graph/mg-time-axis.h"
#include "gui/mg-error-list.h"
#include "gui/mg-metric-row.h"
#include "gui/mg-code-view.h"
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
  GtkWidget *graphs_box;
  GtkWidget *rows_box;
  GtkWidget *axis_box;
  GtkWidget *axis_caption;
  GtkWidget *paned;
  GtkWidget *output_expander;
  GtkWidget *output_scroller;
  GtkWidget *output_view;
  GtkWidget *output_fold_button;
  GtkWidget *output_fold_arrow;

  MgRunSession *session;
  MgTimeView *time_view;
  GtkSizeGroup *label_group;
  GtkWidget *rows;             /* MgMetricRows, as in the viewer */
  GtkWidget *code_view;        /* MgCodeView of the live profiles' call stacks */
  GtkTextMark *end_mark;
  guint n_updates;
  double sampled_s;            /* the time the samples reach so far: only grows */
  GtkWidget *rows_scroller;    /* holds the hover tooltip: it outlives the rows */
  char *readout;               /* the hover tooltip's text (hovered metric at the hover time) */
  char *hover_metric;          /* a metric set as hovered (tests) */
  char *tooltip_metric;        /* the metric of the graph the tooltip last found */
  guint readout_idle;
  guint tooltip_tick;          /* asks the tooltip again once the new rows are laid out */
  guint tooltip_frames;
  gboolean output_folded;      /* the output pane shows only its header */
  int unfolded_position;       /* the divider before it was folded */
};

enum { PROP_0, PROP_OUTPUT_FOLDED, N_PROPS };

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

/* The samples' reach, not their count: the live profile merges windows as
 * the run goes on, so a count of them would go down. */
static double
sampled_time (MgRunView *self)
{
  MgProfile *profile = mg_run_session_get_profile (self->session);
  guint n = profile != NULL ? mg_profile_get_n_windows (profile) : 0;

  return n > 0 ? mg_profile_get_window_ends (profile)[n - 1] : 0;
}

static void
update_figures (MgRunView *self)
{
  guint processes = mg_run_session_get_n_processes (self->session);
  g_autofree char *p = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process", "%u processes",
                                                     processes), processes);
  g_autofree char *text = NULL;

  self->sampled_s = MAX (self->sampled_s, sampled_time (self));
  /* Translators: the live run's figures: elapsed seconds, "N processes"
   * (translated on its own), then how far the samples reach, in seconds */
  text = g_strdup_printf (_("%.1f s · %s · sampled to %.1f s"),
                          mg_run_session_get_elapsed (self->session), p, self->sampled_s);
  gtk_label_set_text (GTK_LABEL (self->figures_label), text);
}

static void update_readout (MgRunView *self);
static void follow_rows_with_tooltip (MgRunView *self);
static void quiet_graph_tooltips (MgRunView *self);

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
  mg_code_view_set_live_profile (MG_CODE_VIEW (self->code_view), profile);
  self->n_updates++;
  gtk_stack_set_visible_child_name (GTK_STACK (self->graphs_stack),
                                    mg_run_view_get_n_rows (self) > 0 ? "graphs" : "waiting");
  quiet_graph_tooltips (self);
  update_readout (self);
  follow_rows_with_tooltip (self);
}

/* Hover values, as a saved profile's tooltip says them. A graph's own
 * tooltip would go with its graph, and the rows are new four times a
 * second (one shown as its graph goes away also trips GTK 4.8): the
 * tooltip is the rows' scrolled window's, which stays, and asks which
 * graph is under the pointer each time; after each rebuild it is asked
 * again, so it stays up with the new rows' values. The graphs' own
 * tooltips are off. */
static void
quiet_graph_tooltips (MgRunView *self)
{
  g_auto (GStrv) ids = mg_metric_rows_dup_visible_ids (MG_METRIC_ROWS (self->rows));

  for (guint i = 0; ids[i] != NULL; i++)
    {
      MgMetricRow *row = mg_metric_rows_find_row (MG_METRIC_ROWS (self->rows), ids[i]);

      if (row != NULL)
        gtk_widget_set_has_tooltip (mg_metric_row_get_graph (row), FALSE);
    }
}

/* The metric of the graph at (x, y) of the rows' scrolled window. */
static const char *
metric_at (MgRunView *self, double x, double y)
{
  MgProfile *profile = self->session != NULL ? mg_run_session_get_profile (self->session) : NULL;
  GtkWidget *picked = gtk_widget_pick (self->rows_scroller, x, y, GTK_PICK_DEFAULT);
  GtkWidget *graph = picked != NULL ? gtk_widget_get_ancestor (picked, MG_TYPE_METRIC_GRAPH) : NULL;
  guint metric;

  if (graph == NULL || profile == NULL)
    return NULL;
  metric = mg_metric_graph_get_metric (MG_METRIC_GRAPH (graph));
  return metric < mg_profile_get_n_metrics (profile) ? mg_profile_get_metric (profile, metric)->id
                                                      : NULL;
}

/* The hovered metric: set by a test, else the one the tooltip found last
 * (kept across rebuilds: the rows come back in the same places). */
static char *
dup_hovered_metric (MgRunView *self)
{
  return g_strdup (self->hover_metric != NULL ? self->hover_metric : self->tooltip_metric);
}

static void
update_readout (MgRunView *self)
{
  double t = mg_time_view_get_hover_time (self->time_view);
  g_autofree char *metric = t >= 0 ? dup_hovered_metric (self) : NULL;

  g_clear_pointer (&self->readout, g_free);
  if (metric != NULL)
    self->readout = mg_run_view_dup_hover_text (self, metric, t);
  if (t < 0)
    g_clear_pointer (&self->tooltip_metric, g_free);
}

char *
mg_run_view_dup_tooltip_at (MgRunView *self, double x, double y)
{
  double t = mg_time_view_get_hover_time (self->time_view);
  const char *metric = t >= 0 ? metric_at (self, x, y) : NULL;

  if (metric == NULL)
    return NULL;
  if (g_strcmp0 (self->tooltip_metric, metric) != 0)
    {
      g_free (self->tooltip_metric);
      self->tooltip_metric = g_strdup (metric);
    }
  update_readout (self);
  return g_strdup (self->readout);
}

static gboolean
on_rows_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                       MgRunView *self)
{
  g_autofree char *text = mg_run_view_dup_tooltip_at (self, x, y);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The new rows are laid out in the frame after they were made: the
 * tooltip is asked again at the start of the one after it, where the
 * pointer then is. */
static gboolean
on_tooltip_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  MgRunView *self = MG_RUN_VIEW (widget);

  if (++self->tooltip_frames < 2)
    return G_SOURCE_CONTINUE;
  self->tooltip_tick = 0;
  if (self->readout != NULL && gtk_widget_get_mapped (self->rows_scroller))
    gtk_widget_trigger_tooltip_query (self->rows_scroller);
  return G_SOURCE_REMOVE;
}

static void
follow_rows_with_tooltip (MgRunView *self)
{
  if (self->readout == NULL || self->tooltip_tick != 0)
    return;
  self->tooltip_frames = 0;
  self->tooltip_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tooltip_tick, NULL, NULL);
}

static void
set_hover_metric (MgRunView *self, const char *metric_id)
{
  if (g_strcmp0 (self->hover_metric, metric_id) != 0)
    {
      g_free (self->hover_metric);
      self->hover_metric = g_strdup (metric_id);
    }
}

void
mg_run_view_hover_metric (MgRunView *self, const char *metric_id)
{
  set_hover_metric (self, metric_id);
  update_readout (self);
}

static gboolean
on_readout_idle (gpointer user_data)
{
  MgRunView *self = user_data;

  self->readout_idle = 0;
  update_readout (self);
  /* A tooltip on show follows the hover time and the new rows. */
  if (self->readout != NULL && gtk_widget_get_mapped (self->rows_scroller))
    gtk_widget_trigger_tooltip_query (self->rows_scroller);
  return G_SOURCE_REMOVE;
}

/* After the pointer's events (the hover time changes in them), not inside
 * them: a leave comes while the rows are being unmapped. */
static void
queue_readout (MgRunView *self)
{
  if (self->readout_idle == 0)
    self->readout_idle = g_idle_add (on_readout_idle, self);
}

const char *
mg_run_view_get_readout (MgRunView *self)
{
  return self->readout;
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

/* The output pane appears with the first output, about 200 px tall: the
 * graphs keep the rest (and the divider folds it away). */
static void
show_output_pane (MgRunView *self)
{
  int height = gtk_widget_get_height (self->paned);

  if (gtk_widget_get_visible (self->output_expander))
    return;
  gtk_widget_set_visible (self->output_expander, TRUE);
  if (height > 0)
    gtk_paned_set_position (GTK_PANED (self->paned), MAX (height / 2, height - 200));
}

/* Folded, the pane keeps its header: the divider goes as low as the
 * header's height allows (the end child may no longer shrink below it);
 * unfolded, it comes back where it was. */
static void
set_output_folded (MgRunView *self, gboolean folded)
{
  GtkPaned *paned = GTK_PANED (self->paned);

  if (self->output_folded == folded)
    return;
  self->output_folded = folded;
  gtk_widget_set_visible (self->output_scroller, !folded);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->output_fold_arrow),
                                folded ? "pan-end-symbolic" : "pan-down-symbolic");
  gtk_paned_set_shrink_end_child (paned, !folded);
  if (folded)
    {
      self->unfolded_position = gtk_paned_get_position (paned);
      gtk_paned_set_position (paned, G_MAXINT / 2);
    }
  else if (self->unfolded_position > 0)
    gtk_paned_set_position (paned, self->unfolded_position);
  g_object_notify (G_OBJECT (self), "output-folded");
}

static void
mg_run_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRunView *self = MG_RUN_VIEW (object);

  if (prop_id == PROP_OUTPUT_FOLDED)
    g_value_set_boolean (value, self->output_folded);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
mg_run_view_set_property (GObject *object, guint prop_id, const GValue *value,
                          GParamSpec *pspec)
{
  MgRunView *self = MG_RUN_VIEW (object);

  if (prop_id == PROP_OUTPUT_FOLDED)
    set_output_folded (self, g_value_get_boolean (value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
  if (*text != '\0')
    show_output_pane (self);
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
  mg_code_view_set_profile (MG_CODE_VIEW (self->code_view), NULL);
  gtk_label_set_text (GTK_LABEL (self->waiting_label), _("Waiting for the first samples…"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->graphs_stack), "waiting");
  output = mg_run_session_dup_output (session);
  gtk_text_buffer_set_text (buffer, output, -1);
  /* No room taken until the program prints. */
  set_output_folded (self, FALSE);
  gtk_widget_set_visible (self->output_expander, FALSE);
  if (*output != '\0')
    show_output_pane (self);
  self->sampled_s = 0;

  g_signal_connect_swapped (session, "notify::state", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (session, "notify::stopped", G_CALLBACK (update_title), self);
  g_signal_connect_swapped (session, "notify::elapsed", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::n-samples", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::n-processes", G_CALLBACK (update_figures), self);
  g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (update_rows), self);
  g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (update_problems), self);
  g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (update_figures), self);
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

GtkWidget *
mg_run_view_get_code_view (MgRunView *self)
{
  return self->code_view;
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

GtkWidget *
mg_run_view_get_output_expander (MgRunView *self)
{
  return self->output_expander;
}

GtkWidget *
mg_run_view_get_output_paned (MgRunView *self)
{
  return self->paned;
}

GtkWidget *
mg_run_view_get_output_fold_button (MgRunView *self)
{
  return self->output_fold_button;
}

GtkWidget *
mg_run_view_get_rows_scroller (MgRunView *self)
{
  return self->rows_scroller;
}

GtkWidget *
mg_run_view_get_output_scroller (MgRunView *self)
{
  return self->output_scroller;
}

MgTimeView *
mg_run_view_get_time_view (MgRunView *self)
{
  return self->time_view;
}

char *
mg_run_view_dup_hover_text (MgRunView *self, const char *metric_id, double t)
{
  MgMetricRow *row = mg_metric_rows_find_row (MG_METRIC_ROWS (self->rows), metric_id);

  return row != NULL ? mg_metric_graph_describe_time (MG_METRIC_GRAPH (mg_metric_row_get_graph (row)), t)
                     : NULL;
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
  g_clear_handle_id (&self->readout_idle, g_source_remove);
  if (self->tooltip_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tooltip_tick);
  self->tooltip_tick = 0;
  gtk_widget_dispose_template (GTK_WIDGET (self), MG_TYPE_RUN_VIEW);
  G_OBJECT_CLASS (mg_run_view_parent_class)->dispose (object);
}

static void
mg_run_view_finalize (GObject *object)
{
  MgRunView *self = MG_RUN_VIEW (object);

  g_clear_pointer (&self->hover_metric, g_free);
  g_clear_pointer (&self->tooltip_metric, g_free);
  g_clear_pointer (&self->readout, g_free);
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
  object_class->get_property = mg_run_view_get_property;
  object_class->set_property = mg_run_view_set_property;
  g_object_class_install_property (object_class, PROP_OUTPUT_FOLDED,
                                   g_param_spec_boolean ("output-folded", NULL, NULL, FALSE,
                                                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
                                                           | G_PARAM_EXPLICIT_NOTIFY));
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-run-view.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, MgRunView, name)
  BIND (content);
  BIND (spinner);
  BIND (title_label);
  BIND (figures_label);
  BIND (problems_label);
  BIND (rows_scroller);
  BIND (stop_button);
  BIND (cancel_button);
  BIND (graphs_stack);
  BIND (waiting_label);
  BIND (graphs_box);
  BIND (rows_box);
  BIND (axis_box);
  BIND (axis_caption);
  BIND (paned);
  BIND (output_expander);
  BIND (output_scroller);
  BIND (output_view);
  BIND (output_fold_button);
  BIND (output_fold_arrow);
#undef BIND
  gtk_widget_class_install_action (widget_class, "run-view.stop", NULL, on_stop);
  gtk_widget_class_install_action (widget_class, "run-view.cancel", NULL, on_cancel);
  gtk_widget_class_install_property_action (widget_class, "run-view.fold-output",
                                            "output-folded");
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
  /* The code views under the graphs, following each live profile. */
  self->code_view = mg_code_view_new (self->time_view);
  gtk_widget_set_size_request (self->code_view, -1, 220);
  gtk_widget_set_vexpand (self->code_view, FALSE);
  gtk_box_append (GTK_BOX (self->graphs_box), self->code_view);
  self->label_group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  g_signal_connect_swapped (self->time_view, "notify::hover-time", G_CALLBACK (queue_readout), self);
  g_signal_connect (self->rows_scroller, "query-tooltip", G_CALLBACK (on_rows_query_tooltip), self);
  /* The axis lines up with the graphs: its caption as wide as the rows' labels. */
  gtk_size_group_add_widget (self->label_group, self->axis_caption);
  {
    GtkWidget *axis = mg_time_axis_new (self->time_view);

    gtk_widget_set_hexpand (axis, TRUE);
    gtk_box_append (GTK_BOX (self->axis_box), axis);
  }
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->output_view));
  gtk_text_buffer_get_end_iter (buffer, &end);
  self->end_mark = gtk_text_buffer_create_mark (buffer, "end", &end, FALSE);
}

GtkWidget *
mg_run_view_new (void)
{
  return g_object_new (MG_TYPE_RUN_VIEW, NULL);
}
