/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgProfileBuilder: aggregates across processes on hand-computed inputs. */
#include "mg-config.h"

#include <math.h>

#include "profile/mg-profile-builder.h"
#include "profile/mg-unavailable.h"
#include "profile-fixture.h"

static MgMetricDef *
make_metric (const char *id, MgDomain domain)
{
  MgMetricDef *def = mg_metric_def_new ();

  def->id = g_strdup (id);
  def->domain = domain;
  def->display_name = g_strdup (id);
  return def;
}

static guint
add_process (MgProfileBuilder *builder, int pid, const char *host, double end_s)
{
  MgProcessInfo info = { .pid = pid, .ppid = 1, .rank = -1, .host = (char *) host,
                         .program = (char *) "/bin/prog", .start_s = 0.0, .end_s = end_s,
                         .end = MG_PROCESS_END_EXITED, .status = 0 };

  return mg_profile_builder_add_process (builder, &info);
}

static void
add_sample (MgProfileBuilder *builder, guint p, double a, double b, double min, double max,
            double mean)
{
  double mins[2] = { min, NAN }, maxs[2] = { max, NAN }, means[2] = { mean, NAN };

  mg_profile_builder_add_sample (builder, p, a, b, mins, maxs, means);
}

/* Three processes, one time metric "m" and one single-value metric "s". */
static MgProfile *
build_three (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) s = make_metric ("s", MG_DOMAIN_SINGLE_VALUE);
  const char *argv[] = { "prog", "--flag", NULL };
  g_autoptr(GError) error = NULL;
  MgProfile *profile;
  guint p0, p1, p2;

  mg_profile_builder_set_command (builder, argv, "/tmp");
  mg_profile_builder_set_start_time (builder, 1700000000000000);
  mg_profile_builder_set_interval (builder, 20.0, 40.0, 1000);
  mg_profile_builder_set_exit_status (builder, 3);
  g_assert_cmpuint (mg_profile_builder_add_metric (builder, m), ==, 0);
  g_assert_cmpuint (mg_profile_builder_add_metric (builder, s), ==, 1);
  p0 = add_process (builder, 100, "a", 2.0);
  p1 = add_process (builder, 101, "b", 1.5);
  p2 = add_process (builder, 102, "a", 2.0);

  add_sample (builder, p0, 0.0, 1.0, 0.0, 2.0, 1.0);
  add_sample (builder, p0, 1.0, 2.0, 3.0, 3.0, 3.0);
  add_sample (builder, p1, 0.0, 1.0, 4.0, 6.0, 5.0);
  add_sample (builder, p1, 1.0, 2.0, NAN, NAN, NAN);
  /* One sample across both windows: its value counts in each. */
  add_sample (builder, p2, 0.0, 2.0, 1.0, 10.0, 2.0);

  mg_profile_builder_set_single_value (builder, p0, 1, 4.0);
  mg_profile_builder_set_single_value (builder, p1, 1, 8.0);

  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

