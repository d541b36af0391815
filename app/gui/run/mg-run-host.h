/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shows a run in a window in place of what it showed: the window's content
 * is kept on a "viewer" page beside a "run" page (MgRunView), under a
 * banner. When the run ends, a viewer window (MgWindow) opens the saved
 * profile and the banner says what went wrong, with "Run Again…"; a run
 * that saved nothing stays on the run page with the reason. Properties:
 * session, page ("viewer" or "run"), banner-text (NULL when hidden). */
#pragma once

#include <gtk/gtk.h>

#include "session/mg-run-session.h"
#include "mg-run-view.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_HOST (mg_run_host_get_type ())
G_DECLARE_FINAL_TYPE (MgRunHost, mg_run_host, MG, RUN_HOST, GObject)

/* The window's host, made (and owned by the window) on first use. */
MgRunHost *mg_run_host_get_for_window (GtkWindow *window);
/* NULL when the window never showed a run. */
MgRunHost *mg_run_host_peek (GtkWindow *window);

void mg_run_host_show_session (MgRunHost *self, MgRunSession *session);
MgRunSession *mg_run_host_get_session (MgRunHost *self);
/* TRUE while its session has not finished. */
gboolean mg_run_host_is_busy (MgRunHost *self);
const char *mg_run_host_get_page (MgRunHost *self);
const char *mg_run_host_get_banner_text (MgRunHost *self);
MgRunView *mg_run_host_get_view (MgRunHost *self);
/* The banner's "Run Again…" button. */
GtkWidget *mg_run_host_get_run_again_button (MgRunHost *self);

G_END_DECLS
