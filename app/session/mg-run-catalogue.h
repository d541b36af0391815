/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one way a catalogue is loaded for run settings: by the command line
 * (--profile, --list-metrics), by recovery and by the run dialog. A run's
 * catalogue is loaded and its toggles applied in one call,
 * mg_run_catalogue_for_run (), once per run: the assembly takes it as it
 * is. GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_RUN_CATALOGUE_ERROR (mg_run_catalogue_error_quark ())
GQuark mg_run_catalogue_error_quark (void);

typedef enum {
  MG_RUN_CATALOGUE_ERROR_NO_FOLDER, /* a --metrics-path folder does not exist */
} MgRunCatalogueError;

/* The definition files of @metrics_path's folders, then the usual ones
 * (MgSearchPath), without Score-P plugins: what the run dialog starts
 * from. */
MgCatalogue *mg_run_catalogue_load_definitions (const char *const *metrics_path);

/* The catalogue a run with @settings uses: every --metrics-path folder must
 * exist; their definitions, the usual ones, then the Score-P plugins the
 * settings select (each listed by a child process). NULL with
 * MG_RUN_CATALOGUE_ERROR or the Score-P selection's error. */
MgCatalogue *mg_run_catalogue_load (MgRunSettings *settings, GError **error);

/* Applies the settings' toggles to @catalogue (its metrics' "enabled");
 * FALSE with MG_CATALOGUE_ERROR when an id is unknown or they conflict. */
gboolean mg_run_settings_apply_toggles (MgRunSettings *self, MgCatalogue *catalogue,
                                        GError **error);

/* The catalogue of a run with @settings: @catalogue (a reference), or when
 * NULL the one mg_run_catalogue_load () gives, with the settings' toggles
 * applied. NULL with the load's error or MG_CATALOGUE_ERROR (the toggles). */
MgCatalogue *mg_run_catalogue_for_run (MgRunSettings *settings, MgCatalogue *catalogue,
                                       GError **error);

G_END_DECLS
