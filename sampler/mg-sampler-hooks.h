/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The seam between the allinea_* API implementation (sampler/api/) and the
 * sampler engine (sampler/): the engine implements these, the API calls them.
 * Unit tests of the API link their own implementations. libc only. */
#ifndef MG_SAMPLER_HOOKS_H
#define MG_SAMPLER_HOOKS_H

#include "allinea_metric_plugin_types.h"

/* A plugin error set (during initialise): keep code and message, disable the
 * plugin's metrics. message is already formatted. */
void mg_hook_plugin_error (plugin_id_t plugin, int code, const char *message);
/* A metric error (async-signal-safe): keep code, message, count, first and
 * last time. */
void mg_hook_metric_error (metric_id_t metric, int code, const char *message);
/* The metric's customData; "" when it has none or the id is unknown. */
const char *mg_hook_custom_data (metric_id_t metric);
/* The environment variable named by the metric's <configFile env="…"/>;
 * NULL when the metric id is unknown or declares no config file. */
const char *mg_hook_config_env (const char *metric_id);

#endif /* MG_SAMPLER_HOOKS_H */
