/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A function's share per window (mg-function-share.c) over stacks of known
 * counts in a profile's stacks member (mg-stack-windows.c): windows of two
 * processes that do not line up with the grid, identical stacks of two
 * processes merged, recursion counted once, an inlined function, one
 * process alone. */
#include "mg-config.h"

#include <math.h>

#include "graph-fixture.h"
#include "plot/mg-function-share.h"
#include "profile/mg-profile-internal.h"

/* Addresses by function: 0x1xx main, 0x2xx a, 0x3xx b, 0x4xx c, 0x5xx
 * "inl" inlined in "d". */
static guint
test_name (const MgStackModule *module, guint64 vaddr, MgFrameNameEntry *entries, guint max,
           gpointer user_data)
{
  static const char *const names[] = { NULL, "main", "a", "b", "c" };

  if (vaddr >> 8 == 5)
    {
      entries[0] = (MgFrameNameEntry) { "inl", "/src/inl.h", 7 };
      entries[1] = (MgFrameNameEntry) { "d", "/src/d.c", 20 };
      return 2;
    }
  if (vaddr >> 8 >= 1 && vaddr >> 8 <= 4)
    {
      entries[0] = (MgFrameNameEntry) { names[vaddr >> 8], "/src/prog.c", 1 };
      return 1;
    }
  return 0;
}

static GVariant *
stack (guint n, ...)
{
  GVariantBuilder frames;
  va_list ap;

  g_variant_builder_init (&frames, G_VARIANT_TYPE ("a(ut)"));
  va_start (ap, n);
  for (guint i = 0; i < n; i++)
    g_variant_builder_add (&frames, "(ut)", (guint32) MG_STACK_MODULE_UNKNOWN,
                           (guint64) va_arg (ap, int));
  va_end (ap);
  return g_variant_new ("(a(ut)u)", &frames, 0u);
}

static GVariant *
process (gint32 index, GVariant *const *stacks, guint n_stacks, const double *starts,
         const double *ends, guint n_windows, const guint32 (*counts)[3], guint n_counts)
{
  GVariantBuilder s, c;
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
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, starts, n_windows,
                                                   sizeof (double)),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, ends, n_windows,
                                                   sizeof (double)),
                        g_variant_builder_end (&c));
}

/* Grid: 4 windows of 1 s. Process 0 (its windows are the grid's):
 *   0: main→a ×30, main→b→c ×10   1: main→a→a ×20
 *   2: main→b→c ×5                3: main→d[inl] ×8
 * Process 1, windows [0, 1.5] (middle in grid 0) and [1.5, 4] (grid 2):
 *   main→a ×10, then main→b→c ×15. */
static MgProfile *
stacks_profile (void)
{
  MgProfile *profile = graph_fixture_profile (2, 1, 4, 4.0, FALSE);
  GVariant *p0[] = { stack (2, 0x201, 0x102), stack (3, 0x401, 0x302, 0x102),
                     stack (3, 0x201, 0x202, 0x102), stack (2, 0x501, 0x102) };
  const double s0[] = { 0, 1, 2, 3 }, e0[] = { 1, 2, 3, 4 };
  const guint32 c0[][3] = { { 0, 0, 30 }, { 0, 1, 10 }, { 1, 2, 20 }, { 2, 1, 5 }, { 3, 3, 8 } };
  GVariant *p1[] = { stack (3, 0x401, 0x302, 0x102), stack (2, 0x201, 0x102) };
  const double s1[] = { 0, 1.5 }, e1[] = { 1.5, 4 };
  const guint32 c1[][3] = { { 0, 1, 10 }, { 1, 0, 15 } };
  GVariantBuilder procs;

  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a(ittua(a(ut)u)adada(uuu))"));
  g_variant_builder_add_value (&procs, process (0, p0, 4, s0, e0, 4, c0, 5));
  g_variant_builder_add_value (&procs, process (1, p1, 2, s1, e1, 2, c1, 2));
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref_sink (
    g_variant_new ("(@a(ayay)@a(ittua(a(ut)u)adada(uuu)))",
                   g_variant_new_array (G_VARIANT_TYPE ("(ayay)"), NULL, 0),
                   g_variant_builder_end (&procs)));
  g_assert_true (mg_stack_set_check_payload (profile->stacks, 2));
  return profile;
}

static void
check_share (MgProfile *profile, int process, const char *function, const double want[4])
{
  g_autoptr (MgFrameNamer) namer = mg_frame_namer_new (test_name, NULL, NULL);
  g_autoptr (MgStackSet) modules = mg_stack_set_new (profile, -1, 0, 0);
  g_autoptr (MgStackWindows) windows = mg_stack_windows_new (profile, process);
  g_autofree double *share = NULL;
  MgSeriesView grid;

  g_assert_true (mg_series_view_init (&grid, profile, 0, -1));
  g_assert_cmpuint (grid.n, ==, 4);
  share = mg_function_share_compute (namer, modules, windows, function, &grid);
  for (guint w = 0; w < 4; w++)
    {
      if (isnan (want[w]))
        {
          if (!isnan (share[w]))
            g_error ("%s, window %u: %g, expected none", function, w, share[w]);
        }
      else
        g_assert_cmpfloat_with_epsilon (share[w], want[w], 1e-9);
    }
}

static void
test_windows (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (MgStackWindows) all = mg_stack_windows_new (profile, -1);
  g_autoptr (MgStackWindows) one = mg_stack_windows_new (profile, 1);
  const MgStackWindowCount *c;
  guint n_frames;

  /* main→a and main→b→c of both processes are one stack each. */
  g_assert_cmpuint (mg_stack_windows_get_n_stacks (all), ==, 4);
  g_assert_cmpuint (mg_stack_windows_get_n_counts (all), ==, 7);
  g_assert_cmpuint (mg_stack_windows_get_n_stacks (one), ==, 2);
  c = mg_stack_windows_get_count (one, 1);
  g_assert_cmpfloat (c->start_s, ==, 1.5);
  g_assert_cmpfloat (c->end_s, ==, 4);
  g_assert_cmpuint (c->count, ==, 15);
  g_assert_cmpuint (mg_stack_windows_get_frames (one, c->stack, &n_frames)[0].vaddr, ==, 0x401);
  g_assert_cmpuint (n_frames, ==, 3);
}

static void
test_shares (void)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  /* a: (30 + 10) of 50, 20 of 20 (its recursion once), none of 20, of 8. */
  const double a[4] = { 80, 100, 0, 0 };
  const double c[4] = { 20, 0, 100, 0 };
  const double inl[4] = { 0, 0, 0, 100 };
  const double main_[4] = { 100, 100, 100, 100 };
  const double a1[4] = { 100, NAN, 0, NAN };
  const double nothing[4] = { 0, 0, 0, 0 };

  check_share (profile, -1, "a", a);
  check_share (profile, -1, "c", c);
  check_share (profile, -1, "inl", inl);
  check_share (profile, -1, "d", inl);
  check_share (profile, -1, "main", main_);
  check_share (profile, 1, "a", a1);
  check_share (profile, -1, "no_such_function", nothing);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/function-share/windows", test_windows);
  g_test_add_func ("/function-share/shares", test_shares);
  return g_test_run ();
}
