/* The Metrics menu: presets ("Preset: <group>", "All metrics"), a check
 * item per group and, per group, a submenu with a check item per metric;
 * groups without graphs listed insensitive with the reason. Every item
 * drives a window action of MgMetricVisibility ("win." prefix). */
#pragma once

#include <gio/gio.h>

#include "mg-metric-visibility.h"

G_BEGIN_DECLS

GMenuModel *mg_metrics_menu_new (MgMetricVisibility *visibility);

G_END_DECLS
