/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every metric, group and source found on the metrics search path, whether
 * each metric can be used, and which are enabled (defaults, then the user's
 * --enable-metrics / --disable-metrics). GTK-free. */
#pragma once

#include <glib-object.h>

#include "mg-definition-file.h"
#include "mg-diagnostic.h"
#include "mg-metric-def.h"
#include "mg-search-path.h"

G_BEGIN_DECLS

#define MG_CATALOGUE_ERROR (mg_catalogue_error_quark ())
GQuark mg_catalogue_error_quark (void);

typedef enum {
  MG_CATALOGUE_ERROR_UNKNOWN_ID,
  MG_CATALOGUE_ERROR_CONFLICT,     /* one id in both lists */
  MG_CATALOGUE_ERROR_ALWAYS,       /* disabling an "always" metric */
  MG_CATALOGUE_ERROR_NEVER,        /* enabling a "never" metric */
  MG_CATALOGUE_ERROR_UNAVAILABLE,  /* enabling a metric that cannot run here */
  MG_CATALOGUE_ERROR_AMBIGUOUS_ID, /* matches several ids that differ only in case */
} MgCatalogueError;

typedef struct {
  const MgMetricDef *def;
  const MgSourceDef *source;     /* NULL when its source is unknown */
  gboolean available;
  const char *unavailable_reason; /* NULL when available */
  gboolean default_on;           /* always/default_yes and available */
  gboolean enabled;              /* effective state */
} MgCatalogueMetric;

typedef struct {
  const MgMetricGroup *group;
  GPtrArray *members;            /* const MgCatalogueMetric*, refs that name a known metric */
  GPtrArray *missing_refs;       /* const char*, refs that name no known metric */
  gboolean available;            /* at least one member available */
  const char *unavailable_reason;
} MgCatalogueGroup;

#define MG_TYPE_CATALOGUE (mg_catalogue_get_type ())
G_DECLARE_FINAL_TYPE (MgCatalogue, mg_catalogue, MG, CATALOGUE, GObject)

MgCatalogue *mg_catalogue_new (void);
/* Loads every definition file on @path; problems become diagnostics. Call
 * once. */
void mg_catalogue_load (MgCatalogue *self, MgSearchPath *path);

/* Adds definitions made without a file on the search path (Score-P
 * plugins, app/session/mg-scorep-defs.h), after mg_catalogue_load (); takes
 * @file. Its sources come resolved: library_path set, or a reason in
 * scorep_error. Its groups may name only its own metrics or earlier ones. */
void mg_catalogue_add_file (MgCatalogue *self, MgDefinitionFile *file);
guint mg_catalogue_get_n_metrics (MgCatalogue *self);
const MgCatalogueMetric *mg_catalogue_get_metric (MgCatalogue *self, guint index);
const MgCatalogueMetric *mg_catalogue_lookup_metric (MgCatalogue *self, const char *id);
guint mg_catalogue_get_n_groups (MgCatalogue *self);
const MgCatalogueGroup *mg_catalogue_get_group (MgCatalogue *self, guint index);
const MgCatalogueGroup *mg_catalogue_lookup_group (MgCatalogue *self, const char *id);
/* const MgSourceDef*, owned by the catalogue, in load order. */
GPtrArray *mg_catalogue_get_sources (MgCatalogue *self);
/* MgDiagnostic*, owned by the catalogue, in the order found. */
GPtrArray *mg_catalogue_get_diagnostics (MgCatalogue *self);
guint mg_catalogue_count_diagnostics (MgCatalogue *self, MgSeverity severity);

/* Resets every metric to its default state, then applies the toggles. Ids
 * are metric ids or group ids (a group toggles its available members except
 * "always"/"never" ones), matched as mg_catalogue_resolve_id() does. On
 * error nothing changes. */
gboolean mg_catalogue_apply_toggles (MgCatalogue *self, const char *const *enable_ids,
                                     const char *const *disable_ids, GError **error);

/* The ids of --enable-metrics / --disable-metrics values: each value is
 * split at commas, blanks around ids are dropped, empty ids skipped. */
GStrv mg_catalogue_split_ids (const char *const *values);

/* Sources with at least one enabled metric, in load order (container only). */
GPtrArray *mg_catalogue_get_enabled_sources (MgCatalogue *self);
/* Enabled metrics (const MgCatalogueMetric*) of @source (container only). */
GPtrArray *mg_catalogue_get_enabled_metrics (MgCatalogue *self, const MgSourceDef *source);
/* Absolute preload paths of the enabled sources, without duplicates. */
GStrv mg_catalogue_get_preload_paths (MgCatalogue *self);
/* The known metric or group id @typed names: itself, else the one id equal
 * to it without regard to case ("IO" → "io"). Several such ids are an
 * ambiguity error listing them; none, an unknown-id error with the closest
 * ids. The result is owned by the catalogue. */
const char *mg_catalogue_resolve_id (MgCatalogue *self, const char *typed, GError **error);
/* Up to @max known metric and group ids closest to @id, best first. */
GStrv mg_catalogue_suggest_ids (MgCatalogue *self, const char *id, guint max);

G_END_DECLS
