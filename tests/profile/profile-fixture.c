/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include <math.h>

#include "profile-fixture.h"

MgMetricDef *
profile_fixture_metric (const char *id, MgDomain domain)
{
  MgMetricDef *def = mg_metric_def_new ();

  def->id = g_strdup (id);
  def->domain = domain;
  def->display_name = g_strdup_printf ("Metric %s", id);
  def->description = g_strdup ("A <b>described</b> metric<br>with HTML");
  g_free (def->units);
  def->units = g_strdup ("B/s");
  def->data_type = MG_DATA_TYPE_DOUBLE;
  def->source_ref = g_strdup ("com.example.source");
  def->function_name = g_strdup ("get_value");
  def->divide_by_sample_time = TRUE;
  def->custom_data = g_strdup ("custom");
  def->type_name = g_strdup ("interrupts");
  def->type = MG_METRIC_TYPE_IO;
  def->colour_spec = g_strdup ("#336699");
  def->has_colour = TRUE;
  def->colour = (MgRgba) { 0.2, 0.4, 0.6, 1.0 };
  def->display_factor = 0.001;
  def->display_units = g_strdup ("kB/s");
  def->decimal_places = 2;
  def->accumulate = TRUE;
  def->clamp_percentages = TRUE;
  def->integral_name = g_strdup ("total");
  def->file = g_strdup ("/defs/example.xml");
  def->line = 42;
  def->one_per_node = domain == MG_DOMAIN_SINGLE_VALUE;
  return def;
}

MgProfile *
profile_fixture_profile (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) alpha = profile_fixture_metric ("alpha", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) beta = profile_fixture_metric ("beta", MG_DOMAIN_TIME);
  g_autoptr(MgMetricDef) gamma = profile_fixture_metric ("gamma", MG_DOMAIN_SINGLE_VALUE);
  g_autoptr(MgMetricGroup) group = mg_metric_group_new ();
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "./app", "a b", "--x=\"1\"", NULL };
  MgProcessInfo p0 = { 10, 1, 0, (char *) "node-a", (char *) "/bin/app", 0.0, 4.0,
                       MG_PROCESS_END_EXITED, 0, TRUE };
  MgProcessInfo p1 = { 11, 1, 1, (char *) "node-b", (char *) "/bin/app", 0.5, 3.0,
                       MG_PROCESS_END_SIGNALLED, 9, TRUE };
  MgPluginError pe = { 1, (char *) "com.example.source", (char *) "/lib/libx.so", -3,
                       (char *) "initialise failed" };
  MgMetricError me = { 0, (char *) "alpha", 7, (char *) "read failed", 2, 1.0, 2.0 };
  MgProcessEvent e0 = { 1, 3.0, MG_EVENT_SIGNAL, 9, NULL };
  MgProcessEvent e1 = { 0, 3.5, MG_EVENT_RECORDING_STOPPED, 28, (char *) "disk full" };
  MgProfile *profile;

  mg_profile_builder_set_command (builder, argv, "/home/user/work");
  mg_profile_builder_set_start_time (builder, 1763791200123456);
  mg_profile_builder_set_interval (builder, 20.0, 80.0, 512);
  mg_profile_builder_set_exit_status (builder, 137);
  mg_profile_builder_set_output (builder, "starting\nrank 1: ü done\n", 12);
  mg_profile_builder_add_metric (builder, alpha);
  mg_profile_builder_add_metric (builder, beta);
  mg_profile_builder_add_metric (builder, gamma);
  group->id = g_strdup ("example_group");
  group->display_name = g_strdup ("Example");
  group->description = g_strdup ("Group description");
  group->file = g_strdup ("/defs/example.xml");
  group->line = 7;
  g_ptr_array_add (group->metric_refs, g_strdup ("alpha"));
  g_ptr_array_add (group->metric_refs, g_strdup ("gamma"));
  mg_profile_builder_add_group (builder, group);

  mg_profile_builder_add_process (builder, &p0);
  mg_profile_builder_add_process (builder, &p1);
  for (int k = 0; k < 4; k++)
    {
      double mins[3] = { k, 10 * k, NAN }, maxs[3] = { k + 2, 10 * k + 1, NAN },
             means[3] = { k + 1, 10 * k + 0.5, NAN };

      mg_profile_builder_add_sample (builder, 0, k, k + 1, mins, maxs, means);
    }
  for (int k = 0; k < 2; k++)
    {
      double mins[3] = { 5, NAN, NAN }, maxs[3] = { 6, NAN, NAN },
             means[3] = { k == 0 ? 5.5 : NAN, NAN, NAN };

      mg_profile_builder_add_sample (builder, 1, 0.5 + k * 1.25, 0.5 + (k + 1) * 1.25, mins,
                                     maxs, means);
    }
  mg_profile_builder_set_single_value (builder, 0, 2, 1024.0);
  mg_profile_builder_set_single_value (builder, 1, 2, 2048.0);
  mg_profile_builder_add_plugin_error (builder, &pe);
  mg_profile_builder_add_metric_error (builder, &me);
  mg_profile_builder_add_event (builder, &e0);
  mg_profile_builder_add_event (builder, &e1);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  return profile;
}

