/* A viewer window. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-event-strip.h"
#include "mg-export-csv.h"
#include "mg-export-json.h"
#include "mg-file-choosers.h"
#include "mg-info-panel.h"
#include "mg-metric-graph.h"
#include "mg-metric-row.h"
#include "mg-metric-rows.h"
#include "mg-metric-visibility.h"
#include "mg-metrics-menu.h"
#include "mg-profile-loader.h"
#include "mg-recent-list.h"
#include "mg-selection-stats.h"
#include "mg-style.h"
#include "mg-theme.h"
#include "mg-time-axis.h"
#include "mg-time-view-actions.h"
#include "mg-tooltip.h"
#include "mg-units.h"
#include "mg-view-export.h"
#include "mg-window.h"
#include "mg-window-state.h"

#define UNDO_TIMEOUT_S 6

struct _MgWindow
{
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkWidget *header_bar;
  GtkWidget *metrics_button;
  GtkWidget *process_dropdown;
  GtkWidget *menu_button;
  GMenuModel *primary_menu;
  GtkWidget *title_label;
  GtkWidget *subtitle_label;
  GtkWidget *info_button;
  GtkWidget *zoom_box;
  GtkWidget *stack;
  GtkWidget *recent_heading;
  GtkWidget *recent_list;
  GtkWidget *spinner;
  GtkWidget *loading_label;
  GtkWidget *error_title;
  GtkWidget *error_message;
  GtkWidget *errors_revealer;
  GtkWidget *errors_label;
  GtkWidget *rows_stack;
  GtkWidget *rows_box;
  GtkWidget *axis_box;
  GtkWidget *axis_caption;
  GtkWidget *axis_column;
  GtkWidget *side_revealer;
  GtkWidget *side_switcher;
  GtkWidget *side_stack;
  GtkWidget *info_scroller;
  GtkWidget *errors_scroller;
  GtkWidget *undo_revealer;
  GtkWidget *undo_label;
  GtkWidget *undo_dismiss;

  GSettings *settings;      /* NULL when the schema is not installed */
  GCancellable *cancellable;
  gboolean loading;
  GFile *file;
  MgProfile *profile;
  MgTimeView *view;
  MgMetricVisibility *visibility;
  GtkSizeGroup *label_group;
  GMenuModel *metrics_menu; /* given to metrics_button when it opens */
  GtkWidget *rows;          /* MgMetricRows, in rows_box */
  GtkWidget *event_strip;
  GtkWidget *time_axis;
  guint error_count;
  guint undo_timeout;
  gboolean side_built;      /* the side panel shows this profile */
  gboolean recent_watched;  /* the recent list follows the recent manager */
  gboolean recent_stale;    /* it changed while the start page was hidden */
  guint recent_idle;
  char *recent_uri;         /* to add to the recent files after the first frame */
};

G_DEFINE_FINAL_TYPE (MgWindow, mg_window, GTK_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_LOADING, PROP_PROFILE, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void open_file_dialog (MgWindow *self);

/* ---- start page: recent profiles ------------------------------------- */

static void
on_recent_activated (GtkListBox *list, GtkListBoxRow *row, gpointer user_data)
{
  MgWindow *self = user_data;
  const char *uri = mg_recent_list_row_get_uri (row);
  g_autoptr (GFile) file = g_file_new_for_uri (uri);

  mg_window_open_file (self, file);
}

static void
fill_recent_list (MgWindow *self)
{
  guint n = mg_recent_list_fill (GTK_LIST_BOX (self->recent_list));

  gtk_widget_set_visible (self->recent_heading, n > 0);
  gtk_widget_set_visible (self->recent_list, n > 0);
  self->recent_stale = FALSE;
}

static void
on_recent_changed (MgWindow *self)
{
  if (gtk_widget_get_mapped (self->recent_list) || gtk_widget_get_mapped (self->recent_heading)
      || gtk_widget_get_mapped (gtk_stack_get_child_by_name (GTK_STACK (self->stack), "start")))
    fill_recent_list (self);
  else
    self->recent_stale = TRUE;
}

/* The recent profiles are read when the start page is shown, not with
 * every window: a window opening a file never shows it, and the desktop's
 * list of recent files (every application's) can be long to read. */
static void
on_start_page_map (MgWindow *self)
{
  if (!self->recent_watched)
    {
      self->recent_watched = TRUE;
      g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                               G_CALLBACK (on_recent_changed), self, G_CONNECT_SWAPPED);
      fill_recent_list (self);
    }
  else if (self->recent_stale)
    fill_recent_list (self);
}

