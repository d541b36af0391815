/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Node summaries: records of three "nodes" reduced per node, then merged,
 * against the merge of the records themselves; running the reduction
 * again; damaged summaries. */
#include "mg-config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "format/mg-record-stacks.h"
#include "format/mg-record-writer.h"
#include "profile/mg-crc32.h"
#include "profile/mg-export-json.h"
#include "profile/mg-merge.h"
#include "profile/mg-record-reader.h"
#include "profile/mg-node-summary.h"
#include "profile/mg-node-summary-internal.h"
#include "profile/mg-profile-threads.h"
#include "profile/mg-stack-set.h"
#include "session/mg-missing-ranks.h"
#include "profile-fixture.h"
#include "record-fixture.h"
#include "mg-test-common.h"

#define S 1000000000LL
#define MS 1000000LL
#define N_HOSTS 3
#define PER_HOST 3

static const char *const hosts[N_HOSTS] = { "node-a", "node-b", "node-c" };

static GPtrArray *
input_metrics (void)
{
  GPtrArray *metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);

  g_ptr_array_add (metrics, profile_fixture_metric ("alpha", MG_DOMAIN_TIME));
  g_ptr_array_add (metrics, profile_fixture_metric ("beta", MG_DOMAIN_TIME));
  g_ptr_array_add (metrics, profile_fixture_metric ("gamma", MG_DOMAIN_SINGLE_VALUE));
  return metrics;
}

/* Process j of host h: noisy, counting and constant series with gaps,
 * slots that cover several raw samples (min < mean < max), and one of
 * each way a record can end or fail. */
static void
write_record (const char *dir, guint h, guint j)
{
  g_autoptr (RecordFixture) r = record_fixture_new (2, 4, 512);
  MgRecordHeader *hd = record_fixture_header (r);
  MgRecordMetric *alpha = record_fixture_metric (r, 0);
  MgRecordPlugin *plugin = record_fixture_plugin (r, 1);
  guint p = h * PER_HOST + j;
  guint n = 100 + 37 * p;
  g_autofree char *path = g_strdup_printf ("%s/%s.%u.%u.mgrec", dir, hosts[h], 200 + p, p);
  g_autoptr (GRand) noise = g_rand_new_with_seed (p);

  hd->pid = 200 + (int) p;
  hd->ppid = 1;
  /* Ranks placed round-robin, so that a node's ranks are not neighbours;
   * the last process of each node is no MPI rank. */
  hd->rank = j < PER_HOST - 1 ? (int) (j * N_HOSTS + h) : -1;
  hd->world_size = N_HOSTS * (PER_HOST - 1);
  g_strlcpy (hd->host, hosts[h], sizeof hd->host);
  g_strlcpy (hd->program, "/bin/prög", sizeof hd->program);
  g_strlcpy (hd->run_id, "run", sizeof hd->run_id);
  /* Each node's monotonic clock has its own origin. */
  hd->start_mono_ns = (h + 1) * 1000 * S + p * 3 * MS;
  hd->start_real_ns = 1700000000 * S + p * 3 * MS + h * 1234;
  hd->interval_start_ns = 10 * MS;
  hd->interval_ns = 20 * MS;
  hd->n_merges = 1;
  hd->state = p == 4 ? MG_RECORD_STATE_RUNNING : p == 5 ? MG_RECORD_STATE_SIGNALLED
                                                         : MG_RECORD_STATE_EXITED;
  hd->end_status = p == 5 ? 11 : (int) p;
  hd->end_mono_ns = p == 4 ? 0 : hd->start_mono_ns + (gint64) n * 20 * MS + 5 * MS;
  hd->flags = (j == 0 ? MG_RECORD_FLAG_NODE_LEADER : 0) | (p == 7 ? MG_RECORD_FLAG_STOPPED : 0);
  if (p == 7)
    {
      hd->record_error_code = 28;
      g_strlcpy (hd->record_error, "No space left on device", sizeof hd->record_error);
    }
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_ACTIVE;
  g_strlcpy (plugin->source_id, "broken", MG_RECORD_ID_LEN);
  g_strlcpy (plugin->library, "/lib/libbroken.so", MG_RECORD_PATH_LEN);
  g_strlcpy (plugin->error, "cannot open shared object", MG_RECORD_MSG_LEN);
  plugin->state = p % 2 == 0 ? MG_PLUGIN_STATE_LOAD_FAILED : MG_PLUGIN_STATE_CRASHED;
  plugin->error_code = p % 2 == 0 ? 2 : 11;
  g_strlcpy (alpha->id, "alpha", MG_RECORD_ID_LEN);
  alpha->flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  if (p % 3 == 1)
    {
      alpha->error_code = 5;
      alpha->error_count = p;
      alpha->first_error_ns = hd->start_mono_ns + 40 * MS;
      alpha->last_error_ns = hd->start_mono_ns + 900 * MS;
      g_strlcpy (alpha->error, "bad read", MG_RECORD_MSG_LEN);
    }
  g_strlcpy (record_fixture_metric (r, 1)->id, "gamma", MG_RECORD_ID_LEN);
  g_strlcpy (record_fixture_metric (r, 2)->id, "beta", MG_RECORD_ID_LEN);
  record_fixture_metric (r, 2)->plugin_index = 1;
  g_strlcpy (record_fixture_metric (r, 3)->id, "not-enabled", MG_RECORD_ID_LEN);
  for (guint k = 0; k < n; k++)
    {
      double v[4] = { (k + p) % 7 == 3 ? NAN : sin (k * 0.3 + p) * 50 + g_rand_double (noise),
                      512.0 + p, k > n / 2 ? NAN : 4096.0 * k, -0.0 };
      MgRecordValue *values;

      record_fixture_add_sample (r, hd->start_mono_ns + (gint64) k * 20 * MS,
                                 hd->start_mono_ns + (gint64) (k + 1) * 20 * MS + (k % 4) * MS, v);
      /* A merged slot: two raw samples. */
      values = record_fixture_values (r, k);
      record_fixture_sample (r, k)->n_raw = 2;
      if (values[0].count > 0)
        {
          values[0].min = values[0].mean - 1.5;
          values[0].max = values[0].mean + 0.25 * (k % 5);
          values[0].count = 2;
        }
    }
  record_fixture_write (r, path);
}

