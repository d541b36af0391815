/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the built-in metric plugins, loaded from <build>/plugins and
 * driven directly: initialise, then call getters around workloads whose
 * effect is known. The allinea_* API comes from the sampler's API sources
 * linked into this program (exported with export_dynamic). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "format/mg-run-folder-layout.h"
#include "plugins-test-support.h"
#include "mg-test-common.h"
#include "mg-sampler-state.h"

#define MB (1024 * 1024)

static void
test_cpu_time (void)
{
  void *cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (cpu, 1), ==, 0);
  plugins_test_call_double (cpu, "mg_cpu_time", 1);
  plugins_test_call_double (cpu, "mg_cpu_user_time", 2);
  plugins_test_call_double (cpu, "mg_cpu_system_time", 3);

  double used = plugins_test_burn_cpu (0.4);
  double cpu_s = plugins_test_call_double (cpu, "mg_cpu_time", 1);
  double user_s = plugins_test_call_double (cpu, "mg_cpu_user_time", 2);
  double system_s = plugins_test_call_double (cpu, "mg_cpu_system_time", 3);
  g_test_message ("burnt %.3f s: cpu %.3f user %.3f system %.3f", used, cpu_s,
                  user_s, system_s);
  g_assert_cmpfloat (cpu_s, >=, used * 0.9);
  g_assert_cmpfloat (cpu_s, <=, used * 1.1);
  g_assert_cmpfloat (user_s + system_s, >=, used * 0.9);
  g_assert_cmpfloat (user_s + system_s, <=, used * 1.1);
  g_assert_cmpfloat (user_s, >, system_s);

  /* Nothing burnt since: the next delta is small. */
  g_assert_cmpfloat (plugins_test_call_double (cpu, "mg_cpu_time", 1), <, 0.05);

  /* This thread is running: at least one runnable thread on the node. */
  int cores = allinea_get_physical_core_count ();
  double load = plugins_test_call_double (cpu, "mg_cpu_loadavg", 4);
  g_assert_cmpfloat (load, >=, 100.0 / (cores > 0 ? cores : 1) - 1e-9);
}

/* Per sample, as the sampler takes them: a thread of its own calls the
 * getters every 20 ms while the main thread burns CPU. */
#define SAMPLES 50

typedef struct {
  void *cpu;
  clockid_t main_clock;
  volatile gint done;
  /* For each sample: the wall time before the getters and after the
   * reference, and the reference: the process's CPU time (main thread +
   * this one) read just after the getters. It is read after them because
   * reading a running thread's clock brings the kernel's sum for it up to
   * date, which would hide the lag the plugin must overcome. */
  double start[SAMPLES + 1], end[SAMPLES + 1], reference[SAMPLES + 1];
  double total[SAMPLES + 1], user[SAMPLES + 1], system[SAMPLES + 1];
} PerSample;

static double
clock_seconds (clockid_t clock)
{
  struct timespec ts;
  g_assert_cmpint (clock_gettime (clock, &ts), ==, 0);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static gpointer
per_sample_thread (gpointer data)
{
  PerSample *ps = data;
  PluginsTestDoubleGetter total = (PluginsTestDoubleGetter) plugins_test_symbol (ps->cpu, "mg_cpu_time");
  PluginsTestDoubleGetter user = (PluginsTestDoubleGetter) plugins_test_symbol (ps->cpu, "mg_cpu_user_time");
  PluginsTestDoubleGetter system = (PluginsTestDoubleGetter) plugins_test_symbol (ps->cpu, "mg_cpu_system_time");
  for (int i = 0; i <= SAMPLES; i++)
    {
      if (i > 0)
        g_usleep (20000);
      /* Each getter gets the round's time, as from the sampler: rate
       * getters move theirs to when they read. */
      struct timespec t = plugins_test_now (), t1 = t, t2 = t, t3 = t;
      ps->start[i] = (double) t.tv_sec + (double) t.tv_nsec / 1e9;
      g_assert_cmpint (total (1, &t1, &ps->total[i]), ==, 0);
      g_assert_cmpint (user (2, &t2, &ps->user[i]), ==, 0);
      g_assert_cmpint (system (3, &t3, &ps->system[i]), ==, 0);
      ps->reference[i] = clock_seconds (ps->main_clock)
                         + clock_seconds (CLOCK_THREAD_CPUTIME_ID);
      ps->end[i] = clock_seconds (CLOCK_MONOTONIC);
    }
  g_atomic_int_set (&ps->done, 1);
  return NULL;
}

static void
test_cpu_time_per_sample (void)
{
  g_autofree char *status = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  /* The reference counts this thread and the sampling one only. */
  g_assert_nonnull (strstr (status, "\nThreads:\t1\n"));

  PerSample *ps = g_new0 (PerSample, 1);
  ps->cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (ps->cpu, 1), ==, 0);
  g_assert_cmpint (pthread_getcpuclockid (pthread_self (), &ps->main_clock), ==, 0);
  GThread *sampler = g_thread_new ("sampler", per_sample_thread, ps);
  volatile uint64_t x = 0;
  while (!g_atomic_int_get (&ps->done))
    for (int i = 0; i < 100000; i++)
      x += (uint64_t) i * x + 1;
  g_thread_join (sampler);

  int at_full_pace = 0;
  double lowest = 1e9, highest = 0, worst = 0;
  for (int i = 1; i <= SAMPLES; i++)
    {
      double interval = ps->start[i] - ps->start[i - 1];
      double used = ps->reference[i] - ps->reference[i - 1];
      /* The getters ran between start and end: at each end of the interval
       * the getters' reading and the reference differ by at most what the
       * two threads used meanwhile. */
      double slack = 2 * ((ps->end[i] - ps->start[i]) + (ps->end[i - 1] - ps->start[i - 1]))
                     + 20e-6;
      worst = MAX (worst, fabs (ps->total[i] - used));
      g_assert_cmpfloat (fabs (ps->total[i] - used), <=, slack);
      g_assert_cmpfloat_with_epsilon (ps->user[i] + ps->system[i], ps->total[i], 1e-9);
      /* When the machine let the burning thread keep its core, the sample
       * reads a full core. */
      double percent = 100 * ps->total[i] / interval;
      if (used / interval >= 0.9)
        {
          at_full_pace++;
          lowest = MIN (lowest, percent);
          highest = MAX (highest, percent);
          g_assert_cmpfloat (percent, >=, 85);
          g_assert_cmpfloat (percent, <=, 115);
        }
    }
  g_test_message ("largest difference from the threads' clocks %.0f us; %d of "
                  "%d samples at full pace (the machine is busy when few are)",
                  worst * 1e6, at_full_pace, SAMPLES);
  if (at_full_pace > 0)
    g_test_message ("those read %.1f%% to %.1f%%", lowest, highest);
  g_free (ps);
}

/* The sampler's own thread is left out of the program's CPU time and is
 * what Sampler overhead reports. A thread of this test stands for it (the
 * sampler's mg-thread-usage.c is linked in): each round it burns 4 ms, then
 * calls the getters, while the main thread burns all along. */
#define OWN_ROUNDS 20

typedef struct {
  void *cpu, *overhead;
  clockid_t main_clock;
  volatile gint done;
  double program[OWN_ROUNDS + 1], cost[OWN_ROUNDS + 1], main_used[OWN_ROUNDS + 1];
  double start[OWN_ROUNDS + 1], end[OWN_ROUNDS + 1]; /* wall time around the readings */
  double own_cpu;
} OwnThread;

static gpointer
own_sampler_thread (gpointer data)
{
  OwnThread *o = data;
  mg_thread_usage_begin ();
  for (int i = 0; i <= OWN_ROUNDS; i++)
    {
      g_usleep (10000);
      plugins_test_burn_cpu (0.004);
      struct timespec t = plugins_test_now (), t1 = t, t2 = t;
      o->start[i] = (double) t.tv_sec + (double) t.tv_nsec / 1e9;
      g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (o->cpu, "mg_cpu_time")) (1, &t1, &o->program[i]), ==, 0);
      g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (o->overhead, "mg_sampler_overhead")) (2, &t2, &o->cost[i]), ==, 0);
      o->main_used[i] = clock_seconds (o->main_clock);
      o->end[i] = clock_seconds (CLOCK_MONOTONIC);
    }
  o->own_cpu = clock_seconds (CLOCK_THREAD_CPUTIME_ID);
  mg_thread_usage_end ();
  g_atomic_int_set (&o->done, 1);
  return NULL;
}

static void
test_cpu_time_leaves_out_sampler (void)
{
  OwnThread *o = g_new0 (OwnThread, 1);
  mg_thread_usage_reset ();
  o->cpu = plugins_test_load_plugin ("metrograph-cpu");
  o->overhead = plugins_test_load_plugin ("metrograph-sampler-overhead");
  g_assert_cmpint (plugins_test_init_plugin (o->cpu, 1), ==, 0);
  g_assert_cmpint (plugins_test_init_plugin (o->overhead, 2), ==, 0);
  g_assert_cmpint (pthread_getcpuclockid (pthread_self (), &o->main_clock), ==, 0);
  GThread *thread = g_thread_new ("own-sampler", own_sampler_thread, o);
  volatile uint64_t x = 0;
  while (!g_atomic_int_get (&o->done))
    for (int i = 0; i < 10000; i++)
      x += (uint64_t) i * x + 1;
  g_thread_join (thread);

  /* Round by round: the program's time is the main thread's alone. */
  double program = 0, cost = 0, worst = 0;
  for (int i = 1; i <= OWN_ROUNDS; i++)
    {
      double used = o->main_used[i] - o->main_used[i - 1];
      /* The main thread burns on while the readings are taken: they differ
       * by at most what it used meanwhile (more on a busy machine). */
      double slack = (o->end[i] - o->start[i]) + (o->end[i - 1] - o->start[i - 1]) + 20e-6;
      g_assert_cmpfloat (fabs (o->program[i] - used), <=, slack);
      worst = MAX (worst, fabs (o->program[i] - used));
      program += o->program[i];
      cost += o->cost[i];
    }
  cost += o->cost[0];
  g_test_message ("program %.4f s (main thread %.4f s, worst round %.0f us off); "
                  "sampler overhead %.4f s of the thread's %.4f s",
                  program, o->main_used[OWN_ROUNDS] - o->main_used[0], worst * 1e6, cost,
                  o->own_cpu);
  /* Each round the sampler thread burnt 4 ms: counted, the rounds would
   * add up to 80 ms more than the main thread used. */
  g_assert_cmpfloat (fabs (program - (o->main_used[OWN_ROUNDS] - o->main_used[0])), <, 0.002);
  g_assert_cmpfloat (fabs (cost - o->own_cpu), <, 0.0005);
  g_assert_cmpfloat (o->own_cpu, >=, 0.004 * (OWN_ROUNDS + 1));

  /* After the thread ended (the exit's last round runs on the program's
   * thread): its time stays out, and it costs nothing more. */
  double before = clock_seconds (o->main_clock);
  plugins_test_burn_cpu (0.02);
  struct timespec t = plugins_test_next_round_time (), t1 = t, t2 = t;
  double last, last_cost;
  g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (o->cpu, "mg_cpu_time")) (1, &t1, &last), ==, 0);
  g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (o->overhead, "mg_sampler_overhead")) (2, &t2, &last_cost), ==, 0);
  double after = clock_seconds (o->main_clock);
  g_assert_cmpfloat (last, >=, before - o->main_used[OWN_ROUNDS]);
  g_assert_cmpfloat (last, <=, after - o->main_used[OWN_ROUNDS] + 0.001);
  /* Only what the thread did after its last round, as it ended. */
  g_assert_cmpfloat (last_cost, <, 0.0005);
  mg_thread_usage_reset ();
  g_free (o);
}

