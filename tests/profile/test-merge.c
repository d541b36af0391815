/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Merging hand-made records into a profile. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "format/mg-record-stacks.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-merge.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-set.h"
#include "profile-fixture.h"
#include "record-fixture.h"
#include "mg-test-common.h"

#define S 1000000000LL

static char *
make_dir (void)
{
  return g_dir_make_tmp ("mg-merge-XXXXXX", NULL);
}


/* Record metrics: alpha, zeta (not enabled: ignored), gamma (single value). */
static RecordFixture *
record_a (void)
{
  RecordFixture *r = record_fixture_new (2, 3, 16);
  MgRecordHeader *h = record_fixture_header (r);
  MgRecordPlugin *failed = record_fixture_plugin (r, 1);
  MgRecordMetric *alpha = record_fixture_metric (r, 0);

  h->pid = 100;
  h->ppid = 1;
  g_strlcpy (h->host, "h1", sizeof h->host);
  g_strlcpy (h->program, "/bin/prog", sizeof h->program);
  g_strlcpy (h->run_id, "run", sizeof h->run_id);
  h->start_mono_ns = 1 * S;
  h->start_real_ns = 1700000000 * S;
  h->end_mono_ns = 4 * S;
  h->state = MG_RECORD_STATE_EXITED;
  h->end_status = 0;
  h->flags = MG_RECORD_FLAG_NODE_LEADER;
  g_strlcpy (record_fixture_plugin (r, 0)->source_id, "good", MG_RECORD_ID_LEN);
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_ACTIVE;
  g_strlcpy (failed->source_id, "broken", MG_RECORD_ID_LEN);
  g_strlcpy (failed->library, "/lib/libbroken.so", MG_RECORD_PATH_LEN);
  g_strlcpy (failed->error, "cannot open shared object", MG_RECORD_MSG_LEN);
  failed->state = MG_PLUGIN_STATE_LOAD_FAILED;
  failed->error_code = 2;
  g_strlcpy (alpha->id, "alpha", MG_RECORD_ID_LEN);
  alpha->flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  alpha->error_code = 5;
  alpha->error_count = 2;
  alpha->first_error_ns = 1 * S + S / 2;
  alpha->last_error_ns = 2 * S + S / 2;
  g_strlcpy (alpha->error, "bad read", MG_RECORD_MSG_LEN);
  g_strlcpy (record_fixture_metric (r, 1)->id, "zeta", MG_RECORD_ID_LEN);
  g_strlcpy (record_fixture_metric (r, 2)->id, "gamma", MG_RECORD_ID_LEN);
  for (int k = 0; k < 3; k++)
    {
      double v[3] = { 10.0 * (k + 1), 99.0, 512.0 };

      record_fixture_add_sample (r, (1 + k) * S, (2 + k) * S, v);
    }
  return r;
}

static RecordFixture *
record_b (void)
{
  RecordFixture *r = record_fixture_new (1, 2, 16);
  MgRecordHeader *h = record_fixture_header (r);
  double v0[2] = { 1024.0, 40.0 }, v1[2] = { 1024.0, NAN };

  h->pid = 101;
  h->ppid = 100;
  g_strlcpy (h->host, "h1", sizeof h->host);
  g_strlcpy (h->program, "/bin/child", sizeof h->program);
  g_strlcpy (h->run_id, "run", sizeof h->run_id);
  h->start_mono_ns = S + S / 2;
  /* A wall clock that disagrees: same host, so the monotonic clock wins. */
  h->start_real_ns = 1700000000 * S + 7 * S;
  h->end_mono_ns = 3 * S + S / 2;
  h->state = MG_RECORD_STATE_SIGNALLED;
  h->end_status = 11;
  h->flags = MG_RECORD_FLAG_STOPPED;
  h->record_error_code = 28;
  g_strlcpy (h->record_error, "No space left on device", sizeof h->record_error);
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_NOT_LEADER;
  /* Metrics in another order than record A's. */
  g_strlcpy (record_fixture_metric (r, 0)->id, "gamma", MG_RECORD_ID_LEN);
  g_strlcpy (record_fixture_metric (r, 1)->id, "alpha", MG_RECORD_ID_LEN);
  record_fixture_add_sample (r, S + S / 2, 2 * S + S / 2, v0);
  record_fixture_add_sample (r, 2 * S + S / 2, 3 * S + S / 2, v1);
  return r;
}

