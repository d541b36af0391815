/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What sampling costs, with its goals and verdicts (run by hand, not by CI):
 *   bench-sampler [PAIRS]
 * runs `metrograph --profile` (the default metrics, plus Sampler overhead)
 * on sleep-like and busy programs of 1 s and 10 s, each paired with the
 * same program unprofiled (A B A B ..., PAIRS pairs, default 3), and prints:
 *
 * - the sampler thread's CPU per 20 ms round (the Sampler overhead metric
 *   of the profile), goal <= 40 us (0.2 % of a core), beside the floor of
 *   this machine: the CPU a bare thread of this benchmark, which only
 *   sleeps to absolute 20 ms deadlines, pays per wake-up, measured all
 *   along the same run (so under the same load);
 * - the fixed cost of a profiled run (front end, plugin loading, merge,
 *   save), goal <= 15 ms, twice: fitted from the whole tree's extra CPU
 *   for sleep 1 s and 10 s as fixed + per second, and measured directly as
 *   the whole tree's CPU of `metrograph --profile true` minus that of
 *   `true` (median of alternated pairs, ten per PAIRS);
 * - the whole tree's CPU profiled / unprofiled for the busy programs of
 *   1 s, 2 s (the case) and 10 s (median of the pairs), goal
 *   <= 1.01 (bar 1.02, aim 1.005).
 *
 * The whole tree's CPU is wait4's rusage of the front end, which includes
 * the program it waited for. The machine's load is printed before and
 * after: on a busy machine, figures are upper bounds. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile/mg-profile.h"

#define OVERHEAD_ID "org.metrograph.sampler_overhead"
#define INTERVAL_US 20000.0

#define GOAL_ROUND_US 40.0
#define GOAL_FIXED_MS 15.0
#define GOAL_RATIO 1.01
#define BAR_RATIO 1.02
#define FIXED_PAIRS_PER_PAIR 10

static char build_root[PATH_MAX];
static char work_dir[PATH_MAX];

static double
tv_sec (struct timeval tv)
{
  return (double) tv.tv_sec + (double) tv.tv_usec / 1e6;
}

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Runs argv (output discarded) and returns the CPU seconds of it and of
 * everything it waited for. */
static double
run_tree (char **argv)
{
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (!freopen ("/dev/null", "w", stdout) || !freopen ("/dev/null", "w", stderr))
        _exit (127);
      execv (argv[0], argv);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (pid < 0 || wait4 (pid, &status, 0, &ru) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "bench-sampler: %s failed (status %d)\n", argv[0], status);
      exit (1);
    }
  return tv_sec (ru.ru_utime) + tv_sec (ru.ru_stime);
}

/* The program of a case: the workload sleeping or burning for seconds. */
static void
program_argv (char **argv, char *workload, const char *mode, char *amount)
{
  argv[0] = workload;
  argv[1] = (char *) mode;
  argv[2] = amount;
  argv[3] = NULL;
}

/* The sampler thread's mean CPU per round (us) in the profile at path:
 * the Sampler overhead samples of every process but each one's first two.
 * A sample holds the thread's CPU since the previous round began (the
 * round's usage is read at its start): the first the thread's start, the
 * second the first round, which opens the perf counters and the /proc
 * files (400-800 us here, 12 us a round over a 1 s run). */
#define SKIPPED_SAMPLES 2
static double
round_us_from_profile (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  if (!profile)
    {
      fprintf (stderr, "bench-sampler: %s\n", error->message);
      exit (1);
    }
  int m = mg_profile_find_metric (profile, OVERHEAD_ID);
  double sum = 0;
  guint n = 0;
  for (guint p = 0; m >= 0 && p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessSeries *s = mg_profile_get_process_series (profile, p, (guint) m);
      for (guint i = SKIPPED_SAMPLES; s && i < s->n; i++)
        if (!isnan (s->means[i]))
          sum += s->means[i], n++;
    }
  if (n == 0)
    {
      fprintf (stderr, "bench-sampler: no %s samples in %s\n", OVERHEAD_ID, path);
      exit (1);
    }
  return sum / n / 100.0 * INTERVAL_US;
}

/* The floor: a thread that only sleeps to absolute 20 ms deadlines, as the
 * sampler's does, for as long as the benchmark runs. Its own CPU clock and
 * wake count are published for the cases to read. */
static struct {
  pthread_t thread;
  int stop;           /* atomic */
  int64_t cpu_ns;     /* atomic: the thread's CPU after its latest wake */
  int64_t wakes;      /* atomic */
} bare;