static gpointer
burn_thread (gpointer data)
{
  plugins_test_burn_cpu (*(double *) data);
  return NULL;
}

static gpointer
idle_thread (gpointer data)
{
  while (!g_atomic_int_get ((gint *) data))
    g_usleep (1000);
  return NULL;
}

/* One sampling round of the three CPU time getters. */
static double
cpu_round (void *cpu, double *user_system)
{
  struct timespec t = plugins_test_next_round_time (), t1 = t, t2 = t, t3 = t;
  double total, user, system;
  g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (cpu, "mg_cpu_time")) (1, &t1, &total), ==, 0);
  g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (cpu, "mg_cpu_user_time")) (2, &t2, &user), ==, 0);
  g_assert_cmpint (((PluginsTestDoubleGetter) plugins_test_symbol (cpu, "mg_cpu_system_time")) (3, &t3, &system), ==, 0);
  g_assert_cmpfloat_with_epsilon (user + system, total, 1e-9);
  *user_system = user + system;
  return total;
}

/* Several threads, one ending between two samples, and more threads than
 * the plugin follows one by one: the samples add up to the process's CPU
 * time. */
static void
test_cpu_time_threads (void)
{
  void *cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (cpu, 1), ==, 0);
  double user_system;
  cpu_round (cpu, &user_system);

  for (int many = 0; many < 2; many++)
    {
      /* 40 idle threads: more than the 32 followed one by one. */
      gint stop = 0;
      GThread *idle[40];
      int n_idle = many ? 40 : 0;
      for (int i = 0; i < n_idle; i++)
        idle[i] = g_thread_new ("idle", idle_thread, &stop);

      cpu_round (cpu, &user_system); /* the samples count from here */
      double start = clock_seconds (CLOCK_PROCESS_CPUTIME_ID);
      double short_burn = 0.05, long_burn = 0.25;
      GThread *a = g_thread_new ("burn", burn_thread, &short_burn);
      GThread *b = g_thread_new ("burn", burn_thread, &long_burn);
      double total = 0;
      gboolean a_joined = FALSE;
      for (int round = 0; round < 100; round++)
        {
          g_usleep (20000);
          total += cpu_round (cpu, &user_system);
          if (round == 5)
            {
              g_thread_join (a); /* ended by now, or soon */
              a_joined = TRUE;
            }
          if (round > 5 && clock_seconds (CLOCK_PROCESS_CPUTIME_ID) - start > 0.35)
            break;
        }
      g_assert_true (a_joined);
      g_thread_join (b);
      g_atomic_int_set (&stop, 1);
      for (int i = 0; i < n_idle; i++)
        g_thread_join (idle[i]);
      total += cpu_round (cpu, &user_system);
      double used = clock_seconds (CLOCK_PROCESS_CPUTIME_ID) - start;
      g_test_message ("%d idle threads: samples add up to %.4f s, the process "
                      "used %.4f s", n_idle, total, used);
      g_assert_cmpfloat (total, >=, used * 0.97);
      g_assert_cmpfloat (total, <=, used * 1.03);
    }
}

/* Getters whose values the sampler divides by the sample time move the
 * sample time forward to when they read, so that a sampler delayed within
 * its round divides by the time the reading covers; totals leave it. */
static void
test_read_time (void)
{
  static const struct {
    const char *plugin, *getter;
    gboolean is_double, moves;
  } cases[] = {
    { "metrograph-cpu", "mg_cpu_time", TRUE, TRUE },
    { "metrograph-cpu", "mg_cpu_voluntary_switches", FALSE, TRUE },
    { "metrograph-memory", "mg_memory_minor_faults", FALSE, TRUE },
    { "metrograph-io", "mg_io_wchar_rate", FALSE, TRUE },
    { "metrograph-io", "mg_io_wchar_total", FALSE, FALSE },
    { "metrograph-memory", "mg_memory_rss", FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      void *plugin = plugins_test_load_plugin (cases[i].plugin);
      g_assert_cmpint (plugins_test_init_plugin (plugin, 1), ==, 0);
      gpointer fn = plugins_test_symbol (plugin, cases[i].getter);
      /* A round that started 5 ms before its getters ran. */
      struct timespec before = plugins_test_now ();
      gint64 before_ns = (gint64) before.tv_sec * 1000000000 + before.tv_nsec;
      gint64 round_ns = before_ns - 5000000;
      struct timespec t = { round_ns / 1000000000, round_ns % 1000000000 };
      uint64_t u;
      double d;
      int r = cases[i].is_double ? ((PluginsTestDoubleGetter) fn) (1, &t, &d)
                                 : ((PluginsTestIntGetter) fn) (1, &t, &u);
      g_assert_cmpint (r, ==, 0);
      gint64 t_ns = (gint64) t.tv_sec * 1000000000 + t.tv_nsec;
      if (cases[i].moves)
        {
          g_assert_cmpint (t_ns, >=, before_ns);
          g_assert_cmpint (t_ns, <=, before_ns + 1000000000);
        }
      else
        g_assert_cmpint (t_ns, ==, round_ns);
    }
}

static void
test_context_switches (void)
{
  void *cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (cpu, 1), ==, 0);
  plugins_test_call_int (cpu, "mg_cpu_voluntary_switches", 5);
  for (int i = 0; i < 50; i++)
    g_usleep (1000);
  uint64_t voluntary = plugins_test_call_int (cpu, "mg_cpu_voluntary_switches", 5);
  g_test_message ("voluntary switches over 50 sleeps: %" G_GUINT64_FORMAT, voluntary);
  g_assert_cmpuint (voluntary, >=, 50);
  g_assert_cmpuint (voluntary, <, 5000);
  /* A getter called with the same sample time reads the same snapshot. */
  plugins_test_call_int (cpu, "mg_cpu_involuntary_switches", 6);
}

/* The plugin reads the kernel's RSS counter, which may lag the pages really
 * mapped (plugins_test_rss_counter_slack): on Debian 12's Linux 6.1 a rise read
 * 104 KiB short of 200 MiB touched, the last faults still cached in the
 * thread. The rise is checked within that slack, and every reading against
 * /proc/self/status read at once after it (the same counter on 6.1, its
 * exact sum on recent kernels). The block is mmap()ed: meson's
 * MALLOC_PERTURB_ would have malloc() touch it before the first reading. */
static void
test_rss (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  uint64_t slack = plugins_test_rss_counter_slack ();
  uint64_t before = plugins_test_call_int (mem, "mg_memory_rss", 1);
  uint64_t status_before = plugins_test_status_rss ();
  plugins_test_call_int (mem, "mg_memory_minor_faults", 2);
  size_t size = 200 * MB;
  char *block = mmap (NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (block != MAP_FAILED);
  for (size_t i = 0; i < size; i += 4096)
    block[i] = (char) i;
  uint64_t after = plugins_test_call_int (mem, "mg_memory_rss", 1);
  uint64_t status_after = plugins_test_status_rss ();
  uint64_t faults = plugins_test_call_int (mem, "mg_memory_minor_faults", 2);
  g_test_message ("rss %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
                  " (status %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
                  "), slack %" G_GUINT64_FORMAT ", minor faults %" G_GUINT64_FORMAT,
                  before, after, status_before, status_after, slack, faults);
  g_assert_cmpuint (after + slack, >=, before + size);
  g_assert_cmpuint (after, <=, before + size + slack);
  g_assert_cmpuint (before, <=, status_before + slack);
  g_assert_cmpuint (status_before, <=, before + slack);
  g_assert_cmpuint (after, <=, status_after + slack);
  g_assert_cmpuint (status_after, <=, after + slack);
  /* 51200 pages touched; transparent huge pages may serve them with fewer. */
  g_assert_cmpuint (faults, >=, 100);
  g_assert_cmpint (munmap (block, size), ==, 0);

  uint64_t node = plugins_test_call_int (mem, "mg_memory_per_node", 3);
  g_assert_cmpuint (node, ==, (uint64_t) sysconf (_SC_PHYS_PAGES) * (uint64_t) sysconf (_SC_PAGESIZE));
  double percent = plugins_test_call_double (mem, "mg_memory_node_percent", 4);
  g_assert_cmpfloat (percent, >, 0.0);
  g_assert_cmpfloat (percent, <=, 100.0);
}

/* Node memory use from /proc/meminfo read directly now. */
static double
node_percent_now (void)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents ("/proc/meminfo", &text, NULL, NULL));
  const char *total = strstr (text, "MemTotal:");
  const char *available = strstr (text, "MemAvailable:");
  g_assert_nonnull (total);
  g_assert_nonnull (available);
  double t = g_ascii_strtod (total + 9, NULL), a = g_ascii_strtod (available + 13, NULL);
  return (t - a) * 100.0 / t;
}

static double
node_percent_at (void *mem, int64_t ns)
{
  PluginsTestDoubleGetter fn = (PluginsTestDoubleGetter) plugins_test_symbol (mem, "mg_memory_node_percent");
  struct timespec t = { (time_t) (ns / 1000000000), (long) (ns % 1000000000) };
  double v = -1;
  g_assert_cmpint (fn (2, &t, &v), ==, 0);
  return v;
}

/* The node's memory use is read at most every 100 ms of sample time: 256 MiB
 * touched in between change nothing before, and the reading after is the
 * kernel's of that moment. */
static void
test_node_memory_refresh (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  struct timespec now = plugins_test_next_round_time ();
  int64_t t0 = (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
  double first = node_percent_at (mem, t0);
  size_t size = 256 * MB;
  char *block = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (block != MAP_FAILED);
  for (size_t i = 0; i < size; i += 4096)
    block[i] = 1;
  double within = node_percent_at (mem, t0 + 99999999);
  double after = node_percent_at (mem, t0 + 100000000);
  double direct = node_percent_now ();
  g_test_message ("node memory %.3f %%, 99.9 ms later %.3f %% (256 MiB touched), "
                  "100 ms later %.3f %%, /proc/meminfo %.3f %%", first, within, after, direct);
  g_assert_cmpfloat (within, ==, first);
  g_assert_cmpfloat (fabs (after - direct), <, 0.5);
  g_assert_cmpint (munmap (block, size), ==, 0);
}

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

/* The descriptor at or above 512 that names path (a plugin's kept-open
 * /proc file), or -1. */
static int
kept_open_fd (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *link = g_strdup_printf ("/proc/self/fd/%s", name);
      g_autofree char *target = g_file_read_link (link, NULL);
      int fd = atoi (name);
      if (fd >= 512 && target && strcmp (target, path) == 0)
        return fd;
    }
  return -1;
}

