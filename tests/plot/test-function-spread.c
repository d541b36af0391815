/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Functions across processes (mg-function-spread.c, mg-process-spread.c):
 * a profile of four ranks, three with stacks of known counts, and the
 * min, mean and max of each function's share with the rank of each
 * extreme, whole run and a range; the figures' own rules by hand. */
#include <math.h>

#include "graph-fixture.h"
#include "stacks-fixture.h"
#include "plot/mg-function-spread.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"

/* 0x1xx main, 0x2xx a, 0x3xx b, 0x4xx c. */
static guint
test_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
           gpointer user_data)
{
  static const char *const names[] = { NULL, "main", "a", "b", "c" };

  if (vaddr >> 8 >= 1 && vaddr >> 8 <= 4)
    {
      entries[0] = (MgFrameNameEntry) { names[vaddr >> 8], "/src/prog.c", (guint) (vaddr & 0xff) };
      return 1;
    }
  return 0;
}

/* Ranks 0..3; rank 2 has no stacks.
 *   rank 0: first window main→a ×60, main→a→c ×30; second main→b→c ×10
 *   rank 1: first window main→b→c ×20;             second main→a ×40
 *   rank 3: second window main→b ×50
 * Whole run, total shares: a 90, 66.7, 0 %; b 10, 33.3, 100 %;
 * c 40, 33.3, 0 %; self of b 0, 0, 100 %. */
static MgProfile *
spread_profile (void)
{
  MgProfile *profile = graph_fixture_profile (4, 1, 10, 1.0, FALSE);

  stacks_fixture_set (profile, "process 0\n"
                               "windows 0..0.5 0.5..1\n"
                               "0 0x110;0x210 60\n"
                               "0 0x121;0x221;0x410 30\n"
                               "1 0x131;0x331;0x410 10\n"
                               "process 1\n"
                               "windows 0..0.5 0.5..1\n"
                               "0 0x131;0x331;0x410 20\n"
                               "1 0x110;0x210 40\n"
                               "process 3\n"
                               "windows 0..0.5 0.5..1\n"
                               "1 0x141;0x310 50\n");
  return profile;
}

/* The namer's id of a function, named through a one-frame stack. */
static guint
id_of (MgFrameNamer *namer, guint64 vaddr)
{
  MgStackFrame frame = { MG_STACK_MODULE_UNKNOWN, vaddr };
  guint n;
  const guint *ids = mg_frame_namer_name (namer, NULL, &frame, TRUE, &n);
  g_assert_cmpuint (n, ==, 1);
  return ids[0];
}

static void
check (MgProcessSpread *spread, guint key, MgSpreadKind kind, double min, guint min_process,
       double mean, double max, guint max_process)
{
  MgSpreadFigures f;

  g_assert_true (mg_process_spread_get (spread, key, kind, &f));
  g_assert_cmpfloat_with_epsilon (f.min, min, 1e-9);
  g_assert_cmpfloat_with_epsilon (f.mean, mean, 1e-9);
  g_assert_cmpfloat_with_epsilon (f.max, max, 1e-9);
  g_assert_cmpuint (f.min_process, ==, min_process);
  g_assert_cmpuint (f.max_process, ==, max_process);
}

static void
test_whole_run (void)
{
  g_autoptr (MgProfile) profile = spread_profile ();
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgProcessSpread) spread = mg_function_spread_new (namer, profile, -INFINITY,
                                                               INFINITY);
  guint a = id_of (namer, 0x210), b = id_of (namer, 0x310), c = id_of (namer, 0x410);
  guint main_id = id_of (namer, 0x110);

  g_assert_cmpuint (mg_process_spread_get_n_processes (spread), ==, 3);
  check (spread, a, MG_SPREAD_TOTAL, 0, 3, (90 + 200.0 / 3) / 3, 90, 0);
  check (spread, a, MG_SPREAD_SELF, 0, 3, (60 + 200.0 / 3) / 3, 200.0 / 3, 1);
  check (spread, b, MG_SPREAD_TOTAL, 10, 0, (10 + 100.0 / 3 + 100) / 3, 100, 3);
  /* A tie at 0 %: the first process holds the min. */
  check (spread, b, MG_SPREAD_SELF, 0, 0, 100.0 / 3, 100, 3);
  check (spread, c, MG_SPREAD_TOTAL, 0, 3, (40 + 100.0 / 3) / 3, 40, 0);
  check (spread, main_id, MG_SPREAD_TOTAL, 100, 0, 100, 100, 0);
}

