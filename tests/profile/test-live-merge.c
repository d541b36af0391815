/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The live view's incremental merge (MgLiveMerge) against a merge that
 * reads every record whole, over records that grow in steps. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include "format/mg-record-stacks.h"
#include "profile/mg-merge.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-slot-combiner.h"
#include "profile-fixture.h"
#include "record-fixture.h"
#include "mg-test-common.h"

#define S 1000000000LL
#define MS 1000000LL
#define MAX_SAMPLES 8

/* Everything a merge gives, as text (doubles exact): equal texts, equal profiles. */
static char *
describe (MgProfile *profile)
{
  GString *s = g_string_new (NULL);
  guint n = mg_profile_get_n_windows (profile);

  g_string_append_printf (s, "windows %u\n", n);
  for (guint w = 0; w < n; w++)
    g_string_append_printf (s, " %.17g-%.17g", mg_profile_get_window_starts (profile)[w],
                            mg_profile_get_window_ends (profile)[w]);
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    {
      const MgSeries *series = mg_profile_get_series (profile, m);
      const MgSingleValue *single = mg_profile_get_single_value (profile, m);

      g_string_append_printf (s, "\nmetric %s:", mg_profile_get_metric (profile, m)->id);
      for (guint w = 0; series != NULL && w < n; w++)
        g_string_append_printf (s, " %.17g/%.17g/%.17g/%.17g/%d/%d", series->mins[w],
                                series->maxs[w], series->means[w], series->sums[w],
                                series->min_process[w], series->max_process[w]);
      if (single != NULL)
        g_string_append_printf (s, " single %.17g %.17g %.17g %u", single->min, single->max,
                                single->mean, single->count);
    }
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *info = mg_profile_get_process (profile, p);

      g_string_append_printf (s, "\nprocess %d rank %d %.17g-%.17g end %d/%d", info->pid,
                              info->rank, info->start_s, info->end_s, info->end, info->status);
      for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
        {
          const MgProcessSeries *ps = mg_profile_get_process_series (profile, p, m);

          for (guint k = 0; k < ps->n; k++)
            g_string_append_printf (s, " %.17g:%.17g/%.17g/%.17g", ps->times[k], ps->mins[k],
                                    ps->maxs[k], ps->means[k]);
        }
    }
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    g_string_append_printf (s, "\nplugin error %d %s", mg_profile_get_plugin_error (profile, i)->process,
                            mg_profile_get_plugin_error (profile, i)->message);
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      g_string_append_printf (s, "\nmetric error %d %s %u %.17g %.17g", e->process, e->message,
                              e->count, e->first_s, e->last_s);
    }
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *e = mg_profile_get_event (profile, i);

      g_string_append_printf (s, "\nevent %d %.17g %d %d %s", e->process, e->time_s, e->kind,
                              e->status, e->message != NULL ? e->message : "");
    }
  return g_string_free (s, FALSE);
}

static GPtrArray *
input_metrics (void)
{
  GPtrArray *metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);

  g_ptr_array_add (metrics, profile_fixture_metric ("alpha", MG_DOMAIN_TIME));
  g_ptr_array_add (metrics, profile_fixture_metric ("gamma", MG_DOMAIN_SINGLE_VALUE));
  return metrics;
}

/* Process i's record with its first n slots (10 ms each; alpha has gaps),
 * still running unless ended; as the sampler leaves it after halving its
 * slots `merges` times (each slot then covers 2^merges of the first ones). */
