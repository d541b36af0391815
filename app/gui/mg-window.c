/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A viewer window: the type, its template and its chrome (header bar
 * tooltips, menus, settings). The pages and actions are in the other
 * mg-window-*.c files (mg-window-internal.h). */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-metric-row.h"
#include "mg-metrics-menu.h"
#include "mg-style.h"
#include "mg-side-layout.h"
#include "mg-tooltip.h"
#include "mg-window-internal.h"
#include "mg-window-state.h"

G_DEFINE_FINAL_TYPE (MgWindow, mg_window, GTK_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_LOADING, PROP_PROFILE, N_PROPS };
static GParamSpec *properties[N_PROPS];

void
mg_window_show_message (MgWindow *self, const char *title, const char *detail)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", title);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- object ------------------------------------------------------------ */

static void
mg_window_dispose (GObject *object)
{
  MgWindow *self = MG_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->undo_timeout, g_source_remove);
  /* A profile opened is remembered even if the window closes at once. */
  mg_window_recent_flush (self);
  if (self->view != NULL)
    g_signal_handlers_disconnect_by_data (self->view, self);
  mg_window_clear_profile_view (self);
  G_OBJECT_CLASS (mg_window_parent_class)->dispose (object);
}

static void
mg_window_finalize (GObject *object)
{
  MgWindow *self = MG_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->listed, g_array_unref);
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
  BIND (helpers_check);
  BIND (menu_button);
  BIND (primary_menu);
  BIND (title_label);
  BIND (subtitle_label);
  BIND (info_button);
  BIND (zoom_box);
  BIND (stack);
  BIND (recover_heading);
  BIND (recover_list);
  BIND (recent_heading);
  BIND (recent_list);
  BIND (spinner);
  BIND (loading_label);
  BIND (error_title);
  BIND (error_message);
  BIND (errors_revealer);
  BIND (errors_label);
  BIND (rows_stack);
  BIND (code_paned);
  BIND (code_box);
  BIND (rows_box);
  BIND (axis_box);
  BIND (axis_caption);
  BIND (axis_column);
  BIND (side_revealer);
  BIND (side_switcher);
  BIND (side_stack);
  BIND (info_scroller);
  BIND (errors_scroller);
  BIND (report_scroller);
  BIND (undo_revealer);
  BIND (undo_label);
  BIND (undo_dismiss);
#undef BIND
  gtk_widget_class_bind_template_callback_full (widget_class, "on_undo_dismiss",
                                                G_CALLBACK (mg_window_dismiss_undo));

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

/* The header bar's buttons by their actions: the tooltip, and the name a
 * screen reader says for the icon-only ones (GTK 4.8 names a button by its
 * label only: a tooltip is its description). Tooltips set in the template
 * would each cost round trips to the X server (mg-tooltip.c). */
static const struct {
  const char *action;
  const char *text;
  const char *name;
} header_tooltips[] = {
  { "win.open", N_("Open a Profile (Ctrl+O)"), N_("Open a Profile") },
  { "app.profile", N_("Profile a Program (Ctrl+R)"), N_("Profile a Program") },
  { "win.show-info", N_("Run Details (F9)"), N_("Run Details") },
  { "win.zoom-out", N_("Zoom Out (Ctrl+−)"), N_("Zoom Out") },
  { "win.zoom-selection", N_("Zoom to Selection (Ctrl+Return)"), N_("Zoom to Selection") },
  { "win.zoom-in", N_("Zoom In (Ctrl++)"), N_("Zoom In") },
  { "win.zoom-reset", N_("Whole Run (Ctrl+0)"), NULL },
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
          {
            mg_tooltip_set_text (child, _(header_tooltips[i].text));
            if (header_tooltips[i].name != NULL)
              gtk_accessible_update_property (GTK_ACCESSIBLE (child),
                                              GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              _(header_tooltips[i].name), -1);
          }
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
  mg_tooltip_set_text (self->helpers_check,
                       _("List the Launch’s Helper Processes Too (wrapper scripts, shims; they "
                         "are in no statistic across processes)"));
  mg_tooltip_set_text (self->menu_button, _("Main Menu"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Main Menu"), -1);
  mg_tooltip_set_text (self->undo_dismiss, _("Dismiss"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->undo_dismiss),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Dismiss"), -1);
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

/* Also when a profile replaces another while the menu has been built. */
void
mg_window_attach_metrics_menu (MgWindow *self)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (self->metrics_button);

  if (self->metrics_menu == NULL || gtk_menu_button_get_menu_model (button) == self->metrics_menu)
    return;
  gtk_menu_button_set_menu_model (button, self->metrics_menu);
  mg_metrics_menu_add_widgets (GTK_POPOVER_MENU (gtk_menu_button_get_popover (button)),
                               self->visibility);
}

static void
create_metrics_popup (GtkMenuButton *button, gpointer user_data)
{
  mg_window_attach_metrics_menu (MG_WINDOW (user_data));
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
  g_type_ensure (MG_TYPE_METRIC_ROW);
  mg_style_load (gdk_display_get_default ());
  gtk_widget_init_template (GTK_WIDGET (self));
  set_tooltips (self);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->metrics_button),
                                         create_metrics_popup, self, NULL);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->menu_button),
                                         create_primary_popup, self, NULL);

  /* The side panel shrinks with the window (mg-side-layout.h): its share
   * of the width, up to what its pages would like. */
  gtk_widget_set_layout_manager (gtk_widget_get_parent (self->side_revealer), mg_side_layout_new ());
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (self->info_scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (self->report_scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (self->errors_scroller), TRUE);
  self->view = mg_time_view_new (1.0);
  self->settings = new_settings ();
  mg_window_state_track (GTK_WINDOW (self), self->settings);
  mg_window_profile_view_init (self);
  mg_window_add_actions (self);
  mg_window_recent_init (self);
  mg_window_recovery_init (self);
  g_signal_connect (self, "realize", G_CALLBACK (load_style), NULL);
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

