/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stop a user asked for (Stop in the viewer, --stop-after), kept in
 * the profile as an event of the front end (process -1): a signal event
 * whose status is the signal Metrograph sent the program. A profile
 * opened later thus knows that the processes this ended were not
 * failures. It uses the events' existing members: no change of the
 * file's layout (docs/profile-format.md, member 12). GTK-free. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* The event saying the program was ended as asked @time_s seconds into
 * the run; its message is owned by the caller (g_free). */
MgProcessEvent mg_stop_event_make (double time_s);
/* TRUE when @event is such an event. */
gboolean mg_stop_event_is (const MgProcessEvent *event);
/* The profile's stop event, NULL when the run was not stopped as asked. */
const MgProcessEvent *mg_stop_event_find (MgProfile *profile);

G_END_DECLS
