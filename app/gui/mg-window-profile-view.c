/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window's profile view: the metric rows, the shared time axis
 * with its event marks, the process chooser, the titles, the errors
 * banner, the side panel and the undo notification. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-event-strip.h"
#include "mg-info-panel.h"
#include "mg-report-view.h"
#include "mg-metric-row.h"
#include "mg-metric-rows.h"
#include "mg-metrics-menu.h"
#include "mg-process-search.h"
#include "profile/mg-process-images.h"
#include "profile/mg-stop-event.h"
#include "session/mg-mpi.h"
#include "gui/graph/mg-time-axis.h"
#include "defs/mg-units.h"
#include "mg-tooltip.h"
#include "mg-code-view.h"
#include "mg-function-rows.h"
#include "mg-window-internal.h"

#define UNDO_TIMEOUT_S 6
/* code-pane-position's default in data/org.metrograph.Metrograph.gschema.xml:
 * the divider's place when there is no schema to read it from. */
#define CODE_PANE_POSITION 480

static void
update_rows_visibility (MgWindow *self)
{
  gboolean empty = mg_metric_rows_get_empty (MG_METRIC_ROWS (self->rows));

  gtk_stack_set_visible_child_name (GTK_STACK (self->rows_stack), empty ? "empty" : "rows");
}

static gboolean
on_undo_timeout (gpointer user_data)
{
  MgWindow *self = user_data;

  self->undo_timeout = 0;
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_revealer), FALSE);
  return G_SOURCE_REMOVE;
}

void
mg_window_dismiss_undo (MgWindow *self)
{
  g_clear_handle_id (&self->undo_timeout, g_source_remove);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_revealer), FALSE);
}

static void
on_hide_metric_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  int metric = mg_profile_find_metric (self->profile, g_variant_get_string (parameter, NULL));
  g_autofree char *text = NULL;
  const MgMetricDef *def;

  if (metric < 0)
    return;
  def = mg_profile_get_metric (self->profile, (guint) metric);
  text = g_strdup_printf (_("“%s” hidden"), def->display_name ? def->display_name : def->id);
  gtk_label_set_text (GTK_LABEL (self->undo_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->undo_revealer), TRUE);
  g_clear_handle_id (&self->undo_timeout, g_source_remove);
  self->undo_timeout = g_timeout_add_seconds (UNDO_TIMEOUT_S, on_undo_timeout, self);
}

static void
on_undo_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  mg_window_dismiss_undo (MG_WINDOW (user_data));
}

void
mg_window_clear_profile_view (MgWindow *self)
{
  GtkWidget *child;

  if (self->visibility != NULL)
    mg_metric_visibility_remove_actions (self->visibility, G_ACTION_MAP (self));
  if (self->label_group != NULL)
    gtk_size_group_remove_widget (self->label_group, self->axis_caption);
  if (self->rows != NULL)
    mg_metric_rows_set_visibility (MG_METRIC_ROWS (self->rows), NULL, NULL, NULL);
  while ((child = gtk_widget_get_first_child (self->axis_column)) != NULL)
    gtk_box_remove (GTK_BOX (self->axis_column), child);
  self->event_strip = NULL;
  self->time_axis = NULL;
  self->range_label = NULL;
  self->range_button = NULL;
  self->side_built = FALSE;
  g_clear_object (&self->visibility);
  g_clear_object (&self->label_group);
  if (self->code_view != NULL)
    mg_code_view_set_profile (MG_CODE_VIEW (self->code_view), NULL);
  if (self->function_rows != NULL)
    mg_function_rows_set_profile (MG_FUNCTION_ROWS (self->function_rows), NULL, NULL);
  g_clear_object (&self->profile);
  g_clear_object (&self->file);
  self->process_choice = FALSE;
  /* A new profile's list starts at all processes. */
  if (self->listed != NULL)
    g_array_set_size (self->listed, 0);
  mg_window_update_profile_actions (self);
}

/* The visibility's own hide-metric and undo-hide actions do the work; the
 * window wraps them to show and dismiss the undo notification as well. */
static void
wrap_undo_actions (MgWindow *self)
{
  GAction *hide = g_action_map_lookup_action (G_ACTION_MAP (self), "hide-metric");
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (self), "undo-hide");

  g_signal_connect_object (hide, "activate", G_CALLBACK (on_hide_metric_activated), self,
                           G_CONNECT_AFTER);
  g_signal_connect_object (undo, "activate", G_CALLBACK (on_undo_activated), self,
                           G_CONNECT_AFTER);
}

