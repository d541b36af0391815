/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Leaving while programs are being profiled: closing a window that shows a
 * run, or quitting the application (app.quit) with runs going, first asks
 * whether to stop them and keep their profiles, to discard them, or to
 * keep them running; then ends them as chosen and closes or quits only once
 * every program has ended and been reaped, so none is left behind. The
 * question is a modal message dialog whose responses are MgRunEndChoice. */
#pragma once

#include <gtk/gtk.h>

#include "session/mg-run-session.h"

G_BEGIN_DECLS

typedef enum {
  MG_RUN_END_KEEP_RUNNING = GTK_RESPONSE_CANCEL,
  MG_RUN_END_STOP_AND_SAVE = 1,
  MG_RUN_END_DISCARD = 2,
} MgRunEndChoice;

/* app.quit: quits at once when no run is going, else asks. */
void mg_run_end_quit (GtkApplication *app);
/* A quit signal (SIGTERM, SIGINT, SIGHUP): stops every run, as "Stop and
 * Keep Profile" does, and quits once their profiles are written (at once
 * when none is going), without asking: the records of a run are never
 * thrown away because its window's terminal closed. */
void mg_run_end_stop_and_quit (GApplication *app);
/* A window's close-request while session runs in it: asks, then destroys
 * the window once the run has ended (unless kept running). */
void mg_run_end_close_window (GtkWindow *window, MgRunSession *session);

G_END_DECLS
