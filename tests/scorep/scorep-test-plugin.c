/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A Score-P metric plugin for the tests, built once per run_per × sync
 * combination and fault (meson.build passes the macros below). Its values
 * are known functions of the clock Metrograph gives it, so tests can check
 * them:
 *   counter   ACCUMULATED_START UINT64  ms since synchronize (BEGIN): 1000/s
 *   level     ABSOLUTE_POINT    DOUBLE  2.5
 *   negative  ABSOLUTE_POINT    INT64   -7
 *   scaled    ABSOLUTE_LAST     UINT64  3, base 2, exponent 10: 3072
 *   relative  RELATIVE_POINT    UINT64  5
 *   wild*     ABSOLUTE_NEXT     UINT64  wild_a 1, wild_b 2 (a wildcard)
 *   refused   ABSOLUTE_POINT    UINT64  add_counter refuses it
 *   sometimes ABSOLUTE_POINT    UINT64  9, SYNC: every other read only
 * Asynchronous values are taken every MGT_STEP_NS (on demand, no thread).
 * MGT_SCOREP_INIT_FAIL=1 makes initialize fail; MGT_SCOREP_LOG names a
 * file that receives one line per call, to check the call order.
 * Built with MGT_OWNS_STRINGS it behaves as scorep_plugin_fileparser does:
 * it cuts its token up in place (strtok at ';', the metric name first) and
 * frees the descriptions and units it handed out in finalize (Score-P
 * frees only the names and the array, after finalize). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <scorep/SCOREP_MetricPlugins.h>

#ifndef MGT_NAME
#error MGT_NAME, MGT_PER and MGT_SYNC are set by meson.build
#endif
#ifndef MGT_VERSION
#define MGT_VERSION SCOREP_METRIC_PLUGIN_VERSION
#endif
#ifndef MGT_DELTA_T
#define MGT_DELTA_T 0
#endif
#define MGT_STEP_NS 5000000ull

enum { COUNTER, LEVEL, NEGATIVE, SCALED, RELATIVE, WILD_A, WILD_B, SOMETIMES, N_METRICS };
static const char *const names[N_METRICS] = {
  "counter", "level", "negative", "scaled", "relative", "wild_a", "wild_b", "sometimes",
};

static uint64_t (*now) (void);
static uint64_t begin_ns;
static uint64_t produced_ns[N_METRICS]; /* async: values made up to here */
static unsigned reads[N_METRICS];

#ifdef MGT_OWNS_STRINGS
enum { MAX_OWNED = 64 };
static char *owned[MAX_OWNED];
static int n_owned;

static void
own (SCOREP_Metric_Plugin_MetricProperties *p)
{
  for (; p->name && n_owned + 2 <= MAX_OWNED; p++)
    {
      owned[n_owned++] = p->description;
      owned[n_owned++] = p->unit;
    }
}
#endif

static void
log_call (const char *what, const char *arg)
{
  const char *path = getenv ("MGT_SCOREP_LOG");
  if (!path)
    return;
  int fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  char line[256];
  int n = snprintf (line, sizeof line, "%d %s%s%s\n", (int) getpid (), what, arg ? " " : "",
                    arg ? arg : "");
  if (write (fd, line, (size_t) n) < 0)
    { /* the test will notice */ }
  close (fd);
}

static uint64_t clock_now (void);

static void
set_clock (uint64_t (*clock_time) (void))
{
  log_call ("set_clock_function", NULL);
  now = clock_time;
}

static int32_t
initialize (void)
{
  log_call ("initialize", now ? "clock" : "no-clock");
  begin_ns = clock_now (); /* version 0 has no synchronize (BEGIN) */
  const char *fail = getenv ("MGT_SCOREP_INIT_FAIL");
  if (fail && strcmp (fail, "1") == 0)
    {
      /* As public plugins say why: the host must keep it. */
      fprintf (stderr, "mgt: no counters here\nFailed to initialize any available source\n");
      return 3;
    }
  return 0;
}

static void
finalize (void)
{
  log_call ("finalize", NULL);
#ifdef MGT_OWNS_STRINGS
  for (int i = 0; i < n_owned; i++)
    free (owned[i]);
  n_owned = 0;
#endif
}

static void
describe (SCOREP_Metric_Plugin_MetricProperties *p, int which)
{
  p->name = strdup (names[which]);
  p->description = strdup ("a test metric");
  p->unit = strdup (which == COUNTER ? "ms" : "u");
  p->base = SCOREP_METRIC_BASE_DECIMAL;
  p->exponent = 0;
  p->value_type = SCOREP_METRIC_VALUE_UINT64;
  switch (which)
    {
    case COUNTER: p->mode = SCOREP_METRIC_MODE_ACCUMULATED_START; break;
    case LEVEL: p->mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT; p->value_type = SCOREP_METRIC_VALUE_DOUBLE; break;
    case NEGATIVE: p->mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT; p->value_type = SCOREP_METRIC_VALUE_INT64; break;
    case SCALED:
      p->mode = SCOREP_METRIC_MODE_ABSOLUTE_LAST;
      p->base = SCOREP_METRIC_BASE_BINARY;
      p->exponent = 10;
      break;
    case RELATIVE: p->mode = SCOREP_METRIC_MODE_RELATIVE_POINT; break;
    case WILD_A: case WILD_B: p->mode = SCOREP_METRIC_MODE_ABSOLUTE_NEXT; break;
    default: p->mode = SCOREP_METRIC_MODE_ABSOLUTE_POINT; break;
    }
}