/* A program may close the descriptor a plugin keeps open and get the
 * number back for a file of its own. The plugin then never moves that
 * file's offset nor closes it, and reads its own file again after the
 * periodic check (50 reads) at the latest, or at once when the number is
 * simply closed. */
static void
test_kept_open_file_taken (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  uint64_t slack = plugins_test_rss_counter_slack ();
  plugins_test_call_int (mem, "mg_memory_rss", 1);
  g_autofree char *statm = g_strdup_printf ("/proc/%d/statm", (int) getpid ());
  int ours = kept_open_fd (statm);
  g_assert_cmpint (ours, >=, 512);

  /* A statm look-alike of 1000000 resident pages, read to offset 3. */
  g_autofree char *path = NULL;
  int theirs = g_file_open_tmp ("mg-statm-XXXXXX", &path, NULL);
  g_assert_cmpint (theirs, >=, 0);
  write_all (theirs, "1 1000000 0 0 0 0 0\n", 20);
  g_assert_cmpint (lseek (theirs, 3, SEEK_SET), ==, 3);
  g_assert_cmpint (dup2 (theirs, ours), ==, ours);
  uint64_t fake = 1000000 * (uint64_t) sysconf (_SC_PAGESIZE);
  int fake_reads = 0;
  uint64_t rss = 0;
  for (int i = 0; i <= 50; i++)
    {
      rss = plugins_test_call_int (mem, "mg_memory_rss", 1);
      fake_reads += rss == fake;
    }
  uint64_t status = plugins_test_status_rss ();
  g_test_message ("%d of 51 reads of the program's file; then rss %" G_GUINT64_FORMAT
                  ", status %" G_GUINT64_FORMAT, fake_reads, rss, status);
  g_assert_cmpint (fake_reads, <=, 50);
  g_assert_cmpuint (rss, <=, status + slack);
  g_assert_cmpuint (status, <=, rss + slack);
  g_assert_cmpint (lseek (ours, 0, SEEK_CUR), ==, 3);
  g_assert_cmpint (fcntl (ours, F_GETFD), !=, -1);
  int reopened = kept_open_fd (statm);
  g_assert_cmpint (reopened, >=, 512);
  g_assert_cmpint (reopened, !=, ours);

  /* Closed by the program: read again from the next call on. */
  g_assert_cmpint (close (reopened), ==, 0);
  rss = plugins_test_call_int (mem, "mg_memory_rss", 1);
  status = plugins_test_status_rss ();
  g_assert_cmpuint (rss, <=, status + slack);
  g_assert_cmpuint (status, <=, rss + slack);
  close (theirs);
  close (ours);
  g_unlink (path);
}

/* Descriptors open from 3 below @limit. */
static int
open_below (int limit)
{
  int n = 0;
  for (int fd = 3; fd < limit; fd++)
    n += fcntl (fd, F_GETFD) >= 0;
  return n;
}

/* In a child whose every number from 3 is free, under `ulimit -n 16`
 * (soft = hard): the Memory plugin's /proc files are not kept (they took
 * 2 of the 13 numbers) but opened for each reading, whose values match
 * /proc/self/status; while the program holds every number, a reading
 * fails with EMFILE and costs that value only, the next one after is
 * right again; the software perf plugin declines with the limit named
 * (its counters cannot be opened for each reading). */