/* ---- profile view ------------------------------------------------------ */

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

static void
on_undo_dismiss (MgWindow *self)
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
  on_undo_dismiss (MG_WINDOW (user_data));
}

static void
clear_profile_view (MgWindow *self)
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
  self->side_built = FALSE;
  g_clear_object (&self->visibility);
  g_clear_object (&self->label_group);
  g_clear_object (&self->profile);
  g_clear_object (&self->file);
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

static void
fill_process_dropdown (MgWindow *self)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  guint n = mg_profile_get_n_processes (self->profile);

  gtk_string_list_append (list, _("All Processes"));
  for (guint p = 0; p < n; p++)
    {
      const MgProcessInfo *process = mg_profile_get_process (self->profile, p);
      g_autofree char *text = NULL;

      if (process->rank >= 0)
        text = g_strdup_printf (_("Rank %d (pid %d)"), process->rank, process->pid);
      else
        text = g_strdup_printf (_("Process %d (%s)"), process->pid,
                                process->program ? process->program : "");
      gtk_string_list_append (list, text);
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->process_dropdown), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), 0);
  gtk_widget_set_visible (self->process_dropdown, n > 1);
}

static void
update_titles (MgWindow *self)
{
  const MgRunInfo *run = mg_profile_get_run_info (self->profile);
  const MgProcessInfo *first = mg_profile_get_n_processes (self->profile) > 0
                                 ? mg_profile_get_process (self->profile, 0) : NULL;
  /* The program itself, not its launcher (mpirun). */
  const char *path = first && first->program ? first->program
                     : run->argv && run->argv[0] ? run->argv[0] : NULL;
  g_autofree char *program = path ? g_path_get_basename (path) : NULL;
  g_autofree char *name = self->file ? g_file_get_basename (self->file) : NULL;
  g_autofree char *duration = mg_units_format_time (run->duration_s);
  g_autofree char *subtitle = NULL;
  g_autofree char *processes = g_strdup_printf (ngettext ("%u process", "%u processes",
                                                          run->n_processes),
                                                run->n_processes);

  gtk_label_set_text (GTK_LABEL (self->title_label), program ? program : _("Profile"));
  gtk_window_set_title (GTK_WINDOW (self), program ? program : _("Metrograph"));
  if (name != NULL)
    /* Translators: the window's subtitle: file name — number of processes, duration */
    subtitle = g_strdup_printf (_("%s — %s, %s"), name, processes, duration);
  else
    /* Translators: the window's subtitle: number of processes, duration */
    subtitle = g_strdup_printf (_("%s, %s"), processes, duration);
  gtk_label_set_text (GTK_LABEL (self->subtitle_label), subtitle);
  gtk_widget_set_visible (self->subtitle_label, TRUE);
}

static void
update_errors_banner (MgWindow *self)
{
  g_autofree char *text = NULL;

  self->error_count = mg_error_list_count (self->profile);
  text = g_strdup_printf (ngettext ("%u error or process failure during this run",
                                    "%u errors or process failures during this run",
                                    self->error_count),
                          self->error_count);
  gtk_label_set_text (GTK_LABEL (self->errors_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->errors_revealer), self->error_count > 0);
}

