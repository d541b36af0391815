/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the MAP custom metric plugin interface: the
 * functions a plugin library implements. */
#ifndef ALLINEA_METRIC_PLUGIN_TEMPLATE_H
#define ALLINEA_METRIC_PLUGIN_TEMPLATE_H

#include <stdint.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Called once when the library is loaded (either spelling is accepted).
 * Returns 0, or -1 after allinea_set_plugin_error_message(). */
int allinea_plugin_initialize(plugin_id_t plugin_id, void *data);
int allinea_plugin_initialise(plugin_id_t plugin_id, void *data);
/** Called once when the library is unloaded. */
int allinea_plugin_cleanup(plugin_id_t plugin_id, void *data);

/* The shapes of getters: implement functions of these signatures under names
 * of your own and name them in the metric definition file. Do not implement
 * these two names. Getters may run in a signal handler: async-signal-safe
 * calls only. */
int mymetric_getIntValue(metric_id_t id, struct timespec *currentSampleTime,
                         uint64_t *outValue);
int mymetric_getDoubleValue(metric_id_t id, struct timespec *currentSampleTime,
                            double *outValue);

/* The shapes of the optional <functions><start>/<stop> callbacks. */
int start_profiling(plugin_id_t plugin_id);
int stop_profiling(plugin_id_t plugin_id);

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_METRIC_PLUGIN_TEMPLATE_H */
