/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Plugin errors, metric errors and process events worth a look (a crash or
 * kill, recording stopped): counted for the banner and listed with process,
 * time, code and message. */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* What an event is marked as on the timeline (mg-event-strip.h). */
typedef enum {
  MG_EVENT_MARK_NONE,     /* not notable: start, exit, exec */
  MG_EVENT_MARK_CRASHED,  /* ended by a fault signal: SEGV, BUS, FPE, ILL, ABRT, TRAP, SYS */
  MG_EVENT_MARK_KILLED,   /* ended by any other signal, or without a trace */
  MG_EVENT_MARK_STOPPED,  /* recording stopped (the process may have gone on) */
  MG_EVENT_MARK_N_KINDS
} MgEventMark;

/* Plugin errors + metric errors + crash / kill / recording-stopped events;
 * not the plugins that declined (error code 0: absent here,
 * mg-unavailable.h), which the run details list instead. With @stop_asked
 * (the run was stopped by Stop or Stop after), a process killed by a
 * signal other than a fault is that stop, no error. The errors banner
 * shows this count and the list below lists exactly these. */
guint mg_error_list_count (MgProfile *profile, gboolean stop_asked);
/* SEGV, BUS, FPE, ILL, ABRT, TRAP, SYS: the program failed (a crash), rather
 * than something ending it. */
gboolean mg_error_list_is_fault_signal (int signal);
MgEventMark mg_error_list_classify_event (const MgProcessEvent *event);
/* Whether an event is marked on the timeline and listed as an error. */
gboolean mg_error_list_is_notable_event (const MgProcessEvent *event);
/* Whether a notable event is an error, counted and listed: not the kill
 * of a stop the user asked for (@stop_asked). */
gboolean mg_error_list_is_error_event (const MgProcessEvent *event, gboolean stop_asked);
/* "rank 3 crashed: signal 11 (Segmentation fault)" etc. */
char *mg_error_list_describe_event (MgProfile *profile, const MgProcessEvent *event);
/* When a plugin error happened, as the list shows it: the profile keeps no
 * time for them; a process's plugins fail while it initialises its sampler,
 * and the front end's errors (a damaged record) come from the merge. */
const char *mg_error_list_describe_plugin_error_time (const MgPluginError *error);
/* A GtkListBox, one row per item counted above, in this order: notable
 * events, plugin errors, metric errors. Each row holds a headline label ("rank 1 · 0.5 s ·
 * code 7") above the message label. */
GtkWidget *mg_error_list_new (MgProfile *profile, gboolean stop_asked);

G_END_DECLS
