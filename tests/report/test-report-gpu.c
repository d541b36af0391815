/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's GPU section (data/reports/60-gpu.xml) and the CPU
 * section's note that the CPU mostly waited on the GPU
 * (app/report/mg-report-gpu-wait.c), from profiles of known values: two
 * processes on one node, of which the first reads the node's GPU metrics
 * (onePerNode), 8 windows of 0.5 s. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "defs/mg-diagnostic.h"
#include "report/mg-report.h"
#include "report-fixture.h"

#define GIB 1073741824.0

enum { CPU, UTIL, USED, POWER, ENERGY, N_METRICS };

static void
add_metric (MgProfileBuilder *builder, const char *id, const char *units)
{
  g_autoptr (MgMetricDef) def = mg_metric_def_new ();

  def->id = g_strdup (id);
  g_free (def->units);
  def->units = g_strdup (units);
  def->domain = MG_DOMAIN_TIME;
  def->display_name = g_strdup (id);
  def->source_ref = g_strdup ("org.example.source");
  mg_profile_builder_add_metric (builder, def);
}

/* GPU utilisation 95 % in the first busy_windows windows, 10 % after;
 * both processes' CPU time cpu_busy % in those windows and 90 % after. */
static MgProfile *
gpu_profile (guint busy_windows, double cpu_busy)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "./train", NULL };
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/work");
  mg_profile_builder_set_start_time (builder, 1763791200000000);
  mg_profile_builder_set_interval (builder, 500.0, 500.0, 1000);
  add_metric (builder, "cpu_time_percentage", "%");
  add_metric (builder, "gpu_utilization", "%");
  add_metric (builder, "gpu_memory_used", "B");
  add_metric (builder, "gpu_power", "W");
  add_metric (builder, "gpu_energy", "J");
  for (guint p = 0; p < 2; p++)
    {
      MgProcessInfo info = { 100 + (int) p, 1, (int) p, (char *) "node-a", (char *) "./train",
                             0.0, 4.0, MG_PROCESS_END_EXITED, 0, p == 0 };

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 8; k++)
        {
          gboolean busy = k < busy_windows;
          double v[N_METRICS] = {
            busy ? cpu_busy : 90.0,
            p == 0 ? (busy ? 95.0 : 10.0) : NAN,
            p == 0 ? (1.0 + k) * GIB : NAN,
            p == 0 ? (busy ? 400.0 : 100.0) : NAN,
            p == 0 ? 100.0 * (k + 1) : NAN,
          };

          mg_profile_builder_add_sample (builder, p, 0.5 * k, 0.5 * (k + 1), v, v, v);
        }
    }
  profile = mg_profile_builder_finish (builder, 8, &error);
  g_assert_no_error (error);
  return profile;
}

static GPtrArray *
builtin_reports (void)
{
  static const char *const files[] = { "data/reports/10-cpu.xml", "data/reports/60-gpu.xml" };
  GPtrArray *reports = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_partial_report_free);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = report_fixture_source_path (files[i]);
      g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
      MgPartialReport *report = mg_partial_report_load (path, diagnostics);

      g_assert_nonnull (report);
      g_assert_cmpuint (diagnostics->len, ==, 0);
      report->builtin = TRUE;
      g_ptr_array_add (reports, report);
    }
  return reports;
}

static const MgReportSection *
find_section (const MgReport *report, const char *heading)
{
  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *s = g_ptr_array_index (report->sections, i);

      if (g_strcmp0 (s->heading, heading) == 0)
        return s;
    }
  return NULL;
}

static double
line_value (const MgReportSection *section, const char *name)
{
  for (guint i = 0; i < section->lines->len; i++)
    {
      const MgReportLine *line = g_ptr_array_index (section->lines, i);

      if (g_strcmp0 (line->name, name) == 0)
        return line->value;
    }
  g_error ("no line %s in %s", name, section->heading);
  return NAN;
}

/* The GPU section's figures, computed by hand. */
static void
test_gpu_section (void)
{
  g_autoptr (MgProfile) profile = gpu_profile (6, 20.0);
  g_autoptr (GPtrArray) partials = builtin_reports ();
  g_autoptr (MgReport) report = mg_report_new (profile, NULL, partials);
  const MgReportSection *gpu = find_section (report, "GPU");

  g_assert_nonnull (gpu);
  g_assert_cmpfloat_with_epsilon (line_value (gpu, "GPU utilisation (mean)"),
                                  (95.0 * 6 + 10.0 * 2) / 8, 1e-9);
  g_assert_cmpfloat (line_value (gpu, "GPU utilisation (peak)"), ==, 95.0);
  g_assert_cmpfloat_with_epsilon (line_value (gpu, "GPU memory used (mean, all nodes)"),
                                  4.5 * GIB, 1e-3);
  g_assert_cmpfloat (line_value (gpu, "GPU memory used (peak, all nodes)"), ==, 8 * GIB);
  g_assert_cmpfloat_with_epsilon (line_value (gpu, "GPU power (mean, all nodes)"),
                                  (400.0 * 6 + 100.0 * 2) / 8, 1e-9);
  g_assert_cmpfloat (line_value (gpu, "GPU energy (all nodes)"), ==, 800.0);
}

/* 6 of 8 windows with the GPU busy and the CPU at 20 %: the CPU section
 * says it waited on the GPU 75 % of the time. */
static void
test_cpu_waits_on_gpu (void)
{
  g_autoptr (MgProfile) profile = gpu_profile (6, 20.0);
  g_autoptr (GPtrArray) partials = builtin_reports ();
  g_autoptr (MgReport) report = mg_report_new (profile, NULL, partials);
  const MgReportSection *cpu = find_section (report, "CPU");

  g_assert_cmpfloat_with_epsilon (mg_report_gpu_wait_share (profile), 0.75, 1e-9);
  g_assert_nonnull (cpu);
  g_assert_nonnull (cpu->text);
  g_assert_nonnull (strstr (cpu->text, "The CPU mostly waited on the GPU: for 75 % of the time "
                                       "the GPUs were busy"));
}

/* Not said when the CPU was busy too, when the GPU was busy under half the
 * time, or without GPU metrics. */
static void
test_cpu_does_not_wait (void)
{
  static const struct { guint busy; double cpu; double share; } cases[] = {
    { 6, 90.0, 0.0 }, { 3, 20.0, 3.0 / 8 }, { 4, 49.0, 0.5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (MgProfile) profile = gpu_profile (cases[i].busy, cases[i].cpu);
      g_autoptr (GPtrArray) partials = builtin_reports ();
      g_autoptr (MgReport) report = mg_report_new (profile, NULL, partials);
      const MgReportSection *cpu = find_section (report, "CPU");
      gboolean said = cpu != NULL && cpu->text != NULL
                      && strstr (cpu->text, "waited on the GPU") != NULL;

      g_assert_nonnull (cpu);
      g_assert_cmpfloat_with_epsilon (mg_report_gpu_wait_share (profile), cases[i].share, 1e-9);
      /* Exactly half is enough. */
      g_assert_cmpint (said, ==, cases[i].share >= 0.5);
    }
  g_autoptr (MgProfile) plain = report_fixture_profile ();
  g_assert_true (isnan (mg_report_gpu_wait_share (plain)));
  g_assert_null (mg_report_gpu_wait_note (plain));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/gpu/section", test_gpu_section);
  g_test_add_func ("/report/gpu/cpu-waits", test_cpu_waits_on_gpu);
  g_test_add_func ("/report/gpu/cpu-does-not-wait", test_cpu_does_not_wait);
  return g_test_run ();
}