/* The side panel (run details, errors) is built when first shown: a row
 * per process and per error, measured at every layout even while the
 * panel is hidden, and its switcher's tooltips cost round trips to the X
 * server. */
static void
build_side_panel (MgWindow *self)
{
  if (self->side_built || self->profile == NULL)
    return;
  if (gtk_stack_switcher_get_stack (GTK_STACK_SWITCHER (self->side_switcher)) == NULL)
    gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->side_switcher),
                                  GTK_STACK (self->side_stack));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->errors_scroller),
                                 mg_error_list_new (self->profile));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->info_scroller),
                                 mg_info_panel_new (self->profile));
  self->side_built = TRUE;
}

static void
reset_side_panel (MgWindow *self)
{
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->errors_scroller), NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->info_scroller), NULL);
  self->side_built = FALSE;
  if (gtk_revealer_get_reveal_child (GTK_REVEALER (self->side_revealer)))
    build_side_panel (self);
}

static void
build_axis (MgWindow *self)
{
  self->event_strip = mg_event_strip_new (self->profile, self->view);
  self->time_axis = mg_time_axis_new (self->view);
  gtk_box_append (GTK_BOX (self->axis_column), self->event_strip);
  gtk_box_append (GTK_BOX (self->axis_column), self->time_axis);
  gtk_size_group_add_widget (self->label_group, self->axis_caption);
}

/* The keyboard starts on the graphs: the first visible one takes the focus,
 * so arrows move the time cursor at once (mg-metric-graph.h). */
static void
focus_first_graph (MgWindow *self)
{
  g_auto (GStrv) ids = mg_metric_rows_dup_visible_ids (MG_METRIC_ROWS (self->rows));
  GtkWidget *graph = ids[0] != NULL ? mg_window_get_metric_graph (self, ids[0]) : NULL;

  if (graph != NULL)
    gtk_widget_grab_focus (graph);
}

void
mg_window_set_profile (MgWindow *self, MgProfile *profile, GFile *file)
{
  g_return_if_fail (MG_IS_WINDOW (self));
  g_return_if_fail (MG_IS_PROFILE (profile));

  clear_profile_view (self);
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

  g_clear_object (&self->metrics_menu);
  self->metrics_menu = mg_metrics_menu_new (self->visibility);
  fill_process_dropdown (self);
  update_titles (self);
  update_errors_banner (self);
  reset_side_panel (self);

  gtk_widget_set_visible (self->metrics_button, TRUE);
  gtk_widget_set_visible (self->zoom_box, TRUE);
  gtk_widget_set_visible (self->info_button, TRUE);
  /* At once, not crossfaded: a fade would show the spinner over the first
   * frames and the graphs only 200 ms later, and blend two window-sized
   * layers (offscreen surfaces with the cairo renderer) every frame of it. */
  gtk_stack_set_visible_child_full (GTK_STACK (self->stack), "profile",
                                    GTK_STACK_TRANSITION_TYPE_NONE);
  focus_first_graph (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

/* ---- loading ----------------------------------------------------------- */

static void
set_loading (MgWindow *self, gboolean loading)
{
  self->loading = loading;
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
show_error (MgWindow *self, GFile *file, const char *message)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf (_("Cannot Open “%s”"), name);

  clear_profile_view (self);
  gtk_label_set_text (GTK_LABEL (self->error_title), title);
  gtk_label_set_text (GTK_LABEL (self->error_message), message);
  gtk_label_set_text (GTK_LABEL (self->title_label), _("Metrograph"));
  gtk_widget_set_visible (self->subtitle_label, FALSE);
  gtk_widget_set_visible (self->metrics_button, FALSE);
  gtk_widget_set_visible (self->process_dropdown, FALSE);
  gtk_widget_set_visible (self->zoom_box, FALSE);
  gtk_widget_set_visible (self->info_button, FALSE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "error");
}

static gboolean
add_recent (gpointer user_data)
{
  MgWindow *self = user_data;
  GtkRecentData data = { 0 };

  self->recent_idle = 0;
  data.mime_type = (char *) MG_PROFILE_MIME_TYPE;
  data.app_name = (char *) "Metrograph";
  data.app_exec = (char *) "metrograph %f";
  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), self->recent_uri, &data);
  g_clear_pointer (&self->recent_uri, g_free);
  return G_SOURCE_REMOVE;
}

