/* SPDX-License-Identifier: GPL-3.0-or-later */
// A Score-P metric plugin written in C++, as plugins built on C++ wrappers
// are: the header must compile unchanged as C++. STRICTLY_SYNC, PER_THREAD;
// token "cxx_level" gives one ABSOLUTE_POINT metric of value 42.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <scorep/SCOREP_MetricPlugins.h>

namespace {

class Plugin {
public:
  std::vector<std::string> metrics;

  // Never destroyed: finalize may come after the program's static
  // destructors (docs/scorep-plugins.md, limits).
  static Plugin &instance ()
  {
    static Plugin *plugin = new Plugin;
    return *plugin;
  }
};

int32_t initialize () { return 0; }
void finalize () { Plugin::instance ().metrics.clear (); }

SCOREP_Metric_Plugin_MetricProperties *get_event_info (char *token)
{
  auto *props = static_cast<SCOREP_Metric_Plugin_MetricProperties *> (
    std::calloc (2, sizeof (SCOREP_Metric_Plugin_MetricProperties)));
  if (std::string (token) == "cxx_level")
    {
      props[0].name = strdup ("cxx_level");
      props[0].description = strdup ("a constant from C++");
      props[0].unit = strdup ("u");
      props[0].mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT;
      props[0].value_type = SCOREP_METRIC_VALUE_UINT64;
      props[0].base = SCOREP_METRIC_BASE_DECIMAL;
    }
  return props;
}

int32_t add_counter (char *name)
{
  Plugin::instance ().metrics.emplace_back (name);
  return static_cast<int32_t> (Plugin::instance ().metrics.size () - 1);
}

uint64_t get_current_value (int32_t) { return 42; }

} // namespace

SCOREP_METRIC_PLUGIN_ENTRY (mgt_cxx)
{
  SCOREP_Metric_Plugin_Info info;
  std::memset (&info, 0, sizeof info);
  info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
  info.run_per = SCOREP_METRIC_PER_THREAD;
  info.sync = SCOREP_METRIC_STRICTLY_SYNC;
  info.initialize = initialize;
  info.finalize = finalize;
  info.get_event_info = get_event_info;
  info.add_counter = add_counter;
  info.get_current_value = get_current_value;
  return info;
}