static GPtrArray *
input_metrics (void)
{
  GPtrArray *metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);

  g_ptr_array_add (metrics, profile_fixture_metric ("alpha", MG_DOMAIN_TIME));
  g_ptr_array_add (metrics, profile_fixture_metric ("gamma", MG_DOMAIN_SINGLE_VALUE));
  return metrics;
}

static MgProfile *
merge_dir_windows (const char *dir, const char *run_id, guint n_windows, GError **error)
{
  g_autoptr(GPtrArray) metrics = input_metrics ();
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_group_free);
  MgMetricGroup *group = mg_metric_group_new ();
  const char *argv[] = { "prog", "arg", NULL };
  MgMergeInput input = { metrics, groups, argv, "/work", 0, 139, run_id, n_windows };

  group->id = g_strdup ("grp");
  g_ptr_array_add (group->metric_refs, g_strdup ("alpha"));
  g_ptr_array_add (groups, group);
  return mg_merge_records (dir, &input, error);
}

static MgProfile *
merge_dir (const char *dir, const char *run_id, GError **error)
{
  return merge_dir_windows (dir, run_id, 0, error);
}

static void
test_merge_two_processes (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "h1.100.1.mgrec", NULL);
  g_autofree char *pb = g_build_filename (dir, "h1.101.2.mgrec", NULL);
  g_autoptr(RecordFixture) a = record_a ();
  g_autoptr(RecordFixture) b = record_b ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgRunInfo *run;
  const MgSeries *s;
  const MgSingleValue *g;
  const MgProcessInfo *p1;
  const MgPluginError *pe;
  const MgMetricError *me;

  /* B's file sorts first by name; the process order is by start time. */
  record_fixture_write (b, pa);
  record_fixture_write (a, pb);
  profile = merge_dir (dir, "run", &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);

  run = mg_profile_get_run_info (profile);
  g_assert_cmpuint (run->n_processes, ==, 2);
  g_assert_cmpuint (run->n_nodes, ==, 1);
  g_assert_cmpstr (run->hosts[0], ==, "h1");
  g_assert_cmpfloat_with_epsilon (run->duration_s, 3.0, 1e-9);
  g_assert_cmpint (run->exit_status, ==, 139);
  g_assert_cmpint (run->start_time_us, ==, 1700000000LL * 1000000);
  g_assert_cmpfloat (run->interval_start_ms, ==, 20.0);
  g_assert_cmpuint (run->max_samples, ==, 16);
  g_assert_cmpstr (run->argv[1], ==, "arg");
  g_assert_cmpstr (run->working_dir, ==, "/work");
  g_assert_cmpuint (mg_profile_get_n_groups (profile), ==, 1);
  g_assert_cmpstr (mg_profile_get_group (profile, 0)->id, ==, "grp");
  g_assert_cmpuint (mg_profile_get_n_metrics (profile), ==, 2);
  g_assert_cmpint (mg_profile_find_metric (profile, "zeta"), ==, -1);

  g_assert_cmpint (mg_profile_get_process (profile, 0)->pid, ==, 100);
  g_assert_true (mg_profile_get_process (profile, 0)->node_leader);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->end, ==, MG_PROCESS_END_EXITED);
  p1 = mg_profile_get_process (profile, 1);
  g_assert_cmpint (p1->pid, ==, 101);
  g_assert_cmpint (p1->end, ==, MG_PROCESS_END_SIGNALLED);
  g_assert_cmpint (p1->status, ==, 11);
  g_assert_cmpfloat_with_epsilon (p1->start_s, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (p1->end_s, 2.5, 1e-9);
  g_assert_cmpstr (p1->program, ==, "/bin/child");

  /* Windows (0,1], (1,2], (2,3]; A: 10, 20, 30; B: 40 over (0.5,1.5]. */
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 3);
  s = mg_profile_get_series (profile, 0);
  g_assert_cmpfloat (s->mins[0], ==, 10.0);
  g_assert_cmpint (s->min_process[0], ==, 0);
  g_assert_cmpfloat (s->maxs[0], ==, 40.0);
  g_assert_cmpint (s->max_process[0], ==, 1);
  g_assert_cmpfloat_with_epsilon (s->means[0], 25.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->vars[0], 225.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->sums[0], 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->means[1], 30.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->vars[1], 100.0, 1e-9);
  g_assert_cmpfloat (s->mins[2], ==, 30.0);
  g_assert_cmpfloat (s->maxs[2], ==, 30.0);
  g_assert_cmpfloat (s->vars[2], ==, 0.0);
  g_assert_cmpint (s->min_process[2], ==, 0);
  g_assert_cmpint (s->max_process[2], ==, 0);
  g_assert_cmpuint (mg_profile_get_process_series (profile, 1, 0)->n, ==, 2);
  g_assert_cmpfloat (mg_profile_get_process_series (profile, 1, 0)->means[0], ==, 40.0);
  g_assert_true (isnan (mg_profile_get_process_series (profile, 1, 0)->means[1]));

  g = mg_profile_get_single_value (profile, 1);
  g_assert_cmpuint (g->count, ==, 2);
  g_assert_cmpfloat (g->min, ==, 512.0);
  g_assert_cmpfloat (g->max, ==, 1024.0);
  g_assert_cmpfloat (g->mean, ==, 768.0);
  g_assert_cmpfloat (g->sum, ==, 1536.0);
  g_assert_cmpfloat (g->var, ==, 65536.0);

  /* Only the failed load is an error; NOT_LEADER and ACTIVE are not. */
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), ==, 1);
  pe = mg_profile_get_plugin_error (profile, 0);
  g_assert_cmpint (pe->process, ==, 0);
  g_assert_cmpstr (pe->source_id, ==, "broken");
  g_assert_cmpstr (pe->library, ==, "/lib/libbroken.so");
  g_assert_cmpstr (pe->message, ==, "cannot open shared object");
  g_assert_cmpint (pe->code, ==, 2);
  g_assert_cmpuint (mg_profile_get_n_metric_errors (profile), ==, 1);
  me = mg_profile_get_metric_error (profile, 0);
  g_assert_cmpint (me->process, ==, 0);
  g_assert_cmpstr (me->metric_id, ==, "alpha");
  g_assert_cmpuint (me->count, ==, 2);
  g_assert_cmpfloat_with_epsilon (me->first_s, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (me->last_s, 1.5, 1e-9);
  g_assert_cmpstr (me->message, ==, "bad read");

  /* start, exit (A); start, signal, recording stopped (B). */
  g_assert_cmpuint (mg_profile_get_n_events (profile), ==, 5);
  g_assert_cmpint (mg_profile_get_event (profile, 1)->kind, ==, MG_EVENT_EXIT);
  g_assert_cmpfloat_with_epsilon (mg_profile_get_event (profile, 1)->time_s, 3.0, 1e-9);
  g_assert_cmpint (mg_profile_get_event (profile, 2)->process, ==, 1);
  g_assert_cmpint (mg_profile_get_event (profile, 3)->kind, ==, MG_EVENT_SIGNAL);
  g_assert_cmpint (mg_profile_get_event (profile, 3)->status, ==, 11);
  g_assert_cmpint (mg_profile_get_event (profile, 4)->kind, ==, MG_EVENT_RECORDING_STOPPED);
  g_assert_cmpstr (mg_profile_get_event (profile, 4)->message, ==, "No space left on device");
  g_assert_cmpint (mg_profile_get_event (profile, 4)->status, ==, 28);
  mg_test_remove_tree (dir);
}

