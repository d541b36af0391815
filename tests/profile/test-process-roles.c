/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The helper rule (mg-process-roles.c) on hand-made process lists: which
 * processes are helpers, and which are not, for the cases of the docs. */
#include "mg-config.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "profile/mg-process-images.h"
#include "profile/mg-process-roles.h"
#include "profile/mg-profile-builder.h"

/* Interval 10 ms: quick is 0.25 s (the floor). */
#define INTERVAL_MS 10.0

static MgProcessInfo
roles_fixture_process (int pid, int ppid, int rank, double start_s, double end_s)
{
  MgProcessInfo info = { pid, ppid, rank, (char *) "node1", (char *) "/bin/prog", start_s, end_s,
                         MG_PROCESS_END_EXITED, 0, FALSE, FALSE };

  return info;
}

/* Each process's own CPU seconds (NaN: unknown), and which were asked. */
typedef struct {
  const double *seconds;
  gboolean asked[8];
} RolesCpu;

static double
roles_fixture_cpu (guint process, gpointer data)
{
  RolesCpu *cpu = data;

  g_assert_cmpuint (process, <, G_N_ELEMENTS (cpu->asked));
  g_assert_false (cpu->asked[process]);
  cpu->asked[process] = TRUE;
  return cpu->seconds[process];
}

/* Helper flags as a string of 'h' and '.', in process order, the CPU
 * seconds unknown (cpu NULL) or those of cpu. */
static char *
roles_test_find_busy (const MgProcessInfo *processes, guint n, RolesCpu *cpu)
{
  g_autofree gboolean *helper = g_new (gboolean, n);
  char *flags = g_new0 (char, n + 1);

  mg_process_roles_find_helpers (processes, n, INTERVAL_MS, MG_HELPER_RULE_CURRENT,
                                 cpu != NULL ? roles_fixture_cpu : NULL, cpu, helper);
  for (guint p = 0; p < n; p++)
    flags[p] = helper[p] ? 'h' : '.';
  return flags;
}

