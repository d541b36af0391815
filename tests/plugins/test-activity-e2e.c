/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity metrics end to end (plugins/activity.c): workloads whose
 * threads compute, sleep, read a pipe and wait on a condition at known
 * times (tests/plugins/activity-workload.c) run under
 * `metrograph --profile`; the profile is exported with
 * `metrograph --export=run.json` and the series read back. The workloads
 * exit with status 3 on any EINTR: no signal may reach them. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mg-test-common.h"
#include "plugins-e2e-support.h"

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = mg_test_make_dir ("activity-e2e");
  g_assert_nonnull (f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* Profiles the workload in mode, checks it ran cleanly (no EINTR), exports
 * the profile and parses it; the workload's output in *out. */
static JsonObject *
profile_and_export (Fixture *f, const char *mode, char **out, JsonParser **parser)
{
  g_autofree char *metrics = plugins_test_build_path ("plugins");
  g_autofree char *workload = plugins_test_build_path ("tests/plugins/activity-workload");
  const char *args[] = { "--profile", "--metrics-path", metrics, "-o", "run.mgprof",
                         workload, mode, NULL };
  int status = plugins_test_run_metrograph (f->dir, args, NULL, out, NULL);
  g_assert_null (strstr (*out, "EINTR"));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  const char *export_args[] = { "--export=run.json", "run.mgprof", NULL };
  g_autofree char *export_out = NULL;
  g_assert_true (g_spawn_check_wait_status (
      plugins_test_run_metrograph (f->dir, export_args, NULL, &export_out, NULL), NULL));
  g_autofree char *json = g_build_filename (f->dir, "run.json", NULL);
  g_autoptr (GError) error = NULL;
  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, json, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

/* The start (s) of each window, and the means of metric id. */
static GArray *
window_starts (JsonObject *root)
{
  JsonObject *samples = json_object_get_object_member (root, "samples");
  JsonArray *a = json_object_get_array_member (samples, "window_start_offsets");
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      double s = json_array_get_double_element (a, i) / 1000;
      g_array_append_val (starts, s);
    }
  return starts;
}

static GArray *
means (JsonObject *root, const char *id)
{
  JsonObject *metrics =
    json_object_get_object_member (json_object_get_object_member (root, "samples"), "metrics");
  if (!json_object_has_member (metrics, id))
    g_error ("%s is not in the export", id);
  JsonArray *a = json_object_get_array_member (json_object_get_object_member (metrics, id),
                                               "means");
  GArray *v = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *n = json_array_get_element (a, i);
      double x = JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
      g_array_append_val (v, x);
    }
  return v;
}

/* The mean of metric id over the windows that lie within [from, to] s;
 * how many in *n. */
static double
mean_over (JsonObject *root, const char *id, double from, double to, guint *n)
{
  g_autoptr (GArray) starts = window_starts (root);
  g_autoptr (GArray) v = means (root, id);
  double sum = 0;
  *n = 0;
  for (guint i = 0; i + 1 < starts->len && i < v->len; i++)
    {
      double s = g_array_index (starts, double, i), e = g_array_index (starts, double, i + 1);
      double x = g_array_index (v, double, i);
      if (s >= from && e <= to && !isnan (x))
        {
          sum += x;
          (*n)++;
        }
    }
  return *n ? sum / *n : NAN;
}

/* "phase NAME START END" from the workload's output. */
static void
phase_span (const char *out, const char *name, double *from, double *to)
{
  g_autofree char *key = g_strdup_printf ("phase %s ", name);
  const char *at = strstr (out, key);
  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at + strlen (key), "%lf %lf", from, to), ==, 2);
}

static const char *const classes[] = { "computing", "mpi", "io", "sleep", "lock", "other" };

/* Over the middle of each phase, the main thread's class (classes[p]
 * for phases[p]) reads about 100 % and the others about 0 (within 15
 * points). */
static void
check_phases (const char *mode, const char *const *phases, const char *const *phase_classes,
              guint n_phases, guint min_windows)
{
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = NULL;
  Fixture f;
  fixture_set_up (&f, NULL);
  JsonObject *root = profile_and_export (&f, mode, &out, &parser);
  for (guint p = 0; p < n_phases; p++)
    {
      double from, to;
      phase_span (out, phases[p], &from, &to);
      /* The middle half of the phase: the run's start is the sampler's,
       * a few ms before main. */
      double quarter = (to - from) / 4;
      for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
        {
          g_autofree char *id = g_strdup_printf ("org.metrograph.activity.main.%s", classes[c]);
          guint n;
          double share = mean_over (root, id, from + quarter, to - quarter, &n);
          g_test_message ("%s phase %.3f-%.3f s: %s %.1f %% over %u windows", phases[p],
                          from, to, classes[c], share, n);
          g_assert_cmpuint (n, >=, min_windows);
          if (g_str_equal (phase_classes[p], classes[c]))
            g_assert_cmpfloat (share, >=, 85);
          else
            g_assert_cmpfloat (share, <=, 15);
        }
    }
  fixture_tear_down (&f, NULL);
}

/* 1 s each: computing, nanosleep, read on a pipe, pthread_cond_timedwait. */
static void
test_main_thread_phases (void)
{
  const char *const phases[] = { "computing", "sleep", "io", "lock" };
  check_phases ("phases", phases, phases, G_N_ELEMENTS (phases), 20);
}

/* 0.6 s each: poll, epoll_wait and select (sleep), sem_timedwait (lock). */
static void
test_main_thread_waits (void)
{
  const char *const phases[] = { "poll", "epoll", "select", "sem" };
  const char *const phase_classes[] = { "sleep", "sleep", "sleep", "lock" };
  check_phases ("waits", phases, phase_classes, G_N_ELEMENTS (phases), 10);
}

/* 4 threads, 1 computing, 2 sleeping, the main one in pthread_join (a
 * futex): 25 % computing, 50 % sleep, 25 % lock. */
static void
test_all_threads (Fixture *f, gconstpointer data)
{
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = profile_and_export (f, "threads", &out, &parser);
  double from, to;
  phase_span (out, "threads", &from, &to);
  const double expected[] = { 25, 0, 0, 50, 25, 0 };
  double quarter = (to - from) / 4;
  for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
    {
      g_autofree char *id = g_strdup_printf ("org.metrograph.activity.threads.%s", classes[c]);
      guint n;
      double share = mean_over (root, id, from + quarter, to - quarter, &n);
      g_test_message ("threads %.3f-%.3f s: %s %.1f %% over %u windows", from, to,
                      classes[c], share, n);
      g_assert_cmpuint (n, >=, 20);
      g_assert_cmpfloat (fabs (share - expected[c]), <=, 5);
    }
  guint n;
  double main_lock = mean_over (root, "org.metrograph.activity.main.lock", from + quarter,
                                to - quarter, &n);
  g_assert_cmpfloat (main_lock, >=, 95);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/activity/e2e/main-thread-phases", test_main_thread_phases);
  g_test_add_func ("/activity/e2e/main-thread-waits", test_main_thread_waits);
  g_test_add ("/activity/e2e/all-threads", Fixture, NULL, fixture_set_up, test_all_threads,
              fixture_tear_down);
  return g_test_run ();
}
