/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Wraps the window's content without touching the window's own code: the
 * child is moved into a stack page, so a viewer window keeps working
 * unchanged on its page. */
#include "mg-config.h"

#include "mg-run-host.h"

#include <glib/gi18n.h>

#include "mg-run-actions.h"
#include "mg-run-css.h"
#include "mg-run-end.h"
#include "mg-run-keeper.h"
#include "gui/mg-window.h"
#include "gui/mg-tooltip.h"

#define HOST_KEY "mg-run-host"

struct _MgRunHost
{
  GObject parent_instance;

  GtkWindow *window;           /* owns us */
  GtkWidget *stack;
  GtkWidget *run_view;
  GtkWidget *banner_box;
  GtkWidget *banner_icon;
  GtkWidget *banner_label;
  GtkWidget *banner_again;
  MgRunSession *session;
};

G_DEFINE_FINAL_TYPE (MgRunHost, mg_run_host, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PAGE,
  PROP_BANNER_TEXT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
disconnect_session (MgRunHost *self)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
}

static void
mg_run_host_dispose (GObject *object)
{
  MgRunHost *self = MG_RUN_HOST (object);

  /* Closing the window ends its run without a profile nobody would see. */
  if (self->session != NULL && !mg_run_session_is_finished (self->session))
    mg_run_session_cancel (self->session);
  disconnect_session (self);
  G_OBJECT_CLASS (mg_run_host_parent_class)->dispose (object);
}

static void
mg_run_host_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  MgRunHost *self = MG_RUN_HOST (object);

  switch (prop_id)
    {
    case PROP_SESSION: g_value_set_object (value, self->session); break;
    case PROP_PAGE: g_value_set_string (value, mg_run_host_get_page (self)); break;
    case PROP_BANNER_TEXT: g_value_set_string (value, mg_run_host_get_banner_text (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mg_run_host_class_init (MgRunHostClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = mg_run_host_dispose;
  object_class->get_property = mg_run_host_get_property;
  props[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, MG_TYPE_RUN_SESSION, flags);
  props[PROP_PAGE] = g_param_spec_string ("page", NULL, NULL, NULL, flags);
  props[PROP_BANNER_TEXT] = g_param_spec_string ("banner-text", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
mg_run_host_init (MgRunHost *self)
{
}

/* The header bar names what is on screen: the run while its page shows,
 * by the name the user gave its program; else the profile. */
static void
update_titles (MgRunHost *self)
{
  g_autofree char *name = NULL;
  const char *subtitle;

  if (!MG_IS_WINDOW (self->window))
    return;
  if (g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), "run") != 0
      || self->session == NULL)
    {
      mg_window_show_profile_titles (MG_WINDOW (self->window));
      return;
    }
  switch (mg_run_session_get_state (self->session))
    {
    case MG_RUN_STATE_MERGING:
      subtitle = _("Saving the profile…");
      break;
    case MG_RUN_STATE_FAILED:
      subtitle = _("No profile");
      break;
    case MG_RUN_STATE_DONE:
      subtitle = _("Profile saved");
      break;
    case MG_RUN_STATE_CANCELLED:
      subtitle = _("Cancelled");
      break;
    case MG_RUN_STATE_IDLE:
    case MG_RUN_STATE_PREPARING:
    case MG_RUN_STATE_RUNNING:
    default:
      subtitle = _("Live run");
      break;
    }
  name = mg_run_session_dup_program_name (self->session);
  mg_window_show_titles (MG_WINDOW (self->window), name, subtitle);
}

static void
set_page (MgRunHost *self, const char *page)
{
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
  /* The header offers nothing of the profile behind the run's page. */
  if (MG_IS_WINDOW (self->window))
    mg_window_set_live_run (MG_WINDOW (self->window), g_str_equal (page, "run"));
  update_titles (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PAGE]);
}

static void
show_banner (MgRunHost *self, const char *style, const char *icon, const char *text)
{
  gtk_widget_remove_css_class (self->banner_box, "warning");
  gtk_widget_remove_css_class (self->banner_box, "error");
  if (style != NULL)
    gtk_widget_add_css_class (self->banner_box, style);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->banner_icon), icon);
  gtk_label_set_text (GTK_LABEL (self->banner_label), text != NULL ? text : "");
  gtk_widget_set_visible (self->banner_box, text != NULL);
  /* One banner per run: while this one shows, the window's errors banner
   * does not (open_saved folds its count in here). */
  if (MG_IS_WINDOW (self->window))
    mg_window_set_run_banner_shown (MG_WINDOW (self->window), text != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BANNER_TEXT]);
}

