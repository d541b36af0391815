/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Report metric values: each sampleValue × aggregation against the same
 * figures computed here from the JSON export; single values; metrics not
 * recorded say so, with their error, and are never 0. */
#include "mg-config.h"

#include <json-glib/json-glib.h>
#include <math.h>

#include "profile/mg-export-json.h"
#include "report/mg-report-value.h"
#include "report-fixture.h"

static JsonObject *
export_json (MgProfile *profile, JsonParser *parser)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (mg_export_json_to_stream (profile, out, &error));
  g_assert_no_error (error);
  /* The export closes the stream. */
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

static double
element (JsonArray *array, guint i)
{
  JsonNode *node = json_array_get_element (array, i);

  return JSON_NODE_HOLDS_NULL (node) ? NAN : json_node_get_double (node);
}

/* The spec's definition, written out over the JSON arrays: per window the
 * chosen value; over windows min, max or the mean weighted by the window's
 * length, gaps skipped. The last window ends at the profile's last end. */
static double
expected_value (JsonObject *samples, const char *id, const char *sample_value,
                const char *aggregation, double last_end)
{
  JsonArray *starts = json_object_get_array_member (samples, "window_start_offsets");
  JsonObject *metric = json_object_get_object_member (json_object_get_object_member (samples,
                                                                                      "metrics"),
                                                      id);
  g_autofree char *key = g_strconcat (sample_value, "s", NULL);
  JsonArray *values = json_object_get_array_member (metric, key);
  guint n = json_array_get_length (starts);
  double result = NAN, weighted = 0, total = 0;

  for (guint i = 0; i < n; i++)
    {
      double v = element (values, i);
      double start = element (starts, i) / 1000.0;
      double end = i + 1 < n ? element (starts, i + 1) / 1000.0 : last_end;

      if (isnan (v))
        continue;
      if (g_str_equal (aggregation, "min"))
        result = isnan (result) ? v : MIN (result, v);
      else if (g_str_equal (aggregation, "max"))
        result = isnan (result) ? v : MAX (result, v);
      else
        weighted += v * (end - start), total += end - start;
    }
  return g_str_equal (aggregation, "mean") ? weighted / total : result;
}

static void
test_against_json (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *samples = json_object_get_object_member (export_json (profile, parser), "samples");
  const double *ends = mg_profile_get_window_ends (profile);
  double last_end = ends[mg_profile_get_n_windows (profile) - 1];
  static const char *const ids[] = { "cpu_time_percentage", "rchar_rate", "rss",
                                     "com.allinea.metrics.custom1.interrupts" };
  static const char *const picks[] = { "min", "max", "mean", "sum" };
  guint checked = 0;

  for (guint m = 0; m < G_N_ELEMENTS (ids); m++)
    for (guint s = 0; s < 4; s++)
      for (guint a = 0; a < 3; a++)
        {
          double want = expected_value (samples, ids[m], picks[s], picks[a], last_end);
          double got = mg_report_value_compute (profile, ids[m], (MgReportPick) s,
                                                (MgReportPick) a, NULL);

          g_assert_false (isnan (want));
          g_assert_cmpfloat_with_epsilon (got, want, fabs (want) * 1e-12);
          checked++;
        }
  g_assert_cmpuint (checked, ==, 48);
}

/* Hand-computed from the fixture, so that the JSON comparison cannot pass
 * by sharing a mistake: interrupts are 1000 + 500 p + 100 k; process 2 has
 * gaps in windows 3 and 4. */
static void
test_known_values (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  const char *id = "com.allinea.metrics.custom1.interrupts";

  /* Window 0: processes 1000, 1500, 2000; the max of the maxes is window 7. */
  g_assert_cmpfloat (mg_report_value_compute (profile, id, MG_REPORT_PICK_MIN, MG_REPORT_PICK_MIN,
                                              NULL), ==, 1000.0);
  g_assert_cmpfloat (mg_report_value_compute (profile, id, MG_REPORT_PICK_MAX, MG_REPORT_PICK_MAX,
                                              NULL), ==, 2700.0);
  /* Sums: 4500 + 300 k with all three, 2500 + 200 k in windows 3 and 4. */
  g_assert_cmpfloat_with_epsilon (mg_report_value_compute (profile, id, MG_REPORT_PICK_SUM,
                                                           MG_REPORT_PICK_MEAN, NULL),
                                  (4500 * 6 + 300 * (0 + 1 + 2 + 5 + 6 + 7) + 2500 * 2
                                   + 200 * (3 + 4)) / 8.0, 1e-9);
  /* cpu: 60 + 10 p + k, mean over processes 70 + k, over time 73.5. */
  g_assert_cmpfloat_with_epsilon (mg_report_value_compute (profile, "cpu_time_percentage",
                                                           MG_REPORT_PICK_MEAN,
                                                           MG_REPORT_PICK_MEAN, NULL),
                                  73.5, 1e-9);
}

