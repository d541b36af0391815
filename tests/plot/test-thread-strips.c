/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The per-thread activity strips' model (mg-thread-strips.c) on a profile
 * of known per-thread phases (activity_fixture_threads_profile): each
 * thread's class per column, its shares in a window, its extent, the
 * thread names, and a profile whose stacks do not say their thread. */
#include "mg-config.h"

#include <math.h>

#include "activity-fixture.h"
#include "plot/mg-thread-strips.h"
#include "profile/mg-profile-internal.h"
#include "mg-test-common.h"

/* Four columns, one per phase (activity-fixture.h). */
static void
test_columns (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  g_autoptr (MgThreadStrips) strips = mg_thread_strips_new (profile, 0);
  static const guint8 want[ACTIVITY_FIXTURE_THREADS][4] = {
    /* the main thread from the activity metrics: I/O and Waiting told apart */
    { MG_THREAD_COMPUTING, MG_THREAD_MPI, MG_THREAD_WAITING, MG_THREAD_IO },
    { MG_THREAD_COMPUTING, MG_THREAD_COMPUTING, MG_THREAD_COMPUTING, MG_THREAD_COMPUTING },
    { MG_THREAD_COMPUTING, MG_THREAD_MPI, MG_THREAD_OFF_CPU, MG_THREAD_COMPUTING },
  };

  g_assert_cmpuint (mg_thread_strips_get_n_rows (strips), ==, ACTIVITY_FIXTURE_THREADS);
  g_assert_cmpint (mg_thread_strips_get_process (strips), ==, 0);
  for (guint r = 0; r < ACTIVITY_FIXTURE_THREADS; r++)
    {
      guint8 classes[4];

      g_assert_cmpint (mg_thread_strips_get_ordinal (strips, r), ==, (int) r);
      g_assert_cmpint (mg_thread_strips_row_has_activity (strips, r), ==, r == 0);
      mg_thread_strips_columns (strips, r, 0, ACTIVITY_FIXTURE_DURATION, 4, classes);
      for (guint c = 0; c < 4; c++)
        {
          g_test_message ("thread %u, phase %u: %s", r, c, mg_thread_class_name (classes[c]));
          g_assert_cmpuint (classes[c], ==, want[r][c]);
        }
    }
  /* Zoomed into the last phase, before and after the run. */
  {
    guint8 classes[3];

    mg_thread_strips_columns (strips, 2, 2.0, 5.0, 3, classes);
    g_assert_cmpuint (classes[0], ==, MG_THREAD_OFF_CPU);
    g_assert_cmpuint (classes[1], ==, MG_THREAD_COMPUTING);
    g_assert_cmpuint (classes[2], ==, MG_THREAD_NONE);
  }
}

static void
assert_shares (const double *got, const double *want)
{
  for (guint k = 0; k < MG_THREAD_N_CLASSES; k++)
    if (isnan (want[k]))
      g_assert_true (isnan (got[k]));
    else
      g_assert_cmpfloat_with_epsilon (got[k], want[k], 1e-9);
}