static void
test_proc_files_not_kept (void)
{
  pid_t pid = fork ();
  int status = 0;
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct rlimit limit = { 16, 16 };
      for (int fd = 3; fd < 1024; fd++)
        close (fd);
      g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &limit), ==, 0);
      void *mem = plugins_test_load_plugin ("metrograph-memory");
      PluginsTestInitFn cleanup = (PluginsTestInitFn) plugins_test_symbol (mem, "allinea_plugin_cleanup");
      cleanup (1, NULL); /* the files a test before kept */
      g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
      uint64_t slack = plugins_test_rss_counter_slack ();
      int before = open_below (16);
      for (int i = 0; i < 3; i++)
        {
          uint64_t rss = plugins_test_call_int (mem, "mg_memory_rss", 1);
          uint64_t status_rss = plugins_test_status_rss ();
          double percent = plugins_test_call_double (mem, "mg_memory_node_percent", 2);
          g_assert_cmpuint (rss, <=, status_rss + slack);
          g_assert_cmpuint (status_rss, <=, rss + slack);
          g_assert_cmpfloat (percent, >, 0.0);
          g_assert_cmpint (open_below (16), ==, before);
        }

      int held[16], n = 0;
      while (n < 16 && (held[n] = open ("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
        n++;
      g_assert_cmpint (n, ==, 16 - 3 - before);
      PluginsTestIntGetter rss_fn = (PluginsTestIntGetter) plugins_test_symbol (mem, "mg_memory_rss");
      struct timespec t = plugins_test_next_round_time ();
      uint64_t v = 0;
      plugins_test_clear_errors ();
      g_assert_cmpint (rss_fn (1, &t, &v), ==, -1);
      g_assert_nonnull (strstr (plugins_test_metric_error (1), "(errno 24)"));
      while (n > 0)
        close (held[--n]);
      uint64_t rss = plugins_test_call_int (mem, "mg_memory_rss", 1);
      g_assert_cmpuint (rss, <=, plugins_test_status_rss () + slack);
      g_assert_cmpint (open_below (16), ==, before);
      cleanup (1, NULL);

      if (plugins_test_perf_refused_reason () == NULL)
        {
          void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
          int code = 0;
          plugins_test_clear_errors ();
          g_assert_cmpint (plugins_test_init_plugin (sw, 1), !=, 0);
          g_assert_cmpstr (plugins_test_plugin_error (&code), ==,
                           "Software Events: the hard descriptor limit of 16 leaves no room "
                           "for counters: event 'task-clock' would take numbers the program "
                           "may use, and a counter cannot be reopened each round; raise the "
                           "hard limit, or lower the soft one alone ('ulimit -Sn')");
          g_assert_cmpint (code, ==, EMFILE);
          g_assert_cmpint (open_below (16), ==, before);
        }
      _exit (0);
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* The number goes to another file of ours: a program that closes every
 * descriptor mid-run (close_range) has the plugins reopen their files at
 * the lowest free numbers of the band, so statm's number may come to hold
 * another plugin's /proc/self/io (and meminfo's a statm). The plugin sees
 * that the text is not its file's and reads its own at once: RSS read 0
 * for 35 rounds in a row (until the periodic check), and the node metrics
 * failed ("/proc/meminfo has no MemTotal") for 37. */
static void
test_kept_open_file_ours_taken (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  uint64_t slack = plugins_test_rss_counter_slack ();
  uint64_t node = (uint64_t) sysconf (_SC_PHYS_PAGES) * (uint64_t) sysconf (_SC_PAGESIZE);
  plugins_test_call_int (mem, "mg_memory_rss", 1);
  g_assert_cmpuint (plugins_test_call_int (mem, "mg_memory_per_node", 3), ==, node);
  g_autofree char *statm = g_strdup_printf ("/proc/%d/statm", (int) getpid ());
  int statm_fd = kept_open_fd (statm);
  int meminfo_fd = kept_open_fd ("/proc/meminfo");
  g_assert_cmpint (statm_fd, >=, 512);
  g_assert_cmpint (meminfo_fd, >=, 512);

  int io = open ("/proc/self/io", O_RDONLY | O_CLOEXEC);
  int other_statm = open ("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (dup2 (io, statm_fd), ==, statm_fd);
  g_assert_cmpint (dup2 (other_statm, meminfo_fd), ==, meminfo_fd);
  uint64_t rss = plugins_test_call_int (mem, "mg_memory_rss", 1);
  uint64_t status = plugins_test_status_rss ();
  g_assert_cmpuint (rss, <=, status + slack);
  g_assert_cmpuint (status, <=, rss + slack);
  /* The node figures are read again every 100 ms of round times: at
   * least one of these reads the file, and none fails (g_error). */
  for (int i = 0; i < 12; i++)
    g_assert_cmpuint (plugins_test_call_int (mem, "mg_memory_per_node", 3), ==, node);
  g_assert_cmpint (kept_open_fd (statm), !=, statm_fd);
  g_assert_cmpint (kept_open_fd ("/proc/meminfo"), !=, meminfo_fd);
  close (io);
  close (other_statm);
  close (statm_fd);
  close (meminfo_fd);
}

static void
test_io_totals (void)
{
  void *io = plugins_test_load_plugin ("metrograph-io");
  g_assert_cmpint (plugins_test_init_plugin (io, 1), ==, 0);
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_autofree char *buf = g_malloc0 (MB);

  for (int i = 0; i < 32; i++)
    write_all (fd, buf, MB);
  /* Safe writes are the profiler's own I/O: left out. */
  g_assert_cmpint (allinea_safe_write (fd, buf, MB), ==, MB);
  for (int i = 0; i < 32; i++)
    write_all (fd, buf, MB);
  /* Many rounds of the plugin reading /proc/self/io through safe reads. */
  for (int i = 0; i < 100; i++)
    {
      struct timespec t = plugins_test_next_round_time ();
      uint64_t v;
      PluginsTestIntGetter rchar = (PluginsTestIntGetter) plugins_test_symbol (io, "mg_io_rchar_total");
      g_assert_cmpint (rchar (1, &t, &v), ==, 0);
    }
  close (fd);

  uint64_t wchar = plugins_test_call_int (io, "mg_io_wchar_total", 2);
  uint64_t syscw = plugins_test_call_int (io, "mg_io_syscw_total", 3);
  uint64_t rchar = plugins_test_call_int (io, "mg_io_rchar_total", 1);
  g_test_message ("wchar_total %" G_GUINT64_FORMAT " syscw_total %" G_GUINT64_FORMAT
                  " rchar_total %" G_GUINT64_FORMAT, wchar, syscw, rchar);
  g_assert_cmpuint (wchar, >=, 64 * MB);
  g_assert_cmpuint (wchar, <=, 64 * MB + 64 * MB / 100);
  g_assert_cmpuint (syscw, >=, 64);
  g_assert_cmpuint (syscw, <, 64 + 20);
  /* 100 reads of /proc/self/io would be tens of kB: none of it shows. */
  g_assert_cmpuint (rchar, <, 4096);

  /* The rates see the same bytes. */
  g_assert_cmpint (plugins_test_init_plugin (io, 1), ==, 0);
  plugins_test_call_int (io, "mg_io_wchar_rate", 4);
  fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  write_all (fd, buf, MB);
  close (fd);
  uint64_t rate = plugins_test_call_int (io, "mg_io_wchar_rate", 4);
  g_assert_cmpuint (rate, >=, MB);
  g_assert_cmpuint (rate, <, MB + 4096);
  plugins_test_call_int (io, "mg_io_read_bytes_rate", 5);
  plugins_test_call_int (io, "mg_io_write_bytes_total", 6);
}

static gpointer
wait_for_lock (gpointer lock)
{
  g_mutex_lock (lock);
  g_mutex_unlock (lock);
  return NULL;
}

/* Activity: threads blocked in known calls, released through their pipe,
 * condition or semaphore. */
typedef struct {
  int pipe_fds[2];  /* read */
  int ready_fds[2]; /* poll and epoll_wait: never read, so both see it */
  int epoll_fd;
  GMutex lock;
  GCond cond;
  gboolean released;
  sem_t sem;
} ActivityWaits;

static gpointer
block_in_read (gpointer data)
{
  ActivityWaits *w = data;
  char byte;
  g_assert_cmpint (read (w->pipe_fds[0], &byte, 1), ==, 1);
  return NULL;
}

static gpointer
block_in_poll (gpointer data)
{
  ActivityWaits *w = data;
  struct pollfd p = { w->ready_fds[0], POLLIN, 0 };
  g_assert_cmpint (poll (&p, 1, -1), ==, 1);
  return NULL;
}

static gpointer
block_in_epoll (gpointer data)
{
  ActivityWaits *w = data;
  struct epoll_event e;
  g_assert_cmpint (epoll_wait (w->epoll_fd, &e, 1, -1), ==, 1);
  return NULL;
}

static gpointer
block_in_cond (gpointer data)
{
  ActivityWaits *w = data;
  g_mutex_lock (&w->lock);
  while (!w->released)
    g_cond_wait (&w->cond, &w->lock);
  g_mutex_unlock (&w->lock);
  return NULL;
}

static gpointer
block_in_sem (gpointer data)
{
  ActivityWaits *w = data;
  while (sem_wait (&w->sem) != 0)
    g_assert_cmpint (errno, ==, EINTR);
  return NULL;
}

/* The share of the process's threads in one class, as a thread count. */
static double
activity_threads (void *plugin, const char *klass, guint total)
{
  g_autofree char *getter = g_strconcat ("mg_activity_all_", klass, NULL);
  return plugins_test_call_double (plugin, getter, 1) * total / 100;
}

static guint
task_count (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  guint n = 0;
  while (g_dir_read_name (dir))
    n++;
  return n;
}

/* Six threads blocked in read, poll, epoll_wait, a condition variable and
 * a semaphore besides the (computing) one calling the getters: each counted
 * in its class, over what the process's other threads (GLib's, if any)
 * already were; the main thread computes. */
static void
test_activity_classes (void)
{
  static const char *const classes[] = { "computing", "mpi", "io", "sleep", "lock", "other" };
  void *plugin = plugins_test_load_plugin ("metrograph-activity");
  g_assert_cmpint (plugins_test_init_plugin (plugin, 1), ==, 0);
  guint before_total = task_count ();
  double before[G_N_ELEMENTS (classes)];
  /* A round per thread: all classed (8 threads a round at most). */
  for (guint r = 0; r <= before_total / 8; r++)
    plugins_test_call_double (plugin, "mg_activity_main_computing", 1);
  for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
    before[c] = activity_threads (plugin, classes[c], before_total);

  ActivityWaits w = { .released = FALSE };
  g_assert_cmpint (pipe (w.pipe_fds), ==, 0);
  g_assert_cmpint (pipe (w.ready_fds), ==, 0);
  w.epoll_fd = epoll_create1 (EPOLL_CLOEXEC);
  struct epoll_event e = { .events = EPOLLIN };
  g_assert_cmpint (epoll_ctl (w.epoll_fd, EPOLL_CTL_ADD, w.ready_fds[0], &e), ==, 0);
  g_mutex_init (&w.lock);
  g_cond_init (&w.cond);
  g_assert_cmpint (sem_init (&w.sem, 0, 0), ==, 0);
  GThreadFunc blockers[] = { block_in_read, block_in_poll, block_in_epoll, block_in_cond,
                             block_in_sem };
  const double added[] = { 0, 0, 1, 2, 2, 0 }; /* computing ... other */
  GThread *threads[G_N_ELEMENTS (blockers)];
  for (guint i = 0; i < G_N_ELEMENTS (blockers); i++)
    threads[i] = g_thread_new ("blocked", blockers[i], &w);
  g_usleep (300000); /* all blocked */

  guint total = task_count ();
  g_assert_cmpuint (total, ==, before_total + G_N_ELEMENTS (blockers));
  for (guint r = 0; r <= total / 8; r++)
    plugins_test_call_double (plugin, "mg_activity_main_computing", 1);
  g_assert_cmpfloat (plugins_test_call_double (plugin, "mg_activity_main_computing", 1), ==, 100);
  g_assert_cmpfloat (plugins_test_call_double (plugin, "mg_activity_main_lock", 1), ==, 0);
  for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
    {
      double now = activity_threads (plugin, classes[c], total);
      g_test_message ("%s: %.2f threads before, %.2f with the blocked ones", classes[c],
                      before[c], now);
      g_assert_cmpfloat (fabs (now - before[c] - added[c]), <, 0.01);
    }

  /* Released. */
  g_assert_cmpint (write (w.ready_fds[1], "x", 1), ==, 1);
  g_assert_cmpint (write (w.pipe_fds[1], "x", 1), ==, 1);
  for (guint i = 0; i < 3; i++)
    g_thread_join (threads[i]);
  g_mutex_lock (&w.lock);
  w.released = TRUE;
  g_cond_signal (&w.cond);
  g_mutex_unlock (&w.lock);
  g_thread_join (threads[3]);
  sem_post (&w.sem);
  g_thread_join (threads[4]);
  for (guint i = 0; i < 2; i++)
    {
      close (w.pipe_fds[i]);
      close (w.ready_fds[i]);
    }
  close (w.epoll_fd);
  sem_destroy (&w.sem);
  g_cond_clear (&w.cond);
  g_mutex_clear (&w.lock);
}

static void
test_threads (void)
{
  void *threads = plugins_test_load_plugin ("metrograph-threads");
  g_assert_cmpint (plugins_test_init_plugin (threads, 1), ==, 0);
  uint64_t before = plugins_test_call_int (threads, "mg_threads_count", 1);
  g_assert_cmpuint (before, >=, 1);
  GMutex lock;
  g_mutex_init (&lock);
  g_mutex_lock (&lock);
  GThread *thread = g_thread_new ("waiter", wait_for_lock, &lock);
  /* The thread blocks on the lock until we release it below. */
  uint64_t during = plugins_test_call_int (threads, "mg_threads_count", 1);
  g_mutex_unlock (&lock);
  g_thread_join (thread);
  g_mutex_clear (&lock);
  g_assert_cmpuint (during, ==, before + 1);

  /* The same number as the Threads: line of /proc/self/status, read on
   * both sides of the plugin's. Right after a join the kernel has taken the
   * ended thread off one of its counts and not yet the other (the plugin
   * read 1 and the status 2): read again until the three agree, as they do
   * once no thread is ending. */
  guint64 listed[2] = { 0, 0 }, counted = 0;
  for (int tries = 0; tries < 2000; tries++, g_usleep (1000))
    {
      for (int side = 0; side < 2; side++)
        {
          g_autofree char *status = NULL;
          if (side == 1)
            counted = plugins_test_call_int (threads, "mg_threads_count", 1);
          g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
          const char *line = strstr (status, "\nThreads:");
          g_assert_nonnull (line);
          listed[side] = g_ascii_strtoull (line + 9, NULL, 10);
        }
      if (listed[0] == listed[1] && counted == listed[0])
        break;
    }
  g_assert_cmpuint (listed[0], ==, listed[1]);
  g_assert_cmpuint (counted, ==, listed[0]);
}

/* A forked child reads its own /proc/self, not the parent's through the
 * descriptor it inherited: the parent has 2 threads, the child 1. */
static void
test_threads_after_fork (void)
{
  void *threads = plugins_test_load_plugin ("metrograph-threads");
  g_assert_cmpint (plugins_test_init_plugin (threads, 1), ==, 0);
  GMutex lock;
  g_mutex_init (&lock);
  g_mutex_lock (&lock);
  GThread *thread = g_thread_new ("waiter", wait_for_lock, &lock);
  uint64_t parent = plugins_test_call_int (threads, "mg_threads_count", 1);
  pid_t pid = fork ();
  if (pid == 0)
    {
      PluginsTestIntGetter fn = (PluginsTestIntGetter) plugins_test_symbol (threads, "mg_threads_count");
      struct timespec t = plugins_test_now ();
      uint64_t v = 0;
      _exit (fn (1, &t, &v) != 0 ? 100 : (int) v);
    }
  g_assert_cmpint (pid, >, 0);
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_mutex_unlock (&lock);
  g_thread_join (thread);
  g_mutex_clear (&lock);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, (int) parent - 1);
}

static void
test_perf_software (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  plugins_test_set_custom_data (1, "task-clock");
  plugins_test_set_custom_data (2, "page-faults");
  plugins_test_call_double (sw, "mg_perf_seconds", 1);
  plugins_test_call_int (sw, "mg_perf_count", 2);
  double steal = mg_test_steal_seconds ();
  double used = plugins_test_burn_cpu (0.3);
  double task_clock = plugins_test_call_double (sw, "mg_perf_seconds", 1);
  steal = mg_test_steal_seconds () - steal;
  g_test_message ("burnt %.3f s, task-clock %.3f s, %.3f s stolen by the host",
                  used, task_clock, steal);
  g_assert_cmpfloat (task_clock, >=, used * 0.9);
  g_assert_cmpfloat (task_clock, <=, used * 1.2 + steal);

  size_t size = 16 * MB;
  plugins_test_touch_fresh_pages (size);
  uint64_t faults = plugins_test_call_int (sw, "mg_perf_count", 2);
  g_test_message ("page faults for 16 MB: %" G_GUINT64_FORMAT, faults);
  g_assert_cmpuint (faults, >=, 8);

  /* A symbolic name, through libpfm4 when it is installed. */
  const char *no_pfm = plugins_test_libpfm_missing_reason ();
  if (no_pfm)
    {
      g_test_message ("symbolic names not tested: %s", no_pfm);
      return;
    }
  plugins_test_set_custom_data (3, "perf::PERF_COUNT_SW_PAGE_FAULTS");
  plugins_test_call_int (sw, "mg_perf_count", 3);
  plugins_test_touch_fresh_pages (size);
  faults = plugins_test_call_int (sw, "mg_perf_count", 3);
  g_test_message ("page faults for 16 MB through libpfm4: %" G_GUINT64_FORMAT, faults);
  g_assert_cmpuint (faults, >=, 8);
}

/* A counter of event on the calling thread alone, outside the plugin. */
static int
open_lone_counter (uint64_t config)
{
  struct perf_event_attr attr = { .size = sizeof attr, .type = PERF_TYPE_SOFTWARE,
                                  .config = config, .exclude_hv = 1 };
  int fd = (int) syscall (SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    {
      attr.exclude_kernel = 1;
      fd = (int) syscall (SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    }
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static uint64_t
read_lone_counter (int fd)
{
  uint64_t v = 0;
  g_assert_cmpint (read (fd, &v, sizeof v), ==, sizeof v);
  return v;
}

/* The software events of several metrics share one group per thread, read
 * at once: each metric's value is what a counter of its own gives. */
static void
test_perf_grouped (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  plugins_test_set_custom_data (1, "page-faults");
  plugins_test_set_custom_data (2, "task-clock");
  plugins_test_set_custom_data (3, "minor-faults");
  int faults_fd = open_lone_counter (PERF_COUNT_SW_PAGE_FAULTS);
  int clock_fd = open_lone_counter (PERF_COUNT_SW_TASK_CLOCK);
  for (metric_id_t id = 1; id <= 3; id++) /* their first samples open them */
    (void) (id == 2 ? plugins_test_call_double (sw, "mg_perf_seconds", id)
                    : (double) plugins_test_call_int (sw, "mg_perf_count", id));
  uint64_t faults0 = read_lone_counter (faults_fd);
  uint64_t clock0 = read_lone_counter (clock_fd);
  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  PluginsTestDoubleGetter clock = (PluginsTestDoubleGetter) plugins_test_symbol (sw, "mg_perf_seconds");

  for (int round = 0; round < 3; round++)
    {
      plugins_test_touch_fresh_pages (4 * MB * (size_t) (round + 1));
      double used = plugins_test_burn_cpu (0.1);
      /* One round: the three share the group's one read. */
      struct timespec t = plugins_test_next_round_time (), t2 = t, t3 = t;
      uint64_t faults = 0, minor = 0;
      double seconds = 0;
      g_assert_cmpint (count (1, &t, &faults), ==, 0);
      g_assert_cmpint (clock (2, &t2, &seconds), ==, 0);
      g_assert_cmpint (count (3, &t3, &minor), ==, 0);
      uint64_t faults1 = read_lone_counter (faults_fd);
      uint64_t clock1 = read_lone_counter (clock_fd);
      uint64_t lone_faults = faults1 - faults0;
      double lone_seconds = (double) (clock1 - clock0) / 1e9;
      faults0 = faults1;
      clock0 = clock1;
      g_test_message ("round %d: page faults %" G_GUINT64_FORMAT " grouped, %"
                      G_GUINT64_FORMAT " alone, %" G_GUINT64_FORMAT " minor; "
                      "task-clock %.4f s grouped, %.4f s alone (burnt %.3f s)",
                      round, faults, lone_faults, minor, seconds, lone_seconds, used);
      /* The group counts every thread of the process, the lone counters
       * this one: a few more, never fewer (within one round's skew). */
      g_assert_cmpuint (lone_faults, >=, 1000 * (uint64_t) (round + 1));
      g_assert_cmpuint (faults + 16, >=, lone_faults);
      g_assert_cmpuint (faults, <=, lone_faults + lone_faults / 20 + 64);
      g_assert_cmpuint (minor + 16, >=, lone_faults);
      g_assert_cmpuint (minor, <=, lone_faults + lone_faults / 20 + 64);
      g_assert_cmpfloat (seconds, >=, lone_seconds * 0.95);
      g_assert_cmpfloat (seconds, <=, lone_seconds * 1.1 + 0.005);
    }
  close (faults_fd);
  close (clock_fd);
}

static void
test_perf_errors (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  PluginsTestDoubleGetter ratio = (PluginsTestDoubleGetter) plugins_test_symbol (sw, "mg_perf_ratio");
  struct timespec t = plugins_test_now ();
  uint64_t v;
  double d;

  plugins_test_set_custom_data (10, "no-such-event");
  g_assert_cmpint (count (10, &t, &v), !=, 0);
  g_assert_nonnull (strstr (plugins_test_metric_error (10), "unknown event 'no-such-event'"));
  g_assert_nonnull (strstr (plugins_test_metric_error (10), "rNNNN"));

  plugins_test_set_custom_data (11, NULL);
  g_assert_cmpint (count (11, &t, &v), !=, 0);
  g_assert_nonnull (strstr (plugins_test_metric_error (11), "customData"));

  plugins_test_set_custom_data (12, "task-clock");
  g_assert_cmpint (ratio (12, &t, &d), !=, 0);
  g_assert_nonnull (strstr (plugins_test_metric_error (12), "two events"));

  /* A hardware event: its error, or values where counters exist. */
  void *hw = plugins_test_load_plugin ("metrograph-perf-hw");
  int hw_ok = plugins_test_init_plugin (hw, 2);
  plugins_test_set_custom_data (13, "instructions");
  int r = count (13, &t, &v);
  if (hw_ok != 0)
    {
      int code;
      const char *msg = plugins_test_plugin_error (&code);
      g_test_message ("hardware counters: %s", msg);
      g_assert_nonnull (strstr (msg, "CPU Instructions: event 'instructions'"));
      g_assert_true (strstr (msg, "not supported by this hardware")
                     || strstr (msg, "perf_event_paranoid = "));
      g_assert_cmpint (r, !=, 0);
      g_assert_nonnull (strstr (plugins_test_metric_error (13), "event 'instructions'"));
    }
  else
    g_assert_cmpint (r, ==, 0);
}

/* A raw event code: counted where the CPU's PMU is exposed, else refused
 * with the reason (virtual machines without a virtual PMU, such as the
 * development VMs, have no PERF_TYPE_RAW events at all). */

static void
test_perf_raw (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  if (!plugins_test_init_perf_sw (sw))
    return;
  /* 0xc0: instructions retired on Intel and AMD. */
  plugins_test_set_custom_data (30, "r00c0");
  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  struct timespec t = plugins_test_next_round_time ();
  uint64_t v = 0;
  int r = count (30, &t, &v);
  if (!g_file_test ("/sys/bus/event_source/devices/cpu", G_FILE_TEST_IS_DIR))
    {
      g_test_message ("no CPU PMU here: %s", plugins_test_metric_error (30));
      g_assert_cmpint (r, !=, 0);
      g_assert_cmpstr (plugins_test_metric_error (30), ==,
                       "event 'r00c0' not supported by this hardware: virtual "
                       "machines often have no performance counters; run on bare "
                       "metal or enable the virtual PMU (e.g. QEMU/KVM '-cpu host')");
      return;
    }
  g_assert_cmpint (r, ==, 0);
  plugins_test_burn_cpu (0.05);
  uint64_t instructions = plugins_test_call_int (sw, "mg_perf_count", 30);
  g_test_message ("r00c0 over 50 ms of CPU: %" G_GUINT64_FORMAT, instructions);
  g_assert_cmpuint (instructions, >, 1000000);
}

/* Major faults: a file's pages dropped from the page cache, then touched
 * through a mapping without read-ahead, fault one by one with I/O. */
static void
test_major_faults (void)
{
  void *mem = plugins_test_load_plugin ("metrograph-memory");
  g_assert_cmpint (plugins_test_init_plugin (mem, 1), ==, 0);
  /* Beside the build tree: a real file system (tmpfs pages cannot be
   * dropped). */
  g_autofree char *path = g_build_filename (g_getenv ("MG_BUILD_ROOT"),
                                            "major-faults.tmp", NULL);
  size_t size = 4 * MB, pages = size / 4096;
  int fd = open (path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_unlink (path);
  g_autofree char *buf = g_malloc (size);
  memset (buf, 7, size);
  write_all (fd, buf, size);
  g_assert_cmpint (fdatasync (fd), ==, 0);
  g_assert_cmpint (posix_fadvise (fd, 0, (off_t) size, POSIX_FADV_DONTNEED), ==, 0);
  char *map = mmap (NULL, size, PROT_READ, MAP_SHARED, fd, 0);
  g_assert_true (map != MAP_FAILED);
  g_assert_cmpint (madvise (map, size, MADV_RANDOM), ==, 0);

  plugins_test_call_int (mem, "mg_memory_major_faults", 1);
  volatile char sum = 0;
  for (size_t i = 0; i < size; i += 4096)
    sum += map[i];
  uint64_t major = plugins_test_call_int (mem, "mg_memory_major_faults", 1);
  g_test_message ("%zu pages of a file out of the page cache: %" G_GUINT64_FORMAT
                  " major faults", pages, major);
  g_assert_cmpuint (major, >=, pages * 9 / 10);
  g_assert_cmpuint (major, <=, pages + 16);
  /* Touched again: in the page cache now, no more major faults. */
  for (size_t i = 0; i < size; i += 4096)
    sum += map[i];
  g_assert_cmpuint (plugins_test_call_int (mem, "mg_memory_major_faults", 1), <, 16);
  munmap (map, size);
  close (fd);
}

static gpointer
busy_until (gpointer data)
{
  volatile uint64_t x = 0;
  while (!g_atomic_int_get ((gint *) data))
    for (int i = 0; i < 10000; i++)
      x += (uint64_t) i * x + 1;
  return NULL;
}

/* The running threads on the node from /proc/loadavg's 4th field, "r/t". */
static int
running_now (void)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL));
  g_auto (GStrv) fields = g_strsplit (text, " ", -1);
  g_assert_cmpuint (g_strv_length (fields), >=, 4);
  return atoi (fields[3]);
}

/* loadavg: the runnable threads of the node, as a percentage of its
 * physical cores (MAP's meaning). With N busy threads of ours, at least
 * N + 1 (ours and the reader) are runnable; other processes only add. */
static void
test_loadavg (void)
{
  void *cpu = plugins_test_load_plugin ("metrograph-cpu");
  g_assert_cmpint (plugins_test_init_plugin (cpu, 1), ==, 0);
  int cores = allinea_get_physical_core_count ();
  g_assert_cmpint (cores, >, 0);
  enum { N = 3, N_SAMPLES = 20 };
  gint stop = 0;
  GThread *threads[N];
  for (int i = 0; i < N; i++)
    threads[i] = g_thread_new ("busy", busy_until, &stop);
  g_usleep (50000);
  double lowest = 1e9;
  int close_to_direct = 0;
  for (int i = 0; i < N_SAMPLES; i++)
    {
      int before = running_now ();
      double percent = plugins_test_call_double (cpu, "mg_cpu_loadavg", 1);
      int after = running_now ();
      double threads_read = percent * cores / 100.0;
      lowest = MIN (lowest, threads_read);
      /* A whole number of threads. */
      g_assert_cmpfloat (fabs (threads_read - round (threads_read)), <, 1e-6);
      if (threads_read >= MIN (before, after) - 1 && threads_read <= MAX (before, after) + 1)
        close_to_direct++;
      g_usleep (10000);
    }
  g_atomic_int_set (&stop, 1);
  for (int i = 0; i < N; i++)
    g_thread_join (threads[i]);
  g_test_message ("%d busy threads on %d physical cores: at least %.0f running "
                  "(%.0f%%); %d of %d samples within one thread of /proc/loadavg "
                  "read around them", N, cores, lowest, lowest * 100 / cores,
                  close_to_direct, N_SAMPLES);
  g_assert_cmpfloat (lowest, >=, N + 1);
  /* The node's count moves between two readings; most samples agree. */
  g_assert_cmpint (close_to_direct, >=, N_SAMPLES / 2);
}

typedef void (*DescribeFn) (char *msg, size_t size, const char *event,
                            uint32_t type, int err);

/* The "forbidden" message names the paranoid file's current value and the
 * cure; the file is redirected, since tests run as root and cannot make
 * perf_event_open fail with EACCES. */
static void
test_perf_forbidden (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  g_autofree char *dir = g_dir_make_tmp ("mg-paranoid-XXXXXX", NULL);
  g_autofree char *file = g_build_filename (dir, "perf_event_paranoid", NULL);
  g_setenv ("METROGRAPH_PERF_PARANOID_FILE", file, TRUE);
  gboolean init = plugins_test_init_perf_sw (sw);
  g_unsetenv ("METROGRAPH_PERF_PARANOID_FILE");
  if (!init)
    {
      g_rmdir (dir);
      return;
    }
  DescribeFn describe = (DescribeFn) plugins_test_symbol (sw, "mg_perf_describe_open_error");
  char msg[320];

  g_assert_true (g_file_set_contents (file, "3\n", -1, NULL));
  describe (msg, sizeof msg, "cycles", 0 /* PERF_TYPE_HARDWARE */, EACCES);
  g_test_message ("%s", msg);
  g_autofree char *by = g_strdup_printf ("event 'cycles' forbidden by %s = 3: ", file);
  g_assert_true (g_str_has_prefix (msg, by));
  g_assert_nonnull (strstr (msg, "as root run 'sysctl kernel.perf_event_paranoid=1'"));
  g_assert_nonnull (strstr (msg, "CAP_PERFMON"));

  /* Read when the error happens: the value now. */
  g_assert_true (g_file_set_contents (file, "2\n", -1, NULL));
  describe (msg, sizeof msg, "task-clock", 1 /* PERF_TYPE_SOFTWARE */, EPERM);
  g_autofree char *by2 = g_strdup_printf ("event 'task-clock' forbidden by %s = 2: ", file);
  g_assert_true (g_str_has_prefix (msg, by2));

  /* A level that allows it: something else refused. */
  g_assert_true (g_file_set_contents (file, "-1\n", -1, NULL));
  describe (msg, sizeof msg, "cycles", 0, EACCES);
  g_test_message ("%s", msg);
  g_autofree char *allows = g_strdup_printf ("forbidden although %s = -1 allows it", file);
  g_assert_nonnull (strstr (msg, allows));
  g_assert_nonnull (strstr (msg, "seccomp"));

  g_assert_cmpint (g_unlink (file), ==, 0);
  describe (msg, sizeof msg, "cycles", 0, EACCES);
  g_assert_nonnull (strstr (msg, " = (unreadable): as root run 'sysctl"));
  g_rmdir (dir);

  /* Without the redirection, the kernel's own file and its value. */
  g_assert_cmpint (plugins_test_init_plugin (sw, 1), ==, 0);
  g_autofree char *level = NULL;
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid",
                                      &level, NULL, NULL));
  g_strstrip (level);
  describe (msg, sizeof msg, "instructions", 0, EACCES);
  g_test_message ("%s", msg);
  g_autofree char *real = g_strdup_printf ("/proc/sys/kernel/perf_event_paranoid = %s", level);
  g_assert_nonnull (strstr (msg, real));

  /* The other errnos. */
  describe (msg, sizeof msg, "cycles", 0, ENOENT);
  g_assert_cmpstr (msg, ==, "event 'cycles' not supported by this hardware: virtual "
                   "machines often have no performance counters; run on bare "
                   "metal or enable the virtual PMU (e.g. QEMU/KVM '-cpu host')");
  describe (msg, sizeof msg, "r1234", 4 /* PERF_TYPE_RAW */, EINVAL);
  g_assert_cmpstr (msg, ==, "event 'r1234' unknown to the kernel: check the event "
                   "name or raw code for this CPU ('perf list')");
  /* A software event exists in every kernel: not "unknown". */
  describe (msg, sizeof msg, "page-faults", 1, EINVAL);
  g_assert_cmpstr (msg, ==, "event 'page-faults' refused by the kernel (errno 22) "
                   "although software events exist in every kernel with perf "
                   "events: it rejected the counter's settings for this "
                   "process's threads; report it with the kernel version "
                   "('uname -r')");
  describe (msg, sizeof msg, "cpu-migrations", 1, ENODEV);
  g_assert_true (g_str_has_prefix (msg, "event 'cpu-migrations' refused by the "
                                   "kernel (errno 19) although"));
  describe (msg, sizeof msg, "context-switches", 1, ESRCH);
  g_assert_cmpstr (msg, ==, "event 'context-switches': every thread of the "
                   "process ended before its counter could be opened (ESRCH)");
  describe (msg, sizeof msg, "task-clock", 1, EMFILE);
  g_assert_cmpstr (msg, ==, "event 'task-clock': no file descriptor left for its "
                   "counters (at most a quarter of the open-files limit): "
                   "raise it ('ulimit -n')");
  describe (msg, sizeof msg, "task-clock", 1, E2BIG);
  g_assert_cmpstr (msg, ==, "event 'task-clock': perf_event_open failed with errno 7");
}

/* The refusal as the kernel gives it to an unprivileged user, which root
 * never sees: a child of this test drops to nobody. At paranoid level 2 the
 * kernel refuses kernel-mode counting, the plugin counts user mode only and
 * says so in no error; at 3 and above (Debian's "no unprivileged perf at
 * all") it refuses everything and the plugin names the file, its value and
 * the cure. */
static void
test_perf_unprivileged (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("needs root to become an unprivileged user");
      return;
    }
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &text, NULL, NULL));
  int level = atoi (text);
  if (level < 2)
    {
      g_test_skip ("perf_event_paranoid below 2 refuses nothing here");
      return;
    }
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  DescribeFn describe = (DescribeFn) plugins_test_symbol (sw, "mg_perf_describe_open_error");
  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* nobody, with no supplementary groups: neither root nor CAP_PERFMON. */
      if (setgroups (0, NULL) != 0 || setresgid (65534, 65534, 65534) != 0
          || setresuid (65534, 65534, 65534) != 0)
        _exit (3);
      struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof attr,
                                      .config = PERF_COUNT_SW_TASK_CLOCK };
      long fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
      int err = errno;
      if (fd >= 0 || (err != EACCES && err != EPERM))
        _exit (4); /* the kernel did not refuse kernel-mode counting */
      char msg[320];
      describe (msg, sizeof msg, "task-clock", PERF_TYPE_SOFTWARE, err);
      g_autofree char *by = g_strdup_printf ("event 'task-clock' forbidden by "
                                             "/proc/sys/kernel/perf_event_paranoid = %d: ", level);
      if (!g_str_has_prefix (msg, by) || !strstr (msg, "sysctl kernel.perf_event_paranoid=1"))
        _exit (5);
      plugins_test_clear_errors ();
      int init = plugins_test_init_plugin (sw, 1);
      if (level >= 3)
        {
          int code;
          const char *error = plugins_test_plugin_error (&code);
          _exit (init != 0 && (code == EACCES || code == EPERM)
                   && strstr (error, "Software Events: event 'task-clock' forbidden by "
                                     "/proc/sys/kernel/perf_event_paranoid = ") ? 0 : 6);
        }
      if (init != 0)
        _exit (7);
      /* User-mode counting only: it still counts. */
      struct timespec t = plugins_test_next_round_time ();
      uint64_t v;
      plugins_test_set_custom_data (1, "task-clock");
      if (count (1, &t, &v) != 0)
        _exit (8);
      plugins_test_burn_cpu (0.05);
      t = plugins_test_next_round_time ();
      _exit (count (1, &t, &v) == 0 && v >= 40000000 ? 0 : 9);
    }
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_test_message ("perf_event_paranoid %d, as nobody: exit status %d", level,
                  WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

/* Symbolic names are translated at initialisation, from the customData of
 * the plugin's own metrics in the run plan; the sampling path translates
 * nothing. */
static void
test_perf_symbolic_at_init (void)
{
  const char *no_pfm = plugins_test_libpfm_missing_reason ();
  if (no_pfm)
    {
      g_test_message ("skipped: %s", no_pfm);
      g_test_skip (no_pfm);
      return;
    }
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  g_autofree char *library = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "plugins",
                                               "libmetrograph-perf-sw.so", NULL);
  g_autofree char *dir = g_dir_make_tmp ("mg-plan-XXXXXX", NULL);
  g_autofree char *plan = g_build_filename (dir, "run.plan", NULL);
  g_autofree char *text = g_strdup_printf (
      "metrograph-plan 1\n"
      "run_id\ttest\n"
      "record_dir\t%s\n"
      "source\t0\tother_src\t/nowhere/libother.so\t\t\n"
      "metric\t0\t0\tother.migrations\tget\tuint64_t\t/s\t1\t0\t0\ttime\t\t"
      "perf::PERF_COUNT_SW_CPU_MIGRATIONS\n"
      "source\t1\tperf_sw_src\t%s\t\t\n"
      "metric\t1\t1\tfaults\tmg_perf_count\tuint64_t\t/s\t1\t0\t0\ttime\t\t"
      "perf::PERF_COUNT_SW_PAGE_FAULTS\n"
      "metric\t2\t1\tratio\tmg_perf_ratio\tdouble\t\t0\t0\t0\ttime\t\t"
      "perf::PERF_COUNT_SW_TASK_CLOCK / task-clock\n"
      "metric\t3\t1\tbad\tmg_perf_count\tuint64_t\t/s\t1\t0\t0\ttime\t\t"
      "perf::NO_SUCH_EVENT\n",
      dir, library);
  g_assert_true (g_file_set_contents (plan, text, -1, NULL));
  g_setenv (MG_PLAN_ENV, plan, TRUE);
  gboolean init = plugins_test_init_perf_sw (sw);
  g_unsetenv (MG_PLAN_ENV);
  g_unlink (plan);
  g_rmdir (dir);
  if (!init)
    return;

  plugins_test_set_custom_data (20, "perf::PERF_COUNT_SW_PAGE_FAULTS");
  plugins_test_call_int (sw, "mg_perf_count", 20);
  size_t size = 16 * MB;
  plugins_test_touch_fresh_pages (size);
  uint64_t faults = plugins_test_call_int (sw, "mg_perf_count", 20);
  g_assert_cmpuint (faults, >=, 8);

  /* The same clock twice: a ratio of 1. */
  plugins_test_set_custom_data (21, "perf::PERF_COUNT_SW_TASK_CLOCK / task-clock");
  plugins_test_call_double (sw, "mg_perf_ratio", 21);
  plugins_test_burn_cpu (0.05);
  g_assert_cmpfloat_with_epsilon (plugins_test_call_double (sw, "mg_perf_ratio", 21), 1.0, 0.01);

  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  struct timespec t = plugins_test_now ();
  uint64_t v;
  /* Another plugin's metric: not translated, and not now either. */
  plugins_test_set_custom_data (22, "perf::PERF_COUNT_SW_CPU_MIGRATIONS");
  g_assert_cmpint (count (22, &t, &v), !=, 0);
  g_test_message ("%s", plugins_test_metric_error (22));
  g_assert_cmpstr (plugins_test_metric_error (22), ==,
                   "symbolic event 'perf::PERF_COUNT_SW_CPU_MIGRATIONS' was not "
                   "translated at initialisation: it is not the customData of "
                   "one of this plugin's metrics in the run plan");
  /* Listed, but libpfm4 does not know it. */
  plugins_test_set_custom_data (23, "perf::NO_SUCH_EVENT");
  g_assert_cmpint (count (23, &t, &v), !=, 0);
  g_assert_true (g_str_has_prefix (plugins_test_metric_error (23),
                                   "unknown event 'perf::NO_SUCH_EVENT': neither"));
}

