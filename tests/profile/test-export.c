/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON and CSV export, read back field by field. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "profile/mg-export-csv.h"
#include "profile/mg-export-json.h"
#include "profile/mg-profile-header.h"
#include "mg-test-common.h"
#include "profile-fixture.h"

/* One process, metric `odd,"id"`, sampled only in the first of 3 windows. */
static MgProfile *
gap_profile (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) odd = profile_fixture_metric ("odd,\"id\"", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) single = profile_fixture_metric ("never", MG_DOMAIN_SINGLE_VALUE);
  MgProcessInfo info = { 1, 0, -1, (char *) "h", (char *) "p", 0.0, 3.0,
                         MG_PROCESS_END_EXITED, 0, FALSE };
  double mins[2] = { 0.0, NAN }, maxs[2] = { 3.0, NAN }, means[2] = { 0.1, NAN };
  g_autoptr(GError) error = NULL;
  MgProfile *profile;

  mg_profile_builder_add_metric (builder, odd);
  mg_profile_builder_add_metric (builder, single);
  mg_profile_builder_add_process (builder, &info);
  mg_profile_builder_add_sample (builder, 0, 0.0, 1.0, mins, maxs, means);
  profile = mg_profile_builder_finish (builder, 3, &error);
  g_assert_no_error (error);
  return profile;
}

static char *
export_to_string (MgProfile *profile, gboolean json)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (json)
    ok = mg_export_json_to_stream (profile, out, &error);
  else
    ok = mg_export_csv_to_stream (profile, out, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_output_stream_write_all (out, "", 1, NULL, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static JsonObject *
parse (JsonParser *parser, const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
assert_json_array (JsonArray *array, const double *values, guint n)
{
  g_assert_cmpuint (json_array_get_length (array), ==, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (isnan (values[i]))
        g_assert_true (JSON_NODE_HOLDS_NULL (node));
      else
        g_assert_cmpfloat (json_node_get_double (node), ==, values[i]);
    }
}

static void
test_export_json (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autofree char *text = export_to_string (profile, TRUE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = parse (parser, text);
  JsonObject *info = json_object_get_object_member (root, "info");
  JsonObject *samples = json_object_get_object_member (root, "samples");
  JsonObject *single, *metrics, *alpha;
  guint n = mg_profile_get_n_windows (profile);
  const char *kinds[] = { "mins", "maxs", "means", "vars", "sums" };

  g_assert_cmpstr (json_object_get_string_member (info, "command_line"), ==,
                   "./app 'a b' '--x=\"1\"'");
  g_assert_cmpstr (json_object_get_string_member (info, "machine"), ==, "node-a");
  g_assert_cmpstr (json_object_get_string_member (info, "notes"), ==, "");
  g_assert_cmpint (json_object_get_int_member (info, "number_of_nodes"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (info, "number_of_processes"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (info, "runtime"), ==, 4000.0);
  g_assert_cmpstr (json_object_get_string_member (info, "start_time"), ==,
                   "2025-11-22T06:00:00.123456Z");
  g_assert_cmpstr (json_object_get_string_member (info, "create_version"), ==,
                   "Metrograph " MG_VERSION);
  /* Single values only, in info. */
  metrics = json_object_get_object_member (info, "metrics");
  g_assert_cmpuint (json_object_get_size (metrics), ==, 1);
  single = json_object_get_object_member (metrics, "gamma");
  g_assert_cmpfloat (json_object_get_double_member (single, "max"), ==, 2048.0);
  g_assert_cmpfloat (json_object_get_double_member (single, "min"), ==, 1024.0);
  g_assert_cmpfloat (json_object_get_double_member (single, "mean"), ==, 1536.0);
  g_assert_cmpfloat (json_object_get_double_member (single, "var"), ==, 262144.0);
  g_assert_cmpfloat (json_object_get_double_member (single, "sums"), ==, 3072.0);

  g_assert_cmpint (json_object_get_int_member (samples, "count"), ==, 4);
  {
    double offsets[4] = { 0.0, 1000.0, 2000.0, 3000.0 };

    assert_json_array (json_object_get_array_member (samples, "window_start_offsets"), offsets, 4);
  }
  metrics = json_object_get_object_member (samples, "metrics");
  g_assert_cmpuint (json_object_get_size (metrics), ==, 2);
  g_assert_false (json_object_has_member (metrics, "gamma"));
  for (guint m = 0; m < 2; m++)
    {
      const MgSeries *s = mg_profile_get_series (profile, m);
      JsonObject *obj = json_object_get_object_member (metrics, mg_profile_get_metric (profile, m)->id);
      const double *arrays[] = { s->mins, s->maxs, s->means, s->vars, s->sums };

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        assert_json_array (json_object_get_array_member (obj, kinds[k]), arrays[k], n);
    }
  /* Hand-checked: window (0,1] holds process 0's 1 and process 1's 5.5. */
  alpha = json_object_get_object_member (metrics, "alpha");
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (alpha, "means"), 0), ==, 3.25);
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (alpha, "sums"), 0), ==, 6.5);
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (alpha, "maxs"), 0), ==, 6.0);
}

