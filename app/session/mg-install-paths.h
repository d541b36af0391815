/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where the sampler, the viewer module, the built-in metric definitions and
 * the report's built-in sections live: in the build folder when the running
 * executable was built there (developers, tests), else in the installed
 * locations.
 * GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when /proc/self/exe lies under the build folder (MG_BUILD_ROOT). */
gboolean mg_install_paths_in_build_tree (void);
/* Absolute path of libmetrograph-sampler.so (it may not exist). */
char *mg_install_paths_get_sampler (void);
/* Absolute path of the metrograph program (its --merge-node runs on each
 * node at MPI_Finalize). */
char *mg_install_paths_get_metrograph (void);
/* Absolute path of libmetrograph-gui.so, the viewer (it may not exist). */
char *mg_install_paths_get_gui_module (void);
/* Absolute path of metrograph-scorep-probe, which lists a Score-P plugin's
 * metrics. */
char *mg_install_paths_get_scorep_probe (void);
/* Absolute path of the built-in metric definitions folder. */
char *mg_install_paths_get_metrics_dir (void);
/* Absolute path of the report's built-in sections (partial report files). */
char *mg_install_paths_get_reports_dir (void);

G_END_DECLS
