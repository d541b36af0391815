/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plugin with bugs, for the fault-isolation tests: its getters crash,
 * block or hang at a known call; MG_TEST_FAULTY_INIT=1 makes its initialise
 * crash, =hang never return; MG_TEST_FAULTY_CLEANUP=hang makes its cleanup
 * never return, and MG_TEST_FAULTY_START=hang its start function. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"
#include "mg-test-plugin.h"

#define EXPORT __attribute__((visibility("default")))

/* The call at which faulty_crash dereferences NULL, as in issue #19. */
enum { CRASH_AT = 20, HANG_AT = 5 };

static uint64_t calls_crash, calls_hang, calls_block, calls_slow;
static int *volatile nowhere;

static bool
env_is (const char *name, const char *value)
{
  const char *v = getenv (name);
  return v != NULL && strcmp (v, value) == 0;
}

static _Noreturn void
sleep_for_ever (void)
{
  for (;;)
    {
      struct timespec second = { 1, 0 };
      nanosleep (&second, NULL);
    }
}

EXPORT int
allinea_plugin_initialise (plugin_id_t plugin_id, void *data)
{
  if (env_is ("MG_TEST_FAULTY_INIT", "hang"))
    sleep_for_ever ();
  if (getenv ("MG_TEST_FAULTY_INIT"))
    return *nowhere;
  return 0;
}

EXPORT int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  if (env_is ("MG_TEST_FAULTY_CLEANUP", "hang"))
    sleep_for_ever ();
  return 0;
}

/* A start function that never returns with MG_TEST_FAULTY_START=hang. */
EXPORT int
faulty_start (plugin_id_t plugin_id)
{
  if (env_is ("MG_TEST_FAULTY_START", "hang"))
    sleep_for_ever ();
  return 0;
}

/* 1, 2, … 19, then SIGSEGV. */
EXPORT int
faulty_crash (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (++calls_crash == CRASH_AT)
    *out = (uint64_t) *nowhere;
  else
    *out = calls_crash;
  return 0;
}

/* 1, 2, 3, 4, then never returns. */
EXPORT int
faulty_hang (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (++calls_hang == HANG_AT)
    sleep_for_ever ();
  *out = calls_hang;
  return 0;
}

/* 1, 2, 3, 4, then blocks for 10 s, then 5, 6…, each after 30 ms: a
 * fork child's thread is in a round most of its life. */
EXPORT int
faulty_block_slow (metric_id_t id, struct timespec *t, uint64_t *out)
{
  struct timespec left = { ++calls_slow == HANG_AT ? 10 : 0, 30 * 1000000 };
  while (nanosleep (&left, &left) != 0)
    ;
  *out = calls_slow;
  return 0;
}

/* 1, 2, 3, 4, then blocks for 10 s (retrying when interrupted), then 5, 6… */
EXPORT int
faulty_block (metric_id_t id, struct timespec *t, uint64_t *out)
{
  if (++calls_block == HANG_AT)
    {
      struct timespec left = { 10, 0 };
      while (nanosleep (&left, &left) != 0)
        ;
    }
  *out = calls_block;
  return 0;
}
