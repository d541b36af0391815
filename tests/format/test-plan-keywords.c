/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan's keyword table (format/mg-plan-keywords.h): what the writer
 * in app/defs writes, the parser in sampler/ reads back, field by field. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "defs-test-support.h"
#include "format/mg-plan-keywords.h"
#include "defs/mg-plan-writer.h"
#include "mg-plan.h"
#include "defs/mg-search-path.h"

typedef struct {
  char *defs_dir;      /* a copy of the definition fixtures */
  char *plan_path;
  MgCatalogue *catalogue;
} Fixture;

/* A Score-P plugin as mg-scorep-defs.c makes it, with tokens that need
 * escapes. */
static MgDefinitionFile *
scorep_file (void)
{
  MgDefinitionFile *file = mg_definition_file_new ("Score-P plugin mgt");
  MgSourceDef *source = mg_source_def_new ();
  MgMetricDef *def = mg_metric_def_new ();
  const char *tokens[] = { "a\\b", "wild*", NULL };

  source->id = g_strdup ("scorep:mgt");
  source->library_path = g_strdup ("/lib/libmgt.so");
  source->scorep_plugin = g_strdup ("mgt");
  source->scorep_tokens = g_strdupv ((char **) tokens);
  def->id = g_strdup ("scorep:mgt:m1");
  def->function_name = g_strdup ("m1");
  def->source_ref = g_strdup ("scorep:mgt");
  def->data_type = MG_DATA_TYPE_DOUBLE;
  g_ptr_array_add (file->sources, source);
  g_ptr_array_add (file->metrics, def);
  return file;
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr (MgSearchPath) path = NULL;
  const char *dirs[2] = { NULL, NULL };
  int fd;

  f->defs_dir = defs_test_copy_fixture ("mapreal");
  defs_test_fake_library (f->defs_dir, "libmg-cpu.so");
  defs_test_fake_library (f->defs_dir, "libmg-cpu-wrap.so");
  defs_test_fake_library (f->defs_dir, "libmg-io.so");
  dirs[0] = f->defs_dir;
  path = mg_search_path_new_for_dirs (dirs);
  f->catalogue = mg_catalogue_new ();
  mg_catalogue_load (f->catalogue, path);
  mg_catalogue_add_file (f->catalogue, scorep_file ());
  fd = g_file_open_tmp ("mg-format-plan-XXXXXX", &f->plan_path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  for (guint k = MG_PLAN_KEY_INTERVAL_MS; k <= MG_PLAN_KEY_SAMPLES; k++)
    for (guint i = 0; i < G_N_ELEMENTS (mg_plan_keywords[k].env); i++)
      g_unsetenv (mg_plan_keywords[k].env[i]);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_object_unref (f->catalogue);
  mg_test_remove_tree (f->defs_dir);
  g_unlink (f->plan_path);
  g_free (f->defs_dir);
  g_free (f->plan_path);
}

/* Writes options through the app's writer and parses the file with the
 * sampler's parser; fails the test on an error on either side. */
static void
write_and_load (Fixture *f, const MgPlanOptions *options, MgPlan *plan)
{
  g_autoptr (GError) error = NULL;
  char err[512] = "";

  g_assert_true (mg_plan_write (f->catalogue, options, f->plan_path, &error));
  g_assert_no_error (error);
  if (mg_plan_load (f->plan_path, plan, err, sizeof err) != 0)
    g_error ("the sampler refused the plan: %s", err);
}

static const char *
or_empty (const char *s)
{
  return s != NULL ? s : "";
}

/* Every keyword given: each value comes back as written, the escapes
 * included, and every metric line carries its definition's fields. */
static void
test_round_trip (Fixture *f, gconstpointer data)
{
  const char *skips[] = { "mpirun", "a\\b\tc", NULL };
  MgPlanOptions options = {
    .run_id = "20261124-160000-4242",
    .record_dir = "/tmp/rec\tords\\x\ny",
    .interval_ms = 7,
    .samples = MG_PLAN_MIN_SAMPLES,
    .start_after_ms = 1500,
    .stop_after_ms = 5000,
    .skip_programs = skips,
    .select_ranks = "0,4-7",
  };
  g_autoptr (GPtrArray) sources = mg_catalogue_get_enabled_sources (f->catalogue);
  MgPlan plan;
  guint metric_index = 0;

  write_and_load (f, &options, &plan);
  g_assert_cmpstr (plan.run_id, ==, options.run_id);
  g_assert_cmpstr (plan.record_dir, ==, options.record_dir);
  g_assert_cmpint (plan.interval_ms, ==, 7);
  g_assert_cmpint (plan.samples, ==, MG_PLAN_MIN_SAMPLES);
  g_assert_cmpint (plan.start_after_ms, ==, 1500);
  g_assert_cmpint (plan.stop_after_ms, ==, 5000);
  g_assert_cmpuint (plan.n_skip, ==, 2);
  g_assert_cmpstr (plan.skip[0], ==, "mpirun");
  g_assert_cmpstr (plan.skip[1], ==, "a\\b\tc");
  g_assert_true (plan.select_ranks);
  g_assert_cmpuint (plan.n_ranks, ==, 2);
  g_assert_cmpint (plan.ranks[0].first, ==, 0);
  g_assert_cmpint (plan.ranks[0].last, ==, 0);
  g_assert_cmpint (plan.ranks[1].first, ==, 4);
  g_assert_cmpint (plan.ranks[1].last, ==, 7);

  g_assert_cmpuint (sources->len, >, 0);
  g_assert_cmpuint (plan.n_sources, ==, sources->len);
  for (guint s = 0; s < sources->len; s++)
    {
      const MgSourceDef *source = g_ptr_array_index (sources, s);
      g_autoptr (GPtrArray) metrics = mg_catalogue_get_enabled_metrics (f->catalogue, source);

      g_assert_cmpstr (plan.sources[s].id, ==, source->id);
      g_assert_cmpstr (plan.sources[s].library, ==, source->library_path);
      g_assert_cmpstr (plan.sources[s].start_fn, ==, or_empty (source->start_function));
      g_assert_cmpstr (plan.sources[s].stop_fn, ==, or_empty (source->stop_function));
      g_assert_cmpstr (plan.sources[s].scorep_name, ==, source->scorep_plugin);
      if (source->scorep_plugin != NULL)
        {
          g_autofree char *tokens = g_strjoinv ("\n", source->scorep_tokens);

          g_assert_cmpstr (plan.sources[s].scorep_tokens, ==, tokens);
          g_assert_cmpstr (plan.sources[s].scorep_error, ==, "");
        }
      for (guint m = 0; m < metrics->len; m++, metric_index++)
        {
          const MgMetricDef *def = ((const MgCatalogueMetric *) g_ptr_array_index (metrics, m))->def;
          const MgPlanMetric *got = &plan.metrics[metric_index];

          g_assert_cmpuint (metric_index, <, plan.n_metrics);
          g_assert_cmpuint (got->source, ==, s);
          g_assert_cmpstr (got->id, ==, def->id);
          g_assert_cmpstr (got->getter, ==, def->function_name);
          g_assert_cmpstr (got->units, ==, or_empty (def->units));
          g_assert_cmpstr (got->config_env, ==, or_empty (def->config_env));
          g_assert_cmpstr (got->custom_data, ==, or_empty (def->custom_data));
          g_assert_cmpint (got->is_double, ==, def->data_type == MG_DATA_TYPE_DOUBLE);
          g_assert_cmpint (got->divide, ==, def->divide_by_sample_time);
          g_assert_cmpint (got->one_per_node, ==, def->one_per_node);
          g_assert_cmpint (got->backfill, ==, def->backfill);
          g_assert_cmpint (got->single_value, ==, def->domain == MG_DOMAIN_SINGLE_VALUE);
        }
    }
  g_assert_cmpuint (plan.n_metrics, ==, metric_index);
  mg_plan_clear (&plan);
}

/* The writer writes every keyword of the table with the table's field
 * count, and the table finds each by its name. */
static void
test_table_covers_the_writer (Fixture *f, gconstpointer data)
{
  const char *skips[] = { "srun", NULL };
  MgPlanOptions options = { .run_id = "r", .record_dir = "/r", .interval_ms = 1, .samples = 99,
                            .start_after_ms = 1, .stop_after_ms = 2, .hang_intervals = 7,
                            .plugin_limit_ms = 9, .no_stacks = TRUE,
                            .skip_programs = skips,
                            .select_ranks = "3" };
  g_autoptr (GError) error = NULL;
  g_autofree char *text = mg_plan_to_string (f->catalogue, &options, &error);
  g_auto (GStrv) lines = NULL;

  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, MG_PLAN_FIRST_LINE);
  for (guint k = 0; k < MG_PLAN_N_KEYS; k++)
    {
      const MgPlanKeyword *keyword = &mg_plan_keywords[k];
      guint seen = 0;

      g_assert_cmpint (mg_plan_key_lookup (keyword->name), ==, k);
      for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);

          if (strcmp (fields[0], keyword->name) != 0)
            continue;
          g_assert_cmpuint (g_strv_length (fields), ==, keyword->n_fields + 1);
          seen++;
        }
      if (seen == 0)
        g_error ("the writer wrote no '%s' line", keyword->name);
    }
  g_assert_cmpint (mg_plan_key_lookup ("future_keyword"), ==, MG_PLAN_N_KEYS);
}