/* A thread that creates and joins threads as fast as it can, all on one
 * CPU (as Open MPI's ranks start their threads at MPI_Init, when the
 * first round opens the counters). */
typedef struct {
  int cpu;
  gint started;
  gint stop;
  gint joins;
} Churn;

static gpointer
churn_child (gpointer data)
{
  return data;
}

static void
pin_to_cpu (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  g_assert_cmpint (sched_setaffinity (0, sizeof set, &set), ==, 0);
}

static gpointer
churner (gpointer data)
{
  Churn *churn = data;
  pin_to_cpu (churn->cpu);
  g_atomic_int_set (&churn->started, 1);
  while (!g_atomic_int_get (&churn->stop))
    {
      pthread_t child;
      g_assert_cmpint (pthread_create (&child, NULL, churn_child, NULL), ==, 0);
      pthread_join (child, NULL);
      g_atomic_int_inc (&churn->joins);
    }
  return NULL;
}

/* Opens the four software metrics of perf-sw.xml (ids 1 to 4) while the
 * churner runs, then samples them over a known number of joins: TRUE when
 * the context switches counted at least half the joins. */
static gboolean
open_while_churning (void *sw, Churn *churn, int round)
{
  static const char *const events[] = { "task-clock", "page-faults",
                                        "context-switches", "cpu-migrations" };
  PluginsTestIntGetter count = (PluginsTestIntGetter) plugins_test_symbol (sw, "mg_perf_count");
  plugins_test_clear_errors ();
  for (metric_id_t id = 1; id <= 4; id++)
    {
      plugins_test_set_custom_data (id, events[id - 1]);
      struct timespec t = plugins_test_next_round_time ();
      uint64_t v;
      int r = count (id, &t, &v);
      const char *error = plugins_test_metric_error (id);
      if (r != 0 || error[0])
        g_test_message ("round %d: '%s' at its opening: %s", round, events[id - 1], error);
      g_assert_cmpint (r, ==, 0);
      /* Not even "counts only N of the threads": a thread that ended
       * between the listing and the opening is not missing. */
      g_assert_cmpstr (error, ==, "");
    }
  gint joins = g_atomic_int_get (&churn->joins);
  g_usleep (100000);
  uint64_t values[5] = { 0 };
  for (metric_id_t id = 1; id <= 4; id++)
    {
      struct timespec t = plugins_test_next_round_time ();
      int r = count (id, &t, &values[id]);
      if (r != 0)
        g_test_message ("round %d: '%s' read: %s", round, events[id - 1],
                        plugins_test_metric_error (id));
      g_assert_cmpint (r, ==, 0);
      g_assert_cmpstr (plugins_test_metric_error (id), ==, "");
    }
  joins = g_atomic_int_get (&churn->joins) - joins;
  g_test_message ("round %d: %d joins, %" G_GUINT64_FORMAT " ns task-clock, %"
                  G_GUINT64_FORMAT " page faults, %" G_GUINT64_FORMAT
                  " context switches, %" G_GUINT64_FORMAT " migrations",
                  round, joins, values[1], values[2], values[3], values[4]);
  g_assert_cmpint (joins, >, 10);
  g_assert_cmpuint (values[1], >, 0);
  /* Each join waits for a child on the same CPU (a switch away and back),
   * and the children, inherited, are counted too. */
  return values[3] >= (guint64) joins / 2;
}

