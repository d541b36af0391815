/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Support shared by the built-in metric tests and benchmark. */
#include "plugins-test-support.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#if __has_include(<perfmon/pfmlib_perf_event.h>)
#define TEST_HAVE_PFM_HEADERS 1 /* the perf plugins are built with libpfm4 too */
#else
#define TEST_HAVE_PFM_HEADERS 0
#endif

#include "mg-sampler-hooks.h"

static const char *custom_data[MG_TEST_MAX_METRICS];
static char plugin_error[1024];
static int plugin_error_code;
static char metric_errors[MG_TEST_MAX_METRICS][512];

void
mg_hook_plugin_error (plugin_id_t plugin, int code, const char *message)
{
  g_strlcpy (plugin_error, message, sizeof plugin_error);
  plugin_error_code = code;
}

void
mg_hook_metric_error (metric_id_t metric, int code, const char *message)
{
  if (metric < MG_TEST_MAX_METRICS)
    g_strlcpy (metric_errors[metric], message, sizeof metric_errors[metric]);
}

const char *
mg_hook_custom_data (metric_id_t metric)
{
  if (metric < MG_TEST_MAX_METRICS && custom_data[metric])
    return custom_data[metric];
  return "";
}

const char *
mg_hook_config_env (const char *metric_id)
{
  return NULL;
}

void
plugins_test_set_custom_data (metric_id_t id, const char *data)
{
  g_assert_cmpuint (id, <, MG_TEST_MAX_METRICS);
  custom_data[id] = data;
}

const char *
plugins_test_plugin_error (int *code)
{
  if (code)
    *code = plugin_error_code;
  return plugin_error;
}

const char *
plugins_test_metric_error (metric_id_t id)
{
  g_assert_cmpuint (id, <, MG_TEST_MAX_METRICS);
  return metric_errors[id];
}

void
plugins_test_clear_errors (void)
{
  plugin_error[0] = '\0';
  plugin_error_code = 0;
  memset (metric_errors, 0, sizeof metric_errors);
}

void *
plugins_test_load_plugin (const char *name)
{
  const char *root = g_getenv ("MG_BUILD_ROOT");
  g_assert_nonnull (root);
  g_autofree char *file = g_strdup_printf ("lib%s.so", name);
  g_autofree char *path = g_build_filename (root, "plugins", file, NULL);
  void *handle = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL)
    g_error ("cannot load %s: %s", path, dlerror ());
  return handle;
}

int
plugins_test_init_plugin (void *plugin, plugin_id_t id)
{
  PluginsTestInitFn init = (PluginsTestInitFn) plugins_test_symbol (plugin, "allinea_plugin_initialize");
  return init (id, NULL);
}

gpointer
plugins_test_symbol (void *plugin, const char *name)
{
  gpointer sym = dlsym (plugin, name);
  if (sym == NULL)
    g_error ("plugin has no symbol %s", name);
  return sym;
}

struct timespec
plugins_test_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts;
}

double
plugins_test_thread_cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Spins until this thread has used seconds of CPU; returns what it used. */
double
plugins_test_burn_cpu (double seconds)
{
  double start = plugins_test_thread_cpu_seconds (), used;
  volatile uint64_t x = 0;
  do
    {
      for (int i = 0; i < 10000; i++)
        x += (uint64_t) i * x + 1;
      used = plugins_test_thread_cpu_seconds () - start;
    }
  while (used < seconds);
  return used;
}

/* Touches size bytes of fresh memory, one fault per page: mapped here, since
 * malloc may hand back pages already resident (its thresholds move as
 * blocks are freed). */
