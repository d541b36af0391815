/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Uses every type, member, field and macro of <scorep/SCOREP_MetricTypes.h>
 * and <scorep/SCOREP_MetricPlugins.h>, with Score-P 7's values and layout,
 * as C (this file) and as C++ (header-complete.cpp includes it). Built with
 * -Wswitch-enum: a member missing from the header fails the build, one
 * with another value fails an assertion, and the program checks that every
 * switch names each member once. */
#include <scorep/SCOREP_MetricPlugins.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
#define MGT_ASSERT(x) static_assert (x, #x)
#else
#define MGT_ASSERT(x) _Static_assert (x, #x)
#endif

MGT_ASSERT (SCOREP_METRIC_PLUGIN_VERSION == 1);
MGT_ASSERT (SCOREP_METRIC_SOURCE_TYPE_PERF == 6 && SCOREP_INVALID_METRIC_SOURCE_TYPE == 7);
MGT_ASSERT (SCOREP_METRIC_PROFILING_TYPE_MIN == 4 && SCOREP_INVALID_METRIC_PROFILING_TYPE == 5);
MGT_ASSERT (SCOREP_METRIC_VALUE_DOUBLE == 2 && SCOREP_INVALID_METRIC_VALUE_TYPE == 3);
MGT_ASSERT (SCOREP_METRIC_MODE_RELATIVE_NEXT == 9 && SCOREP_INVALID_METRIC_MODE == 10);
MGT_ASSERT (SCOREP_METRIC_BASE_DECIMAL == 1 && SCOREP_INVALID_METRIC_BASE == 2);
MGT_ASSERT (SCOREP_METRIC_ONCE == 3 && SCOREP_METRIC_PER_MAX == 4);
MGT_ASSERT (SCOREP_METRIC_ASYNC == 3 && SCOREP_METRIC_SYNC_TYPE_MAX == 4);
MGT_ASSERT (SCOREP_METRIC_SYNCHRONIZATION_MODE_END == 2
            && SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX == 3);
#if defined(__x86_64__) || defined(__aarch64__)
/* Score-P's LP64 layout, field by field. */
MGT_ASSERT (sizeof (SCOREP_Metric_Plugin_Info) == 832);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, run_per) == 4);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, sync) == 8);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, delta_t) == 16);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, initialize) == 24);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, finalize) == 32);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, get_event_info) == 40);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, add_counter) == 48);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, get_current_value) == 56);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, get_optional_value) == 64);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, set_clock_function) == 72);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, get_all_values) == 80);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, synchronize) == 88);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_Info, reserved) == 96);
MGT_ASSERT (sizeof (((SCOREP_Metric_Plugin_Info *) 0)->reserved) == 92 * 8);
MGT_ASSERT (sizeof (SCOREP_Metric_Plugin_MetricProperties) == 48);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_MetricProperties, mode) == 16);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_MetricProperties, value_type) == 20);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_MetricProperties, base) == 24);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_MetricProperties, exponent) == 32);
MGT_ASSERT (offsetof (SCOREP_Metric_Plugin_MetricProperties, unit) == 40);
MGT_ASSERT (sizeof (SCOREP_Metric_Properties) == 56);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, source_type) == 16);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, mode) == 20);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, value_type) == 24);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, base) == 28);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, exponent) == 32);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, unit) == 40);
MGT_ASSERT (offsetof (SCOREP_Metric_Properties, profiling_type) == 48);
MGT_ASSERT (sizeof (SCOREP_MetricTimeValuePair) == 16);
#endif

/* Each returns the member's name: a missing case is a -Wswitch-enum
 * error, a duplicate value a compile error. */
#define MGT_NAME(x) \
  case x: \
    return #x

static const char *
source_type_name (SCOREP_MetricSourceType t)
{
  switch (t)
    {
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_PAPI);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_RUSAGE);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_USER);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_OTHER);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_TASK);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_PLUGIN);
      MGT_NAME (SCOREP_METRIC_SOURCE_TYPE_PERF);
      MGT_NAME (SCOREP_INVALID_METRIC_SOURCE_TYPE);
    }
  return NULL;
}

static const char *
profiling_type_name (SCOREP_MetricProfilingType t)
{
  switch (t)
    {
      MGT_NAME (SCOREP_METRIC_PROFILING_TYPE_EXCLUSIVE);
      MGT_NAME (SCOREP_METRIC_PROFILING_TYPE_INCLUSIVE);
      MGT_NAME (SCOREP_METRIC_PROFILING_TYPE_SIMPLE);
      MGT_NAME (SCOREP_METRIC_PROFILING_TYPE_MAX);
      MGT_NAME (SCOREP_METRIC_PROFILING_TYPE_MIN);
      MGT_NAME (SCOREP_INVALID_METRIC_PROFILING_TYPE);
    }
  return NULL;
}