/* Threads created and ended on one CPU while a thread's group of software
 * counters opens take the group's leader away (build_group says how), and
 * make a quarter of the group's reads fail (ECHILD, read_group). Before,
 * the other members were refused with EINVAL or ENODEV, so page-faults,
 * context-switches and cpu-migrations failed with "unknown to the kernel"
 * or left the thread uncounted; a child listed but ended before the
 * opening was reported as a thread not counted; and reads failed with
 * errno 10. This failed at every run (5 of 5), now passes (5 of 5). */
static void
test_perf_threads_churning (void)
{
  void *sw = plugins_test_load_plugin ("metrograph-perf-sw");
  g_autofree char *library = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "plugins",
                                               "libmetrograph-perf-sw.so", NULL);
  g_autofree char *dir = g_dir_make_tmp ("mg-plan-XXXXXX", NULL);
  g_autofree char *plan = g_build_filename (dir, "run.plan", NULL);
  g_autofree char *text = g_strdup_printf (
      "metrograph-plan 1\n"
      "run_id\ttest\n"
      "record_dir\t%s\n"
      "source\t0\tperf_sw_src\t%s\t\t\n"
      "metric\t0\t0\ttask_clock\tmg_perf_seconds\tdouble\t/s\t1\t0\t0\ttime\t\ttask-clock\n"
      "metric\t1\t0\tpage_faults\tmg_perf_count\tuint64_t\t/s\t1\t0\t0\ttime\t\tpage-faults\n"
      "metric\t2\t0\tcontext_switches\tmg_perf_count\tuint64_t\t/s\t1\t0\t0\ttime\t\t"
      "context-switches\n"
      "metric\t3\t0\tcpu_migrations\tmg_perf_count\tuint64_t\t/s\t1\t0\t0\ttime\t\t"
      "cpu-migrations\n",
      dir, library);
  g_assert_true (g_file_set_contents (plan, text, -1, NULL));
  cpu_set_t mine;
  g_assert_cmpint (sched_getaffinity (0, sizeof mine, &mine), ==, 0);
  Churn churn = { .cpu = -1 };
  int other = -1;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &mine))
      {
        if (churn.cpu < 0)
          churn.cpu = c;
        else if (other < 0)
          other = c;
      }
  g_setenv (MG_PLAN_ENV, plan, TRUE);
  gboolean init = plugins_test_init_perf_sw (sw);
  if (init)
    {
      /* The opening runs beside the churner, not between its switches. */
      if (other >= 0)
        pin_to_cpu (other);
      GThread *thread = g_thread_new ("churner", churner, &churn);
      while (!g_atomic_int_get (&churn.started))
        g_usleep (1000);
      PluginsTestInitFn cleanup = (PluginsTestInitFn) plugins_test_symbol (sw, "allinea_plugin_cleanup");
      int counted = 0;
      for (int round = 0; round < 8; round++)
        {
          if (round > 0)
            {
              /* Every counter opened again: another chance to race. */
              g_assert_cmpint (cleanup (1, NULL), ==, 0);
              g_assert_cmpint (plugins_test_init_plugin (sw, 1), ==, 0);
            }
          counted += open_while_churning (sw, &churn, round);
        }
      /* Every opening and read succeeds (above). Beside two whole test
       * suites on 2 cores, one opening in 8 once counted a single switch
       * over 1591 joins (task-clock 41 µs of 100 ms): the counts of a
       * group whose leader went to a child that then ended; before the
       * fix none counted. */
      g_test_message ("%d of 8 openings counted the joins' switches", counted);
      g_assert_cmpint (counted, >=, 6);
      g_atomic_int_set (&churn.stop, 1);
      g_thread_join (thread);
      g_assert_cmpint (sched_setaffinity (0, sizeof mine, &mine), ==, 0);
    }
  g_unsetenv (MG_PLAN_ENV);
  g_unlink (plan);
  g_rmdir (dir);
}