static void on_process_selected (MgWindow *self);

/* A process's entry: its rank or pid, host, and the program it became
 * ("true (via env)"); a helper says so. */
static char *
describe_entry (MgProfile *profile, guint p, const char *program)
{
  const MgProcessInfo *process = mg_profile_get_process (profile, p);
  g_autofree char *host = g_utf8_make_valid (process->host ? process->host : "", -1);

  /* The host in every entry: the search finds a node's processes. */
  if (process->helper && process->rank >= 0)
    /* Translators: a helper process of the launch (a wrapper script): its rank, host, pid
     * and program */
    return g_strdup_printf (_("Helper of rank %d on %s (pid %d, %s)"), process->rank, host,
                            process->pid, program);
  if (process->helper)
    /* Translators: a helper process of the launch (a wrapper script, a shim's step): its pid,
     * host and program */
    return g_strdup_printf (_("Helper %d on %s (%s)"), process->pid, host, program);
  if (process->rank >= 0)
    return g_strdup_printf (_("Rank %d on %s (pid %d, %s)"), process->rank, host, process->pid,
                            program);
  return g_strdup_printf (_("Process %d on %s (%s)"), process->pid, host, program);
}

/* The list: all processes, then each process, the helpers only when the
 * switch asks for them; the process shown stays chosen when it is listed. */
static void
fill_process_dropdown (MgWindow *self)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  guint n = mg_profile_get_n_processes (self->profile);
  guint n_helpers = mg_profile_get_n_helpers (self->profile);
  gboolean with_helpers = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->helpers_check));
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->process_dropdown));
  int shown = self->listed != NULL && selected != GTK_INVALID_LIST_POSITION && selected > 0
                  && selected - 1 < self->listed->len
                ? (int) g_array_index (self->listed, guint, selected - 1) : -1;
  guint keep = 0;
  g_autoptr (GPtrArray) programs = mg_profile_describe_process_programs (self->profile);

  if (self->listed == NULL)
    self->listed = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_set_size (self->listed, 0);
  gtk_string_list_append (list, _("All Processes"));
  for (guint p = 0; p < n; p++)
    {
      g_autofree char *text = NULL;

      if (mg_profile_get_process (self->profile, p)->helper && !with_helpers)
        continue;
      text = describe_entry (self->profile, p, g_ptr_array_index (programs, p));
      gtk_string_list_append (list, text);
      g_array_append_val (self->listed, p);
      if ((int) p == shown)
        keep = self->listed->len;
    }
  /* Set before the model: the view must not follow the list's first entry. */
  g_signal_handlers_block_by_func (self->process_dropdown, on_process_selected, self);
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->process_dropdown), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), keep);
  g_signal_handlers_unblock_by_func (self->process_dropdown, on_process_selected, self);
  if (keep == 0 && shown >= 0)
    on_process_selected (self);
  self->process_choice = n - n_helpers > 1 || with_helpers;
  mg_window_update_header (self);
}

void
mg_window_update_header (MgWindow *self)
{
  gboolean shown = self->profile != NULL && !self->live_run;

  gtk_widget_set_visible (self->metrics_button, shown);
  gtk_widget_set_visible (self->zoom_box, shown);
  gtk_widget_set_visible (self->info_button, shown);
  gtk_widget_set_visible (self->process_dropdown, shown && self->process_choice);
  gtk_widget_set_visible (self->helpers_check,
                          shown && mg_profile_get_n_helpers (self->profile) > 0);
  mg_window_update_profile_actions (self);
}

void
mg_window_set_live_run (MgWindow *self, gboolean live)
{
  g_return_if_fail (MG_IS_WINDOW (self));

  self->live_run = live;
  mg_window_update_header (self);
}

static void update_titles (MgWindow *self);

/* The program as the user named it: the command line's first word, or,
 * behind a launcher (mpirun), the program the processes ran. Not the
 * processes' own name, which may be another (sh runs as dash). */