static void
test_merge_filters_and_damage (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "a.mgrec", NULL);
  g_autofree char *pb = g_build_filename (dir, "b.mgrec", NULL);
  g_autofree char *bad = g_build_filename (dir, "c.mgrec", NULL);
  g_autofree char *other = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(RecordFixture) a = record_a ();
  g_autoptr(RecordFixture) b = record_b ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgPluginError *pe;

  g_strlcpy (record_fixture_header (b)->run_id, "another-run", MG_RECORD_ID_LEN);
  record_fixture_write (a, pa);
  record_fixture_write (b, pb);
  g_assert_true (g_file_set_contents (bad, "garbage", -1, NULL));
  g_assert_true (g_file_set_contents (other, "ignored", -1, NULL));
  profile = merge_dir (dir, "run", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  /* The damaged record is reported by the front end (process -1). */
  g_assert_cmpuint (mg_profile_get_n_plugin_errors (profile), ==, 2);
  pe = mg_profile_get_plugin_error (profile, 0);
  g_assert_cmpint (pe->process, ==, -1);
  g_assert_nonnull (strstr (pe->message, "c.mgrec"));
  mg_test_remove_tree (dir);
}

/* A window count asked for: (0,1.5], (1.5,3]. */
static void
test_merge_window_count (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "a.mgrec", NULL);
  g_autoptr(RecordFixture) a = record_a ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  const MgSeries *s;

  record_fixture_write (a, pa);
  profile = merge_dir_windows (dir, NULL, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 2);
  s = mg_profile_get_series (profile, 0);
  /* 1 s of 10 and 0.5 s of 20; then 0.5 s of 20 and 1 s of 30. */
  g_assert_cmpfloat_with_epsilon (s->means[0], 40.0 / 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (s->means[1], 80.0 / 3.0, 1e-9);
  mg_test_remove_tree (dir);
}