static void
test_energy_absent (void)
{
  void *energy = plugins_test_load_plugin ("metrograph-energy");
  g_autofree char *dir = g_dir_make_tmp ("mg-powercap-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "nothing-here", NULL);
  g_setenv ("METROGRAPH_POWERCAP_DIR", missing, TRUE);
  plugins_test_clear_errors ();
  g_assert_cmpint (plugins_test_init_plugin (energy, 1), ==, -1);
  int code;
  const char *msg = plugins_test_plugin_error (&code);
  g_test_message ("%s", msg);
  /* Absent, not failed: the plugin declines with code 0. */
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (msg, missing));
  g_assert_nonnull (strstr (msg, "no RAPL powercap interface"));
  /* The short reason the command line's summary shows comes first. */
  g_assert_true (g_str_has_prefix (msg, "Energy: no RAPL: "));

  /* A powercap folder with no package domain. */
  g_setenv ("METROGRAPH_POWERCAP_DIR", dir, TRUE);
  plugins_test_clear_errors ();
  g_assert_cmpint (plugins_test_init_plugin (energy, 1), ==, -1);
  g_assert_nonnull (strstr (plugins_test_plugin_error (NULL), "intel-rapl:*"));
  g_unsetenv ("METROGRAPH_POWERCAP_DIR");
  g_rmdir (dir);
}

