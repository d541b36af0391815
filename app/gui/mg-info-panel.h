/* The run details: the run's facts (command line, working folder, hosts,
 * processes, nodes, start, duration, sampling interval, exit statuses) and
 * the single-value metrics, as a vertical list of label pairs. */
#pragma once

#include <gtk/gtk.h>

#include "mg-profile.h"

G_BEGIN_DECLS

GtkWidget *mg_info_panel_new (MgProfile *profile);

G_END_DECLS
