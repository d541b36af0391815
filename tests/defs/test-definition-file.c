/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The definition file parser where a fixture case (test-definition-cases.c)
 * cannot say it: copies, shared fixture folders, missing files, entities. */
#include <string.h>

#include "defs-test-support.h"
#include "defs/mg-colour.h"
#include "defs/mg-definition-file.h"

static MgDefinitionFile *
load_fixture (const char *relative, GPtrArray *diagnostics)
{
  g_autofree char *path = defs_test_fixture_path (relative);

  return mg_definition_file_load (path, diagnostics);
}

static MgDefinitionFile *load_text (const char *text, GPtrArray *diagnostics);

static const MgMetricDef *
metric_named (MgDefinitionFile *file, const char *id)
{
  for (guint i = 0; i < file->metrics->len; i++)
    {
      const MgMetricDef *def = g_ptr_array_index (file->metrics, i);

      if (strcmp (def->id, id) == 0)
        return def;
    }
  g_error ("metric %s not parsed", id);
  return NULL;
}

static void
assert_colour_equal (MgRgba a, MgRgba b)
{
  g_assert_cmpfloat_with_epsilon (a.r, b.r, 1e-9);
  g_assert_cmpfloat_with_epsilon (a.g, b.g, 1e-9);
  g_assert_cmpfloat_with_epsilon (a.b, b.b, 1e-9);
}

/* Every field the parser reads is checked by the fixture cases
 * (tests/fixtures/defs/cases, test-definition-cases.c); here, that a copy
 * is deep. */
static void
test_metric_def_copy (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = load_fixture ("cases/spec-custom1.xml", diagnostics);
  const MgMetricDef *def;
  g_autoptr (MgMetricDef) copy = NULL;

  g_assert_nonnull (file);
  def = g_ptr_array_index (file->metrics, 0);
  copy = mg_metric_def_copy (def);
  g_assert_true (copy->id != def->id);
  g_assert_cmpstr (copy->id, ==, def->id);
  g_assert_true (copy->file != def->file);
  g_assert_cmpstr (copy->file, ==, def->file);
  g_assert_cmpstr (copy->colour_spec, ==, "green");
  g_assert_cmpstr (copy->description, ==, def->description);
  g_assert_true (copy->has_colour);
}