static int64_t
ts_ns (const struct timespec *ts)
{
  return (int64_t) ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void *
bare_main (void *data)
{
  struct timespec next, cpu;
  clock_gettime (CLOCK_MONOTONIC, &next);
  while (!__atomic_load_n (&bare.stop, __ATOMIC_RELAXED))
    {
      next.tv_nsec += (long) (INTERVAL_US * 1000);
      if (next.tv_nsec >= 1000000000)
        next.tv_sec++, next.tv_nsec -= 1000000000;
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
        ;
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu);
      __atomic_store_n (&bare.cpu_ns, ts_ns (&cpu), __ATOMIC_RELAXED);
      __atomic_add_fetch (&bare.wakes, 1, __ATOMIC_RELAXED);
    }
  return NULL;
}

typedef struct {
  int64_t cpu_ns, wakes;
} BareMark;

static BareMark
bare_mark (void)
{
  BareMark m = { __atomic_load_n (&bare.cpu_ns, __ATOMIC_RELAXED),
                 __atomic_load_n (&bare.wakes, __ATOMIC_RELAXED) };
  return m;
}

/* The bare thread's CPU per wake-up (us) since mark. */
static double
bare_us_since (BareMark mark)
{
  BareMark now = bare_mark ();
  if (now.wakes <= mark.wakes)
    return NAN;
  return (double) (now.cpu_ns - mark.cpu_ns) / (double) (now.wakes - mark.wakes) / 1e3;
}

typedef struct {
  const char *name;
  const char *mode;   /* workload mode: sleep or busy */
  double seconds;
  double profiled[64], plain[64], round_us[64];
  double bare_us;     /* the floor while this case ran */
} Case;