static char *
roles_test_find (const MgProcessInfo *processes, guint n)
{
  return roles_test_find_busy (processes, n, NULL);
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

/* A step that failed while its parent failed too is the news of the
 * run: make stops at the recipe `sh -c 'test -f config.h'` that failed
 * (1), itself failing (2), and the step is listed with the processes,
 * where it was a helper. A shim's step that fails while the shim goes on
 * (`grep -q` not found) stays a helper, and so does one whose parent did
 * not end (killed without trace). */
static void
test_failed_step (void)
{
  MgProcessInfo make[] = { roles_fixture_process (10, 1, -1, 0.0, 1.0),
                           roles_fixture_process (11, 10, -1, 0.9, 0.95) };
  MgProcessInfo shim[] = { roles_fixture_process (10, 1, -1, 0.0, 2.0),
                           roles_fixture_process (11, 10, -1, 0.01, 0.02),
                           roles_fixture_process (12, 10, -1, 0.03, 0.05) };
  g_autofree char *ok = NULL, *failed = NULL, *shim_failed = NULL, *killed = NULL;

  ok = roles_test_find (make, 2);
  make[0].status = 2;
  make[1].status = 1;
  failed = roles_test_find (make, 2);
  shim[1].status = 1;
  shim_failed = roles_test_find (shim, 3);
  shim[0].end = MG_PROCESS_END_UNKNOWN;
  shim[1].end = MG_PROCESS_END_SIGNALLED;
  shim[1].status = 9;
  killed = roles_test_find (shim, 3);

  g_assert_cmpstr (ok, ==, ".h");
  g_assert_cmpstr (failed, ==, "..");
  g_assert_cmpstr (shim_failed, ==, ".hh");
  g_assert_cmpstr (killed, ==, ".hh");
}

/* Steps that fill at least a quarter of their parent's life are its work:
 * a script's loop of 100 quick commands (lz4 on one file after the other,
 * 3 of 4 s: the run's work, all of it), a compiler driver's cc1 and as,
 * which fill the driver's life. A shim's readlink and dirname before the
 * long program (3 % of its life) stay helpers. */
static void
test_steps_as_work (void)
{
  MgProcessInfo loop[101];
  MgProcessInfo gcc[] = { roles_fixture_process (10, 1, -1, 0.0, 0.60),
                          roles_fixture_process (11, 10, -1, 0.01, 0.14),  /* gcc */
                          roles_fixture_process (12, 11, -1, 0.012, 0.12), /* cc1 */
                          roles_fixture_process (13, 11, -1, 0.121, 0.13), /* as */
                          roles_fixture_process (14, 10, -1, 0.15, 0.155) }; /* echo */
  g_autofree char *loop_flags = NULL, *gcc_flags = NULL;
  char expected[102];

  loop[0] = roles_fixture_process (10, 1, -1, 0.0, 4.0);
  for (guint i = 1; i <= 100; i++)
    loop[i] = roles_fixture_process (10 + (int) i, 10, -1, 0.04 * i - 0.035, 0.04 * i - 0.005);
  loop_flags = roles_test_find (loop, 101);
  gcc_flags = roles_test_find (gcc, 5);

  memset (expected, '.', 101);
  expected[101] = '\0';
  g_assert_cmpstr (loop_flags, ==, expected);
  /* gcc runs two of them, so it is neither a wrapper nor a step; make's
   * echo is a step again (gcc and echo: 22 % of make's life). */
  g_assert_cmpstr (gcc_flags, ==, "....h");
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

/* A wrapper of the program, with their own CPU seconds: quick, but a
 * process that computed 0.2 s is work, one that took 0.01 s is not, and
 * one whose CPU time is unknown is judged by its times. Only a process its
 * times make a helper is asked about (the program, 3 s long, never). */
static void
test_busy_wrapper (void)
{
  MgProcessInfo wrapper[] = { roles_fixture_process (10, 1, -1, 0.0, 3.02),
                              roles_fixture_process (11, 10, -1, 0.01, 3.0) };
  const double busy[] = { 0.2, 2.9 }, idle[] = { 0.01, 2.9 }, unknown[] = { NAN, NAN };
  RolesCpu a = { busy, { FALSE } }, b = { idle, { FALSE } }, c = { unknown, { FALSE } };
  g_autofree char *flags_a = roles_test_find_busy (wrapper, 2, &a);
  g_autofree char *flags_b = roles_test_find_busy (wrapper, 2, &b);
  g_autofree char *flags_c = roles_test_find_busy (wrapper, 2, &c);

  g_assert_cmpstr (flags_a, ==, "..");
  g_assert_cmpstr (flags_b, ==, "h.");
  g_assert_cmpstr (flags_c, ==, "h.");
  g_assert_true (a.asked[0] && b.asked[0] && c.asked[0]);
  g_assert_false (a.asked[1] || b.asked[1] || c.asked[1]);
}

/* The program that computes 0.2 s, then runs system ("sleep 1 | cat"):
 * by its times the wrapper of the shell, by its CPU time the program. A
 * short step that computed 0.2 s is work too; one that took 5 ms is not. */
static void
test_busy_program_and_step (void)
{
  MgProcessInfo program[] = { roles_fixture_process (10, 1, -1, 0.0, 1.22),
                              roles_fixture_process (11, 10, -1, 0.2, 1.21),
                              roles_fixture_process (12, 11, -1, 0.205, 1.2),
                              roles_fixture_process (13, 11, -1, 0.205, 1.2) };
  MgProcessInfo shim[] = { roles_fixture_process (10, 1, -1, 0.0, 2.0),
                           roles_fixture_process (11, 10, -1, 0.01, 0.24),
                           roles_fixture_process (12, 10, -1, 0.25, 0.3) };
  const double program_cpu[] = { 0.2, 0.001, 0.001, 0.001 };
  const double shim_cpu[] = { 0.05, 0.2, 0.005 };
  RolesCpu a = { program_cpu, { FALSE } }, b = { shim_cpu, { FALSE } };
  g_autofree char *timing = roles_test_find (program, 4);
  g_autofree char *busy = roles_test_find_busy (program, 4, &a);
  g_autofree char *steps = roles_test_find_busy (shim, 3, &b);

  g_assert_cmpstr (timing, ==, "h...");
  g_assert_cmpstr (busy, ==, "....");
  g_assert_cmpstr (steps, ==, "..h");
}

/* Seconds from a series of percentages: each mean over the window from
 * the previous sample's end (the first's from the start), NaN skipped. */
static void
test_cpu_seconds (void)
{
  const double times[] = { 0.1, 0.2, 0.4 }, means[] = { 50.0, NAN, 100.0 };
  const double none[] = { NAN, NAN };

  g_assert_cmpfloat_with_epsilon (mg_process_roles_cpu_seconds (times, means, 3, 0.0), 0.25,
                                  1e-12);
  /* A sample that ended before the given start counts nothing. */
  g_assert_cmpfloat_with_epsilon (mg_process_roles_cpu_seconds (times, means, 1, 0.15), 0.0,
                                  1e-12);
  g_assert_true (isnan (mg_process_roles_cpu_seconds (times, none, 2, 0.0)));
  g_assert_true (isnan (mg_process_roles_cpu_seconds (NULL, NULL, 0, 0.0)));
}

/* A wrapper (pid 10, wrapper_value %) of the program (pid 11, 80 %) in a
 * metric called id, merged with the images named (as now) or not (as an
 * earlier Metrograph did), its series packed or not. */
static MgProfile *
roles_fixture_wrapped_cpu (gboolean images, const char *id, double wrapper_value, gboolean pack)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  g_autoptr (GError) error = NULL;
  MgProcessInfo processes[] = { roles_fixture_process (10, 1, -1, 0.0, 1.0),
                                roles_fixture_process (11, 10, -1, 0.005, 0.995) };
  const double values[] = { wrapper_value, 80.0 };
  MgProfile *profile;

  def->id = g_strdup (id);
  mg_profile_builder_add_metric (builder, def);
  mg_profile_builder_set_interval (builder, INTERVAL_MS, INTERVAL_MS, 100);
  for (guint p = 0; p < 2; p++)
    {
      MgProcessEvent start = { (int) p, processes[p].start_s, MG_EVENT_START, 0,
                               images ? (char *) "/bin/prog" : NULL };

      mg_profile_builder_add_process (builder, &processes[p]);
      mg_profile_builder_add_event (builder, &start);
      for (guint k = 0; k < 10; k++)
        mg_profile_builder_add_sample (builder, p, k * 0.1, (k + 1) * 0.1, &values[p],
                                       &values[p], &values[p]);
      if (pack)
        mg_profile_builder_pack (builder, p);
    }
  profile = mg_profile_builder_finish (builder, 10, &error);
  g_assert_no_error (error);
  return profile;
}

static MgProfile *
roles_fixture_wrapped (gboolean images)
{
  return roles_fixture_wrapped_cpu (images, "cpu", 0.0, FALSE);
}

/* Saved and opened again (the rule finds the helpers again). */
static MgProfile *
roles_test_reload (MgProfile *profile)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-roles-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "p.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  MgProfile *loaded;

  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return loaded;
}