static const char *
value_type_name (SCOREP_MetricValueType t)
{
  switch (t)
    {
      MGT_NAME (SCOREP_METRIC_VALUE_INT64);
      MGT_NAME (SCOREP_METRIC_VALUE_UINT64);
      MGT_NAME (SCOREP_METRIC_VALUE_DOUBLE);
      MGT_NAME (SCOREP_INVALID_METRIC_VALUE_TYPE);
    }
  return NULL;
}

static const char *
mode_name (SCOREP_MetricMode m)
{
  switch (m)
    {
      MGT_NAME (SCOREP_METRIC_MODE_ACCUMULATED_START);
      MGT_NAME (SCOREP_METRIC_MODE_ACCUMULATED_POINT);
      MGT_NAME (SCOREP_METRIC_MODE_ACCUMULATED_LAST);
      MGT_NAME (SCOREP_METRIC_MODE_ACCUMULATED_NEXT);
      MGT_NAME (SCOREP_METRIC_MODE_ABSOLUTE_POINT);
      MGT_NAME (SCOREP_METRIC_MODE_ABSOLUTE_LAST);
      MGT_NAME (SCOREP_METRIC_MODE_ABSOLUTE_NEXT);
      MGT_NAME (SCOREP_METRIC_MODE_RELATIVE_POINT);
      MGT_NAME (SCOREP_METRIC_MODE_RELATIVE_LAST);
      MGT_NAME (SCOREP_METRIC_MODE_RELATIVE_NEXT);
      MGT_NAME (SCOREP_INVALID_METRIC_MODE);
    }
  return NULL;
}

static const char *
base_name (SCOREP_MetricBase b)
{
  switch (b)
    {
      MGT_NAME (SCOREP_METRIC_BASE_BINARY);
      MGT_NAME (SCOREP_METRIC_BASE_DECIMAL);
      MGT_NAME (SCOREP_INVALID_METRIC_BASE);
    }
  return NULL;
}

static const char *
per_name (SCOREP_MetricPer p)
{
  switch (p)
    {
      MGT_NAME (SCOREP_METRIC_PER_THREAD);
      MGT_NAME (SCOREP_METRIC_PER_PROCESS);
      MGT_NAME (SCOREP_METRIC_PER_HOST);
      MGT_NAME (SCOREP_METRIC_ONCE);
      MGT_NAME (SCOREP_METRIC_PER_MAX);
    }
  return NULL;
}

static const char *
sync_name (SCOREP_MetricSynchronicity s)
{
  switch (s)
    {
      MGT_NAME (SCOREP_METRIC_STRICTLY_SYNC);
      MGT_NAME (SCOREP_METRIC_SYNC);
      MGT_NAME (SCOREP_METRIC_ASYNC_EVENT);
      MGT_NAME (SCOREP_METRIC_ASYNC);
      MGT_NAME (SCOREP_METRIC_SYNC_TYPE_MAX);
    }
  return NULL;
}

static const char *
sync_mode_name (SCOREP_MetricSynchronizationMode m)
{
  switch (m)
    {
      MGT_NAME (SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN);
      MGT_NAME (SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP);
      MGT_NAME (SCOREP_METRIC_SYNCHRONIZATION_MODE_END);
      MGT_NAME (SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX);
    }
  return NULL;
}

/* The callbacks, each of its field's type. */
static int32_t mgt_initialize (void) { return 0; }
static void mgt_finalize (void) {}
static SCOREP_Metric_Plugin_MetricProperties *mgt_get_event_info (char *token) { (void) token; return NULL; }
static int32_t mgt_add_counter (char *name) { (void) name; return 0; }
static uint64_t mgt_get_current_value (int32_t id) { return (uint64_t) id; }
static bool mgt_get_optional_value (int32_t id, uint64_t *v) { *v = (uint64_t) id; return true; }
static void mgt_set_clock_function (uint64_t (*clock_time) (void)) { (void) clock_time; }
static uint64_t mgt_get_all_values (int32_t id, SCOREP_MetricTimeValuePair **list) { (void) id; *list = NULL; return 0; }
static void mgt_synchronize (bool responsible, SCOREP_MetricSynchronizationMode mode) { (void) responsible; (void) mode; }

/* Score-P's EXTERN and the entry macro, as plugins write them. */
EXTERN int mgt_extern_linkage;
int mgt_extern_linkage = 1;