static void
test_merge_killed (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "a.mgrec", NULL);
  g_autoptr(RecordFixture) a = record_a ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;

  record_fixture_header (a)->state = MG_RECORD_STATE_RUNNING;
  record_fixture_header (a)->end_mono_ns = 0;
  record_fixture_write (a, pa);
  profile = merge_dir (dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mg_profile_get_process (profile, 0)->end, ==, MG_PROCESS_END_UNKNOWN);
  /* The end is the last sample. */
  g_assert_cmpfloat_with_epsilon (mg_profile_get_process (profile, 0)->end_s, 3.0, 1e-9);
  g_assert_cmpint (mg_profile_get_event (profile, 1)->kind, ==, MG_EVENT_SIGNAL);
  g_assert_nonnull (strstr (mg_profile_get_event (profile, 1)->message, "without a trace"));
  mg_test_remove_tree (dir);
}

/* A record whose alpha getter (get_value) was called 1.2 s after the
 * process started and has not returned. */
static RecordFixture *
record_hung (const char *host, gint64 start_mono_ns, gint64 end_mono_ns)
{
  RecordFixture *r = record_fixture_new (1, 1, 16);
  MgRecordHeader *h = record_fixture_header (r);
  MgRecordMetric *alpha = record_fixture_metric (r, 0);
  double v[1] = { 1.0 };

  h->pid = 200;
  g_strlcpy (h->host, host, sizeof h->host);
  g_strlcpy (h->run_id, "run", sizeof h->run_id);
  h->start_mono_ns = start_mono_ns;
  h->start_real_ns = 1700000000 * S;
  h->end_mono_ns = end_mono_ns;
  h->state = end_mono_ns != 0 ? MG_RECORD_STATE_SIGNALLED : MG_RECORD_STATE_RUNNING;
  h->end_status = end_mono_ns != 0 ? 9 : 0;
  h->interval_start_ns = h->interval_ns = S / 100;
  g_strlcpy (record_fixture_plugin (r, 0)->source_id, "slow.src", MG_RECORD_ID_LEN);
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_ACTIVE;
  g_strlcpy (alpha->id, "alpha", MG_RECORD_ID_LEN);
  alpha->flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  alpha->call_since_ms = 1200 + 1;
  record_fixture_add_sample (r, start_mono_ns, start_mono_ns + S / 2, v);
  record_fixture_add_sample (r, start_mono_ns + S / 2, start_mono_ns + S, v);
  return r;
}

/* The message of the merged profile's plugin fault event, or NULL. */
static char *
merged_hang (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = merge_dir (dir, NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *e = mg_profile_get_event (profile, i);

      if (e->kind == MG_EVENT_PLUGIN_FAULT)
        {
          g_assert_cmpfloat_with_epsilon (e->time_s, 1.2, 1e-9);
          g_assert_cmpint (e->status, ==, 0);
          return g_strdup (e->message);
        }
    }
  return NULL;
}

/* A getter call older than the hang bound (50 intervals of 10 ms, or
 * METROGRAPH_HANG_INTERVALS) is a plugin fault event naming the plugin,
 * the getter and since when: while the process runs on this host (the live
 * view), and in a record ended for a killed process; not below the bound,
 * nor in a record of another host still open (its clock is not ours). */