static void
write_text (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* Rewrites a file in place (same inode), as sysfs counters change: the
 * plugin keeps energy_uj open between rounds. */
static void
overwrite_text (const char *dir, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  FILE *f = fopen (path, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (fputs (text, f), >=, 0);
  g_assert_cmpint (fclose (f), ==, 0);
}

static void
test_energy_counts (void)
{
  void *energy = plugins_test_load_plugin ("metrograph-energy");
  g_autofree char *dir = g_dir_make_tmp ("mg-powercap-XXXXXX", NULL);
  g_autofree char *pkg = g_build_filename (dir, "intel-rapl:0", NULL);
  g_autofree char *sub = g_build_filename (dir, "intel-rapl:0:0", NULL);
  g_assert_cmpint (g_mkdir (pkg, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  write_text (pkg, "energy_uj", "1000000\n");
  write_text (pkg, "max_energy_range_uj", "10000000\n");
  write_text (sub, "energy_uj", "5000000\n"); /* part of the package: ignored */
  g_setenv ("METROGRAPH_POWERCAP_DIR", dir, TRUE);
  g_assert_cmpint (plugins_test_init_plugin (energy, 1), ==, 0);

  overwrite_text (pkg, "energy_uj", "3500000\n");
  PluginsTestDoubleGetter power = (PluginsTestDoubleGetter) plugins_test_symbol (energy, "mg_energy_power");
  PluginsTestDoubleGetter total = (PluginsTestDoubleGetter) plugins_test_symbol (energy, "mg_energy_total");
  struct timespec t = plugins_test_now ();
  double joules, sum;
  g_assert_cmpint (power (1, &t, &joules), ==, 0);
  g_assert_cmpint (total (2, &t, &sum), ==, 0);
  g_assert_cmpfloat_with_epsilon (joules, 2.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum, 2.5, 1e-9);

  /* The counter wraps at max_energy_range_uj. */
  overwrite_text (pkg, "energy_uj", "500000\n");
  t.tv_sec += 1;
  g_assert_cmpint (power (1, &t, &joules), ==, 0);
  g_assert_cmpint (total (2, &t, &sum), ==, 0);
  g_assert_cmpfloat_with_epsilon (joules, 7.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum, 9.5, 1e-9);

  g_unsetenv ("METROGRAPH_POWERCAP_DIR");
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

/* A platform zone ("psys", a top-level intel-rapl:N on laptops and recent
 * servers) covers the packages too: it is not added to them. */
static void
test_energy_psys (void)
{
  void *energy = plugins_test_load_plugin ("metrograph-energy");
  g_autofree char *dir = g_dir_make_tmp ("mg-powercap-XXXXXX", NULL);
  g_autofree char *pkg0 = g_build_filename (dir, "intel-rapl:0", NULL);
  g_autofree char *pkg1 = g_build_filename (dir, "intel-rapl:1", NULL);
  g_autofree char *psys = g_build_filename (dir, "intel-rapl:2", NULL);
  g_assert_cmpint (g_mkdir (pkg0, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (pkg1, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (psys, 0755), ==, 0);
  write_text (pkg0, "name", "package-0\n");
  write_text (pkg0, "energy_uj", "1000000\n");
  write_text (pkg0, "max_energy_range_uj", "100000000\n");
  write_text (pkg1, "name", "package-1\n");
  write_text (pkg1, "energy_uj", "2000000\n");
  write_text (pkg1, "max_energy_range_uj", "100000000\n");
  write_text (psys, "name", "psys\n");
  write_text (psys, "energy_uj", "10000000\n");
  write_text (psys, "max_energy_range_uj", "100000000\n");
  g_setenv ("METROGRAPH_POWERCAP_DIR", dir, TRUE);
  g_assert_cmpint (plugins_test_init_plugin (energy, 1), ==, 0);

  overwrite_text (pkg0, "energy_uj", "1500000\n");  /* +0.5 J */
  overwrite_text (pkg1, "energy_uj", "2250000\n");  /* +0.25 J */
  overwrite_text (psys, "energy_uj", "15000000\n"); /* +5 J: the platform */
  PluginsTestDoubleGetter power = (PluginsTestDoubleGetter) plugins_test_symbol (energy, "mg_energy_power");
  PluginsTestDoubleGetter total = (PluginsTestDoubleGetter) plugins_test_symbol (energy, "mg_energy_total");
  struct timespec t = plugins_test_next_round_time ();
  double joules, sum;
  g_assert_cmpint (power (1, &t, &joules), ==, 0);
  g_assert_cmpint (total (2, &t, &sum), ==, 0);
  g_assert_cmpfloat_with_epsilon (joules, 0.75, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum, 0.75, 1e-9);

  /* Only a platform zone: no package to measure. */
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s' '%s'", pkg0, pkg1);
  g_assert_cmpint (system (cmd), ==, 0);
  plugins_test_clear_errors ();
  g_assert_cmpint (plugins_test_init_plugin (energy, 1), ==, -1);
  g_assert_nonnull (strstr (plugins_test_plugin_error (NULL), "intel-rapl:*"));

  g_unsetenv ("METROGRAPH_POWERCAP_DIR");
  g_free (cmd);
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  g_assert_cmpint (system (cmd), ==, 0);
}

static void
test_mpi_not_mpi (void)
{
  void *mpi = plugins_test_load_plugin ("metrograph-mpi");
  plugins_test_clear_errors ();
  int code = -1;
  g_assert_cmpint (plugins_test_init_plugin (mpi, 1), ==, -1);
  g_assert_true (g_str_has_prefix (plugins_test_plugin_error (&code), "MPI: not an MPI program ("));
  /* Declined, not failed: nothing went wrong. */
  g_assert_cmpint (code, ==, 0);
}

/* 4 ranks of mpi-ranks (which checks its own counts, receives into larger
 * buffers than the messages included) under mpirun, with the MPI wrapper
 * preloaded: the archive the sampler carries, as a library of its own
 * (tests/plugins/meson.build), since mpi-ranks provides the allinea_* API
 * itself. */
static void
test_mpi_ranks (void)
{
  const char *root = g_getenv ("MG_BUILD_ROOT");
  const char *mpirun = g_getenv ("MG_TEST_MPIRUN");
  const char *program = g_getenv ("MG_TEST_MPI_RANKS");
  if (mpirun == NULL || *mpirun == '\0' || program == NULL)
    {
      g_test_skip ("no mpirun or OpenMPI development files at configure time");
      return;
    }
  g_autofree char *wrapper = g_build_filename (root, "tests", "plugins",
                                               "libmg-test-mpi-wrap.so", NULL);
  g_autofree char *preload = g_strdup_printf ("LD_PRELOAD=%s", wrapper);
  const char *argv[] = { mpirun, "-n", "4", "--oversubscribe",
                         "--allow-run-as-root", "-x", preload, "-x",
                         "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0",
                         program, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, &out, &err, &status, &error));
  g_test_message ("%s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  /* mpi-ranks checks every getter against what it did and marks a
   * mismatch with "(expected N)". */
  for (int rank = 0; rank < 4; rank++)
    {
      g_autofree char *phase1 = g_strdup_printf ("rank %d phase 1: calls=7 p2p=3 collect=3", rank);
      g_autofree char *phase2 = g_strdup_printf ("rank %d phase 2: calls=", rank);
      g_assert_nonnull (strstr (out, phase1));
      g_assert_nonnull (strstr (out, phase2));
    }
  g_assert_null (strstr (out, "expected"));
}

/* The sampler carries the MPI wrapper: it defines MPI_* and the wrapper's
 * tables, and preloading it (idle, without a plan) into a program that is
 * not an MPI program changes nothing: it needs no MPI library to load. */
static void
test_mpi_wrapper_harmless (void)
{
  g_autofree char *sampler = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "sampler",
                                               "libmetrograph-sampler.so", NULL);
  g_autofree char *wrapper = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "plugins",
                                               "libmg-test-mpi-wrap.so", NULL);
  if (!g_file_test (wrapper, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("MPI wrapper not built (no OpenMPI development files)");
      return;
    }
  /* Its dynamic symbols (nm, from binutils, which the build needs). */
  g_autofree char *symbols = NULL;
  const char *nm[] = { "nm", "-D", sampler, NULL };
  int nm_status;
  g_assert_true (g_spawn_sync (NULL, (char **) nm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &symbols, NULL, &nm_status, NULL));
  g_assert_true (g_spawn_check_wait_status (nm_status, NULL));
  g_assert_nonnull (strstr (symbols, " T MPI_Finalize\n"));
  g_assert_nonnull (strstr (symbols, " T MPI_Barrier\n"));
  g_assert_nonnull (strstr (symbols, " metrograph_mpi_counters\n"));
  g_assert_nonnull (strstr (symbols, " metrograph_mpi_threads\n"));
  /* No libmpi symbol is referred to (PMPI_* and the handles are looked up
   * by name), and the wrapper's own helpers stay hidden. */
  g_assert_null (strstr (symbols, " U PMPI_"));
  g_assert_null (strstr (symbols, " U MPI_"));
  g_assert_null (strstr (symbols, " U ompi_"));
  g_assert_null (strstr (symbols, "mg_mpi_pending_"));
  g_autofree char *preload = g_strdup_printf ("LD_PRELOAD=%s", sampler);
  const char *argv[] = { "/usr/bin/env", preload, "sh", "-c", "echo hello", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, &out, &err, &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (out, ==, "hello\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/cpu/time", test_cpu_time);
  g_test_add_func ("/metrics/cpu/time-per-sample", test_cpu_time_per_sample);
  g_test_add_func ("/metrics/cpu/time-threads", test_cpu_time_threads);
  g_test_add_func ("/metrics/cpu/time-leaves-out-sampler", test_cpu_time_leaves_out_sampler);
  g_test_add_func ("/metrics/cpu/context-switches", test_context_switches);
  g_test_add_func ("/metrics/cpu/loadavg", test_loadavg);
  g_test_add_func ("/metrics/read-time", test_read_time);
  g_test_add_func ("/metrics/memory/rss", test_rss);
  g_test_add_func ("/metrics/memory/major-faults", test_major_faults);
  g_test_add_func ("/metrics/memory/kept-open-file-taken", test_kept_open_file_taken);
  g_test_add_func ("/metrics/memory/proc-files-not-kept", test_proc_files_not_kept);
  g_test_add_func ("/metrics/memory/kept-open-file-ours-taken", test_kept_open_file_ours_taken);
  g_test_add_func ("/metrics/memory/node-refresh", test_node_memory_refresh);
  g_test_add_func ("/metrics/io/totals", test_io_totals);
  g_test_add_func ("/metrics/threads/count", test_threads);
  g_test_add_func ("/metrics/threads/after-fork", test_threads_after_fork);
  g_test_add_func ("/metrics/perf/software", test_perf_software);
  g_test_add_func ("/metrics/perf/grouped", test_perf_grouped);
  g_test_add_func ("/metrics/perf/errors", test_perf_errors);
  g_test_add_func ("/metrics/perf/raw", test_perf_raw);
  g_test_add_func ("/metrics/perf/forbidden", test_perf_forbidden);
  g_test_add_func ("/metrics/perf/unprivileged", test_perf_unprivileged);
  g_test_add_func ("/metrics/perf/symbolic-at-init", test_perf_symbolic_at_init);
  g_test_add_func ("/metrics/perf/threads-churning", test_perf_threads_churning);
  g_test_add_func ("/metrics/energy/absent", test_energy_absent);
  g_test_add_func ("/metrics/energy/counts", test_energy_counts);
  g_test_add_func ("/metrics/energy/psys", test_energy_psys);
  g_test_add_func ("/metrics/activity/classes", test_activity_classes);
  g_test_add_func ("/metrics/mpi/not-mpi", test_mpi_not_mpi);
  g_test_add_func ("/metrics/mpi/ranks", test_mpi_ranks);
  g_test_add_func ("/metrics/mpi/wrapper-harmless", test_mpi_wrapper_harmless);
  return g_test_run ();
}
