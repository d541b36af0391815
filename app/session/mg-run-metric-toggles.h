/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run settings' metric toggles seen metric by metric and group by group,
 * as the run dialog's checks show them. The settings keep the shortest
 * --enable-metrics / --disable-metrics lists that give the chosen states
 * (a group's id when all its switchable metrics go the same way). GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-run-catalogue.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

typedef enum {
  MG_TOGGLE_OFF,
  MG_TOGGLE_ON,
  MG_TOGGLE_MIXED,   /* a group with metrics in both states */
} MgToggleState;

/* Applied by mg_run_settings_apply_toggles () (mg-run-catalogue.h). */
/* TRUE when the user may switch the metric: available, neither "always" nor
 * "never". */
gboolean mg_run_metric_is_switchable (const MgCatalogueMetric *metric);

gboolean mg_run_settings_get_metric_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                             const char *metric_id);
void mg_run_settings_set_metric_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                         const char *metric_id, gboolean enabled);
/* Over the group's switchable members; OFF when it has none. */
MgToggleState mg_run_settings_get_group_state (MgRunSettings *self, MgCatalogue *catalogue,
                                               const char *group_id);
/* Switches every switchable member. */
void mg_run_settings_set_group_enabled (MgRunSettings *self, MgCatalogue *catalogue,
                                        const char *group_id, gboolean enabled);
/* Every metric back to its definition's default. */
void mg_run_settings_reset_toggles (MgRunSettings *self);

G_END_DECLS