static void
test_single_value (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();

  g_assert_cmpfloat (mg_report_value_compute (profile, "memory_per_node", MG_REPORT_PICK_SUM,
                                              MG_REPORT_PICK_MEAN, NULL), ==, 24.0 * 1073741824.0);
  g_assert_cmpfloat (mg_report_value_compute (profile, "memory_per_node", MG_REPORT_PICK_MAX,
                                              MG_REPORT_PICK_MIN, NULL), ==, 8.0 * 1073741824.0);
}

static void
test_not_recorded (void)
{
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  g_autofree char *absent = NULL, *failed = NULL;

  g_assert_true (isnan (mg_report_value_compute (profile, "no_such_metric", MG_REPORT_PICK_MEAN,
                                                 MG_REPORT_PICK_MEAN, &absent)));
  g_assert_cmpstr (absent, ==, "not recorded in this run");
  g_assert_true (isnan (mg_report_value_compute (profile, "mpi_calls", MG_REPORT_PICK_MEAN,
                                                 MG_REPORT_PICK_MEAN, &failed)));
  g_assert_cmpstr (failed, ==, "not recorded in this run: the MPI library is not loaded");
}

/* One process whose samples are shorter than the windows: the series'
 * min and max in a window are its lowest and highest sample, but the
 * least and most busy process is the process itself, with its mean. */
static MgProfile *
one_process_profile (guint n_processes)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "./loop", NULL };

  def->id = g_strdup ("cpu_time_percentage");
  g_free (def->units);
  def->units = g_strdup ("%");
  def->display_name = g_strdup ("CPU");
  def->source_ref = g_strdup ("org.example.source");
  mg_profile_builder_add_metric (builder, def);
  mg_profile_builder_set_command (builder, argv, "/");
  mg_profile_builder_set_interval (builder, 200.0, 200.0, 100);
  for (guint p = 0; p < n_processes; p++)
    {
      MgProcessInfo info = { 10 + (int) p, 1, -1, (char *) "node", (char *) "./loop",
                             0.0, 4.0, MG_PROCESS_END_EXITED, 0, p == 0 };
      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 20; k++)
        {
          double v = k % 2 ? 60.0 : 20.0;
          mg_profile_builder_add_sample (builder, p, 0.2 * k, 0.2 * (k + 1), &v, &v, &v);
        }
    }
  MgProfile *profile = mg_profile_builder_finish (builder, 8, &error);
  g_assert_no_error (error);
  return profile;
}

static void
test_one_process (void)
{
  g_autoptr (MgProfile) one = one_process_profile (1);
  g_autoptr (MgProfile) two = one_process_profile (2);
  double mean = mg_report_value_compute (one, "cpu_time_percentage", MG_REPORT_PICK_MEAN,
                                         MG_REPORT_PICK_MEAN, NULL);
  double least = mg_report_value_compute (one, "cpu_time_percentage", MG_REPORT_PICK_MIN,
                                          MG_REPORT_PICK_MEAN, NULL);
  double most = mg_report_value_compute (one, "cpu_time_percentage", MG_REPORT_PICK_MAX,
                                         MG_REPORT_PICK_MEAN, NULL);
  const MgSeries *series = mg_profile_get_series (one, 0);
  guint n = mg_profile_get_n_windows (one);
  gboolean spread = FALSE;

  /* The windows hold several samples: the envelope is wider than the mean. */
  for (guint w = 0; w < n; w++)
    spread |= series->mins[w] < series->means[w] - 1;
  g_assert_true (spread);
  g_assert_cmpfloat_with_epsilon (mean, 40.0, 1.0);
  g_assert_cmpfloat (least, ==, mean);
  g_assert_cmpfloat (most, ==, mean);
  /* With several processes, the lowest any process read in a window (the
   * export's mins). */
  least = mg_report_value_compute (two, "cpu_time_percentage", MG_REPORT_PICK_MIN,
                                   MG_REPORT_PICK_MEAN, NULL);
  g_assert_cmpfloat (least, <, mean - 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/values/against-json", test_against_json);
  g_test_add_func ("/report/values/known", test_known_values);
  g_test_add_func ("/report/values/single-value", test_single_value);
  g_test_add_func ("/report/values/not-recorded", test_not_recorded);
  g_test_add_func ("/report/values/one-process", test_one_process);
  return g_test_run ();
}
