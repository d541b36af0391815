/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan writer, checked by parsing its output back as the sampler
 * would (docs/run-plan.md). */
#include <string.h>

#include "defs-test-support.h"
#include "defs/mg-plan-writer.h"

/* A plan line split into unescaped fields (the keyword first). */
static GStrv
split_line (const char *line)
{
  g_auto (GStrv) raw = g_strsplit (line, "\t", -1);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; raw[i] != NULL; i++)
    {
      GString *field = g_string_new (NULL);

      for (const char *p = raw[i]; *p != '\0'; p++)
        {
          if (*p != '\\')
            {
              g_string_append_c (field, *p);
              continue;
            }
          p++;
          g_assert_true (*p == '\\' || *p == 't' || *p == 'n');
          g_string_append_c (field, *p == 't' ? '\t' : *p == 'n' ? '\n' : '\\');
        }
      g_strv_builder_add (builder, field->str);
      g_string_free (field, TRUE);
    }
  return g_strv_builder_end (builder);
}

typedef struct {
  GHashTable *singles;   /* keyword → fields, for once-only keywords */
  GPtrArray *skips;      /* char* */
  GPtrArray *sources;    /* GStrv */
  GPtrArray *metrics;    /* GStrv */
} Plan;

static void
plan_clear (Plan *plan)
{
  g_hash_table_unref (plan->singles);
  g_ptr_array_unref (plan->skips);
  g_ptr_array_unref (plan->sources);
  g_ptr_array_unref (plan->metrics);
}

static void
parse_plan (const char *text, Plan *plan)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);

  plan->singles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) g_strfreev);
  plan->skips = g_ptr_array_new_with_free_func (g_free);
  plan->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  plan->metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_cmpstr (lines[0], ==, "metrograph-plan 1");
  g_assert_cmpstr (lines[n - 1], ==, ""); /* ends with a newline */
  for (guint i = 1; i + 1 < n; i++)
    {
      GStrv fields;

      g_assert_cmpuint (strlen (lines[i]), <=, 4096);
      fields = split_line (lines[i]);
      if (strcmp (fields[0], "source") == 0)
        {
          g_assert_cmpuint (g_strv_length (fields), ==, 6);
          g_ptr_array_add (plan->sources, fields);
        }
      else if (strcmp (fields[0], "metric") == 0)
        {
          g_assert_cmpuint (g_strv_length (fields), ==, 13);
          g_ptr_array_add (plan->metrics, fields);
        }
      else if (strcmp (fields[0], "skip_program") == 0)
        {
          g_assert_cmpuint (g_strv_length (fields), ==, 2);
          g_ptr_array_add (plan->skips, g_strdup (fields[1]));
          g_strfreev (fields);
        }
      else
        {
          g_assert_cmpuint (g_strv_length (fields), ==, 2);
          g_assert_false (g_hash_table_contains (plan->singles, fields[0]));
          g_hash_table_insert (plan->singles, g_strdup (fields[0]), fields);
        }
    }
}

static const char *
single (Plan *plan, const char *keyword)
{
  GStrv fields = g_hash_table_lookup (plan->singles, keyword);

  return fields != NULL ? fields[1] : NULL;
}

static GStrv
find_metric_line (Plan *plan, const char *id)
{
  for (guint i = 0; i < plan->metrics->len; i++)
    {
      GStrv fields = g_ptr_array_index (plan->metrics, i);

      if (strcmp (fields[3], id) == 0)
        return fields;
    }
  return NULL;
}

static GStrv
metric_line (Plan *plan, const char *id)
{
  GStrv fields = find_metric_line (plan, id);

  if (fields == NULL)
    g_error ("no metric line for %s", id);
  return fields;
}

static MgCatalogue *
load_map_shaped (char **dir)
{
  g_autoptr (MgSearchPath) path = NULL;
  const char *dirs[2] = { NULL, NULL };
  MgCatalogue *catalogue = mg_catalogue_new ();

  *dir = defs_test_copy_fixture ("mapreal");
  defs_test_fake_library (*dir, "libmg-cpu.so");
  defs_test_fake_library (*dir, "libmg-cpu-wrap.so");
  defs_test_fake_library (*dir, "libmg-io.so");
  dirs[0] = *dir;
  path = mg_search_path_new_for_dirs (dirs);
  mg_catalogue_load (catalogue, path);
  return catalogue;
}

