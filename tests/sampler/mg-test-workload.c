/* The profiled program of the sampler tests.
 *   mg-test-workload run MS STATUS   sleep MS ms, print "hello", exit STATUS
 *   mg-test-workload fork MS         fork a child (run MS, exit 3), wait,
 *                                    then exec itself as "run MS 0"
 *   mg-test-workload underscore MS STATUS   as run, but end with _exit
 *   mg-test-workload badexec MS      sleep MS, fail to exec, sleep MS, exit 0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