/* Into the desktop's recent files once the profile is drawn (reading and
 * writing that list is no part of showing the profile). */
static void
remember_recent (MgWindow *self, GFile *file)
{
  g_free (self->recent_uri);
  self->recent_uri = g_file_get_uri (file);
  if (self->recent_idle == 0)
    self->recent_idle = g_idle_add_full (G_PRIORITY_LOW, add_recent, self, NULL);
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr (MgWindow) self = g_weak_ref_get (weak);
  GFile *file = mg_profile_loader_get_file (result);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_loader_load_finish (result, &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  /* The window was closed, or another file was asked for, meanwhile. */
  if (self == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  if (profile == NULL)
    show_error (self, file, error->message);
  else
    {
      mg_window_set_profile (self, profile, file);
      remember_recent (self, file);
    }
  set_loading (self, FALSE);
}

void
mg_window_open_file (MgWindow *self, GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = g_strdup_printf (_("Opening “%s”…"), name);
  GWeakRef *weak;

  g_return_if_fail (MG_IS_WINDOW (self));
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  gtk_label_set_text (GTK_LABEL (self->loading_label), text);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
  set_loading (self, TRUE);

  /* A weak reference: closing the window does not wait for the load. */
  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  mg_profile_loader_load_async (file, self->cancellable, on_loaded, weak);
}

/* ---- actions ----------------------------------------------------------- */

static void
on_profile_chosen (GFile *file, gpointer user_data)
{
  MgWindow *self = user_data;

  if (self->profile != NULL || self->loading)
    {
      MgWindow *other = mg_window_new (gtk_window_get_application (GTK_WINDOW (self)));

      gtk_window_present (GTK_WINDOW (other));
      mg_window_open_file (other, file);
    }
  else
    mg_window_open_file (self, file);
}

static void
open_file_dialog (MgWindow *self)
{
  mg_file_chooser_open_profile (GTK_WINDOW (self), on_profile_chosen, self);
}

static void
on_open (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  open_file_dialog (MG_WINDOW (user_data));
}

static void
show_message (MgWindow *self, const char *title, const char *detail)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", title);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_export_chosen (GFile *file, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr (GError) error = NULL;

  if (path == NULL || !mg_window_export (self, path, &error))
    show_message (self, _("Export Failed"),
                  error ? error->message : _("Choose a folder on this computer."));
}

static void
on_export (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  g_autofree char *name = NULL;

  if (self->profile == NULL)
    return;
  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      char *dot = strrchr (base, '.');

      if (dot != NULL)
        *dot = '\0';
      name = g_strconcat (base, ".png", NULL);
    }
  mg_file_chooser_export (GTK_WINDOW (self), name ? name : "profile.png", on_export_chosen, self);
}

static void
on_auto_zoom_vertical (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgWindow *self = user_data;

  g_simple_action_set_state (action, value);
  mg_time_view_set_auto_zoom_vertical (self->view, g_variant_get_boolean (value));
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "auto-zoom-vertical", g_variant_get_boolean (value));
}

static void
on_show_info (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  MgWindow *self = user_data;

  g_simple_action_set_state (action, value);
  if (g_variant_get_boolean (value))
    build_side_panel (self);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->side_revealer), g_variant_get_boolean (value));
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "show-info", g_variant_get_boolean (value));
}

static void
on_show_errors (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;

  gtk_stack_set_visible_child_name (GTK_STACK (self->side_stack), "errors");
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-info",
                                      g_variant_new_boolean (TRUE));
}