static void
write_records (const char *dir)
{
  for (guint h = 0; h < N_HOSTS; h++)
    for (guint j = 0; j < PER_HOST; j++)
      write_record (dir, h, j);
}

static MgProfile *
merge (const char *dir, guint max_process_samples)
{
  g_autoptr (GPtrArray) metrics = input_metrics ();
  g_autoptr (GError) error = NULL;
  const char *argv[] = { "prog", "arg", NULL };
  MgMergeInput input = { .metrics = metrics, .argv = argv, .working_dir = "/work",
                         .exit_status = 3, .run_id = "run",
                         .max_process_samples = max_process_samples };
  MgProfile *profile = mg_merge_records (dir, &input, &error);

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* The profile as text: every process's own series (exact), errors and
 * events, then its JSON export and its saved file, byte for byte. */
static GBytes *
describe (MgProfile *profile, const char *dir)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autofree char *saved_path = g_build_filename (dir, "saved.mgprof", NULL);
  g_autofree char *saved = NULL;
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  gsize saved_len;

  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    {
      const MgProcessInfo *info = mg_profile_get_process (profile, p);

      g_string_append_printf (s, "process %d rank %d %s %.17g-%.17g end %d/%d leader %d\n",
                              info->pid, info->rank, info->host, info->start_s, info->end_s,
                              info->end, info->status, info->node_leader);
      for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
        {
          const MgProcessSeries *ps = mg_profile_get_process_series (profile, p, m);

          for (guint k = 0; k < ps->n; k++)
            g_string_append_printf (s, " %a:%a/%a/%a", ps->times[k], ps->mins[k], ps->maxs[k],
                                    ps->means[k]);
          g_string_append_c (s, '\n');
        }
    }
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
    g_string_append_printf (s, "plugin error %d %s\n", mg_profile_get_plugin_error (profile, i)->process,
                            mg_profile_get_plugin_error (profile, i)->message);
  for (guint i = 0; i < mg_profile_get_n_metric_errors (profile); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (profile, i);

      g_string_append_printf (s, "metric error %d %s %u %a %a\n", e->process, e->message,
                              e->count, e->first_s, e->last_s);
    }
  for (guint i = 0; i < mg_profile_get_n_events (profile); i++)
    {
      const MgProcessEvent *e = mg_profile_get_event (profile, i);

      g_string_append_printf (s, "event %d %a %d %d %s\n", e->process, e->time_s, e->kind,
                              e->status, e->message != NULL ? e->message : "");
    }
  g_assert_true (mg_export_json_to_stream (profile, out, &error));
  g_assert_no_error (error);
  g_string_append_len (s, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                       (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  g_assert_true (mg_profile_save (profile, saved_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (saved_path, &saved, &saved_len, NULL));
  g_string_append_len (s, saved, (gssize) saved_len);
  g_unlink (saved_path);
  return g_string_free_to_bytes (g_steal_pointer (&s));
}

static void
copy_records (const char *from, const char *to)
{
  g_autoptr (GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *a = g_build_filename (from, name, NULL);
      g_autofree char *b = g_build_filename (to, name, NULL);
      g_autofree char *data = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (a, &data, &len, NULL));
      g_assert_true (g_file_set_contents (b, data, (gssize) len, NULL));
    }
}

/* Names in dir with the suffix, counted. */
static guint
count_files (const char *dir, const char *suffix)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while ((name = g_dir_read_name (d)) != NULL)
    n += g_str_has_suffix (name, suffix);
  return n;
}

static void
merge_node (const char *dir, const char *host, guint n_records, guint n_kept)
{
  g_autoptr (GError) error = NULL;
  MgNodeSummaryStats stats;

  g_assert_true (mg_node_summary_merge (dir, host, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_records, ==, n_records);
  g_assert_cmpuint (stats.n_kept, ==, n_kept);
  g_assert_cmpuint (stats.n_damaged, ==, 0);
  g_assert_cmpuint (stats.n_running, ==, 0);
}

typedef struct {
  char *root, *direct, *nodes;
} Dirs;

static void
dirs_set_up (Dirs *d, gconstpointer data)
{
  d->root = mg_test_make_dir ("node-summary");
  d->direct = g_build_filename (d->root, "direct", NULL);
  d->nodes = g_build_filename (d->root, "nodes", NULL);
  g_mkdir (d->direct, 0700);
  g_mkdir (d->nodes, 0700);
  write_records (d->direct);
  copy_records (d->direct, d->nodes);
}

static void
dirs_tear_down (Dirs *d, gconstpointer data)
{
  mg_test_remove_tree (d->root);
  g_free (d->root);
  g_free (d->direct);
  g_free (d->nodes);
}

static void
assert_same_profile (Dirs *d, guint max_process_samples)
{
  g_autoptr (MgProfile) direct = merge (d->direct, max_process_samples);
  g_autoptr (MgProfile) combined = merge (d->nodes, max_process_samples);
  g_autoptr (GBytes) a = describe (direct, d->root);
  g_autoptr (GBytes) b = describe (combined, d->root);

  g_assert_cmpuint (mg_profile_get_n_processes (direct), >=, N_HOSTS * PER_HOST);
  g_assert_cmpuint (mg_profile_get_n_processes (combined), ==, mg_profile_get_n_processes (direct));
  g_assert_cmpuint (mg_profile_get_run_info (combined)->n_nodes, ==, N_HOSTS);
  if (!g_bytes_equal (a, b))
    {
      g_autofree char *ta = g_strndup (g_bytes_get_data (a, NULL), 2000);
      g_autofree char *tb = g_strndup (g_bytes_get_data (b, NULL), 2000);

      g_test_message ("direct:\n%s\ncombined:\n%s", ta, tb);
      g_assert_not_reached ();
    }
}

static void
test_combine_equals_direct (Dirs *d, gconstpointer data)
{
  for (guint h = 0; h < N_HOSTS; h++)
    merge_node (d->nodes, hosts[h], PER_HOST, 0);
  g_assert_cmpuint (count_files (d->nodes, MG_RECORD_SUFFIX), ==, 0);
  g_assert_cmpuint (count_files (d->nodes, MG_NODE_SUMMARY_SUFFIX), ==, N_HOSTS);
  assert_same_profile (d, 0);
  /* The live view's merge, which combines slots, reads them the same. */
  assert_same_profile (d, 8);
}

/* The ranks a summary holds are not missing; those of a node whose
 * summary is gone are. */
static void
test_missing_ranks (Dirs *d, gconstpointer data)
{
  g_autofree char *name = mg_node_summary_file_name (hosts[1]);
  g_autofree char *path = g_build_filename (d->nodes, name, NULL);
  g_autofree char *missing = NULL;

  for (guint h = 0; h < N_HOSTS; h++)
    merge_node (d->nodes, hosts[h], PER_HOST, 0);
  g_assert_null (mg_missing_ranks_describe (d->nodes, "run", 0, NULL));
  g_assert_cmpint (g_unlink (path), ==, 0);
  missing = mg_missing_ranks_describe (d->nodes, "run", 0, NULL);
  /* Node b held ranks 1 and 4 of 6. */
  g_assert_nonnull (missing);
  g_assert_true (g_str_has_prefix (missing, "MPI ranks 1,4 of 6 left no record here"));
}

/* Some nodes reduced, others not: records and summaries side by side. */
static void
test_mixed (Dirs *d, gconstpointer data)
{
  merge_node (d->nodes, hosts[1], PER_HOST, 0);
  g_assert_cmpuint (count_files (d->nodes, MG_RECORD_SUFFIX), ==, (N_HOSTS - 1) * PER_HOST);
  assert_same_profile (d, 0);
  /* A record whose removal did not happen after its summary was written
   * counts once. */
  write_record (d->nodes, 1, 0);
  assert_same_profile (d, 0);
}

static GBytes *
read_file (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (g_steal_pointer (&data), len);
}

/* Twice is once; a process that ends later joins its node's summary, a
 * record whose removal failed replaces its copy there; another node's
 * summary is left alone. */
static void
test_again (Dirs *d, gconstpointer data)
{
  g_autofree char *name_a = mg_node_summary_file_name (hosts[0]);
  g_autofree char *name_b = mg_node_summary_file_name (hosts[1]);
  g_autoptr (GBytes) first = NULL;
  g_autoptr (GBytes) other = NULL;
  g_autoptr (GBytes) again = NULL;

  merge_node (d->nodes, hosts[0], PER_HOST, 0);
  merge_node (d->nodes, hosts[1], PER_HOST, 0);
  first = read_file (d->nodes, name_a);
  other = read_file (d->nodes, name_b);
  merge_node (d->nodes, hosts[0], 0, 0);
  again = read_file (d->nodes, name_a);
  g_assert_true (g_bytes_equal (first, again));

  write_record (d->direct, 0, PER_HOST);
  write_record (d->nodes, 0, PER_HOST);
  merge_node (d->nodes, hosts[0], 1, PER_HOST);
  write_record (d->nodes, 0, 1);
  merge_node (d->nodes, hosts[0], 1, PER_HOST);
  g_clear_pointer (&again, g_bytes_unref);
  again = read_file (d->nodes, name_b);
  g_assert_true (g_bytes_equal (other, again));
  g_assert_cmpuint (count_files (d->nodes, MG_NODE_SUMMARY_SUFFIX), ==, 2);
  g_assert_cmpuint (count_files (d->nodes, MG_RECORD_SUFFIX), ==, PER_HOST);
  assert_same_profile (d, 0);
}

/* The summary of node a, reduced, as bytes to damage. */
static char *
summary_of_a (Dirs *d)
{
  g_autofree char *name = mg_node_summary_file_name (hosts[0]);

  merge_node (d->nodes, hosts[0], PER_HOST, 0);
  return g_build_filename (d->nodes, name, NULL);
}

static void
write_bytes (const char *path, const char *data, gsize len)
{
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

static void
assert_open_fails (const char *path, int code, const char *words)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgNodeSummary) s = mg_node_summary_open (path, &error);
  g_autofree char *base = g_path_get_basename (path);

  g_assert_null (s);
  g_assert_error (error, MG_RECORD_ERROR, code);
  g_assert_nonnull (strstr (error->message, base));
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_damaged (Dirs *d, gconstpointer data)
{
  g_autofree char *path = summary_of_a (d);
  g_autofree char *good = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (MgNodeSummary) s = NULL;
  g_autoptr (MgRecordFile) r = NULL;
  g_autoptr (MgProfile) profile = NULL;
  gsize len;
  guint64 index_len;

  g_assert_true (g_file_get_contents (path, &good, &len, NULL));
  memcpy (&index_len, good + 16, 8);
  index_len = GUINT64_FROM_LE (index_len);
  bad = g_memdup2 (good, len);

  bad[0] = 'X';
  write_bytes (path, bad, len);
  assert_open_fails (path, MG_RECORD_ERROR_INVALID, "wrong magic");
  bad[0] = good[0];
  bad[8] = 9;
  write_bytes (path, bad, len);
  assert_open_fails (path, MG_RECORD_ERROR_VERSION, "version 9");
  bad[8] = good[8];
  write_bytes (path, bad, 24 + index_len / 2);
  assert_open_fails (path, MG_RECORD_ERROR_TRUNCATED, "truncated");
  bad[24 + index_len / 2] ^= 0x40;
  write_bytes (path, bad, len);
  assert_open_fails (path, MG_RECORD_ERROR_INVALID, "CRC");
  bad[24 + index_len / 2] = good[24 + index_len / 2];
  write_bytes (path, bad, len - 1);
  assert_open_fails (path, MG_RECORD_ERROR_INVALID, "do not fit the file");
  {
    g_autofree char *longer = g_malloc0 (len + 8);

    memcpy (longer, good, len);
    write_bytes (path, longer, len + 8);
    assert_open_fails (path, MG_RECORD_ERROR_INVALID, "bytes after its last process");
  }

  /* A damaged block: the index opens, that process does not. */
  bad[len - 10] ^= 0x01;
  write_bytes (path, bad, len);
  s = mg_node_summary_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_node_summary_get_n_processes (s), ==, PER_HOST);
  g_assert_cmpint (mg_node_summary_get_header (s, 0)->pid, ==, 200);
  g_assert_cmpstr (mg_node_summary_get_header (s, 0)->host, ==, hosts[0]);
  r = mg_node_summary_read_process (s, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->n_samples, ==, 100);
  g_assert_cmpint (mg_record_file_get_sample (r, 1)->t_start_ns, ==, 1000 * S + 20 * MS);
  g_assert_cmpfloat (mg_record_file_get_values (r, 0)[1].mean, ==, 512.0);
  g_clear_pointer (&r, mg_record_file_free);
  r = mg_node_summary_read_process (s, PER_HOST - 1, &error);
  g_assert_null (r);
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "pid 202"));
  g_assert_nonnull (strstr (error->message, "CRC"));
  g_clear_error (&error);

  /* The merge goes on without it and says so, naming the file. */
  profile = merge (d->nodes, 0);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, N_HOSTS * PER_HOST - 1);
  {
    gboolean named = FALSE;

    for (guint i = 0; i < mg_profile_get_n_plugin_errors (profile); i++)
      {
        const MgPluginError *e = mg_profile_get_plugin_error (profile, i);

        named = named || (e->process == -1 && strstr (e->message, path) != NULL);
      }
    g_assert_true (named);
  }

  /* A damaged earlier summary is not overwritten. */
  write_record (d->nodes, 0, 0);
  g_assert_false (mg_node_summary_merge (d->nodes, hosts[0], NULL, &error));
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
  g_assert_cmpuint (count_files (d->nodes, MG_RECORD_SUFFIX), ==, (N_HOSTS - 1) * PER_HOST + 1);
}

