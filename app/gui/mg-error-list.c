/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The errors list of the side panel. */
#include "mg-config.h"

#include <signal.h>

#include <glib/gi18n.h>

#include "mg-error-list.h"
#include "profile/mg-stop-event.h"
#include "profile/mg-unavailable.h"
#include "plot/mg-selection-stats.h"
#include "defs/mg-units.h"

/* Signals that mean the program itself failed, rather than something (a
 * user, the batch system, the out-of-memory killer) ending it. */
gboolean
mg_error_list_is_fault_signal (int signal)
{
  switch (signal)
    {
    case SIGSEGV:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGABRT:
    case SIGTRAP:
    case SIGSYS:
      return TRUE;
    default:
      return FALSE;
    }
}

MgEventMark
mg_error_list_classify_event (const MgProcessEvent *event)
{
  /* The front end's note that the user asked for the stop: no mark. */
  if (mg_stop_event_is (event))
    return MG_EVENT_MARK_NONE;
  switch (event->kind)
    {
    case MG_EVENT_SIGNAL:
      /* Status 0: no end was recorded (killed with SIGKILL, as a rule). */
      return mg_error_list_is_fault_signal (event->status) ? MG_EVENT_MARK_CRASHED : MG_EVENT_MARK_KILLED;
    case MG_EVENT_RECORDING_STOPPED:
    case MG_EVENT_PLUGIN_FAULT:
      return MG_EVENT_MARK_STOPPED;
    case MG_EVENT_START:
    case MG_EVENT_EXIT:
    case MG_EVENT_EXEC:
    default:
      return MG_EVENT_MARK_NONE;
    }
}

gboolean
mg_error_list_is_notable_event (const MgProcessEvent *event)
{
  return mg_error_list_classify_event (event) != MG_EVENT_MARK_NONE;
}

gboolean
mg_error_list_is_error_event (const MgProcessEvent *event, gboolean stop_asked)
{
  MgEventMark mark = mg_error_list_classify_event (event);

  /* Stop sends SIGTERM (SIGKILL after the grace period): what it ends is
   * what the user asked for. A crash meanwhile is still one. */
  return mark != MG_EVENT_MARK_NONE && !(stop_asked && mark == MG_EVENT_MARK_KILLED);
}

guint
mg_error_list_count (MgProfile *profile, gboolean stop_asked)
{
  guint count = mg_profile_get_n_metric_errors (profile);

  /* A plugin that declined (nothing to measure here) is no error: the run
   * details say what was not measured. */
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    count += !mg_plugin_error_is_absence (mg_profile_get_plugin_error (profile, i));
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    count += mg_error_list_is_error_event (mg_profile_get_event (profile, i), stop_asked);
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

  if (event->kind == MG_EVENT_PLUGIN_FAULT)
    /* Translators: a process, e.g. "rank 3", then the plugin and what happened to it, e.g.
     * "energy.src crashed in energy_value with SIGSEGV at sample 20; its metrics stop there" */
    return g_strdup_printf (_("%s: plugin %s"), who, event->message ? event->message : "?");
  switch (mg_error_list_classify_event (event))
    {
    case MG_EVENT_MARK_CRASHED:
      /* Translators: a process, e.g. "rank 3", then the signal's number and name */
      return g_strdup_printf (_("%s crashed: signal %d (%s)"), who, event->status,
                              g_strsignal (event->status));
    case MG_EVENT_MARK_KILLED:
      if (event->status > 0)
        /* Translators: a process, e.g. "rank 3", then the signal's number and name */
        return g_strdup_printf (_("%s killed by signal %d (%s)"), who, event->status,
                                g_strsignal (event->status));
      if (event->message == NULL)
        /* Translators: a process, e.g. "rank 3" */
        return g_strdup_printf (_("%s ended without a trace"), who);
      break;
    case MG_EVENT_MARK_STOPPED:
      /* Translators: a process, e.g. "rank 3", then why, e.g. "No space left on device" */
      return g_strdup_printf (_("%s stopped recording: %s"), who,
                              event->message ? event->message : _("no reason given"));
    case MG_EVENT_MARK_NONE:
    case MG_EVENT_MARK_N_KINDS:
    default:
      break;
    }
  /* Translators: a process, e.g. "rank 3", and what the profile says happened to it */
  return g_strdup_printf (_("%s: %s"), who, event->message ? event->message : "");
}

const char *
mg_error_list_describe_plugin_error_time (const MgPluginError *error)
{
  /* Translators: when a plugin error happened (the error list's "time") */
  return error->process >= 0 ? _("at initialisation") : _("when the profile was written");
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
    /* Translators: process, time, code: "rank 1 · 0.5 s · code 7" */
    headline = g_strdup_printf (_("%s · %s · code %d"), process, time, code);
  else
    /* Translators: process and time: "rank 1 · 0.5 s" */
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
mg_error_list_new (MgProfile *profile, gboolean stop_asked)
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

      if (!mg_error_list_is_error_event (event, stop_asked))
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
      const char *message = error->message ? error->message : "";
      g_autofree char *text = NULL;

      if (mg_plugin_error_is_absence (error))
        continue;
      if (error->source_id != NULL)
        /* Translators: the plugin's source id, its library, the message */
        text = g_strdup_printf (_("Plugin %s (%s): %s"), error->source_id,
                                error->library ? error->library : "", message);
      else
        /* Translators: a file (a damaged record of the run), then what is wrong with it */
        text = g_strdup_printf (_("%s: %s"), error->library ? error->library : "", message);

      add_entry (GTK_LIST_BOX (list), who, mg_error_list_describe_plugin_error_time (error),
                 error->code, text);
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