/* A process's own series are read from the file when first chosen
 * (mg_profile_read_process_series): a file changed on disk since is said,
 * and the view goes back to all processes. */
static void
on_process_selected (MgWindow *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->process_dropdown));
  g_autoptr (GError) error = NULL;

  if (self->profile == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  if (selected > 0 && !mg_profile_read_process_series (self->profile, selected - 1, &error))
    {
      show_message (self, _("Cannot Show This Process"), error->message);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), 0);
      return;
    }
  mg_time_view_set_process (self->view, (int) selected - 1);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  MgWindow *self = user_data;
  GSList *files = g_value_get_boxed (value);

  for (GSList *l = files; l != NULL; l = l->next)
    {
      MgWindow *window = self;

      if (l != files || self->profile != NULL || self->loading)
        {
          window = mg_window_new (gtk_window_get_application (GTK_WINDOW (self)));
          gtk_window_present (GTK_WINDOW (window));
        }
      mg_window_open_file (window, l->data);
    }
  return files != NULL;
}

static void
on_show_metrics_menu (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;

  if (gtk_widget_get_visible (self->metrics_button))
    gtk_menu_button_popup (GTK_MENU_BUTTON (self->metrics_button));
}

/* The shortcuts window is built when first asked for. Shipped as
 * gtk/help-overlay.ui, GtkApplicationWindow would build it with every
 * window: 20 ms of a window's start-up. Our action comes first, so
 * gtk_application_window_set_help_overlay adds none of its own. */
static void
on_show_help_overlay (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplicationWindow *window = user_data;
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr (GtkBuilder) builder =
        gtk_builder_new_from_resource ("/org/metrograph/Metrograph/ui/mg-shortcuts.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_window_present (GTK_WINDOW (overlay));
}

static const GActionEntry win_entries[] = {
  { "show-help-overlay", on_show_help_overlay, NULL, NULL, NULL, { 0 } },
  { "show-metrics-menu", on_show_metrics_menu, NULL, NULL, NULL, { 0 } },
  { "open", on_open, NULL, NULL, NULL, { 0 } },
  { "export", on_export, NULL, NULL, NULL, { 0 } },
  { "auto-zoom-vertical", NULL, NULL, "true", on_auto_zoom_vertical, { 0 } },
  { "show-info", NULL, NULL, "false", on_show_info, { 0 } },
  { "show-errors", on_show_errors, NULL, NULL, NULL, { 0 } },
};

/* ---- object ------------------------------------------------------------ */

static void
mg_window_dispose (GObject *object)
{
  MgWindow *self = MG_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->undo_timeout, g_source_remove);
  /* A profile opened is remembered even if the window closes at once. */
  if (self->recent_idle != 0)
    {
      g_clear_handle_id (&self->recent_idle, g_source_remove);
      add_recent (self);
    }
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  clear_profile_view (self);
  G_OBJECT_CLASS (mg_window_parent_class)->dispose (object);
}

static void
mg_window_finalize (GObject *object)
{
  MgWindow *self = MG_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->metrics_menu);
  g_clear_object (&self->view);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (mg_window_parent_class)->finalize (object);
}

static void
mg_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgWindow *self = MG_WINDOW (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_window_class_init (MgWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = mg_window_dispose;
  object_class->finalize = mg_window_finalize;
  object_class->get_property = mg_window_get_property;

  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROFILE] = g_param_spec_object ("profile", NULL, NULL, MG_TYPE_PROFILE,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/metrograph/Metrograph/ui/mg-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, MgWindow, name)
  BIND (header_bar);
  BIND (metrics_button);
  BIND (process_dropdown);
  BIND (menu_button);
  BIND (primary_menu);
  BIND (title_label);
  BIND (subtitle_label);
  BIND (info_button);
  BIND (zoom_box);
  BIND (stack);
  BIND (recent_heading);
  BIND (recent_list);
  BIND (spinner);
  BIND (loading_label);
  BIND (error_title);
  BIND (error_message);
  BIND (errors_revealer);
  BIND (errors_label);
  BIND (rows_stack);
  BIND (rows_box);
  BIND (axis_box);
  BIND (axis_caption);
  BIND (axis_column);
  BIND (side_revealer);
  BIND (side_switcher);
  BIND (side_stack);
  BIND (info_scroller);
  BIND (errors_scroller);
  BIND (undo_revealer);
  BIND (undo_label);
  BIND (undo_dismiss);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_undo_dismiss);

}

static GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, MG_APP_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("Settings schema %s not installed: choices are not remembered", MG_APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* The header bar's buttons by their actions. Tooltips set in the template
 * would each cost round trips to the X server (mg-tooltip.c). */
static const struct {
  const char *action;
  const char *text;
} header_tooltips[] = {
  { "win.open", N_("Open a Profile (Ctrl+O)") },
  { "app.profile", N_("Profile a Program (Ctrl+R)") },
  { "win.show-info", N_("Run Details (F9)") },
  { "win.zoom-out", N_("Zoom Out (Ctrl+−)") },
  { "win.zoom-selection", N_("Zoom to Selection (Ctrl+Return)") },
  { "win.zoom-in", N_("Zoom In (Ctrl++)") },
  { "win.zoom-reset", N_("Whole Run (Ctrl+0)") },
};

static void
set_actionable_tooltips (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *action = GTK_IS_ACTIONABLE (child)
                             ? gtk_actionable_get_action_name (GTK_ACTIONABLE (child)) : NULL;

      for (guint i = 0; action != NULL && i < G_N_ELEMENTS (header_tooltips); i++)
        if (g_str_equal (action, header_tooltips[i].action))
          mg_tooltip_set_text (child, _(header_tooltips[i].text));
      set_actionable_tooltips (child);
    }
}

static void
set_tooltips (MgWindow *self)
{
  set_actionable_tooltips (self->header_bar);
  mg_tooltip_set_text (self->metrics_button, _("Choose the Metrics Shown (Ctrl+M)"));
  mg_tooltip_set_text (self->process_dropdown,
                       _("Show All Processes or One Process’s Own Series"));
  mg_tooltip_set_text (self->menu_button, _("Main Menu"));
  mg_tooltip_set_text (self->undo_dismiss, _("Dismiss"));
}

/* The menus' popovers are built when they first open: GTK builds every
 * item's widgets with the popover, for the Metrics menu an item per metric
 * and group, for nothing on the way to the first frame. */
static void
give_menu (GtkMenuButton *button, GMenuModel *menu)
{
  if (menu != NULL && gtk_menu_button_get_menu_model (button) != menu)
    gtk_menu_button_set_menu_model (button, menu);
}

static void
create_metrics_popup (GtkMenuButton *button, gpointer user_data)
{
  give_menu (button, MG_WINDOW (user_data)->metrics_menu);
}

static void
create_primary_popup (GtkMenuButton *button, gpointer user_data)
{
  give_menu (button, MG_WINDOW (user_data)->primary_menu);
}

/* A window may be put on another display than the default one. */
static void
load_style (GtkWidget *widget)
{
  mg_style_load (gtk_widget_get_display (widget));
}

