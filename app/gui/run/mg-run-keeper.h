/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Keeps the application alive while a run started from it has not
 * finished: each watched session holds the application (g_application_hold)
 * until its state is DONE, FAILED or CANCELLED, so a window closed during a
 * run still lets the program be ended and reaped. Also lists the unfinished
 * runs (for quitting) and, as the last resort when the application ends
 * anyway, kills them. From the first run on, SIGTERM, SIGINT and SIGHUP
 * quit the application (g_application_quit) rather than end it where it
 * stands. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "session/mg-run-session.h"

G_BEGIN_DECLS

/* Watching a session twice is harmless. */
void mg_run_keeper_watch (GApplication *app, MgRunSession *session);
/* The unfinished sessions (MgRunSession*, referenced). */
GPtrArray *mg_run_keeper_dup_busy (GApplication *app);
/* mg_run_session_kill_now() on every unfinished session. */
void mg_run_keeper_kill_all (GApplication *app);

G_END_DECLS
