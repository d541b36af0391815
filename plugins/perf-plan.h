/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The customData of a plugin's own metrics, read from Metrograph's run plan
 * (docs/run-plan.md) at initialisation, so that the perf plugins can
 * translate symbolic event names there rather than at the first sample.
 * Initialisation only: uses stdio and malloc. */
#ifndef MG_PERF_PLAN_H
#define MG_PERF_PLAN_H

#include <stdbool.h>

typedef void (*MgPerfPlanFn) (const char *custom_data, void *user);

/* Calls fn with the customData of every metric line of the plan named by
 * $METROGRAPH_PLAN whose source line names library (compared as given and
 * after resolving links). Returns false when there is no plan to read
 * (another host than Metrograph's sampler, or an unreadable file). */
bool mg_perf_plan_custom_data (const char *library, MgPerfPlanFn fn, void *user);

#endif /* MG_PERF_PLAN_H */
