/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stop a user asked for, as an event of the front end. */
#include "mg-config.h"

#include <signal.h>

#include <glib/gi18n.h>

#include "mg-stop-event.h"

MgProcessEvent
mg_stop_event_make (double time_s)
{
  return (MgProcessEvent) {
    -1, time_s, MG_EVENT_SIGNAL, SIGTERM,
    g_strdup (_("Metrograph ended the program as asked (Stop or --stop-after): SIGTERM, then "
                "SIGKILL after the grace period."))
  };
}

gboolean
mg_stop_event_is (const MgProcessEvent *event)
{
  /* Only the front end sends signals to the program: a process's own
   * signal event always names its process. */
  return event->process < 0 && event->kind == MG_EVENT_SIGNAL;
}

const MgProcessEvent *
mg_stop_event_find (MgProfile *profile)
{
  g_return_val_if_fail (MG_IS_PROFILE (profile), NULL);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    if (mg_stop_event_is (mg_profile_get_event (profile, i)))
      return mg_profile_get_event (profile, i);
  return NULL;
}
