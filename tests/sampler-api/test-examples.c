/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The example plugins, loaded as the sampler loads them, against this
 * implementation of the API (exported from the test program). */
#include <dlfcn.h>
#include <glib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "allinea_metric_plugin_api.h"
#include "test-hooks.h"

typedef int (*InitFn) (plugin_id_t, void *);
typedef int (*IntGetter) (metric_id_t, struct timespec *, uint64_t *);

static void *
open_example (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "examples", name, NULL);
  void *handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    g_error ("dlopen %s: %s", path, dlerror ());
  return handle;
}

/* The "intr" total, read independently. */
static guint64
intr_total (void)
{
  g_autofree char *stat = NULL;
  g_assert_true (g_file_get_contents ("/proc/stat", &stat, NULL, NULL));
  const char *line = strstr (stat, "\nintr ");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + 6, NULL, 10);
}

static void
test_custom1 (void)
{
  void *handle = open_example ("libcustom1.so");
  InitFn init = (InitFn) dlsym (handle, "allinea_plugin_initialise");
  IntGetter getter = (IntGetter) dlsym (handle, "sample_interrupts");
  g_assert_nonnull (init);
  g_assert_nonnull (getter);
  memset (&test_hooks, 0, sizeof test_hooks);
  g_assert_cmpint (init ((plugin_id_t) 1, NULL), ==, 0);
  g_assert_cmpint (test_hooks.plugin_calls, ==, 0);

  guint64 before_first = intr_total ();
  struct timespec t = { 0, 0 };
  uint64_t value = 12345;
  g_assert_cmpint (getter ((metric_id_t) 2, &t, &value), ==, 0);
  g_assert_cmpuint (value, ==, ~(uint64_t) 0);   /* first sample: no value */
  g_assert_cmpint (t.tv_sec + t.tv_nsec, >, 0);   /* stamped by the getter */

  g_usleep (50000);
  g_assert_cmpint (getter ((metric_id_t) 2, &t, &value), ==, 0);
  guint64 after_second = intr_total ();
  /* Both of the getter's readings lie between ours, so the increase it
   * reports cannot exceed the increase we saw around it. */
  g_assert_cmpuint (value, !=, ~(uint64_t) 0);
  g_assert_cmpuint (value, <=, after_second - before_first);
  g_assert_cmpint (test_hooks.metric_calls, ==, 0);
  dlclose (handle);
}

static void
test_backfill1 (void)
{
  void *handle = open_example ("libbackfill1.so");
  IntGetter getter = (IntGetter) dlsym (handle, "backfilled_metric");
  int (*start) (plugin_id_t) = (int (*) (plugin_id_t)) dlsym (handle, "start_profiling");
  int (*stop) (plugin_id_t) = (int (*) (plugin_id_t)) dlsym (handle, "stop_profiling");
  g_assert_nonnull (getter);
  g_assert_cmpint (start ((plugin_id_t) 1), ==, 0);
  struct timespec t = { 3, 500 };
  uint64_t value = 0;
  g_assert_cmpint (getter ((metric_id_t) 1, &t, &value), ==, 0);
  g_assert_cmpuint (value, ==, 5);
  g_assert_cmpint (t.tv_sec, ==, 3);   /* backfill: the time is not touched */
  g_assert_cmpint (t.tv_nsec, ==, 500);
  g_assert_cmpint (stop ((plugin_id_t) 1), ==, 0);
  dlclose (handle);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/examples/custom1", test_custom1);
  g_test_add_func ("/examples/backfill1", test_backfill1);
  return g_test_run ();
}