static char *
program_name (MgProfile *profile)
{
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  const char *argv0 = run->argv != NULL ? run->argv[0] : NULL;
  const MgProcessInfo *first = NULL;
  const char *path = argv0;

  /* The first process that is not a helper of the launch. */
  for (guint p = 0; p < mg_profile_get_n_processes (profile) && first == NULL; p++)
    if (!mg_profile_get_process (profile, p)->helper)
      first = mg_profile_get_process (profile, p);

  if ((argv0 == NULL || mg_mpi_is_launcher (argv0)) && first != NULL && first->program != NULL)
    path = first->program;
  g_autofree char *base = path != NULL ? g_path_get_basename (path) : NULL;

  /* A name is bytes: shown with what is not UTF-8 replaced. */
  return base != NULL ? g_utf8_make_valid (base, -1) : NULL;
}

void
mg_window_show_titles (MgWindow *self, const char *title, const char *subtitle)
{
  gtk_label_set_text (GTK_LABEL (self->title_label), title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (self->subtitle_label, subtitle != NULL);
}

void
mg_window_show_profile_titles (MgWindow *self)
{
  if (self->profile == NULL)
    {
      mg_window_show_titles (self, _("Metrograph"), NULL);
      return;
    }
  update_titles (self);
}

static void
update_titles (MgWindow *self)
{
  const MgRunInfo *run = mg_profile_get_run_info (self->profile);
  g_autofree char *program = program_name (self->profile);
  g_autofree char *name = self->file ? mg_window_file_display_name (self->file) : NULL;
  g_autofree char *duration = mg_units_format_time (run->duration_s);
  g_autofree char *subtitle = NULL;
  guint n_helpers = mg_profile_get_n_helpers (self->profile);
  guint n = run->n_processes - n_helpers;
  g_autofree char *counted = g_strdup_printf (ngettext ("%u process", "%u processes", n), n);
  /* Translators: the processes and the launch's helpers, e.g. "1 process and 2 helpers" */
  g_autofree char *processes = n_helpers == 0
                                 ? g_strdup (counted)
                                 : g_strdup_printf (ngettext ("%s and %u helper",
                                                              "%s and %u helpers", n_helpers),
                                                    counted, n_helpers);

  if (name != NULL)
    /* Translators: the window's subtitle: file name — number of processes, duration */
    subtitle = g_strdup_printf (_("%s — %s, %s"), name, processes, duration);
  else
    /* Translators: the window's subtitle: number of processes, duration */
    subtitle = g_strdup_printf (_("%s, %s"), processes, duration);
  mg_window_show_titles (self, program ? program : _("Profile"), subtitle);
}

static void
update_errors_banner (MgWindow *self)
{
  g_autofree char *text = NULL;

  self->error_count = mg_error_list_count (self->profile, self->stop_asked);
  text = g_strdup_printf (ngettext ("%u error or process failure during this run",
                                    "%u errors or process failures during this run",
                                    self->error_count),
                          self->error_count);
  gtk_label_set_text (GTK_LABEL (self->errors_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->errors_revealer),
                                 self->error_count > 0 && !self->run_banner_shown);
}

void
mg_window_set_run_banner_shown (MgWindow *self, gboolean shown)
{
  self->run_banner_shown = shown;
  if (self->profile != NULL)
    update_errors_banner (self);
}

guint
mg_window_count_errors (MgWindow *self)
{
  return self->profile != NULL ? mg_error_list_count (self->profile, self->stop_asked) : 0;
}

/* The side panel (run details, report, errors) is built when first shown: a row
 * per process and per error, measured at every layout even while the
 * panel is hidden, and its switcher's tooltips cost round trips to the X
 * server. */
void
mg_window_build_side_panel (MgWindow *self)
{
  if (self->side_built || self->profile == NULL)
    return;
  if (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (self->side_switcher)) == NULL)
    gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->side_switcher),
                                  GTK_STACK (self->side_stack));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->errors_scroller),
                                 mg_error_list_new (self->profile, self->stop_asked));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->info_scroller),
                                 mg_info_panel_new (self->profile));
  {
    g_autofree char *path = self->file != NULL ? g_file_get_path (self->file) : NULL;

    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->report_scroller),
                                   mg_report_view_new (self->profile, path));
  }
  self->side_built = TRUE;
}

