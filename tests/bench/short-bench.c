/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What short processes cost, with goals and verdicts (run by hand, not by
 * CI):
 *   bench-short [PAIRS]
 * runs each case under `metrograph --profile` (the default metrics) and
 * unprofiled, alternated (PAIRS pairs, default 5), and prints the medians
 * side by side:
 *
 * - 300 × /bin/true from a shell loop (bash, timed by the shell itself with
 *   $EPOCHREALTIME, so the front end's start and merge are not in it):
 *   goal <= 1.5 × the unprofiled loop. The whole run's wall time (front
 *   end, merge and save included) is printed beside it;
 * - 1000 × fork + _exit from one C process (this program, in its workload
 *   mode), timed by that process: printed, no goal;
 * - 300 concurrent children that live 1 s each (a shell starting 300
 *   `sleep 1` in the background): the run folder's allocated bytes
 *   (st_blocks of every file under it) at their peak, polled every 5 ms:
 *   goal <= 100 MB.
 *
 * The loop's floor on this machine, run unprofiled in the same pairs with
 * short-floor.c preloaded: one more library alone, then one idle thread in
 * every process and fork child (the least an in-process sampler, which
 * needs a thread in each process that lives on, can cost). When that
 * floor is above the goal, the verdict says so. A third line, a thread in
 * the loop's shell alone, is the floor of a sampler that would give a
 * descendant its thread only once it had used CPU (none here).
 *
 * Beside the loop and the forks, the whole tree's CPU (wait4's rusage,
 * front end included), which a loaded machine sways far less than wall
 * times. The run folders go to a private folder under $TMPDIR (or /tmp):
 * run it with TMPDIR on a tmpfs to measure what the temp folder's RAM
 * pays. The machine's load is printed: on a busy machine, figures are
 * upper bounds. */
#include <dirent.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GOAL_LOOP_RATIO 1.5
#define GOAL_PEAK_MB 100.0
#define N_TRUE 300
#define N_FORK 1000
#define N_CHILDREN 300
#define MAX_PAIRS 32

static char build_root[PATH_MAX];
static char work_dir[PATH_MAX];

static double
now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The whole tree's CPU seconds (user + system) of the last run(): wait4's
 * rusage, the front end with the program and every process it waited
 * for. Far less swayed by the machine's load than wall times. */
static double last_cpu;

/* The floor library (short-floor.c) and what it does: "library" or
 * "thread"; NULL for none. */
static char floor_library[PATH_MAX];

/* Runs argv with METROGRAPH_TMPDIR at the work folder, stdout and stderr
 * to /dev/null, and the floor library preloaded when floor is not NULL;
 * returns its wall time in seconds, < 0 on failure. */
static double
run_with_floor (char **argv, const char *floor)
{
  double t0 = now_s ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      freopen ("/dev/null", "w", stdout);
      freopen ("/dev/null", "w", stderr);
      setenv ("METROGRAPH_TMPDIR", work_dir, 1);
      if (floor)
        {
          setenv ("LD_PRELOAD", floor_library, 1);
          setenv ("MG_SHORT_FLOOR", floor, 1);
        }
      execvp (argv[0], argv);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (pid < 0 || wait4 (pid, &status, 0, &ru) != pid)
    return -1;
  double t = now_s () - t0;
  last_cpu = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
             + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "bench-short: %s failed (status %d)\n", argv[0], status);
      return -1;
    }
  return t;
}

static double
run (char **argv)
{
  return run_with_floor (argv, NULL);
}

/* The loop's seconds as the shell wrote them ("B - A": bash has no
 * floats), < 0 on failure. */
static double
loop_seconds (const char *file)
{
  g_autofree char *text = NULL;
  double a, b;
  if (!g_file_get_contents (file, &text, NULL, NULL) || sscanf (text, "%lf - %lf", &b, &a) != 2)
    return -1;
  g_unlink (file);
  return b - a;
}