void
plugins_test_touch_fresh_pages (size_t size)
{
  char *block = mmap (NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (block != MAP_FAILED);
  for (size_t i = 0; i < size; i += 4096)
    block[i] = 1;
  g_assert_cmpint (munmap (block, size), ==, 0);
}

/* The counter is split for speed: Linux 6.2 and later keep a per-CPU part
 * of up to max(32, 2 x CPUs) pages on each possible CPU before adding it;
 * earlier kernels cached up to 64 page faults in each faulting thread
 * (one here). */
uint64_t
plugins_test_rss_counter_slack (void)
{
  uint64_t cpus = (uint64_t) MAX (sysconf (_SC_NPROCESSORS_CONF), 1);
  uint64_t pages = MAX (64, cpus * MAX (32, 2 * cpus));
  return pages * (uint64_t) sysconf (_SC_PAGESIZE);
}

uint64_t
plugins_test_status_rss (void)
{
  g_autofree char *status = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  const char *line = strstr (status, "\nVmRSS:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10) * 1024;
}


/* Why perf_event_open may be refused to this process, or NULL when it
 * must work: the tests then fail rather than skip if it does not. It is
 * refused only without the system call, or to a process without
 * CAP_PERFMON/CAP_SYS_ADMIN when perf_event_paranoid is above 2 (2 still
 * allows counting one's own process in user space, which the plugins fall
 * back to). */
const char *
plugins_test_perf_refused_reason (void)
{
  static char reason[256];
  if (syscall (SYS_perf_event_open, NULL, 0, -1, -1, 0) < 0 && errno == ENOSYS)
    return "this kernel has no perf_event_open system call";
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct caps[2] = { 0 };
  if (syscall (SYS_capget, &header, caps) == 0)
    {
      guint64 effective = caps[0].effective | ((guint64) caps[1].effective << 32);
      if (effective & ((G_GUINT64_CONSTANT (1) << CAP_SYS_ADMIN)
                       | (G_GUINT64_CONSTANT (1) << 38 /* CAP_PERFMON */)))
        return NULL;
    }
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &text, NULL, NULL))
    return "/proc/sys/kernel/perf_event_paranoid cannot be read";
  int level = atoi (text);
  if (level <= 2)
    return NULL;
  g_snprintf (reason, sizeof reason,
              "perf_event_paranoid is %d and this process has neither "
              "CAP_PERFMON nor CAP_SYS_ADMIN", level);
  return reason;
}

/* Initialises the software perf plugin; FALSE (after skipping, with the
 * reason) only where perf_event_open is really refused. */
gboolean
plugins_test_init_perf_sw (void *sw)
{
  plugins_test_clear_errors ();
  if (plugins_test_init_plugin (sw, 1) == 0)
    return TRUE;
  int code;
  const char *msg = plugins_test_plugin_error (&code);
  const char *refused = plugins_test_perf_refused_reason ();
  if (refused == NULL)
    g_error ("perf should work here, but the software plugin failed: %s", msg);
  g_assert_true (code == EACCES || code == EPERM || code == ENOSYS);
  g_assert_nonnull (strstr (msg, "task-clock"));
  g_test_message ("skipped: %s (%s)", refused, msg);
  g_test_skip (refused);
  return FALSE;
}

/* Why symbolic event names cannot be tested here, or NULL. */
const char *
plugins_test_libpfm_missing_reason (void)
{
  if (!TEST_HAVE_PFM_HEADERS)
    return "the perf plugins were built without libpfm4's headers (libpfm4-dev)";
  void *pfm = dlopen ("libpfm.so.4", RTLD_NOW | RTLD_LOCAL);
  if (pfm == NULL)
    return "libpfm.so.4 (Debian package libpfm4) is not installed";
  dlclose (pfm);
  return NULL;
}


/* A sample time for a new sampling round: plugins cache what they read for
 * calls less than half a millisecond apart, so each call here gets a time
 * at least 10 ms after the previous one. */
struct timespec
plugins_test_next_round_time (void)
{
  static gint64 last_ns;
  struct timespec t = plugins_test_now ();
  gint64 ns = (gint64) t.tv_sec * 1000000000 + t.tv_nsec;
  if (ns < last_ns + 10000000)
    ns = last_ns + 10000000;
  last_ns = ns;
  t.tv_sec = ns / 1000000000;
  t.tv_nsec = ns % 1000000000;
  return t;
}

double
plugins_test_call_double (void *plugin, const char *getter, metric_id_t id)
{
  PluginsTestDoubleGetter fn = (PluginsTestDoubleGetter) plugins_test_symbol (plugin, getter);
  struct timespec t = plugins_test_next_round_time ();
  double v = -1;
  int r = fn (id, &t, &v);
  if (r != 0)
    g_error ("%s failed: %s", getter, plugins_test_metric_error (id));
  return v;
}

uint64_t
plugins_test_call_int (void *plugin, const char *getter, metric_id_t id)
{
  PluginsTestIntGetter fn = (PluginsTestIntGetter) plugins_test_symbol (plugin, getter);
  struct timespec t = plugins_test_next_round_time ();
  uint64_t v = 0;
  int r = fn (id, &t, &v);
  if (r != 0)
    g_error ("%s failed: %s", getter, plugins_test_metric_error (id));
  return v;
}