static void
assert_same_double (double a, double b)
{
  if (isnan (a) || isnan (b))
    g_assert_true (isnan (a) && isnan (b));
  else
    g_assert_cmpfloat (a, ==, b);
}

static void
assert_same_doubles (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    assert_same_double (a[i], b[i]);
}

static void
assert_metrics_equal (const MgMetricDef *a, const MgMetricDef *b)
{
  g_assert_cmpstr (a->id, ==, b->id);
  g_assert_cmpint (a->enabled, ==, b->enabled);
  g_assert_cmpstr (a->units, ==, b->units);
  g_assert_cmpint (a->data_type, ==, b->data_type);
  g_assert_cmpint (a->domain, ==, b->domain);
  g_assert_cmpint (a->one_per_node, ==, b->one_per_node);
  g_assert_cmpint (a->backfill, ==, b->backfill);
  g_assert_cmpint (a->sparse, ==, b->sparse);
  g_assert_cmpstr (a->source_ref, ==, b->source_ref);
  g_assert_cmpstr (a->function_name, ==, b->function_name);
  g_assert_cmpint (a->divide_by_sample_time, ==, b->divide_by_sample_time);
  g_assert_cmpstr (a->custom_data, ==, b->custom_data);
  g_assert_cmpstr (a->config_env, ==, b->config_env);
  g_assert_cmpstr (a->display_name, ==, b->display_name);
  g_assert_cmpstr (a->description, ==, b->description);
  g_assert_cmpstr (a->type_name, ==, b->type_name);
  g_assert_cmpint (a->type, ==, b->type);
  g_assert_cmpstr (a->colour_spec, ==, b->colour_spec);
  g_assert_cmpint (a->has_colour, ==, b->has_colour);
  g_assert_cmpfloat (a->colour.r, ==, b->colour.r);
  g_assert_cmpfloat (a->colour.g, ==, b->colour.g);
  g_assert_cmpfloat (a->colour.b, ==, b->colour.b);
  g_assert_cmpfloat (a->colour.a, ==, b->colour.a);
  g_assert_cmpfloat (a->display_factor, ==, b->display_factor);
  g_assert_cmpstr (a->display_units, ==, b->display_units);
  g_assert_cmpint (a->decimal_places, ==, b->decimal_places);
  g_assert_cmpint (a->auto_display_factor, ==, b->auto_display_factor);
  g_assert_cmpint (a->accumulate, ==, b->accumulate);
  g_assert_cmpint (a->normalize_percentages, ==, b->normalize_percentages);
  g_assert_cmpint (a->clamp_percentages, ==, b->clamp_percentages);
  g_assert_cmpstr (a->integral_name, ==, b->integral_name);
  g_assert_cmpstr (a->file, ==, b->file);
  g_assert_cmpint (a->line, ==, b->line);
}