static void
run_case (Case *c, int pairs, const char *workload_path)
{
  g_autofree char *metrograph = g_build_filename (build_root, "app/cli/metrograph", NULL);
  g_autofree char *metrics = g_build_filename (build_root, "plugins", NULL);
  g_autofree char *output = g_build_filename (work_dir, "bench.mgprof", NULL);
  char workload[PATH_MAX], amount[32];
  char *plain[4];
  g_snprintf (workload, sizeof workload, "%s", workload_path);
  g_snprintf (amount, sizeof amount, "%g", c->seconds);
  program_argv (plain, workload, c->mode, amount);
  char *profiled[] = { metrograph, (char *) "--profile", (char *) "--metrics-path", metrics,
                       (char *) "--enable-metrics=sampler_overhead", (char *) "-o", output,
                       workload, (char *) c->mode, amount, NULL };
  BareMark mark = bare_mark ();
  for (int i = 0; i < pairs; i++)
    {
      c->profiled[i] = run_tree (profiled);
      c->round_us[i] = round_us_from_profile (output);
      c->plain[i] = run_tree (plain);
      g_unlink (output);
    }
  c->bare_us = bare_us_since (mark);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (const double *values, int n)
{
  double sorted[64];
  memcpy (sorted, values, sizeof *values * (size_t) n);
  qsort (sorted, (size_t) n, sizeof *sorted, cmp_double);
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* The fixed cost measured directly: the whole tree's CPU of
 * `metrograph --profile true` minus that of `true`, alternated; the median
 * of the differences (s). */
static double
fixed_cost_of_true (int pairs)
{
  g_autofree char *metrograph = g_build_filename (build_root, "app/cli/metrograph", NULL);
  g_autofree char *metrics = g_build_filename (build_root, "plugins", NULL);
  g_autofree char *output = g_build_filename (work_dir, "true.mgprof", NULL);
  g_autofree char *true_path = g_find_program_in_path ("true");
  if (!true_path)
    {
      fprintf (stderr, "bench-sampler: no 'true' on the PATH\n");
      exit (1);
    }
  char *profiled[] = { metrograph, (char *) "--profile", (char *) "--metrics-path", metrics,
                       (char *) "--enable-metrics=sampler_overhead", (char *) "-o", output,
                       true_path, NULL };
  char *plain[] = { true_path, NULL };
  double diff[64];
  for (int i = 0; i < pairs; i++)
    {
      diff[i] = run_tree (profiled);
      g_unlink (output);
      diff[i] -= run_tree (plain);
    }
  return median (diff, pairs);
}

static const char *
verdict (double value, double goal)
{
  return value <= goal ? "met" : "NOT met";
}

static void
print_ratio (const char *name, double ratio)
{
  g_autofree char *label = g_strdup_printf ("%s: tree CPU profiled / unprofiled", name);
  printf ("%-44s %10.4f %10.3f  %s (bar %.2f: %s)\n", label, ratio, GOAL_RATIO,
          verdict (ratio, GOAL_RATIO), BAR_RATIO, verdict (ratio, BAR_RATIO));
}

static void
print_load (const char *when)
{
  g_autofree char *text = NULL;
  if (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    printf ("load average %s: %s", when, text);
}

int
main (int argc, char **argv)
{
  int pairs = argc > 1 ? atoi (argv[1]) : 3;
  pairs = CLAMP (pairs, 1, 64);
  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';
  const char *env_root = g_getenv ("MG_BUILD_ROOT");
  if (env_root)
    g_snprintf (build_root, sizeof build_root, "%s", env_root);
  else
    g_snprintf (build_root, sizeof build_root, "%s/../..", dirname (self));
  g_autofree char *workload = g_build_filename (build_root, "tests/bench/bench-sampler-workload", NULL);
  g_autofree char *dir = g_dir_make_tmp ("metrograph-bench-XXXXXX", NULL);
  if (!dir)
    return 1;
  g_snprintf (work_dir, sizeof work_dir, "%s", dir);

  Case cases[] = {
    { "sleep 1 s", "sleep", 1 }, { "sleep 10 s", "sleep", 10 },
    { "busy 1 s", "busy", 1 }, { "busy 2 s", "busy", 2 }, { "busy 10 s", "busy", 10 },
  };
  enum { SLEEP_1, SLEEP_10, BUSY_1, BUSY_2, BUSY_10 };
  print_load ("before");
  printf ("%d pairs per case (profiled, then unprofiled), default metrics + Sampler overhead\n", pairs);
  fflush (stdout);
  double start = now_s ();
  if (pthread_create (&bare.thread, NULL, bare_main, NULL) != 0)
    return 1;
  BareMark bare_start = bare_mark ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      run_case (&cases[i], pairs, workload);
      Case *c = &cases[i];
      printf ("%-11s tree CPU profiled %.4f s, unprofiled %.4f s (medians); sampler thread %.1f us "
              "per round, a bare wake-up %.1f us\n",
              c->name, median (c->profiled, pairs), median (c->plain, pairs),
              median (c->round_us, pairs), c->bare_us);
      fflush (stdout);
    }
  int fixed_pairs = MIN (pairs * FIXED_PAIRS_PER_PAIR, 64);
  double fixed_true = fixed_cost_of_true (fixed_pairs);
  double bare_us = bare_us_since (bare_start);
  __atomic_store_n (&bare.stop, 1, __ATOMIC_RELAXED);
  pthread_join (bare.thread, NULL);

  /* Sampler thread per round: the worst case's median. */
  double round_us = 0;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    round_us = MAX (round_us, median (cases[i].round_us, pairs));
  /* Extra CPU of a profiled sleep = fixed + per_second x seconds. */
  double extra1 = median (cases[SLEEP_1].profiled, pairs) - median (cases[SLEEP_1].plain, pairs);
  double extra10 = median (cases[SLEEP_10].profiled, pairs) - median (cases[SLEEP_10].plain, pairs);
  double per_second = (extra10 - extra1) / 9.0;
  double fixed = extra1 - per_second;
  double ratios[3][64];
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < pairs; i++)
      ratios[k][i] = cases[BUSY_1 + k].profiled[i] / cases[BUSY_1 + k].plain[i];

  printf ("\n%-44s %10s %10s  %s\n", "figure", "measured", "goal", "verdict");
  printf ("%-44s %7.1f us %7.1f us  %s (floor here: a bare wake-up costs %.1f us)\n",
          "sampler thread CPU per 20 ms round", round_us, GOAL_ROUND_US,
          verdict (round_us, GOAL_ROUND_US), bare_us);
  printf ("%-44s %7.1f ms %7.1f ms  %s\n", "fixed CPU cost, fitted (sleep 1 s and 10 s)",
          fixed * 1e3, GOAL_FIXED_MS, verdict (fixed * 1e3, GOAL_FIXED_MS));
  g_autofree char *true_label = g_strdup_printf ("fixed CPU cost, profiled true - true (%d)",
                                                 fixed_pairs);
  printf ("%-44s %7.1f ms %7.1f ms  %s\n", true_label, fixed_true * 1e3, GOAL_FIXED_MS,
          verdict (fixed_true * 1e3, GOAL_FIXED_MS));
  printf ("%-44s %7.2f ms %10s  (whole tree, per second of run)\n",
          "CPU per second of a profiled sleep", per_second * 1e3, "");
  print_ratio ("busy 1 s", median (ratios[0], pairs));
  print_ratio ("busy 2 s", median (ratios[1], pairs));
  print_ratio ("busy 10 s", median (ratios[2], pairs));
  printf ("took %.0f s\n", now_s () - start);
  print_load ("after");
  g_rmdir (dir);
  return 0;
}
