/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a run could not measure on this machine: the plugins that declined
 * (absent: error code 0) or failed to load, each named with a short reason
 * taken from its own message, and the metrics asked for that got nothing
 * for want of their plugin. Shared by the command line's summary and the
 * viewer. GTK-free. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  char *source_id;
  char *library;
  char *message;       /* the plugin's own, in full */
  char *name;          /* "Energy": the message's "<Name>: " prefix, else the display name
                        * of its metrics' group, else the source id */
  char *reason;        /* "no RAPL": the message's first clause after the name */
  guint processes;     /* how many processes reported it */
  guint failed_processes; /* of those, how many with a non-zero code */
} MgUnavailable;

void mg_unavailable_free (MgUnavailable *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgUnavailable, mg_unavailable_free)

/* Splits a plugin's message into a name (NULL without a "<Name>: " prefix)
 * and a short reason (docs/plugin-api.md, "Plugin errors"). */
void mg_unavailable_split (const char *message, char **name, char **reason);

/* One entry per plugin (source) with an error in any process, in the
 * profile's order (MgUnavailable*, owned). */
GPtrArray *mg_unavailable_collect (MgProfile *profile);

/* TRUE when every process that reported the plugin said it declined (error
 * code 0: nothing to measure here, docs/plugin-api.md), not that it failed. */
gboolean mg_unavailable_is_absent (const MgUnavailable *entry);
/* A plugin's error with code 0: it declined, nothing went wrong. */
gboolean mg_plugin_error_is_absence (const MgPluginError *error);

/* A metric or group asked for (--enable-metrics) that recorded nothing
 * because its plugin is unavailable on this machine. */
typedef struct {
  char *asked;         /* the id as it was given */
  char *message;       /* its plugin's message, in full */
} MgUnavailableAsked;

void mg_unavailable_asked_free (MgUnavailableAsked *asked);

/* Of @enable_ids (resolved in @catalogue), those that got nothing because
 * their plugin is unavailable: a metric with no value in @profile, or a
 * group whose every enabled metric has none (MgUnavailableAsked*, owned;
 * empty when everything asked for was measured). */
GPtrArray *mg_unavailable_find_asked (MgProfile *profile, MgCatalogue *catalogue,
                                      const char *const *enable_ids);

G_END_DECLS
