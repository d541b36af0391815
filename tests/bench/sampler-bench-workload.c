/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The programs of the sampler benchmark:
 *   bench-sampler-workload sleep SECONDS  sleeps (one nanosleep);
 *   bench-sampler-workload busy SECONDS   does a fixed amount of integer
 *     work, about SECONDS of one core of the development VM, so that any
 *     extra CPU time is the profiler's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Iterations per second of one core of the development VM. */
#define ITERATIONS_PER_SECOND 500000000.0

int
main (int argc, char **argv)
{
  double seconds = argc > 2 ? strtod (argv[2], NULL) : 1.0;
  if (argc > 1 && strcmp (argv[1], "sleep") == 0)
    {
      struct timespec ts = { (time_t) seconds, (long) ((seconds - (double) (time_t) seconds) * 1e9) };
      while (nanosleep (&ts, &ts) != 0)
        ;
      return 0;
    }
  uint64_t n = (uint64_t) (seconds * ITERATIONS_PER_SECOND);
  uint64_t x = 88172645463325252ull, acc = 0;
  for (uint64_t i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      acc += x & 0xff;
    }
  /* Print the result so the loop cannot be optimised away. */
  printf ("%llu\n", (unsigned long long) acc);
  return 0;
}
