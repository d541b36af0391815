/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The packed word of the MPI wrapper's counters (plugins/mpi-counters.h):
 * calls in flight count as time passes, calls that end keep their whole
 * duration, several threads' calls add up, and the time wraps modulo 2^48
 * ns without a wrong difference. */
#include <glib.h>

#include "mpi-counters.h"

static uint64_t
elapsed (uint64_t from, uint64_t to)
{
  return (to - from) & MG_MPI_TIME_MASK;
}

static void
test_in_flight (void)
{
  struct metrograph_mpi_counters c = { .version = MG_MPI_COUNTERS_VERSION };
  uint64_t t0 = mg_mpi_counters_time_at (c.in_mpi, 50);

  mg_mpi_counters_enter (&c, 100);
  /* Not returned yet: 50 ns so far, 900 ns a moment later. */
  g_assert_cmpuint (elapsed (t0, mg_mpi_counters_time_at (c.in_mpi, 150)), ==, 50);
  g_assert_cmpuint (elapsed (t0, mg_mpi_counters_time_at (c.in_mpi, 1000)), ==, 900);
  mg_mpi_counters_leave (&c, 1080);
  /* Ended: its 980 ns stay, whenever read. */
  g_assert_cmpuint (elapsed (t0, mg_mpi_counters_time_at (c.in_mpi, 5000)), ==, 980);
  g_assert_cmpuint (c.in_mpi & 0xffff, ==, 0);

  /* Two threads in calls at once, ended together (a fork's child). */
  mg_mpi_counters_enter (&c, 6000);
  mg_mpi_counters_enter (&c, 6100);
  g_assert_cmpuint (c.in_mpi & 0xffff, ==, 2);
  g_assert_cmpuint (elapsed (t0, mg_mpi_counters_time_at (c.in_mpi, 6200)), ==, 980 + 200 + 100);
  mg_mpi_counters_leave_many (&c, 6300, 2);
  g_assert_cmpuint (c.in_mpi & 0xffff, ==, 0);
  g_assert_cmpuint (elapsed (t0, mg_mpi_counters_time_at (c.in_mpi, 9999)), ==, 980 + 300 + 200);
}

/* Monotonic times past 2^48 ns (3.3 days of uptime) wrap the packed time:
 * differences stay right. */
static void
test_wraps (void)
{
  struct metrograph_mpi_counters c = { .version = MG_MPI_COUNTERS_VERSION };
  uint64_t start = (UINT64_C (1) << 48) - 500, before = mg_mpi_counters_time_at (c.in_mpi, start);

  mg_mpi_counters_enter (&c, start);
  uint64_t mid = mg_mpi_counters_time_at (c.in_mpi, start + 1000);
  g_assert_cmpuint (elapsed (before, mid), ==, 1000);
  mg_mpi_counters_leave (&c, start + 3000);
  g_assert_cmpuint (elapsed (mid, mg_mpi_counters_time_at (c.in_mpi, start + 7000)), ==, 2000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/mpi-counters/in-flight", test_in_flight);
  g_test_add_func ("/metrics/mpi-counters/wraps", test_wraps);
  return g_test_run ();
}
