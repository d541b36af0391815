/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run details: the run's facts (command line, working folder, hosts,
 * processes, nodes, start in the locale's format, duration, sampling
 * interval, exit status), the single-value metrics and how each process
 * ended, as a GtkGrid of label pairs (name in column 0, value in column 1)
 * under headings that span both columns. The command is quoted as a shell
 * reads it back, with "mpirun -n N" when the run started its ranks with
 * -n, and a button named "copy-command" in column 2 copies it. Processes
 * that ended alike share a row ("ranks 0–63" = "64 processes exited with
 * status 0", mg-process-ends.h); the first MG_INFO_PANEL_PROCESSES_SHOWN
 * rows are listed at once; a last row says "and N more processes" with a
 * "Show All" button that lists the rest.
 * Last, what the program printed when the run captured it (a run from the
 * viewer): a monospaced GtkTextView named "output", after a note named
 * "output-cut" when its start was left out. */
#pragma once

#include <gtk/gtk.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

#define MG_INFO_PANEL_PROCESSES_SHOWN 256

GtkWidget *mg_info_panel_new (MgProfile *profile);

G_END_DECLS
