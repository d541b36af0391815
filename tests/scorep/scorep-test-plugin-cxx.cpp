/* SPDX-License-Identifier: GPL-3.0-or-later */
// A Score-P metric plugin written in C++, as plugins built on C++ wrappers
// are: the header must compile unchanged as C++. STRICTLY_SYNC, PER_THREAD;
// token "cxx_level" gives one ABSOLUTE_POINT metric of value 42.
//
// Its state is in function-local statics, as C++ plugins keep theirs: one
// made in add_counter (while the plugin starts), one made by the first read
// (on the sampler's thread, after the start). Their destructors are
// registered with __cxa_atexit when they are made; finalize uses both. With
// MGT_SCOREP_LOG set, add_counter logs "add_counter NAME", finalize logs whether they were still alive
// ("finalize alive" or "finalize destroyed") and each destructor logs
// "destroyed NAME", so a test sees the order at exit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

#include <scorep/SCOREP_MetricPlugins.h>

namespace {

void log_line (const std::string &line)
{
  const char *path = std::getenv ("MGT_SCOREP_LOG");
  if (!path)
    return;
  int fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  std::string text = std::to_string (getpid ()) + " " + line + "\n";
  if (write (fd, text.data (), text.size ()) < 0)
    { /* the test will notice */ }
  close (fd);
}

struct Tracked {
  const char *name;
  bool alive = true;
  std::vector<std::string> metrics;

  explicit Tracked (const char *n) : name (n) {}
  ~Tracked ()
  {
    alive = false;
    log_line (std::string ("destroyed ") + name);
  }
};

Tracked &counters ()
{
  static Tracked made_at_start ("counters");
  return made_at_start;
}

Tracked &reads ()
{
  static Tracked made_by_first_read ("reads");
  return made_by_first_read;
}

int32_t initialize () { return 0; }

void finalize ()
{
  // Reads the flags only: after a destructor they would be all that is
  // left to read, which is what the test checks.
  bool alive = counters ().alive && reads ().alive;
  log_line (alive ? "finalize alive" : "finalize destroyed");
  if (alive)
    counters ().metrics.clear ();
}

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

// More exit handlers than the sampler's static table of wrapped ones holds
// (256): the last registered runs first, and must come after finalize too.
enum { N_EXTRA_HANDLERS = 300 };

void extra_handler ()
{
  static bool logged;
  if (!logged)
    log_line ("destroyed extra");
  logged = true;
}

int32_t add_counter (char *name)
{
  log_line (std::string ("add_counter ") + name);
  for (int i = 0; i < N_EXTRA_HANDLERS; i++)
    std::atexit (extra_handler);
  counters ().metrics.emplace_back (name);
  return static_cast<int32_t> (counters ().metrics.size () - 1);
}

uint64_t get_current_value (int32_t)
{
  reads ();
  return 42;
}

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