static void
mg_window_init (MgWindow *self)
{
  GtkDropTarget *drop;
  gboolean auto_zoom = TRUE, show_info = FALSE;

  g_type_ensure (MG_TYPE_METRIC_ROW);
  mg_style_load (gdk_display_get_default ());
  gtk_widget_init_template (GTK_WIDGET (self));
  set_tooltips (self);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->metrics_button),
                                         create_metrics_popup, self, NULL);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->menu_button),
                                         create_primary_popup, self, NULL);

  self->rows = mg_metric_rows_new ();
  gtk_box_append (GTK_BOX (self->rows_box), self->rows);
  g_signal_connect_swapped (self->rows, "notify::empty", G_CALLBACK (update_rows_visibility), self);
  self->view = mg_time_view_new (1.0);
  self->settings = new_settings ();
  mg_window_state_track (GTK_WINDOW (self), self->settings);
  if (self->settings != NULL)
    {
      auto_zoom = g_settings_get_boolean (self->settings, "auto-zoom-vertical");
      show_info = g_settings_get_boolean (self->settings, "show-info");
    }

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_entries, G_N_ELEMENTS (win_entries), self);
  g_action_group_change_action_state (G_ACTION_GROUP (self), "auto-zoom-vertical",
                                      g_variant_new_boolean (auto_zoom));
  g_action_group_change_action_state (G_ACTION_GROUP (self), "show-info",
                                      g_variant_new_boolean (show_info));
  mg_time_view_actions_add (G_ACTION_MAP (self), self->view);

  g_signal_connect_swapped (self->process_dropdown, "notify::selected",
                            G_CALLBACK (on_process_selected), self);
  g_signal_connect (self->recent_list, "row-activated", G_CALLBACK (on_recent_activated), self);

  g_signal_connect (self, "realize", G_CALLBACK (load_style), NULL);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  g_signal_connect_swapped (gtk_stack_get_child_by_name (GTK_STACK (self->stack), "start"), "map",
                            G_CALLBACK (on_start_page_map), self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "start");
}

MgWindow *
mg_window_new (GtkApplication *app)
{
  return g_object_new (MG_TYPE_WINDOW, "application", app, NULL);
}

void
mg_window_save_state (MgWindow *self)
{
  mg_window_state_save (GTK_WINDOW (self), self->settings);
}

/* ---- queries ------------------------------------------------------------ */

MgProfile *
mg_window_get_profile (MgWindow *self)
{
  return self->profile;
}

gboolean
mg_window_get_loading (MgWindow *self)
{
  return self->loading;
}

gboolean
mg_window_is_empty (MgWindow *self)
{
  return self->profile == NULL && !self->loading;
}

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

gboolean
mg_window_export (MgWindow *self, const char *path, GError **error)
{
  g_autoptr (GPtrArray) groups = NULL;
  g_autofree char *title = NULL;
  gboolean dark = FALSE;
  MgViewFormat format;

  g_return_val_if_fail (self->profile != NULL, FALSE);

  /* The data: the core's exporters write the whole profile. */
  if (g_str_has_suffix (path, ".json") || g_str_has_suffix (path, ".JSON"))
    return mg_export_json (self->profile, path, error);
  if (g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".CSV"))
    return mg_export_csv (self->profile, path, error);

  if (!mg_view_export_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot export to “%s”: name the file .png, .svg or .pdf for the view, "
                     ".json or .csv for the data"), path);
      return FALSE;
    }

  /* The image in the window's own theme: light or dark, as the graphs are. */
  groups = mg_metric_rows_dup_view_groups (MG_METRIC_ROWS (self->rows));
  for (guint g = 0; g < groups->len; g++)
    {
      MgViewGroup *group = g_ptr_array_index (groups, g);
      int metric = group->metrics->len > 0 ? (int) g_array_index (group->metrics, guint, 0) : -1;

      if (metric >= 0)
        {
          MgMetricRow *row = find_row (self, mg_profile_get_metric (self->profile, (guint) metric)->id);

          dark = mg_theme_is_dark (mg_metric_row_get_graph (row));
          break;
        }
    }
  /* Translators: an exported image's title: the window's title — its subtitle */
  title = g_strdup_printf (_("%s — %s"), gtk_label_get_text (GTK_LABEL (self->title_label)),
                           gtk_label_get_text (GTK_LABEL (self->subtitle_label)));
  return mg_view_export_save (self->profile, self->view, (MgViewGroup *const *) groups->pdata,
                              groups->len, title, dark, path, error);
}