/* The windows under a time (or a range) and each class's share. */
static void
test_shares (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  g_autoptr (MgThreadStrips) strips = mg_thread_strips_new (profile, 0);
  double shares[MG_THREAD_N_CLASSES], start, end;

  /* Thread 2 in its off-CPU phase: window 60 is (2.40, 2.44]. */
  g_assert_true (mg_thread_strips_shares (strips, 2, 2.42, 2.42, &start, &end, shares));
  g_assert_cmpfloat_with_epsilon (start, 2.40, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 2.44, 1e-9);
  assert_shares (shares, (double[]) { 0, 0, NAN, NAN, 100 });
  /* A range across the MPI and off-CPU phases, 2 windows of each. */
  g_assert_true (mg_thread_strips_shares (strips, 2, 1.93, 2.07, &start, &end, shares));
  g_assert_cmpfloat_with_epsilon (start, 1.92, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 2.08, 1e-9);
  assert_shares (shares, (double[]) { 0, 50, NAN, NAN, 50 });
  /* The main thread asleep, from the activity metrics. */
  g_assert_true (mg_thread_strips_shares (strips, 0, 2.42, 2.42, &start, &end, shares));
  assert_shares (shares, (double[]) { 0, 0, 0, 100, NAN });
  /* After the run. */
  g_assert_false (mg_thread_strips_shares (strips, 1, 4.5, 4.5, &start, &end, shares));
  mg_thread_strips_get_extent (strips, 2, &start, &end);
  g_assert_cmpfloat_with_epsilon (start, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (end, 4, 1e-9);
}

/* Without the activity metrics the main thread's strip comes from its
 * stacks: its sleep and I/O phases read Off CPU until its last sample. */
static void
test_main_from_stacks (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  g_autoptr (MgThreadStrips) strips = NULL;
  guint8 classes[4];
  double start, end;

  /* The main thread's computing series gone: no activity for it. */
  {
    int m = mg_profile_find_metric (profile, "org.metrograph.activity.main.computing");
    MgMetricDef *def = g_ptr_array_index (profile->metrics, m);

    g_free (def->id);
    def->id = g_strdup ("renamed");
  }
  strips = mg_thread_strips_new (profile, 0);
  g_assert_cmpuint (mg_thread_strips_get_n_rows (strips), ==, ACTIVITY_FIXTURE_THREADS);
  g_assert_false (mg_thread_strips_row_has_activity (strips, 0));
  mg_thread_strips_columns (strips, 0, 0, ACTIVITY_FIXTURE_DURATION, 4, classes);
  g_assert_cmpuint (classes[0], ==, MG_THREAD_COMPUTING);
  g_assert_cmpuint (classes[1], ==, MG_THREAD_MPI);
  /* After its last sample the thread may have ended: nothing drawn. */
  g_assert_cmpuint (classes[2], ==, MG_THREAD_NONE);
  g_assert_cmpuint (classes[3], ==, MG_THREAD_NONE);
  mg_thread_strips_get_extent (strips, 0, &start, &end);
  g_assert_cmpfloat_with_epsilon (end, 2.0, 1e-9);
}

static void
test_names (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_threads_profile ();
  g_autoptr (MgThreadStrips) strips = mg_thread_strips_new (profile, 0);
  g_autoptr (GVariant) threads = NULL;
  g_autofree char *main_name = mg_thread_strips_thread_name (strips, 0);
  g_autofree char *two = mg_thread_strips_thread_name (strips, 2);
  g_autofree char *named_main = NULL, *named_two = NULL, *unnamed_one = NULL;

  /* Unnamed (a profile before format 8): by number. */
  g_assert_cmpstr (main_name, ==, "Main Thread");
  g_assert_cmpstr (two, ==, "Thread 2");
  /* Named: the profile's label, as the Code pane's thread list says it. */
  threads = g_variant_ref_sink (g_variant_new_parsed (
    "@a(iuiay) [(0, 0, 2000, b'phases'), (0, 2, 2002, b'io-worker')]"));
  g_assert_true (mg_profile_set_threads (profile, threads));
  named_main = mg_thread_strips_thread_name (strips, 0);
  named_two = mg_thread_strips_thread_name (strips, 2);
  unnamed_one = mg_thread_strips_thread_name (strips, 1);
  g_assert_cmpstr (named_main, ==, "phases (main thread)");
  g_assert_cmpstr (named_two, ==, "io-worker (thread 2)");
  g_assert_cmpstr (unnamed_one, ==, "Thread 1");
  g_assert_cmpstr (mg_thread_class_name (MG_THREAD_OFF_CPU), ==, "Off CPU");
  g_assert_cmpstr (mg_thread_class_name (MG_THREAD_MPI), ==, "MPI");
}

/* A profile with no stacks: only the main thread's activity. */
static void
test_no_stacks (void)
{
  g_autoptr (MgProfile) profile = activity_fixture_profile (2);
  g_autoptr (MgThreadStrips) strips = mg_thread_strips_new (profile, 1);

  g_assert_cmpuint (mg_thread_strips_get_n_rows (strips), ==, 1);
  g_assert_true (mg_thread_strips_row_has_activity (strips, 0));
  g_assert_cmpint (mg_thread_strips_default_process (profile), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thread-strips/columns", test_columns);
  g_test_add_func ("/thread-strips/shares", test_shares);
  g_test_add_func ("/thread-strips/main-from-stacks", test_main_from_stacks);
  g_test_add_func ("/thread-strips/names", test_names);
  g_test_add_func ("/thread-strips/no-stacks", test_no_stacks);
  return g_test_run ();
}