SCOREP_METRIC_PLUGIN_ENTRY (mgt_header)
{
  SCOREP_Metric_Plugin_Info info;
  memset (&info, 0, sizeof info);
  info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
  info.run_per = SCOREP_METRIC_PER_HOST;
  info.sync = SCOREP_METRIC_ASYNC;
  info.delta_t = UINT64_MAX;
  info.initialize = mgt_initialize;
  info.finalize = mgt_finalize;
  info.get_event_info = mgt_get_event_info;
  info.add_counter = mgt_add_counter;
  info.get_current_value = mgt_get_current_value;
  info.get_optional_value = mgt_get_optional_value;
  info.set_clock_function = mgt_set_clock_function;
  info.get_all_values = mgt_get_all_values;
  info.synchronize = mgt_synchronize;
  info.reserved[91] = 0;
  return info;
}

static int failures;

static void
expect (const char *got, const char *want)
{
  if (!got || strcmp (got, want) != 0)
    {
      fprintf (stderr, "expected %s, got %s\n", want, got ? got : "(none)");
      failures++;
    }
}

int
main (void)
{
  expect (source_type_name (SCOREP_METRIC_SOURCE_TYPE_PLUGIN), "SCOREP_METRIC_SOURCE_TYPE_PLUGIN");
  expect (profiling_type_name (SCOREP_METRIC_PROFILING_TYPE_SIMPLE),
          "SCOREP_METRIC_PROFILING_TYPE_SIMPLE");
  expect (value_type_name (SCOREP_INVALID_METRIC_VALUE_TYPE), "SCOREP_INVALID_METRIC_VALUE_TYPE");
  expect (mode_name (SCOREP_INVALID_METRIC_MODE), "SCOREP_INVALID_METRIC_MODE");
  expect (base_name (SCOREP_INVALID_METRIC_BASE), "SCOREP_INVALID_METRIC_BASE");
  expect (per_name (SCOREP_METRIC_PER_MAX), "SCOREP_METRIC_PER_MAX");
  expect (sync_name (SCOREP_METRIC_SYNC_TYPE_MAX), "SCOREP_METRIC_SYNC_TYPE_MAX");
  expect (sync_mode_name (SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX),
          "SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX");

  /* Every field of Score-P's own metric description. */
  SCOREP_Metric_Properties p;
  p.name = "power";
  p.description = "node power";
  p.source_type = SCOREP_METRIC_SOURCE_TYPE_PLUGIN;
  p.mode = SCOREP_METRIC_MODE_ABSOLUTE_LAST;
  p.value_type = SCOREP_METRIC_VALUE_DOUBLE;
  p.base = SCOREP_METRIC_BASE_DECIMAL;
  p.exponent = -3;
  p.unit = "W";
  p.profiling_type = SCOREP_METRIC_PROFILING_TYPE_MAX;
  expect (mode_name (p.mode), "SCOREP_METRIC_MODE_ABSOLUTE_LAST");
  expect (source_type_name (p.source_type), "SCOREP_METRIC_SOURCE_TYPE_PLUGIN");

  SCOREP_Metric_Plugin_MetricProperties mp;
  memset (&mp, 0, sizeof mp);
  mp.name = (char *) "energy";
  mp.description = (char *) "joules";
  mp.mode = SCOREP_METRIC_MODE_ACCUMULATED_START;
  mp.value_type = SCOREP_METRIC_VALUE_UINT64;
  mp.base = SCOREP_METRIC_BASE_BINARY;
  mp.exponent = 10;
  mp.unit = (char *) "J";
  expect (mp.unit, "J");

  SCOREP_MetricTimeValuePair pair;
  pair.timestamp = 1;
  pair.value = 2;

  SCOREP_Metric_Plugin_Info info = SCOREP_MetricPlugin_mgt_header_get_info ();
  SCOREP_MetricTimeValuePair *list = &pair;
  uint64_t v = 0;
  if (info.initialize () != 0 || info.get_event_info ((char *) "x") != NULL
      || info.add_counter ((char *) "x") != 0 || info.get_current_value (7) != 7
      || !info.get_optional_value (8, &v) || v != 8 || info.get_all_values (0, &list) != 0
      || list != NULL || pair.value != 2 || mgt_extern_linkage != 1)
    {
      fprintf (stderr, "the entry point's callbacks answered wrongly\n");
      failures++;
    }
  info.set_clock_function (NULL);
  info.synchronize (true, SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP);
  info.finalize ();
  expect (sync_name (info.sync), "SCOREP_METRIC_ASYNC");
  expect (per_name (info.run_per), "SCOREP_METRIC_PER_HOST");
  if (failures == 0)
    printf ("ok: every member, field and macro\n");
  return failures ? 1 : 0;
}
