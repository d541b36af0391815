/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The built-in definition files, as the front end reads them: every file in
 * <build>/plugins loads without a warning, every metric is available
 * (its library found beside the file), MAP's ids keep MAP's units and flags,
 * and the Default group references metrics of the other files. */
#include <glib.h>

#include "defs/mg-catalogue.h"
#include "defs/mg-units.h"
#include "defs/mg-search-path.h"

static MgCatalogue *
load_builtin_catalogue (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "plugins", NULL);
  const char *dirs[] = { dir, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();
  mg_catalogue_load (catalogue, path);
  GPtrArray *diagnostics = mg_catalogue_get_diagnostics (catalogue);
  for (guint i = 0; diagnostics && i < diagnostics->len; i++)
    {
      g_autofree char *text = mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i));
      g_test_message ("%s", text);
    }
  return catalogue;
}

static void
test_files_load_cleanly (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  g_assert_cmpuint (mg_catalogue_count_diagnostics (catalogue, MG_SEVERITY_ERROR), ==, 0);
  g_assert_cmpuint (mg_catalogue_count_diagnostics (catalogue, MG_SEVERITY_WARNING), ==, 0);
  /* 6 CPU + 5 memory + 12 IO + 2 energy + 5 hardware + 4 software + 1
   * thread + 9 MPI metrics + sampler overhead and the 10 figures of what
   * the others leave out + 10 GPU node metrics and 5 for each of 8 GPUs
   * + 12 activity metrics. */
  g_assert_cmpuint (mg_catalogue_get_n_metrics (catalogue), ==, 117);
  for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);
      if (!m->available)
        g_error ("%s unavailable: %s", m->def->id, m->unavailable_reason);
      g_assert_nonnull (m->source);
    }
}

static void
test_map_ids (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  static const struct {
    const char *id, *units;
    MgDataType type;
    gboolean divide, one_per_node;
  } expected[] = {
    { "cpu_time_percentage", "%", MG_DATA_TYPE_DOUBLE, TRUE, FALSE },
    { "user_time_percentage", "%", MG_DATA_TYPE_DOUBLE, TRUE, FALSE },
    { "system_time_percentage", "%", MG_DATA_TYPE_DOUBLE, TRUE, FALSE },
    { "voluntary_context_switches", "/s", MG_DATA_TYPE_UINT64, TRUE, FALSE },
    { "loadavg", "%", MG_DATA_TYPE_DOUBLE, FALSE, FALSE },
    { "rss", "B", MG_DATA_TYPE_UINT64, FALSE, FALSE },
    { "node_mem_percent", "%", MG_DATA_TYPE_DOUBLE, FALSE, TRUE },
    { "memory_per_node", "B", MG_DATA_TYPE_UINT64, FALSE, TRUE },
    { "rchar_rate", "B/s", MG_DATA_TYPE_UINT64, TRUE, FALSE },
    { "wchar_total", "B", MG_DATA_TYPE_UINT64, FALSE, FALSE },
    { "syscw", "calls/s", MG_DATA_TYPE_UINT64, TRUE, FALSE },
    { "rapl_power", "W/node", MG_DATA_TYPE_DOUBLE, TRUE, TRUE },
    { "rapl_energy", "J", MG_DATA_TYPE_DOUBLE, FALSE, TRUE },
    { "mpi_time_percentage", "%", MG_DATA_TYPE_DOUBLE, TRUE, FALSE },
    { "mpi_call_time", "ns", MG_DATA_TYPE_UINT64, FALSE, FALSE },
    { "mpi_sent", "B/s", MG_DATA_TYPE_UINT64, TRUE, FALSE },
    { "mpi_collect", "calls/s", MG_DATA_TYPE_UINT64, TRUE, FALSE },
    { "com.allinea.metrics.perf.cycles_per_instruction", "", MG_DATA_TYPE_DOUBLE, FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const MgCatalogueMetric *m = mg_catalogue_lookup_metric (catalogue, expected[i].id);
      g_assert_nonnull (m);
      g_assert_cmpstr (m->def->units, ==, expected[i].units);
      g_assert_cmpint (m->def->data_type, ==, expected[i].type);
      g_assert_cmpint (m->def->divide_by_sample_time, ==, expected[i].divide);
      g_assert_cmpint (m->def->one_per_node, ==, expected[i].one_per_node);
    }
  const MgCatalogueMetric *node = mg_catalogue_lookup_metric (catalogue, "memory_per_node");
  g_assert_cmpint (node->def->domain, ==, MG_DOMAIN_SINGLE_VALUE);
  const MgCatalogueMetric *cpi
    = mg_catalogue_lookup_metric (catalogue, "com.allinea.metrics.perf.cycles_per_instruction");
  g_assert_cmpstr (cpi->def->custom_data, ==, "cycles/instructions");
}

/* What profiling cost is a metric of its own, in a group off by default. */
static void
test_sampler_overhead (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  const MgCatalogueMetric *m = mg_catalogue_lookup_metric (catalogue, "org.metrograph.sampler_overhead");
  g_assert_nonnull (m);
  g_assert_cmpstr (m->def->units, ==, "%");
  g_assert_true (m->def->divide_by_sample_time);
  g_assert_cmpint (m->def->enabled, ==, MG_ENABLED_DEFAULT_NO);
  const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, "sampler_overhead");
  g_assert_nonnull (group);
  /* With what the other metrics leave out (Threads, faults, I/O). */
  g_assert_cmpuint (group->members->len, ==, 11);
}

/* System load is recorded in % (MAP's units for loadavg) but read per
 * core: "System load 250.0 %" meant nothing to a reader. */
