/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profiled program of the sampler tests.
 *   mg-test-workload run MS STATUS   sleep MS ms, print "hello", exit STATUS
 *   mg-test-workload fork MS [BEFORE]  fork a child (run MS, exit 3) BEFORE
 *                                    ms in (0), wait, then exec itself as
 *                                    "run MS 0"
 *   mg-test-workload underscore MS STATUS   as run, but end with _exit
 *   mg-test-workload spawn MS        vfork+exec and posix_spawn a child each
 *                                    ("run MS 4"), wait for both, exit 0
 *   mg-test-workload badexec MS      sleep MS, fail to exec, sleep MS, exit 0
 *   mg-test-workload execveat MS     sleep MS, fail an execveat, sleep MS, then
 *                                    execveat itself (dirfd /proc/self, "exe")
 *                                    as "run MS 0"
 *   mg-test-workload fault MS HOW    install a SIGSEGV handler (HOW: "sigaction",
 *                                    "signal", "none"), sleep MS, then fault:
 *                                    the handler prints "own handler" and
 *                                    exits 42
 *   mg-test-workload forkfork MS     MS of CPU time (the stacks are laid out),
 *                                    then fork a child that forks a
 *                                    grandchild; print "forked twice" when
 *                                    both ended within 10 s, else kill the
 *                                    child and exit 1 */
#define _GNU_SOURCE /* execveat, O_PATH */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void
own_handler (int sig)
{
  static const char msg[] = "own handler\n";
  if (write (STDOUT_FILENO, msg, sizeof msg - 1) < 0)
    _exit (41);
  _exit (42);
}

/* Installs own_handler and checks the program then sees it as installed. */
static int
install_own (const char *how)
{
  struct sigaction act = { .sa_handler = own_handler }, now;
  sigemptyset (&act.sa_mask);
  if (strcmp (how, "sigaction") == 0)
    sigaction (SIGSEGV, &act, NULL);
  else if (strcmp (how, "signal") == 0)
    {
      if (signal (SIGSEGV, own_handler) != SIG_DFL)
        return -1;
      if (signal (SIGSEGV, own_handler) != own_handler)
        return -1;
    }
  else
    return 0;
  sigaction (SIGSEGV, NULL, &now);
  return now.sa_handler == own_handler ? 0 : -1;
}