static void
test_round_trip (void)
{
  g_autofree char *dir = NULL;
  g_autoptr (MgCatalogue) catalogue = load_map_shaped (&dir);
  const char *enable[] = { "loadavg", NULL };
  const char *disable[] = { "bytes_read", NULL };
  const char *skips[] = { "mpirun", "srun", NULL };
  MgPlanOptions options = {
    .run_id = "20261122-101500-4242",
    .record_dir = "/tmp/rec\tords\\x",
    .interval_ms = 20,
    .stop_after_ms = 5000,
    .skip_programs = skips,
  };
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *cpu_library = g_build_filename (dir, "libmg-cpu.so", NULL);
  g_autofree char *io_library = g_build_filename (dir, "libmg-io.so", NULL);
  Plan plan;
  GStrv fields;
  const char *cpu_ids[] = { "cpu_time_percentage", "loadavg", "cpu_sentinel" };
  const char *io_ids[] = { "io_events", "memory_per_node" };

  g_assert_true (mg_catalogue_apply_toggles (catalogue, enable, disable, &error));
  text = mg_plan_to_string (catalogue, &options, &error);
  g_assert_no_error (error);
  g_test_message ("%s", text);
  parse_plan (text, &plan);

  g_assert_cmpstr (single (&plan, "run_id"), ==, "20261122-101500-4242");
  g_assert_cmpstr (single (&plan, "record_dir"), ==, "/tmp/rec\tords\\x");
  g_assert_cmpstr (single (&plan, "interval_ms"), ==, "20");
  g_assert_cmpstr (single (&plan, "stop_after_ms"), ==, "5000");
  g_assert_null (single (&plan, "samples"));
  g_assert_null (single (&plan, "start_after_ms"));
  g_assert_cmpuint (plan.skips->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (plan.skips, 1), ==, "srun");

  /* Only sources with an enabled metric; the energy plugin is missing. */
  g_assert_cmpuint (plan.sources->len, ==, 2);
  fields = g_ptr_array_index (plan.sources, 0);
  g_assert_cmpstr (fields[1], ==, "0");
  g_assert_cmpstr (fields[2], ==, "cpu_src");
  g_assert_cmpstr (fields[3], ==, cpu_library);
  g_assert_cmpstr (fields[4], ==, "cpu_start");
  g_assert_cmpstr (fields[5], ==, "");
  fields = g_ptr_array_index (plan.sources, 1);
  g_assert_cmpstr (fields[1], ==, "1");
  g_assert_cmpstr (fields[3], ==, io_library);

  /* Metric indices count from 0 in order; source indices point back. */
  g_assert_cmpuint (plan.metrics->len, ==, 5);
  for (guint i = 0; i < plan.metrics->len; i++)
    {
      g_autofree char *index = g_strdup_printf ("%u", i);

      fields = g_ptr_array_index (plan.metrics, i);
      g_assert_cmpstr (fields[1], ==, index);
      g_assert_cmpstr (fields[2], ==, i < 3 ? "0" : "1");
      g_assert_cmpstr (fields[3], ==, i < 3 ? cpu_ids[i] : io_ids[i - 3]);
    }
  g_assert_null (find_metric_line (&plan, "bytes_read"));
  g_assert_null (find_metric_line (&plan, "cpu_forbidden"));
  g_assert_null (find_metric_line (&plan, "rapl_power"));

  fields = metric_line (&plan, "cpu_time_percentage");
  g_assert_cmpstr (fields[4], ==, "cpu_time");
  g_assert_cmpstr (fields[5], ==, "double");
  g_assert_cmpstr (fields[6], ==, "%");
  g_assert_cmpstr (fields[7], ==, "1");  /* divide */
  g_assert_cmpstr (fields[8], ==, "0");  /* one per node */
  g_assert_cmpstr (fields[9], ==, "0");  /* backfill */
  g_assert_cmpstr (fields[10], ==, "time");
  fields = metric_line (&plan, "memory_per_node");
  g_assert_cmpstr (fields[5], ==, "uint64_t");
  g_assert_cmpstr (fields[8], ==, "1");
  g_assert_cmpstr (fields[10], ==, "single_value");
  g_assert_cmpstr (fields[11], ==, "MG_IO_CONFIG");
  g_assert_cmpstr (fields[12], ==, "");
  fields = metric_line (&plan, "io_events");
  g_assert_cmpstr (fields[6], ==, "");

  plan_clear (&plan);
  mg_test_remove_tree (dir);
}

