/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of what the built-in metric plugins count as "the process": a
 * forked child (which the sampler keeps sampling with the plugins it
 * inherited) gets its own values, threads that existed before a perf
 * counter was opened are counted, and the plugins' own reads are never
 * charged to the program's I/O. The plugins are loaded from
 * <build>/plugins and driven directly, as in test-builtin-metrics.c. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "plugins-test-support.h"
#include "mg-test-common.h"

#define MB (1024 * 1024)
#define WRAPPED (UINT64_C (1) << 62) /* far above any real count */

static void
write_all (int fd, const char *buf, size_t size)
{
  while (size > 0)
    {
      ssize_t n = write (fd, buf, size);
      g_assert_cmpint (n, >, 0);
      buf += n;
      size -= (size_t) n;
    }
}

/* Runs child_fn in a forked child, which sends back n values through a
 * pipe; the child's failures end it with a non-zero status. */
typedef void (*ChildFn) (void *data, uint64_t *values);

static void
run_in_child (ChildFn child_fn, void *data, uint64_t *values, int n)
{
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      close (fds[0]);
      uint64_t out[8] = { 0 };
      child_fn (data, out);
      ssize_t w = write (fds[1], out, sizeof out[0] * (size_t) n);
      _exit (w == (ssize_t) (sizeof out[0] * (size_t) n) ? 0 : 3);
    }
  close (fds[1]);
  ssize_t r = read (fds[0], values, sizeof values[0] * (size_t) n);
  close (fds[0]);
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpint (r, ==, (ssize_t) (sizeof values[0] * (size_t) n));
}

/* Touches pages of a fresh mapping without huge pages: one fault each. */
static void
touch_small_pages (size_t size)
{
  char *block = mmap (NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (block != MAP_FAILED);
  madvise (block, size, MADV_NOHUGEPAGE);
  for (size_t i = 0; i < size; i += 4096)
    block[i] = 1;
  munmap (block, size);
}

static void
faults_child (void *plugin, uint64_t *values)
{
  touch_small_pages (8 * MB);
  values[0] = plugins_test_call_int (plugin, "mg_memory_minor_faults", 1);
  values[1] = plugins_test_call_int (plugin, "mg_memory_major_faults", 2);
  touch_small_pages (4 * MB);
  values[2] = plugins_test_call_int (plugin, "mg_memory_minor_faults", 1);
}

/* A forked child's page faults count from 0 at the fork: its first sample
 * holds its own faults, never a difference with the parent's larger count
 * (which wrapped to about 1.8e19). */
static void
test_memory_fork (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  plugins_test_call_int (mem, "mg_memory_minor_faults", 1);
  plugins_test_call_int (mem, "mg_memory_major_faults", 2);
  touch_small_pages (64 * MB); /* the parent: 16384 faults more */
  uint64_t parent = plugins_test_call_int (mem, "mg_memory_minor_faults", 1);
  g_assert_cmpuint (parent, >=, 16384);

  uint64_t child[3];
  run_in_child ((ChildFn) faults_child, mem, child, 3);
  g_test_message ("parent %" G_GUINT64_FORMAT " faults for 64 MiB; the child "
                  "%" G_GUINT64_FORMAT " (major %" G_GUINT64_FORMAT ") for "
                  "8 MiB, then %" G_GUINT64_FORMAT " for 4 MiB",
                  parent, child[0], child[1], child[2]);
  /* 2048 pages, and what the child faulted in since the fork (copies of
   * the pages it wrote: stack, GLib's and the plugins' variables). */
  g_assert_cmpuint (child[0], >=, 2048);
  g_assert_cmpuint (child[0], <=, 2048 + 1000);
  g_assert_cmpuint (child[1], <, 100);
  g_assert_cmpuint (child[2], >=, 1024);
  g_assert_cmpuint (child[2], <=, 1024 + 100);

  /* The parent goes on from its own count. */
  touch_small_pages (4 * MB);
  uint64_t after = plugins_test_call_int (mem, "mg_memory_minor_faults", 1);
  g_assert_cmpuint (after, >=, 1024);
  g_assert_cmpuint (after, <, WRAPPED);
}

static void
cpu_child (void *plugin, uint64_t *values)
{
  double used = plugins_test_burn_cpu (0.1);
  double sample = plugins_test_call_double (plugin, "mg_cpu_time", 1);
  values[0] = (uint64_t) (used * 1e6);
  values[1] = (uint64_t) (sample * 1e6);
}

/* A forked child's first CPU sample holds its CPU time since the fork
 * (it used to take a new baseline there, and read about 0). */
static void
test_cpu_fork (void)
{
  void *cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (cpu, 1), ==, 0);
  plugins_test_call_double (cpu, "mg_cpu_time", 1);
  plugins_test_burn_cpu (0.2);
  double parent = plugins_test_call_double (cpu, "mg_cpu_time", 1);
  uint64_t child[2];
  run_in_child ((ChildFn) cpu_child, cpu, child, 2);
  g_test_message ("parent %.3f s; the child burnt %.3f s and its first sample "
                  "read %.3f s", parent, child[0] / 1e6, child[1] / 1e6);
  g_assert_cmpfloat (child[1], >=, child[0] * 0.95);
  g_assert_cmpfloat (child[1], <=, child[0] * 1.1 + 5000);
}