static void
test_builder_aggregates (void)
{
  g_autoptr(MgProfile) profile = build_three ();
  const MgSeries *series;
  const double *starts, *ends;

  /* Default window count: the most windows any process has (2). */
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 2);
  starts = mg_profile_get_window_starts (profile);
  ends = mg_profile_get_window_ends (profile);
  g_assert_cmpfloat (starts[0], ==, 0.0);
  g_assert_cmpfloat (ends[0], ==, 1.0);
  g_assert_cmpfloat (starts[1], ==, 1.0);
  g_assert_cmpfloat (ends[1], ==, 2.0);

  series = mg_profile_get_series (profile, 0);
  g_assert_nonnull (series);
  /* Window 0: values 1 [0,2], 5 [4,6], 2 [1,10]. */
  g_assert_cmpfloat (series->mins[0], ==, 0.0);
  g_assert_cmpint (series->min_process[0], ==, 0);
  g_assert_cmpfloat (series->maxs[0], ==, 10.0);
  g_assert_cmpint (series->max_process[0], ==, 2);
  g_assert_cmpfloat_with_epsilon (series->means[0], 8.0 / 3.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (series->vars[0], 26.0 / 9.0, 1e-12);
  g_assert_cmpfloat (series->sums[0], ==, 8.0);
  /* Window 1: process 1 has a gap; values 3 [3,3] and 2 [1,10]. */
  g_assert_cmpfloat (series->mins[1], ==, 1.0);
  g_assert_cmpint (series->min_process[1], ==, 2);
  g_assert_cmpfloat (series->maxs[1], ==, 10.0);
  g_assert_cmpint (series->max_process[1], ==, 2);
  g_assert_cmpfloat (series->means[1], ==, 2.5);
  g_assert_cmpfloat (series->vars[1], ==, 0.25);
  g_assert_cmpfloat (series->sums[1], ==, 5.0);

  g_assert_null (mg_profile_get_single_value (profile, 0));
  g_assert_null (mg_profile_get_series (profile, 1));
}

static void
test_builder_single_values (void)
{
  g_autoptr(MgProfile) profile = build_three ();
  const MgSingleValue *value = mg_profile_get_single_value (profile, 1);

  g_assert_nonnull (value);
  g_assert_cmpuint (value->count, ==, 2);
  g_assert_cmpfloat (value->min, ==, 4.0);
  g_assert_cmpfloat (value->max, ==, 8.0);
  g_assert_cmpfloat (value->mean, ==, 6.0);
  g_assert_cmpfloat (value->var, ==, 4.0);
  g_assert_cmpfloat (value->sum, ==, 12.0);
}

static void
test_builder_run_facts (void)
{
  g_autoptr(MgProfile) profile = build_three ();
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  const MgProcessSeries *ps;

  g_assert_cmpstr (run->argv[0], ==, "prog");
  g_assert_cmpstr (run->argv[1], ==, "--flag");
  g_assert_null (run->argv[2]);
  g_assert_cmpstr (run->working_dir, ==, "/tmp");
  g_assert_cmpuint (g_strv_length (run->hosts), ==, 2);
  g_assert_cmpstr (run->hosts[0], ==, "a");
  g_assert_cmpstr (run->hosts[1], ==, "b");
  g_assert_cmpuint (run->n_nodes, ==, 2);
  g_assert_cmpuint (run->n_processes, ==, 3);
  g_assert_cmpfloat (run->duration_s, ==, 2.0);
  g_assert_cmpint (run->start_time_us, ==, 1700000000000000);
  g_assert_cmpfloat (run->interval_start_ms, ==, 20.0);
  g_assert_cmpfloat (run->interval_end_ms, ==, 40.0);
  g_assert_cmpuint (run->max_samples, ==, 1000);
  g_assert_cmpint (run->exit_status, ==, 3);

  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 3);
  g_assert_cmpint (mg_profile_get_process (profile, 1)->pid, ==, 101);
  g_assert_cmpstr (mg_profile_get_process (profile, 1)->host, ==, "b");
  g_assert_cmpint (mg_profile_find_metric (profile, "s"), ==, 1);
  g_assert_cmpint (mg_profile_find_metric (profile, "nope"), ==, -1);

  ps = mg_profile_get_process_series (profile, 1, 0);
  g_assert_cmpuint (ps->n, ==, 2);
  g_assert_cmpfloat (ps->times[0], ==, 1.0);
  g_assert_cmpfloat (ps->times[1], ==, 2.0);
  g_assert_cmpfloat (ps->means[0], ==, 5.0);
  g_assert_true (isnan (ps->means[1]));
  g_assert_cmpfloat (ps->mins[0], ==, 4.0);
  g_assert_cmpfloat (ps->maxs[0], ==, 6.0);
  /* Metric "s" never had a sample value. */
  g_assert_cmpuint (mg_profile_get_process_series (profile, 1, 1)->n, ==, 0);
}

