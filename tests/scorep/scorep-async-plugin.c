/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An asynchronous Score-P metric plugin for the tests of when Metrograph
 * reads them (docs/scorep-plugins.md, Reads). Its own thread, started at
 * synchronize (BEGIN), takes a reading every MGT_PERIOD_NS: 1, 2, 3, …
 * (metric "reading", ABSOLUTE_POINT UINT64), as slow energy plugins do.
 *   MGT_STOP_AT_FIRST: at its first get_all_values it stops that thread and
 *     hands out every reading, as an ASYNC plugin's contract allows (Score-P
 *     asks once, at the very end).
 *   else: each get_all_values hands out the readings taken since the last.
 * MGT_SCOREP_LOG names a file that receives one line per call, and at
 * finalize "finalize calls=C readings=R at_end=E since_last_ns=D" (C
 * get_all_values calls, R readings taken, E of them before synchronize
 * (END), the last of those D ns before it: the host drops readings taken
 * after END, and the thread goes on until it is stopped). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <scorep/SCOREP_MetricPlugins.h>

#ifndef MGT_NAME
#error MGT_NAME and MGT_SYNC are set by meson.build
#endif
#define MGT_PERIOD_NS 100000000ull
enum { MAX_READINGS = 4096 };

static uint64_t (*now) (void);
static pthread_t thread;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool running;       /* the thread was started and not joined */
static bool stop;          /* under lock */
static SCOREP_MetricTimeValuePair readings[MAX_READINGS];
static uint64_t n_readings;  /* under lock */
static uint64_t handed_out;
static uint64_t at_end;          /* n_readings at synchronize (END) */
static uint64_t since_last_ns = UINT64_MAX; /* from reading at_end to END */
static unsigned calls;

static void
log_line (const char *line)
{
  const char *path = getenv ("MGT_SCOREP_LOG");
  if (!path)
    return;
  int fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  char buf[256];
  int n = snprintf (buf, sizeof buf, "%d %s\n", (int) getpid (), line);
  if (write (fd, buf, (size_t) n) < 0)
    { /* the test will notice */ }
  close (fd);
}

static void *
take_readings (void *data)
{
  (void) data;
  uint64_t next = now () + MGT_PERIOD_NS;
  for (;;)
    {
      uint64_t t = now ();
      if (t < next)
        {
          uint64_t wait = next - t;
          struct timespec ts = { (time_t) (wait / 1000000000u), (long) (wait % 1000000000u) };
          nanosleep (&ts, NULL);
          continue;
        }
      pthread_mutex_lock (&lock);
      bool done = stop || n_readings == MAX_READINGS;
      if (!done)
        {
          readings[n_readings].timestamp = t;
          readings[n_readings].value = n_readings + 1;
          n_readings++;
        }
      pthread_mutex_unlock (&lock);
      if (done)
        return NULL;
      next += MGT_PERIOD_NS;
    }
}

static void
stop_thread (void)
{
  if (!running)
    return;
  pthread_mutex_lock (&lock);
  stop = true;
  pthread_mutex_unlock (&lock);
  pthread_join (thread, NULL);
  running = false;
}

static void
set_clock (uint64_t (*clock_time) (void))
{
  now = clock_time;
}

static int32_t
initialize (void)
{
  log_line ("initialize");
  return now ? 0 : 1;
}

static void
finalize (void)
{
  stop_thread ();
  char line[128];
  snprintf (line, sizeof line, "finalize calls=%u readings=%llu at_end=%llu since_last_ns=%llu",
            calls, (unsigned long long) n_readings, (unsigned long long) at_end,
            (unsigned long long) since_last_ns);
  log_line (line);
}

static SCOREP_Metric_Plugin_MetricProperties *
get_event_info (char *token)
{
  SCOREP_Metric_Plugin_MetricProperties *props = calloc (2, sizeof *props);
  if (strcmp (token, "reading") != 0)
    return props;
  props[0].name = strdup ("reading");
  props[0].description = strdup ("1, 2, 3, … every 100 ms");
  props[0].unit = strdup ("#");
  props[0].mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT;
  props[0].value_type = SCOREP_METRIC_VALUE_UINT64;
  props[0].base = SCOREP_METRIC_BASE_DECIMAL;
  return props;
}

static int32_t
add_counter (char *name)
{
  log_line ("add_counter reading");
  return strcmp (name, "reading") == 0 ? 0 : -1;
}

static uint64_t
get_all_values (int32_t id, SCOREP_MetricTimeValuePair **list)
{
  (void) id;
  calls++;
  log_line ("get_all_values");
#ifdef MGT_STOP_AT_FIRST
  stop_thread ();
#endif
  pthread_mutex_lock (&lock);
  uint64_t n = n_readings - handed_out;
  *list = malloc ((n ? n : 1) * sizeof **list);
  memcpy (*list, readings + handed_out, n * sizeof **list);
  handed_out = n_readings;
  pthread_mutex_unlock (&lock);
  return n;
}

static void
synchronize (bool is_responsible, SCOREP_MetricSynchronizationMode mode)
{
  (void) is_responsible;
  /* First, as close to the host's END time as this plugin gets. */
  if (mode == SCOREP_METRIC_SYNCHRONIZATION_MODE_END)
    {
      pthread_mutex_lock (&lock);
      at_end = n_readings;
      if (at_end)
        since_last_ns = now () - readings[at_end - 1].timestamp;
      pthread_mutex_unlock (&lock);
    }
  log_line (mode == SCOREP_METRIC_SYNCHRONIZATION_MODE_END ? "synchronize end" : "synchronize begin");
  if (mode != SCOREP_METRIC_SYNCHRONIZATION_MODE_END && !running)
    running = pthread_create (&thread, NULL, take_readings, NULL) == 0;
}

#define MGT_ENTRY(name) SCOREP_METRIC_PLUGIN_ENTRY (name)
MGT_ENTRY (MGT_NAME)
{
  SCOREP_Metric_Plugin_Info info;
  memset (&info, 0, sizeof info);
  info.plugin_version = SCOREP_METRIC_PLUGIN_VERSION;
  info.run_per = SCOREP_METRIC_PER_PROCESS;
  info.sync = MGT_SYNC;
  info.initialize = initialize;
  info.finalize = finalize;
  info.get_event_info = get_event_info;
  info.add_counter = add_counter;
  info.set_clock_function = set_clock;
  info.get_all_values = get_all_values;
  info.synchronize = synchronize;
  return info;
}