static void
write_record (const char *dir, guint i, guint n, guint merges, gboolean ended)
{
  g_autoptr (RecordFixture) r = record_fixture_new (1, 2, 64);
  MgRecordHeader *h = record_fixture_header (r);
  MgRecordMetric *alpha = record_fixture_metric (r, 0);
  g_autofree char *path = g_strdup_printf ("%s/h.%u.mgrec", dir, 100 + i);
  guint per = 1u << merges;

  h->pid = 100 + i;
  h->rank = i;
  g_strlcpy (h->host, "h1", sizeof h->host);
  g_strlcpy (h->program, "/bin/prog", sizeof h->program);
  g_strlcpy (h->run_id, "run", sizeof h->run_id);
  h->start_mono_ns = S + i * 7 * MS;
  h->start_real_ns = 1700000000 * S + i * 7 * MS;
  h->state = ended ? MG_RECORD_STATE_EXITED : MG_RECORD_STATE_RUNNING;
  h->end_mono_ns = ended ? h->start_mono_ns + (gint64) n * 10 * MS + MS : 0;
  h->n_merges = merges;
  h->seq = 2 * merges;
  h->interval_start_ns = 10 * MS;
  h->interval_ns = 10 * MS * per;
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_ACTIVE;
  g_strlcpy (alpha->id, "alpha", MG_RECORD_ID_LEN);
  alpha->flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  g_strlcpy (record_fixture_metric (r, 1)->id, "gamma", MG_RECORD_ID_LEN);
  /* Only whole slots: the sampler never rewrites a committed one but
   * when it halves them. */
  for (guint k = 0; (k + 1) * per <= n; k++)
    {
      guint last = (k + 1) * per - 1;
      double v[2] = { (k + i) % 5 == 3 ? NAN : sin (k * 0.7 + i) * 100 + i, 1000.0 * i + k };

      record_fixture_add_sample (r, h->start_mono_ns + (gint64) k * per * 10 * MS,
                                 h->start_mono_ns + (gint64) (last + 1) * 10 * MS + (k % 3) * MS, v);
    }
  record_fixture_write (r, path);
}

static MgProfile *
merge (const char *dir, MgLiveMerge *live)
{
  g_autoptr (GPtrArray) metrics = input_metrics ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "prog", NULL };
  MgMergeInput input = { .metrics = metrics, .argv = argv, .working_dir = "/", .run_id = "run",
                         .max_process_samples = MAX_SAMPLES, .live = live };
  MgProfile *profile = mg_merge_records (dir, &input, &error);

  g_assert_no_error (error);
  return profile;
}

/* The live grid: all windows but the last of one width, the smallest
 * power of two that makes no more windows than any process has samples. */
static void
assert_stable_grid (MgProfile *profile)
{
  guint n = mg_profile_get_n_windows (profile);
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  double width = ends[0] - starts[0];
  gsize most = 0;
  int e;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    most = MAX (most, mg_profile_get_process_series (profile, p, 0)->n);
  g_assert_cmpuint (n, <=, most);
  g_assert_cmpuint (most, <=, MAX_SAMPLES);
  if (n == 1)
    return;   /* one window, ending at the end: its width is not seen */
  g_assert_cmpfloat (ceil (ends[n - 1] / (width / 2)), >, most);
  g_assert_cmpfloat (frexp (width, &e), ==, 0.5);
  for (guint w = 0; w + 1 < n; w++)
    g_assert_cmpfloat (starts[w], ==, w * width);
  g_assert_cmpfloat (ends[n - 1], >, starts[n - 1]);
  g_assert_cmpfloat (ends[n - 1], <=, n * width);
}

/* The incremental merge gives what a merge reading every record whole
 * does; adds what it took from the refresh before to *windows, *samples. */
static void
assert_same_merge (const char *dir, MgLiveMerge *live, guint n_processes, guint *windows,
                   guint64 *samples)
{
  g_autoptr (MgProfile) incremental = merge (dir, live);
  g_autoptr (MgProfile) whole = merge (dir, NULL);
  g_autofree char *a = describe (incremental);
  g_autofree char *b = describe (whole);
  guint64 kept_samples;
  guint kept_windows;

  g_assert_cmpuint (mg_profile_get_n_processes (incremental), ==, n_processes);
  g_assert_cmpstr (a, ==, b);
  assert_stable_grid (incremental);
  mg_profile_builder_cache_get_reused (mg_live_merge_get_cache (live), &kept_windows,
                                       &kept_samples);
  *windows += kept_windows;
  *samples += kept_samples;
}

