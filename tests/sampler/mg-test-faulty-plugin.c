/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A plugin with bugs, for the fault-isolation tests: its getters crash or
 * hang at a known call, and MG_TEST_FAULTY_INIT makes its initialise crash. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "allinea_metric_plugin_template.h"
#include "mg-test-plugin.h"

#define EXPORT __attribute__((visibility("default")))

/* The call at which faulty_crash dereferences NULL, as in issue #19. */
enum { CRASH_AT = 20, HANG_AT = 5 };

static uint64_t calls_crash, calls_hang;
static int *volatile nowhere;

EXPORT int
allinea_plugin_initialise (plugin_id_t plugin_id, void *data)
{
  if (getenv ("MG_TEST_FAULTY_INIT"))
    return *nowhere;
  return 0;
}

EXPORT int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
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
    for (;;)
      {
        struct timespec second = { 1, 0 };
        nanosleep (&second, NULL);
      }
  *out = calls_hang;
  return 0;
}