static void
assert_run_equal (const MgRunInfo *a, const MgRunInfo *b)
{
  g_assert_true (g_strv_equal ((const char *const *) a->argv, (const char *const *) b->argv));
  g_assert_cmpstr (a->working_dir, ==, b->working_dir);
  g_assert_true (g_strv_equal ((const char *const *) a->hosts, (const char *const *) b->hosts));
  g_assert_cmpint (a->start_time_us, ==, b->start_time_us);
  g_assert_cmpfloat (a->duration_s, ==, b->duration_s);
  g_assert_cmpuint (a->n_processes, ==, b->n_processes);
  g_assert_cmpuint (a->n_nodes, ==, b->n_nodes);
  g_assert_cmpfloat (a->interval_start_ms, ==, b->interval_start_ms);
  g_assert_cmpfloat (a->interval_end_ms, ==, b->interval_end_ms);
  g_assert_cmpuint (a->max_samples, ==, b->max_samples);
  g_assert_cmpint (a->exit_status, ==, b->exit_status);
  g_assert_cmpstr (a->metrograph_version, ==, b->metrograph_version);
  g_assert_cmpstr (a->output, ==, b->output);
  g_assert_cmpuint (a->output_cut, ==, b->output_cut);
}

static void
assert_processes_equal (MgProfile *a, MgProfile *b)
{
  guint n_metrics = mg_profile_get_n_metrics (a);

  g_assert_cmpuint (mg_profile_get_n_processes (a), ==, mg_profile_get_n_processes (b));
  for (guint p = 0; p < mg_profile_get_n_processes (a); p++)
    {
      const MgProcessInfo *x = mg_profile_get_process (a, p), *y = mg_profile_get_process (b, p);

      g_assert_cmpint (x->pid, ==, y->pid);
      g_assert_cmpint (x->ppid, ==, y->ppid);
      g_assert_cmpint (x->rank, ==, y->rank);
      g_assert_cmpstr (x->host, ==, y->host);
      g_assert_cmpstr (x->program, ==, y->program);
      g_assert_cmpfloat (x->start_s, ==, y->start_s);
      g_assert_cmpfloat (x->end_s, ==, y->end_s);
      g_assert_cmpint (x->end, ==, y->end);
      g_assert_cmpint (x->status, ==, y->status);
      g_assert_cmpint (x->node_leader, ==, y->node_leader);
      for (guint m = 0; m < n_metrics; m++)
        {
          const MgProcessSeries *s = mg_profile_get_process_series (a, p, m);
          const MgProcessSeries *t = mg_profile_get_process_series (b, p, m);

          g_assert_cmpuint (s->n, ==, t->n);
          assert_same_doubles (s->times, t->times, s->n);
          assert_same_doubles (s->mins, t->mins, s->n);
          assert_same_doubles (s->maxs, t->maxs, s->n);
          assert_same_doubles (s->means, t->means, s->n);
        }
    }
}

static void
assert_lists_equal (MgProfile *a, MgProfile *b)
{
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (a), ==, mg_profile_get_n_plugin_errors (b));
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (a); i++)
    {
      const MgPluginError *x = mg_profile_get_plugin_error (a, i);
      const MgPluginError *y = mg_profile_get_plugin_error (b, i);

      g_assert_cmpint (x->process, ==, y->process);
      g_assert_cmpstr (x->source_id, ==, y->source_id);
      g_assert_cmpstr (x->library, ==, y->library);
      g_assert_cmpint (x->code, ==, y->code);
      g_assert_cmpstr (x->message, ==, y->message);
    }
  g_assert_cmpuint (mg_profile_get_n_metric_errors (a), ==, mg_profile_get_n_metric_errors (b));
  for (guint i = 0; i < mg_profile_get_n_metric_errors (a); i++)
    {
      const MgMetricError *x = mg_profile_get_metric_error (a, i);
      const MgMetricError *y = mg_profile_get_metric_error (b, i);

      g_assert_cmpint (x->process, ==, y->process);
      g_assert_cmpstr (x->metric_id, ==, y->metric_id);
      g_assert_cmpint (x->code, ==, y->code);
      g_assert_cmpstr (x->message, ==, y->message);
      g_assert_cmpuint (x->count, ==, y->count);
      g_assert_cmpfloat (x->first_s, ==, y->first_s);
      g_assert_cmpfloat (x->last_s, ==, y->last_s);
    }
  g_assert_cmpuint (mg_profile_get_n_events (a), ==, mg_profile_get_n_events (b));
  for (guint i = 0; i < mg_profile_get_n_events (a); i++)
    {
      const MgProcessEvent *x = mg_profile_get_event (a, i), *y = mg_profile_get_event (b, i);

      g_assert_cmpint (x->process, ==, y->process);
      g_assert_cmpfloat (x->time_s, ==, y->time_s);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->status, ==, y->status);
      g_assert_cmpstr (x->message, ==, y->message);
    }
}

