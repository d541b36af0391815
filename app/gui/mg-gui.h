/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The viewer's entry point: the metrograph executable calls this when no
 * command-line mode is asked for. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets up translations, runs the MgApplication with argv (profiles to open)
 * and returns its exit status. */
int mg_gui_run (int argc, char **argv);

G_END_DECLS