/* Samples whose boundaries do not match the grid's: time-weighted. */
static void
test_builder_window_boundaries (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) s = make_metric ("s", MG_DOMAIN_SINGLE_VALUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgSeries *series;
  guint p;

  mg_profile_builder_add_metric (builder, m);
  mg_profile_builder_add_metric (builder, s);
  p = add_process (builder, 1, "h", 3.0);
  add_sample (builder, p, 0.0, 0.5, 2.0, 2.0, 2.0);
  add_sample (builder, p, 0.5, 1.5, 1.0, 7.0, 4.0);
  profile = mg_profile_builder_finish (builder, 3, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 3);
  g_assert_cmpfloat (mg_profile_get_window_ends (profile)[2], ==, 3.0);
  series = mg_profile_get_series (profile, 0);
  /* (0,1]: 0.5 s of 2 and 0.5 s of 4. */
  g_assert_cmpfloat (series->means[0], ==, 3.0);
  g_assert_cmpfloat (series->mins[0], ==, 1.0);
  g_assert_cmpfloat (series->maxs[0], ==, 7.0);
  g_assert_cmpfloat (series->vars[0], ==, 0.0);
  /* (1,2]: only the second sample. */
  g_assert_cmpfloat (series->means[1], ==, 4.0);
  /* (2,3]: nothing: a gap. */
  g_assert_true (isnan (series->means[2]));
  g_assert_true (isnan (series->mins[2]));
  g_assert_true (isnan (series->maxs[2]));
  g_assert_true (isnan (series->vars[2]));
  g_assert_true (isnan (series->sums[2]));
  g_assert_cmpint (series->min_process[2], ==, -1);
  g_assert_cmpint (series->max_process[2], ==, -1);
  /* No process set the single value. */
  g_assert_cmpuint (mg_profile_get_single_value (profile, 1)->count, ==, 0);
  g_assert_true (isnan (mg_profile_get_single_value (profile, 1)->mean));
}

/* Equal values read as exactly that value in every aggregate, with sample
 * edges that split the windows unevenly (0.1 is not a binary fraction; the
 * overlap-weighted sums round). */
static void
test_builder_constants_exact (void)
{
  static const double values[] = { 7.0, 0.1, 1.0 / 3.0 };
  static const double edges[] = { 0.0, 0.013, 0.29, 0.7071, 1.1, 1.4142, 1.9, 2.2, 2.71, 3.0 };

  for (guint v = 0; v < G_N_ELEMENTS (values); v++)
    {
      g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
      g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
      g_autoptr(MgMetricDef) s = make_metric ("s", MG_DOMAIN_SINGLE_VALUE);
      g_autoptr(GError) error = NULL;
      g_autoptr(MgProfile) profile = NULL;
      double c = values[v];
      const MgSeries *series;
      const MgSingleValue *single;

      mg_profile_builder_add_metric (builder, m);
      mg_profile_builder_add_metric (builder, s);
      for (int pid = 1; pid <= 3; pid++)
        {
          guint p = add_process (builder, pid, "h", 3.0);

          /* Each process's samples shifted by a different fraction. */
          for (guint k = 0; k + 1 < G_N_ELEMENTS (edges); k++)
            add_sample (builder, p, edges[k] * pid / 3.0 + (3 - pid) * 0.1,
                        edges[k + 1] * pid / 3.0 + (3 - pid) * 0.1, c, c, c);
          mg_profile_builder_set_single_value (builder, p, 1, c);
        }
      profile = mg_profile_builder_finish (builder, 17, &error);
      g_assert_no_error (error);
      series = mg_profile_get_series (profile, 0);
      for (guint w = 0; w < 17; w++)
        {
          if (isnan (series->means[w]))
            continue;
          g_assert_cmpfloat (series->means[w], ==, c);
          g_assert_cmpfloat (series->mins[w], ==, c);
          g_assert_cmpfloat (series->maxs[w], ==, c);
          g_assert_cmpfloat (series->vars[w], ==, 0.0);
        }
      /* (0.53, 0.71]: inside every process's samples. */
      g_assert_cmpfloat (series->sums[3], ==, c + c + c);
      single = mg_profile_get_single_value (profile, 1);
      g_assert_cmpfloat (single->mean, ==, c);
      g_assert_cmpfloat (single->var, ==, 0.0);
      g_assert_cmpfloat (single->sum, ==, c + c + c);
    }
}

