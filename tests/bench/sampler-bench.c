/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampler overhead benchmark (run by hand, not by CI):
 *   bench-sampler [RUNS] [ITERATIONS]
 * runs the CPU-bound workload RUNS times without and RUNS times with the
 * sampler (default interval, custom1 from <build>/examples or the test
 * plugin), alternating, and prints the CPU-time ratio of the children and
 * the sampler's mean round cost (from METROGRAPH_SAMPLER_STATS). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char build_root[PATH_MAX];

static double
tv_sec (struct timeval tv)
{
  return (double) tv.tv_sec + (double) tv.tv_usec / 1e6;
}

/* Runs the workload; returns its user+system CPU seconds. With a plan,
 * parses the sampler's stats line into *round_us and *rounds. */
static double thread_cpu_ms;

static double
run_once (const char *workload, const char *iterations, const char *plan, double *round_us,
          double *rounds)
{
  int pipefd[2];
  if (pipe (pipefd) < 0)
    exit (1);
  pid_t pid = fork ();
  if (pid == 0)
    {
      char so[PATH_MAX + 64];
      snprintf (so, sizeof so, "%s/sampler/libmetrograph-sampler.so", build_root);
      dup2 (pipefd[1], 2);
      close (pipefd[0]);
      if (!freopen ("/dev/null", "w", stdout))
        _exit (127);
      if (plan)
        {
          setenv ("LD_PRELOAD", so, 1);
          setenv ("METROGRAPH_PLAN", plan, 1);
          setenv ("METROGRAPH_SAMPLER_STATS", "1", 1);
        }
      execl (workload, workload, iterations, (char *) NULL);
      _exit (127);
    }
  close (pipefd[1]);
  char buf[4096] = { 0 };
  size_t len = 0;
  ssize_t n;
  while ((n = read (pipefd[0], buf + len, sizeof buf - 1 - len)) > 0)
    len += (size_t) n;
  close (pipefd[0]);
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "bench-sampler: workload failed: %s\n", buf);
      exit (1);
    }
  if (plan)
    {
      unsigned long long r;
      double mean, cpu_ms;
      /* "metrograph-sampler: pid N: R rounds, mean X us, ..." */
      const char *p = strstr (buf, "pid ");
      if (p && sscanf (p, "pid %*d: %llu rounds, mean %lf us, max %*f us, sampler thread CPU %lf",
                       &r, &mean, &cpu_ms) == 3)
        {
          thread_cpu_ms += cpu_ms;
          *round_us += mean;
          *rounds += (double) r;
        }
      else
        fprintf (stderr, "bench-sampler: no stats line from the sampler: %s\n", buf);
    }
  return tv_sec (ru.ru_utime) + tv_sec (ru.ru_stime);
}

static void
write_plan (const char *dir, const char *plan)
{
  char lib[PATH_MAX + 64];
  const char *getter = "sample_interrupts";
  snprintf (lib, sizeof lib, "%s/examples/libcustom1.so", build_root);
  if (access (lib, R_OK) != 0)
    {
      snprintf (lib, sizeof lib, "%s/tests/sampler/libmg-test-plugin.so", build_root);
      getter = "test_count";
    }
  FILE *fp = fopen (plan, "w");
  if (!fp)
    exit (1);
  fprintf (fp,
           "metrograph-plan 1\nrun_id\tbench\nrecord_dir\t%s\n"
           "source\t0\tbench.src\t%s\t\t\n"
           "metric\t0\t0\tbench.metric\t%s\tuint64_t\t/s\t1\t0\t0\ttime\t\t\n",
           dir, lib, getter);
  fclose (fp);
  printf ("plugin: %s (%s), default interval\n", lib, getter);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : 5;
  const char *iterations = argc > 2 ? argv[2] : "2000000000";
  char self[PATH_MAX], workload[PATH_MAX + 64];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return 1;
  self[n] = '\0';
  const char *env_root = getenv ("MG_BUILD_ROOT");
  if (env_root)
    snprintf (build_root, sizeof build_root, "%s", env_root);
  else
    {
      char tmp[PATH_MAX];
      snprintf (tmp, sizeof tmp, "%s", self);
      snprintf (build_root, sizeof build_root, "%s/../..", dirname (tmp));
    }
  snprintf (workload, sizeof workload, "%s/tests/bench/bench-sampler-workload", build_root);

  char dir[] = "/tmp/mg-bench-XXXXXX";
  if (!mkdtemp (dir))
    return 1;
  char plan[PATH_MAX];
  snprintf (plan, sizeof plan, "%s/plan", dir);
  write_plan (dir, plan);

  double off = 0, on = 0, round_us = 0, rounds = 0;
  for (int i = 0; i < runs; i++)
    {
      off += run_once (workload, iterations, NULL, NULL, NULL);
      on += run_once (workload, iterations, plan, &round_us, &rounds);
    }
  printf ("runs: %d x %s iterations\n", runs, iterations);
  printf ("CPU time without sampler: %.3f s, with: %.3f s, ratio %.4f (%+.2f%%)\n", off, on,
          on / off, (on / off - 1) * 100);
  printf ("sampling rounds per run: %.0f, mean cost of one round: %.2f us\n", rounds / runs,
          round_us / runs);
  printf ("sampler thread CPU: %.1f ms per run = %.3f%% of the workload's CPU time\n",
          thread_cpu_ms / runs, thread_cpu_ms / 1e3 / off * 100);
  /* The sampler's cost is per second of wall time, the workload's per second
   * of CPU: on a loaded machine the ratio above overstates the cost. */
  printf ("sampler thread CPU per second sampled (default 20 ms interval): %.3f%% of one core\n",
          rounds > 0 ? thread_cpu_ms / 1e3 / (rounds * 0.020) * 100 : 0.0);
  char cmd[PATH_MAX + 16];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system (cmd) == 0 ? 0 : 1;
}