static void
test_merge_hung_call (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "a.mgrec", NULL);
  gint64 now = g_get_monotonic_time () * 1000;
  g_autofree char *message = NULL;

  {
    g_autoptr(RecordFixture) live = record_hung (g_get_host_name (), now - 3 * S, 0);

    record_fixture_write (live, path);
    message = merged_hang (dir);
    g_assert_nonnull (message);
    g_assert_true (g_str_has_prefix (message, "slow.src hung in get_value since 1.2 s (no return "
                                              "for 1.8"));
    g_clear_pointer (&message, g_free);
    g_setenv ("METROGRAPH_HANG_INTERVALS", "1000", TRUE);
    g_assert_null (merged_hang (dir));
    g_unsetenv ("METROGRAPH_HANG_INTERVALS");
  }
  {
    g_autoptr(RecordFixture) killed = record_hung ("elsewhere", 5 * S, 7 * S);

    record_fixture_write (killed, path);
    message = merged_hang (dir);
    g_assert_cmpstr (message, ==, "slow.src hung in get_value since 1.2 s (no return for 0.8 s)");
    g_clear_pointer (&message, g_free);
  }
  {
    g_autoptr(RecordFixture) remote = record_hung ("elsewhere", now - 3 * S, 0);

    record_fixture_write (remote, path);
    g_assert_null (merged_hang (dir));
  }
  mg_test_remove_tree (dir);
}