static void
test_export_json_gaps (void)
{
  g_autoptr(MgProfile) profile = gap_profile ();
  g_autofree char *text = export_to_string (profile, TRUE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = parse (parser, text);
  JsonObject *info = json_object_get_object_member (root, "info");
  JsonObject *metrics = json_object_get_object_member (json_object_get_object_member (root, "samples"), "metrics");
  JsonArray *means = json_object_get_array_member (json_object_get_object_member (metrics, "odd,\"id\""), "means");

  /* A single value no process reported is null. */
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_object_get_object_member (info, "metrics"), "never")));
  g_assert_cmpfloat (json_array_get_double_element (means, 0), ==, 0.1);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (means, 1)));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_array_get_element (means, 2)));
  g_assert_nonnull (strstr (text, "0.1,null,null"));
}

static void
test_export_csv (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autofree char *text = export_to_string (profile, FALSE);
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);

  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_cmpstr (lines[0], ==, "time_s,alpha_min,alpha_mean,alpha_max,beta_min,beta_mean,beta_max,"
                                 "gamma_min,gamma_mean,gamma_max");
  /* gamma, single-valued: 1024 and 2048 in the two processes, every row. */
  g_assert_cmpstr (lines[1], ==, "0,0,3.25,6,0,0.5,1,1024,1536,2048");
  /* (1,2]: process 0: 2 in [1,3]; process 1: 5.5 for 0.75 s, in [5,6]. */
  g_assert_cmpstr (lines[2], ==, "1,1,3.75,6,10,10.5,11,1024,1536,2048");
  g_assert_cmpstr (lines[4], ==, "3,3,4,5,30,30.5,31,1024,1536,2048");
  g_assert_cmpstr (lines[5], ==, "");
}

static void
test_export_csv_quoting_and_gaps (void)
{
  g_autoptr(MgProfile) profile = gap_profile ();
  g_autofree char *text = export_to_string (profile, FALSE);

  g_assert_cmpstr (text, ==,
                   "time_s,\"odd,\"\"id\"\"_min\",\"odd,\"\"id\"\"_mean\",\"odd,\"\"id\"\"_max\","
                   "never_min,never_mean,never_max\r\n"
                   "0,0,0.1,3,,,\r\n"
                   "1,,,,,,\r\n"
                   "2,,,,,,\r\n");
}

/* A minimal RFC 4180 reader: rows of fields, quotes resolved. */
static GPtrArray *
read_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GStrvBuilder) row = g_strv_builder_new ();
  g_autoptr(GString) field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (!quoted && *p == ',')
        {
          g_strv_builder_add (row, field->str);
          g_string_truncate (field, 0);
        }
      else if (!quoted && *p == '\r' && p[1] == '\n')
        {
          g_strv_builder_add (row, field->str);
          g_string_truncate (field, 0);
          g_ptr_array_add (rows, g_strv_builder_end (row));
          g_clear_pointer (&row, g_strv_builder_unref);
          row = g_strv_builder_new ();
          p++;
        }
      else
        g_string_append_c (field, *p);
    }
  g_assert_false (quoted);
  g_assert_cmpuint (field->len, ==, 0); /* the last row ends in CRLF */
  return rows;
}

/* The file on disk, read back as a table: every row as wide as the header,
 * single values as constant columns after the time-domain ones, a single
 * value no process reported as empty fields. */