/* A record of this host and process, still running, with one sample
 * (added by the caller once its header is as wanted); host receives the
 * host's name. */
static RecordFixture *
running_record_of_this_host (char host[MG_RECORD_HOST_LEN])
{
  RecordFixture *r = record_fixture_new (1, 1, 4);
  MgRecordHeader *h = record_fixture_header (r);

  mg_record_host_name (host);
  h->pid = getpid ();
  g_strlcpy (h->host, host, sizeof h->host);
  g_strlcpy (h->run_id, "run", sizeof h->run_id);
  h->start_mono_ns = S;
  h->start_real_ns = 1700000000 * S;
  h->state = MG_RECORD_STATE_RUNNING;
  return r;
}

/* A record of this host still open by a live process is left for later;
 * one that cannot be read is left for the front end to name. */
static void
test_running_and_damaged (Dirs *d, gconstpointer data)
{
  char host[MG_RECORD_HOST_LEN];
  g_autoptr (RecordFixture) r = running_record_of_this_host (host);
  MgRecordHeader *h = record_fixture_header (r);
  g_autofree char *live = g_build_filename (d->root, "live.mgrec", NULL);
  g_autofree char *bad = g_build_filename (d->root, "bad.mgrec", NULL);
  g_autoptr (GError) error = NULL;
  double v = 1.0;
  MgNodeSummaryStats stats;

  record_fixture_add_sample (r, S, 2 * S, &v);
  record_fixture_write (r, live);
  g_assert_true (g_file_set_contents (bad, "MGREC", -1, NULL));
  g_assert_true (mg_node_summary_merge (d->root, host, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_records, ==, 0);
  g_assert_cmpuint (stats.n_running, ==, 1);
  g_assert_cmpuint (stats.n_damaged, ==, 1);
  g_assert_true (g_file_test (live, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (d->root, MG_NODE_SUMMARY_SUFFIX), ==, 0);

  /* Ended, it is taken. */
  h->state = MG_RECORD_STATE_EXITED;
  h->end_mono_ns = 2 * S;
  record_fixture_write (r, live);
  g_assert_true (mg_node_summary_merge (d->root, host, &stats, &error));
  g_assert_cmpuint (stats.n_records, ==, 1);
  g_assert_false (g_file_test (live, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (bad, G_FILE_TEST_EXISTS));
}

/* A copy taken at MPI_Finalize (TRANSFERRED) is taken although its
 * process still runs: the copy never changes. */
static void
test_transferred_copy (Dirs *d, gconstpointer data)
{
  char host[MG_RECORD_HOST_LEN];
  g_autoptr (RecordFixture) r = running_record_of_this_host (host);
  MgRecordHeader *h = record_fixture_header (r);
  g_autofree char *copy = g_build_filename (d->root, "copy.mgrec", NULL);
  g_autofree char *name = NULL;
  g_autofree char *summary = NULL;
  g_autoptr (MgNodeSummary) s = NULL;
  g_autoptr (GError) error = NULL;
  double v = 1.0;
  MgNodeSummaryStats stats;

  h->flags |= MG_RECORD_FLAG_TRANSFERRED;
  h->end_mono_ns = 3 * S;
  record_fixture_add_sample (r, S, 2 * S, &v);
  record_fixture_write (r, copy);
  g_assert_true (mg_node_summary_merge (d->root, host, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_records, ==, 1);
  g_assert_cmpuint (stats.n_running, ==, 0);
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
  name = mg_node_summary_file_name (host);
  summary = g_build_filename (d->root, name, NULL);
  s = mg_node_summary_open (summary, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_node_summary_get_n_processes (s), ==, 1);
  g_assert_cmpint (mg_node_summary_get_header (s, 0)->pid, ==, getpid ());
  g_assert_cmpuint (mg_node_summary_get_header (s, 0)->flags & MG_RECORD_FLAG_TRANSFERRED, !=, 0);
  g_assert_cmpint (mg_node_summary_get_header (s, 0)->end_mono_ns, ==, 3 * S);
}

#define STACKS_PER_HOST 2
#define STACK_SLOTS 3

/* Process j of host h with call stacks: a stack all of them share, one of
 * its own, one through libm in every other slot, and a stack still being
 * written when the record ended (never counted). */
static void
write_stacks_record (const char *dir, guint h, guint j)
{
  MgRecordWriter w;
  char err[256];
  guint p = h * STACKS_PER_HOST + j;
  uint64_t shared[] = { 0x401000, 0x402000, 0x403000 };
  uint64_t own[] = { 0x401100 + p * 0x10, 0x403000 };
  uint64_t libm[] = { 0x7f0000000200, 0x402000, 0x403000 };
  uint64_t unready[] = { 0x404000 };
  gint64 start = (h + 1) * 1000 * S + 500 * MS + p * MS;

  g_assert_cmpint (mg_record_create_with_stacks (&w, dir, hosts[h], "run", 400 + (int) p, start,
                                                 0, 1, 16, 8, err, sizeof err), ==, 0);
  g_assert_cmpint (mg_record_stacks_reserve (&w, err, sizeof err), ==, 0);
  MgRecordHeader *hd = w.header;
  MgRecordStacks *t = w.stacks;
  MgRecordModule *m = mg_record_stacks_modules (t);
  hd->ppid = 1;
  hd->rank = -1;
  g_strlcpy (hd->program, "/bin/prog", sizeof hd->program);
  hd->start_real_ns = 1700000000 * S + 500 * MS + p * MS + h * 1234;
  hd->interval_start_ns = hd->interval_ns = 20 * MS;
  g_strlcpy (w.metrics[0].id, "alpha", MG_RECORD_ID_LEN);
  w.metrics[0].flags = MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE;
  m[0] = (MgRecordModule) { .start = 0x400000, .end = 0x500000, .load_bias = 0x3ff000 };
  g_strlcpy (m[0].path, "/bin/prog", sizeof m[0].path);
  m[1] = (MgRecordModule) { .start = 0x7f0000000000, .end = 0x7f0000100000,
                            .load_bias = 0x7f0000000000, .build_id_len = 3,
                            .build_id = { 0xab, 0xcd, (guint8) p } };
  g_strlcpy (m[1].path, "/lib/libm.so.6", sizeof m[1].path);
  t->n_modules = 2;
  /* Its threads' names, one not UTF-8: a summary carries them too. */
  g_assert_true (mg_record_stacks_name_thread (t, 400 + (int) p, 0, "prog"));
  g_assert_true (mg_record_stacks_name_thread (t, 5000 + (int) p, 1, "worker\xe9"));
  for (guint slot = 0; slot < STACK_SLOTS; slot++)
    {
      for (guint k = 0; k < 2 + p; k++)
        mg_record_stacks_add (t, shared, 3, 0);
      mg_record_stacks_add (t, own, 2, MG_RECORD_STACK_TRUNCATED);
      if (slot % 2 == 0)
        mg_record_stacks_add (t, libm, 3, 0);
      MgRecordSample *sample = mg_record_slot (&w, slot);
      sample->t_start_ns = start + slot * 20 * MS;
      sample->t_end_ns = start + (slot + 1) * 20 * MS;
      sample->n_raw = 1;
      mg_record_slot_values (sample)[0] = (MgRecordValue) { p, p, p, 1, 0 };
      mg_record_stacks_drain (t, slot);
      mg_record_commit (&w);
    }
  mg_record_stacks_add (t, unready, 1, 0);
  mg_record_stacks_entries (t)[t->n_stacks - 1].flags &= (uint16_t) ~MG_RECORD_STACK_READY;
  hd->end_mono_ns = start + STACK_SLOTS * 20 * MS + 5 * MS;
  hd->state = MG_RECORD_STATE_EXITED;
  mg_record_forget (&w);
}

static void
write_stacks_records (Dirs *d)
{
  for (guint h = 0; h < N_HOSTS; h++)
    for (guint j = 0; j < STACKS_PER_HOST; j++)
      {
        write_stacks_record (d->direct, h, j);
        write_stacks_record (d->nodes, h, j);
      }
}

/* The stacks of the processes with stacks, whole run: process p has
 * STACK_SLOTS × (2 + p) samples of the shared stack, STACK_SLOTS of its own
 * and 2 through libm. */
static void
check_node_stacks (MgProfile *profile)
{
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  guint n_procs = N_HOSTS * STACKS_PER_HOST;
  guint64 want = 0;

  for (guint p = 0; p < n_procs; p++)
    want += STACK_SLOTS * (2 + p) + STACK_SLOTS + 2;
  g_assert_cmpuint (mg_stack_set_get_n_processes (all), ==, n_procs);
  g_assert_cmpuint (mg_stack_set_get_total (all), ==, want);
  /* The shared stack, and per process its own and its libm's (each libm
   * has its own build-id): the unready one is in none. */
  g_assert_cmpuint (mg_stack_set_get_n_stacks (all), ==, 1 + n_procs + n_procs);
  g_assert_cmpuint (mg_stack_set_get_lost (all), ==, n_procs);
  /* Each process with stacks names its two threads. */
  g_assert_cmpuint (mg_profile_get_n_thread_names (profile), ==, 2 * n_procs);
  for (guint i = 0; i < mg_profile_get_n_processes (profile); i++)
    {
      gint32 tid;
      const char *name = mg_profile_get_thread_name (profile, i, 1, &tid);
      int pid = mg_profile_get_process (profile, i)->pid;
      if (name == NULL)
        continue;
      g_assert_cmpstr (name, ==, "worker\xe9");
      g_assert_cmpint (tid - 5000, ==, pid - 400);
      g_assert_cmpstr (mg_profile_get_thread_name (profile, i, 0, &tid), ==, "prog");
      g_assert_cmpint (tid, ==, pid);
    }
  for (guint s = 0; s < mg_stack_set_get_n_stacks (all); s++)
    {
      guint n, flags;
      const MgStackFrame *f = mg_stack_set_get_frames (all, s, &n, &flags);

      g_assert_cmpuint (f[0].vaddr, !=, 0x404000 - 0x3ff000);
      if (f[0].module == 0 && f[0].vaddr == 0x401000 - 0x3ff000)
        {
          g_assert_cmpuint (n, ==, 3);
          g_assert_cmpuint (mg_stack_set_get_count (all, s), ==,
                            STACK_SLOTS * (2 * n_procs + n_procs * (n_procs - 1) / 2));
        }
      else if (n == 2)
        g_assert_cmpuint (flags, ==, MG_STACK_TRUNCATED);
    }
}

/* Records with call stacks reduced per node: the profile is the same, its
 * stacks member included (the saved file's bytes), as the records'. */
static void
test_stacks (Dirs *d, gconstpointer data)
{
  write_stacks_records (d);
  for (guint h = 0; h < N_HOSTS; h++)
    merge_node (d->nodes, hosts[h], PER_HOST + STACKS_PER_HOST, 0);
  g_assert_cmpuint (count_files (d->nodes, MG_RECORD_SUFFIX), ==, 0);
  assert_same_profile (d, 0);
  assert_same_profile (d, 8);
  {
    g_autoptr (MgProfile) combined = merge (d->nodes, 0);

    check_node_stacks (combined);
  }
  /* Reduced again with one more record: the earlier processes' stacks are
   * copied as they are. */
  write_stacks_record (d->direct, 0, STACKS_PER_HOST);
  write_stacks_record (d->nodes, 0, STACKS_PER_HOST);
  merge_node (d->nodes, hosts[0], 1, PER_HOST + STACKS_PER_HOST);
  assert_same_profile (d, 0);
}

/* A summary's stacks damaged: that process is an error naming it. */
static void
test_stacks_damaged (Dirs *d, gconstpointer data)
{
  g_autofree char *name = mg_node_summary_file_name (hosts[0]);
  g_autofree char *path = g_build_filename (d->nodes, name, NULL);
  g_autofree char *bytes = NULL;
  g_autoptr (MgNodeSummary) s = NULL;
  g_autoptr (MgRecordFile) r = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  write_stacks_records (d);
  merge_node (d->nodes, hosts[0], PER_HOST + STACKS_PER_HOST, 0);
  s = mg_node_summary_open (path, &error);
  g_assert_no_error (error);
  /* Name order: the metrics records (pids 200…) first, then the stacks
   * records (400, 401). */
  g_assert_cmpint (mg_node_summary_get_header (s, PER_HOST + 1)->pid, ==, 401);
  r = mg_node_summary_read_process (s, PER_HOST + 1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r->stacks);
  g_assert_cmpuint (r->stacks->n_stacks, ==, 3);  /* the unready one left out */
  g_assert_cmpuint (r->stacks->n_taken, ==, STACK_SLOTS * (2 + 1) + STACK_SLOTS + 2 + 1);
  g_assert_cmpuint (mg_record_stacks_slot (r->stacks, 1)->n_pairs, ==, 2);
  g_clear_pointer (&r, mg_record_file_free);
  g_clear_pointer (&s, mg_node_summary_unref);
  /* The last process's stacks are the file's last bytes: one of them
   * flipped, that process's stacks are refused, the others' read. */
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  bytes[len - 5] ^= 0x10;
  write_bytes (path, bytes, len);
  s = mg_node_summary_open (path, &error);
  g_assert_no_error (error);
  r = mg_node_summary_read_process (s, PER_HOST, &error);
  g_assert_no_error (error);
  g_assert_nonnull (r->stacks);
  g_clear_pointer (&r, mg_record_file_free);
  r = mg_node_summary_read_process (s, PER_HOST + 1, &error);
  g_assert_null (r);
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "call stacks of process 5 (pid 401)"));
  g_assert_nonnull (strstr (error->message, name));
}

/* A summary of version 1 (no stacks) as an older Metrograph wrote it. */
static void
rewrite_as_version_1 (const char *path)
{
  g_autoptr (MgNodeSummary) s = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *bytes = NULL;
  gsize len;
  guint64 index_len;

  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  memcpy (&index_len, bytes + 16, 8);
  index_len = GUINT64_FROM_LE (index_len);
  g_autoptr (GBytes) index_bytes = g_bytes_new (bytes + 24, index_len);
  g_autoptr (GVariant) index = g_variant_ref_sink (g_variant_new_from_bytes (
    G_VARIANT_TYPE ("(aya((iiiuayayayxxxuittutiayi)a(ayayuiay)a(ayuuuiuuxxay)utt))"), index_bytes,
    FALSE));
  g_autoptr (GVariant) host = g_variant_get_child_value (index, 0);
  g_autoptr (GVariant) procs = g_variant_get_child_value (index, 1);
  GVariantBuilder b;
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a((iiiuayayayxxxuittutiayi)a(ayayuiay)a(ayuuuiuuxxay)ut)"));
  for (gsize i = 0; i < g_variant_n_children (procs); i++)
    {
      g_autoptr (GVariant) facts = NULL, plugins = NULL, metrics = NULL;
      guint32 n;
      guint64 size, stacks;

      g_variant_get_child (procs, i, "(@(iiiuayayayxxxuittutiayi)@a(ayayuiay)@a(ayuuuiuuxxay)utt)",
                           &facts, &plugins, &metrics, &n, &size, &stacks);
      g_assert_cmpuint (stacks, ==, 0);
      g_variant_builder_add (&b, "(@(iiiuayayayxxxuittutiayi)@a(ayayuiay)@a(ayuuuiuuxxay)ut)",
                             facts, plugins, metrics, n, size);
    }
  g_autoptr (GVariant) old = g_variant_ref_sink (g_variant_new ("(@ay@a((iiiuayayayxxxuittutiayi)a(ayayuiay)a(ayuuuiuuxxay)ut))",
                                                                host, g_variant_builder_end (&b)));
  gsize old_len = g_variant_get_size (old);
  gsize blocks = len - 24 - index_len;
  g_autofree char *out = g_malloc (24 + old_len + blocks);
  guint32 version = GUINT32_TO_LE (1);
  guint32 crc;
  guint64 len_le = GUINT64_TO_LE ((guint64) old_len);

  g_assert_true (G_BYTE_ORDER == G_LITTLE_ENDIAN);
  memcpy (out, bytes, 8);
  g_variant_store (old, out + 24);
  crc = GUINT32_TO_LE (mg_crc32_update (0, out + 24, old_len));
  memcpy (out + 8, &version, 4);
  memcpy (out + 12, &crc, 4);
  memcpy (out + 16, &len_le, 8);
  memcpy (out + 24 + old_len, bytes + 24 + index_len, blocks);
  write_bytes (path, out, 24 + old_len + blocks);
  s = mg_node_summary_open (path, &error);
  g_assert_no_error (error);
}

/* Summaries of version 1 are still read, and a reduction keeps their
 * processes (written as version 2). */
static void
test_version_1 (Dirs *d, gconstpointer data)
{
  for (guint h = 0; h < N_HOSTS; h++)
    {
      g_autofree char *name = mg_node_summary_file_name (hosts[h]);
      g_autofree char *path = g_build_filename (d->nodes, name, NULL);
      guint32 version;
      g_autofree char *bytes = NULL;

      merge_node (d->nodes, hosts[h], PER_HOST, 0);
      rewrite_as_version_1 (path);
      g_assert_true (g_file_get_contents (path, &bytes, NULL, NULL));
      memcpy (&version, bytes + 8, 4);
      g_assert_cmpuint (GUINT32_FROM_LE (version), ==, 1);
    }
  assert_same_profile (d, 0);
  write_stacks_record (d->direct, 1, 0);
  write_stacks_record (d->nodes, 1, 0);
  merge_node (d->nodes, hosts[1], 1, PER_HOST);
  assert_same_profile (d, 0);
}

/* Stacks packed as version 2 wrote them: the first twelve members, the
 * length's top bit clear. */
static GBytes *
stacks_as_version_2 (GBytes *packed)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (packed, &size);
  guint64 raw_len;
  memcpy (&raw_len, data + 4, 8);
  raw_len = GUINT64_FROM_LE (raw_len);
  g_assert_true (raw_len >> 63);
  raw_len &= ~(G_GUINT64_CONSTANT (1) << 63);
  g_autofree guint8 *raw = g_malloc (raw_len);
  uLongf got = raw_len;
  g_assert_cmpint (uncompress (raw, &got, data + 12, size - 12), ==, Z_OK);
  g_autoptr (GBytes) raw_bytes = g_bytes_new_static (raw, got);
  g_autoptr (GVariant) v3 = g_variant_ref_sink (g_variant_new_from_bytes (
    G_VARIANT_TYPE ("(uittttta(tttayay)a(qat)auaua(uu)a(iuay))"), raw_bytes, FALSE));
  GVariant *children[12];
  for (guint i = 0; i < 12; i++)
    children[i] = g_variant_get_child_value (v3, i);
  g_autoptr (GVariant) v2 = g_variant_ref_sink (g_variant_new_tuple (children, 12));
  for (guint i = 0; i < 12; i++)
    g_variant_unref (children[i]);
  gsize len2 = g_variant_get_size (v2);
  g_autofree guint8 *raw2 = g_malloc (len2);
  g_variant_store (v2, raw2);
  uLongf packed_len = compressBound (len2);
  guint8 *out = g_malloc (12 + packed_len);
  g_assert_cmpint (compress (out + 12, &packed_len, raw2, len2), ==, Z_OK);
  guint64 len_le = GUINT64_TO_LE ((guint64) len2);
  memcpy (out + 4, &len_le, 8);
  guint32 crc = GUINT32_TO_LE (mg_crc32_update (0, out + 4, 8 + packed_len));
  memcpy (out, &crc, 4);
  return g_bytes_new_take (out, 12 + packed_len);
}

/* A record's stacks through a summary: with their threads' names in
 * version 3, without as version 2 packed them (still read: the same
 * stacks, no names). */
static void
test_stacks_version_2 (Dirs *d, gconstpointer data)
{
  write_stacks_record (d->direct, 0, 1);
  g_autoptr (GDir) dir = g_dir_open (d->direct, 0, NULL);
  const char *entry;
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRecordFile) r = NULL;
  /* The one record with stacks among the fixture's. */
  while (r == NULL && (entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (entry, MG_RECORD_SUFFIX))
      {
        g_autofree char *path = g_build_filename (d->direct, entry, NULL);
        r = mg_record_file_read (path, &error);
        g_assert_no_error (error);
        if (r->stacks == NULL)
          g_clear_pointer (&r, mg_record_file_free);
      }
  g_assert_nonnull (r);
  /* The fixture's last stack was never finished: a summary leaves it out. */
  guint32 n_stacks = r->stacks->n_stacks - 1;
  g_autoptr (GBytes) packed = mg_node_stacks_encode (r);
  g_autoptr (GBytes) packed_2 = stacks_as_version_2 (packed);

  /* An ended record is mapped or copied whole: its stacks lie in that, not
   * on a heap block of their own. The decoded ones below are the test's own to free. */
  if (r->mapped == NULL && r->whole == NULL)
    g_free (r->stacks);
  r->stacks = NULL;
  g_assert_true (mg_node_stacks_decode (g_bytes_get_data (packed, NULL),
                                        g_bytes_get_size (packed), r, "x", 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->stacks->n_stacks, ==, n_stacks);
  g_assert_cmpuint (r->stacks->n_thread_names, ==, 2);
  const MgRecordThread *named = mg_record_stacks_threads (r->stacks);
  g_assert_cmpstr (named[1].name, ==, "worker\xe9");
  g_assert_cmpint (named[1].tid, ==, 5001);
  g_assert_cmpuint (named[1].ordinal, ==, 1);

  g_clear_pointer (&r->stacks, g_free);
  g_assert_true (mg_node_stacks_decode (g_bytes_get_data (packed_2, NULL),
                                        g_bytes_get_size (packed_2), r, "x", 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->stacks->n_stacks, ==, n_stacks);
  g_assert_cmpuint (r->stacks->n_thread_names, ==, 0);
  g_clear_pointer (&r->stacks, g_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/node-summary/combine-equals-direct", Dirs, NULL, dirs_set_up,
              test_combine_equals_direct, dirs_tear_down);
  g_test_add ("/node-summary/missing-ranks", Dirs, NULL, dirs_set_up, test_missing_ranks,
              dirs_tear_down);
  g_test_add ("/node-summary/mixed", Dirs, NULL, dirs_set_up, test_mixed, dirs_tear_down);
  g_test_add ("/node-summary/again", Dirs, NULL, dirs_set_up, test_again, dirs_tear_down);
  g_test_add ("/node-summary/running-and-damaged", Dirs, NULL, dirs_set_up,
              test_running_and_damaged, dirs_tear_down);
  g_test_add ("/node-summary/transferred-copy", Dirs, NULL, dirs_set_up, test_transferred_copy,
              dirs_tear_down);
  g_test_add ("/node-summary/damaged", Dirs, NULL, dirs_set_up, test_damaged, dirs_tear_down);
  g_test_add ("/node-summary/stacks", Dirs, NULL, dirs_set_up, test_stacks, dirs_tear_down);
  g_test_add ("/node-summary/stacks-damaged", Dirs, NULL, dirs_set_up, test_stacks_damaged,
              dirs_tear_down);
  g_test_add ("/node-summary/version-1", Dirs, NULL, dirs_set_up, test_version_1, dirs_tear_down);
  g_test_add ("/node-summary/stacks-version-2", Dirs, NULL, dirs_set_up, test_stacks_version_2,
              dirs_tear_down);
  return g_test_run ();
}
