/* A thin strip above the time axis marking where processes crashed, were
 * killed or stopped recording, at the same horizontal scale as the graphs.
 * Hovering a mark says which process and what happened. */
#pragma once

#include <gtk/gtk.h>

#include "mg-profile.h"
#include "mg-time-view.h"

G_BEGIN_DECLS

#define MG_TYPE_EVENT_STRIP (mg_event_strip_get_type ())
G_DECLARE_FINAL_TYPE (MgEventStrip, mg_event_strip, MG, EVENT_STRIP, GtkWidget)

GtkWidget *mg_event_strip_new (MgProfile *profile, MgTimeView *view);
/* How many marks it draws. */
guint mg_event_strip_get_n_marks (MgEventStrip *self);

G_END_DECLS