static SCOREP_Metric_Plugin_MetricProperties *
get_event_info (char *token)
{
  SCOREP_Metric_Plugin_MetricProperties *props = calloc (3, sizeof *props);
  log_call ("get_event_info", token);
#ifdef MGT_OWNS_STRINGS
  char *rest;
  token = strtok_r (token, ";", &rest);
  for (int i = 0; token && i < N_METRICS; i++)
    if (strcmp (token, names[i]) == 0)
      describe (&props[0], i);
  own (props);
  return props;
#endif
  if (strcmp (token, "wild*") == 0)
    {
      describe (&props[0], WILD_A);
      describe (&props[1], WILD_B);
      return props;
    }
  if (strcmp (token, "refused") == 0)
    {
      describe (&props[0], LEVEL);
      free (props[0].name);
      props[0].name = strdup ("refused");
      return props;
    }
  for (int i = 0; i < N_METRICS; i++)
    if (strcmp (token, names[i]) == 0)
      describe (&props[0], i);
  return props;
}

static int32_t
add_counter (char *name)
{
  log_call ("add_counter", name);
  for (int i = 0; i < N_METRICS; i++)
    if (strcmp (name, names[i]) == 0)
      return i;
  return -1;
}

static uint64_t
value_at (int id, uint64_t t)
{
  union { double d; int64_t i; uint64_t u; } v;
  switch (id)
    {
    case COUNTER: v.u = (t - begin_ns) / 1000000u; break;
    case LEVEL: v.d = 2.5; break;
    case NEGATIVE: v.i = -7; break;
    case SCALED: v.u = 3; break;
    case RELATIVE: v.u = 5; break;
    case WILD_A: v.u = 1; break;
    case WILD_B: v.u = 2; break;
    default: v.u = 9; break;
    }
  return v.u;
}

static uint64_t
clock_now (void)
{
  return now ? now () : 0;
}

static uint64_t
get_current_value (int32_t id)
{
  return value_at (id, clock_now ());
}

static bool
get_optional_value (int32_t id, uint64_t *value)
{
  if (id == SOMETIMES && reads[id]++ % 2 == 1)
    return false;
  *value = value_at (id, clock_now ());
  return true;
}

static uint64_t
get_all_values (int32_t id, SCOREP_MetricTimeValuePair **list)
{
  uint64_t t = clock_now ();
  uint64_t from = produced_ns[id] ? produced_ns[id] : begin_ns;
  uint64_t n = t > from ? (t - from) / MGT_STEP_NS : 0;
  *list = malloc ((n ? n : 1) * sizeof **list);
  for (uint64_t k = 0; k < n; k++)
    {
      from += MGT_STEP_NS;
      (*list)[k].timestamp = from;
      (*list)[k].value = value_at (id, from);
    }
  produced_ns[id] = from;
  return n;
}

static void __attribute__((unused))
synchronize (bool is_responsible, SCOREP_MetricSynchronizationMode mode)
{
  log_call ("synchronize", mode == SCOREP_METRIC_SYNCHRONIZATION_MODE_BEGIN ? "begin"
                           : mode == SCOREP_METRIC_SYNCHRONIZATION_MODE_END ? "end" : "begin_mpp");
  if (mode != SCOREP_METRIC_SYNCHRONIZATION_MODE_END)
    begin_ns = clock_now ();
}

#define GLUE2(a, b, c) a##b##c
#define GLUE(a, b, c) GLUE2 (a, b, c)

#if MGT_VERSION == 0
/* The version 0 layout: no synchronize, reserved[100] (888 bytes). */
typedef struct {
  uint32_t plugin_version;
  SCOREP_MetricPer run_per;
  SCOREP_MetricSynchronicity sync;
  uint64_t delta_t;
  int32_t (*initialize) (void);
  void (*finalize) (void);
  SCOREP_Metric_Plugin_MetricProperties *(*get_event_info) (char *token);
  int32_t (*add_counter) (char *metric_name);
  uint64_t (*get_current_value) (int32_t id);
  bool (*get_optional_value) (int32_t id, uint64_t *value);
  void (*set_clock_function) (uint64_t (*clock_time) (void));
  uint64_t (*get_all_values) (int32_t id, SCOREP_MetricTimeValuePair **time_value_list);
  uint64_t reserved[100];
} InfoV0;
_Static_assert (sizeof (InfoV0) == 888, "the version 0 layout");

__attribute__((visibility("default"))) InfoV0 GLUE (SCOREP_MetricPlugin_, MGT_NAME, _get_info) (void);
InfoV0
GLUE (SCOREP_MetricPlugin_, MGT_NAME, _get_info) (void)
{
  InfoV0 info;
  /* A version 0 plugin knows no BEGIN: its clock starts at initialize. */
  memset (&info, 0, sizeof info);
#else
#define MGT_ENTRY(name) SCOREP_METRIC_PLUGIN_ENTRY (name)
MGT_ENTRY (MGT_NAME)
{
  SCOREP_Metric_Plugin_Info info;
  memset (&info, 0, sizeof info);
  info.synchronize = synchronize;
#endif
  log_call ("get_info", NULL);
  info.plugin_version = MGT_VERSION;
  info.run_per = MGT_PER;
  info.sync = MGT_SYNC;
  info.delta_t = MGT_DELTA_T;
  info.initialize = initialize;
  info.finalize = finalize;
  info.get_event_info = get_event_info;
  info.add_counter = add_counter;
  info.get_current_value = get_current_value;
  info.get_optional_value = get_optional_value;
  info.set_clock_function = set_clock;
  info.get_all_values = get_all_values;
  return info;
}
