/* Plugin errors, metric errors and process events worth a look (a crash or
 * kill, recording stopped): counted for the banner and listed with process,
 * time, code and message. */
#pragma once

#include <gtk/gtk.h>

#include "mg-profile.h"

G_BEGIN_DECLS

/* Plugin errors + metric errors + signal / recording-stopped events. */
guint mg_error_list_count (MgProfile *profile);
/* Whether an event is marked on the timeline and listed as an error. */
gboolean mg_error_list_is_notable_event (const MgProcessEvent *event);
/* "Process 3 (rank 3) killed by signal 9 (Killed)" etc. */
char *mg_error_list_describe_event (MgProfile *profile, const MgProcessEvent *event);
GtkWidget *mg_error_list_new (MgProfile *profile);

G_END_DECLS
