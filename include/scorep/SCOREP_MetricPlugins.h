/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugin interface, version 1: what a metric plugin library
 * exports. Written for Metrograph from the documented ABI
 * (docs/scorep-plugins.md); it declares every type, field and macro of
 * Score-P 7's <scorep/SCOREP_MetricPlugins.h> (the interface unchanged
 * since version 1 added synchronize), with the same layout: 832 bytes of
 * SCOREP_Metric_Plugin_Info on LP64. A plugin written for Score-P compiles
 * against it unchanged, in C and in C++.
 *
 * A plugin lib<NAME>.so exports SCOREP_MetricPlugin_<NAME>_get_info, which
 * returns a SCOREP_Metric_Plugin_Info by value; write it with
 * SCOREP_METRIC_PLUGIN_ENTRY (NAME). Metrograph's clock (set_clock_function)
 * counts nanoseconds of the monotonic clock. */
#ifndef SCOREP_METRIC_PLUGINS_H
#define SCOREP_METRIC_PLUGINS_H

#include <stdbool.h>
#include <stdint.h>

#include <scorep/SCOREP_MetricTypes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The interface version this header describes; a plugin sets
 * plugin_version to it. */
#define SCOREP_METRIC_PLUGIN_VERSION 1

/* One metric a token stands for. get_event_info returns an array of them
 * ending with an entry whose name is NULL; the array and its strings come
 * from malloc and the host frees them. */
typedef struct SCOREP_Metric_Plugin_MetricProperties
{
  char *name;
  char *description;
  SCOREP_MetricMode mode;
  SCOREP_MetricValueType value_type;
  SCOREP_MetricBase base;
  int64_t exponent;
  char *unit;
} SCOREP_Metric_Plugin_MetricProperties;

/* What a plugin is and the functions the host calls; fields a plugin does
 * not use are zero. */
typedef struct SCOREP_Metric_Plugin_Info
{
  uint32_t plugin_version;
  SCOREP_MetricPer run_per;
  SCOREP_MetricSynchronicity sync;
  /* The least time between two reads of a SYNC plugin, in clock ticks. */
  uint64_t delta_t;

  /* 0 when the plugin can run here. */
  int32_t (*initialize) (void);
  void (*finalize) (void);
  /* The metrics one token stands for (see above). */
  SCOREP_Metric_Plugin_MetricProperties *(*get_event_info) (char *token);
  /* A non-negative id for the metric called metric_name, or a negative
   * number when it cannot be recorded. */
  int32_t (*add_counter) (char *metric_name);
  /* STRICTLY_SYNC: the value now. */
  uint64_t (*get_current_value) (int32_t id);
  /* SYNC: true with *value set, or false when there is none now. */
  bool (*get_optional_value) (int32_t id, uint64_t *value);
  /* Called before initialize with the host's clock. */
  void (*set_clock_function) (uint64_t (*clock_time) (void));
  /* ASYNC_EVENT, ASYNC: the values taken so far, as a malloc'd list the
   * host frees; returns its length. */
  uint64_t (*get_all_values) (int32_t id, SCOREP_MetricTimeValuePair **time_value_list);
  /* Version 1: the measurement begins (BEGIN, BEGIN_MPP) or ends (END). */
  void (*synchronize) (bool is_responsible, SCOREP_MetricSynchronizationMode sync_mode);

  uint64_t reserved[92];
} SCOREP_Metric_Plugin_Info;

#ifdef __cplusplus
#define SCOREP_METRIC_PLUGIN_LINKAGE extern "C"
#else
#define SCOREP_METRIC_PLUGIN_LINKAGE extern
#endif

/* Score-P's header defines EXTERN as the entry point's linkage, and some
 * plugins write their own declarations with it; kept unless the plugin
 * has its own. */
#ifndef EXTERN
#define EXTERN SCOREP_METRIC_PLUGIN_LINKAGE
#endif

#define SCOREP_METRIC_PLUGIN_ENTRY_DECLARATION(name) \
  SCOREP_METRIC_PLUGIN_LINKAGE __attribute__((visibility("default"))) \
  SCOREP_Metric_Plugin_Info SCOREP_MetricPlugin_##name##_get_info (void)

/* Starts the definition of the plugin's entry point,
 * SCOREP_MetricPlugin_<name>_get_info (declared first, so that plugins
 * build with -Wmissing-prototypes); its body follows. */
#define SCOREP_METRIC_PLUGIN_ENTRY(name) \
  SCOREP_METRIC_PLUGIN_ENTRY_DECLARATION (name); \
  SCOREP_METRIC_PLUGIN_ENTRY_DECLARATION (name)

#ifdef __cplusplus
}
#endif

#endif /* SCOREP_METRIC_PLUGINS_H */