static void
test_map_shaped (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) cpu = load_fixture ("mapreal/cpu.xml", diagnostics);
  g_autoptr (MgDefinitionFile) io = load_fixture ("mapreal/io.xml", diagnostics);
  g_autoptr (MgDefinitionFile) defaults = load_fixture ("mapreal/a_default.xml", diagnostics);
  const MgMetricDef *def;
  const MgSourceDef *source;
  const MgMetricGroup *group;

  g_assert_nonnull (cpu);
  g_assert_nonnull (io);
  g_assert_nonnull (defaults);
  /* Unknown elements (<someFutureElement>) are ignored silently. */
  g_assert_cmpuint (diagnostics->len, ==, 0);

  def = metric_named (cpu, "cpu_time_percentage");
  g_assert_cmpint (def->enabled, ==, MG_ENABLED_DEFAULT_YES);
  g_assert_cmpint (def->data_type, ==, MG_DATA_TYPE_DOUBLE);
  g_assert_cmpint (def->type, ==, MG_METRIC_TYPE_CPU_TIME);
  g_assert_cmpstr (def->description, ==,
                   "Time the CPU spent on this process.<br>Includes user and system time.");
  g_assert_true (def->normalize_percentages);
  g_assert_true (def->clamp_percentages);
  g_assert_false (def->accumulate);
  g_assert_true (def->has_colour);
  assert_colour_equal (def->colour, (MgRgba) { 0.2, 0.6, 0.2, 1 });
  g_assert_cmpint (metric_named (cpu, "loadavg")->enabled, ==, MG_ENABLED_DEFAULT_NO);
  g_assert_true (metric_named (cpu, "loadavg")->one_per_node);
  g_assert_cmpint (metric_named (cpu, "cpu_sentinel")->enabled, ==, MG_ENABLED_ALWAYS);
  g_assert_cmpint (metric_named (cpu, "cpu_forbidden")->enabled, ==, MG_ENABLED_NEVER);
  /* No <display><type>: OTHER, and no type name was written. */
  g_assert_null (metric_named (cpu, "cpu_forbidden")->type_name);
  g_assert_cmpint (metric_named (cpu, "cpu_forbidden")->type, ==, MG_METRIC_TYPE_OTHER);
  source = g_ptr_array_index (cpu->sources, 0);
  g_assert_cmpuint (source->preloads->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (source->preloads, 0), ==, "libmg-cpu-wrap.so");
  g_assert_cmpstr (source->start_function, ==, "cpu_start");
  g_assert_null (source->stop_function);

  def = metric_named (io, "bytes_read");
  g_assert_true (def->sparse);
  g_assert_cmpstr (def->custom_data, ==, "read bytes");
  assert_colour_equal (def->colour, (MgRgba) { 0, 1, 0, 1 });
  g_assert_true (def->auto_display_factor);
  g_assert_cmpint (def->decimal_places, ==, 2);
  def = metric_named (io, "io_events");
  g_assert_cmpstr (def->units, ==, "");
  g_assert_cmpfloat (def->display_factor, ==, 0.001);
  g_assert_cmpstr (def->display_units, ==, "per 1000 instructions");
  g_assert_false (def->has_colour);
  assert_colour_equal (def->colour, mg_colour_for_type (MG_METRIC_TYPE_OTHER, FALSE));
  def = metric_named (io, "memory_per_node");
  g_assert_cmpint (def->enabled, ==, MG_ENABLED_DEFAULT_YES); /* the spec's "enabled" */
  g_assert_cmpint (def->domain, ==, MG_DOMAIN_SINGLE_VALUE);
  g_assert_true (def->one_per_node);
  g_assert_cmpstr (def->config_env, ==, "MG_IO_CONFIG");
  g_assert_cmpuint (io->groups->len, ==, 2);

  /* A file of groups only, naming metrics of other files. */
  g_assert_cmpuint (defaults->metrics->len, ==, 0);
  group = g_ptr_array_index (defaults->groups, 0);
  g_assert_cmpstr (group->display_name, ==, "Default");
  g_assert_cmpuint (group->metric_refs->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (group->metric_refs, 4), ==, "mpi_calls");
}

/* MAP's own files colour metrics SpecialLine5 … SpecialLine8: the
 * documented palette, without a warning. */
static void
test_special_line_colour (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = load_fixture ("mapreal/energy.xml", diagnostics);
  const MgMetricDef *def;
  MgRgba violet = { 0x86 / 255.0, 0x60 / 255.0, 0xDA / 255.0, 1 };

  g_assert_nonnull (file);
  g_assert_cmpuint (diagnostics->len, ==, 0);
  def = metric_named (file, "rapl_power");
  g_assert_true (def->has_colour);
  g_assert_cmpstr (def->colour_spec, ==, "SpecialLine5");
  assert_colour_equal (def->colour, violet);
  g_assert_cmpstr (def->units, ==, "W/node");
  g_assert_cmpstr (def->integral_name, ==, "rapl_energy");
  g_assert_true (metric_named (file, "rapl_energy")->accumulate);
}

static void
test_malformed (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = load_fixture ("broken/a_malformed.xml", diagnostics);
  const MgDiagnostic *error;
  g_autofree char *text = NULL;

  g_assert_null (file);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  error = defs_test_find_diagnostic (diagnostics, "a_malformed.xml", 5, MG_SEVERITY_ERROR);
  g_assert_nonnull (strstr (error->message, "not well-formed XML"));
  g_assert_nonnull (strstr (error->message, "metrc"));
  text = mg_diagnostic_to_string (error);
  g_assert_true (g_str_has_suffix (error->file, "a_malformed.xml"));
  g_assert_nonnull (strstr (text, "a_malformed.xml:5: error: not well-formed XML"));
}

