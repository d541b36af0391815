/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Metrics menu: presets ("Preset: <group>", "All metrics"), a check
 * button per group (a custom item: the menu stays open while groups are
 * switched) and, per group, a submenu with a check item per metric;
 * groups without graphs listed at the end, each its name with the reason
 * wrapped beneath (custom items: mg_metrics_menu_add_widgets). Every other
 * item drives a window action of MgMetricVisibility ("win." prefix); names
 * from definition files are shown as written (no mnemonics). */
#pragma once

#include <gtk/gtk.h>

#include "mg-metric-visibility.h"

G_BEGIN_DECLS

GMenuModel *mg_metrics_menu_new (MgMetricVisibility *visibility);
/* Adds the groups' check buttons and the unavailable groups' items to the
 * popover showing that menu. */
void mg_metrics_menu_add_widgets (GtkPopoverMenu *popover, MgMetricVisibility *visibility);

G_END_DECLS
