/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A thin strip above the time axis marking where processes crashed (a red
 * downward triangle), were killed or ended without a trace (a red cross) and
 * stopped recording (an amber square), at the same horizontal scale as the
 * graphs. Hovering a mark says which process, what happened and when; the
 * strip's accessible description lists every mark. */
#pragma once

#include <gtk/gtk.h>

#include "mg-error-list.h"
#include "profile/mg-profile.h"
#include "plot/mg-time-view.h"

G_BEGIN_DECLS

#define MG_TYPE_EVENT_STRIP (mg_event_strip_get_type ())
G_DECLARE_FINAL_TYPE (MgEventStrip, mg_event_strip, MG, EVENT_STRIP, GtkWidget)

GtkWidget *mg_event_strip_new (MgProfile *profile, MgTimeView *view);
/* How many marks it draws, of every kind. */
guint mg_event_strip_get_n_marks (MgEventStrip *self);
/* How many marks of one kind. */
guint mg_event_strip_count_marks (MgEventStrip *self, MgEventMark kind);
/* The tooltip's text at x (widget coordinates): one line per mark there,
 * NULL when there is none. */
char *mg_event_strip_describe_at (MgEventStrip *self, double x);

G_END_DECLS
