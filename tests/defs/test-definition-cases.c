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

/* C escapes for quotes, backslashes and control characters; UTF-8 is kept
 * as it is, to stay readable. */
static char *
escape (const char *text)
{
  static char high[129];

  if (high[0] == '\0')
    for (int i = 0; i < 128; i++)
      high[i] = (char) (0x80 + i);
  return g_strescape (text, high);
}

static void
put_str (GString *out, const char *key, const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL)
    {
      g_string_append_printf (out, "  %s: (none)\n", key);
      return;
    }
  escaped = escape (value);
  g_string_append_printf (out, "  %s: \"%s\"\n", key, escaped);
}

static void
put_bool (GString *out, const char *key, gboolean value)
{
  g_string_append_printf (out, "  %s: %s\n", key, value ? "true" : "false");
}

static void
put_colour (GString *out, const char *key, MgRgba c)
{
  g_string_append_printf (out, "  %s: #%02x%02x%02x%02x\n", key, (guint) (c.r * 255 + 0.5),
                          (guint) (c.g * 255 + 0.5), (guint) (c.b * 255 + 0.5),
                          (guint) (c.a * 255 + 0.5));
}

static void
put_where (GString *out, const char *what, const char *id, const char *file, int line)
{
  g_autofree char *base = file != NULL ? g_path_get_basename (file) : g_strdup ("(none)");
  g_autofree char *escaped = id != NULL ? escape (id) : NULL;

  g_string_append_printf (out, "%s \"%s\" at %s:%d\n", what, escaped != NULL ? escaped : "",
                          base, line);
}

static void
dump_metric (GString *out, const MgMetricDef *def)
{
  g_autofree char *factor = g_strdup_printf ("%g", def->display_factor);

  put_where (out, "metric", def->id, def->file, def->line);
  g_string_append_printf (out, "  enabled: %s\n", mg_enabled_to_string (def->enabled));
  put_str (out, "units", def->units);
  g_string_append_printf (out, "  dataType: %s\n",
                          def->data_type == MG_DATA_TYPE_UINT64 ? "uint64_t" : "double");
  g_string_append_printf (out, "  domain: %s\n",
                          def->domain == MG_DOMAIN_TIME ? "time" : "single_value");
  put_bool (out, "onePerNode", def->one_per_node);
  put_bool (out, "backfill", def->backfill);
  put_bool (out, "sparse", def->sparse);
  put_str (out, "source ref", def->source_ref);
  put_str (out, "functionName", def->function_name);
  put_bool (out, "divideBySampleTime", def->divide_by_sample_time);
  put_str (out, "customData", def->custom_data);
  put_str (out, "configFile env", def->config_env);
  put_str (out, "displayName", def->display_name);
  put_str (out, "description", def->description);
  put_str (out, "type as written", def->type_name);
  g_string_append_printf (out, "  type: %s\n", mg_metric_type_to_string (def->type));
  put_str (out, "colour as written", def->colour_spec);
  put_bool (out, "colour parsed", def->has_colour);
  put_colour (out, "colour", def->colour);
  g_string_append_printf (out, "  displayFactor: %s\n", factor);
  put_str (out, "displayUnits", def->display_units);
  g_string_append_printf (out, "  decimalPlaces: %d\n", def->decimal_places);
  put_bool (out, "autoDisplayFactor", def->auto_display_factor);
  put_bool (out, "accumulate", def->accumulate);
  put_bool (out, "normalizePercentagesToCoresPerProcess", def->normalize_percentages);
  put_bool (out, "clampPercentages", def->clamp_percentages);
  put_str (out, "integral", def->integral_name);
}

static void
dump_group (GString *out, const MgMetricGroup *group)
{
  put_where (out, "group", group->id, group->file, group->line);
  put_str (out, "displayName", group->display_name);
  put_str (out, "description", group->description);
  for (guint i = 0; i < group->metric_refs->len; i++)
    put_str (out, "metric ref", g_ptr_array_index (group->metric_refs, i));
}

static void
dump_source (GString *out, const MgSourceDef *source)
{
  put_where (out, "source", source->id, source->file, source->line);
  put_str (out, "sharedLibrary", source->shared_library);
  for (guint i = 0; i < source->preloads->len; i++)
    put_str (out, "preload", g_ptr_array_index (source->preloads, i));
  put_str (out, "start", source->start_function);
  put_str (out, "stop", source->stop_function);
  /* Filled later, by the catalogue and the Score-P lister: a parse leaves
   * them empty, which the dump shows. */
  put_str (out, "library path", source->library_path);
  g_string_append_printf (out, "  preload paths: %u\n", source->preload_paths->len);
  put_str (out, "Score-P plugin", source->scorep_plugin);
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
      g_autofree char *version = file->version != NULL ? escape (file->version) : NULL;

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
  g_string_append_printf (out, "diagnostics: %u\n", diagnostics->len);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *file_base = d->file != NULL ? g_path_get_basename (d->file) : NULL;
      g_autofree char *message = mg_test_cases_strip_path (d->message, path);

      g_string_append_printf (out, "  %s:%d: %s: %s\n", file_base != NULL ? file_base : "(none)",
                              d->line, mg_severity_to_string (d->severity), message);
    }
  return g_string_free (out, FALSE);
}

int
main (int argc, char **argv)
{
  g_autofree char *folder = NULL;

  if (mg_test_cases_print (argc, argv, dump_definition_file))
    return 0;
  g_test_init (&argc, &argv, NULL);
  folder = g_test_build_filename (G_TEST_DIST, "fixtures", "defs", "cases", NULL);
  mg_test_cases_add ("/defs/definition-cases", folder, dump_definition_file);
  return g_test_run ();
}
