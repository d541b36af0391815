/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fixture profiles for the viewer. */
#include <math.h>
#include <signal.h>

#include "defs/mg-colour.h"
#include "gui-fixtures.h"

MgMetricDef *
gui_fixture_def (const char *id, const char *name, const char *units, MgMetricType type,
                 const char *colour)
{
  MgMetricDef *def = mg_metric_def_new ();

  def->id = g_strdup (id);
  def->display_name = g_strdup (name);
  def->description = g_strdup_printf ("The %s<br>of every process", name);
  g_free (def->units);
  def->units = g_strdup (units);
  def->data_type = MG_DATA_TYPE_DOUBLE;
  def->type = type;
  if (colour != NULL)
    {
      def->colour_spec = g_strdup (colour);
      def->has_colour = mg_colour_parse (colour, &def->colour, NULL);
    }
  return def;
}

MgMetricGroup *
gui_fixture_group (const char *id, const char *name, const char *description,
                   const char *const *refs)
{
  MgMetricGroup *group = mg_metric_group_new ();

  group->id = g_strdup (id);
  group->display_name = g_strdup (name);
  group->description = g_strdup (description);
  for (guint i = 0; refs[i] != NULL; i++)
    g_ptr_array_add (group->metric_refs, g_strdup (refs[i]));
  return group;
}

static void
add_def (MgProfileBuilder *builder, MgMetricDef *def)
{
  mg_profile_builder_add_metric (builder, def);
  mg_metric_def_free (def);
}

static void
add_group (MgProfileBuilder *builder, MgMetricGroup *group)
{
  mg_profile_builder_add_group (builder, group);
  mg_metric_group_free (group);
}

static guint
add_process (MgProfileBuilder *builder, int pid, int rank, double end_s, MgProcessEnd end,
             int status)
{
  MgProcessInfo info = { 0 };

  info.pid = pid;
  info.ppid = 1;
  info.rank = rank;
  info.host = (char *) "node1";
  info.program = (char *) "solver";
  info.start_s = 0;
  info.end_s = end_s;
  info.end = end;
  info.status = status;
  info.node_leader = rank <= 0;
  return mg_profile_builder_add_process (builder, &info);
}

static MgProfileBuilder *
new_builder (void)
{
  MgProfileBuilder *builder = mg_profile_builder_new ();
  const char *argv[] = { "/usr/bin/solver", "--size", "64", NULL };

  mg_profile_builder_set_command (builder, argv, "/home/user/run");
  mg_profile_builder_set_start_time (builder, G_GINT64_CONSTANT (1763790000000000));
  mg_profile_builder_set_interval (builder, 10, 10, 1000);
  mg_profile_builder_set_exit_status (builder, 0);
  return builder;
}

static MgProfile *
finish (MgProfileBuilder *builder)
{
  g_autoptr (GError) error = NULL;
  MgProfile *profile = mg_profile_builder_finish (builder, 0, &error);

  g_assert_no_error (error);
  mg_profile_builder_free (builder);
  return profile;
}

static void
add_samples (MgProfileBuilder *builder, guint process, guint n_windows, guint n_metrics,
             double (*value) (guint process, guint metric, guint window))
{
  g_autofree double *values = g_new (double, n_metrics);

  for (guint w = 0; w < n_windows; w++)
    {
      for (guint m = 0; m < n_metrics; m++)
        values[m] = value (process, m, w);
      mg_profile_builder_add_sample (builder, process, w * 0.01, (w + 1) * 0.01, values, values,
                                     values);
    }
}

static double
single_value (guint process, guint metric, guint window)
{
  if (metric == 0)
    return 50 + 40 * sin (window / 10.0);
  return (100 + window) * 1048576.0;
}

