/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The helper rule (mg-process-roles.c) on hand-made process lists: which
 * processes are helpers, and which are not, for the cases of the docs. */
#include "mg-config.h"

#include <glib.h>

#include "profile/mg-process-roles.h"

/* Interval 10 ms: quick is 0.25 s (the floor). */
#define INTERVAL_MS 10.0

static MgProcessInfo
roles_fixture_process (int pid, int ppid, int rank, double start_s, double end_s)
{
  MgProcessInfo info = { pid, ppid, rank, (char *) "node1", (char *) "/bin/prog", start_s, end_s,
                         MG_PROCESS_END_EXITED, 0, FALSE, FALSE };

  return info;
}

/* Helper flags as a string of 'h' and '.', in process order. */
static char *
roles_test_find (const MgProcessInfo *processes, guint n)
{
  g_autofree gboolean *helper = g_new (gboolean, n);
  char *flags = g_new0 (char, n + 1);

  mg_process_roles_find_helpers (processes, n, INTERVAL_MS, helper);
  for (guint p = 0; p < n; p++)
    flags[p] = helper[p] ? 'h' : '.';
  return flags;
}

/* A shell that runs the program and waits: a wrapper. A parent that
 * computed 2 s before its one child is none. */
static void
test_wrapper (void)
{
  MgProcessInfo wrapper[] = { roles_fixture_process (10, 1, -1, 0.0, 3.02),
                              roles_fixture_process (11, 10, -1, 0.01, 3.0) };
  MgProcessInfo worker[] = { roles_fixture_process (10, 1, -1, 0.0, 3.02),
                             roles_fixture_process (11, 10, -1, 2.0, 3.0) };
  g_autofree char *a = roles_test_find (wrapper, 2);
  g_autofree char *b = roles_test_find (worker, 2);

  g_assert_cmpstr (a, ==, "h.");
  g_assert_cmpstr (b, ==, "..");
}

/* A shim's short steps, one after the other, are helpers; two jobs that
 * run at once (make -j2) are not, however short, nor is their parent. */
static void
test_steps_and_jobs (void)
{
  MgProcessInfo shim[] = { roles_fixture_process (10, 1, -1, 0.0, 2.0),
                           roles_fixture_process (11, 10, -1, 0.01, 0.02),
                           roles_fixture_process (12, 10, -1, 0.03, 0.05) };
  MgProcessInfo make[] = { roles_fixture_process (10, 1, -1, 0.0, 0.2),
                           roles_fixture_process (11, 10, -1, 0.01, 0.1),
                           roles_fixture_process (12, 10, -1, 0.02, 0.15) };
  g_autofree char *a = roles_test_find (shim, 3);
  g_autofree char *b = roles_test_find (make, 3);

  g_assert_cmpstr (a, ==, ".hh");
  g_assert_cmpstr (b, ==, "...");
}

/* MPI: ranks never helpers; a rank's wrapper script is; a script around
 * mpirun (no rank) is; a rank's short child of another rank is not its
 * step. */
static void
test_mpi (void)
{
  MgProcessInfo ranks[] = { roles_fixture_process (5, 1, -1, 0.0, 2.0),
                            roles_fixture_process (20, 6, 0, 0.01, 1.9),
                            roles_fixture_process (21, 6, 1, 0.01, 1.9),
                            roles_fixture_process (30, 20, 0, 0.02, 1.85),
                            roles_fixture_process (31, 21, 1, 0.02, 1.85) };
  g_autofree char *a = roles_test_find (ranks, 5);

  g_assert_cmpstr (a, ==, "hhh..");
}

/* Pids are reused: the parent is the process with that pid that lived
 * when the child started. All helpers: none is. */
static void
test_reuse_and_all (void)
{
  MgProcessInfo reused[] = { roles_fixture_process (10, 1, -1, 0.0, 0.05),
                             roles_fixture_process (10, 1, -1, 1.0, 4.0),
                             roles_fixture_process (11, 10, -1, 1.01, 3.99) };
  MgProcessInfo one[] = { roles_fixture_process (10, 1, -1, 0.0, 0.01) };
  g_autofree char *a = roles_test_find (reused, 3);
  g_autofree char *b = roles_test_find (one, 1);

  /* The first pid 10 had ended: no wrapper of 11, and a root of its own. */
  g_assert_cmpstr (a, ==, ".h.");
  g_assert_cmpstr (b, ==, ".");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/roles/wrapper", test_wrapper);
  g_test_add_func ("/profile/roles/steps-and-jobs", test_steps_and_jobs);
  g_test_add_func ("/profile/roles/mpi", test_mpi);
  g_test_add_func ("/profile/roles/reuse-and-all", test_reuse_and_all);
  return g_test_run ();
}