static void
test_builder_lists (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
  g_autoptr(MgMetricGroup) group = mg_metric_group_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  MgPluginError plugin_error = { 0, (char *) "src", (char *) "libx.so", -2,
                                 (char *) "needs the library libMPW.so, which is not found here "
                                          "(install it, or add its folder to LD_LIBRARY_PATH; "
                                          "/m/libx.so was found)" };
  MgPluginError other_error = { 0, (char *) "other.src", (char *) "liby.so", -2,
                                (char *) "no init" };
  MgMetricError metric_error = { 0, (char *) "m", 5, (char *) "bad read", 3, 0.5, 1.5 };
  MgProcessEvent event = { 0, 2.0, MG_EVENT_SIGNAL, 11, NULL };
  guint p;

  m->source_ref = g_strdup ("src");
  group->id = g_strdup ("g");
  group->display_name = g_strdup ("Group");
  g_ptr_array_add (group->metric_refs, g_strdup ("m"));
  mg_profile_builder_add_metric (builder, m);
  mg_profile_builder_add_group (builder, group);
  p = add_process (builder, 1, "h", 2.0);
  add_sample (builder, p, 0.0, 2.0, 1.0, 1.0, 1.0);
  mg_profile_builder_add_plugin_error (builder, &plugin_error);
  mg_profile_builder_add_plugin_error (builder, &other_error);
  mg_profile_builder_add_metric_error (builder, &metric_error);
  mg_profile_builder_add_event (builder, &event);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (mg_profile_get_n_groups (profile), ==, 1);
  g_assert_cmpstr (mg_profile_get_group (profile, 0)->display_name, ==, "Group");
  g_assert_cmpuint (mg_profile_get_group (profile, 0)->metric_refs->len, ==, 1);
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), ==, 2);
  g_assert_cmpstr (mg_profile_get_plugin_error (profile, 1)->message, ==, "no init");
  g_assert_cmpuint (mg_profile_get_n_metric_errors (profile), ==, 1);
  g_assert_cmpuint (mg_profile_get_metric_error (profile, 0)->count, ==, 3);
  g_assert_cmpfloat (mg_profile_get_metric_error (profile, 0)->last_s, ==, 1.5);
  g_assert_cmpuint (mg_profile_get_n_events (profile), ==, 1);
  g_assert_cmpint (mg_profile_get_event (profile, 0)->kind, ==, MG_EVENT_SIGNAL);
  g_assert_cmpint (mg_profile_get_event (profile, 0)->status, ==, 11);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 1);
  g_assert_cmpfloat (mg_profile_get_series (profile, 0)->means[0], ==, 1.0);

  /* A plugin whose message does not name it is named by its metrics'
   * group, before what it lacks; one without a group by its source id. */
  g_autoptr (GPtrArray) unavailable = mg_unavailable_collect (profile);
  g_assert_cmpuint (unavailable->len, ==, 2);
  const MgUnavailable *named = g_ptr_array_index (unavailable, 0);
  g_assert_cmpstr (named->name, ==, "Group");
  g_assert_cmpstr (named->reason, ==, "needs the library libMPW.so, which is not found here");
  g_assert_cmpstr (((MgUnavailable *) g_ptr_array_index (unavailable, 1))->name, ==, "other.src");
}

/* Zero-length samples are instants at their end, used only where no sample
 * covers the window with a positive length. */
