/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>

#include "bench-synthetic.h"

double
bench_synthetic_value (guint m, guint k, guint p, double *total, GRand *rand)
{
  double wave = sin (k * 0.01 + m);

  switch (m % BENCH_N_KINDS)
    {
    case BENCH_CONSTANT:
      return 4 + p % 3;
    case BENCH_COUNTER:
      *total += floor (4096 * (1.5 + wave) + g_rand_int_range (rand, 0, 512));
      return *total;
    case BENCH_GAUGE:
      return 4096.0 * floor ((2e8 + 2e7 * wave) / 4096 + g_rand_double_range (rand, -64, 64));
    default:
      return 70 + 20 * wave + g_rand_double_range (rand, -2, 2);
    }
}

const char *
bench_synthetic_kind (guint kind)
{
  const char *names[] = { "constant", "counter", "gauge", "ratio" };

  return kind < G_N_ELEMENTS (names) ? names[kind] : "?";
}
