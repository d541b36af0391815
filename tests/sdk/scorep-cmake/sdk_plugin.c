/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A Score-P metric plugin as public ones are written (built by the test's
 * CMake project): one SYNC metric, "answer", always 42; its synchronize
 * switches over every mode, SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX too, as
 * a public energy plugin does. */
#include <stdlib.h>
#include <string.h>

#include <scorep/SCOREP_MetricPlugins.h>

static int begun;

static int32_t
init (void)
{
  return 0;
}

static void
fini (void)
{
}

static SCOREP_Metric_Plugin_MetricProperties *
get_event_info (char *token)
{
  SCOREP_Metric_Plugin_MetricProperties *props = calloc (2, sizeof *props);
  if (props && strcmp (token, "answer") == 0)
    {
      props[0].name = strdup ("answer");
      props[0].description = strdup ("always 42");
      props[0].unit = strdup ("#");
      props[0].mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT;
      props[0].value_type = SCOREP_METRIC_VALUE_UINT64;
      props[0].base = SCOREP_METRIC_BASE_DECIMAL;
    }
  return props;
}

static int32_t
add_counter (char *name)
{
  return strcmp (name, "answer") == 0 ? 0 : -1;
}

static bool
get_optional_value (int32_t id, uint64_t *value)
{
  *value = 42;
  return id == 0;
}

static void
synchronize (bool is_responsible, SCOREP_MetricSynchronizationMode mode)
{
  switch (mode)
    {
    case SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN:
    case SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN_MPP:
      begun = is_responsible;
      break;
    case SCOREP_METRIC_SYNCHRONIZATION_MODE_END:
      begun = 0;
      break;
    case SCOREP_METRIC_SYNCHRONIZATION_MODE_MAX:
      break;
    }
}

SCOREP_METRIC_PLUGIN_ENTRY (sdk_plugin)
{
  SCOREP_Metric_Plugin_Info info;
  memset (&info, 0, sizeof info);
  info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
  info.run_per = SCOREP_METRIC_PER_PROCESS;
  info.sync = SCOREP_METRIC_SYNC;
  info.initialize = init;
  info.finalize = fini;
  info.get_event_info = get_event_info;
  info.add_counter = add_counter;
  info.get_optional_value = get_optional_value;
  info.synchronize = synchronize;
  return info;
}