static void
test_builder_instants (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) s = make_metric ("s", MG_DOMAIN_SINGLE_VALUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgSeries *series;
  guint p;

  mg_profile_builder_add_metric (builder, m);
  mg_profile_builder_add_metric (builder, s);
  p = add_process (builder, 1, "h", 2.0);
  add_sample (builder, p, 0.0, 1.0, 1.0, 1.0, 1.0);
  add_sample (builder, p, 0.5, 0.5, 9.0, 9.0, 9.0);   /* inside a covered window */
  add_sample (builder, p, 1.5, 1.5, 4.0, 4.0, 4.0);   /* alone in its window */
  add_sample (builder, p, 1.7, 1.7, 6.0, 6.0, 6.0);
  profile = mg_profile_builder_finish (builder, 2, &error);
  g_assert_no_error (error);
  series = mg_profile_get_series (profile, 0);
  g_assert_cmpfloat (series->means[0], ==, 1.0);
  g_assert_cmpfloat (series->maxs[0], ==, 9.0);  /* the extreme still counts */
  g_assert_cmpfloat (series->means[1], ==, 5.0);
  g_assert_cmpfloat (series->mins[1], ==, 4.0);
  g_assert_cmpfloat (series->maxs[1], ==, 6.0);
}

/* Processes of uneven lengths and gaps, one metric never reported by
 * process 1; packed after its samples when pack is set. */
static MgProfile *
uneven_profile (gboolean pack)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) a = profile_fixture_metric ("a", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) b = profile_fixture_metric ("b", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) s = profile_fixture_metric ("s", MG_DOMAIN_SINGLE_VALUE);
  g_autoptr(GError) error = NULL;
  MgProfile *profile;

  mg_profile_builder_add_metric (builder, a);
  mg_profile_builder_add_metric (builder, b);
  mg_profile_builder_add_metric (builder, s);
  for (guint p = 0; p < 5; p++)
    {
      MgProcessInfo info = { 10 + (int) p, 1, (int) p, (char *) "h", (char *) "x", 0.1 * p,
                             3.0 + p, MG_PROCESS_END_EXITED, 0, FALSE };
      guint n = 20 + 7 * p;

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < n; k++)
        {
          double t0 = 0.1 * p + k * (3.0 / n), t1 = t0 + 3.0 / n;
          double mins[3] = { k * 0.5 - 1, p == 1 ? NAN : p * 100.0 + k, NAN };
          double maxs[3] = { k * 0.5 + 1, p == 1 ? NAN : p * 100.0 + k, NAN };
          double means[3] = { k % 5 == 3 ? NAN : k * 0.5 + p, p == 1 ? NAN : p * 100.0 + k, NAN };

          mg_profile_builder_add_sample (builder, p, t0, t1, mins, maxs, means);
        }
      mg_profile_builder_set_single_value (builder, p, 2, p * 2.0);
      if (pack && p != 3) /* the last unpacked one is packed when finishing */
        mg_profile_builder_pack (builder, p);
    }
  profile = mg_profile_builder_finish (builder, 16, &error);
  g_assert_no_error (error);
  return profile;
}

/* Packing processes as they are complete (the merge's way to bound its
 * memory) gives the very profile building without packing gives. */
static void
test_builder_packed (void)
{
  g_autoptr(MgProfile) plain = uneven_profile (FALSE);
  g_autoptr(MgProfile) packed = uneven_profile (TRUE);

  profile_fixture_assert_profiles_equal (plain, packed);
  g_assert_cmpuint (mg_profile_get_process_series (packed, 1, 1)->n, ==, 0);
  g_assert_cmpuint (mg_profile_get_process_series (packed, 4, 0)->n, ==, 48);
  g_assert_cmpfloat (mg_profile_get_process_series (packed, 4, 1)->means[47], ==, 447.0);
  g_assert_cmpfloat (mg_profile_get_single_value (packed, 2)->sum, ==, 20.0);
}