static const char *
lookup_in (const char *name, void *env)
{
  return g_environ_getenv (env, name);
}

/* Not given: the environment (first valid variable), else the defaults;
 * below the minimum: refused by the writer and the parser, ignored in the
 * environment; above the record's capacity: cut down. */
static void
test_defaults_and_limits (Fixture *f, gconstpointer data)
{
  const MgPlanKeyword *samples = &mg_plan_keywords[MG_PLAN_KEY_SAMPLES];
  const MgPlanKeyword *interval = &mg_plan_keywords[MG_PLAN_KEY_INTERVAL_MS];
  MgPlanOptions options = { .run_id = "r", .record_dir = "/r" };
  g_autoptr (GError) error = NULL;
  g_autofree char *min_text = g_strdup_printf ("%d", MG_PLAN_MIN_SAMPLES);
  g_autofree char *below_min = g_strdup_printf ("%d", MG_PLAN_MIN_SAMPLES - 1);
  g_auto (GStrv) env = NULL;
  MgPlan plan;

  write_and_load (f, &options, &plan);
  g_assert_cmpint (plan.interval_ms, ==, MG_PLAN_DEFAULT_INTERVAL_MS);
  g_assert_cmpint (plan.samples, ==, MG_PLAN_DEFAULT_SAMPLES);
  mg_plan_clear (&plan);

  g_setenv (interval->env[1], "9", TRUE);
  g_setenv (samples->env[0], below_min, TRUE); /* ignored: the next one counts */
  g_setenv (samples->env[1], "300", TRUE);
  write_and_load (f, &options, &plan);
  g_assert_cmpint (plan.interval_ms, ==, 9);
  g_assert_cmpint (plan.samples, ==, 300);
  mg_plan_clear (&plan);

  env = g_environ_setenv (NULL, samples->env[0], min_text, TRUE);
  g_assert_cmpint (mg_plan_number_default (MG_PLAN_KEY_SAMPLES, lookup_in, env), ==,
                   MG_PLAN_MIN_SAMPLES);
  g_assert_cmpint (mg_plan_number_default (MG_PLAN_KEY_INTERVAL_MS, lookup_in, env), ==,
                   MG_PLAN_DEFAULT_INTERVAL_MS);

  options.samples = MG_PLAN_MAX_SAMPLES + 1;
  write_and_load (f, &options, &plan);
  g_assert_cmpint (plan.samples, ==, MG_PLAN_MAX_SAMPLES);
  mg_plan_clear (&plan);

  options.samples = MG_PLAN_MIN_SAMPLES - 1;
  g_assert_null (mg_plan_to_string (f->catalogue, &options, &error));
  g_assert_error (error, MG_PLAN_ERROR, MG_PLAN_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, min_text));
}