static void
test_custom_data_and_write (void)
{
  g_autofree char *dir = NULL;
  g_autoptr (MgCatalogue) catalogue = load_map_shaped (&dir);
  const char *only_bytes_read[] = { "cpu", "io_events", "memory_per_node", NULL };
  MgPlanOptions options = { .run_id = "r", .record_dir = "/r", .samples = 16,
                            .start_after_ms = 1500 };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (dir, "run.plan", NULL);
  g_autofree char *written = NULL;
  g_autofree char *text = NULL;
  g_autofree char *escaped = mg_plan_escape_field ("a\\b\tc\nd");
  Plan plan;
  GStrv fields;

  g_assert_cmpstr (escaped, ==, "a\\\\b\\tc\\nd");
  g_assert_true (mg_catalogue_apply_toggles (catalogue, NULL, only_bytes_read, &error));
  g_assert_true (mg_plan_write (catalogue, &options, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &written, NULL, &error));
  text = mg_plan_to_string (catalogue, &options, &error);
  g_assert_cmpstr (written, ==, text);

  parse_plan (written, &plan);
  g_assert_cmpstr (single (&plan, "samples"), ==, "16");
  g_assert_cmpstr (single (&plan, "start_after_ms"), ==, "1500");
  g_assert_null (single (&plan, "interval_ms"));
  g_assert_null (single (&plan, "stop_after_ms"));
  /* bytes_read, and the "always" sentinel that disabling its group left on. */
  g_assert_cmpuint (plan.sources->len, ==, 2);
  g_assert_cmpuint (plan.metrics->len, ==, 2);
  g_assert_cmpstr (((GStrv) g_ptr_array_index (plan.sources, 0))[2], ==, "cpu_src");
  fields = metric_line (&plan, "bytes_read");
  g_assert_cmpstr (fields[2], ==, "1");
  g_assert_cmpstr (fields[12], ==, "read bytes");
  fields = g_ptr_array_index (plan.metrics, 0);
  g_assert_cmpstr (fields[3], ==, "cpu_sentinel");
  g_assert_cmpstr (fields[2], ==, "0");
  plan_clear (&plan);
  mg_test_remove_tree (dir);
}

static void
test_invalid_options (void)
{
  g_autoptr (MgCatalogue) catalogue = mg_catalogue_new ();
  MgPlanOptions no_id = { .run_id = "", .record_dir = "/r" };
  MgPlanOptions relative = { .run_id = "r", .record_dir = "records" };
  MgPlanOptions few = { .run_id = "r", .record_dir = "/r", .samples = 8 };
  g_autoptr (GError) error = NULL;
  g_autofree char *empty = NULL;

  g_assert_null (mg_plan_to_string (catalogue, &no_id, &error));
  g_assert_error (error, MG_PLAN_ERROR, MG_PLAN_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "cannot write the run plan: the run id is empty");
  g_clear_error (&error);
  g_assert_null (mg_plan_to_string (catalogue, &relative, &error));
  g_assert_nonnull (strstr (error->message, "not an absolute path"));
  g_clear_error (&error);
  g_assert_null (mg_plan_to_string (catalogue, &few, &error));
  g_assert_nonnull (strstr (error->message, "below 16"));
  g_clear_error (&error);

  /* Nothing enabled: a valid plan without sources. */
  empty = mg_plan_to_string (catalogue, &(MgPlanOptions) { .run_id = "r", .record_dir = "/r" },
                             &error);
  g_assert_no_error (error);
  g_assert_cmpstr (empty, ==, "metrograph-plan 1\nrun_id\tr\nrecord_dir\t/r\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/defs/plan-writer/round-trip", test_round_trip);
  g_test_add_func ("/defs/plan-writer/custom-data-and-write", test_custom_data_and_write);
  g_test_add_func ("/defs/plan-writer/invalid-options", test_invalid_options);
  return g_test_run ();
}
