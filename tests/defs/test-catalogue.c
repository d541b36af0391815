/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The catalogue: availability, groups across files, precedence, toggles,
 * and the --list-metrics text. */
#include <string.h>

#include "defs-test-support.h"
#include "defs/mg-catalogue.h"
#include "defs/mg-metrics-list.h"

typedef struct {
  char *dir;
  MgCatalogue *catalogue;
} Fixture;

/* The MAP-shaped folder with the cpu and io plugins "built" and the energy
 * plugin missing. */
static void
map_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (MgSearchPath) path = NULL;
  const char *dirs[2] = { NULL, NULL };

  f->dir = defs_test_copy_fixture ("mapreal");
  defs_test_fake_library (f->dir, "libmg-cpu.so");
  defs_test_fake_library (f->dir, "libmg-cpu-wrap.so");
  defs_test_fake_library (f->dir, "libmg-io.so");
  dirs[0] = f->dir;
  path = mg_search_path_new_for_dirs (dirs);
  f->catalogue = mg_catalogue_new ();
  mg_catalogue_load (f->catalogue, path);
}

static void
map_teardown (Fixture *f, gconstpointer data)
{
  g_object_unref (f->catalogue);
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

static gboolean
is_on (MgCatalogue *catalogue, const char *id)
{
  const MgCatalogueMetric *metric = mg_catalogue_lookup_metric (catalogue, id);

  g_assert_nonnull (metric);
  return metric->enabled;
}

static void
test_availability (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  const MgCatalogueMetric *metric;
  const MgDiagnostic *d;
  GPtrArray *diagnostics = mg_catalogue_get_diagnostics (c);
  g_autofree char *library = g_build_filename (f->dir, "libmg-cpu.so", NULL);

  g_assert_cmpuint (mg_catalogue_get_n_metrics (c), ==, 9);
  g_assert_cmpuint (mg_catalogue_count_diagnostics (c, MG_SEVERITY_ERROR), ==, 0);

  metric = mg_catalogue_lookup_metric (c, "cpu_time_percentage");
  g_assert_true (metric->available);
  g_assert_null (metric->unavailable_reason);
  g_assert_cmpstr (metric->source->library_path, ==, library);
  g_assert_true (metric->default_on);

  metric = mg_catalogue_lookup_metric (c, "rapl_power");
  g_assert_false (metric->available);
  g_assert_false (metric->enabled);
  g_assert_nonnull (strstr (metric->unavailable_reason,
                            "'libmg-energy-not-built.so' was not found"));
  d = defs_test_find_diagnostic (diagnostics, "energy.xml", 35, MG_SEVERITY_WARNING);
  g_assert_nonnull (strstr (d->message, "source 'energy_src': sharedLibrary "));
  g_assert_null (mg_catalogue_lookup_metric (c, "rss"));
}

static void
test_groups (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  const MgCatalogueGroup *group;
  guint n_named_default = 0;

  g_assert_cmpuint (mg_catalogue_get_n_groups (c), ==, 5);

  /* Refs to metrics of other files, and to metrics defined nowhere. */
  group = mg_catalogue_lookup_group (c, "defaultGroup");
  g_assert_true (group->available);
  g_assert_cmpuint (group->members->len, ==, 3);
  g_assert_cmpstr (((MgCatalogueMetric *) g_ptr_array_index (group->members, 0))->def->id, ==,
                   "cpu_time_percentage");
  g_assert_cmpstr (((MgCatalogueMetric *) g_ptr_array_index (group->members, 1))->def->id, ==,
                   "bytes_read");
  g_assert_cmpstr (((MgCatalogueMetric *) g_ptr_array_index (group->members, 2))->def->id, ==,
                   "rapl_power");
  g_assert_cmpuint (group->missing_refs->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (group->missing_refs, 0), ==, "rss");
  g_assert_cmpstr (g_ptr_array_index (group->missing_refs, 1), ==, "mpi_calls");

  /* All its metrics unavailable: listed as unavailable, not an error. */
  group = mg_catalogue_lookup_group (c, "energy");
  g_assert_false (group->available);
  g_assert_cmpstr (group->unavailable_reason, ==,
                   "none of its metrics is available on this system");

  for (guint i = 0; i < mg_catalogue_get_n_groups (c); i++)
    n_named_default += g_strcmp0 (mg_catalogue_get_group (c, i)->group->display_name,
                                  "Default") == 0;
  g_assert_cmpuint (n_named_default, ==, 2);
}

static void
test_defaults_and_sources (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  g_autoptr (GPtrArray) sources = mg_catalogue_get_enabled_sources (c);
  g_auto (GStrv) preloads = mg_catalogue_get_preload_paths (c);
  g_autofree char *wrap = g_build_filename (f->dir, "libmg-cpu-wrap.so", NULL);
  g_autoptr (GError) error = NULL;
  const char *disable_io[] = { "io", "memory_per_node", NULL };

  g_assert_true (is_on (c, "cpu_time_percentage"));  /* no <enabled> */
  g_assert_false (is_on (c, "loadavg"));             /* default_no */
  g_assert_true (is_on (c, "cpu_sentinel"));         /* always */
  g_assert_false (is_on (c, "cpu_forbidden"));       /* never */
  g_assert_true (is_on (c, "memory_per_node"));      /* enabled */

  g_assert_cmpuint (sources->len, ==, 2);
  g_assert_cmpstr (((MgSourceDef *) g_ptr_array_index (sources, 0))->id, ==, "cpu_src");
  g_assert_cmpstr (((MgSourceDef *) g_ptr_array_index (sources, 1))->id, ==, "io_src");
  g_assert_cmpuint (g_strv_length (preloads), ==, 1);
  g_assert_cmpstr (preloads[0], ==, wrap);

  /* A source whose metrics are all off is not loaded. */
  g_assert_true (mg_catalogue_apply_toggles (c, NULL, disable_io, &error));
  g_assert_no_error (error);
  g_clear_pointer (&sources, g_ptr_array_unref);
  sources = mg_catalogue_get_enabled_sources (c);
  g_assert_cmpuint (sources->len, ==, 1);
  g_assert_cmpstr (((MgSourceDef *) g_ptr_array_index (sources, 0))->id, ==, "cpu_src");
}

static void
assert_toggle_error (MgCatalogue *c, const char *const *enable, const char *const *disable,
                     int code, const char *message)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (mg_catalogue_apply_toggles (c, enable, disable, &error));
  g_assert_error (error, MG_CATALOGUE_ERROR, code);
  g_test_message ("got: %s", error->message);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_toggles (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  g_autoptr (GError) error = NULL;
  const char *loadavg[] = { "loadavg", NULL };
  const char *cpu[] = { "cpu", NULL };
  const char *cpu_and_empty[] = { "", "cpu", NULL };

  g_assert_true (mg_catalogue_apply_toggles (c, loadavg, NULL, &error));
  g_assert_true (is_on (c, "loadavg"));

  /* A group id toggles its members, except always/never ones. Each call
   * starts again from the defaults. */
  g_assert_true (mg_catalogue_apply_toggles (c, NULL, cpu_and_empty, &error));
  g_assert_no_error (error);
  g_assert_false (is_on (c, "cpu_time_percentage"));
  g_assert_false (is_on (c, "loadavg"));
  g_assert_true (is_on (c, "cpu_sentinel"));
  g_assert_true (is_on (c, "bytes_read"));

  g_assert_true (mg_catalogue_apply_toggles (c, cpu, NULL, &error));
  g_assert_true (is_on (c, "loadavg"));
  g_assert_false (is_on (c, "cpu_forbidden"));

  /* A metric named on its own overrides its group. */
  g_assert_true (mg_catalogue_apply_toggles (c, loadavg, cpu, &error));
  g_assert_true (is_on (c, "loadavg"));
  g_assert_false (is_on (c, "cpu_time_percentage"));

  /* Enabling a group whose metrics can't run changes nothing and is fine. */
  {
    const char *energy[] = { "energy", NULL };

    g_assert_true (mg_catalogue_apply_toggles (c, energy, NULL, &error));
    g_assert_false (is_on (c, "rapl_power"));
  }
}

static void
test_split_ids (void)
{
  const char *values[] = { "cpu, loadavg,,", " io ", "", NULL };
  g_auto (GStrv) ids = mg_catalogue_split_ids (values);
  g_auto (GStrv) none = mg_catalogue_split_ids (NULL);

  g_assert_cmpuint (g_strv_length (ids), ==, 3);
  g_assert_cmpstr (ids[0], ==, "cpu");
  g_assert_cmpstr (ids[1], ==, "loadavg");
  g_assert_cmpstr (ids[2], ==, "io");
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

static void
test_toggle_errors (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  const char *typo[] = { "cpu_tme", NULL };
  const char *typo2[] = { "bytes_reed", NULL };
  const char *nonsense[] = { "zzzzzzzzzz", NULL };
  const char *loadavg[] = { "loadavg", NULL };
  const char *both[] = { "io", "loadavg", NULL };
  const char *sentinel[] = { "cpu_sentinel", NULL };
  const char *forbidden[] = { "cpu_forbidden", NULL };
  const char *power[] = { "rapl_power", NULL };
  g_auto (GStrv) suggestions = NULL;
  g_autofree char *cpu_path = g_build_filename (f->dir, "cpu.xml", NULL);
  g_autofree char *always = g_strdup_printf (
    "metric 'cpu_sentinel' cannot be disabled: its definition (%s:30) says "
    "<enabled>always</enabled>", cpu_path);
  g_autofree char *never = g_strdup_printf (
    "metric 'cpu_forbidden' cannot be enabled: its definition (%s:37) says "
    "<enabled>never</enabled>", cpu_path);

  assert_toggle_error (c, typo, NULL, MG_CATALOGUE_ERROR_UNKNOWN_ID,
                       "unknown metric or group 'cpu_tme'; did you mean 'cpu_time_percentage'?");
  assert_toggle_error (c, NULL, typo2, MG_CATALOGUE_ERROR_UNKNOWN_ID,
                       "unknown metric or group 'bytes_reed'; did you mean 'bytes_read'?");
  assert_toggle_error (c, nonsense, NULL, MG_CATALOGUE_ERROR_UNKNOWN_ID,
                       "unknown metric or group 'zzzzzzzzzz'");
  assert_toggle_error (c, loadavg, both, MG_CATALOGUE_ERROR_CONFLICT,
                       "'loadavg' was given to both --enable-metrics and --disable-metrics; "
                       "name it in one of them only");
  assert_toggle_error (c, NULL, sentinel, MG_CATALOGUE_ERROR_ALWAYS, always);
  assert_toggle_error (c, forbidden, NULL, MG_CATALOGUE_ERROR_NEVER, never);
  g_assert_false (mg_catalogue_apply_toggles (c, power, NULL, NULL));

  /* A failed call changes nothing. */
  g_assert_true (is_on (c, "cpu_sentinel"));
  g_assert_false (is_on (c, "loadavg"));
  g_assert_true (is_on (c, "io_events"));

  /* At most three suggestions, best first. */
  suggestions = mg_catalogue_suggest_ids (c, "cpu", 3);
  g_assert_cmpstr (suggestions[0], ==, "cpu");
  g_assert_cmpuint (g_strv_length (suggestions), <=, 3);
}

/* Ids are matched without regard to case when that names one id ("IO" is
 * the group io, as --list-metrics shows it); ids differing only in case
 * make such a match an error listing them, while each exact id still
 * works. */
static void
test_toggle_case (Fixture *f, gconstpointer data)
{
  MgCatalogue *c = f->catalogue;
  const char *io_upper[] = { "IO", NULL };
  const char *metric_upper[] = { " LoadAvg", NULL };
  const char *both[] = { "io_events", NULL };
  const char *both_upper[] = { "IO_EVENTS", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (MgSearchPath) path = NULL;
  g_autoptr (MgCatalogue) twin = NULL;
  g_autofree char *twin_file = g_build_filename (f->dir, "twin.xml", NULL);
  const char *dirs[2] = { f->dir, NULL };

  g_assert_cmpstr (mg_catalogue_resolve_id (c, "IO", NULL), ==, "io");
  g_assert_cmpstr (mg_catalogue_resolve_id (c, "DEFAULTGROUP", NULL), ==, "defaultGroup");
  g_assert_true (mg_catalogue_apply_toggles (c, NULL, io_upper, &error));
  g_assert_no_error (error);
  g_assert_false (is_on (c, "io_events"));
  /* Blanks are the splitter's business: " LoadAvg" is unknown here. */
  assert_toggle_error (c, metric_upper, NULL, MG_CATALOGUE_ERROR_UNKNOWN_ID,
                       "unknown metric or group ' LoadAvg'; did you mean 'loadavg'?");
  /* The same id in both lists, spelt differently, is still a conflict. */
  assert_toggle_error (c, both, both_upper, MG_CATALOGUE_ERROR_CONFLICT,
                       "'io_events' was given to both --enable-metrics and --disable-metrics; "
                       "name it in one of them only");

  g_assert_true (g_file_set_contents (twin_file,
    "<metricdefinition version=\"1\">\n"
    "  <metricGroup id=\"Io\">\n"
    "    <displayName>Other IO</displayName>\n"
    "    <metric ref=\"io_events\"/>\n"
    "  </metricGroup>\n"
    "</metricdefinition>\n", -1, NULL));
  path = mg_search_path_new_for_dirs (dirs);
  twin = mg_catalogue_new ();
  mg_catalogue_load (twin, path);
  assert_toggle_error (twin, io_upper, NULL, MG_CATALOGUE_ERROR_AMBIGUOUS_ID,
                       "'IO' could be 'io' or 'Io', which differ only in case; give one of "
                       "them exactly");
  g_assert_cmpstr (mg_catalogue_resolve_id (twin, "Io", NULL), ==, "Io");
  g_assert_cmpstr (mg_catalogue_resolve_id (twin, "io", NULL), ==, "io");
}

static MgCatalogue *
load_dirs (const char *const *dirs)
{
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

static void
test_metrics_list (Fixture *f, gconstpointer data)
{
  g_autofree char *text = NULL;
  g_autofree char *cpu_line = NULL;
  g_autofree char *energy = NULL;
  g_autofree char *odd = NULL;
  g_autofree char *odd_problem = NULL;
  g_autoptr (MgCatalogue) catalogue = NULL;
  const char *dirs[] = { f->dir, NULL };
  const char *loadavg[] = { "loadavg", NULL };
  const char *positions[] = { "Default (defaultGroup)\n", "CPU Time (cpu)\n", "IO (io)\n",
                              "Default (ioDefault)\n", "Ungrouped\n", "Unavailable groups\n",
                              "Definition problems\n" };
  const char *previous;

  /* Two metrics with a colour that is none: one problem line. */
  odd = g_build_filename (f->dir, "odd.xml", NULL);
  g_assert_true (g_file_set_contents (odd,
    "<metricdefinitions version=\"1\">\n"
    "<metric id=\"odd1\"><dataType>double</dataType><source ref=\"o\" functionName=\"f\"/>\n"
    "<display><colour>Mauve</colour></display></metric>\n"
    "<metric id=\"odd2\"><dataType>double</dataType><source ref=\"o\" functionName=\"f\"/>\n"
    "<display><colour>Mauve</colour></display></metric>\n"
    "<source id=\"o\"><sharedLibrary>libmg-io.so</sharedLibrary></source>\n"
    "</metricdefinitions>\n", -1, NULL));
  catalogue = load_dirs (dirs);
  g_assert_true (mg_catalogue_apply_toggles (catalogue, loadavg, NULL, NULL));
  text = mg_metrics_list_format (catalogue);
  g_test_message ("%s", text);

  previous = text;
  for (guint i = 0; i < G_N_ELEMENTS (positions); i++)
    {
      const char *at = strstr (text, positions[i]);

      g_assert_nonnull (at);
      g_assert_true (at >= previous);
      previous = at;
    }
  cpu_line = g_strdup_printf ("  cpu_time_percentage  \"CPU time\"  [%%]  libmg-cpu.so  "
                              "%s/cpu.xml:3  default on (default_yes), now on\n", f->dir);
  g_assert_nonnull (strstr (text, cpu_line));
  g_assert_nonnull (strstr (text, "  loadavg  \"Load average\"  [%]  libmg-cpu.so  "));
  g_assert_nonnull (strstr (text, "default off (default_no), now on\n"));
  g_assert_nonnull (strstr (text, "  rss  (not defined on this system)\n"));
  g_assert_nonnull (strstr (text, "Ungrouped\n  memory_per_node  \"Memory per node\"  [B]"));
  g_assert_nonnull (strstr (text, "now off; unavailable: sharedLibrary "
                                  "'libmg-energy-not-built.so' was not found"));
  g_assert_nonnull (strstr (text, "  Energy (energy): none of its metrics is available"));
  /* MAP's own SpecialLine5 is a colour. */
  energy = g_strdup_printf ("%s/energy.xml:13", f->dir);
  g_assert_null (strstr (text, energy));
  odd_problem = g_strdup_printf ("  %s/odd.xml:3: warning: metric 'odd1': "
                                 "'Mauve' is not a colour", f->dir);
  g_assert_nonnull (strstr (text, odd_problem));
  g_assert_null (strstr (text, "metric 'odd2'"));
}

static void
test_precedence (void)
{
  g_autofree char *first = defs_test_copy_fixture ("precedence/first");
  g_autofree char *second = defs_test_copy_fixture ("precedence/second");
  const char *dirs[] = { first, second, NULL };
  g_autoptr (MgCatalogue) c = NULL;
  const MgCatalogueMetric *metric;
  const MgCatalogueGroup *group;
  const MgDiagnostic *d;
  g_autofree char *note = NULL;
  g_autofree char *first_library = g_build_filename (first, "libcustom1.so", NULL);

  defs_test_fake_library (first, "libcustom1.so");
  defs_test_fake_library (second, "libcustom1.so");
  c = load_dirs (dirs);

  g_assert_cmpuint (mg_catalogue_get_n_metrics (c), ==, 2);
  metric = mg_catalogue_lookup_metric (c, "com.allinea.metrics.custom1.interrupts");
  g_assert_cmpstr (metric->def->function_name, ==, "user_copy");
  g_assert_cmpstr (metric->source->library_path, ==, first_library);
  metric = mg_catalogue_lookup_metric (c, "com.allinea.metrics.custom1.extra");
  g_assert_true (g_str_has_prefix (metric->source->library_path, second));

  d = defs_test_find_diagnostic (mg_catalogue_get_diagnostics (c), "custom1.xml", 2,
                                 MG_SEVERITY_NOTE);
  note = g_strdup_printf ("metric 'com.allinea.metrics.custom1.interrupts' is ignored here: "
                          "%s/custom1.xml:2 defines it first (the earlier folder of the "
                          "metrics path wins)", first);
  g_assert_cmpstr (d->message, ==, note);
  g_assert_true (g_str_has_prefix (d->file, second));

  /* Groups with one id merge: the first's names, every metric. */
  group = mg_catalogue_lookup_group (c, "Custom1");
  g_assert_cmpstr (group->group->display_name, ==, "Custom1 (user)");
  g_assert_cmpuint (group->members->len, ==, 2);
  defs_test_find_diagnostic (mg_catalogue_get_diagnostics (c), "custom1.xml", 13, MG_SEVERITY_NOTE);
  g_assert_cmpuint (mg_catalogue_count_diagnostics (c, MG_SEVERITY_NOTE), ==, 2);
  g_assert_cmpuint (mg_catalogue_get_diagnostics (c)->len, ==, 2);

  mg_test_remove_tree (first);
  mg_test_remove_tree (second);
}

static void
test_broken_folder (void)
{
  g_autofree char *dir = defs_test_copy_fixture ("broken");
  g_autofree char *text_library = g_build_filename (dir, "libb.so", NULL);
  const char *dirs[] = { dir, NULL };
  g_autoptr (MgCatalogue) c = NULL;
  GPtrArray *diagnostics;
  const MgDiagnostic *d;
  const MgCatalogueMetric *metric;

  defs_test_fake_library (dir, "libd.so");
  /* A text file where a plugin should be: not usable. */
  g_assert_true (g_file_set_contents (text_library, "#!/bin/sh\n", -1, NULL));
  c = load_dirs (dirs);
  diagnostics = mg_catalogue_get_diagnostics (c);

  /* The malformed file is one error; the others still load. */
  defs_test_find_diagnostic (diagnostics, "a_malformed.xml", 5, MG_SEVERITY_ERROR);
  g_assert_cmpuint (defs_test_count_diagnostics_for (diagnostics, "a_malformed.xml"), ==, 1);
  g_assert_true (mg_catalogue_lookup_metric (c, "d.good")->available);
  g_assert_true (mg_catalogue_lookup_metric (c, "d.good")->enabled);

  d = defs_test_find_diagnostic (diagnostics, "b_metrics.xml", 12, MG_SEVERITY_ERROR);
  g_assert_cmpstr (d->message, ==,
                   "metric 'unknown.source' refers to source 'no_such_src', which this file "
                   "does not define; add <source id=\"no_such_src\"> or correct the ref");
  metric = mg_catalogue_lookup_metric (c, "unknown.source");
  g_assert_false (metric->available);
  g_assert_null (metric->source);
  metric = mg_catalogue_lookup_metric (c, "b.good");
  g_assert_false (metric->available);
  g_assert_nonnull (strstr (metric->unavailable_reason, "is not a shared library"));

  d = defs_test_find_diagnostic (diagnostics, "c_escape.xml", 7, MG_SEVERITY_ERROR);
  g_assert_nonnull (strstr (d->message, "source 'c_src': sharedLibrary '../outside/libevil.so' "
                                        "leaves the folder of the definition file"));
  d = defs_test_find_diagnostic (diagnostics, "c_escape.xml", 10, MG_SEVERITY_ERROR);
  g_assert_nonnull (strstr (d->message, "'/usr/lib/libevil.so' is an absolute path"));
  g_assert_false (mg_catalogue_lookup_metric (c, "c.escaping")->available);
  g_assert_null (mg_catalogue_lookup_metric (c, "malformed.metric"));
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/defs/catalogue/availability", Fixture, NULL, map_setup, test_availability,
              map_teardown);
  g_test_add ("/defs/catalogue/groups", Fixture, NULL, map_setup, test_groups, map_teardown);
  g_test_add ("/defs/catalogue/defaults-and-sources", Fixture, NULL, map_setup,
              test_defaults_and_sources, map_teardown);
  g_test_add ("/defs/catalogue/toggles", Fixture, NULL, map_setup, test_toggles, map_teardown);
  g_test_add ("/defs/catalogue/toggle-errors", Fixture, NULL, map_setup, test_toggle_errors,
              map_teardown);
  g_test_add ("/defs/catalogue/metrics-list", Fixture, NULL, map_setup, test_metrics_list,
              map_teardown);
  g_test_add ("/defs/catalogue/toggle-case", Fixture, NULL, map_setup, test_toggle_case,
              map_teardown);
  g_test_add_func ("/defs/catalogue/split-ids", test_split_ids);
  g_test_add_func ("/defs/catalogue/precedence", test_precedence);
  g_test_add_func ("/defs/catalogue/broken-folder", test_broken_folder);
  return g_test_run ();
}
