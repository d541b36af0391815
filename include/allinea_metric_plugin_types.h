/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metrograph implementation of the Linaro (Arm, Allinea) MAP custom metric
 * plugin interface: types. Written from the public interface description. */
#ifndef ALLINEA_METRIC_PLUGIN_TYPES_H
#define ALLINEA_METRIC_PLUGIN_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque handle to a metric plugin library, given to its init function. */
typedef uintptr_t plugin_id_t;
/** Opaque handle to a metric, given to its getter. */
typedef uintptr_t metric_id_t;

#ifdef __cplusplus
}
#endif

#endif /* ALLINEA_METRIC_PLUGIN_TYPES_H */