/* A profile that names its processes' images: the wrapper is a helper,
 * out of the aggregates, before and after saving. */
static void
test_saved (void)
{
  g_autoptr (MgProfile) merged = roles_fixture_wrapped (TRUE);
  g_autoptr (MgProfile) loaded = roles_test_reload (merged);

  g_assert_true (mg_profile_has_process_images (merged));
  g_assert_cmpuint (mg_profile_get_n_helpers (merged), ==, 1);
  g_assert_cmpfloat (mg_profile_get_series (merged, 0)->mins[3], ==, 80.0);
  g_assert_cmpfloat (mg_profile_get_series (merged, 0)->means[3], ==, 80.0);
  g_assert_true (mg_profile_get_process (loaded, 0)->helper);
  g_assert_false (mg_profile_get_process (loaded, 1)->helper);
  g_assert_cmpfloat (mg_profile_get_series (loaded, 0)->mins[3], ==, 80.0);
}

/* Profiles merged before (no images named; the format 4 file too) have no
 * helpers: their numbers stay as recorded, the wrapper's 0 % in them. */
static void
test_earlier_profile (void)
{
  g_autoptr (MgProfile) merged = roles_fixture_wrapped (FALSE);
  g_autoptr (MgProfile) loaded = roles_test_reload (merged);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v4.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) v4 = mg_profile_load (path, &error);

  g_assert_false (mg_profile_has_process_images (loaded));
  g_assert_cmpuint (mg_profile_get_n_helpers (merged), ==, 0);
  g_assert_cmpuint (mg_profile_get_n_helpers (loaded), ==, 0);
  g_assert_cmpfloat (mg_profile_get_series (merged, 0)->mins[3], ==, 0.0);
  g_assert_cmpfloat (mg_profile_get_series (loaded, 0)->mins[3], ==, 0.0);
  g_assert_cmpfloat (mg_profile_get_series (loaded, 0)->means[3], ==, 40.0);
  g_assert_no_error (error);
  g_assert_false (mg_profile_has_process_images (v4));
  g_assert_cmpuint (mg_profile_get_n_helpers (v4), ==, 0);
}