/* Steps of a run: slots come a few at a time, past MAX_SAMPLES (the
 * combining doubles), a process starts late, one ends, one's sampler
 * halves its slots. */
static void
test_live_merge_steps (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-live-merge-XXXXXX", NULL);
  g_autoptr (MgLiveMerge) live = mg_live_merge_new ();
  const guint steps[] = { 1, 2, 5, 8, 9, 15, 16, 17, 23, 33, 40 };
  guint64 samples = 0;
  guint windows = 0;

  for (guint s = 0; s < G_N_ELEMENTS (steps); s++)
    {
      guint n = steps[s];

      write_record (dir, 0, n, n > 30 ? 1 : 0, FALSE);
      write_record (dir, 1, MIN (n, 16), 0, n > 16);
      if (n >= 8)
        write_record (dir, 2, n - 7, 0, FALSE);
      assert_same_merge (dir, live, n >= 8 ? 3 : 2, &windows, &samples);
    }
  /* Big steps: what changed reached back to the start now and then, but
   * not every time. */
  g_assert_cmpuint (windows, >, 0);
  g_assert_cmpuint (samples, >, 0);
  mg_test_remove_tree (dir);
}

/* A slot at a time, the refreshes of a 20 ms interval: most samples and
 * most windows are kept from the refresh before, through the combining's
 * doublings, a process that ends and one that starts late. */
static void
test_live_merge_slot_by_slot (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-live-merge-XXXXXX", NULL);
  g_autoptr (MgLiveMerge) live = mg_live_merge_new ();
  guint64 samples = 0, n_samples = 0;
  guint windows = 0, n_windows = 0;

  for (guint n = 1; n <= 60; n++)
    {
      g_autoptr (MgProfile) profile = NULL;

      write_record (dir, 0, n, 0, FALSE);
      write_record (dir, 1, MIN (n, 20), 0, n > 20);
      write_record (dir, 2, n, 0, FALSE);
      if (n > 30)
        write_record (dir, 3, n - 30, 0, FALSE);
      assert_same_merge (dir, live, n > 30 ? 4 : 3, &windows, &samples);
      profile = merge (dir, NULL);
      n_windows += mg_profile_get_n_windows (profile);
      for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
        n_samples += mg_profile_get_process_series (profile, p, 0)->n;
    }
  /* Eight windows at most: a new slot changes one or two of them, and
   * the one before for an instant on a boundary. */
  g_assert_cmpuint (windows, >, n_windows / 8);
  g_assert_cmpuint (samples, >, n_samples / 2);
  mg_test_remove_tree (dir);
}

/* Only new slots are read: slots rewritten behind the seqlock's back are
 * not seen again, until the seqlock moves. */
static void
test_live_merge_reads_only_new_slots (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-live-merge-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "h.100.mgrec", NULL);
  g_autoptr (MgLiveMerge) live = mg_live_merge_new ();
  g_autoptr (MgProfile) first = NULL, second = NULL, third = NULL;
  g_autofree char *contents = NULL;
  gsize size;
  MgRecordHeader *h;
  MgRecordValue *v;

  write_record (dir, 0, 4, 0, FALSE);
  first = merge (dir, live);
  g_assert_cmpfloat (mg_profile_get_process_series (first, 0, 0)->maxs[0], ==, 100 * sin (0));
  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  h = (MgRecordHeader *) contents;
  v = (MgRecordValue *) (contents + h->samples_offset + sizeof (MgRecordSample));
  v[0].min = v[0].max = v[0].mean = -5;
  g_assert_true (g_file_set_contents (path, contents, size, NULL));
  second = merge (dir, live);
  g_assert_cmpfloat (mg_profile_get_process_series (second, 0, 0)->maxs[0], ==, 0);
  h->seq += 2;
  g_assert_true (g_file_set_contents (path, contents, size, NULL));
  third = merge (dir, live);
  g_assert_cmpfloat (mg_profile_get_process_series (third, 0, 0)->maxs[0], ==, -5);
  mg_test_remove_tree (dir);
}

