/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CPU-bound workload for the sampler benchmark: a fixed amount of integer
 * work, so that any extra CPU time is the sampler's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  uint64_t n = argc > 1 ? strtoull (argv[1], NULL, 10) : 400000000ull;
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