/* The merge and the load agree on a wrapper's CPU time, from the CPU
 * time metric: at 20 % for 1 s (0.2 s) it is work, at 5 % (0.05 s) a
 * helper; its series packed by the merge or not. Without that metric (20 %
 * of another), its times decide: a helper. */
static void
test_busy_saved (void)
{
  g_autoptr (MgProfile) other = roles_fixture_wrapped_cpu (TRUE, "other_percentage", 20.0, FALSE);
  g_autoptr (MgProfile) other_loaded = roles_test_reload (other);

  g_assert_cmpuint (mg_profile_get_n_helpers (other), ==, 1);
  g_assert_true (mg_profile_get_process (other_loaded, 0)->helper);
  g_assert_cmpuint (mg_profile_get_n_helpers (other_loaded), ==, 1);
  for (guint pack = 0; pack < 2; pack++)
    {
      g_autoptr (MgProfile) busy = roles_fixture_wrapped_cpu (TRUE, MG_HELPER_CPU_METRIC, 20.0,
                                                              pack);
      g_autoptr (MgProfile) idle = roles_fixture_wrapped_cpu (TRUE, MG_HELPER_CPU_METRIC, 5.0,
                                                              pack);
      g_autoptr (MgProfile) busy_loaded = roles_test_reload (busy);
      g_autoptr (MgProfile) idle_loaded = roles_test_reload (idle);

      g_assert_cmpuint (mg_profile_get_n_helpers (busy), ==, 0);
      g_assert_cmpuint (mg_profile_get_n_helpers (busy_loaded), ==, 0);
      /* Both processes in the aggregates: the min is the wrapper's. */
      g_assert_cmpfloat (mg_profile_get_series (busy, 0)->mins[3], ==, 20.0);
      g_assert_cmpfloat (mg_profile_get_series (busy_loaded, 0)->mins[3], ==, 20.0);
      g_assert_cmpuint (mg_profile_get_n_helpers (idle), ==, 1);
      g_assert_true (mg_profile_get_process (idle_loaded, 0)->helper);
      g_assert_false (mg_profile_get_process (idle_loaded, 1)->helper);
      g_assert_cmpfloat (mg_profile_get_series (idle, 0)->mins[3], ==, 80.0);
      g_assert_cmpfloat (mg_profile_get_series (idle_loaded, 0)->mins[3], ==, 80.0);
    }
}