/* One more slot of a running record with call stacks (as the sampler
 * writes it): s1 (two frames, through libm) n1 times, s2 (outside every
 * module) n2 times, over (1 + slot, 2 + slot] s from the start. */
static void
write_stack_slot (MgRecordWriter *w, guint slot, guint n1, guint n2)
{
  uint64_t s1[] = { 0x401234, 0x7f0000000100 };
  uint64_t s2[] = { 0x999 };
  MgRecordStacks *t = w->stacks;

  for (guint k = 0; k < n1; k++)
    mg_record_stacks_add (t, s1, 2, 0);
  for (guint k = 0; k < n2; k++)
    mg_record_stacks_add (t, s2, 1, MG_RECORD_STACK_UNKNOWN);
  MgRecordSample *sample = mg_record_slot (w, slot);
  sample->t_start_ns = w->header->start_mono_ns + (gint64) slot * S;
  sample->t_end_ns = w->header->start_mono_ns + (gint64) (slot + 1) * S;
  sample->n_raw = 1;
  mg_record_slot_values (sample)[0] = (MgRecordValue) { 1, 1, 1, 1, 0 };
  mg_record_stacks_drain (t, slot);
  mg_record_commit (w);
}

static guint64
stack_total (MgProfile *profile, double t0, double t1, guint *n_stacks)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, t0, t1);
  if (n_stacks)
    *n_stacks = mg_stack_set_get_n_stacks (set);
  return mg_stack_set_get_total (set);
}

/* A running record's stacks in every live refresh, not only the first
 * (which reads the record from its first slot): those of the slots read
 * by the refreshes before keep their windows. */
static void
test_live_merge_stacks (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-live-merge-XXXXXX", NULL);
  g_autoptr (MgLiveMerge) live = mg_live_merge_new ();
  MgRecordWriter w;
  char err[256];
  guint n;

  g_assert_cmpint (mg_record_create_with_stacks (&w, dir, "h1", "run", 200, 1 * S, 0, 1, 16, 8,
                                                 err, sizeof err), ==, 0);
  g_assert_cmpint (mg_record_stacks_reserve (&w, err, sizeof err), ==, 0);
  MgRecordHeader *h = w.header;
  MgRecordModule *m = mg_record_stacks_modules (w.stacks);
  h->ppid = 1;
  g_strlcpy (h->program, "/bin/prog", sizeof h->program);
  h->start_real_ns = 1700000000 * S;
  h->interval_start_ns = h->interval_ns = 1 * S;
  g_strlcpy (w.metrics[0].id, "alpha", MG_RECORD_ID_LEN);
  w.metrics[0].flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  m[0] = (MgRecordModule) { .start = 0x400000, .end = 0x500000, .load_bias = 0x3ff000 };
  g_strlcpy (m[0].path, "/bin/prog", sizeof m[0].path);
  m[1] = (MgRecordModule) { .start = 0x7f0000000000, .end = 0x7f0000100000,
                            .load_bias = 0x7f0000000000 };
  g_strlcpy (m[1].path, "/lib/libm.so.6", sizeof m[1].path);
  w.stacks->n_modules = 2;

  write_stack_slot (&w, 0, 3, 1);
  g_autoptr (MgProfile) first = merge (dir, live);
  g_assert_cmpuint (stack_total (first, -INFINITY, INFINITY, &n), ==, 4);
  g_assert_cmpuint (n, ==, 2);

  /* The second refresh reads slot 1 only; slot 0's stacks stay. */
  write_stack_slot (&w, 1, 2, 0);
  write_stack_slot (&w, 2, 1, 2);
  g_autoptr (MgProfile) second = merge (dir, live);
  g_autoptr (MgProfile) whole = merge (dir, NULL);
  g_assert_cmpuint (stack_total (second, -INFINITY, INFINITY, &n), ==, 9);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (stack_total (whole, -INFINITY, INFINITY, NULL), ==, 9);
  /* By window: (0, 1] 4, (1, 2] 2, (2, 3] 3, as the whole merge has them. */
  const double ranges[][2] = { { 0, 0.5 }, { 1.2, 1.8 }, { 2.2, 2.8 } };
  const guint64 want[] = { 4, 2, 3 };
  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      g_assert_cmpuint (stack_total (second, ranges[i][0], ranges[i][1], NULL), ==, want[i]);
      g_assert_cmpuint (stack_total (whole, ranges[i][0], ranges[i][1], NULL), ==, want[i]);
    }
  mg_record_forget (&w);
  mg_test_remove_tree (dir);
}

