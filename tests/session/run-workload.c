/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The bundled example program of the run tests: prints a line every 0.1 s
 * while it burns CPU and grows its memory, then obeys its arguments in order:
 *   work=SECONDS  burn CPU, allocate, print progress
 *   exit=N        exit with status N
 *   crash         die of SIGSEGV
 *   env=NAME      print "env NAME=<value>" or "env NAME unset"
 *   lines=N       print N numbered lines
 *   ignore-term   ignore SIGTERM from then on (only SIGKILL ends it)
 *   spoil-records zero the magic of the run's records (a failed merge)
 * Plain C, libc only; built unsanitized (and statically, when possible). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spoil-records.h"

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
work (double seconds)
{
  double start = now_s (), next = start;
  volatile double sink = 0;
  char *blocks[64] = { 0 };
  int n = 0;

  while (now_s () < start + seconds)
    {
      for (int i = 0; i < 100000; i++)
        sink += i * 0.5;
      if (now_s () >= next)
        {
          if (n < 64 && (blocks[n] = malloc (1 << 20)) != NULL)
            {
              memset (blocks[n], n + 1, 1 << 20);
              n++;
            }
          printf ("step %.1f s: %d MiB\n", now_s () - start, n);
          fflush (stdout);
          next += 0.1;
        }
    }
  for (int i = 0; i < n; i++)
    free (blocks[i]);
}

int
main (int argc, char **argv)
{
  fprintf (stderr, "run-workload: %d arguments\n", argc - 1);
  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "work=", 5) == 0)
        work (atof (argv[i] + 5));
      else if (strncmp (argv[i], "exit=", 5) == 0)
        return atoi (argv[i] + 5);
      else if (strncmp (argv[i], "env=", 4) == 0)
        {
          const char *value = getenv (argv[i] + 4);

          if (value != NULL)
            printf ("env %s=%s\n", argv[i] + 4, value);
          else
            printf ("env %s unset\n", argv[i] + 4);
        }
      else if (strncmp (argv[i], "lines=", 6) == 0)
        for (int n = 1; n <= atoi (argv[i] + 6); n++)
          printf ("line %d\n", n);
      else if (strcmp (argv[i], "spoil-records") == 0)
        printf ("spoiled %d records\n", spoil_records ());
      else if (strcmp (argv[i], "ignore-term") == 0)
        signal (SIGTERM, SIG_IGN);
      else if (strcmp (argv[i], "crash") == 0)
        {
          raise (SIGSEGV);
        }
      else
        printf ("argument: %s\n", argv[i]);
    }
  return 0;
}