static void
sleep_ms (long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep (&ts, &ts) != 0)
    ;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s run|fork|underscore MS [STATUS]\n", argv[0]);
      return 2;
    }
  long ms = atol (argv[2]);
  int status = argc > 3 ? atoi (argv[3]) : 0;
  if (strcmp (argv[1], "fork") == 0)
    {
      /* fork MS BEFORE: the fork BEFORE ms in (the plugins loaded). */
      sleep_ms (argc > 3 ? atol (argv[3]) : 0);
      pid_t child = fork ();
      if (child == 0)
        {
          sleep_ms (ms);
          exit (3);
        }
      int st;
      waitpid (child, &st, 0);
      printf ("child %d %d\n", (int) child, WEXITSTATUS (st));
      fflush (stdout);
      execl ("/proc/self/exe", argv[0], "run", argv[2], "0", (char *) NULL);
      perror ("exec");
      return 1;
    }
  if (strcmp (argv[1], "spawn") == 0)
    {
      char *child_argv[] = { argv[0], "run", argv[2], "4", NULL };
      int st1 = -1, st2 = -1;
      pid_t a = vfork ();
      if (a == 0)
        {
          execv ("/proc/self/exe", child_argv);
          _exit (127);
        }
      pid_t b;
      if (posix_spawn (&b, "/proc/self/exe", NULL, NULL, child_argv, environ) != 0)
        return 1;
      waitpid (a, &st1, 0);
      waitpid (b, &st2, 0);
      printf ("children %d %d %d %d\n", (int) a, WEXITSTATUS (st1), (int) b, WEXITSTATUS (st2));
      return 0;
    }
  if (strcmp (argv[1], "execveat") == 0)
    {
      char *image_argv[] = { argv[0], "run", argv[2], "0", NULL };
      sleep_ms (ms);
      if (execveat (AT_FDCWD, "mg-no-such-program", image_argv, environ, 0) < 0)
        printf ("execveat failed\n");
      fflush (stdout);
      sleep_ms (ms);
      int dir = open ("/proc/self", O_PATH | O_DIRECTORY);
      execveat (dir, "exe", image_argv, environ, 0);
      perror ("execveat");
      return 1;
    }
  if (strcmp (argv[1], "fault") == 0)
    {
      static int *volatile nowhere;
      if (install_own (argc > 3 ? argv[3] : "none") < 0)
        {
          printf ("the program does not see its own handler\n");
          return 1;
        }
      sleep_ms (ms);
      fflush (stdout);
      return *nowhere;
    }
  if (strcmp (argv[1], "spin") == 0)
    {
      /* MS of CPU time, busy: a process whose record lays out its stacks. */
      struct timespec t;
      do
        clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
      while ((long) t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
      printf ("hello\n");
      return status;
    }
  if (strcmp (argv[1], "forkfork") == 0)
    {
      struct timespec t;
      do
        clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t);
      while ((long) t.tv_sec * 1000 + t.tv_nsec / 1000000 < ms);
      pid_t child = fork ();
      if (child == 0)
        {
          pid_t grandchild = fork ();
          if (grandchild == 0)
            _exit (0);
          int st;
          _exit (grandchild > 0 && waitpid (grandchild, &st, 0) == grandchild ? 0 : 1);
        }
      int st = -1;
      for (int i = 0; i < 1000 && waitpid (child, &st, WNOHANG) == 0; i++)
        sleep_ms (10);
      if (!WIFEXITED (st) || WEXITSTATUS (st) != 0)
        {
          kill (child, SIGKILL);
          waitpid (child, &st, 0);
          return 1;
        }
      printf ("forked twice\n");
      return status;
    }
  if (strcmp (argv[1], "forkexec") == 0)
    {
      /* A fork child that execs at once (a shell's command), forked 400 ms
       * in, once the parent's thread has loaded the plugins (a quarter
       * interval in, at 1 s); the exec'd image lives MS. */
      sleep_ms (400);
      fflush (stdout);
      pid_t child = fork ();
      if (child == 0)
        {
          execl ("/proc/self/exe", argv[0], "run", argv[2], "0", (char *) NULL);
          _exit (127);
        }
      int st;
      waitpid (child, &st, 0);
      printf ("child %d %d\n", (int) child, WEXITSTATUS (st));
      return 0;
    }
  if (strcmp (argv[1], "forkbadexec") == 0)
    {
      /* A fork child whose exec fails 20 ms in (its sampler thread asleep
       * until its first round): how long the failed exec took, then it
       * lives MS more. Forked 400 ms in, once the parent's thread has
       * loaded the plugins (a quarter interval in, at 1 s), so that the
       * child's thread does not wait to load them itself. */
      sleep_ms (400);
      pid_t child = fork ();
      if (child == 0)
        {
          struct timespec a, b;
          sleep_ms (20);
          clock_gettime (CLOCK_MONOTONIC, &a);
          execlp ("mg-no-such-program", "mg-no-such-program", (char *) NULL);
          clock_gettime (CLOCK_MONOTONIC, &b);
          printf ("exec failed in %ld ms\n",
                  (long) ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000));
          fflush (stdout);
          sleep_ms (ms);
          exit (3);
        }
      int st;
      waitpid (child, &st, 0);
      printf ("child %d %d\n", (int) child, WEXITSTATUS (st));
      return 0;
    }
  if (strcmp (argv[1], "badexec") == 0)
    {
      sleep_ms (ms);
      execlp ("mg-no-such-program", "mg-no-such-program", (char *) NULL);
      printf ("exec failed\n");
    }
  sleep_ms (ms);
  printf ("hello\n");
  fflush (stdout);
  if (strcmp (argv[1], "underscore") == 0)
    _exit (status);
  return status;
}