static void
io_child (void *plugin, uint64_t *values)
{
  g_autofree char *buf = g_malloc0 (MB);
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  for (int i = 0; i < 3; i++)
    write_all (fd, buf, MB);
  /* The profiler's own write: left out in the child too. */
  if (allinea_safe_write (fd, buf, MB) != MB)
    _exit (4);
  close (fd);
  values[0] = plugins_test_call_int (plugin, "mg_io_wchar_total", 1);
  values[1] = plugins_test_call_int (plugin, "mg_io_wchar_rate", 2);
  values[2] = plugins_test_call_int (plugin, "mg_io_syscw_total", 3);
  values[3] = plugins_test_call_int (plugin, "mg_io_syscw_rate", 4);
  values[4] = plugins_test_call_int (plugin, "mg_io_rchar_total", 5);
}

/* A forked child's I/O metrics are its own I/O since it started: its
 * /proc/self/io starts from 0, and the safe I/O counters it inherited hold
 * the parent's counts, of which only what the child did is left out. */
static void
test_io_fork (void)
{
  void *io = plugins_test_load_plugin ("metrograph-io");
  g_assert_cmpint (plugins_test_init_plugin (io, 1), ==, 0);
  g_autofree char *buf = g_malloc0 (MB);
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  for (int i = 0; i < 16; i++)
    write_all (fd, buf, MB);
  g_assert_cmpint (allinea_safe_write (fd, buf, 2 * MB), ==, 2 * MB);
  close (fd);
  uint64_t parent_total = plugins_test_call_int (io, "mg_io_wchar_total", 1);
  plugins_test_call_int (io, "mg_io_wchar_rate", 2);
  g_assert_cmpuint (parent_total, >=, 16 * MB);
  g_assert_cmpuint (parent_total, <, 16 * MB + 4096);

  uint64_t child[5];
  run_in_child ((ChildFn) io_child, io, child, 5);
  g_test_message ("parent wchar_total %" G_GUINT64_FORMAT "; the child, after "
                  "3 MiB of write(2) and 1 MiB of safe writes: wchar_total %"
                  G_GUINT64_FORMAT ", rate %" G_GUINT64_FORMAT ", syscw_total %"
                  G_GUINT64_FORMAT ", rate %" G_GUINT64_FORMAT ", rchar_total %"
                  G_GUINT64_FORMAT, parent_total, child[0], child[1], child[2],
                  child[3], child[4]);
  g_assert_cmpuint (child[0], >=, 3 * MB);
  g_assert_cmpuint (child[0], <, 3 * MB + 4096);
  g_assert_cmpuint (child[1], ==, child[0]); /* its first sample: all of it */
  g_assert_cmpuint (child[2], >=, 3);
  g_assert_cmpuint (child[2], <=, 3 + 2);
  g_assert_cmpuint (child[3], ==, child[2]);
  g_assert_cmpuint (child[4], <, 4096);

  /* The parent's totals go on from its own, to which the kernel adds the
   * I/O of the child once it is waited for (all of it: its safe writes
   * are in another process's counters). */
  uint64_t after = plugins_test_call_int (io, "mg_io_wchar_total", 1);
  g_test_message ("the parent after waiting for the child: %" G_GUINT64_FORMAT, after);
  g_assert_cmpuint (after, >=, parent_total + 4 * MB);
  g_assert_cmpuint (after, <, parent_total + 4 * MB + 4096);
}

