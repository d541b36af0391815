/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugin interface, version 1: the enumerations and the
 * small structures a metric plugin exchanges with its host. Written for
 * Metrograph from the documented ABI (docs/scorep-plugins.md); it declares
 * every type, member and field of Score-P 7's <scorep/SCOREP_MetricTypes.h>
 * with the same values and layout, so that a plugin written for Score-P
 * compiles against it unchanged, in C and in C++.
 *
 * The *_MAX and SCOREP_INVALID_* members are not values a plugin hands
 * out: Score-P marks the *_MAX ones NON-ABI (they count the members) and
 * uses the INVALID ones internally; plugins name them in switches and
 * checks, so they are here. */
#ifndef SCOREP_METRIC_TYPES_H
#define SCOREP_METRIC_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a metric comes from (Score-P's own definitions; a plugin's metrics
 * are PLUGIN). */
typedef enum SCOREP_MetricSourceType
{
  SCOREP_METRIC_SOURCE_TYPE_PAPI = 0,
  SCOREP_METRIC_SOURCE_TYPE_RUSAGE = 1,
  SCOREP_METRIC_SOURCE_TYPE_USER = 2,
  SCOREP_METRIC_SOURCE_TYPE_OTHER = 3,
  SCOREP_METRIC_SOURCE_TYPE_TASK = 4,
  SCOREP_METRIC_SOURCE_TYPE_PLUGIN = 5,
  SCOREP_METRIC_SOURCE_TYPE_PERF = 6,
  SCOREP_INVALID_METRIC_SOURCE_TYPE = 7
} SCOREP_MetricSourceType;

/* How a profile sums a metric over the call tree. */
typedef enum SCOREP_MetricProfilingType
{
  SCOREP_METRIC_PROFILING_TYPE_EXCLUSIVE = 0,
  SCOREP_METRIC_PROFILING_TYPE_INCLUSIVE = 1,
  SCOREP_METRIC_PROFILING_TYPE_SIMPLE = 2,
  SCOREP_METRIC_PROFILING_TYPE_MAX = 3,
  SCOREP_METRIC_PROFILING_TYPE_MIN = 4,
  SCOREP_INVALID_METRIC_PROFILING_TYPE = 5
} SCOREP_MetricProfilingType;

/* A value's type; INT64 and DOUBLE values travel as the bits of a
 * uint64_t. */
typedef enum SCOREP_MetricValueType
{
  SCOREP_METRIC_VALUE_INT64 = 0,
  SCOREP_METRIC_VALUE_UINT64 = 1,
  SCOREP_METRIC_VALUE_DOUBLE = 2,
  SCOREP_INVALID_METRIC_VALUE_TYPE = 3
} SCOREP_MetricValueType;

/* How a value relates to time: a running total (ACCUMULATED), a level
 * (ABSOLUTE) or a value since the previous one (RELATIVE), each at the
 * moment of reading (POINT), for the time before it (LAST), after it
 * (NEXT) or since the start (START). */
typedef enum SCOREP_MetricMode
{
  SCOREP_METRIC_MODE_ACCUMULATED_START = 0,
  SCOREP_METRIC_MODE_ACCUMULATED_POINT = 1,
  SCOREP_METRIC_MODE_ACCUMULATED_LAST = 2,
  SCOREP_METRIC_MODE_ACCUMULATED_NEXT = 3,
  SCOREP_METRIC_MODE_ABSOLUTE_POINT = 4,
  SCOREP_METRIC_MODE_ABSOLUTE_LAST = 5,
  SCOREP_METRIC_MODE_ABSOLUTE_NEXT = 6,
  SCOREP_METRIC_MODE_RELATIVE_POINT = 7,
  SCOREP_METRIC_MODE_RELATIVE_LAST = 8,
  SCOREP_METRIC_MODE_RELATIVE_NEXT = 9,
  SCOREP_INVALID_METRIC_MODE = 10
} SCOREP_MetricMode;

/* The base of a metric's exponent: values are scaled by base^exponent. */
typedef enum SCOREP_MetricBase
{
  SCOREP_METRIC_BASE_BINARY = 0,
  SCOREP_METRIC_BASE_DECIMAL = 1,
  SCOREP_INVALID_METRIC_BASE = 2
} SCOREP_MetricBase;

/* A metric as Score-P defines it for itself (the plugin's own description
 * is SCOREP_Metric_Plugin_MetricProperties); plugins that also feed
 * Score-P's substrates use it. Metrograph's host does not read it. */
typedef struct SCOREP_Metric_Properties
{
  const char *name;
  const char *description;
  SCOREP_MetricSourceType source_type;
  SCOREP_MetricMode mode;
  SCOREP_MetricValueType value_type;
  SCOREP_MetricBase base;
  int64_t exponent;
  const char *unit;
  SCOREP_MetricProfilingType profiling_type;
} SCOREP_Metric_Properties;

/* How many threads record a plugin's metrics. */
typedef enum SCOREP_MetricPer
{
  SCOREP_METRIC_PER_THREAD = 0,
  SCOREP_METRIC_PER_PROCESS = 1,
  SCOREP_METRIC_PER_HOST = 2,
  SCOREP_METRIC_ONCE = 3,
  SCOREP_METRIC_PER_MAX = 4 /* NON-ABI: the number of the above */
} SCOREP_MetricPer;

/* When and through which callback the host reads the values. */
typedef enum SCOREP_MetricSynchronicity
{
  SCOREP_METRIC_STRICTLY_SYNC = 0,
  SCOREP_METRIC_SYNC = 1,
  SCOREP_METRIC_ASYNC_EVENT = 2,
  SCOREP_METRIC_ASYNC = 3,
  SCOREP_METRIC_SYNC_TYPE_MAX = 4 /* NON-ABI: the number of the above */
} SCOREP_MetricSynchronicity;

/* One value of an asynchronous metric and when it was taken (in the
 * ticks of the clock given to set_clock_function). */
typedef struct SCOREP_MetricTimeValuePair
{
  uint64_t timestamp;
  uint64_t value;
} SCOREP_MetricTimeValuePair;

/* What synchronize() is told. */
typedef enum SCOREP_MetricSynchronizationMode
{
  SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN = 0,
  SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP = 1,
  SCOREP_METRIC_SYNCHRONIZATION_MODE_END = 2,
  SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX = 3 /* NON-ABI: the number of the above */
} SCOREP_MetricSynchronizationMode;

#ifdef __cplusplus
}
#endif

#endif /* SCOREP_METRIC_TYPES_H */
