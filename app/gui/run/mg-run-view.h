/* The live view of one run: what it is doing (elapsed time, processes,
 * samples so far), Stop and Cancel (actions run-view.stop and
 * run-view.cancel), the graph rows of every recorded metric grouped under
 * their metric groups as the viewer shows them (MgMetricRows), redrawn from
 * each live profile the session publishes, and the program's output (scrolling,
 * bounded to the session's last 2000 lines). */
#pragma once

#include <gtk/gtk.h>

#include "mg-run-session.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_VIEW (mg_run_view_get_type ())
G_DECLARE_FINAL_TYPE (MgRunView, mg_run_view, MG, RUN_VIEW, GtkWidget)

GtkWidget *mg_run_view_new (void);
void mg_run_view_set_session (MgRunView *self, MgRunSession *session);
MgRunSession *mg_run_view_get_session (MgRunView *self);

/* What is shown, for tests: visible graph rows (a metric in two groups
 * counts twice), the figures line, the output. */
guint mg_run_view_get_n_rows (MgRunView *self);
/* The visible group headers, top to bottom; collapsing a group by its
 * title (FALSE when there is none), which later updates keep. */
char **mg_run_view_dup_group_titles (MgRunView *self);
gboolean mg_run_view_set_group_expanded (MgRunView *self, const char *title, gboolean expanded);
gboolean mg_run_view_get_group_expanded (MgRunView *self, const char *title);
/* How many times the rows were rebuilt from a live profile. */
guint mg_run_view_get_n_updates (MgRunView *self);
const char *mg_run_view_get_figures (MgRunView *self);
char *mg_run_view_dup_output (MgRunView *self);

G_END_DECLS