/* The second half: rank 0 10 samples (main→b→c), rank 1 40 (main→a),
 * rank 3 50 (main→b). */
static void
test_range (void)
{
  g_autoptr (MgProfile) profile = spread_profile ();
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgProcessSpread) spread = mg_function_spread_new (namer, profile, 0.6, 1.0);
  guint a = id_of (namer, 0x210), c = id_of (namer, 0x410);

  g_assert_cmpuint (mg_process_spread_get_n_processes (spread), ==, 3);
  check (spread, a, MG_SPREAD_TOTAL, 0, 0, 100.0 / 3, 100, 1);
  check (spread, c, MG_SPREAD_SELF, 0, 1, 100.0 / 3, 100, 0);
}

/* The Code pane's way, from the profile's call index: the same figures
 * as from each process's stack set, for the whole run and a range. */
static void
test_index (void)
{
  g_autoptr (MgProfile) profile = spread_profile ();
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgCallIndex) index = mg_call_index_new (namer, profile);
  guint n = mg_profile_get_n_processes (profile);
  g_autoptr (MgProcessSpread) run = mg_function_spread_new_for_index (index, n, -INFINITY,
                                                                      INFINITY);
  g_autoptr (MgProcessSpread) range = mg_function_spread_new_for_index (index, n, 0.6, 1.0);
  guint a = id_of (namer, 0x210), b = id_of (namer, 0x310), c = id_of (namer, 0x410);

  g_assert_cmpuint (mg_process_spread_get_n_processes (run), ==, 3);
  check (run, a, MG_SPREAD_TOTAL, 0, 3, (90 + 200.0 / 3) / 3, 90, 0);
  check (run, a, MG_SPREAD_SELF, 0, 3, (60 + 200.0 / 3) / 3, 200.0 / 3, 1);
  check (run, b, MG_SPREAD_TOTAL, 10, 0, (10 + 100.0 / 3 + 100) / 3, 100, 3);
  check (run, b, MG_SPREAD_SELF, 0, 0, 100.0 / 3, 100, 3);
  check (run, c, MG_SPREAD_TOTAL, 0, 3, (40 + 100.0 / 3) / 3, 40, 0);
  g_assert_cmpuint (mg_process_spread_get_n_processes (range), ==, 3);
  check (range, a, MG_SPREAD_TOTAL, 0, 0, 100.0 / 3, 100, 1);
  check (range, c, MG_SPREAD_SELF, 0, 1, 100.0 / 3, 100, 0);
}

/* One process: no figures across processes; a key of no process: none. */
static void
test_rules (void)
{
  g_autoptr (MgProcessSpread) one = mg_process_spread_new ();
  g_autoptr (MgProcessSpread) two = mg_process_spread_new ();
  MgSpreadFigures f;

  mg_process_spread_begin_process (one, 5, 10);
  mg_process_spread_add (one, 1, 10, 10);
  mg_process_spread_finish (one);
  g_assert_false (mg_process_spread_get (one, 1, MG_SPREAD_TOTAL, &f));
  g_assert_cmpfloat (f.max, ==, 0);

  /* A key added twice in one process adds up. */
  mg_process_spread_begin_process (two, 7, 4);
  mg_process_spread_add (two, 1, 1, 1);
  mg_process_spread_add (two, 1, 0, 2);
  mg_process_spread_begin_process (two, 9, 8);
  mg_process_spread_add (two, 1, 2, 2);
  mg_process_spread_finish (two);
  check (two, 1, MG_SPREAD_TOTAL, 25, 9, 50, 75, 7);
  check (two, 1, MG_SPREAD_SELF, 25, 7, 25, 25, 7);
  g_assert_false (mg_process_spread_get (two, 2, MG_SPREAD_TOTAL, &f));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/function-spread/whole-run", test_whole_run);
  g_test_add_func ("/function-spread/range", test_range);
  g_test_add_func ("/function-spread/index", test_index);
  g_test_add_func ("/function-spread/rules", test_rules);
  return g_test_run ();
}