static void
test_merge_no_samples (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "a.mgrec", NULL);
  g_autoptr(RecordFixture) empty = record_fixture_new (0, 1, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;

  profile = merge_dir (dir, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES);
  g_assert_nonnull (strstr (error->message, "statically"));
  g_assert_nonnull (strstr (error->message, "LD_PRELOAD"));
  g_clear_error (&error);

  record_fixture_write (empty, pa);
  profile = merge_dir (dir, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NO_SAMPLES);
  g_clear_error (&error);

  /* A record that cannot be read is not "nothing was recorded": its
   * problem is the error, naming it. */
  g_assert_true (g_file_set_contents (pa, "garbage", -1, NULL));
  profile = merge_dir (dir, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_FAILED);
  g_assert_true (g_str_has_prefix (error->message, "No record could be read: The record “"));
  g_assert_nonnull (strstr (error->message, "a.mgrec"));
  g_clear_error (&error);

  profile = merge_dir ("/nonexistent-records", NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  mg_test_remove_tree (dir);
}

/* Records from another host align by the wall clock. */
static void
test_merge_other_host (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *pa = g_build_filename (dir, "a.mgrec", NULL);
  g_autofree char *pb = g_build_filename (dir, "b.mgrec", NULL);
  g_autoptr(RecordFixture) a = record_a ();
  g_autoptr(RecordFixture) b = record_b ();
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;

  g_strlcpy (record_fixture_header (b)->host, "h2", MG_RECORD_HOST_LEN);
  record_fixture_header (b)->start_real_ns = 1700000000 * S + S / 4;
  record_fixture_write (a, pa);
  record_fixture_write (b, pb);
  profile = merge_dir (dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_run_info (profile)->n_nodes, ==, 2);
  g_assert_cmpfloat_with_epsilon (mg_profile_get_process (profile, 1)->start_s, 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (mg_profile_get_process (profile, 1)->end_s, 2.25, 1e-9);
  mg_test_remove_tree (dir);
}

/* A record with call stacks begun in dir for process pid: metric alpha,
 * the program /bin/prog as module 0 (the caller adds the others). */
static void
start_stacks_record (MgRecordWriter *w, const char *dir, int pid)
{
  char err[256];

  g_assert_cmpint (mg_record_create_with_stacks (w, dir, "h1", "run", pid, 1 * S, 0, 1, 16, 8,
                                                 err, sizeof err), ==, 0);
  g_assert_cmpint (mg_record_stacks_reserve (w, err, sizeof err), ==, 0);
  MgRecordHeader *h = w->header;
  MgRecordModule *m = mg_record_stacks_modules (w->stacks);
  h->ppid = 1;
  g_strlcpy (h->program, "/bin/prog", sizeof h->program);
  h->start_real_ns = 1700000000 * S;
  h->interval_start_ns = h->interval_ns = 20000000;
  g_strlcpy (w->metrics[0].id, "alpha", MG_RECORD_ID_LEN);
  w->metrics[0].flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  m[0] = (MgRecordModule) { .start = 0x400000, .end = 0x500000, .load_bias = 0x3ff000 };
  g_strlcpy (m[0].path, "/bin/prog", sizeof m[0].path);
}

/* Slot slot (1 + slot s to 2 + slot s, alpha 1) with the stacks added
 * since the last, committed. */
static void
commit_stacks_slot (MgRecordWriter *w, int slot)
{
  MgRecordSample *sample = mg_record_slot (w, slot);

  sample->t_start_ns = (1 + slot) * S;
  sample->t_end_ns = (2 + slot) * S;
  sample->n_raw = 1;
  mg_record_slot_values (sample)[0] = (MgRecordValue) { 1, 1, 1, 1, 0 };
  mg_record_stacks_drain (w->stacks, slot);
  mg_record_commit (w);
}

/* A record with call stacks: the program and libm mapped, two stacks
 * (one through libm, one outside every module) in two slots, and one
 * sample taken after the last round; process pid. */
static void
write_stacks_record_of (const char *dir, int pid)
{
  MgRecordWriter w;
  uint64_t s1[] = { 0x401234, 0x7f0000000100 };
  uint64_t s2[] = { 0x999 };

  start_stacks_record (&w, dir, pid);
  MgRecordHeader *h = w.header;
  MgRecordStacks *t = w.stacks;
  MgRecordModule *m = mg_record_stacks_modules (t);
  m[1] = (MgRecordModule) { .start = 0x7f0000000000, .end = 0x7f0000100000,
                            .load_bias = 0x7f0000000000, .build_id_len = 3,
                            .build_id = { 0xab, 0xcd, 0xef } };
  g_strlcpy (m[1].path, "/lib/libm.so.6", sizeof m[1].path);
  t->n_modules = 2;
  for (int slot = 0; slot < 2; slot++)
    {
      for (int k = 0; k < 3 - slot; k++)
        mg_record_stacks_add (t, s1, 2, 0);
      if (slot == 0)
        mg_record_stacks_add (t, s2, 1, MG_RECORD_STACK_UNKNOWN);
      commit_stacks_slot (&w, slot);
    }
  mg_record_stacks_add (t, s1, 2, 0);
  h->end_mono_ns = 4 * S;
  h->state = MG_RECORD_STATE_EXITED;
  mg_record_forget (&w);
}

static void
write_stacks_record (const char *dir)
{
  write_stacks_record_of (dir, 200);
}

/* The stack of set whose innermost frame is at vaddr in module, or -1. */
static int
find_stack (MgStackSet *set, guint32 module, guint64 vaddr)
{
  for (guint i = 0; i < mg_stack_set_get_n_stacks (set); i++)
    {
      const MgStackFrame *f = mg_stack_set_get_frames (set, i, NULL, NULL);
      if (f[0].module == module && f[0].vaddr == vaddr)
        return (int) i;
    }
  return -1;
}

static void
check_stacks (MgProfile *profile)
{
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  guint n, flags;

  g_assert_cmpuint (mg_stack_set_get_n_stacks (all), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_taken (all), ==, 7);
  g_assert_cmpuint (mg_stack_set_get_lost (all), ==, 1);
  g_assert_cmpuint (mg_stack_set_get_total (all), ==, 6);
  g_assert_cmpuint (mg_stack_set_get_n_modules (all), ==, 2);
  g_assert_cmpstr (mg_stack_set_get_module (all, 0)->path, ==, "/bin/prog");
  g_assert_null (mg_stack_set_get_module (all, 0)->build_id);
  g_assert_cmpstr (mg_stack_set_get_module (all, 1)->path, ==, "/lib/libm.so.6");
  g_assert_cmpuint (mg_stack_set_get_module (all, 1)->build_id_len, ==, 3);
  g_assert_cmpuint (mg_stack_set_get_module (all, 1)->build_id[2], ==, 0xef);
  int s1 = find_stack (all, 0, 0x401234 - 0x3ff000);
  int s2 = find_stack (all, MG_STACK_MODULE_UNKNOWN, 0x999);
  g_assert_cmpint (s1, >=, 0);
  g_assert_cmpint (s2, >=, 0);
  const MgStackFrame *f = mg_stack_set_get_frames (all, s1, &n, &flags);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (flags, ==, 0);
  g_assert_cmpuint (f[1].module, ==, 1);
  g_assert_cmpuint (f[1].vaddr, ==, 0x100);
  g_assert_cmpuint (mg_stack_set_get_count (all, s1), ==, 5);
  mg_stack_set_get_frames (all, s2, &n, &flags);
  g_assert_cmpuint (flags, ==, MG_STACK_UNKNOWN_FRAME);
  g_assert_cmpuint (mg_stack_set_get_count (all, s2), ==, 1);

  /* Windows (0, 1] and (1, 2] from the run's start: a range over the
   * second one only, then the first one only. */
  g_autoptr (MgStackSet) late = mg_stack_set_new (profile, -1, 1.2, 5);
  g_autoptr (MgStackSet) early = mg_stack_set_new (profile, -1, 0, 0.5);
  g_autoptr (MgStackSet) other = mg_stack_set_new (profile, 1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (late), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_n_stacks (late), ==, 1);
  g_assert_cmpuint (mg_stack_set_get_total (early), ==, 4);
  g_assert_cmpuint (mg_stack_set_get_n_processes (other), ==, 0);
  g_assert_cmpuint (mg_stack_set_get_total (other), ==, 0);
}

/* Records' stacks into the profile: frames as (module, vaddr), counts per
 * window, what was lost; kept by saving and loading; folded export. */
static void
test_merge_stacks (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (GError) error = NULL;
  g_autofree char *saved = g_build_filename (dir, "saved.mgprof", NULL);
  g_autofree char *folded = g_build_filename (dir, "run.folded", NULL);
  g_autofree char *text = NULL;

  write_stacks_record (dir);
  g_autoptr (MgProfile) profile = merge_dir (dir, "run", &error);
  g_assert_no_error (error);
  check_stacks (profile);
  g_assert_true (mg_profile_save (profile, saved, &error));
  g_assert_no_error (error);
  g_autoptr (MgProfile) loaded = mg_profile_load (saved, &error);
  g_assert_no_error (error);
  check_stacks (loaded);
  g_assert_true (mg_export_folded (loaded, folded, NULL, -INFINITY, INFINITY, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "[unknown];0x999 1\nlibm.so.6+0x100;prog+0x2234 5\n");
  mg_test_remove_tree (dir);
}

/* A record whose modules overlap: liba.so unloaded and libb.so loaded at
 * the same addresses, liba.so again there later, and two copies of one
 * library (same build-id) over one range. */
static void
write_reused_range_record (const char *dir)
{
  MgRecordWriter w;
  uint64_t s1[] = { 0x7f0000000100, 0x401000 };
  uint64_t s2[] = { 0x7f1000000200 };

  start_stacks_record (&w, dir, 300);
  MgRecordHeader *h = w.header;
  MgRecordStacks *t = w.stacks;
  MgRecordModule *m = mg_record_stacks_modules (t);
  const char *paths[] = { "/lib/liba.so", "/lib/libb.so", "/lib/liba.so", "/lib/libc1.so", "/lib/libc2.so" };
  const uint8_t ids[] = { 0xaa, 0xbb, 0xaa, 0xcc, 0xcc };
  for (int i = 0; i < 5; i++)
    {
      uint64_t at = i < 3 ? 0x7f0000000000 : 0x7f1000000000;
      m[1 + i] = (MgRecordModule) { .start = at, .end = at + 0x10000, .load_bias = at,
                                    .build_id_len = 1, .build_id = { ids[i] } };
      g_strlcpy (m[1 + i].path, paths[i], sizeof m[1 + i].path);
    }
  t->n_modules = 6;
  mg_record_stacks_add (t, s1, 2, 0);
  mg_record_stacks_add (t, s2, 1, 0);
  mg_record_stacks_add (t, s2, 1, 0);
  commit_stacks_slot (&w, 0);
  h->end_mono_ns = 2 * S;
  h->state = MG_RECORD_STATE_EXITED;
  mg_record_forget (&w);
}

/* A pc in addresses that two modules of different code held in turn is
 * left unnamed (the record does not say which one it was sampled in: the
 * first one's names were shown, wrong for the second's samples); one that
 * copies of the same code held is named by the first copy. */
static void
test_merge_stacks_reused_range (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (GError) error = NULL;
  g_autofree char *folded = g_build_filename (dir, "run.folded", NULL);
  g_autofree char *text = NULL;
  guint n;

  write_reused_range_record (dir);
  g_autoptr (MgProfile) profile = merge_dir (dir, "run", &error);
  g_assert_no_error (error);
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_n_stacks (all), ==, 2);
  int s1 = find_stack (all, MG_STACK_MODULE_UNKNOWN, 0x7f0000000100);
  g_assert_cmpint (s1, >=, 0);
  const MgStackFrame *f = mg_stack_set_get_frames (all, s1, &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (mg_stack_set_get_module (all, f[1].module)->path, ==, "/bin/prog");
  g_assert_cmpuint (f[1].vaddr, ==, 0x2000);
  int copies = -1;
  for (guint i = 0; i < mg_stack_set_get_n_modules (all); i++)
    if (g_str_equal (mg_stack_set_get_module (all, i)->path, "/lib/libc1.so"))
      copies = (int) i;
  g_assert_cmpint (copies, >=, 0);
  int s2 = find_stack (all, (guint32) copies, 0x200);
  g_assert_cmpint (s2, >=, 0);
  g_assert_cmpuint (mg_stack_set_get_count (all, s2), ==, 2);
  g_assert_true (mg_export_folded (profile, folded, NULL, -INFINITY, INFINITY, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "libc1.so+0x200 2\nprog+0x2000;0x7f0000000100 1\n");
  mg_test_remove_tree (dir);
}

/* Process p's stack k in the stacks member. */
static GVariant *
member_stack (MgProfile *profile, gsize p, gsize k)
{
  g_autoptr (GVariant) procs = g_variant_get_child_value (profile->stacks, 1);
  g_autoptr (GVariant) proc = g_variant_get_child_value (procs, p);
  g_autoptr (GVariant) own = g_variant_get_child_value (proc, 4);
  return g_variant_get_child_value (own, k);
}

/* Two processes that sampled the same two stacks: each process still has
 * its own list of them, but the merge holds each stack once for the run
 * (the same value in both lists, not a copy: a 1024-rank merge would
 * otherwise hold 300 000 stacks for 31 000 distinct ones), and the counts
 * of both add up. */
static void
test_merge_stacks_shared (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr (GError) error = NULL;

  write_stacks_record_of (dir, 200);
  write_stacks_record_of (dir, 201);
  g_autoptr (MgProfile) profile = merge_dir (dir, "run", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  for (gsize k = 0; k < 2; k++)
    {
      g_autoptr (GVariant) first = member_stack (profile, 0, k);
      g_autoptr (GVariant) second = member_stack (profile, 1, k);
      g_assert_true (first == second);
    }
  g_autoptr (GVariant) a = member_stack (profile, 0, 0);
  g_autoptr (GVariant) b = member_stack (profile, 0, 1);
  g_assert_false (g_variant_equal (a, b));
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_n_stacks (all), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_total (all), ==, 12);
  g_assert_cmpuint (mg_stack_set_get_taken (all), ==, 14);
  int s1 = find_stack (all, 0, 0x401234 - 0x3ff000);
  g_assert_cmpint (s1, >=, 0);
  g_assert_cmpuint (mg_stack_set_get_count (all, s1), ==, 10);
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/merge/two-processes", test_merge_two_processes);
  g_test_add_func ("/profile/merge/filters-and-damage", test_merge_filters_and_damage);
  g_test_add_func ("/profile/merge/killed", test_merge_killed);
  g_test_add_func ("/profile/merge/hung-call", test_merge_hung_call);
  g_test_add_func ("/profile/merge/window-count", test_merge_window_count);
  g_test_add_func ("/profile/merge/no-samples", test_merge_no_samples);
  g_test_add_func ("/profile/merge/other-host", test_merge_other_host);
  g_test_add_func ("/profile/merge/stacks", test_merge_stacks);
  g_test_add_func ("/profile/merge/stacks-shared", test_merge_stacks_shared);
  g_test_add_func ("/profile/merge/stacks-reused-range", test_merge_stacks_reused_range);
  return g_test_run ();
}