static void
on_banner_close (MgRunHost *self)
{
  show_banner (self, NULL, NULL, NULL);
}

static void
on_run_again (MgRunHost *self)
{
  mg_run_open_dialog (self->window, self->session != NULL ? mg_run_session_get_settings (self->session)
                                                          : NULL, NULL);
}

static GtkWidget *
build_banner (MgRunHost *self)
{
  GtkWidget *again = self->banner_again = gtk_button_new_with_mnemonic (_("_Run Again…"));
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  self->banner_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  self->banner_icon = gtk_image_new ();
  self->banner_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->banner_box, "run-banner");
  gtk_label_set_wrap (GTK_LABEL (self->banner_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->banner_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->banner_label), 0);
  gtk_widget_set_hexpand (self->banner_label, TRUE);
  gtk_widget_set_valign (again, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (close, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Hide This Message"));
  mg_tooltip_name_icon_button (close);
  gtk_widget_set_tooltip_text (again, _("Change the Settings and Profile Again (Ctrl+Shift+R)"));
  g_signal_connect_swapped (again, "clicked", G_CALLBACK (on_run_again), self);
  g_signal_connect_swapped (close, "clicked", G_CALLBACK (on_banner_close), self);
  gtk_box_append (GTK_BOX (self->banner_box), self->banner_icon);
  gtk_box_append (GTK_BOX (self->banner_box), self->banner_label);
  gtk_box_append (GTK_BOX (self->banner_box), again);
  gtk_box_append (GTK_BOX (self->banner_box), close);
  gtk_widget_set_visible (self->banner_box, FALSE);
  /* Taller than one line of text and the buttons: GTK 4.8 otherwise rounds
   * the wrapping label's height differently with and without a width. */
  gtk_widget_set_size_request (self->banner_box, -1, 60);
  return self->banner_box;
}

/* Closing a window whose run is going asks first (mg-run-end.h). */
static gboolean
on_close_request (GtkWindow *window, MgRunHost *self)
{
  if (!mg_run_host_is_busy (self))
    return FALSE;
  mg_run_end_close_window (window, self->session);
  return TRUE;
}

static MgRunHost *
attach (GtkWindow *window)
{
  MgRunHost *self = g_object_new (MG_TYPE_RUN_HOST, NULL);
  GtkWidget *content = gtk_window_get_child (window);
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  mg_run_css_load ();
  self->window = window;
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  self->run_view = mg_run_view_new ();
  if (content != NULL)
    {
      g_object_ref (content);
      gtk_window_set_child (window, NULL);
      gtk_stack_add_named (GTK_STACK (self->stack), content, "viewer");
      g_object_unref (content);
    }
  else
    gtk_stack_add_named (GTK_STACK (self->stack), gtk_label_new (NULL), "viewer");
  gtk_stack_add_named (GTK_STACK (self->stack), self->run_view, "run");
  gtk_box_append (GTK_BOX (outer), build_banner (self));
  gtk_box_append (GTK_BOX (outer), self->stack);
  gtk_window_set_child (window, outer);
  g_object_set_data_full (G_OBJECT (window), HOST_KEY, self, g_object_unref);
  g_signal_connect (window, "close-request", G_CALLBACK (on_close_request), self);
  return self;
}

MgRunHost *
mg_run_host_get_for_window (GtkWindow *window)
{
  MgRunHost *self = mg_run_host_peek (window);

  return self != NULL ? self : attach (window);
}

MgRunHost *
mg_run_host_peek (GtkWindow *window)
{
  return g_object_get_data (G_OBJECT (window), HOST_KEY);
}

static void
open_saved (MgRunHost *self)
{
  const char *path = mg_run_session_get_output_path (self->session);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  const char *message = mg_run_session_get_message (self->session);
  g_autofree char *text = NULL;
  g_autofree char *errors = NULL;
  guint n_errors = 0;

  if (MG_IS_WINDOW (self->window))
    {
      mg_window_set_run_profile (MG_WINDOW (self->window), mg_run_session_get_profile (self->session),
                                 file, mg_run_session_get_stopped (self->session));
      set_page (self, "viewer");
    }
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (MG_IS_WINDOW (self->window))
    n_errors = mg_window_count_errors (MG_WINDOW (self->window));
  if (n_errors > 0)
    errors = g_strdup_printf (ngettext ("%u error or process failure during this run (F9 "
                                        "lists it).",
                                        "%u errors or process failures during this run (F9 "
                                        "lists them).",
                                        n_errors),
                              n_errors);
  if (message != NULL || errors != NULL)
    {
      text = g_strdup_printf (_("%s The profile was saved as %s."),
                              message != NULL ? message : errors, path);
      if (message != NULL && errors != NULL)
        {
          char *both = g_strconcat (text, " ", errors, NULL);

          g_free (text);
          text = both;
        }
      show_banner (self, "warning", "dialog-warning-symbolic", text);
    }
  else
    {
      text = g_strdup_printf (_("The profile was saved as %s."), path);
      show_banner (self, NULL, "emblem-ok-symbolic", text);
    }
}

static void
on_state (MgRunHost *self)
{
  switch (mg_run_session_get_state (self->session))
    {
    case MG_RUN_STATE_DONE:
      open_saved (self);
      break;
    case MG_RUN_STATE_FAILED:
      show_banner (self, "error", "dialog-error-symbolic", mg_run_session_get_message (self->session));
      update_titles (self);
      break;
    case MG_RUN_STATE_CANCELLED:
      set_page (self, "viewer");
      show_banner (self, NULL, "dialog-information-symbolic",
                   _("The run was cancelled; nothing was saved."));
      break;
    case MG_RUN_STATE_IDLE:
    case MG_RUN_STATE_PREPARING:
    case MG_RUN_STATE_RUNNING:
    case MG_RUN_STATE_MERGING:
    default:
      update_titles (self);
      break;
    }
}

void
mg_run_host_show_session (MgRunHost *self, MgRunSession *session)
{
  disconnect_session (self);
  self->session = g_object_ref (session);
  /* The application outlives the window until the program has ended. */
  if (g_application_get_default () != NULL)
    mg_run_keeper_watch (g_application_get_default (), session);
  g_signal_connect_swapped (session, "notify::state", G_CALLBACK (on_state), self);
  mg_run_view_set_session (MG_RUN_VIEW (self->run_view), session);
  show_banner (self, NULL, NULL, NULL);
  set_page (self, "run");
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION]);
  if (mg_run_session_is_finished (session))
    on_state (self);
}

MgRunSession *
mg_run_host_get_session (MgRunHost *self)
{
  return self->session;
}

gboolean
mg_run_host_is_busy (MgRunHost *self)
{
  return self->session != NULL && !mg_run_session_is_finished (self->session);
}

const char *
mg_run_host_get_page (MgRunHost *self)
{
  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

const char *
mg_run_host_get_banner_text (MgRunHost *self)
{
  if (!gtk_widget_get_visible (self->banner_box))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->banner_label));
}

GtkWidget *
mg_run_host_get_run_again_button (MgRunHost *self)
{
  return self->banner_again;
}

MgRunView *
mg_run_host_get_view (MgRunHost *self)
{
  return MG_RUN_VIEW (self->run_view);
}
