/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the Linaro (Arm, Allinea) MAP custom metric
 * plugin API. Plugins written for MAP build against this header unmodified;
 * the symbols resolve from Metrograph's sampler when the plugin is loaded. */
#ifndef ALLINEA_METRIC_PLUGIN_API_H
#define ALLINEA_METRIC_PLUGIN_API_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"
#include "allinea_metric_plugin_errors.h"
#include "allinea_safe_malloc.h"
#include "allinea_safe_syscalls.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Logical CPUs known to the kernel (hyperthreads included); -1 if unknown. */
int allinea_get_logical_core_count(void);
/** Physical cores from the kernel's CPU topology; -1 if unknown. */
int allinea_get_physical_core_count(void);
/** Looks variable up in the configuration file named by the environment
 * variable that metricId's <configFile env="…"/> names. Not
 * async-signal-safe: call it from initialisation only.
 * Returns 0 found; -1 file name too long; -2 file does not exist;
 * -3 variable not found or badly declared. */
int allinea_read_config_file(const char *variable, const char *metricId,
                             char *value, int length);
/** The metric's customData attribute; "" when it has none. */
const char *allinea_get_custom_data(metric_id_t metricId);

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_METRIC_PLUGIN_API_H */
