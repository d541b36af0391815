/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live view of one run: what it is doing (elapsed time, processes,
 * samples so far), Stop and Cancel (actions run-view.stop and
 * run-view.cancel), the graph rows of every recorded metric grouped under
 * their metric groups as the viewer shows them (MgMetricRows), redrawn from
 * each live profile the session publishes, and the program's output (scrolling,
 * bounded to the session's last 2000 lines). */
#pragma once

#include <gtk/gtk.h>

#include "session/mg-run-session.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_VIEW (mg_run_view_get_type ())
G_DECLARE_FINAL_TYPE (MgRunView, mg_run_view, MG, RUN_VIEW, GtkWidget)

GtkWidget *mg_run_view_new (void);
void mg_run_view_set_session (MgRunView *self, MgRunSession *session);
MgRunSession *mg_run_view_get_session (MgRunView *self);

G_END_DECLS
