/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>

#include "report-fixture.h"

static void
add_metric (MgProfileBuilder *builder, const char *id, const char *units, MgDomain domain)
{
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();

  def->id = g_strdup (id);
  g_free (def->units);
  def->units = g_strdup (units);
  def->domain = domain;
  def->display_name = g_strdup (id);
  def->source_ref = g_strdup ("org.example.source");
  mg_profile_builder_add_metric (builder, def);
}

MgProfile *
report_fixture_profile (void)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "./solver", "--grid", "big input", NULL };
  MgMetricError me = { 0, (char *) "mpi_calls", 1, (char *) "the MPI library is not loaded",
                       1, 0.0, 0.0 };
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/work");
  mg_profile_builder_set_start_time (builder, 1763791200000000);
  mg_profile_builder_set_interval (builder, 500.0, 500.0, 1000);
  add_metric (builder, "cpu_time_percentage", "%", MG_DOMAIN_TIME);
  add_metric (builder, "rchar_rate", "B/s", MG_DOMAIN_TIME);
  add_metric (builder, "wchar_rate", "B/s", MG_DOMAIN_TIME);
  add_metric (builder, "rss", "B", MG_DOMAIN_TIME);
  add_metric (builder, "com.allinea.metrics.custom1.interrupts", "/s", MG_DOMAIN_TIME);
  add_metric (builder, "memory_per_node", "B", MG_DOMAIN_SINGLE_VALUE);
  for (guint p = 0; p < 3; p++)
    {
      MgProcessInfo info = { 100 + (int) p, 1, (int) p, (char *) "node-a", (char *) "./solver",
                             0.0, 4.0, MG_PROCESS_END_EXITED, 0, p == 0 };

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 8; k++)
        {
          double v[6] = {
            60.0 + 10.0 * p + k,           /* cpu % */
            1048576.0 * (k + 1) * (p + 1), /* read B/s */
            4096.0 * (p + 1),              /* write B/s */
            3.0 * 1048576.0 * (p + 2),     /* rss */
            p == 2 && (k == 3 || k == 4) ? NAN : 1000.0 + 500.0 * p + 100.0 * k,
            NAN,
          };

          mg_profile_builder_add_sample (builder, p, 0.5 * k, 0.5 * (k + 1), v, v, v);
        }
      mg_profile_builder_set_single_value (builder, p, 5, 8.0 * 1073741824.0);
    }
  mg_profile_builder_add_metric_error (builder, &me);
  profile = mg_profile_builder_finish (builder, 8, &error);
  g_assert_no_error (error);
  return profile;
}

MgProfile *
report_fixture_large (guint n_processes, guint n_metrics, guint n_samples)
{
  static const char *const named[] = { "cpu_time_percentage", "rchar_rate", "wchar_rate",
                                       "rss" };
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autofree double *values = g_new (double, n_metrics);
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "bench", NULL };
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/");
  mg_profile_builder_set_interval (builder, 20.0, 20.0, n_samples);
  for (guint m = 0; m < n_metrics; m++)
    {
      g_autofree char *id = m < G_N_ELEMENTS (named) ? g_strdup (named[m])
                                                     : g_strdup_printf ("metric_%u", m);

      add_metric (builder, id, m == 0 ? "%" : "B/s", MG_DOMAIN_TIME);
    }
  for (guint p = 0; p < n_processes; p++)
    {
      MgProcessInfo info = { 1000 + (int) p, 1, (int) p, (char *) "node", (char *) "bench",
                             0.0, n_samples * 0.02, MG_PROCESS_END_EXITED, 0, p == 0 };

      mg_profile_builder_add_process (builder, &info);
      mg_profile_builder_reserve (builder, p, n_samples);
      for (guint k = 0; k < n_samples; k++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = 50.0 + 40.0 * sin (k * 0.01 + m) * (p + 1) / n_processes;
          mg_profile_builder_add_sample (builder, p, k * 0.02, (k + 1) * 0.02, values, values,
                                         values);
        }
    }
  profile = mg_profile_builder_finish (builder, n_samples, &error);
  g_assert_no_error (error);
  return profile;
}

char *
report_fixture_source_path (const char *relative)
{
  return g_build_filename (g_getenv ("MG_SOURCE_ROOT"), relative, NULL);
}