static void
reset_side_panel (MgWindow *self)
{
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->errors_scroller), NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->info_scroller), NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->report_scroller), NULL);
  self->side_built = FALSE;
  if (gtk_revealer_get_reveal_child (GTK_REVEALER (self->side_revealer)))
    mg_window_build_side_panel (self);
}

static const char *const range_properties[] = {
  "notify::start", "notify::end", "notify::has-selection", "notify::selection-start",
  "notify::selection-end",
};

/* Under the axis, what the rows' figures describe (the selection, else
 * the visible range, else the whole run) and, when that is not the whole
 * run, a button back to it. */
static void
update_range_readout (MgWindow *self)
{
  g_autofree char *text = NULL;
  double t0, t1;
  MgFiguresRange range;

  if (self->range_label == NULL)
    return;
  range = mg_time_view_get_figures_range (self->view, &t0, &t1);
  text = mg_time_view_describe_figures_range (self->view);
  gtk_label_set_text (GTK_LABEL (self->range_label), text);
  gtk_widget_set_visible (self->range_button, range != MG_FIGURES_RANGE_RUN);
}

static GtkWidget *
build_range_readout (MgWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);

  gtk_widget_add_css_class (box, "range-readout");
  self->range_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->range_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->range_label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->range_label, "caption");
  gtk_widget_set_hexpand (self->range_label, TRUE);
  /* Translators: a button that zooms back out to the whole run */
  self->range_button = gtk_button_new_with_label (_("Whole Run"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->range_button), "win.zoom-reset");
  gtk_widget_add_css_class (self->range_button, "flat");
  mg_tooltip_set_text (self->range_button, _("Figures and View of the Whole Run (Ctrl+0)"));
  gtk_box_append (GTK_BOX (box), self->range_label);
  gtk_box_append (GTK_BOX (box), self->range_button);
  update_range_readout (self);
  return box;
}

static void
build_axis (MgWindow *self)
{
  self->event_strip = mg_event_strip_new (self->profile, self->view);
  self->time_axis = mg_time_axis_new (self->view);
  gtk_box_append (GTK_BOX (self->axis_column), self->event_strip);
  gtk_box_append (GTK_BOX (self->axis_column), self->time_axis);
  gtk_box_append (GTK_BOX (self->axis_column), build_range_readout (self));
  gtk_size_group_add_widget (self->label_group, self->axis_caption);
}

/* The keyboard starts on the graphs: the first visible one takes the focus,
 * so arrows move the time cursor at once (mg-metric-graph.h). */
static void
focus_first_graph (MgWindow *self)
{
  g_auto (GStrv) ids = mg_metric_rows_dup_visible_ids (MG_METRIC_ROWS (self->rows));
  MgMetricRow *row = NULL;

  if (ids[0] != NULL)
    row = mg_metric_rows_find_row (MG_METRIC_ROWS (self->rows), ids[0]);
  if (row != NULL)
    gtk_widget_grab_focus (mg_metric_row_get_graph (row));
}

void
mg_window_set_profile (MgWindow *self, MgProfile *profile, GFile *file)
{
  mg_window_set_run_profile (self, profile, file, FALSE);
}

void
mg_window_set_run_profile (MgWindow *self, MgProfile *profile, GFile *file, gboolean stop_asked)
{
  g_return_if_fail (MG_IS_WINDOW (self));
  g_return_if_fail (MG_IS_PROFILE (profile));

  mg_window_clear_profile_view (self);
  /* A stop asked for is recorded in the profile; an older one's is not. */
  self->stop_asked = stop_asked || mg_stop_event_find (profile) != NULL;
  self->profile = g_object_ref (profile);
  self->file = file ? g_object_ref (file) : NULL;
  mg_time_view_set_duration (self->view, mg_profile_get_run_info (profile)->duration_s);
  mg_time_view_reset (self->view);
  mg_time_view_set_process (self->view, -1);

  self->visibility = mg_metric_visibility_new (profile, self->settings);
  mg_metric_visibility_add_actions (self->visibility, G_ACTION_MAP (self));
  wrap_undo_actions (self);
  self->label_group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);

  mg_metric_rows_set_visibility (MG_METRIC_ROWS (self->rows), self->visibility, self->view,
                                 self->label_group);
  build_axis (self);
  update_rows_visibility (self);
  mg_code_view_set_profile (MG_CODE_VIEW (self->code_view), profile);
  mg_function_rows_set_profile (MG_FUNCTION_ROWS (self->function_rows), profile,
                                self->label_group);

  g_clear_object (&self->metrics_menu);
  self->metrics_menu = mg_metrics_menu_new (self->visibility);
  if (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (self->metrics_button)) != NULL)
    mg_window_attach_metrics_menu (self);
  fill_process_dropdown (self);
  update_titles (self);
  update_errors_banner (self);
  reset_side_panel (self);

  mg_window_update_header (self);
  /* At once, not crossfaded: a fade would show the spinner over the first
   * frames and the graphs only 200 ms later, and blend two window-sized
   * layers (offscreen surfaces with the cairo renderer) every frame of it. */
  gtk_stack_set_visible_child_full (GTK_STACK (self->stack), "profile",
                                    GTK_STACK_TRANSITION_TYPE_NONE);
  focus_first_graph (self);
  g_object_notify (G_OBJECT (self), "profile");
}