/* A line of exactly MG_PLAN_MAX_LINE bytes is written and read; one byte
 * more is refused by the writer, naming the keyword. */
static void
test_line_limit (Fixture *f, gconstpointer data)
{
  const char *keyword = MG_PLAN_KEYWORD (MG_PLAN_KEY_RECORD_DIR);
  gsize dir_len = MG_PLAN_MAX_LINE - strlen (keyword) - 1;
  g_autofree char *dir = g_strnfill (dir_len, 'd');
  MgPlanOptions options = { .run_id = "r", .record_dir = dir };
  g_autoptr (GError) error = NULL;
  g_autofree char *longer = NULL;
  MgPlan plan;

  dir[0] = '/';
  write_and_load (f, &options, &plan);
  g_assert_cmpuint (strlen (plan.record_dir), ==, dir_len);
  mg_plan_clear (&plan);

  longer = g_strconcat (dir, "d", NULL);
  options.record_dir = longer;
  g_assert_null (mg_plan_to_string (f->catalogue, &options, &error));
  g_assert_error (error, MG_PLAN_ERROR, MG_PLAN_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "'record_dir'"));
}

/* The escapes on their own: escaping then splitting gives the fields back;
 * an unknown escape and too many fields are told apart. */
static void
test_escapes (void)
{
  const char *originals[] = { "plain", "", "tab\there", "new\nline", "back\\slash", "\\t" };
  g_autoptr (GString) line = g_string_new ("kw");
  char *fields[MG_PLAN_MAX_FIELDS];
  char bad[] = "kw\tfield\\x";
  g_autofree char *many = NULL;
  int n;

  for (guint i = 0; i < G_N_ELEMENTS (originals); i++)
    {
      g_autofree char *escaped = mg_plan_escape_field (originals[i]);

      g_assert_null (strchr (escaped, '\t'));
      g_assert_null (strchr (escaped, '\n'));
      g_string_append_printf (line, "\t%s", escaped);
    }
  n = mg_plan_split_fields (line->str, fields, MG_PLAN_MAX_FIELDS);
  g_assert_cmpint (n, ==, G_N_ELEMENTS (originals) + 1);
  g_assert_cmpstr (fields[0], ==, "kw");
  for (guint i = 0; i < G_N_ELEMENTS (originals); i++)
    g_assert_cmpstr (fields[i + 1], ==, originals[i]);

  g_assert_cmpint (mg_plan_split_fields (bad, fields, MG_PLAN_MAX_FIELDS), ==, -1);
  many = g_strnfill (MG_PLAN_MAX_FIELDS, '\t');
  g_assert_cmpint (mg_plan_split_fields (many, fields, MG_PLAN_MAX_FIELDS), ==,
                   MG_PLAN_MAX_FIELDS + 1);
}

