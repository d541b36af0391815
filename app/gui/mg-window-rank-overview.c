/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's rank overview (mg-rank-overview.h): the action
 * win.rank-overview (a metric id; "" for the first metric) opens it in a
 * window of its own beside the graphs, one per viewer window, sharing the
 * viewer's time view; a row clicked there chooses that process in the
 * viewer's process drop-down, as choosing it there would. It follows the
 * viewer's profile and closes with the viewer. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-rank-overview.h"
#include "mg-window-internal.h"
#include "mg-window-private.h"

#define OVERVIEW_KEY "mg-rank-overview"

static GtkWidget *
get_overview (MgWindow *self)
{
  GtkWindow *window = g_object_get_data (G_OBJECT (self), OVERVIEW_KEY);

  return window != NULL ? gtk_window_get_child (window) : NULL;
}

GtkWidget *
mg_window_get_rank_overview (MgWindow *self)
{
  g_return_val_if_fail (MG_IS_WINDOW (self), NULL);
  return get_overview (self);
}

/* The process's entry in the drop-down: listing the helpers first when it
 * is one of them. FALSE if it is not listed. */
static gboolean
select_process (MgWindow *self, int process)
{
  for (int attempt = 0; attempt < 2; attempt++)
    {
      for (guint i = 0; self->listed != NULL && i < self->listed->len; i++)
        if ((int) g_array_index (self->listed, guint, i) == process)
          {
            gtk_drop_down_set_selected (GTK_DROP_DOWN (self->process_dropdown), i + 1);
            return TRUE;
          }
      gtk_check_button_set_active (GTK_CHECK_BUTTON (self->helpers_check), TRUE);
    }
  return FALSE;
}

static void
on_process_activated (MgRankOverview *overview, int process, gpointer user_data)
{
  MgWindow *self = user_data;

  if (self->profile != NULL && process >= 0)
    select_process (self, process);
}

static void
on_overview_destroyed (gpointer user_data, GObject *where_the_object_was)
{
  g_object_set_data (G_OBJECT (user_data), OVERVIEW_KEY, NULL);
}

/* "Rank Overview — CPU time": the window names its metric. */
static void
on_metric_changed (MgRankOverview *overview, GParamSpec *pspec, GtkWindow *window)
{
  MgProfile *profile = mg_rank_overview_get_profile (overview);
  const char *id = mg_rank_overview_get_metric_id (overview);
  int metric = profile != NULL && id != NULL ? mg_profile_find_metric (profile, id) : -1;
  const MgMetricDef *def = metric >= 0 ? mg_profile_get_metric (profile, (guint) metric) : NULL;
  g_autofree char *title = NULL;

  if (def == NULL)
    {
      gtk_window_set_title (window, _("Rank Overview"));
      return;
    }
  /* Translators: the rank overview window's title: the metric's name */
  title = g_strdup_printf (_("Rank Overview — %s"),
                           def->display_name != NULL ? def->display_name : def->id);
  gtk_window_set_title (window, title);
}

static GtkWindow *
new_overview_window (MgWindow *self)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *overview = mg_rank_overview_new (self->profile, self->view, NULL);

  gtk_window_set_title (GTK_WINDOW (window), _("Rank Overview"));
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 600);
  gtk_window_set_child (GTK_WINDOW (window), overview);
  g_signal_connect_object (overview, "process-activated", G_CALLBACK (on_process_activated), self,
                           0);
  g_signal_connect_object (overview, "notify::metric-id", G_CALLBACK (on_metric_changed), window,
                           0);
  on_metric_changed (MG_RANK_OVERVIEW (overview), NULL, GTK_WINDOW (window));
  g_object_set_data (G_OBJECT (self), OVERVIEW_KEY, window);
  g_object_weak_ref (G_OBJECT (window), on_overview_destroyed, self);
  return GTK_WINDOW (window);
}

static void
on_rank_overview (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  MgWindow *self = user_data;
  GtkWindow *window = g_object_get_data (G_OBJECT (self), OVERVIEW_KEY);
  const char *id = parameter != NULL ? g_variant_get_string (parameter, NULL) : "";

  if (self->profile == NULL)
    return;
  if (window == NULL)
    window = new_overview_window (self);
  mg_rank_overview_set_metric_id (MG_RANK_OVERVIEW (gtk_window_get_child (window)),
                                  id[0] != '\0' ? id : NULL);
  gtk_window_present (window);
}

/* A new profile in the viewer: the overview shows it; none: it closes. */
static void
on_profile_changed (MgWindow *self, GParamSpec *pspec, gpointer user_data)
{
  GtkWindow *window = g_object_get_data (G_OBJECT (self), OVERVIEW_KEY);
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "rank-overview");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->profile != NULL);
  if (window == NULL)
    return;
  if (self->profile == NULL)
    gtk_window_destroy (window);
  else
    mg_rank_overview_set_profile (MG_RANK_OVERVIEW (gtk_window_get_child (window)),
                                  self->profile);
}

static void
on_window_destroyed (MgWindow *self, gpointer user_data)
{
  GtkWindow *window = g_object_get_data (G_OBJECT (self), OVERVIEW_KEY);

  if (window != NULL)
    {
      g_object_weak_unref (G_OBJECT (window), on_overview_destroyed, self);
      g_object_set_data (G_OBJECT (self), OVERVIEW_KEY, NULL);
      gtk_window_destroy (window);
    }
}

static const GActionEntry entries[] = {
  { "rank-overview", on_rank_overview, "s", NULL, NULL, { 0 } },
};

void
mg_window_rank_overview_init (MgWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  g_signal_connect (self, "notify::profile", G_CALLBACK (on_profile_changed), NULL);
  g_signal_connect (self, "destroy", G_CALLBACK (on_window_destroyed), NULL);
  on_profile_changed (self, NULL, NULL);
}
