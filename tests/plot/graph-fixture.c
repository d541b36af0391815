/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles of known shape for the graph tests. */
#include "graph-fixture.h"

#include <math.h>

#include "profile/mg-profile-builder.h"

static void
set_colour (MgMetricDef *def, guint32 rgb)
{
  def->has_colour = TRUE;
  def->colour_spec = g_strdup_printf ("#%06X", rgb);
  def->colour.r = ((rgb >> 16) & 0xff) / 255.0;
  def->colour.g = ((rgb >> 8) & 0xff) / 255.0;
  def->colour.b = (rgb & 0xff) / 255.0;
  def->colour.a = 1;
}

static MgMetricDef *
make_def (guint i)
{
  static const char *const ids[] = { "cpu", "mem", "io", "mpi" };
  static const char *const names[] = { "CPU time", "Memory usage", "Bytes written",
                                       "MPI calls" };
  static const char *const units[] = { "%", "B", "B/s", "calls/s" };
  static const MgMetricType types[] = { MG_METRIC_TYPE_CPU_TIME, MG_METRIC_TYPE_MEMORY,
                                        MG_METRIC_TYPE_IO, MG_METRIC_TYPE_MPI };
  MgMetricDef *def = mg_metric_def_new ();
  guint kind = i % 4;

  def->id = g_strdup_printf ("%s_%u", ids[kind], i);
  def->display_name = i < 4 ? g_strdup (names[kind])
                            : g_strdup_printf ("%s %u", names[kind], i);
  g_free (def->units);
  def->units = g_strdup (units[kind]);
  def->type = types[kind];
  def->data_type = MG_DATA_TYPE_DOUBLE;
  if (kind == 2)
    set_colour (def, GRAPH_FIXTURE_IO_COLOUR);
  else if (kind == 3)
    set_colour (def, GRAPH_FIXTURE_MPI_COLOUR);
  return def;
}

/* One process's value of metric kind at time fraction x (0..1). */
static double
value_at (guint kind, guint p, guint n_processes, double x, guint i)
{
  double spread = n_processes > 1 ? (double) p / (n_processes - 1) : 0;
  double phase = i * 0.7;

  switch (kind)
    {
    case 0:
      return CLAMP (55 + 25 * sin (x * 14 + phase) - 30 * spread * (0.5 + 0.5 * sin (x * 5)),
                    0, 100);
    case 1:
      return (300 + 900 * x + 250 * spread * x) * 1024 * 1024;
    case 2:
      return (20 + 15 * sin (x * 30 + p) + 10 * spread) * 1024 * 1024 * (x > 0.6 ? 2 : 1);
    default:
      return 4000 + 3000 * fabs (sin (x * 9 + phase)) * (1 + spread);
    }
}

MgProfile *
graph_fixture_profile (guint n_processes, guint n_metrics, guint n_windows, double duration,
                       gboolean with_gap)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  const char *argv[] = { "./solver", "--steps", "100", NULL };
  g_autofree double *values = g_new (double, n_metrics);
  double dt = duration / n_windows;
  g_autoptr (GError) error = NULL;
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/tmp");
  mg_profile_builder_set_start_time (builder, 1700000000000000);
  mg_profile_builder_set_interval (builder, dt * 1000, dt * 1000, n_windows);
  for (guint i = 0; i < n_metrics; i++)
    {
      g_autoptr (MgMetricDef) def = make_def (i);
      mg_profile_builder_add_metric (builder, def);
    }
  for (guint p = 0; p < n_processes; p++)
    {
      MgProcessInfo info = {
        .pid = 1000 + (int) p, .ppid = 1, .rank = (int) p, .host = (char *) "node1",
        .program = (char *) "./solver", .start_s = 0, .end_s = duration,
        .end = MG_PROCESS_END_EXITED,
      };
      mg_profile_builder_add_process (builder, &info);
    }
  for (guint p = 0; p < n_processes; p++)
    for (guint w = 0; w < n_windows; w++)
      {
        double x = (w + 0.5) / n_windows;

        for (guint i = 0; i < n_metrics; i++)
          {
            gboolean gap = with_gap && i % 4 == 2 && x >= 0.4 && x < 0.5;
            values[i] = gap ? NAN : value_at (i % 4, p, n_processes, x, i);
          }
        mg_profile_builder_add_sample (builder, p, w * dt, (w + 1) * dt, values, values, values);
      }
  profile = mg_profile_builder_finish (builder, n_windows, &error);
  g_assert_no_error (error);
  return profile;
}
