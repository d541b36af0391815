/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugins as metric definitions (docs/scorep-plugins.md):
 * each chosen plugin is listed by metrograph-scorep-probe in a short-lived
 * child (a plugin that crashes or hangs takes only the child down) and
 * becomes one definition file: a source scorep:<plugin>, a metric
 * scorep:<plugin>:<name> per metric its tokens give, and a group
 * scorep:<plugin> named after the plugin. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "defs/mg-catalogue.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

/* "scorep:" */
#define MG_SCOREP_ID_PREFIX "scorep:"

/* The plugins @settings choose (mg-scorep-selection.h), listed and added
 * to @catalogue; FALSE with the selection's error. */
gboolean mg_scorep_defs_add_to_catalogue (MgCatalogue *catalogue, MgRunSettings *settings,
                                          GError **error);

/* What a listing of @settings' plugins depends on (their names, tokens and
 * the run's environment) as one string, "" for none; NULL with the
 * selection's error. Equal keys give equal listings. */
char *mg_scorep_defs_get_key (MgRunSettings *settings, GError **error);

/* The plugins @settings choose, listed in a worker thread (each probe is a
 * child process of its own) so that a front end never waits for them. */
void mg_scorep_defs_list_async (MgRunSettings *settings, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data);
/* The files (MgDefinitionFile*, one per plugin, for
 * mg_scorep_defs_add_files) and the key they were listed for. */
GPtrArray *mg_scorep_defs_list_finish (GAsyncResult *result, char **key, GError **error);

/* Adds @files (taken) to @catalogue, each plugin that could not be listed
 * as an error in its diagnostics. */
void mg_scorep_defs_add_files (MgCatalogue *catalogue, GPtrArray *files);

G_END_DECLS
