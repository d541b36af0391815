/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What call stacks cost (run by hand, not by CI):
 *   <build>/tests/bench/bench-stacks [PAIRS] [THREADS] [SECONDS]
 * runs a 2 s busy program (bench-sampler-workload busy 2, a fixed amount
 * of work) under metrograph --profile with stacks on and with --no-stacks,
 * one after the other PAIRS times (default 5), and prints the whole tree's
 * CPU time of each (wait4's rusage of the front end: the program, the
 * sampler in it, the front end and its merge), the medians side by side,
 * and the difference in percentage points of the --no-stacks figure, with
 * its goal (at most 1 point, issue #29) and verdict. With THREADS > 1 the
 * busy program runs that many copies of the work in threads of one process
 * (the stack workload's threads mode, at most 64), each busy for SECONDS
 * of CPU (default 2), for the many-thread cost. */
#include <glib.h>
#include <glib/gstdio.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define GOAL_POINTS 1.0

static double
tv_sec (struct timeval tv)
{
  return (double) tv.tv_sec + (double) tv.tv_usec / 1e6;
}

/* Runs argv (output discarded); the CPU seconds of it and all it waited for. */
static double
run_tree (char **argv)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (!freopen ("/dev/null", "w", stdout) || !freopen ("/dev/null", "w", stderr))
        _exit (127);
      execv (argv[0], argv);
      _exit (127);
    }
  int status = 0;
  struct rusage ru;
  if (pid < 0 || wait4 (pid, &status, 0, &ru) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "bench-stacks: %s failed (status %d)\n", argv[0], status);
      exit (1);
    }
  return tv_sec (ru.ru_utime) + tv_sec (ru.ru_stime);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main (int argc, char **argv)
{
  int pairs = CLAMP (argc > 1 ? atoi (argv[1]) : 5, 1, 64);
  int threads = CLAMP (argc > 2 ? atoi (argv[2]) : 1, 1, 64);
  double seconds = argc > 3 ? g_ascii_strtod (argv[3], NULL) : 2.0;
  if (!(seconds > 0 && seconds <= 60))
    {
      fprintf (stderr, "usage: %s [PAIRS] [THREADS (1-64)] [SECONDS (0-60)]\n", argv[0]);
      return 2;
    }
  char seconds_text[32];
  g_ascii_formatd (seconds_text, sizeof seconds_text, "%g", seconds);
  char self[PATH_MAX], root[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';
  if (g_getenv ("MG_BUILD_ROOT"))
    g_snprintf (root, sizeof root, "%s", g_getenv ("MG_BUILD_ROOT"));
  else
    g_snprintf (root, sizeof root, "%s/../..", dirname (self));
  g_autofree char *metrograph = g_build_filename (root, "app/cli/metrograph", NULL);
  g_autofree char *busy = g_build_filename (root, "tests/bench/bench-sampler-workload", NULL);
  g_autofree char *stacks = g_build_filename (root, "tests/cli/mg-stacks-workload", NULL);
  g_autofree char *dir = g_dir_make_tmp ("metrograph-bench-stacks-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "run.mgprof", NULL);
  g_autofree double *on = g_new (double, pairs);
  g_autofree double *off = g_new (double, pairs);
  char threads_text[16];
  g_snprintf (threads_text, sizeof threads_text, "%d", threads);

  printf ("%d pairs (stacks on, then --no-stacks), a %s s busy program%s%s\n", pairs, seconds_text,
          threads > 1 ? " in each of its threads: " : "", threads > 1 ? threads_text : "");
  printf ("%-6s %14s %14s %10s\n", "pair", "stacks on (s)", "no stacks (s)", "diff (pt)");
  for (int i = 0; i < pairs; i++)
    {
      char *with[] = { metrograph, "--profile", "-o", out, busy, "busy", seconds_text, NULL };
      char *without[] = { metrograph, "--profile", "--no-stacks", "-o", out, busy, "busy", seconds_text,
                          NULL };
      char *with_t[] = { metrograph, "--profile", "-o", out, stacks, "threads", threads_text,
                         seconds_text, NULL };
      char *without_t[] = { metrograph, "--profile", "--no-stacks", "-o", out, stacks, "threads",
                            threads_text, seconds_text, NULL };
      on[i] = run_tree (threads > 1 ? with_t : with);
      off[i] = run_tree (threads > 1 ? without_t : without);
      printf ("%-6d %14.3f %14.3f %+10.2f\n", i + 1, on[i], off[i],
              100.0 * (on[i] - off[i]) / off[i]);
      fflush (stdout);
    }
  g_unlink (out);
  g_rmdir (dir);
  double m_on = median (on, pairs), m_off = median (off, pairs);
  double points = 100.0 * (m_on - m_off) / m_off;
  printf ("\n%-44s %10s %10s  %s\n", "figure", "measured", "goal", "verdict");
  printf ("%-44s %10.3f\n", "whole-tree CPU, stacks on (median, s)", m_on);
  printf ("%-44s %10.3f\n", "whole-tree CPU, --no-stacks (median, s)", m_off);
  printf ("%-44s %+10.2f %10.1f  %s\n", "stacks' extra CPU (points of --no-stacks)", points,
          GOAL_POINTS, points <= GOAL_POINTS ? "met" : "NOT met");
  return 0;
}