static void
test_broken_metrics (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = load_fixture ("broken/b_metrics.xml", diagnostics);
  const MgDiagnostic *d;

  /* Each broken metric is skipped, the rest of the file loads. */
  g_assert_nonnull (file);
  g_assert_cmpuint (file->metrics->len, ==, 2);
  g_assert_cmpstr (((MgMetricDef *) g_ptr_array_index (file->metrics, 0))->id, ==,
                   "unknown.source");
  g_assert_cmpstr (((MgMetricDef *) g_ptr_array_index (file->metrics, 1))->id, ==, "b.good");
  g_assert_cmpuint (file->sources->len, ==, 1);
  g_assert_cmpuint (diagnostics->len, ==, 4);

  d = defs_test_find_diagnostic (diagnostics, "b_metrics.xml", 2, MG_SEVERITY_ERROR);
  g_assert_cmpstr (d->message, ==,
                   "<metric> has no id attribute; give it a unique id such as "
                   "id=\"com.example.plugin.metric\"");
  d = defs_test_find_diagnostic (diagnostics, "b_metrics.xml", 9, MG_SEVERITY_ERROR);
  g_assert_cmpstr (d->message, ==,
                   "metric 'bad.datatype': <dataType> is 'float'; use uint64_t or double");
  d = defs_test_find_diagnostic (diagnostics, "b_metrics.xml", 17, MG_SEVERITY_ERROR);
  g_assert_nonnull (strstr (d->message, "metric 'no.function' has no functionName"));
  d = defs_test_find_diagnostic (diagnostics, "b_metrics.xml", 26, MG_SEVERITY_WARNING);
  g_assert_nonnull (strstr (d->message, "'no-such-colour' is not a colour"));
  assert_colour_equal (((MgMetricDef *) g_ptr_array_index (file->metrics, 1))->colour,
                       mg_colour_for_type (MG_METRIC_TYPE_MPI, FALSE));
}

static MgDefinitionFile *
load_text (const char *text, GPtrArray *diagnostics)
{
  return mg_definition_file_load_from_data (text, strlen (text), "/virtual/test.xml",
                                            diagnostics);
}

/* The rest of the errors are fixture cases (tests/fixtures/defs/cases);
 * a missing file names its path, which a case can't show. */
static void
test_missing_file (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autofree char *missing_path = defs_test_fixture_path ("no-such-file.xml");
  g_autoptr (MgDefinitionFile) missing = mg_definition_file_load (missing_path, diagnostics);

  g_assert_null (missing);
  g_assert_cmpuint (diagnostics->len, ==, 1);
  g_assert_nonnull (strstr (((MgDiagnostic *) g_ptr_array_index (diagnostics, 0))->message,
                            "no-such-file.xml"));
}

/* External entities are never fetched: a definition file can't read
 * other files into a description. */
static void
test_no_external_entities (void)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = NULL;
  g_autofree char *secret_dir = defs_test_copy_fixture (NULL);
  g_autofree char *secret = g_build_filename (secret_dir, "secret.txt", NULL);
  g_autofree char *text = NULL;
  const MgMetricDef *def;

  g_assert_true (g_file_set_contents (secret, "TOP-SECRET", -1, NULL));
  text = g_strdup_printf ("<!DOCTYPE metricdefinitions [\n"
                          "<!ENTITY leak SYSTEM \"file://%s\">\n]>\n"
                          "<metricdefinitions version=\"1\">\n"
                          "<metric id=\"x\"><dataType>double</dataType>"
                          "<source ref=\"s\" functionName=\"f\"/>"
                          "<display><description>a&leak;b</description></display></metric>\n"
                          "</metricdefinitions>\n", secret);
  file = load_text (text, diagnostics);
  g_assert_nonnull (file);
  def = g_ptr_array_index (file->metrics, 0);
  g_assert_null (strstr (def->description, "TOP-SECRET"));
  mg_test_remove_tree (secret_dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/defs/definition-file/metric-def-copy", test_metric_def_copy);
  g_test_add_func ("/defs/definition-file/map-shaped", test_map_shaped);
  g_test_add_func ("/defs/definition-file/special-line-colour", test_special_line_colour);
  g_test_add_func ("/defs/definition-file/malformed", test_malformed);
  g_test_add_func ("/defs/definition-file/broken-metrics", test_broken_metrics);
  g_test_add_func ("/defs/definition-file/missing-file", test_missing_file);
  g_test_add_func ("/defs/definition-file/no-external-entities", test_no_external_entities);
  return g_test_run ();
}