/* The seconds the workload wrote to the timing file, < 0 when missing. */
static double
timed (const char *file)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents (file, &text, NULL, NULL))
    return -1;
  g_unlink (file);
  return g_ascii_strtod (text, NULL);
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
  double sorted[MAX_PAIRS];
  memcpy (sorted, values, sizeof *values * (size_t) n);
  qsort (sorted, (size_t) n, sizeof *sorted, cmp_double);
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* Allocated bytes of every file under path (st_blocks, not st_size: a
 * record's unwritten tail is a hole). */
static guint64
allocated_under (const char *path)
{
  struct stat st;
  if (lstat (path, &st) != 0)
    return 0;
  guint64 total = (guint64) st.st_blocks * 512;
  if (!S_ISDIR (st.st_mode))
    return total;
  DIR *d = opendir (path);
  if (!d)
    return total;
  struct dirent *e;
  while ((e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      g_autofree char *child = g_build_filename (path, e->d_name, NULL);
      total += allocated_under (child);
    }
  closedir (d);
  return total;
}

typedef struct {
  volatile int stop;
  guint64 peak;
} Poll;

static void *
poll_main (void *data)
{
  Poll *p = data;
  while (!__atomic_load_n (&p->stop, __ATOMIC_ACQUIRE))
    {
      guint64 now = allocated_under (work_dir);
      if (now > p->peak)
        p->peak = now;
      g_usleep (5000);
    }
  return NULL;
}

static double
run_polled (char **argv, guint64 *peak)
{
  Poll p = { 0, 0 };
  pthread_t thread;
  guint64 before = allocated_under (work_dir);
  pthread_create (&thread, NULL, poll_main, &p);
  double t = run (argv);
  __atomic_store_n (&p.stop, 1, __ATOMIC_RELEASE);
  pthread_join (thread, NULL);
  *peak = p.peak > before ? p.peak - before : 0;
  return t;
}

/* Workload mode: n × fork + _exit, the seconds written to file. */
static int
fork_workload (int n, const char *file)
{
  double t0 = now_s ();
  for (int i = 0; i < n; i++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        _exit (0);
      if (pid < 0 || waitpid (pid, NULL, 0) != pid)
        return 1;
    }
  FILE *f = fopen (file, "w");
  if (!f)
    return 1;
  fprintf (f, "%.9f\n", now_s () - t0);
  return fclose (f) != 0;
}

static void
print_load (const char *when)
{
  double load[3];
  if (getloadavg (load, 3) == 3)
    printf ("load average %s: %.2f %.2f %.2f\n", when, load[0], load[1], load[2]);
}

static const char *
verdict (gboolean met)
{
  return met ? "met" : "NOT MET";
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--fork") == 0)
    return fork_workload (atoi (argv[2]), argv[3]);
  int pairs = argc > 1 ? CLAMP (atoi (argv[1]), 1, MAX_PAIRS) : 5;
  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';
  const char *env_root = g_getenv ("MG_BUILD_ROOT");
  g_autofree char *self_copy = g_strdup (self);
  if (env_root)
    g_snprintf (build_root, sizeof build_root, "%s", env_root);
  else
    g_snprintf (build_root, sizeof build_root, "%s/../..", dirname (self_copy));
  g_autofree char *dir = g_dir_make_tmp ("metrograph-bench-short-XXXXXX", NULL);
  if (!dir)
    return 1;
  g_snprintf (work_dir, sizeof work_dir, "%s", dir);

  g_autofree char *metrograph = g_build_filename (build_root, "app/cli/metrograph", NULL);
  g_autofree char *metrics = g_build_filename (build_root, "plugins", NULL);
  g_snprintf (floor_library, sizeof floor_library, "%s/tests/bench/libmg-short-floor.so",
              build_root);
  if (access (floor_library, R_OK) != 0)
    {
      fprintf (stderr, "bench-short: %s is missing: build the project first\n", floor_library);
      return 1;
    }
  g_autofree char *output = g_build_filename (work_dir, "bench.mgprof", NULL);
  g_autofree char *times = g_build_filename (work_dir, "times", NULL);
  g_autofree char *loop = g_strdup_printf ("a=$EPOCHREALTIME; for ((i = 0; i < %d; i++)); do "
                                           "/bin/true; done; b=$EPOCHREALTIME; "
                                           "echo \"$b - $a\" | tr , . > %s", N_TRUE, times);
  g_autofree char *children = g_strdup_printf ("for ((i = 0; i < %d; i++)); do sleep 1 & done; "
                                               "wait", N_CHILDREN);
  g_autofree char *n_fork = g_strdup_printf ("%d", N_FORK);

  char *loop_plain[] = { (char *) "bash", (char *) "-c", loop, NULL };
  char *loop_prof[] = { metrograph, (char *) "--profile", (char *) "--metrics-path", metrics,
                        (char *) "-o", output, (char *) "bash", (char *) "-c", loop, NULL };
  char *fork_plain[] = { self, (char *) "--fork", n_fork, times, NULL };
  char *fork_prof[] = { metrograph, (char *) "--profile", (char *) "--metrics-path", metrics,
                        (char *) "-o", output, self, (char *) "--fork", n_fork, times, NULL };
  char *kids_plain[] = { (char *) "bash", (char *) "-c", children, NULL };
  char *kids_prof[] = { metrograph, (char *) "--profile", (char *) "--metrics-path", metrics,
                        (char *) "-o", output, (char *) "bash", (char *) "-c", children, NULL };

  double loop_p[MAX_PAIRS], loop_u[MAX_PAIRS], run_p[MAX_PAIRS], run_u[MAX_PAIRS];
  double fork_p[MAX_PAIRS], fork_u[MAX_PAIRS], kids_p[MAX_PAIRS], kids_u[MAX_PAIRS];
  double cpu_p[MAX_PAIRS], cpu_u[MAX_PAIRS], fcpu_p[MAX_PAIRS], fcpu_u[MAX_PAIRS];
  double peak_mb[MAX_PAIRS], floor_lib[MAX_PAIRS], floor_thread[MAX_PAIRS], floor_root[MAX_PAIRS];
  double cpu_fl[MAX_PAIRS], cpu_ft[MAX_PAIRS];
  setvbuf (stdout, NULL, _IOLBF, 0);
  print_load ("before");
  printf ("temp folder: %s, %d pairs\n", work_dir, pairs);
  for (int i = 0; i < pairs; i++)
    {
      run_p[i] = run (loop_prof);
      if (run_p[i] < 0 || (loop_p[i] = loop_seconds (times)) < 0)
        return 1;
      cpu_p[i] = last_cpu;
      g_unlink (output);
      run_u[i] = run (loop_plain);
      if (run_u[i] < 0 || (loop_u[i] = loop_seconds (times)) < 0)
        return 1;
      cpu_u[i] = last_cpu;
      if (run_with_floor (loop_plain, "library") < 0 || (floor_lib[i] = loop_seconds (times)) < 0)
        return 1;
      cpu_fl[i] = last_cpu;
      if (run_with_floor (loop_plain, "thread") < 0
          || (floor_thread[i] = loop_seconds (times)) < 0)
        return 1;
      cpu_ft[i] = last_cpu;
      if (run_with_floor (loop_plain, "root") < 0 || (floor_root[i] = loop_seconds (times)) < 0)
        return 1;

      if (run (fork_prof) < 0 || (fork_p[i] = timed (times)) < 0)
        return 1;
      fcpu_p[i] = last_cpu;
      g_unlink (output);
      if (run (fork_plain) < 0 || (fork_u[i] = timed (times)) < 0)
        return 1;
      fcpu_u[i] = last_cpu;

      guint64 peak, peak_plain;
      kids_p[i] = run_polled (kids_prof, &peak);
      g_unlink (output);
      peak_mb[i] = (double) peak / 1e6;
      kids_u[i] = run_polled (kids_plain, &peak_plain);
      if (kids_p[i] < 0 || kids_u[i] < 0)
        return 1;
    }
  print_load ("after");

  double lp = median (loop_p, pairs), lu = median (loop_u, pairs);
  double peak = median (peak_mb, pairs);
  printf ("\n%-44s %12s %12s %8s\n", "case (median)", "profiled", "unprofiled", "ratio");
  printf ("%-44s %10.1f ms %10.1f ms %8.2f  goal <= %.1f: %s\n",
          "300 x /bin/true, the shell's loop", lp * 1e3, lu * 1e3, lp / lu, GOAL_LOOP_RATIO,
          verdict (lp / lu <= GOAL_LOOP_RATIO));
  double fl = median (floor_lib, pairs), ft = median (floor_thread, pairs);
  printf ("%-44s %10.1f ms %13s %8.2f\n", "    floor: one more preloaded library", fl * 1e3, "-",
          fl / lu);
  printf ("%-44s %10.1f ms %13s %8.2f  %s\n", "    floor: and one idle thread per process",
          ft * 1e3, "-", ft / lu,
          ft / lu > GOAL_LOOP_RATIO ? "(above the goal: the goal is below this machine's floor)"
                                    : "(the least an in-process sampler costs here)");
  printf ("%-44s %10.1f ms %13s %8.2f  (no thread in short descendants)\n",
          "    floor: a thread in the shell alone", median (floor_root, pairs) * 1e3, "-",
          median (floor_root, pairs) / lu);
  printf ("%-44s %10.1f ms %10.1f ms %8.2f\n", "300 x /bin/true, whole run",
          median (run_p, pairs) * 1e3, median (run_u, pairs) * 1e3,
          median (run_p, pairs) / median (run_u, pairs));
  printf ("%-44s %10.2f ms %10.2f ms  (%.2f ms more per process)\n",
          "    per process, the loop", lp / N_TRUE * 1e3, lu / N_TRUE * 1e3,
          (lp - lu) / N_TRUE * 1e3);
  printf ("%-44s %10.2f ms more per process for a library, %.2f ms with its thread; the goal "
          "leaves %.2f ms\n",
          "    the floor, per process", (fl - lu) / N_TRUE * 1e3, (ft - lu) / N_TRUE * 1e3,
          (GOAL_LOOP_RATIO - 1) * lu / N_TRUE * 1e3);
  printf ("%-44s %10.1f ms %10.1f ms %8.2f\n", "    CPU of the whole tree, whole run",
          median (cpu_p, pairs) * 1e3, median (cpu_u, pairs) * 1e3,
          median (cpu_p, pairs) / median (cpu_u, pairs));
  /* Beside the unprofiled loop's CPU (no front end in either): steadier
   * than wall times on a loaded machine. */
  printf ("%-44s %10.1f ms %13s %8.2f  (one more library: %.1f ms, %.2f)\n",
          "    CPU of the whole tree, the floor's thread", median (cpu_ft, pairs) * 1e3, "-",
          median (cpu_ft, pairs) / median (cpu_u, pairs), median (cpu_fl, pairs) * 1e3,
          median (cpu_fl, pairs) / median (cpu_u, pairs));
  printf ("%-44s %10.1f ms %10.1f ms %8.2f\n", "1000 x fork + _exit", median (fork_p, pairs) * 1e3,
          median (fork_u, pairs) * 1e3, median (fork_p, pairs) / median (fork_u, pairs));
  printf ("%-44s %10.1f ms %10.1f ms %8.2f\n", "    CPU of the whole tree, whole run",
          median (fcpu_p, pairs) * 1e3, median (fcpu_u, pairs) * 1e3,
          median (fcpu_p, pairs) / median (fcpu_u, pairs));
  printf ("%-44s %10.1f ms %10.1f ms %8.2f\n", "300 concurrent 1 s children, whole run",
          median (kids_p, pairs) * 1e3, median (kids_u, pairs) * 1e3,
          median (kids_p, pairs) / median (kids_u, pairs));
  printf ("%-44s %10.1f MB %13s  goal <= %.0f MB: %s (%.1f kB per process)\n",
          "    temp folder at its peak (allocated)", peak, "-", GOAL_PEAK_MB,
          verdict (peak <= GOAL_PEAK_MB), peak * 1e3 / (N_CHILDREN + 1));
  g_rmdir (work_dir);
  return 0;
}