/* A process that does no I/O shows none while every built-in plugin that
 * initialises here samples it, perf counters included: the plugins' reads
 * of /proc files and of their counters are the profiler's own. */
static void
test_io_plugins_invisible (void)
{
  static const struct {
    const char *plugin, *getter;
    gboolean is_double;
    const char *custom_data;
  } getters[] = {
    { "metrograph-cpu", "mg_cpu_time", TRUE, NULL },
    { "metrograph-cpu", "mg_cpu_loadavg", TRUE, NULL },
    { "metrograph-memory", "mg_memory_rss", FALSE, NULL },
    { "metrograph-memory", "mg_memory_node_percent", TRUE, NULL },
    { "metrograph-memory", "mg_memory_minor_faults", FALSE, NULL },
    { "metrograph-threads", "mg_threads_count", FALSE, NULL },
    { "metrograph-perf-sw", "mg_perf_seconds", TRUE, "task-clock" },
    { "metrograph-perf-sw", "mg_perf_count", FALSE, "page-faults" },
    { "metrograph-perf-sw", "mg_perf_count", FALSE, "context-switches" },
    { "metrograph-perf-sw", "mg_perf_ratio", TRUE, "task-clock/cpu-clock" },
  };
  enum { FIRST = 10 };
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  void *io = plugins_test_load_plugin ("metrograph-io");
  g_assert_cmpint (plugins_test_init_plugin (io, 1), ==, 0);
  void *plugins[G_N_ELEMENTS (getters)];
  for (guint i = 0; i < G_N_ELEMENTS (getters); i++)
    {
      plugins[i] = g_str_equal (getters[i].plugin, "metrograph-perf-sw")
                     ? sw : plugins_test_load_plugin (getters[i].plugin);
      if (plugins[i] != sw)
        g_assert_cmpint (plugins_test_init_plugin (plugins[i], 2), ==, 0);
      plugins_test_set_custom_data (FIRST + i, getters[i].custom_data);
    }
  /* As the sampler does once every plugin is initialised: what the others
   * read while initialising (the dynamic loader reading their libraries)
   * is not the program's. */
  int (*start) (plugin_id_t) = plugins_test_symbol (io, "mg_io_start");
  g_assert_cmpint (start (1), ==, 0);
  static const char *const io_getters[] = {
    "mg_io_rchar_rate", "mg_io_syscr_rate", "mg_io_wchar_rate", "mg_io_syscw_rate",
  };
  uint64_t io_sum[G_N_ELEMENTS (io_getters)] = { 0 };
  uint64_t first_round[G_N_ELEMENTS (io_getters)] = { 0 };
  for (int round = 0; round < 20; round++)
    {
      struct timespec t = plugins_test_next_round_time ();
      for (guint i = 0; i < G_N_ELEMENTS (getters); i++)
        {
          struct timespec ts = t;
          gpointer fn = plugins_test_symbol (plugins[i], getters[i].getter);
          uint64_t u;
          double d;
          int r = getters[i].is_double
                    ? ((PluginsTestDoubleGetter) fn) (FIRST + i, &ts, &d)
                    : ((PluginsTestIntGetter) fn) (FIRST + i, &ts, &u);
          if (r != 0)
            g_error ("%s: %s", getters[i].getter, plugins_test_metric_error (FIRST + i));
        }
      for (guint k = 0; k < G_N_ELEMENTS (io_getters); k++)
        {
          struct timespec ts = t;
          uint64_t v = 0;
          PluginsTestIntGetter fn = (PluginsTestIntGetter) plugins_test_symbol (io, io_getters[k]);
          g_assert_cmpint (fn (k + 1, &ts, &v), ==, 0);
          io_sum[k] += v;
          if (round == 0)
            first_round[k] = v;
        }
    }
  /* Printed only now: printing is I/O. */
  for (guint k = 0; k < G_N_ELEMENTS (io_getters); k++)
    g_test_message ("%s: %" G_GUINT64_FORMAT " over 20 rounds (%" G_GUINT64_FORMAT
                    " in the first)", io_getters[k], io_sum[k], first_round[k]);
  for (guint k = 0; k < G_N_ELEMENTS (io_getters); k++)
    g_assert_cmpuint (io_sum[k], ==, 0);
}

