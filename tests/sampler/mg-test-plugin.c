/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A test plugin of known values, built against include/ only. Every call it
 * gets is logged (to the file named by MG_TEST_LOG) with the time it was
 * given or moved to, so the test can recompute what the sampler recorded. */
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"
#include "mg-test-plugin.h"
#include "metrograph_plugin_ext.h"

#define EXPORT __attribute__((visibility("default")))

/* Unloaded when its initialise fails, but for its -kept build. */
#ifndef MG_TEST_PLUGIN_KEPT
METROGRAPH_PLUGIN_UNLOADABLE;
#endif
/* Its -exec-releases build: no stop or cleanup in a fork child that execs
 * before its first round. */
#ifdef MG_TEST_PLUGIN_EXEC_RELEASES
METROGRAPH_PLUGIN_EXEC_RELEASES_ALL;
#endif

static int log_fd = -1;
static int config_value = -1000;
static uint64_t calls_count, calls_pct, calls_gap[4], calls_ramp, calls_late;

static void
log_event (const char *tag, const struct timespec *t)
{
  if (log_fd < 0)
    return;
  if (t)
    allinea_safe_fprintf (log_fd, "%s %ld %ld %d\n", tag, (long) t->tv_sec, t->tv_nsec,
                          (int) getpid ());
  else
    allinea_safe_fprintf (log_fd, "%s 0 0 %d\n", tag, (int) getpid ());
}

EXPORT int
allinea_plugin_initialise (plugin_id_t plugin_id, void *data)
{
  const char *path = getenv ("MG_TEST_LOG");
  if (path)
    log_fd = allinea_safe_open (path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  log_event ("INIT", NULL);
  /* The config file named by metric t.cfg's <configFile env>. */
  char buf[64];
  int r = allinea_read_config_file ("answer", "t.cfg", buf, sizeof buf);
  config_value = r == 0 ? atoi (buf) : r;
  if (getenv ("MG_TEST_INIT_FAIL"))
    {
      allinea_set_plugin_error_messagef (plugin_id, 77, "refusing to start: %s", "test");
      return -1;
    }
  return 0;
}

EXPORT int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  log_event ("CLEANUP", NULL);
  return 0;
}

EXPORT int
test_start (plugin_id_t plugin_id)
{
  log_event ("START", NULL);
  return 0;
}

EXPORT int
test_stop (plugin_id_t plugin_id)
{
  log_event ("STOP", NULL);
  return 0;
}

/* 1000 per call; moves the time to now (divideBySampleTime "/s"). */
EXPORT int
test_count (metric_id_t id, struct timespec *t, uint64_t *out)
{
  calls_count++;
  *t = allinea_get_current_time ();
  log_event ("COUNT", t);
  *out = 1000;
  return 0;
}

/* 0.25 per call as a double; time left as given (divideBySampleTime "%"). */
EXPORT int
test_pct (metric_id_t id, struct timespec *t, double *out)
{
  calls_pct++;
  log_event ("PCT", t);
  *out = 0.25;
  return 0;
}

/* The seconds since its previous call, by the times it was given: 100 % of
 * its own span ("%", divideBySampleTime), 0 at the first call. */
EXPORT int
test_busy (metric_id_t id, struct timespec *t, double *out)
{
  static struct timespec prev;
  static bool have_prev;

  log_event ("BUSY", t);
  *out = have_prev ? (double) (t->tv_sec - prev.tv_sec) + (double) (t->tv_nsec - prev.tv_nsec) / 1e9
                   : 0;
  prev = *t;
  have_prev = true;
  return 0;
}

/* 1 per call, read 2 ms late on every other call: moves the time to the
 * read, so the rounds' slots are alternately longer and shorter than the
 * spans of the metrics read before it. */
EXPORT int
test_late (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (++calls_late % 2)
    {
      struct timespec late = { 0, 2000000 };
      nanosleep (&late, NULL);
    }
  *t = allinea_get_current_time ();
  log_event ("LATE", t);
  *out = 1;
  return 0;
}

/* Odd calls give 7; even calls give no value, each in its own way. */
EXPORT int
test_gap_untouched (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (++calls_gap[0] % 2)
    *out = 7;
  return 0;
}

EXPORT int
test_gap_sentinel (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = ++calls_gap[1] % 2 ? 7 : ~(uint64_t) 0;
  return 0;
}

EXPORT int
test_gap_nan (metric_id_t id, struct timespec *t, double *out)
{
  *out = ++calls_gap[2] % 2 ? 7.0 : NAN;
  return 0;
}

EXPORT int
test_gap_error (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = 5; /* must be ignored: the call fails */
  if (++calls_gap[3] % 2)
    {
      *out = 7;
      return 0;
    }
  allinea_set_metric_error_messagef (id, 42, "failed call %d", (int) calls_gap[3]);
  return -1;
}

/* The call number: 1, 2, 3... (merging keeps min/max/mean of runs). */
EXPORT int
test_ramp (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = ++calls_ramp;
  return 0;
}

/* 0.1 in every call: not a binary fraction, so merged slots whose means
 * are summed by their counts read exactly 0.1 only if kept in bounds. */
EXPORT int
test_tenth (metric_id_t id, struct timespec *t, double *out)
{
  *out = 0.1;
  return 0;
}

/* Backfill: logs each time it is given; the value is its nanoseconds mod 1000. */
EXPORT int
test_backfill (metric_id_t id, struct timespec *t, uint64_t *out)
{
  log_event ("BACKFILL", t);
  *out = (uint64_t) t->tv_nsec % 1000;
  return 0;
}

/* Backfill that wrongly moves the time. */
EXPORT int
test_backfill_bad (metric_id_t id, struct timespec *t, uint64_t *out)
{
  t->tv_nsec = (t->tv_nsec + 1) % 1000000000;
  *out = 1;
  return 0;
}

/* Custom data as a number (tests allinea_get_custom_data). */
EXPORT int
test_custom (metric_id_t id, struct timespec *t, uint64_t *out)
{
  const char *s = allinea_get_custom_data (id);
  uint64_t v = 0;
  for (; *s >= '0' && *s <= '9'; s++)
    v = v * 10 + (uint64_t) (*s - '0');
  *out = v;
  return 0;
}

/* 1000 + what initialise read from the config file (or its error code). */
EXPORT int
test_config (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = (uint64_t) (1000 + config_value);
  return 0;
}

/* A onePerNode value: the pid of the process reporting it. */
EXPORT int
test_node (metric_id_t id, struct timespec *t, uint64_t *out)
{
  *out = (uint64_t) getpid ();
  return 0;
}
