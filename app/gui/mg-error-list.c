/* The errors list of the side panel. */
#include "mg-config.h"

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "mg-selection-stats.h"
#include "mg-units.h"

gboolean
mg_error_list_is_notable_event (const MgProcessEvent *event)
{
  return event->kind == MG_EVENT_SIGNAL || event->kind == MG_EVENT_RECORDING_STOPPED;
}

guint
mg_error_list_count (MgProfile *profile)
{
  guint count = mg_profile_get_n_plugin_errors (profile) + mg_profile_get_n_metric_errors (profile);

  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    count += mg_error_list_is_notable_event (mg_profile_get_event (profile, i));
  return count;
}

static char *
describe_process (MgProfile *profile, int process)
{
  if (process < 0)
    return g_strdup (_("front end"));
  return mg_selection_stats_describe_process (profile, process);
}

char *
mg_error_list_describe_event (MgProfile *profile, const MgProcessEvent *event)
{
  g_autofree char *who = describe_process (profile, event->process);

  if (event->kind == MG_EVENT_SIGNAL)
    return g_strdup_printf (_("%s killed by signal %d (%s)"), who, event->status,
                            g_strsignal (event->status));
  if (event->kind == MG_EVENT_RECORDING_STOPPED)
    return g_strdup_printf (_("%s stopped recording: %s"), who,
                            event->message ? event->message : _("no reason given"));
  return g_strdup_printf ("%s: %s", who, event->message ? event->message : "");
}

/* One entry: a headline (process · time · code) above the message. */
static void
add_entry (GtkListBox *list, const char *process, const char *time, int code,
           const char *message)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *headline = NULL;
  GtkWidget *head, *body;

  if (code != 0)
    headline = g_strdup_printf (_("%s · %s · code %d"), process, time, code);
  else
    headline = g_strdup_printf (_("%s · %s"), process, time);
  head = gtk_label_new (headline);
  body = gtk_label_new (message);
  gtk_label_set_xalign (GTK_LABEL (head), 0);
  gtk_widget_add_css_class (head, "caption");
  gtk_widget_add_css_class (head, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (body), 0);
  gtk_label_set_wrap (GTK_LABEL (body), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (body), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (body), TRUE);
  gtk_box_append (GTK_BOX (box), head);
  gtk_box_append (GTK_BOX (box), body);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_list_box_append (list, box);
}

GtkWidget *
mg_error_list_new (MgProfile *profile)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_margin_start (list, 12);
  gtk_widget_set_margin_end (list, 12);
  gtk_widget_set_margin_bottom (list, 12);
  gtk_widget_set_valign (list, GTK_ALIGN_START);

  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *event = mg_profile_get_event (profile, i);
      g_autofree char *who = NULL, *time = NULL, *text = NULL;

      if (!mg_error_list_is_notable_event (event))
        continue;
      who = describe_process (profile, event->process);
      time = mg_units_format_time (event->time_s);
      text = mg_error_list_describe_event (profile, event);
      add_entry (GTK_LIST_BOX (list), who, time, 0, text);
    }
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    {
      const MgPluginError *error = mg_profile_get_plugin_error (profile, i);
      g_autofree char *who = describe_process (profile, error->process);
      g_autofree char *text = g_strdup_printf (_("Plugin %s (%s): %s"),
                                               error->source_id ? error->source_id : "",
                                               error->library ? error->library : "",
                                               error->message ? error->message : "");

      add_entry (GTK_LIST_BOX (list), who, _("start"), error->code, text);
    }
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *error = mg_profile_get_metric_error (profile, i);
      g_autofree char *who = describe_process (profile, error->process);
      g_autofree char *time = mg_units_format_time (error->first_s);
      g_autofree char *text = NULL;

      if (error->count > 1)
        text = g_strdup_printf (ngettext ("Metric %s: %s (%u time)", "Metric %s: %s (%u times)",
                                          error->count),
                                error->metric_id, error->message ? error->message : "",
                                error->count);
      else
        text = g_strdup_printf (_("Metric %s: %s"), error->metric_id,
                                error->message ? error->message : "");
      add_entry (GTK_LIST_BOX (list), who, time, error->code, text);
    }
  return list;
}