/* A process's own series are read from the file when first chosen
 * (mg_profile_read_process_series): a file changed on disk since is said,
 * and the view goes back to all processes. */
static void
on_process_selected (MgWindow *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->process_dropdown));
  g_autoptr (GError) error = NULL;
  int process;

  if (self->profile == NULL || selected == GTK_INVALID_LIST_POSITION || self->listed == NULL
      || (selected > 0 && selected - 1 >= self->listed->len))
    return;
  process = selected > 0 ? (int) g_array_index (self->listed, guint, selected - 1) : -1;
  if (process >= 0 && !mg_profile_read_process_series (self->profile, (guint) process, &error))
    {
      mg_window_show_message (self, _("Cannot Show This Process"), error->message);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), 0);
      return;
    }
  mg_time_view_set_process (self->view, process);
}

/* The Code pane's selected function gets a row of its share over time
 * (the "selected-function" property of the pane's contract, when the
 * pane has it). */
static void
on_function_selected (MgWindow *self)
{
  g_autofree char *name = NULL;

  g_object_get (self->code_view, "selected-function", &name, NULL);
  /* A function is chosen from the pane's views: its index is built. */
  mg_function_rows_set_index (MG_FUNCTION_ROWS (self->function_rows),
                              mg_code_view_get_index (MG_CODE_VIEW (self->code_view)));
  mg_function_rows_show_function (MG_FUNCTION_ROWS (self->function_rows), name);
}

void
mg_window_profile_view_init (MgWindow *self)
{
  self->function_rows = mg_function_rows_new (self->view);
  gtk_box_append (GTK_BOX (self->rows_box), self->function_rows);
  self->rows = mg_metric_rows_new ();
  gtk_box_append (GTK_BOX (self->rows_box), self->rows);
  /* The Code pane under the rows, as in MAP: the code of what the graphs
   * show, one glance down; its divider is remembered. */
  self->code_view = mg_code_view_new (self->view);
  gtk_widget_set_size_request (self->code_view, -1, 120);
  gtk_box_append (GTK_BOX (self->code_box), self->code_view);
  g_signal_connect_swapped (self->code_view, "notify::selected-function",
                            G_CALLBACK (on_function_selected), self);
  if (self->settings != NULL)
    g_settings_bind (self->settings, "code-pane-position", self->code_paned, "position",
                     G_SETTINGS_BIND_DEFAULT);
  else
    /* Without the schema (an uninstalled build) the divider starts where
     * its default puts it: left unset, GtkPaned splits by the children's
     * natural heights, which change when the Source page is first built
     * (/gui/window/no-schema/code-pane-stays). */
    gtk_paned_set_position (GTK_PANED (self->code_paned), CODE_PANE_POSITION);
  g_signal_connect_swapped (self->rows, "notify::empty", G_CALLBACK (update_rows_visibility), self);
  mg_process_search_setup (GTK_DROP_DOWN (self->process_dropdown));
  g_signal_connect_swapped (self->process_dropdown, "notify::selected",
                            G_CALLBACK (on_process_selected), self);
  g_signal_connect_swapped (self->helpers_check, "toggled", G_CALLBACK (fill_process_dropdown),
                            self);
  for (guint i = 0; i < G_N_ELEMENTS (range_properties); i++)
    g_signal_connect_swapped (self->view, range_properties[i], G_CALLBACK (update_range_readout),
                              self);
}
