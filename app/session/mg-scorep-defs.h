/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugins as metric definitions (docs/scorep-plugins.md):
 * each chosen plugin is listed by metrograph-scorep-probe in a short-lived
 * child (a plugin that crashes or hangs takes only the child down) and
 * becomes one definition file: a source scorep:<plugin>, a metric
 * scorep:<plugin>:<name> per metric its tokens give, and a group
 * scorep:<plugin> named after the plugin. GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

/* "scorep:" */
#define MG_SCOREP_ID_PREFIX "scorep:"

/* Plugin @name listed with @tokens in @environment: always a file; when the
 * plugin cannot be listed its source carries the reason (scorep_error) and
 * an error is added to @diagnostics. */
MgDefinitionFile *mg_scorep_defs_probe (const char *name, const char *const *tokens,
                                        const char *const *environment,
                                        GPtrArray *diagnostics);

/* The plugins @settings choose (mg-scorep-selection.h), listed and added
 * to @catalogue; FALSE with the selection's error. */
gboolean mg_scorep_defs_add_to_catalogue (MgCatalogue *catalogue, MgRunSettings *settings,
                                          GError **error);

G_END_DECLS
