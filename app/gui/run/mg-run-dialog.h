/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run dialog: the program, its arguments, working folder, environment,
 * MPI processes, sampling options, where the profile goes, and every metric
 * of the catalogue with a check (three-state per group); beneath, the exact
 * `metrograph --profile …` line, kept in step both ways. Problems show
 * beside their field. "Profile" (action run.start) starts an MgRunSession
 * and publishes it in the "session" property; whoever opened the dialog
 * shows the run (MgRunHost). The last command line started is remembered.
 *
 * Actions (group "run"): start, copy-command, choose-program, choose-folder,
 * choose-output, add-variable, reset-metrics. */
#pragma once

#include <gtk/gtk.h>

#include "defs/mg-catalogue.h"
#include "session/mg-run-session.h"
#include "session/mg-run-settings.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_DIALOG (mg_run_dialog_get_type ())
G_DECLARE_FINAL_TYPE (MgRunDialog, mg_run_dialog, MG, RUN_DIALOG, GtkWindow)

/* @catalogue NULL: the metrics on the default search path. @initial NULL:
 * the last settings started from this dialog (GSettings), if any. */
MgRunDialog *mg_run_dialog_new (GtkWindow *parent, MgCatalogue *catalogue,
                                MgRunSettings *initial);

MgRunSettings *mg_run_dialog_get_settings (MgRunDialog *self);
MgCatalogue *mg_run_dialog_get_catalogue (MgRunDialog *self);
/* The line shown under the fields. */
const char *mg_run_dialog_get_command_line (MgRunDialog *self);
/* As if typed or pasted into the command line field. */
void mg_run_dialog_set_command_line (MgRunDialog *self, const char *line);
/* What profile, recorded on this machine, says its plugins could not
 * measure here (the viewer's "Not measured here"): those metrics are
 * marked with the reason and unchecked. A profile from another host, or
 * NULL, changes nothing (FALSE). */
gboolean mg_run_dialog_learn_unavailable (MgRunDialog *self, MgProfile *profile);
/* The same without such a profile: from the host probe's (mg-host-probe.h),
 * when it comes (at once after the first). */
void mg_run_dialog_probe_unavailable (MgRunDialog *self);
/* Set once a run has started. */
MgRunSession *mg_run_dialog_get_session (MgRunDialog *self);

G_END_DECLS