typedef struct {
  volatile gint stop;
  volatile gint started;
} Burners;

static gpointer
burner (gpointer data)
{
  Burners *b = data;
  g_atomic_int_inc (&b->started);
  volatile uint64_t x = 0;
  while (!g_atomic_int_get (&b->stop))
    for (int i = 0; i < 10000; i++)
      x += (uint64_t) i * x + 1;
  return NULL;
}

static double
process_cpu_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Threads started before a perf metric's first sample (as an OpenMP pool
 * started before the sampler's first sample) are counted: task-clock
 * matches the process's CPU time, including a thread that ends between
 * two samples. */
static void
test_perf_threads_before_first_sample (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  Burners a = { 0, 0 }, b = { 0, 0 };
  GThread *ta = g_thread_new ("burn-a", burner, &a);
  GThread *tb = g_thread_new ("burn-b", burner, &b);
  while (!g_atomic_int_get (&a.started) || !g_atomic_int_get (&b.started))
    g_usleep (1000);
  g_usleep (50000);

  plugins_test_set_custom_data (1, "task-clock");
  /* The process's CPU time is read on both sides of the counters' opening
   * and of their read, so the busy threads' time between the two reads
   * cannot be charged to one side only (it grows on a loaded machine). */
  double outer_start = process_cpu_seconds ();
  double steal = mg_test_steal_seconds ();
  /* The first sample opens the counters: no value yet. */
  g_assert_true (isnan (plugins_test_call_double (sw, "mg_perf_seconds", 1)));
  double inner_start = process_cpu_seconds ();
  g_usleep (150000);
  g_atomic_int_set (&a.stop, 1);
  g_thread_join (ta); /* ends between the samples */
  g_usleep (150000);
  double inner_end = process_cpu_seconds ();
  double task_clock = plugins_test_call_double (sw, "mg_perf_seconds", 1);
  double outer_end = process_cpu_seconds ();
  steal = mg_test_steal_seconds () - steal;
  g_atomic_int_set (&b.stop, 1);
  g_thread_join (tb);
  double used = inner_end - inner_start, used_outer = outer_end - outer_start;
  g_test_message ("two busy threads started before the first sample, one "
                  "ending midway: task-clock %.3f s, the process used %.3f s "
                  "(%.3f s with the opening and the read); %.3f s stolen by the host",
                  task_clock, used, used_outer, steal);
  g_assert_cmpfloat (used, >, 0.05); /* the threads ran */
  g_assert_cmpfloat (task_clock, >=, used * 0.95);
  /* Above by a few scheduler ticks at most (seen 10 and 21 ms on a loaded
   * VM under the sanitisers); a thread counted twice would add its whole
   * share, a third to a half of the time used here (0.3 s or more when
   * the machine is not saturated). task-clock also counts the host's
   * steal time, which the process's CPU time leaves out. */
  g_assert_cmpfloat (task_clock, <=, used_outer * 1.05 + 0.04 + steal);

  /* The ended thread's count stays in the sum: the next sample holds only
   * what happened since. */
  g_usleep (20000);
  double idle = plugins_test_call_double (sw, "mg_perf_seconds", 1);
  g_assert_cmpfloat (idle, >=, 0);
  g_assert_cmpfloat (idle, <, 0.02);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/scope/cpu-fork", test_cpu_fork);
  g_test_add_func ("/metrics/scope/memory-fork", test_memory_fork);
  g_test_add_func ("/metrics/scope/io-fork", test_io_fork);
  g_test_add_func ("/metrics/scope/io-plugins-invisible", test_io_plugins_invisible);
  g_test_add_func ("/metrics/scope/perf-threads-before-first-sample",
                   test_perf_threads_before_first_sample);
  return g_test_run ();
}