/* A shell (4 s) and the 12 quick commands of its loop (0.2 s each, one
 * after the other: 2.4 s), merged with the images named, some CPU each. */
static MgProfile *
roles_fixture_loop (void)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  g_autoptr (GError) error = NULL;
  const double value = 1.0;
  MgProfile *profile;

  def->id = g_strdup (MG_HELPER_CPU_METRIC);
  mg_profile_builder_add_metric (builder, def);
  mg_profile_builder_set_interval (builder, INTERVAL_MS, INTERVAL_MS, 100);
  for (guint p = 0; p <= 12; p++)
    {
      MgProcessInfo info = p == 0 ? roles_fixture_process (10, 1, -1, 0.0, 4.0)
                                  : roles_fixture_process (10 + (int) p, 10, -1, 0.3 * p,
                                                           0.3 * p + 0.2);
      MgProcessEvent start = { (int) p, info.start_s, MG_EVENT_START, 0, (char *) "/bin/prog" };

      mg_profile_builder_add_process (builder, &info);
      mg_profile_builder_add_event (builder, &start);
      mg_profile_builder_add_sample (builder, p, info.start_s, info.end_s, &value, &value,
                                     &value);
    }
  profile = mg_profile_builder_finish (builder, 10, &error);
  g_assert_no_error (error);
  return profile;
}

/* A profile is judged by the edition of the rule it was merged with, so
 * that its counts agree with its aggregates: a loop's steps are the
 * shell's work in a profile of today's format, helpers in the same file
 * marked as format 8 (merged before the second edition, its aggregates
 * without them). */
static void
test_earlier_rule (void)
{
  g_autoptr (MgProfile) merged = roles_fixture_loop ();
  g_autofree char *dir = g_dir_make_tmp ("mg-roles-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "p.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) today = NULL, earlier = NULL;
  g_autofree char *data = NULL;
  gsize size;

  g_assert_cmpuint (mg_profile_get_n_helpers (merged), ==, 0);
  g_assert_true (mg_profile_save (merged, path, &error));
  g_assert_no_error (error);
  today = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_helpers (today), ==, 0);

  g_assert_true (g_file_get_contents (path, &data, &size, &error));
  g_assert_cmpuint (size, >, 12);
  g_assert_cmpint (data[8], ==, 9);
  data[8] = 8;
  g_assert_true (g_file_set_contents (path, data, (gssize) size, &error));
  earlier = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_helpers (earlier), ==, 12);
  g_assert_false (mg_profile_get_process (earlier, 0)->helper);
  g_assert_true (mg_profile_get_process (earlier, 12)->helper);
  /* Saved again, it keeps its edition. */
  g_assert_true (mg_profile_save (earlier, path, &error));
  g_assert_no_error (error);
  g_clear_pointer (&data, g_free);
  g_assert_true (g_file_get_contents (path, &data, &size, &error));
  g_assert_cmpint (data[8], ==, 8);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/roles/wrapper", test_wrapper);
  g_test_add_func ("/profile/roles/steps-and-jobs", test_steps_and_jobs);
  g_test_add_func ("/profile/roles/failed-step", test_failed_step);
  g_test_add_func ("/profile/roles/steps-as-work", test_steps_as_work);
  g_test_add_func ("/profile/roles/mpi", test_mpi);
  g_test_add_func ("/profile/roles/reuse-and-all", test_reuse_and_all);
  g_test_add_func ("/profile/roles/busy-wrapper", test_busy_wrapper);
  g_test_add_func ("/profile/roles/busy-program-and-step", test_busy_program_and_step);
  g_test_add_func ("/profile/roles/cpu-seconds", test_cpu_seconds);
  g_test_add_func ("/profile/roles/saved", test_saved);
  g_test_add_func ("/profile/roles/busy-saved", test_busy_saved);
  g_test_add_func ("/profile/roles/earlier-rule", test_earlier_rule);
  g_test_add_func ("/profile/roles/earlier-profile", test_earlier_profile);
  return g_test_run ();
}