static void
test_parse_number (void)
{
  long v = -1;

  g_assert_cmpint (mg_plan_parse_number ("16", 16, &v), ==, 0);
  g_assert_cmpint (v, ==, 16);
  g_assert_cmpint (mg_plan_parse_number ("15", 16, &v), ==, -1);
  g_assert_cmpint (v, ==, 16); /* left alone */
  g_assert_cmpint (mg_plan_parse_number ("+20", 0, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number ("-1", -5, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number (" 20", 0, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number ("20 ", 0, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number ("", 0, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number ("99999999999999999999999", 0, &v), ==, -1);
  /* The largest long, and one more. */
  g_assert_cmpint (mg_plan_parse_number ("9223372036854775807", 0, &v), ==, 0);
  g_assert_cmpint (v, ==, G_MAXINT64);
  g_assert_cmpint (mg_plan_parse_number ("9223372036854775808", 0, &v), ==, -1);
  g_assert_cmpint (mg_plan_parse_number ("0020", 0, &v), ==, 0);
  g_assert_cmpint (v, ==, 20);
  g_assert_cmpint (mg_plan_parse_number ("2x", 0, &v), ==, -1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/format/plan/round-trip", test_round_trip);
  ADD ("/format/plan/table-covers-the-writer", test_table_covers_the_writer);
  ADD ("/format/plan/defaults-and-limits", test_defaults_and_limits);
  ADD ("/format/plan/line-limit", test_line_limit);
  g_test_add_func ("/format/plan/escapes", test_escapes);
  g_test_add_func ("/format/plan/parse-number", test_parse_number);
  return g_test_run ();
}
