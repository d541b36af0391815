/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The application's run actions: app.profile opens the run dialog (Ctrl+R)
 * and app.run-again opens it with the settings of the profile or run shown
 * in the active window (Ctrl+Shift+R). A started run shows in the window
 * the dialog came from (MgRunHost), or in a new viewer window when that one
 * is busy with another run. */
#pragma once

#include <gtk/gtk.h>

#include "mg-run-dialog.h"

G_BEGIN_DECLS

/* Call from the application's startup, after its own actions: replaces
 * app.profile. */
void mg_run_actions_install (GtkApplication *app);

/* Opens the dialog over @parent (may be NULL). @initial (may be NULL: the
 * last settings) fills it; else the settings @profile (may be NULL) was
 * recorded with. */
MgRunDialog *mg_run_open_dialog (GtkWindow *parent, MgRunSettings *initial, MgProfile *profile);

G_END_DECLS