void
profile_fixture_assert_profiles_equal (MgProfile *a, MgProfile *b)
{
  guint n_metrics = mg_profile_get_n_metrics (a);
  guint n = mg_profile_get_n_windows (a);

  assert_run_equal (mg_profile_get_run_info (a), mg_profile_get_run_info (b));
  g_assert_cmpuint (n_metrics, ==, mg_profile_get_n_metrics (b));
  for (guint m = 0; m < n_metrics; m++)
    assert_metrics_equal (mg_profile_get_metric (a, m), mg_profile_get_metric (b, m));
  g_assert_cmpuint (mg_profile_get_n_groups (a), ==, mg_profile_get_n_groups (b));
  for (guint i = 0; i < mg_profile_get_n_groups (a); i++)
    {
      const MgMetricGroup *x = mg_profile_get_group (a, i), *y = mg_profile_get_group (b, i);

      g_assert_cmpstr (x->id, ==, y->id);
      g_assert_cmpstr (x->display_name, ==, y->display_name);
      g_assert_cmpstr (x->description, ==, y->description);
      g_assert_cmpstr (x->file, ==, y->file);
      g_assert_cmpint (x->line, ==, y->line);
      g_assert_cmpuint (x->metric_refs->len, ==, y->metric_refs->len);
      for (guint r = 0; r < x->metric_refs->len; r++)
        g_assert_cmpstr (g_ptr_array_index (x->metric_refs, r), ==,
                         g_ptr_array_index (y->metric_refs, r));
    }

  g_assert_cmpuint (n, ==, mg_profile_get_n_windows (b));
  assert_same_doubles (mg_profile_get_window_starts (a), mg_profile_get_window_starts (b), n);
  assert_same_doubles (mg_profile_get_window_ends (a), mg_profile_get_window_ends (b), n);
  for (guint m = 0; m < n_metrics; m++)
    {
      const MgSeries *s = mg_profile_get_series (a, m), *t = mg_profile_get_series (b, m);
      const MgSingleValue *u = mg_profile_get_single_value (a, m);
      const MgSingleValue *v = mg_profile_get_single_value (b, m);

      g_assert_true ((s == NULL) == (t == NULL));
      g_assert_true ((u == NULL) == (v == NULL));
      if (s != NULL)
        {
          assert_same_doubles (s->mins, t->mins, n);
          assert_same_doubles (s->maxs, t->maxs, n);
          assert_same_doubles (s->means, t->means, n);
          assert_same_doubles (s->vars, t->vars, n);
          assert_same_doubles (s->sums, t->sums, n);
          for (guint w = 0; w < n; w++)
            {
              g_assert_cmpint (s->min_process[w], ==, t->min_process[w]);
              g_assert_cmpint (s->max_process[w], ==, t->max_process[w]);
            }
        }
      if (u != NULL)
        {
          assert_same_double (u->min, v->min);
          assert_same_double (u->max, v->max);
          assert_same_double (u->mean, v->mean);
          assert_same_double (u->var, v->var);
          assert_same_double (u->sum, v->sum);
          g_assert_cmpuint (u->count, ==, v->count);
        }
    }
  assert_processes_equal (a, b);
  assert_lists_equal (a, b);
}
