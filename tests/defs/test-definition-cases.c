/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The definition file parser driven by fixture files: every
 * tests/fixtures/defs/cases/NAME.xml is parsed and the dump of everything
 * read (each field of each metric, group and source, then each diagnostic)
 * must equal NAME.expected. A new case is a new file; print its expected
 * text with
 *
 *   test-defs-definition-cases --print NAME.xml > NAME.expected
 *
 * and read it through against docs/definitions.md before committing it. */
#include <string.h>

#include "defs/mg-definition-file.h"
#include "mg-test-cases.h"

static void
put_where (GString *out, const char *what, const char *id, const char *file, int line)
{
  g_autofree char *base = file != NULL ? g_path_get_basename (file) : g_strdup ("(none)");
  g_autofree char *escaped = id != NULL ? mg_test_cases_escape (id) : NULL;

  g_string_append_printf (out, "%s \"%s\" at %s:%d\n", what, escaped != NULL ? escaped : "",
                          base, line);
}

static void
dump_metric (GString *out, const MgMetricDef *def)
{
  g_autofree char *factor = g_strdup_printf ("%g", def->display_factor);

  put_where (out, "metric", def->id, def->file, def->line);
  g_string_append_printf (out, "  enabled: %s\n", mg_enabled_to_string (def->enabled));
  mg_test_cases_put_str (out, "units", def->units);
  g_string_append_printf (out, "  dataType: %s\n",
                          def->data_type == MG_DATA_TYPE_UINT64 ? "uint64_t" : "double");
  g_string_append_printf (out, "  domain: %s\n",
                          def->domain == MG_DOMAIN_TIME ? "time" : "single_value");
  mg_test_cases_put_bool (out, "onePerNode", def->one_per_node);
  mg_test_cases_put_bool (out, "backfill", def->backfill);
  mg_test_cases_put_bool (out, "sparse", def->sparse);
  mg_test_cases_put_str (out, "source ref", def->source_ref);
  mg_test_cases_put_str (out, "functionName", def->function_name);
  mg_test_cases_put_bool (out, "divideBySampleTime", def->divide_by_sample_time);
  mg_test_cases_put_str (out, "customData", def->custom_data);
  mg_test_cases_put_str (out, "configFile env", def->config_env);
  mg_test_cases_put_str (out, "displayName", def->display_name);
  mg_test_cases_put_str (out, "description", def->description);
  mg_test_cases_put_str (out, "type as written", def->type_name);
  g_string_append_printf (out, "  type: %s\n", mg_metric_type_to_string (def->type));
  mg_test_cases_put_str (out, "colour as written", def->colour_spec);
  mg_test_cases_put_bool (out, "colour parsed", def->has_colour);
  mg_test_cases_put_colour (out, "colour", def->colour);
  g_string_append_printf (out, "  displayFactor: %s\n", factor);
  mg_test_cases_put_str (out, "displayUnits", def->display_units);
  g_string_append_printf (out, "  decimalPlaces: %d\n", def->decimal_places);
  mg_test_cases_put_bool (out, "autoDisplayFactor", def->auto_display_factor);
  mg_test_cases_put_bool (out, "accumulate", def->accumulate);
  mg_test_cases_put_bool (out, "normalizePercentagesToCoresPerProcess", def->normalize_percentages);
  mg_test_cases_put_bool (out, "clampPercentages", def->clamp_percentages);
  mg_test_cases_put_str (out, "integral", def->integral_name);
}

static void
dump_group (GString *out, const MgMetricGroup *group)
{
  put_where (out, "group", group->id, group->file, group->line);
  mg_test_cases_put_str (out, "displayName", group->display_name);
  mg_test_cases_put_str (out, "description", group->description);
  for (guint i = 0; i < group->metric_refs->len; i++)
    mg_test_cases_put_str (out, "metric ref", g_ptr_array_index (group->metric_refs, i));
}

static void
dump_source (GString *out, const MgSourceDef *source)
{
  put_where (out, "source", source->id, source->file, source->line);
  mg_test_cases_put_str (out, "sharedLibrary", source->shared_library);
  for (guint i = 0; i < source->preloads->len; i++)
    mg_test_cases_put_str (out, "preload", g_ptr_array_index (source->preloads, i));
  mg_test_cases_put_str (out, "start", source->start_function);
  mg_test_cases_put_str (out, "stop", source->stop_function);
  /* Filled later, by the catalogue and the Score-P lister: a parse leaves
   * them empty, which the dump shows. */
  mg_test_cases_put_str (out, "library path", source->library_path);
  g_string_append_printf (out, "  preload paths: %u\n", source->preload_paths->len);
  mg_test_cases_put_str (out, "Score-P plugin", source->scorep_plugin);
}

static char *
dump_definition_file (const char *path)
{
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (MgDefinitionFile) file = mg_definition_file_load (path, diagnostics);
  g_autofree char *base = g_path_get_basename (path);
  GString *out = g_string_new (NULL);

  if (file == NULL)
    g_string_append_printf (out, "file %s: not read\n", base);
  else
    {
      g_autofree char *version = file->version != NULL ? mg_test_cases_escape (file->version) : NULL;

      g_string_append_printf (out, "file %s: version %s%s%s, %u metrics, %u groups, %u sources\n",
                              base, version != NULL ? "\"" : "",
                              version != NULL ? version : "(none)", version != NULL ? "\"" : "",
                              file->metrics->len, file->groups->len, file->sources->len);
      for (guint i = 0; i < file->metrics->len; i++)
        dump_metric (out, g_ptr_array_index (file->metrics, i));
      for (guint i = 0; i < file->groups->len; i++)
        dump_group (out, g_ptr_array_index (file->groups, i));
      for (guint i = 0; i < file->sources->len; i++)
        dump_source (out, g_ptr_array_index (file->sources, i));
    }
  mg_test_cases_put_diagnostics (out, diagnostics, path);
  return g_string_free (out, FALSE);
}

int
main (int argc, char **argv)
{
  return mg_test_cases_main (argc, argv, "/defs/definition-cases", "defs", dump_definition_file);
}