static void
add_slot (MgSlotCombiner *c, gint64 start_ms, gint64 end_ms, double min, double max, double mean)
{
  MgRecordSample sample = { start_ms * MS, end_ms * MS, 1, 0 };
  MgRecordValue value = { min, max, mean, isnan (mean) ? 0 : 1, 0 };

  mg_slot_combiner_add (c, &sample, &value);
}

/* Eight slots into four buckets, then five: two slots each, the fifth alone. */
static void
test_slot_combiner_values (void)
{
  g_autoptr (MgSlotCombiner) c = mg_slot_combiner_new (1, 4);
  double min, max, mean;
  gint64 t0, t1, last_end;

  for (guint k = 0; k < 8; k++)
    add_slot (c, k * 10, (k + 1) * 10 + (k == 1 ? 20 : 0), k, k + 1, k == 3 ? NAN : k + 0.5);
  g_assert_cmpuint (mg_slot_combiner_get_n_buckets (c), ==, 4);
  /* Slots 0 (10 ms, mean 0.5) and 1 (30 ms, mean 1.5). */
  g_assert_true (mg_slot_combiner_get_value (c, 0, 0, &min, &max, &mean));
  g_assert_cmpfloat (min, ==, 0);
  g_assert_cmpfloat (max, ==, 2);
  g_assert_cmpfloat_with_epsilon (mean, (0.5 * 10 + 1.5 * 30) / 40, 1e-12);
  mg_slot_combiner_get_window (c, 0, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 40 * MS);
  /* Slot 3 is a gap: bucket 1 is slot 2 alone. */
  g_assert_true (mg_slot_combiner_get_value (c, 1, 0, &min, &max, &mean));
  g_assert_cmpfloat (min, ==, 2);
  g_assert_cmpfloat (max, ==, 3);
  g_assert_cmpfloat (mean, ==, 2.5);
  add_slot (c, 80, 90, 8, 9, 8.5);
  g_assert_cmpuint (mg_slot_combiner_get_n_buckets (c), ==, 3);
  g_assert_cmpuint (mg_slot_combiner_get_n_slots (c), ==, 9);
  g_assert_true (mg_slot_combiner_get_value (c, 2, 0, &min, &max, &mean));
  g_assert_cmpfloat (mean, ==, 8.5);
  g_assert_cmpfloat (mg_slot_combiner_get_last_mean (c, 0), ==, 8.5);
  g_assert_cmpuint (mg_slot_combiner_get_last_slot (c, 0, &last_end), ==, 9);
  g_assert_cmpint (last_end, ==, 90 * MS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/live-merge/steps", test_live_merge_steps);
  g_test_add_func ("/profile/live-merge/slot-by-slot", test_live_merge_slot_by_slot);
  g_test_add_func ("/profile/live-merge/reads-only-new-slots", test_live_merge_reads_only_new_slots);
  g_test_add_func ("/profile/live-merge/stacks", test_live_merge_stacks);
  g_test_add_func ("/profile/slot-combiner/values", test_slot_combiner_values);
  return g_test_run ();
}
