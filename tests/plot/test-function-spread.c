/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Functions across processes (mg-function-spread.c, mg-process-spread.c):
 * a profile of four ranks, three with stacks of known counts, and the
 * min, mean and max of each function's share with the rank of each
 * extreme, whole run and a range; the figures' own rules by hand. */
#include <math.h>

#include "graph-fixture.h"
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

/* A stack of n frames (addresses innermost first) outside every module. */
static GVariant *
stack (guint n, const guint64 *vaddrs)
{
  GVariantBuilder frames;
  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  for (guint i = 0; i < n; i++)
    g_variant_builder_add (&frames, "(ut)", MG_STACK_MODULE_UNKNOWN, vaddrs[i]);
  return g_variant_new ("(a(ut)u)", &frames, 0u);
}

static const guint64 MA[] = { 0x210, 0x110 }, MAC[] = { 0x410, 0x221, 0x121 },
                     MBC[] = { 0x410, 0x331, 0x131 }, MB[] = { 0x310, 0x141 };

/* Process index with its stacks; counts (window, stack, count); windows
 * (0, 0.5] and (0.5, 1]. */
static GVariant *
process (gint32 index, GVariant *const *stacks, guint n_stacks, const guint32 (*counts)[3],
         guint n_counts)
{
  GVariantBuilder s, c;
  const double starts[] = { 0, 0.5 }, ends[] = { 0.5, 1.0 };
  guint64 taken = 0;

  g_variant_builder_init (&s, G_VARIANT_TYPE ("a(a(ut)u)"));
  for (guint i = 0; i < n_stacks; i++)
    g_variant_builder_add_value (&s, stacks[i]);
  g_variant_builder_init (&c, G_VARIANT_TYPE ("a(uuu)"));
  for (guint i = 0; i < n_counts; i++)
    {
      g_variant_builder_add (&c, "(uuu)", counts[i][0], counts[i][1], counts[i][2]);
      taken += counts[i][2];
    }
  return g_variant_new ("(ittu@a(a(ut)u)@ad@ad@a(uuu))", index, taken, (guint64) 0, 0u,
                        g_variant_builder_end (&s),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, 2, sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, 2, sizeof (double)),
                        g_variant_builder_end (&c));
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
  GVariantBuilder modules, procs;

  GVariant *p0[] = { stack (2, MA), stack (3, MAC), stack (3, MBC) };
  const guint32 c0[][3] = { { 0, 0, 60 }, { 0, 1, 30 }, { 1, 2, 10 } };
  GVariant *p1[] = { stack (3, MBC), stack (2, MA) };
  const guint32 c1[][3] = { { 0, 0, 20 }, { 1, 1, 40 } };
  GVariant *p3[] = { stack (2, MB) };
  const guint32 c3[][3] = { { 1, 0, 50 } };

  g_variant_builder_init (&modules, G_VARIANT_TYPE ("a(ayay)"));
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, p0, 3, c0, 3));
  g_variant_builder_add_value (&procs, process (1, p1, 2, c1, 2));
  g_variant_builder_add_value (&procs, process (3, p3, 1, c3, 1));
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                                                       g_variant_builder_end (&modules),
                                                       g_variant_builder_end (&procs)));
  g_assert_true (mg_stack_set_check_payload (profile->stacks, 4));
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