static void
test_export_csv_single_values (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autoptr(MgProfile) gaps = gap_profile ();
  g_autofree char *dir = g_dir_make_tmp ("mg-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "single.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  int gamma = mg_profile_find_metric (profile, "gamma");
  const MgSingleValue *v;
  guint width;

  g_assert_cmpint (gamma, >=, 0);
  v = mg_profile_get_single_value (profile, (guint) gamma);
  g_assert_true (mg_export_csv (profile, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  rows = read_csv (contents);
  g_assert_cmpuint (rows->len, ==, mg_profile_get_n_windows (profile) + 1);
  width = g_strv_length (rows->pdata[0]);
  g_assert_cmpuint (width, ==, 10);
  g_assert_cmpstr (((char **) rows->pdata[0])[7], ==, "gamma_min");
  g_assert_cmpstr (((char **) rows->pdata[0])[9], ==, "gamma_max");
  for (guint r = 1; r < rows->len; r++)
    {
      char **row = rows->pdata[r];

      g_assert_cmpuint (g_strv_length (row), ==, width);
      g_assert_cmpfloat (g_ascii_strtod (row[7], NULL), ==, v->min);
      g_assert_cmpfloat (g_ascii_strtod (row[8], NULL), ==, v->mean);
      g_assert_cmpfloat (g_ascii_strtod (row[9], NULL), ==, v->max);
      g_assert_cmpfloat (v->min, ==, 1024);
      g_assert_cmpfloat (v->max, ==, 2048);
    }
  g_unlink (path);

  g_assert_true (mg_export_csv (gaps, path, &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = read_csv (contents);
  g_assert_cmpstr (((char **) rows->pdata[0])[1], ==, "odd,\"id\"_min");
  g_assert_cmpstr (((char **) rows->pdata[0])[4], ==, "never_min");
  for (guint r = 1; r < rows->len; r++)
    for (guint c = 4; c < 7; c++)
      g_assert_cmpstr (((char **) rows->pdata[r])[c], ==, "");
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_export_files (void)
{
  g_autoptr(MgProfile) profile = gap_profile ();
  g_autofree char *dir = g_dir_make_tmp ("mg-export-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "out.json", NULL);
  g_autofree char *csv = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (mg_export_json (profile, json, &error));
  g_assert_no_error (error);
  g_assert_true (mg_export_csv (profile, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "time_s,"));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (json, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "{\"info\":"));
  g_assert_false (mg_export_csv (profile, "/nonexistent-dir/out.csv", &error));
  g_assert_nonnull (error);
  g_unlink (json);
  g_unlink (csv);
  g_rmdir (dir);
}

/* The same run exports the same bytes whichever format its profile was
 * saved in: a format 2 file and that file saved again (the current
 * payload, under format 8: the edition of the helper rule it was merged
 * with). */
static void
test_export_same_after_resave (void)
{
  g_autofree char *v2 = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                               "format-v2.mgprof", NULL);
  g_autofree char *dir = g_dir_make_tmp ("mg-export-XXXXXX", NULL);
  g_autofree char *v3 = g_build_filename (dir, "resaved.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) old = mg_profile_load (v2, &error);
  g_autoptr(MgProfile) resaved = NULL;
  g_autofree char *old_json = NULL, *old_csv = NULL, *new_json = NULL, *new_csv = NULL;
  g_autofree char *head = NULL;

  g_assert_no_error (error);
  g_assert_true (mg_profile_save (old, v3, &error));
  g_assert_true (g_file_get_contents (v3, &head, NULL, &error));
  g_assert_cmpint (head[8], ==, MG_PROFILE_VERSION_STEPS_MAY_BE_WORK - 1);
  resaved = mg_profile_load (v3, &error);
  g_assert_no_error (error);
  old_json = export_to_string (old, TRUE);
  old_csv = export_to_string (old, FALSE);
  new_json = export_to_string (resaved, TRUE);
  new_csv = export_to_string (resaved, FALSE);
  g_assert_cmpuint (strlen (old_json), >, 100);
  g_assert_cmpuint (strlen (old_csv), >, 100);
  g_assert_cmpstr (new_json, ==, old_json);
  g_assert_cmpstr (new_csv, ==, old_csv);
  mg_test_remove_tree (dir);
}

/* Three processes of a noisy ratio (full precision), a counter past 2^24
 * and a constant, as a merge packs them. */
static MgProfile *
noisy_profile (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (18);
  const char *ids[] = { "ratio", "counter", "constant" };
  g_autoptr(GError) error = NULL;
  MgProfile *profile;

  for (guint m = 0; m < G_N_ELEMENTS (ids); m++)
    {
      g_autoptr(MgMetricDef) def = profile_fixture_metric (ids[m], MG_DOMAIN_TIME);

      mg_profile_builder_add_metric (builder, def);
    }
  for (guint p = 0; p < 3; p++)
    {
      MgProcessInfo info = { 10 + (int) p, 1, (int) p, (char *) "h", (char *) "a", 0.0, 2.0,
                             MG_PROCESS_END_EXITED, 0, FALSE };

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 200; k++)
        {
          double v[3] = { 50.0 + 40.0 * sin (k * 0.05 + p) + g_rand_double (rand),
                          3.0 * 16777216.0 + 4099.0 * k * k + p, 8.0 };

          mg_profile_builder_add_sample (builder, p, k * 0.01, (k + 1) * 0.01, v, v, v);
        }
      mg_profile_builder_pack (builder, p);
    }
  profile = mg_profile_builder_finish (builder, 64, &error);
  g_assert_no_error (error);
  return profile;
}

/* Saved with the processes' series at single precision, a profile
 * exports the same bytes as saved exact (the aggregates stay exact), its
 * processes' series read back within the bound, the file says so, and
 * saving it again cannot make it exact. */
static void
test_export_same_at_single_precision (void)
{
  g_autoptr(MgProfile) built = noisy_profile ();
  g_autofree char *dir = g_dir_make_tmp ("mg-export-XXXXXX", NULL);
  g_autofree char *exact_path = g_build_filename (dir, "exact.mgprof", NULL);
  g_autofree char *single_path = g_build_filename (dir, "single.mgprof", NULL);
  g_autofree char *again_path = g_build_filename (dir, "again.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) exact = NULL;
  g_autoptr(MgProfile) single = NULL;
  g_autoptr(MgProfile) again = NULL;
  g_autofree char *exact_json = NULL, *exact_csv = NULL, *single_json = NULL;
  g_autofree char *single_csv = NULL;
  guint rounded = 0;
  GStatBuf exact_stat, single_stat;

  g_assert_cmpint (mg_profile_get_process_precision (built), ==, MG_PROCESS_PRECISION_EXACT);
  g_assert_true (mg_profile_save (built, exact_path, &error));
  mg_profile_set_process_precision (built, MG_PROCESS_PRECISION_SINGLE);
  g_assert_true (mg_profile_save (built, single_path, &error));
  g_assert_no_error (error);
  exact = mg_profile_load (exact_path, &error);
  g_assert_no_error (error);
  single = mg_profile_load (single_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mg_profile_get_process_precision (exact), ==, MG_PROCESS_PRECISION_EXACT);
  g_assert_cmpint (mg_profile_get_process_precision (single), ==, MG_PROCESS_PRECISION_SINGLE);

  exact_json = export_to_string (exact, TRUE);
  exact_csv = export_to_string (exact, FALSE);
  single_json = export_to_string (single, TRUE);
  single_csv = export_to_string (single, FALSE);
  g_assert_cmpstr (single_json, ==, exact_json);
  g_assert_cmpstr (single_csv, ==, exact_csv);

  for (guint p = 0; p < 3; p++)
    for (guint m = 0; m < 3; m++)
      {
        const MgProcessSeries *a = mg_profile_get_process_series (exact, p, m);
        const MgProcessSeries *b = mg_profile_get_process_series (single, p, m);

        g_assert_cmpuint (a->n, ==, 200);
        g_assert_cmpuint (b->n, ==, 200);
        for (guint k = 0; k < 200; k++)
          {
            g_assert_cmpfloat (b->times[k], ==, a->times[k]);
            g_assert_cmpfloat (fabs (b->means[k] - a->means[k]), <=, ldexp (fabs (a->means[k]), -24));
            g_assert_cmpfloat (fabs (b->mins[k] - a->mins[k]), <=, ldexp (fabs (a->mins[k]), -24));
            g_assert_cmpfloat (fabs (b->maxs[k] - a->maxs[k]), <=, ldexp (fabs (a->maxs[k]), -24));
            rounded += b->means[k] != a->means[k];
          }
        /* The constant is exact in float32. */
        if (m == 2)
          g_assert_cmpfloat (b->means[199], ==, 8.0);
      }
  /* The ratio's and the counter's values were rounded. */
  g_assert_cmpuint (rounded, >, 3 * 200);
  g_assert_cmpint (g_stat (exact_path, &exact_stat), ==, 0);
  g_assert_cmpint (g_stat (single_path, &single_stat), ==, 0);
  g_assert_cmpint (single_stat.st_size, <, exact_stat.st_size);

  /* What single precision dropped does not come back. */
  mg_profile_set_process_precision (single, MG_PROCESS_PRECISION_EXACT);
  g_assert_cmpint (mg_profile_get_process_precision (single), ==, MG_PROCESS_PRECISION_SINGLE);
  g_assert_true (mg_profile_save (single, again_path, &error));
  again = mg_profile_load (again_path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mg_profile_get_process_precision (again), ==, MG_PROCESS_PRECISION_SINGLE);
  g_assert_cmpfloat (mg_profile_get_process_series (again, 1, 0)->means[7], ==,
                     mg_profile_get_process_series (single, 1, 0)->means[7]);
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/export/json", test_export_json);
  g_test_add_func ("/profile/export/json-gaps", test_export_json_gaps);
  g_test_add_func ("/profile/export/csv", test_export_csv);
  g_test_add_func ("/profile/export/csv-quoting-and-gaps", test_export_csv_quoting_and_gaps);
  g_test_add_func ("/profile/export/files", test_export_files);
  g_test_add_func ("/profile/export/same-after-resave", test_export_same_after_resave);
  g_test_add_func ("/profile/export/same-at-single-precision",
                   test_export_same_at_single_precision);
  g_test_add_func ("/profile/export/csv-single-values", test_export_csv_single_values);
  return g_test_run ();
}
