/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A profile of known activity phases. */
#include "activity-fixture.h"

#include "profile/mg-profile-builder.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"
#include "stacks-fixture.h"

/* The metrics in plugins/activity.xml's order: main then threads, each
 * computing, mpi, io, sleep, lock, other. */
static const char *const suffixes[] = { "computing", "mpi", "io", "sleep", "lock", "other" };
#define N_SUFFIXES G_N_ELEMENTS (suffixes)

static MgMetricDef *
make_def (const char *scope, guint i)
{
  MgMetricDef *def = mg_metric_def_new ();

  def->id = g_strdup_printf ("org.metrograph.activity.%s.%s", scope, suffixes[i]);
  def->display_name = g_strdup_printf ("%s: %s", scope, suffixes[i]);
  g_free (def->units);
  def->units = g_strdup ("%");
  def->type = MG_METRIC_TYPE_OTHER;
  def->data_type = MG_DATA_TYPE_DOUBLE;
  return def;
}

/* Process p's main-thread values in window w (percent per suffix). */
static void
main_values (guint p, guint w, guint n_windows, double *v)
{
  guint phase = w * 4 / n_windows;

  for (guint i = 0; i < N_SUFFIXES; i++)
    v[i] = 0;
  switch (phase)
    {
    case 0:
      v[0] = p == 1 ? 50 : 100;
      v[1] = p == 1 ? 50 : 0;
      break;
    case 1:
      v[1] = 100;
      break;
    case 2:
      v[3] = 100;
      break;
    default:
      v[2] = 100;
      break;
    }
}

/* A group as plugins/activity.xml has them ("mainThreadActivity", ...),
 * or the fixture's first group, of its one other metric. */
static void
add_group (MgProfileBuilder *builder, const char *id, const char *name, const char *scope)
{
  g_autoptr (MgMetricGroup) group = mg_metric_group_new ();

  group->id = g_strdup (id);
  group->display_name = g_strdup (name);
  group->description = g_strdup_printf ("What %s was doing.", name);
  for (guint i = 0; i < N_SUFFIXES; i++)
    g_ptr_array_add (group->metric_refs,
                     scope != NULL
                       ? g_strdup_printf ("org.metrograph.activity.%s.%s", scope, suffixes[i])
                       : g_strdup ("memory"));
  if (scope == NULL)
    g_ptr_array_set_size (group->metric_refs, 1);
  mg_profile_builder_add_group (builder, group);
}

MgProfile *
activity_fixture_profile (guint n_processes)
{
  return activity_fixture_profile_sized (n_processes, ACTIVITY_FIXTURE_WINDOWS);
}

MgProfile *
activity_fixture_profile_sized (guint n_processes, guint n_windows)
{
  g_autoptr (MgProfileBuilder) builder = mg_profile_builder_new ();
  const char *argv[] = { "./phases", NULL };
  double dt = ACTIVITY_FIXTURE_DURATION / n_windows;
  double values[2 * N_SUFFIXES + 1];
  g_autoptr (GError) error = NULL;
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/tmp");
  mg_profile_builder_set_start_time (builder, 1700000000000000);
  mg_profile_builder_set_interval (builder, dt * 1000, dt * 1000, n_windows);
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < N_SUFFIXES; i++)
      {
        g_autoptr (MgMetricDef) def = make_def (s == 0 ? "main" : "threads", i);
        mg_profile_builder_add_metric (builder, def);
      }
  {
    g_autoptr (MgMetricDef) def = mg_metric_def_new ();

    def->id = g_strdup ("memory");
    def->display_name = g_strdup ("Memory");
    def->type = MG_METRIC_TYPE_MEMORY;
    def->data_type = MG_DATA_TYPE_DOUBLE;
    mg_profile_builder_add_metric (builder, def);
  }
  add_group (builder, "memoryGroup", "Default", NULL);
  add_group (builder, "mainThreadActivity", "Main thread activity", "main");
  add_group (builder, "allThreadsActivity", "All threads activity", "threads");
  for (guint p = 0; p < n_processes; p++)
    {
      MgProcessInfo info = {
        .pid = 2000 + (int) p, .ppid = 1, .rank = (int) p, .host = (char *) "node1",
        .program = (char *) "./phases", .start_s = 0, .end_s = ACTIVITY_FIXTURE_DURATION,
        .end = MG_PROCESS_END_EXITED,
      };
      mg_profile_builder_add_process (builder, &info);
    }
  for (guint p = 0; p < n_processes; p++)
    for (guint w = 0; w < n_windows; w++)
      {
        main_values (MIN (p, 1), w, n_windows, values);
        for (guint i = 0; i < N_SUFFIXES; i++)
          values[N_SUFFIXES + i] = i == 0 || i == 4 ? 50 : 0;
        values[2 * N_SUFFIXES] = 1e6 * (w + 1);
        mg_profile_builder_add_sample (builder, p, w * dt, (w + 1) * dt, values, values, values);
      }
  profile = mg_profile_builder_finish (builder, n_windows, &error);
  g_assert_no_error (error);
  return profile;
}

/* Process 0's stacks: one frame outside every module per thread, and
 * another where it waits in MPI. */
static const struct {
  const char *frames, *options;
} threads_stacks[] = {
  { "0x1000", "thread 0" }, { "0x1001", "thread 0 mpi" }, { "0x1010", "thread 1" },
  { "0x1020", "thread 2" }, { "0x1021", "thread 2 mpi" },
};

/* Which of process 0's stacks (threads_stacks) thread takes in window w,
 * -1 for none: the phases of activity-fixture.h. */
static int
thread_stack_at (guint thread, guint w, guint n_windows)
{
  guint phase = w * 4 / n_windows;

  switch (thread)
    {
    case 0: /* computing, MPI, then nothing (asleep, in I/O) */
      return phase == 0 ? 0 : phase == 1 ? 1 : -1;
    case 1: /* computing throughout */
      return 2;
    default: /* computing, MPI, off CPU, computing */
      return phase == 0 || phase == 3 ? 3 : phase == 1 ? 4 : -1;
    }
}

MgProfile *
activity_fixture_threads_profile (void)
{
  MgProfile *profile = activity_fixture_profile (1);
  guint n = ACTIVITY_FIXTURE_WINDOWS;
  g_autoptr (GString) description = g_string_new ("process 0\n");

  g_string_append_printf (description,
                          "windows %u over " G_STRINGIFY (ACTIVITY_FIXTURE_DURATION) "\n", n);
  for (guint s = 0; s < G_N_ELEMENTS (threads_stacks); s++)
    g_string_append_printf (description, "stack %s %s\n", threads_stacks[s].frames,
                            threads_stacks[s].options);
  for (guint w = 0; w < n; w++)
    for (guint t = 0; t < ACTIVITY_FIXTURE_THREADS; t++)
      {
        int s = thread_stack_at (t, w, n);

        /* One sample a window: one per interval. */
        if (s >= 0)
          g_string_append_printf (description, "%u %s 1 %s\n", w, threads_stacks[s].frames,
                                  threads_stacks[s].options);
      }
  stacks_fixture_set (profile, description->str);
  return profile;
}