static void
test_load_per_core (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  const MgCatalogueMetric *m = mg_catalogue_lookup_metric (catalogue, "loadavg");
  g_assert_nonnull (m);
  g_assert_cmpstr (m->def->units, ==, "%");
  g_autofree char *text = mg_units_format_value (m->def, 250.0);
  g_assert_cmpstr (text, ==, "2.50 runnable threads per core");
}

static void
test_default_group (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, "defaultGroup");
  g_assert_nonnull (group);
  g_assert_cmpstr (group->group->display_name, ==, "Default");
  /* Written as the rest of the viewer and the reports write it. */
  g_assert_cmpstr (mg_catalogue_lookup_group (catalogue, "io")->group->display_name, ==, "I/O");
  g_assert_cmpuint (group->missing_refs->len, ==, 0);
  g_assert_cmpuint (group->members->len, ==, 4);
  const MgCatalogueMetric *first = g_ptr_array_index (group->members, 0);
  g_assert_cmpstr (first->def->id, ==, "cpu_time_percentage");
}

/* The GPU group (its preset) holds the node's 10 metrics, on by default,
 * each in its own colour; the per-GPU metrics name their GPU in customData
 * and are off by default. */
static void
test_gpu (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, "gpu");
  g_assert_nonnull (group);
  g_assert_cmpstr (group->group->display_name, ==, "GPU");
  g_assert_cmpuint (group->missing_refs->len, ==, 0);
  g_assert_cmpuint (group->members->len, ==, 10);
  for (guint i = 0; i < group->members->len; i++)
    {
      const MgCatalogueMetric *m = g_ptr_array_index (group->members, i);
      g_assert_cmpint (m->def->enabled, ==, MG_ENABLED_DEFAULT_YES);
      g_assert_true (m->def->one_per_node);
      g_assert_nonnull (m->def->colour_spec);
    }
  const MgCatalogueMetric *power = mg_catalogue_lookup_metric (catalogue, "gpu_power");
  g_assert_cmpstr (power->def->units, ==, "W");
  g_assert_false (power->def->divide_by_sample_time);
  const MgCatalogueGroup *devices = mg_catalogue_lookup_group (catalogue, "gpu_devices");
  g_assert_nonnull (devices);
  g_assert_cmpuint (devices->members->len, ==, 40);
  const MgCatalogueMetric *m = mg_catalogue_lookup_metric (catalogue, "gpu7_temperature");
  g_assert_nonnull (m);
  g_assert_cmpstr (m->def->custom_data, ==, "7");
  g_assert_cmpint (m->def->enabled, ==, MG_ENABLED_DEFAULT_NO);
}

/* The activity groups (their presets): 6 classes each, on by default, in
 * the classes' colours (computing green, MPI blue, I/O orange, waiting
 * greys), the same colour for a class in both groups. */
static void
test_activity (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  static const struct {
    const char *group, *display_name, *prefix;
  } groups[] = {
    { "mainThreadActivity", "Main thread activity", "org.metrograph.activity.main." },
    { "allThreadsActivity", "All threads activity", "org.metrograph.activity.threads." },
  };
  static const struct {
    const char *suffix, *colour;
  } classes[] = {
    { "computing", "#2E8B47" }, { "mpi", "#3A74CC" }, { "io", "#D0621B" },
    { "sleep", "gray" }, { "lock", "dimgray" }, { "other", "darkgray" },
  };
  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      const MgCatalogueGroup *group = mg_catalogue_lookup_group (catalogue, groups[g].group);
      g_assert_nonnull (group);
      g_assert_cmpstr (group->group->display_name, ==, groups[g].display_name);
      g_assert_cmpuint (group->missing_refs->len, ==, 0);
      g_assert_cmpuint (group->members->len, ==, G_N_ELEMENTS (classes));
      for (guint c = 0; c < G_N_ELEMENTS (classes); c++)
        {
          const MgCatalogueMetric *m = g_ptr_array_index (group->members, c);
          g_autofree char *id = g_strconcat (groups[g].prefix, classes[c].suffix, NULL);
          g_assert_cmpstr (m->def->id, ==, id);
          g_assert_cmpint (m->def->enabled, ==, MG_ENABLED_DEFAULT_YES);
          g_assert_cmpstr (m->def->units, ==, "%");
          g_assert_false (m->def->divide_by_sample_time);
          g_assert_cmpstr (m->def->colour_spec, ==, classes[c].colour);
          g_assert_true (m->def->has_colour);
        }
    }
}

/* No built-in source preloads a library: the MPI wrapper is linked into
 * the sampler (plugins/meson.build), so that a profiled process loads one
 * library of ours, not two. */
static void
test_no_preload (void)
{
  g_autoptr (MgCatalogue) catalogue = load_builtin_catalogue ();
  const MgCatalogueMetric *m = mg_catalogue_lookup_metric (catalogue, "mpi_calls");
  g_auto (GStrv) preloads = mg_catalogue_get_preload_paths (catalogue);
  g_assert_nonnull (m);
  g_assert_true (m->available);
  g_assert_cmpuint (m->source->preloads->len, ==, 0);
  g_assert_cmpuint (g_strv_length (preloads), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/definitions/load-cleanly", test_files_load_cleanly);
  g_test_add_func ("/metrics/definitions/map-ids", test_map_ids);
  g_test_add_func ("/metrics/definitions/default-group", test_default_group);
  g_test_add_func ("/metrics/definitions/sampler-overhead", test_sampler_overhead);
  g_test_add_func ("/metrics/definitions/load-per-core", test_load_per_core);
  g_test_add_func ("/metrics/definitions/no-preload", test_no_preload);
  g_test_add_func ("/metrics/definitions/gpu", test_gpu);
  g_test_add_func ("/metrics/definitions/activity", test_activity);
  return g_test_run ();
}