/* Samples that overlap each other (as in a damaged record): each counts
 * in every window it covers, whether the process's windows are found once
 * (process 1) or, samples × windows being too many to keep, for each
 * metric (process 0). */
static void
test_builder_overlapping_samples (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) m = make_metric ("m", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) s = make_metric ("s", MG_DOMAIN_SINGLE_VALUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgSeries *series;
  guint p0, p1;

  mg_profile_builder_add_metric (builder, m);
  mg_profile_builder_add_metric (builder, s);
  p0 = add_process (builder, 1, "h", 8.0);
  p1 = add_process (builder, 2, "h", 8.0);
  /* Ten samples over the whole run, of 0 to 9: 4.5 in every window. */
  for (guint k = 0; k < 10; k++)
    add_sample (builder, p0, 0.0, 8.0, k, k, k);
  add_sample (builder, p1, 0.0, 4.0, 1.0, 1.0, 1.0);
  add_sample (builder, p1, 4.0, 8.0, 3.0, 3.0, 3.0);
  profile = mg_profile_builder_finish (builder, 8, &error);
  g_assert_no_error (error);

  series = mg_profile_get_series (profile, 0);
  for (guint w = 0; w < 8; w++)
    {
      double other = w < 4 ? 1.0 : 3.0;

      g_assert_cmpfloat (series->means[w], ==, (4.5 + other) / 2);
      g_assert_cmpfloat (series->vars[w], ==, (4.5 - other) * (4.5 - other) / 4);
      g_assert_cmpfloat (series->sums[w], ==, 4.5 + other);
      g_assert_cmpfloat (series->mins[w], ==, 0.0);
      g_assert_cmpfloat (series->maxs[w], ==, 9.0);
      g_assert_cmpint (series->min_process[w], ==, 0);
      g_assert_cmpint (series->max_process[w], ==, 0);
    }
}

/* The threads of the process, by id. */
static GHashTable *
thread_ids (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, &error);
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_hash_table_add (ids, g_strdup (name));
  return ids;
}

/* The packer's threads are made once and kept: merging again (at every
 * refresh of the live view) neither starts nor ends threads. */
static void
test_builder_packer_threads_kept (void)
{
  g_autoptr(GHashTable) first = NULL;

  g_object_unref (uneven_profile (TRUE));
  first = thread_ids ();
  g_assert_cmpuint (g_hash_table_size (first), >, 1);
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr(GHashTable) now = NULL;
      GHashTableIter iter;
      gpointer id;

      g_object_unref (uneven_profile (TRUE));
      g_usleep (G_USEC_PER_SEC / 20); /* time for a thread being ended to go */
      now = thread_ids ();
      g_hash_table_iter_init (&iter, first);
      while (g_hash_table_iter_next (&iter, &id, NULL))
        if (!g_hash_table_contains (now, id))
          g_error ("merge %u ended thread %s, there after the first merge", i + 2, (char *) id);
      g_hash_table_iter_init (&iter, now);
      while (g_hash_table_iter_next (&iter, &id, NULL))
        if (!g_hash_table_contains (first, id))
          g_error ("merge %u left a new thread %s", i + 2, (char *) id);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/builder/aggregates", test_builder_aggregates);
  g_test_add_func ("/profile/builder/single-values", test_builder_single_values);
  g_test_add_func ("/profile/builder/run-facts", test_builder_run_facts);
  g_test_add_func ("/profile/builder/window-boundaries", test_builder_window_boundaries);
  g_test_add_func ("/profile/builder/constants-exact", test_builder_constants_exact);
  g_test_add_func ("/profile/builder/lists", test_builder_lists);
  g_test_add_func ("/profile/builder/instants", test_builder_instants);
  g_test_add_func ("/profile/builder/packed", test_builder_packed);
  g_test_add_func ("/profile/builder/overlapping-samples", test_builder_overlapping_samples);
  g_test_add_func ("/profile/builder/packer-threads-kept", test_builder_packer_threads_kept);
  return g_test_run ();
}
