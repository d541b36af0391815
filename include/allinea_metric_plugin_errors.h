/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the MAP custom metric plugin interface:
 * error reporting. */
#ifndef ALLINEA_METRIC_PLUGIN_ERRORS_H
#define ALLINEA_METRIC_PLUGIN_ERRORS_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "allinea_metric_plugin_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ALLINEA_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define ALLINEA_PRINTF_LIKE(f, a)
#endif

/** Reports that a plugin cannot provide its data. Call only from the
 * initialise function; the plugin's metrics are then disabled. */
void allinea_set_plugin_error_message(plugin_id_t plugin_id, int error_code,
                                      const char *error_message);
/** As allinea_set_plugin_error_message(), with printf-style substitution. */
void allinea_set_plugin_error_messagef(plugin_id_t plugin_id, int error_code,
                                       const char *error_message, ...)
    ALLINEA_PRINTF_LIKE(3, 4);
/** Reports that reading a metric failed. Async-signal-safe. */
void allinea_set_metric_error_message(metric_id_t metric_id, int error_code,
                                      const char *error_message);
/** As allinea_set_metric_error_message(), with printf-style substitution.
 * Async-signal-safe. */
void allinea_set_metric_error_messagef(metric_id_t metric_id, int error_code,
                                       const char *error_message, ...)
    ALLINEA_PRINTF_LIKE(3, 4);

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_METRIC_PLUGIN_ERRORS_H */
