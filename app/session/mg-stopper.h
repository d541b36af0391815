/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How a profiled program is ended when asked to (--stop-after, Stop in the
 * window, Cancel): SIGTERM to its process group (and SIGCONT, so that a
 * stopped program gets it), then SIGKILL after a grace period if it is
 * still running. A plain state machine on the monotonic clock, so that the
 * command line's wait loop (MgLauncher, poll) and the window's run session
 * (MgRunSession, main-loop timeouts) end programs the same way: each asks
 * for the next deadline, waits its own way, and calls mg_stopper_check ().
 * GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Seconds between SIGTERM and SIGKILL. */
#define MG_STOPPER_GRACE_S 5.0

typedef struct {
  int pgid;                    /* the program's process group, 0 before it started */
  double stop_after_s;         /* 0: no --stop-after */
  double grace_s;
  gint64 stop_at_us;           /* --stop-after's moment, 0: none (or passed) */
  gint64 kill_at_us;           /* SIGKILL then, 0: not terminating */
  gboolean terminated;         /* SIGTERM was sent */
  gboolean stopped_after;      /* ... because --stop-after's time came */
} MgStopper;

void mg_stopper_init (MgStopper *self, double stop_after_s, double grace_s);
/* The program (process group @pgid) started at @start_us. */
void mg_stopper_start (MgStopper *self, int pgid, gint64 start_us);
/* When mg_stopper_check () has something to do next; 0: nothing. */
gint64 mg_stopper_get_deadline (const MgStopper *self);
/* Does what is due at @now_us: SIGTERM when --stop-after's time came,
 * SIGKILL when the grace period is over. */
void mg_stopper_check (MgStopper *self, gint64 now_us);
/* Asked now (Stop, Cancel, a forwarded signal's equivalent): SIGTERM at
 * once, SIGKILL after the grace period. Only the first call counts. */
void mg_stopper_terminate (MgStopper *self, gint64 now_us);
/* The program ended: nothing more to do. */
void mg_stopper_finish (MgStopper *self);

G_END_DECLS
