/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The text of `metrograph --list-metrics`: every metric by group, then the
 * unavailable groups, then the definition problems. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-catalogue.h"

G_BEGIN_DECLS

char *mg_metrics_list_format (MgCatalogue *catalogue);

G_END_DECLS