MgProfile *
gui_fixture_single (void)
{
  MgProfileBuilder *builder = new_builder ();
  const char *cpu[] = { "cpu", NULL }, *rss[] = { "rss", NULL };
  guint p;

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  add_def (builder, gui_fixture_def ("rss", "Memory usage", "B", MG_METRIC_TYPE_MEMORY, NULL));
  add_group (builder, gui_fixture_group ("cpu_group", "CPU Time", "Where the CPU time went", cpu));
  add_group (builder, gui_fixture_group ("memory_group", "Memory", "Resident memory", rss));
  p = add_process (builder, 4242, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  add_samples (builder, p, 100, 2, single_value);
  return finish (builder);
}

static double
imbalance_value (guint process, guint metric, guint window)
{
  return 20 + 20.0 * process;
}

MgProfile *
gui_fixture_imbalance (void)
{
  MgProfileBuilder *builder = new_builder ();
  const char *work[] = { "work", NULL };

  add_def (builder, gui_fixture_def ("work", "Work", "%", MG_METRIC_TYPE_CPU_TIME, "#e66100"));
  add_group (builder, gui_fixture_group ("compute", "Compute", NULL, work));
  for (int r = 0; r < 4; r++)
    {
      guint p = add_process (builder, 1000 + r, r, 1.0, MG_PROCESS_END_EXITED, 0);

      add_samples (builder, p, 100, 1, imbalance_value);
    }
  return finish (builder);
}

static double
gap_value (guint process, guint metric, guint window)
{
  return window < 50 ? 10 + (window % 7) : NAN;
}

MgProfile *
gui_fixture_gaps (void)
{
  MgProfileBuilder *builder = new_builder ();
  guint p;

  add_def (builder, gui_fixture_def ("gappy", "Gappy", "calls/s", MG_METRIC_TYPE_OTHER, "#1a5fb4"));
  p = add_process (builder, 77, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  add_samples (builder, p, 100, 1, gap_value);
  return finish (builder);
}

MgProfile *
gui_fixture_errors (void)
{
  MgProfileBuilder *builder = new_builder ();
  MgPluginError plugin_error = { 0, (char *) "papi", (char *) "/opt/libpapi-metric.so", -3,
                                 (char *) "PAPI could not open the counters" };
  MgMetricError metric_error = { 1, (char *) "cpu", 7, (char *) "read failed", 3, 0.2, 0.4 };
  MgProcessEvent killed = { 1, 0.5, MG_EVENT_SIGNAL, 9, NULL };
  guint p0, p1;

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  p0 = add_process (builder, 500, 0, 1.0, MG_PROCESS_END_EXITED, 0);
  p1 = add_process (builder, 501, 1, 0.5, MG_PROCESS_END_SIGNALLED, 9);
  add_samples (builder, p0, 100, 1, single_value);
  add_samples (builder, p1, 50, 1, single_value);
  mg_profile_builder_add_plugin_error (builder, &plugin_error);
  mg_profile_builder_add_metric_error (builder, &metric_error);
  mg_profile_builder_add_event (builder, &killed);
  return finish (builder);
}

MgProfile *
gui_fixture_absent (void)
{
  MgProfileBuilder *builder = new_builder ();
  MgPluginError errors[] = {
    { 0, (char *) "energy_src", (char *) "libmetrograph-energy.so", 0,
      (char *) GUI_FIXTURE_NO_RAPL },
    { 0, (char *) "mpi_src", (char *) "libmetrograph-mpi.so", 0,
      (char *) "MPI: not an MPI program (no MPI library is loaded)" },
    { 1, (char *) "mpi_src", (char *) "libmetrograph-mpi.so", 0,
      (char *) "MPI: not an MPI program (no MPI library is loaded)" },
    { 1, (char *) "papi", (char *) "/opt/libpapi-metric.so", -3,
      (char *) "PAPI could not open the counters" },
  };
  guint p0, p1;

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  p0 = add_process (builder, 500, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  p1 = add_process (builder, 501, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  add_samples (builder, p0, 100, 1, single_value);
  add_samples (builder, p1, 100, 1, single_value);
  for (guint i = 0; i < G_N_ELEMENTS (errors); i++)
    mg_profile_builder_add_plugin_error (builder, &errors[i]);
  return finish (builder);
}

MgProfile *
gui_fixture_events (void)
{
  MgProfileBuilder *builder = new_builder ();
  MgPluginError init_error = { 0, (char *) "papi", (char *) "/opt/libpapi-metric.so", -3,
                               (char *) "PAPI could not open the counters" };
  MgPluginError damaged = { -1, NULL, (char *) "/tmp/run/rank-9.mgrec", 0,
                            (char *) "the record is truncated" };
  MgProcessEvent events[] = {
    { 1, 0.3, MG_EVENT_SIGNAL, SIGSEGV, NULL },
    { 2, 0.5, MG_EVENT_SIGNAL, SIGKILL, NULL },
    { 3, 0.7, MG_EVENT_SIGNAL, 0, (char *) "The process ended without a trace." },
    { 0, 0.8, MG_EVENT_RECORDING_STOPPED, 28, (char *) "No space left on device" },
    { 0, 0.0, MG_EVENT_START, 0, NULL },
    { 0, 1.0, MG_EVENT_EXIT, 0, NULL },
  };
  const struct { double end_s; MgProcessEnd end; int status; } ends[] = {
    { 1.0, MG_PROCESS_END_EXITED, 0 },
    { 0.3, MG_PROCESS_END_SIGNALLED, SIGSEGV },
    { 0.5, MG_PROCESS_END_SIGNALLED, SIGKILL },
    { 0.7, MG_PROCESS_END_UNKNOWN, 0 },
  };

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  for (int r = 0; r < 4; r++)
    {
      guint p = add_process (builder, 600 + r, r, ends[r].end_s, ends[r].end, ends[r].status);

      add_samples (builder, p, (guint) (ends[r].end_s * 100), 1, single_value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    mg_profile_builder_add_event (builder, &events[i]);
  mg_profile_builder_add_plugin_error (builder, &init_error);
  mg_profile_builder_add_plugin_error (builder, &damaged);
  return finish (builder);
}

static double
groups_value (guint process, guint metric, guint window)
{
  if (metric == 4) /* mem_node: a single value, no samples */
    return NAN;
  return 10.0 * (metric + 1) + window % 5;
}

MgProfile *
gui_fixture_groups (void)
{
  MgProfileBuilder *builder = new_builder ();
  const char *defaults[] = { "cpu", "rss", NULL };
  const char *cpu[] = { "cpu", "user", NULL };
  const char *memory[] = { "rss", NULL };
  const char *energy[] = { "power", NULL };
  MgMetricDef *single = gui_fixture_def ("mem_node", "Node memory", "B", MG_METRIC_TYPE_MEMORY, NULL);
  guint p, single_index;

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  add_def (builder, gui_fixture_def ("rss", "Memory usage", "B", MG_METRIC_TYPE_MEMORY, NULL));
  add_def (builder, gui_fixture_def ("user", "User time", "%", MG_METRIC_TYPE_CPU_TIME, "green"));
  add_def (builder, gui_fixture_def ("custom", "Custom counter", "events/s", MG_METRIC_TYPE_OTHER, NULL));
  single->domain = MG_DOMAIN_SINGLE_VALUE;
  single_index = mg_profile_builder_add_metric (builder, single);
  mg_metric_def_free (single);
  add_group (builder, gui_fixture_group ("energy", "Energy", "Power use", energy));
  add_group (builder, gui_fixture_group ("cpu_time", "CPU Time", "Where the CPU time went", cpu));
  add_group (builder, gui_fixture_group ("memory", "Memory", "Resident memory", memory));
  add_group (builder, gui_fixture_group ("defaultGroup", "Default", "What MAP shows first", defaults));
  p = add_process (builder, 9000, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  add_samples (builder, p, 100, 5, groups_value);
  mg_profile_builder_set_single_value (builder, p, single_index, 64.0 * 1073741824.0);
  {
    /* Why the Energy group has no graphs. */
    MgMetricError error = { 0, (char *) "power", 2, (char *) "RAPL counters are not readable", 1,
                            0.0, 0.0 };

    mg_profile_builder_add_metric_error (builder, &error);
  }
  return finish (builder);
}

MgProfile *
gui_fixture_large (guint n_processes, guint n_metrics, guint n_samples)
{
  MgProfileBuilder *builder = new_builder ();
  g_autofree double *values = g_new (double, n_metrics);

  for (guint m = 0; m < n_metrics; m++)
    {
      g_autofree char *id = g_strdup_printf ("metric%u", m);
      g_autofree char *name = g_strdup_printf ("Metric %u", m);

      add_def (builder, gui_fixture_def (id, name, m % 2 ? "B" : "%", (MgMetricType) (m % 7), NULL));
    }
  for (guint p = 0; p < n_processes; p++)
    {
      guint index = add_process (builder, 2000 + (int) p, (int) p, n_samples * 0.01,
                                 MG_PROCESS_END_EXITED, 0);

      for (guint w = 0; w < n_samples; w++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = 50 + 30 * sin (w / (20.0 + m) + p * 0.1) + (p % 8);
          mg_profile_builder_add_sample (builder, index, w * 0.01, (w + 1) * 0.01, values,
                                         values, values);
        }
    }
  return finish (builder);
}

/* Deterministic noise in [-1, 1]. */
static double
noise (guint a, guint b)
{
  double x = sin (a * 12.9898 + b * 78.233) * 43758.5453;

  return 2 * (x - floor (x)) - 1;
}

static double
demo_value (guint p, guint metric, guint w)
{
  double t = w * 0.02;
  double cycle = fmod (t, 2.0);
  gboolean comm = cycle > 1.4;
  double n = noise (p * 7 + metric, w);

  switch (metric)
    {
    case 0: /* CPU time % */
      if (t < 0.6)
        return 30 + 10 * n + (p == 0 ? 40 : 0);
      return comm ? 35 + 7.0 * p + 4 * n : 93 + 4 * n - (p == 5 ? 18 : 0);
    case 1: /* system time % */
      return (comm ? 12 + 2.0 * (7 - p) : 3) + 1.5 * n + (t < 0.6 ? 10 : 0);
    case 2: /* rss B */
      return (180 + MIN (t, 8.0) * 22 + p * 9 + 2 * n) * 1048576.0;
    case 3: /* read rate B/s */
      if (t < 0.6)
        return p == 0 ? (380 + 40 * n) * 1048576.0 : (20 + 5 * n) * 1048576.0;
      if (t > 9.0 && t < 9.5)
        return (120 + 30 * n) * 1048576.0;
      return fabs (n) * 0.2 * 1048576.0;
    case 4: /* MPI sent B/s */
      return comm ? (40 + 6.0 * p + 5 * n) * 1048576.0 : (1 + fabs (n)) * 1048576.0;
    case 5: /* MPI call duration, ns */
      return comm ? (2.5 - 0.2 * p + 0.3 * n) * 1e6 : (40 + 10 * fabs (n)) * 1e3;
    case 6: /* MPI time, % of wall time */
      return comm ? 55 - 6.0 * p + 5 * n : 2 + fabs (n);
    default:
      return 0;
    }
}

MgProfile *
gui_fixture_demo (void)
{
  MgProfileBuilder *builder = mg_profile_builder_new ();
  const char *argv[] = { "mpirun", "-n", "8", "./lulesh2.0", "-s", "48", NULL };
  const char *defaults[] = { "cpu_time_percentage", "rss", "rchar_rate", NULL };
  const char *cpu[] = { "cpu_time_percentage", "system_time_percentage", NULL };
  const char *memory[] = { "rss", "memory_per_node", NULL };
  const char *io[] = { "rchar_rate", NULL };
  const char *mpi[] = { "mpi_time_percentage", "mpi_call_time", "mpi_sent", NULL };
  const char *energy[] = { "rapl_power", NULL };
  MgMetricDef *mem_node;
  guint mem_index;

  mg_profile_builder_set_command (builder, argv, "/home/ada/lulesh");
  mg_profile_builder_set_start_time (builder, G_GINT64_CONSTANT (1763790000000000));
  mg_profile_builder_set_interval (builder, 20, 20, 1000);
  mg_profile_builder_set_exit_status (builder, 0);
  add_def (builder, gui_fixture_def ("cpu_time_percentage", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  add_def (builder, gui_fixture_def ("system_time_percentage", "System time", "%", MG_METRIC_TYPE_CPU_TIME, "#c061cb"));
  add_def (builder, gui_fixture_def ("rss", "Memory usage", "B", MG_METRIC_TYPE_MEMORY, NULL));
  add_def (builder, gui_fixture_def ("rchar_rate", "POSIX read rate", "B/s", MG_METRIC_TYPE_IO, NULL));
  add_def (builder, gui_fixture_def ("mpi_sent", "MPI sent", "B/s", MG_METRIC_TYPE_MPI, NULL));
  add_def (builder, gui_fixture_def ("mpi_call_time", "MPI call duration", "ns", MG_METRIC_TYPE_MPI, "#26a269"));
  add_def (builder, gui_fixture_def ("mpi_time_percentage", "MPI time", "%", MG_METRIC_TYPE_MPI, NULL));
  mem_node = gui_fixture_def ("memory_per_node", "Node memory", "B", MG_METRIC_TYPE_MEMORY, NULL);
  mem_node->domain = MG_DOMAIN_SINGLE_VALUE;
  mem_index = mg_profile_builder_add_metric (builder, mem_node);
  mg_metric_def_free (mem_node);
  add_group (builder, gui_fixture_group ("defaultGroup", "Default", "The metrics shown first", defaults));
  add_group (builder, gui_fixture_group ("cpu", "CPU Time", "Where the processes spent CPU time", cpu));
  add_group (builder, gui_fixture_group ("memory", "Memory", "Memory of the processes and nodes", memory));
  add_group (builder, gui_fixture_group ("io", "I/O", "Bytes through read and write calls", io));
  add_group (builder, gui_fixture_group ("mpi", "MPI", "MPI calls and transfers", mpi));
  add_group (builder, gui_fixture_group ("energy", "Energy", "RAPL power of the nodes", energy));
  for (guint r = 0; r < 8; r++)
    {
      MgProcessInfo info = { 0 };
      double values[8];  /* one per metric; the single value has none here */
      guint p;

      info.pid = 31400 + (int) r;
      info.ppid = 31399;
      info.rank = (int) r;
      info.host = (char *) (r < 4 ? "node01" : "node02");
      info.program = (char *) "./lulesh2.0";
      info.end_s = 12.0;
      info.end = MG_PROCESS_END_EXITED;
      info.node_leader = r % 4 == 0;
      p = mg_profile_builder_add_process (builder, &info);
      for (guint w = 0; w < 600; w++)
        {
          for (guint m = 0; m < 7; m++)
            values[m] = demo_value (r, m, w);
          values[7] = NAN;
          mg_profile_builder_add_sample (builder, p, w * 0.02, (w + 1) * 0.02, values, values, values);
        }
      if (info.node_leader)
        mg_profile_builder_set_single_value (builder, p, mem_index, 256.0 * 1073741824.0);
    }
  return finish (builder);
}

static double
failed_plugin_value (guint process, guint metric, guint window)
{
  return metric == 0 ? 40 + (window % 10) : NAN;
}

MgProfile *
gui_fixture_failed_plugin (void)
{
  MgProfileBuilder *builder = new_builder ();
  const char *cpu[] = { "cpu", "spare", NULL };
  const char *energy[] = { "rapl_power", NULL };
  MgPluginError failed = { 0, (char *) "energy", (char *) "libmetrograph-energy.so", -1,
                           (char *) GUI_FIXTURE_NO_RAPL };
  MgMetricDef *power = gui_fixture_def ("rapl_power", "CPU power", "W", MG_METRIC_TYPE_ENERGY, NULL);
  MgMetricDef *spare = gui_fixture_def ("spare", "spare_cpu", "%", MG_METRIC_TYPE_CPU_TIME, NULL);
  guint p;

  add_def (builder, gui_fixture_def ("cpu", "CPU time", "%", MG_METRIC_TYPE_CPU_TIME, NULL));
  power->source_ref = g_strdup ("energy");
  add_def (builder, power);
  add_def (builder, spare);
  add_group (builder, gui_fixture_group ("cpu_time", "CPU Time", "Where the CPU time went", cpu));
  add_group (builder, gui_fixture_group ("energy", "Energy", "Power use", energy));
  p = add_process (builder, 600, -1, 1.0, MG_PROCESS_END_EXITED, 0);
  add_samples (builder, p, 100, 3, failed_plugin_value);
  mg_profile_builder_add_plugin_error (builder, &failed);
  return finish (builder);
}
