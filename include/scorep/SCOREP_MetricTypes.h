/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugin interface, version 1: the enumerations and the
 * small structures a metric plugin exchanges with its host. Written for
 * Metrograph from the documented ABI (docs/scorep-plugins.md); a plugin
 * written for Score-P compiles against it unchanged, in C and in C++. */
#ifndef SCOREP_METRIC_TYPES_H
#define SCOREP_METRIC_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How many threads record a plugin's metrics. */
typedef enum SCOREP_MetricPer
{
  SCOREP_METRIC_PER_THREAD = 0,
  SCOREP_METRIC_PER_PROCESS = 1,
  SCOREP_METRIC_PER_HOST = 2,
  SCOREP_METRIC_ONCE = 3
} SCOREP_MetricPer;

/* When and through which callback the host reads the values. */
typedef enum SCOREP_MetricSynchronicity
{
  SCOREP_METRIC_STRICTLY_SYNC = 0,
  SCOREP_METRIC_SYNC = 1,
  SCOREP_METRIC_ASYNC_EVENT = 2,
  SCOREP_METRIC_ASYNC = 3
} SCOREP_MetricSynchronicity;

/* What synchronize() is told. */
typedef enum SCOREP_MetricSynchronizationMode
{
  SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN = 0,
  SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP = 1,
  SCOREP_METRIC_SYNCHRONIZATION_MODE_END = 2
} SCOREP_MetricSynchronizationMode;

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
  SCOREP_METRIC_MODE_RELATIVE_NEXT = 9
} SCOREP_MetricMode;

/* A value's type; INT64 and DOUBLE values travel as the bits of a
 * uint64_t. */
typedef enum SCOREP_MetricValueType
{
  SCOREP_METRIC_VALUE_INT64 = 0,
  SCOREP_METRIC_VALUE_UINT64 = 1,
  SCOREP_METRIC_VALUE_DOUBLE = 2
} SCOREP_MetricValueType;

/* The base of a metric's exponent: values are scaled by base^exponent. */
typedef enum SCOREP_MetricBase
{
  SCOREP_METRIC_BASE_BINARY = 0,
  SCOREP_METRIC_BASE_DECIMAL = 1
} SCOREP_MetricBase;

/* One value of an asynchronous metric and when it was taken (in the
 * ticks of the clock given to set_clock_function). */
typedef struct SCOREP_MetricTimeValuePair
{
  uint64_t timestamp;
  uint64_t value;
} SCOREP_MetricTimeValuePair;

#ifdef __cplusplus
}
#endif

#endif /* SCOREP_METRIC_TYPES_H */
