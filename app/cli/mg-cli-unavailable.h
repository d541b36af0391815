/* What a run could not measure on this machine: the plugins that declined
 * or failed to load, each named with a short reason taken from its own
 * message; and the metrics asked for with --enable-metrics among them. */
#pragma once

#include "mg-catalogue.h"
#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  char *source_id;
  char *library;
  char *message;       /* the plugin's own, in full */
  char *name;          /* "Energy": the message's "<Name>: " prefix, else the source id */
  char *reason;        /* "no RAPL": the message's first clause after the name */
  guint processes;     /* how many processes reported it */
} MgCliUnavailable;

void mg_cli_unavailable_free (MgCliUnavailable *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgCliUnavailable, mg_cli_unavailable_free)

/* Splits a plugin's message into a name (NULL without a "<Name>: " prefix)
 * and a short reason (docs/plugin-api.md, "Plugin errors"). */
void mg_cli_unavailable_split (const char *message, char **name, char **reason);

/* One entry per plugin (source) with an error in any process, in the
 * profile's order (MgCliUnavailable*, owned). */
GPtrArray *mg_cli_unavailable_collect (MgProfile *profile);

/* Checks that every id given to --enable-metrics got something: a metric,
 * or a group with one metric, that recorded no value because its plugin is
 * unavailable is said (one line each). Returns FALSE when one was. */
gboolean mg_cli_unavailable_check_enabled (MgProfile *profile, MgCatalogue *catalogue,
                                           const char *const *enable_ids);

G_END_DECLS
