/* SPDX-License-Identifier: GPL-3.0-or-later */
/* End-to-end tests of libmetrograph-sampler.so: a workload runs with the
 * sampler preloaded and a hand-written plan, its records are read back and
 * checked against what the test plugin logged. Assertions use the recorded
 * times, never wall-clock guesses, so scheduling noise cannot break them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity */
#endif
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <sched.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/mg-record-format.h"
#include "format/mg-record-writer.h"

#include "format/mg-record-stacks.h"
#include "format/mg-run-folder-layout.h"
#include "mg-test-common.h"

typedef struct {
  char *path;
  char *data;
  gsize len;
} Record;

typedef struct {
  char *dir;      /* everything of one test lives here */
  char *rec_dir;
  char *plan;
  char *log;
  GPtrArray *records; /* Record*, the latest take_records() */
} Fixture;

static const char *
build_root (void)
{
  const char *root = g_getenv ("MG_BUILD_ROOT");
  g_assert_nonnull (root);
  return root;
}

static char *
build_file (const char *name)
{
  return g_build_filename (build_root (), "tests", "sampler", name, NULL);
}

/* Every test's folder: records/ below it, the plan and the plugin's log
 * beside. */
static void
fixture_setup (Fixture *f, gconstpointer user_data)
{
  f->dir = mg_test_make_dir ("sampler");
  f->rec_dir = g_build_filename (f->dir, "records", NULL);
  g_assert_cmpint (g_mkdir (f->rec_dir, 0755), ==, 0);
  f->plan = g_build_filename (f->dir, "plan", NULL);
  f->log = g_build_filename (f->dir, "log", NULL);
  f->records = NULL;
}

static void
fixture_teardown (Fixture *f, gconstpointer user_data)
{
  g_clear_pointer (&f->records, g_ptr_array_unref);
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->rec_dir);
  g_free (f->plan);
  g_free (f->log);
}

/* Writes a plan: header, run_id, record_dir, interval, then body lines. The
 * test plugin is source 0 unless body says otherwise. */
/* write_plan with source 0 from @library, a build of mg-test-plugin.c. */
static void
write_plan_of (Fixture *f, const char *library, int interval_ms, const char *body)
{
  g_autofree char *plugin = build_file (library);
  g_autofree char *text = g_strdup_printf ("metrograph-plan 1\n# test plan\nrun_id\trun-1\n"
                                           "record_dir\t%s\ninterval_ms\t%d\n"
                                           "source\t0\ttest.src\t%s\ttest_start\ttest_stop\n%s",
                                           f->rec_dir, interval_ms, plugin, body);
  g_autoptr(GError) error = NULL;
  g_file_set_contents (f->plan, text, -1, &error);
  g_assert_no_error (error);
}

static void
write_plan (Fixture *f, int interval_ms, const char *body)
{
  write_plan_of (f, "libmg-test-plugin.so", interval_ms, body);
}

static char **
workload_env (Fixture *f, const char *plan)
{
  g_autofree char *so = g_build_filename (build_root (), "sampler",
                                          "libmetrograph-sampler.so", NULL);
  char **env = g_get_environ ();
  env = g_environ_setenv (env, "LD_PRELOAD", so, TRUE);
  env = g_environ_setenv (env, MG_PLAN_ENV, plan, TRUE);
  env = g_environ_setenv (env, "MG_TEST_LOG", f->log, TRUE);
  env = g_environ_unsetenv (env, "METROGRAPH_SAMPLER_VERBOSE");
  const char *rank_vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
                              "MV2_COMM_WORLD_RANK" };
  for (guint i = 0; i < G_N_ELEMENTS (rank_vars); i++)
    env = g_environ_unsetenv (env, rank_vars[i]);
  return env;
}

/* Runs the workload synchronously; returns its wait status. */
static int
run_workload (Fixture *f, const char *plan, const char *const *args, char **out, char **err,
              const char *extra_env)
{
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = workload_env (f, plan);
  if (extra_env)
    {
      g_auto(GStrv) kv = g_strsplit (extra_env, "=", 2);
      env = g_environ_setenv (env, kv[0], kv[1], TRUE);
    }
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, exe);
  for (; *args; args++)
    g_ptr_array_add (argv, (char *) *args);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv->pdata, env,
                out ? G_SPAWN_DEFAULT : G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  g_ptr_array_free (argv, TRUE);
  return status;
}

static const char *const RUN_300[] = { "run", "300", "0", NULL };

/* ---- the record reader ---- */

static const MgRecordHeader *
hdr (const Record *r)
{
  return (const MgRecordHeader *) r->data;
}

static const MgRecordPlugin *
rec_plugin (const Record *r, guint i)
{
  return (const MgRecordPlugin *) (r->data + hdr (r)->plugins_offset) + i;
}

static const MgRecordMetric *
rec_metric (const Record *r, guint i)
{
  return (const MgRecordMetric *) (r->data + hdr (r)->metrics_offset) + i;
}

static const MgRecordSample *
rec_slot (const Record *r, guint i)
{
  return (const MgRecordSample *) (r->data + hdr (r)->samples_offset
                                   + (gsize) i * hdr (r)->sample_stride);
}

static const MgRecordValue *
rec_value (const Record *r, guint slot, guint metric)
{
  return (const MgRecordValue *) (rec_slot (r, slot) + 1) + metric;
}

static void
record_free (gpointer p)
{
  Record *r = p;
  g_free (r->path);
  g_free (r->data);
  g_free (r);
}

static void
check_record (const Record *r)
{
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (r->len, >=, sizeof *h);
  g_assert_cmpmem (h->magic, MG_RECORD_MAGIC_LEN, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN);
  g_assert_cmpuint (h->version, ==, MG_RECORD_VERSION);
  g_assert_cmpuint (h->header_size, ==, sizeof *h);
  g_assert_cmpuint (h->file_size, ==, r->len);
  g_assert_cmpuint (h->sample_stride, ==,
                    sizeof (MgRecordSample) + h->n_metrics * sizeof (MgRecordValue));
  /* The slots, then the call-stack section when stacks are on. */
  guint64 stacks_size = (h->sections & MG_RECORD_SECTION_STACKS)
                          ? mg_record_stacks_layout (NULL, MG_RECORD_STACKS_DEFAULT_MAX, h->capacity)
                          : 0;
  g_assert_cmpuint (mg_record_sections_offset (h) + stacks_size, ==, r->len);
  g_assert_cmpuint (h->n_samples, <=, h->capacity);
  g_assert_cmpuint (h->seq % 2, ==, 0);
  g_assert_cmpstr (h->run_id, ==, "run-1");
  g_autofree char *name = g_path_get_basename (r->path);
  g_autofree char *expect = g_strdup_printf ("%s.%d.%lld.mgrec", h->host, h->pid,
                                             (long long) h->start_mono_ns);
  g_assert_cmpstr (name, ==, expect);
  /* Windows are contiguous and ordered. */
  for (guint i = 0; i < h->n_samples; i++)
    {
      const MgRecordSample *s = rec_slot (r, i);
      g_assert_cmpint (s->t_start_ns, <, s->t_end_ns);
      g_assert_cmpuint (s->n_raw, >=, 1);
      if (i > 0)
        g_assert_cmpint (s->t_start_ns, ==, rec_slot (r, i - 1)->t_end_ns);
    }
}

/* Every record in the folder, sorted by start time. */
static GPtrArray *
read_records (Fixture *f)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (record_free);
  g_autoptr(GDir) dir = g_dir_open (f->rec_dir, 0, NULL);
  g_assert_nonnull (dir);
  const char *name;
  while ((name = g_dir_read_name (dir)))
    {
      if (!g_str_has_suffix (name, MG_RECORD_SUFFIX))
        continue;
      Record *r = g_new0 (Record, 1);
      r->path = g_build_filename (f->rec_dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_file_get_contents (r->path, &r->data, &r->len, &error);
      g_assert_no_error (error);
      check_record (r);
      g_ptr_array_add (out, r);
    }
  return out;
}

static Record *
only_record (GPtrArray *records)
{
  g_assert_cmpuint (records->len, ==, 1);
  return records->pdata[0];
}

/* The records now in the folder, kept by the fixture until the next call
 * (or the end of the test). */
static GPtrArray *
take_records (Fixture *f)
{
  g_clear_pointer (&f->records, g_ptr_array_unref);
  f->records = read_records (f);
  return f->records;
}

/* The one record in the folder. */
static Record *
the_record (Fixture *f)
{
  return only_record (take_records (f));
}

/* Runs the workload with f's plan, which must exit with @exit_status. */
static void
run_expecting (Fixture *f, const char *const *args, const char *extra_env, int exit_status)
{
  int status = run_workload (f, f->plan, args, NULL, NULL, extra_env);

  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == exit_status);
}

/* Log lines "TAG SEC NSEC PID" of one tag, as nanoseconds. */
static GArray *
log_times (Fixture *f, const char *tag, int pid)
{
  g_autofree char *text = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (!g_file_get_contents (f->log, &text, NULL, NULL))
    return out;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      char t[32];
      long long sec, nsec;
      int p;
      if (sscanf (*l, "%31s %lld %lld %d", t, &sec, &nsec, &p) == 4 && strcmp (t, tag) == 0
          && (pid == 0 || p == pid))
        {
          gint64 ns = sec * 1000000000LL + nsec;
          g_array_append_val (out, ns);
        }
    }
  return out;
}

static char *
log_tags (Fixture *f)
{
  g_autofree char *text = NULL;
  g_file_get_contents (f->log, &text, NULL, NULL);
  GString *out = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (char **l = lines; *l; l++)
    if (**l && !g_str_has_prefix (*l, "COUNT") && !g_str_has_prefix (*l, "PCT")
        && !g_str_has_prefix (*l, "BACKFILL"))
      {
        g_auto(GStrv) w = g_strsplit (*l, " ", 2);
        g_string_append_printf (out, "%s%s", out->len ? " " : "", w[0]);
      }
    else if (g_str_has_prefix (*l, "BACKFILL") && !g_str_has_suffix (out->str, "BACKFILL"))
      g_string_append (out, " BACKFILL");
  return g_string_free (out, FALSE);
}

/* The tags of the calls logged by process pid, in order. */
static char *
log_tags_of (Fixture *f, int pid)
{
  g_autofree char *text = NULL;
  g_file_get_contents (f->log, &text, NULL, NULL);
  GString *out = g_string_new (NULL);
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  for (char **l = lines; *l; l++)
    {
      g_auto(GStrv) w = g_strsplit (*l, " ", 4);
      if (g_strv_length (w) == 4 && atoi (w[3]) == pid && strcmp (w[0], "COUNT") != 0)
        g_string_append_printf (out, "%s%s", out->len ? " " : "", w[0]);
    }
  return g_string_free (out, FALSE);
}

#define METRIC(i, id, getter, type, units, divide, node, backfill, custom)              \
  "metric\t" #i "\t0\t" id "\t" getter "\t" type "\t" units "\t" #divide "\t" #node "\t" \
  #backfill "\ttime\t\t" custom "\n"

/* The plan line most tests sample: the test plugin's call counter. */
#define COUNT_METRIC METRIC (0, "t.count", "test_count", "uint64_t", "", 0, 0, 0, "")

/* ---- tests ---- */

static void
test_divide (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5,
              METRIC (0, "t.count", "test_count", "uint64_t", "/s", 1, 0, 0, "")
              METRIC (1, "t.raw", "test_count", "uint64_t", "/s", 0, 0, 0, ""));
  run_expecting (f, RUN_300, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (h->end_status, ==, 0);
  g_assert_cmpint (h->rank, ==, -1);
  g_assert_true (g_str_has_suffix (h->program, "/mg-test-workload"));
  g_assert_cmpint (h->end_mono_ns, >=, rec_slot (r, h->n_samples - 1)->t_end_ns);
  g_assert_cmpuint (h->interval_start_ns, ==, 5000000);
  g_assert_cmpuint (h->n_samples, >=, 5);
  g_assert_cmpuint (h->n_merges, ==, 0);
  g_assert_true (rec_metric (r, 0)->flags & MG_METRIC_FLAG_DIVIDE);
  g_assert_true (rec_metric (r, 0)->flags & MG_METRIC_FLAG_ACTIVE);

  /* Both metrics call test_count, which logs the time it moved to: entries
   * alternate divide/raw within a round, and the raw one, called later,
   * moves the round's time further. The rate is over the slot's span (from
   * the previous slot's end), not the divided metric's own read times, so
   * that the rate integrated over the slots is the count: 1000 a round. */
  g_autoptr(GArray) times = log_times (f, "COUNT", h->pid);
  g_assert_cmpuint (times->len, ==, 2 * h->n_samples);
  gint64 prev = rec_slot (r, 0)->t_start_ns;
  double integral = 0;
  for (guint i = 0; i < h->n_samples; i++)
    {
      gint64 t = rec_slot (r, i)->t_end_ns;
      const MgRecordValue *v = rec_value (r, i, 0);
      double expect = 1000.0 / ((double) (t - prev) / 1e9);
      g_assert_cmpint (g_array_index (times, gint64, 2 * i), <=, t);
      g_assert_cmpint (rec_slot (r, i)->t_start_ns, ==, prev);
      integral += v->mean * (double) (t - prev) / 1e9;
      g_assert_cmpuint (v->count, ==, 1);
      g_assert_cmpfloat_with_epsilon (v->mean, expect, expect * 1e-12);
      g_assert_cmpfloat (v->min, ==, v->mean);
      g_assert_cmpfloat (v->max, ==, v->mean);
      g_assert_cmpfloat (rec_value (r, i, 1)->mean, ==, 1000.0);
      /* The slot's time is the latest time a getter moved it to. */
      g_assert_cmpint (rec_slot (r, i)->t_end_ns, ==, g_array_index (times, gint64, 2 * i + 1));
      prev = t;
    }
  g_assert_cmpfloat_with_epsilon (integral, 1000.0 * h->n_samples, 1e-9 * integral);
}

static void
test_percent (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, METRIC (0, "t.pct", "test_pct", "double", "%", 1, 0, 0, ""));
  run_expecting (f, RUN_300, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_true (rec_metric (r, 0)->flags & MG_METRIC_FLAG_PERCENT);
  g_assert_true (rec_metric (r, 0)->flags & MG_METRIC_FLAG_DOUBLE);
  g_autoptr(GArray) times = log_times (f, "PCT", h->pid);
  g_assert_cmpuint (times->len, ==, h->n_samples);
  gint64 prev = rec_slot (r, 0)->t_start_ns;
  for (guint i = 0; i < h->n_samples; i++)
    {
      gint64 t = g_array_index (times, gint64, i);
      /* Not moved: the getter got the slot's time. */
      g_assert_cmpint (t, ==, rec_slot (r, i)->t_end_ns);
      double expect = 0.25 / ((double) (t - prev) / 1e9) * 100.0;
      g_assert_cmpfloat_with_epsilon (rec_value (r, i, 0)->mean, expect, expect * 1e-12);
      prev = t;
    }
}

/* A percentage read before a metric that moves the round's time: its slots
 * are alternately shorter and longer than the span its value covers. Each
 * value is 100 % of that span, and reads 100 % whatever its slot. */
static void
test_percent_own_span (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5,
              METRIC (0, "t.busy", "test_busy", "double", "%", 1, 0, 0, "")
              METRIC (1, "t.late", "test_late", "uint64_t", "", 0, 0, 0, ""));
  run_expecting (f, RUN_300, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_autoptr(GArray) own = log_times (f, "BUSY", h->pid);
  g_assert_cmpuint (own->len, ==, h->n_samples);
  g_assert_cmpuint (h->n_samples, >=, 10);
  guint shorter = 0, longer = 0;
  for (guint i = 1; i < h->n_samples; i++)
    {
      const MgRecordSample *slot = rec_slot (r, i);
      gint64 span = g_array_index (own, gint64, i) - g_array_index (own, gint64, i - 1);
      gint64 length = slot->t_end_ns - slot->t_start_ns;
      shorter += length < span - 500000;
      longer += length > span + 500000;
      g_assert_cmpfloat_with_epsilon (rec_value (r, i, 0)->mean, 100.0, 1e-9);
    }
  g_test_message ("%u samples: %u slots shorter and %u longer than their value's span "
                  "by over 0.5 ms, each at 100 %%", h->n_samples, shorter, longer);
  /* Over their slots, these would have read more and less than 100 %. */
  g_assert_cmpuint (shorter, >=, 3);
  g_assert_cmpuint (longer, >=, 3);
}

static void
test_gaps_and_errors (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5,
              METRIC (0, "t.untouched", "test_gap_untouched", "uint64_t", "", 0, 0, 0, "")
              METRIC (1, "t.sentinel", "test_gap_sentinel", "uint64_t", "", 0, 0, 0, "")
              METRIC (2, "t.nan", "test_gap_nan", "double", "", 0, 0, 0, "")
              METRIC (3, "t.error", "test_gap_error", "uint64_t", "", 0, 0, 0, "")
              METRIC (4, "t.custom", "test_custom", "uint64_t", "", 0, 0, 0, "4711"));
  run_expecting (f, RUN_300, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->n_samples, >=, 4);
  for (guint i = 0; i < h->n_samples; i++)
    {
      gboolean odd_call = i % 2 == 0; /* call numbers start at 1 */
      for (guint m = 0; m < 4; m++)
        {
          const MgRecordValue *v = rec_value (r, i, m);
          g_assert_cmpuint (v->count, ==, odd_call ? 1 : 0);
          if (odd_call)
            g_assert_cmpfloat (v->mean, ==, 7.0);
        }
      g_assert_cmpfloat (rec_value (r, i, 4)->mean, ==, 4711.0);
    }
  const MgRecordMetric *em = rec_metric (r, 3);
  g_assert_cmpuint (em->error_count, ==, h->n_samples / 2);
  g_assert_cmpint (em->error_code, ==, 42);
  g_assert_cmpstr (em->error, ==, "failed call 2");
  /* The first failure was the second round's call, the last the last even. */
  g_assert_cmpint (em->first_error_ns, >=, rec_slot (r, 1)->t_end_ns);
  g_assert_cmpint (em->first_error_ns, <=, rec_slot (r, 2)->t_end_ns);
  g_assert_cmpint (em->last_error_ns, >=, em->first_error_ns);
  g_assert_cmpuint (rec_metric (r, 0)->error_count, ==, 0);
}

/* allinea_read_config_file finds the file through the variable the plan's
 * config env field names (mg_hook_config_env). */
static void
test_config_file (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, "metric\t0\t0\tt.cfg\ttest_config\tuint64_t\t\t0\t0\t0\ttime\tMG_TEST_CFG\t\n");
  g_autofree char *cfg = g_build_filename (f->dir, "cfg", NULL);
  g_file_set_contents (cfg, "# settings\nother = 1\nanswer = 42\n", -1, NULL);
  g_autofree char *env = g_strdup_printf ("MG_TEST_CFG=%s", cfg);
  run_expecting (f, RUN_300, env, 0);
  {
    Record *r = the_record (f);
    g_assert_cmpfloat (rec_value (r, 0, 0)->mean, ==, 1042.0);
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
  /* The variable names a missing file: -2. */
  g_autofree char *env2 = g_strdup_printf ("MG_TEST_CFG=%s.missing", cfg);
  run_expecting (f, RUN_300, env2, 0);
  GPtrArray *recs = take_records (f);
  g_assert_cmpfloat (rec_value (only_record (recs), 0, 0)->mean, ==, 998.0);
}

static void
test_backfill_and_lifecycle (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5,
              COUNT_METRIC
              METRIC (1, "t.bf", "test_backfill", "uint64_t", "", 0, 0, 1, "")
              METRIC (2, "t.bfbad", "test_backfill_bad", "uint64_t", "", 0, 0, 1, ""));
  run_expecting (f, RUN_300, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_true (h->flags & MG_RECORD_FLAG_BACKFILLED);
  g_assert_true (h->flags & MG_RECORD_FLAG_SAMPLING_ENDED);
  g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);

  /* Lifecycle: once each and in order; backfill after stop. */
  g_autofree char *tags = log_tags (f);
  g_assert_cmpstr (tags, ==, "INIT START STOP BACKFILL CLEANUP");

  g_autoptr(GArray) times = log_times (f, "BACKFILL", h->pid);
  g_assert_cmpuint (times->len, ==, h->n_samples);
  for (guint i = 0; i < h->n_samples; i++)
    {
      gint64 t = rec_slot (r, i)->t_end_ns;
      g_assert_cmpint (g_array_index (times, gint64, i), ==, t);
      g_assert_cmpuint (rec_value (r, i, 1)->count, ==, 1);
      g_assert_cmpfloat (rec_value (r, i, 1)->mean, ==, (double) (t % 1000000000 % 1000));
    }
  const MgRecordMetric *bad = rec_metric (r, 2);
  g_assert_cmpuint (bad->error_count, ==, h->n_samples);
  g_assert_cmpstr (bad->error, ==, "backfill getter changed currentSampleTime");
  g_assert_cmpuint (rec_metric (r, 1)->error_count, ==, 0);
}

static void
test_unused_source_not_loaded (Fixture *f, gconstpointer user_data)
{
  g_autofree char *marker_so = build_file ("libmg-test-marker.so");
  g_autofree char *marker = g_build_filename (f->dir, "marker", NULL);
  g_autofree char *body = g_strdup_printf (
      "source\t1\tmarker.src\t%s\t\t\n"
      COUNT_METRIC,
      marker_so);
  write_plan (f, 5, body);
  g_autofree char *env = g_strdup_printf ("MG_TEST_MARKER=%s", marker);
  run_expecting (f, RUN_300, env, 0);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  Record *r = the_record (f);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_UNUSED);
  g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);

  /* The same library with a metric enabled is loaded: the marker works. */
  g_autofree char *body2 = g_strdup_printf (
      "source\t1\tmarker.src\t%s\t\t\nmetric\t0\t1\tm.v\tmarker_value\tuint64_t\t\t0\t0\t0\ttime\t\t\n",
      marker_so);
  write_plan (f, 5, body2);
  run_expecting (f, RUN_300, env, 0);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
}

/* A plugin whose initialise fails gets its cleanup at once (no fork
 * child calls it again): its cleanup logged, once, long before the
 * process ends. One that says METROGRAPH_PLUGIN_UNLOADABLE is then gone
 * from the process's maps (no fork copies its mappings); any other stays
 * mapped, as a thread or handler it left could still run its code. */
static void
assert_failed_init_unloaded (Fixture *f, const char *library, gboolean unloadable)
{
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = g_environ_setenv (workload_env (f, f->plan), "MG_TEST_INIT_FAIL", "1", TRUE);
  char *argv[] = { exe, (char *) "run", (char *) "2000", (char *) "0", NULL };
  g_autoptr (GError) error = NULL;
  gint64 until = g_get_monotonic_time () + 1800 * G_TIME_SPAN_MILLISECOND;
  gboolean cleaned = FALSE, mapped = TRUE;
  GPid pid;
  int status;

  write_plan_of (f, library, 5, COUNT_METRIC);
  g_unlink (f->log);
  g_assert_true (g_spawn_async (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD
                                | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  while (!(cleaned && mapped != unloadable) && g_get_monotonic_time () < until)
    {
      g_autoptr (GArray) cleanups = log_times (f, "CLEANUP", pid);
      g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", (int) pid);
      g_autofree char *maps = NULL;

      g_usleep (10 * 1000);
      cleaned = cleanups->len == 1;
      if (cleaned && g_file_get_contents (maps_path, &maps, NULL, NULL))
        mapped = strstr (maps, library) != NULL;
    }
  /* A kept library is looked at once more, well after its cleanup. */
  if (!unloadable && cleaned)
    {
      g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", (int) pid);
      g_autofree char *maps = NULL;

      g_usleep (300 * 1000);
      g_assert_true (g_file_get_contents (maps_path, &maps, NULL, NULL));
      mapped = strstr (maps, library) != NULL;
    }
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_true (cleaned);
  g_assert_cmpint (mapped, ==, !unloadable);
  {
    g_autoptr (GArray) inits = log_times (f, "INIT", 0);
    g_autoptr (GArray) cleanups = log_times (f, "CLEANUP", 0);
    g_assert_cmpuint (inits->len, ==, 1);
    g_assert_cmpuint (cleanups->len, ==, 1);
  }
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_INIT_FAILED);
    g_assert_cmpstr (rec_plugin (r, 0)->error, ==, "refusing to start: test");
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
}

static void
test_load_and_init_failures (Fixture *f, gconstpointer user_data)
{
  g_autofree char *body = g_strdup_printf (
      "source\t1\tmissing.src\t%s/nonexistent.so\t\t\n"
      COUNT_METRIC
      "metric\t1\t1\tm.v\tx\tuint64_t\t\t0\t0\t0\ttime\t\t\n",
      f->dir);
  write_plan (f, 5, body);
  g_autofree char *err = NULL;
  int status = run_workload (f, f->plan, RUN_300, NULL, &err, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpstr (err, ==, ""); /* quiet unless asked */
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_LOAD_FAILED);
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
  /* With METROGRAPH_SAMPLER_VERBOSE=1 the failure is said on stderr. */
  g_clear_pointer (&err, g_free);
  status = run_workload (f, f->plan, RUN_300, NULL, &err, "METROGRAPH_SAMPLER_VERBOSE=1");
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_nonnull (strstr (err, "nonexistent.so"));
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_LOAD_FAILED);
    g_assert_nonnull (strstr (rec_plugin (r, 1)->error, "nonexistent.so"));
    g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
    g_assert_cmpuint (rec_value (r, 0, 0)->count, ==, 1);
    g_assert_false (rec_metric (r, 1)->flags & MG_METRIC_FLAG_ACTIVE);
    g_assert_cmpuint (rec_value (r, 0, 1)->count, ==, 0);
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
  /* A missing getter. */
  write_plan (f, 5, METRIC (0, "t.nope", "no_such_getter", "uint64_t", "", 0, 0, 0, ""));
  status = run_workload (f, f->plan, RUN_300, NULL, NULL, NULL);
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_LOAD_FAILED);
    g_assert_nonnull (strstr (rec_plugin (r, 0)->error, "no_such_getter"));
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
  /* Initialise fails with an error message. */
  write_plan (f, 5, COUNT_METRIC);
  run_expecting (f, RUN_300, "MG_TEST_INIT_FAIL=1", 0);
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_INIT_FAILED);
    g_assert_cmpint (rec_plugin (r, 0)->error_code, ==, 77);
    g_assert_cmpstr (rec_plugin (r, 0)->error, ==, "refusing to start: test");
    g_assert_false (rec_metric (r, 0)->flags & MG_METRIC_FLAG_ACTIVE);
    for (guint i = 0; i < hdr (r)->n_samples; i++)
      g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 0);
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }
  assert_failed_init_unloaded (f, "libmg-test-plugin.so", TRUE);
  assert_failed_init_unloaded (f, "libmg-test-plugin-kept.so", FALSE);
}

static void
test_one_per_node (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, METRIC (0, "t.node", "test_node", "uint64_t", "", 0, 1, 0, ""));
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = workload_env (f, f->plan);
  GPid pids[4];
  for (int i = 0; i < 4; i++)
    {
      /* Long enough that all four overlap even on a loaded machine: the
       * leader holds the lock until it ends. */
      char *argv[] = { exe, "run", "1500", "0", NULL };
      g_autoptr(GError) error = NULL;
      g_spawn_async (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, &pids[i], &error);
      g_assert_no_error (error);
    }
  for (int i = 0; i < 4; i++)
    {
      int status;
      g_assert_cmpint (waitpid (pids[i], &status, 0), ==, pids[i]);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 4);
  guint leaders = 0;
  for (guint k = 0; k < recs->len; k++)
    {
      Record *r = recs->pdata[k];
      const MgRecordHeader *h = hdr (r);
      gboolean leader = (h->flags & MG_RECORD_FLAG_NODE_LEADER) != 0;
      leaders += leader;
      g_assert_cmpuint (rec_plugin (r, 0)->state, ==,
                        leader ? MG_PLUGIN_STATE_ACTIVE : MG_PLUGIN_STATE_NOT_LEADER);
      for (guint i = 0; i < h->n_samples; i++)
        {
          const MgRecordValue *v = rec_value (r, i, 0);
          g_assert_cmpuint (v->count, ==, leader ? 1 : 0);
          if (leader)
            g_assert_cmpfloat (v->mean, ==, (double) h->pid);
        }
    }
  g_assert_cmpuint (leaders, ==, 1);
  g_autofree char *tags = log_tags (f);
  g_assert_cmpstr (tags, ==, "INIT START STOP CLEANUP");
}

static Record *
find_record (GPtrArray *recs, int pid, MgRecordState state)
{
  for (guint k = 0; k < recs->len; k++)
    {
      Record *r = recs->pdata[k];
      if (hdr (r)->pid == pid && hdr (r)->state == (guint32) state)
        return r;
    }
  g_error ("no record of pid %d in state %d", pid, (int) state);
}

/* Runs the workload's "fork" mode (args), which must end with status 0
 * after its child ended with 3; the child's pid. */
static int
run_fork_workload (Fixture *f, const char *const *args)
{
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  int child = 0, child_status = -1;

  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpint (sscanf (out, "child %d %d", &child, &child_status), ==, 2);
  g_assert_cmpint (child_status, ==, 3);
  return child;
}

/* The node leader's fork child is never the leader: its onePerNode
 * metric is off in its record (no values, not active) whether it lives
 * to its rounds (200 ms at 5 ms) or ends before its first (1 ms, its
 * life only), while its other metric samples; the leader's own has both. */
static void
test_one_per_node_fork_child (Fixture *f, gconstpointer user_data)
{
  const char *child_ms = user_data;
  write_plan (f, 5, COUNT_METRIC METRIC (1, "t.node", "test_node", "uint64_t", "", 0, 1, 0, ""));
  /* Forked 50 ms in: the parent's thread has loaded the plugins (a
   * quarter interval in) and made it the leader. */
  const char *const args[] = { "fork", child_ms, "50", NULL };
  int child = run_fork_workload (f, args);
  GPtrArray *recs = take_records (f);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  g_assert_false (hdr (kid)->flags & MG_RECORD_FLAG_NODE_LEADER);
  g_assert_false (rec_metric (kid, 1)->flags & MG_METRIC_FLAG_ACTIVE);
  guint64 kid_counts = 0;
  for (guint i = 0; i < hdr (kid)->n_samples; i++)
    {
      g_assert_cmpuint (rec_value (kid, i, 1)->count, ==, 0);
      kid_counts += rec_value (kid, i, 0)->count;
    }
  if (atoi (child_ms) >= 100)
    {
      g_assert_true (rec_metric (kid, 0)->flags & MG_METRIC_FLAG_ACTIVE);
      g_assert_cmpuint (kid_counts, >, 0);
    }
  /* The parent, before its exec: the leader, with both. */
  Record *parent = find_record (recs, hdr (kid)->ppid, MG_RECORD_STATE_EXECED);
  g_assert_true (hdr (parent)->flags & MG_RECORD_FLAG_NODE_LEADER);
  g_assert_true (rec_metric (parent, 1)->flags & MG_METRIC_FLAG_ACTIVE);
  guint64 parent_node = 0;
  for (guint i = 0; i < hdr (parent)->n_samples; i++)
    parent_node += rec_value (parent, i, 1)->count;
  g_assert_cmpuint (parent_node, >, 0);
}

static void
test_fork_exec (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "fork", "200", NULL };
  g_autofree char *out = NULL;
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = workload_env (f, f->plan);
  char *argv[] = { exe, (char *) args[0], (char *) args[1], NULL };
  GPid pid;
  int fd_out;
  g_autoptr(GError) error = NULL;
  g_spawn_async_with_pipes (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, NULL,
                            &fd_out, NULL, &error);
  g_assert_no_error (error);
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  char buf[256] = { 0 };
  g_assert_cmpint (read (fd_out, buf, sizeof buf - 1), >, 0);
  close (fd_out);
  int child = 0, child_status = -1;
  g_assert_cmpint (sscanf (buf, "child %d %d", &child, &child_status), ==, 2);
  g_assert_cmpint (child_status, ==, 3);

  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 3);
  Record *parent = find_record (recs, pid, MG_RECORD_STATE_EXECED);
  Record *image = find_record (recs, pid, MG_RECORD_STATE_EXITED);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  g_assert_nonnull (parent);
  g_assert_nonnull (image);
  g_assert_nonnull (kid);
  g_assert_cmpint (hdr (kid)->ppid, ==, pid);
  g_assert_cmpint (hdr (kid)->end_status, ==, 3);
  g_assert_cmpint (hdr (image)->end_status, ==, 0);
  g_assert_cmpint (hdr (parent)->ppid, ==, getpid ());
  g_assert_cmpint (hdr (image)->ppid, ==, getpid ());
  g_assert_cmpint (hdr (image)->start_mono_ns, >, hdr (parent)->end_mono_ns);
  /* The child samples afresh, from its own start. */
  g_assert_cmpint (rec_slot (kid, 0)->t_start_ns, >=, hdr (kid)->start_mono_ns);
  g_assert_cmpuint (hdr (kid)->n_samples, >, 0);
  g_assert_cmpuint (rec_plugin (kid, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  for (guint k = 0; k < recs->len; k++)
    g_assert_cmpuint (hdr (recs->pdata[k])->n_samples, >, 0);
}

/* A fork child that lives 1 ms, far less than the 1 s interval (it ends
 * before its first sample, mostly before its sampler thread ever ran):
 * it still has its record, with its parent, its life and its status, as
 * has the parent's image that then lives 1 ms after an exec. The image
 * before the exec, which lived 1 ms too, leaves none: its record was
 * still in memory (the process shows as its next image, same pid). */
static void
test_fork_short_child (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1000, COUNT_METRIC);
  const char *const args[] = { "fork", "1", NULL };
  int child = run_fork_workload (f, args);

  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 2);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (kid)->end_status, ==, 3);
  g_assert_cmpint (hdr (kid)->end_mono_ns, >=, hdr (kid)->start_mono_ns + 1000000);
  g_assert_cmpint (hdr (kid)->end_mono_ns - hdr (kid)->start_mono_ns, <, 900000000);
  /* Its one slot spans its life: the front end shows it from start to end. */
  g_assert_cmpuint (hdr (kid)->n_samples, ==, 1);
  g_assert_cmpint (rec_slot (kid, 0)->t_start_ns, >=, hdr (kid)->start_mono_ns);
  g_assert_cmpint (rec_slot (kid, 0)->t_end_ns, <=, hdr (kid)->end_mono_ns);
  /* Ended before its first round, it calls no getter for its last slot:
   * its life only. */
  g_assert_cmpuint (rec_value (kid, 0, 0)->count, ==, 0);
  /* Its record was laid out only at its exit, as at its fork: its parent
   * then, and its start on the real clock as far from its parent's next
   * image's as on the monotonic one (within 5 ms). */
  Record *image = recs->pdata[recs->pdata[0] == kid ? 1 : 0];
  const MgRecordHeader *parent = hdr (image);
  g_assert_cmpint (hdr (kid)->ppid, ==, parent->pid);
  /* Both were written at their exit without being laid out (composed from
   * the plan): their tables as a laid-out record's. */
  g_assert_cmpuint (hdr (kid)->n_metrics, ==, parent->n_metrics);
  g_assert_cmpstr (rec_metric (kid, 0)->id, ==, rec_metric (image, 0)->id);
  g_assert_cmpstr (rec_metric (kid, 0)->id, !=, "");
  g_assert_cmpstr (rec_plugin (kid, 0)->source_id, ==, rec_plugin (image, 0)->source_id);
  g_assert_cmpstr (rec_plugin (kid, 0)->library, !=, "");
  g_assert_cmpstr (hdr (kid)->program, ==, parent->program);
  gint64 skew = (hdr (kid)->start_real_ns - parent->start_real_ns)
                - (hdr (kid)->start_mono_ns - parent->start_mono_ns);
  g_assert_cmpint (ABS (skew), <, 5000000);
  for (guint k = 0; k < recs->len; k++)
    {
      const MgRecordHeader *h = hdr (recs->pdata[k]);
      g_assert_cmpuint (h->n_samples, <=, 1);
      g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_EXITED);
    }
}

/* Narrows the spawned shell's CPUs to the first one it may use. */
static void
pin_to_first_cpu (gpointer data)
{
  cpu_set_t mask, one;
  if (sched_getaffinity (0, sizeof mask, &mask) != 0)
    return;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &mask))
      {
        CPU_ZERO (&one);
        CPU_SET (cpu, &one);
        sched_setaffinity (0, sizeof one, &one);
        return;
      }
}

/* The CPUs a shell, its subshell (a fork child) and a background sleep's
 * every task (its sampler thread after its first wake-up) may use, and
 * the sleep's task count. */
static char *
affinity_report (char **env, gboolean narrowed)
{
  const char *script =
    "grep Cpus_allowed_list /proc/self/status; "
    "(grep Cpus_allowed_list /proc/self/status); "
    "sleep 0.6 & sleep 0.3; "
    "grep -h Cpus_allowed_list /proc/$!/task/*/status | sort -u; "
    "echo tasks $(ls /proc/$!/task | wc -l); kill $!";
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = -1;
  g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT,
                narrowed ? pin_to_first_cpu : NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  return out;
}

/* A thread that sleeps first is started on its creator's CPU (the
 * creator's mask narrowed around pthread_create only): the program, its
 * fork children and, once woken, the sampler thread keep the CPUs they
 * were given, with the whole machine and under a narrowed mask alike. */
static void
test_affinity_kept (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 40, COUNT_METRIC);
  g_auto(GStrv) profiled = workload_env (f, f->plan);
  g_auto(GStrv) plain = g_get_environ ();
  for (int narrowed = 0; narrowed < 2; narrowed++)
    {
      g_autofree char *want = affinity_report (plain, narrowed);
      g_autofree char *got = affinity_report (profiled, narrowed);
      g_test_message ("unprofiled:\n%sprofiled:\n%s", want, got);
      char *want_tasks = strstr (want, "tasks ");
      char *got_tasks = strstr (got, "tasks ");
      g_assert_nonnull (want_tasks);
      g_assert_nonnull (got_tasks);
      /* The sleep's sampler thread was there to look at. */
      g_assert_cmpstr (got_tasks, ==, "tasks 2\n");
      *want_tasks = *got_tasks = '\0';
      g_assert_true (g_str_has_prefix (want, "Cpus_allowed_list:"));
      g_assert_cmpstr (got, ==, want);
    }
}

/* A process that lives many intervals has every metric from its first
 * round on, although its plugins are loaded by the sampler thread: the
 * first slot starts at the record's start and holds both values, the ramp
 * counts every round from 1. */
static void
test_long_all_metrics_from_start (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC
              METRIC (1, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  const char *const args[] = { "run", "200", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  g_assert_true (rec_metric (r, 0)->flags & MG_METRIC_FLAG_ACTIVE);
  g_assert_true (rec_metric (r, 1)->flags & MG_METRIC_FLAG_ACTIVE);
  g_assert_cmpuint (h->n_samples, >=, 5);
  g_assert_cmpint (rec_slot (r, 0)->t_start_ns, ==, h->start_mono_ns);
  for (guint i = 0; i < h->n_samples; i++)
    {
      g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 1);
      g_assert_cmpfloat (rec_value (r, i, 1)->mean, ==, (double) (i + 1));
    }
}

static void
test_underscore_exit (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "underscore", "100", "9", NULL };
  run_expecting (f, args, "PMIX_RANK=5", 9);
  Record *r = the_record (f);
  g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (r)->end_status, ==, 9);
  g_assert_cmpint (hdr (r)->rank, ==, 5);
}

/* vfork and posix_spawn children run nothing of the sampler until they exec;
 * the exec'd program then has its own record. */
static void
test_vfork_spawn (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "spawn", "100", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  int a, sa, b, sb;
  const char *line = strstr (out, "children ");
  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "children %d %d %d %d", &a, &sa, &b, &sb), ==, 4);
  g_assert_cmpint (sa, ==, 4);
  g_assert_cmpint (sb, ==, 4);
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 3);
  Record *ra = find_record (recs, a, MG_RECORD_STATE_EXITED);
  Record *rb = find_record (recs, b, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (ra)->end_status, ==, 4);
  g_assert_cmpint (hdr (rb)->end_status, ==, 4);
  int parent = hdr (ra)->ppid;
  g_assert_cmpint (hdr (rb)->ppid, ==, parent);
  Record *rp = find_record (recs, parent, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (rp)->end_status, ==, 0);
}

/* A failed exec closes the record as EXECED, then sampling resumes into a
 * new record of the same process. */
static void
test_failed_exec (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "badexec", "100", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpstr (out, ==, "exec failed\nhello\n");
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 2);
  int pid = hdr (recs->pdata[0])->pid;
  Record *before = find_record (recs, pid, MG_RECORD_STATE_EXECED);
  Record *after = find_record (recs, pid, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (after)->start_mono_ns, >=, hdr (before)->end_mono_ns);
  g_assert_cmpuint (hdr (before)->n_samples, >, 0);
  g_assert_cmpuint (hdr (after)->n_samples, >, 0);
  g_assert_cmpuint (rec_plugin (after, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  g_autofree char *tags = log_tags (f);
  g_assert_cmpstr (tags, ==, "INIT START STOP CLEANUP INIT START STOP CLEANUP");
}

/* A fork child whose exec fails before its first round (its thread, the
 * plugins inherited, asleep until then: 1 s): the exec's end kept the lock
 * without waking the thread, so the failure wakes it before joining it,
 * rather than waiting for its first round; the child then samples into a
 * record of its own. */
static void
test_fork_failed_exec (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1000, COUNT_METRIC);
  const char *const args[] = { "forkbadexec", "1300", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  long exec_ms = -1;
  int child = 0, child_status = -1;
  g_assert_cmpint (sscanf (out, "exec failed in %ld ms\nchild %d %d", &exec_ms, &child,
                           &child_status), ==, 3);
  g_assert_cmpint (child_status, ==, 3);
  g_test_message ("the failed exec took %ld ms", exec_ms);
  /* Its first round was 980 ms away. */
  g_assert_cmpint (exec_ms, <, 500);

  GPtrArray *recs = take_records (f);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (kid)->end_status, ==, 3);
  g_assert_cmpuint (hdr (kid)->n_samples, >, 0);
  g_assert_cmpint (rec_slot (kid, 0)->t_start_ns, >=, hdr (kid)->start_mono_ns);
  /* Nothing of the child before its exec: it had no record laid out. */
  for (guint k = 0; k < recs->len; k++)
    g_assert_false (hdr (recs->pdata[k])->pid == child
                    && hdr (recs->pdata[k])->state == MG_RECORD_STATE_EXECED);
}

/* A fork child that execs before its first round (a shell's command):
 * a plugin that says an exec releases all it holds
 * (METROGRAPH_PLUGIN_EXEC_RELEASES_ALL) gets neither its stop nor its
 * cleanup there, one that does not say so gets both before the exec; the
 * exec'd image has its own (same pid). When that exec fails, the stop and
 * cleanup come then, before the child loads the plugins again. */
typedef struct {
  const char *library;
  const char *mode;
  const char *child_tags;
} LeftPluginsCase;

static const LeftPluginsCase exec_leaves_marked = {
  "libmg-test-plugin-exec-releases.so", "forkexec", "INIT START STOP CLEANUP"
};
static const LeftPluginsCase exec_stops_unmarked = {
  "libmg-test-plugin.so", "forkexec", "STOP CLEANUP INIT START STOP CLEANUP"
};
static const LeftPluginsCase failed_exec_stops_marked = {
  "libmg-test-plugin-exec-releases.so", "forkbadexec", "STOP CLEANUP INIT START STOP CLEANUP"
};

static void
test_fork_exec_plugins (Fixture *f, gconstpointer user_data)
{
  const LeftPluginsCase *c = user_data;
  write_plan_of (f, c->library, 1000, COUNT_METRIC);
  const char *const args[] = { c->mode, "600", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  const char *line = strstr (out, "child ");
  g_assert_nonnull (line);
  int child = 0, child_status = -1;
  g_assert_cmpint (sscanf (line, "child %d %d", &child, &child_status), ==, 2);
  g_assert_cmpint (child_status, ==, strcmp (c->mode, "forkexec") == 0 ? 0 : 3);
  g_autofree char *child_tags = log_tags_of (f, child);
  g_assert_cmpstr (child_tags, ==, c->child_tags);
  /* The parent's own, once each. */
  GPtrArray *recs = take_records (f);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (kid)->ppid, >, 0);
  g_autofree char *parent_only = log_tags_of (f, hdr (kid)->ppid);
  g_assert_cmpstr (parent_only, ==, "INIT START STOP CLEANUP");
}

/* execveat closes the record like execve: a failed one resumes sampling in
 * a new record, a successful one leaves EXECED behind and the new image
 * samples into its own record (before, the record stayed RUNNING: "ended
 * without trace"). */
static void
test_execveat (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "execveat", "100", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_cmpstr (out, ==, "execveat failed\nhello\n");
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 3);
  guint n_execed = 0, n_exited = 0;
  int pid = hdr (recs->pdata[0])->pid;
  for (guint k = 0; k < recs->len; k++)
    {
      const MgRecordHeader *h = hdr (recs->pdata[k]);
      g_assert_cmpint (h->pid, ==, pid);
      g_assert_cmpuint (h->n_samples, >, 0);
      n_execed += h->state == MG_RECORD_STATE_EXECED;
      n_exited += h->state == MG_RECORD_STATE_EXITED;
    }
  g_assert_cmpuint (n_execed, ==, 2);
  g_assert_cmpuint (n_exited, ==, 1);
  Record *image = find_record (recs, pid, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (image)->end_status, ==, 0);
  for (guint k = 0; k < recs->len; k++)
    if (recs->pdata[k] != image)
      g_assert_cmpint (hdr (image)->start_mono_ns, >=, hdr (recs->pdata[k])->end_mono_ns);
  g_autofree char *tags = log_tags (f);
  g_assert_cmpstr (tags, ==, "INIT START STOP CLEANUP INIT START STOP CLEANUP "
                             "INIT START STOP CLEANUP");
}

static void
test_sigkill_keeps_samples (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = workload_env (f, f->plan);
  char *argv[] = { exe, "run", "60000", "0", NULL };
  GPid pid;
  g_autoptr(GError) error = NULL;
  g_spawn_async (NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                 NULL, &pid, &error);
  g_assert_no_error (error);
  /* Wait until some samples are committed, then kill. */
  for (int tries = 0; tries < 500; tries++)
    {
      g_usleep (20000);
      GPtrArray *recs = take_records (f);
      if (recs->len == 1 && hdr (recs->pdata[0])->n_samples >= 5)
        break;
    }
  kill (pid, SIGKILL);
  int status;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_RUNNING);
  g_assert_cmpint (h->end_mono_ns, ==, 0);
  g_assert_cmpuint (h->n_samples, >=, 5);
  for (guint i = 0; i < h->n_samples; i++)
    g_assert_cmpfloat (rec_value (r, i, 0)->mean, ==, (double) (i + 1));
  /* Stacks on, but a process that used no interval of CPU time never laid
   * out (nor reserved) its stack section: a hole, max_stacks 0. */
  g_assert_cmpuint (h->sections & MG_RECORD_SECTION_STACKS, !=, 0);
  const MgRecordStacks *t = (const MgRecordStacks *) (r->data + mg_record_sections_offset (h));
  g_assert_cmpuint (t->max_stacks, ==, 0);
  g_assert_cmpuint (h->flags & MG_RECORD_FLAG_STACKS_NO_ROOM, ==, 0);
}

/* A process that uses CPU lays out its stack section on the sampler
 * thread, its blocks reserved, before the timers: its samples are there. */
static void
test_busy_record_stacks (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1, "samples\t4096\n" METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  const char *const args[] = { "spin", "400", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  const MgRecordStacks *t = (const MgRecordStacks *) (r->data + mg_record_sections_offset (h));
  struct stat st;
  g_assert_cmpint (stat (r->path, &st), ==, 0);
  g_assert_cmpuint (t->max_stacks, ==, MG_RECORD_STACKS_DEFAULT_MAX);
  g_assert_cmpuint (t->capacity, ==, h->capacity);
  g_assert_cmpuint (t->state, ==, MG_RECORD_STACKS_ON);
  g_assert_cmpuint (t->n_threads, >=, 1);
  /* 400 ms of CPU at 20 ms, less the interval waited for and a round. */
  g_assert_cmpuint (t->n_taken, >=, 8);
  g_assert_cmpuint ((guint64) st.st_blocks * 512, >=,
                    mg_record_stacks_layout (NULL, MG_RECORD_STACKS_DEFAULT_MAX, h->capacity));
}

/* A fork child of a process whose stacks were laid out forks again: the
 * unwinder's fork handlers left the child's lock taken (a recursive
 * mutex that the child's thread does not own cannot be unlocked), and its
 * fork waited on it for ever (a shell's subshell running a pipeline). */
static void
test_fork_in_fork_child (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1, METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  const char *const args[] = { "forkfork", "100", "0", NULL };
  g_autofree char *out = NULL;
  int status = run_workload (f, f->plan, args, &out, NULL, NULL);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpstr (out, ==, "forked twice\n");
  /* The parent's stacks were on when it forked, and all three ended. */
  GPtrArray *recs = take_records (f);
  guint stacks_on = 0;
  g_assert_cmpuint (recs->len, ==, 3);
  for (guint k = 0; k < recs->len; k++)
    {
      const Record *r = recs->pdata[k];
      const MgRecordStacks *t = (const MgRecordStacks *) (r->data
                                                          + mg_record_sections_offset (hdr (r)));
      g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
      stacks_on += t->state == MG_RECORD_STACKS_ON;
    }
  g_assert_cmpuint (stacks_on, >=, 1);
}

static void
test_merge (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1, "samples\t16\n" METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, "")
                       METRIC (1, "t.tenth", "test_tenth", "double", "", 0, 0, 0, ""));
  const char *const args[] = { "run", "400", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->capacity, ==, 16);
  g_assert_cmpuint (h->n_merges, >=, 2);
  g_assert_cmpuint (h->interval_ns, ==, h->interval_start_ns << h->n_merges);
  g_assert_cmpuint (h->interval_start_ns, ==, 1000000);
  /* test_ramp returns 1, 2, 3...: a slot of n_raw calls starting at call k
   * holds min k, max k+n-1, mean k+(n-1)/2, count n. */
  guint64 k = 1;
  for (guint i = 0; i < h->n_samples; i++)
    {
      const MgRecordSample *s = rec_slot (r, i);
      const MgRecordValue *v = rec_value (r, i, 0);
      g_assert_cmpuint (v->count, ==, s->n_raw);
      g_assert_cmpfloat (v->min, ==, (double) k);
      g_assert_cmpfloat (v->max, ==, (double) (k + s->n_raw - 1));
      g_assert_cmpfloat_with_epsilon (v->mean, k + (s->n_raw - 1) / 2.0, 1e-9);
      /* A constant stays exactly that constant through the merges. */
      g_assert_cmpfloat (rec_value (r, i, 1)->mean, ==, 0.1);
      g_assert_cmpuint (rec_value (r, i, 1)->count, ==, s->n_raw);
      k += s->n_raw;
    }
  /* Every raw sample is in exactly one slot: the calls add up. */
  g_assert_cmpuint (k - 1, >=, h->capacity);
  g_assert_cmpuint (rec_slot (r, 0)->n_raw, >=, 2);
}

/* A short process's record has its full size (a reader maps it whole) but
 * takes only its header, tables and first MG_RECORD_HEAD_SLOTS slots on
 * disk, and reads back: its samples, its end. */
static void
test_short_record_small (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1, "samples\t4096\n" METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  const char *const args[] = { "run", "30", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  struct stat st;
  guint64 head = h->samples_offset + (guint64) MG_RECORD_HEAD_SLOTS * h->sample_stride;
  g_assert_cmpint (stat (r->path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, h->file_size);
  g_assert_cmpuint ((guint64) st.st_blocks * 512, <=, head + 2 * 4096);
  g_assert_cmpuint ((guint64) st.st_blocks * 512, <, h->file_size / 4);
  g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpuint (h->n_samples, >=, 1);
  g_assert_cmpuint (h->n_samples, <, MG_RECORD_HEAD_SLOTS);
  /* Plugins load a quarter interval after the start: on a loaded machine
   * the first slots may come before, and hold no value (count 0, never a
   * made-up 0). From the first value on, the ramp's calls in order. */
  guint valued = 0;
  for (guint i = 0; i < h->n_samples; i++)
    {
      const MgRecordValue *v = rec_value (r, i, 0);

      if (v->count == 0 && valued == 0)
        continue;
      g_assert_cmpuint (v->count, >, 0);
      g_assert_cmpfloat (v->mean, ==, (double) (++valued));
    }
  g_test_message ("%u of %u slots with the ramp's value", valued, (guint) h->n_samples);
  g_assert_cmpuint (valued, >=, 1);
}

/* A real process's record grows as its slots fill (it starts with its
 * first MG_RECORD_HEAD_SLOTS allocated), reaches its full size on disk and
 * then halves, its values intact. */
static void
test_grow_then_merge (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 1, "samples\t160\n" METRIC (0, "t.ramp", "test_ramp", "uint64_t", "", 0, 0, 0, ""));
  const char *const args[] = { "run", "3000", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  struct stat st;
  g_assert_cmpuint (h->capacity, ==, 160);
  g_assert_cmpuint (h->capacity, >, MG_RECORD_HEAD_SLOTS);
  g_assert_cmpint (stat (r->path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, h->file_size);
  /* Every block of the slots: grown to their full size. The program
   * sleeps: its stack section was never laid out, and stays a hole. */
  g_assert_cmpuint ((guint64) st.st_blocks * 512, >=, mg_record_sections_offset (h));
  g_assert_cmpuint ((guint64) st.st_blocks * 512, <, mg_record_sections_offset (h) + 3 * 4096);
  g_assert_cmpuint (h->n_merges, >=, 1);
  g_assert_cmpuint (h->flags & MG_RECORD_FLAG_STOPPED, ==, 0);
  guint64 k = 1;
  for (guint i = 0; i < h->n_samples; i++)
    {
      const MgRecordValue *v = rec_value (r, i, 0);
      g_assert_cmpuint (v->count, ==, rec_slot (r, i)->n_raw);
      g_assert_cmpfloat (v->min, ==, (double) k);
      k += rec_slot (r, i)->n_raw;
    }
  g_assert_cmpuint (k - 1, >, h->capacity);
}

static void
test_bad_plan (Fixture *f, gconstpointer user_data)
{
  g_file_set_contents (f->plan, "metrograph-plan 1\nrun_id\tr\nrecord_dir\trelative\n", -1, NULL);
  const char *const args[] = { "run", "10", "5", NULL };
  g_autofree char *out = NULL, *err = NULL;
  /* The program's stderr is not ours: nothing there... */
  int status = run_workload (f, f->plan, args, &out, &err, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 5);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_cmpstr (err, ==, "");
  g_free (out);
  g_free (err);
  /* ...but with METROGRAPH_SAMPLER_VERBOSE=1. */
  status = run_workload (f, f->plan, args, &out, &err, "METROGRAPH_SAMPLER_VERBOSE=1");
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 5);
  g_assert_cmpstr (out, ==, "hello\n");
  g_autofree char *expect = g_strdup_printf (
      "metrograph-sampler: %s:3: record_dir 'relative' is not an absolute path; running "
      "unprofiled\n", f->plan);
  g_assert_cmpstr (err, ==, expect);

  /* A missing plan. */
  g_autofree char *missing = g_build_filename (f->dir, "nope", NULL);
  g_free (out);
  g_free (err);
  status = run_workload (f, missing, args, &out, &err, "METROGRAPH_SAMPLER_VERBOSE=1");
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 5);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_true (g_str_has_prefix (err, "metrograph-sampler: "));
  g_assert_nonnull (strstr (err, missing));
  g_assert_cmpuint (strchr (err, '\n') - err, ==, strlen (err) - 1);
}

static void
test_unwritable_record_dir (Fixture *f, gconstpointer user_data)
{
  /* A record_dir below a regular file cannot be written, even by root. */
  g_autofree char *file = g_build_filename (f->dir, "file", NULL);
  g_file_set_contents (file, "", -1, NULL);
  g_free (f->rec_dir);
  f->rec_dir = g_build_filename (file, "records", NULL);
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "run", "50", "4", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = run_workload (f, f->plan, args, &out, &err, NULL);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 4);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_cmpstr (err, ==, "");
  /* Nothing loaded: the plugin never ran. */
  g_assert_false (g_file_test (f->log, G_FILE_TEST_EXISTS));
}

/* A node that cannot see the run folder (a node-local /tmp): the sampler
 * makes the run folder and its records' folder, mode 0700, names itself
 * in the owner file as the front end would, and records there; the job's
 * world size from the launcher's variable is in the record. */
static void
test_record_dir_made_on_node (Fixture *f, gconstpointer user_data)
{
  g_autofree char *run_folder = g_build_filename (f->dir, "metrograph-node", NULL);
  g_free (f->rec_dir);
  f->rec_dir = g_build_filename (run_folder, "records", NULL);
  write_plan (f, 5, COUNT_METRIC);
  const char *const args[] = { "run", "50", "0", NULL };
  run_expecting (f, args, "OMPI_COMM_WORLD_SIZE=6", 0);

  GStatBuf st;
  g_assert_cmpint (g_stat (run_folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (f->rec_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  GPtrArray *recs = take_records (f);
  const MgRecordHeader *h = hdr (only_record (recs));
  g_assert_cmpint (h->world_size, ==, 6);
  g_assert_cmpint (h->state, ==, MG_RECORD_STATE_EXITED);

  g_autofree char *owner_path = g_build_filename (run_folder, MG_RUN_FOLDER_OWNER, NULL);
  g_autofree char *owner = NULL;
  g_assert_true (g_file_get_contents (owner_path, &owner, NULL, NULL));
  g_autofree char *expected = g_strdup_printf ("pid %d\nstart ", h->pid);
  g_assert_true (g_str_has_prefix (owner, expected));
  g_assert_cmpuint (g_ascii_strtoull (owner + strlen (expected), NULL, 10), >, 0);
  /* What makes the pid mean something, and no lock (its maker is not the
   * node's only writer): the pid of this boot and namespace says. */
  g_autofree char *boot = NULL;
  g_assert_true (g_file_get_contents (MG_RUN_FOLDER_BOOT_ID_PATH, &boot, NULL, NULL));
  g_autofree char *boot_line = g_strdup_printf ("\nboot %s\n", g_strstrip (boot));
  g_assert_nonnull (strstr (owner, boot_line));
  g_assert_nonnull (strstr (owner, "\npidns "));
  g_assert_nonnull (strstr (owner, "\nhost "));
  g_assert_true (g_str_has_suffix (owner, "\nlock 0\n"));
}

/* A node that cannot read the plan's path either: the launcher's copy of
 * its text in the environment is written there, and the run goes on. */
static void
test_plan_restored_on_node (Fixture *f, gconstpointer user_data)
{
  g_autofree char *run_folder = g_build_filename (f->dir, "metrograph-node", NULL);
  g_autofree char *plan = g_build_filename (run_folder, "run.plan", NULL);
  g_free (f->rec_dir);
  f->rec_dir = g_build_filename (run_folder, "records", NULL);
  write_plan (f, 5, COUNT_METRIC);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (f->plan, &text, NULL, NULL));
  g_autofree char *env = g_strconcat (MG_PLAN_TEXT_ENV "=", text, NULL);
  const char *const args[] = { "run", "50", "0", NULL };
  int status = run_workload (f, plan, args, NULL, NULL, env);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  g_autofree char *restored = NULL;
  g_assert_true (g_file_get_contents (plan, &restored, NULL, NULL));
  g_assert_cmpstr (restored, ==, text);
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (hdr (only_record (recs))->n_samples, >, 0);
  g_autofree char *owner = g_build_filename (run_folder, MG_RUN_FOLDER_OWNER, NULL);
  g_assert_true (g_file_test (owner, G_FILE_TEST_EXISTS));
}

static void
limit_file_size (gpointer data)
{
  struct rlimit lim = { 64 * 1024, 64 * 1024 };
  setrlimit (RLIMIT_FSIZE, &lim);
}

/* A record that cannot get its full size (here: RLIMIT_FSIZE, as a full disk
 * would) keeps only a header saying why; the program carries on. */
static void
test_record_too_large (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, COUNT_METRIC);
  g_autofree char *exe = build_file ("mg-test-workload");
  g_auto(GStrv) env = workload_env (f, f->plan);
  char *argv[] = { exe, "run", "50", "6", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;
  g_autoptr(GError) error = NULL;
  g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, limit_file_size, NULL, &out, &err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 6);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_cmpstr (err, ==, "");
  g_assert_false (g_file_test (f->log, G_FILE_TEST_EXISTS));

  g_autoptr(GDir) dir = g_dir_open (f->rec_dir, 0, NULL);
  const char *name = g_dir_read_name (dir);
  g_assert_nonnull (name);
  g_autofree char *path = g_build_filename (f->rec_dir, name, NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, ==, sizeof (MgRecordHeader));
  const MgRecordHeader *h = (const MgRecordHeader *) data;
  g_assert_cmpmem (h->magic, MG_RECORD_MAGIC_LEN, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN);
  g_assert_true (h->flags & MG_RECORD_FLAG_STOPPED);
  g_assert_cmpint (h->record_error_code, ==, EFBIG);
  g_assert_nonnull (strstr (h->record_error, "File too large"));
  g_assert_cmpuint (h->file_size, ==, len);
  g_assert_cmpuint (h->capacity, ==, 0);
  g_assert_cmpuint (h->n_plugins, ==, 0);
  g_assert_cmpuint (h->n_metrics, ==, 0);
  g_assert_cmpuint (h->n_samples, ==, 0);
}

static void
test_skip_program (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, "skip_program\tmg-test-workload\n"
                     COUNT_METRIC);
  const char *const args[] = { "run", "50", "0", NULL };
  run_expecting (f, args, NULL, 0);
  GPtrArray *recs = take_records (f);
  g_assert_cmpuint (recs->len, ==, 0);
  g_assert_false (g_file_test (f->log, G_FILE_TEST_EXISTS));
}

/* --select-ranks: a process whose launcher-given rank is not selected writes
 * no record and loads no plugin; a selected one, and a process with no rank
 * at all, are sampled as usual. */
static void
test_select_ranks (void)
{
  static const struct {
    const char *env;
    gboolean sampled;
    int rank;
  } cases[] = {
    { "OMPI_COMM_WORLD_RANK=2", FALSE, 2 },
    { "OMPI_COMM_WORLD_RANK=6", TRUE, 6 },
    { "PMIX_RANK=9", FALSE, 9 },
    { "PMI_RANK=5", TRUE, 5 },
    { "SLURM_PROCID=10", TRUE, 10 },
    { "SLURM_PROCID=11", FALSE, 11 },
    { NULL, TRUE, -1 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Fixture f;
      fixture_setup (&f, NULL);
      write_plan (&f, 5, "select_ranks\t0-1,5-7,10\n"
                         COUNT_METRIC);
      const char *const args[] = { "run", "60", "7", NULL };
      g_autofree char *out = NULL;
      int status = run_workload (&f, f.plan, args, &out, NULL, cases[c].env);
      /* Never harms the program: same output, same status. */
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 7);
      g_assert_cmpstr (out, ==, "hello\n");
      GPtrArray *recs = take_records (&f);
      g_assert_cmpuint (recs->len, ==, cases[c].sampled ? 1 : 0);
      g_assert_cmpint (g_file_test (f.log, G_FILE_TEST_EXISTS), ==, cases[c].sampled);
      if (cases[c].sampled)
        g_assert_cmpint (hdr (recs->pdata[0])->rank, ==, cases[c].rank);
      fixture_teardown (&f, NULL);
    }
}

static void
test_start_stop_after (Fixture *f, gconstpointer user_data)
{
  write_plan (f, 5, "start_after_ms\t100\nstop_after_ms\t250\n"
                     METRIC (0, "t.pct", "test_pct", "double", "", 0, 0, 0, ""));
  const char *const args[] = { "run", "500", "0", NULL };
  run_expecting (f, args, NULL, 0);
  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->n_samples, >, 0);
  g_assert_cmpint (rec_slot (r, 0)->t_start_ns, ==, h->start_mono_ns + 100000000);
  /* test_pct leaves the time alone: no round starts at or after the stop. */
  g_assert_cmpint (rec_slot (r, h->n_samples - 1)->t_end_ns, <, h->start_mono_ns + 250000000);
  g_assert_true (h->flags & MG_RECORD_FLAG_SAMPLING_ENDED);
  g_autofree char *tags = log_tags (f);
  g_assert_cmpstr (tags, ==, "INIT START STOP CLEANUP");
}

/* A process that ends before its first interval still leaves one sample,
 * taken as it ends (exit or _exit); none before --start-after. */
static void
test_final_sample (void)
{
  const struct {
    const char *args[4];
    const char *plan_head;
    guint n_samples;
    int status;
  } cases[] = {
    { { "run", "0", "0", NULL }, "", 1, 0 },
    { { "underscore", "0", "6", NULL }, "", 1, 6 },
    { { "run", "0", "0", NULL }, "start_after_ms\t5000\n", 0, 0 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      Fixture f;
      fixture_setup (&f, NULL);
      g_autofree char *body = g_strconcat (cases[c].plan_head,
                                           COUNT_METRIC, NULL);
      write_plan (&f, 1000, body);
      run_expecting (&f, cases[c].args, NULL, cases[c].status);
      Record *r = the_record (&f);
      g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
      g_assert_cmpuint (hdr (r)->n_samples, ==, cases[c].n_samples);
      if (cases[c].n_samples > 0)
        {
          /* Far less than the 1 s interval: the window ends with the process. */
          g_assert_cmpint (rec_slot (r, 0)->t_end_ns - hdr (r)->start_mono_ns, <, 900000000);
          g_assert_cmpint (rec_slot (r, 0)->t_end_ns, <=, hdr (r)->end_mono_ns);
          /* The sampler thread loads the plugins: a process that ends
           * before it did keeps its life (this slot, its end, its status)
           * without values, and never loaded the plugin. */
          guint32 state = rec_plugin (r, 0)->state;
          g_test_message ("case %u: plugin state %u", c, state);
          if (state == MG_PLUGIN_STATE_ACTIVE)
            g_assert_cmpuint (rec_value (r, 0, 0)->count, ==, 1);
          else
            {
              g_assert_cmpuint (state, ==, MG_PLUGIN_STATE_UNUSED);
              g_assert_cmpuint (rec_value (r, 0, 0)->count, ==, 0);
              g_assert_false (rec_metric (r, 0)->flags & MG_METRIC_FLAG_ACTIVE);
            }
        }
      fixture_teardown (&f, NULL);
    }
}

/* ---- faulty plugins (issue #19) ---- */

/* The test plugin's t.count as metric 0 and a getter of the faulty plugin
 * (source 1) as metric 1. */
static void
write_faulty_plan (Fixture *f, const char *getter, const char *extra)
{
  g_autofree char *faulty = build_file ("libmg-test-faulty.so");
  g_autofree char *body = g_strdup_printf (
      "%s" "source\t1\tfaulty.src\t%s\t\t\n"
      COUNT_METRIC
      "metric\t1\t1\tf.value\t%s\tuint64_t\t\t0\t0\t0\ttime\t\t\n",
      extra, faulty, getter);
  write_plan (f, 5, body);
}

/* A getter that dereferences NULL at its 20th call: the plugin stops there
 * with a message naming it, the other plugin samples on, the program ends
 * with its own status and the test plugin still gets its cleanup. */
static void
test_plugin_crash (Fixture *f, gconstpointer user_data)
{
  write_faulty_plan (f, "faulty_crash", "");
  const char *const args[] = { "run", "400", "5", NULL };
  int status = run_workload (f, f->plan, args, NULL, NULL, NULL);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 5);

  Record *r = the_record (f);
  const MgRecordHeader *h = hdr (r);
  g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (h->end_status, ==, 5);
  g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_CRASHED);
  g_assert_cmpint (rec_plugin (r, 1)->error_code, ==, SIGSEGV);
  g_assert_cmpstr (rec_plugin (r, 1)->error, ==,
                   "crashed in faulty_crash with SIGSEGV at sample 20; its metrics stop there");
  g_assert_cmpuint (h->n_merges, ==, 0);
  g_assert_cmpuint (h->n_samples, >, 25);
  for (guint i = 0; i < h->n_samples; i++)
    {
      const MgRecordValue *v = rec_value (r, i, 1);
      if (i < 19)
        {
          g_assert_cmpuint (v->count, ==, 1);
          g_assert_cmpfloat (v->mean, ==, (double) (i + 1));
        }
      else
        g_assert_cmpuint (v->count, ==, 0);
      g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 1);
    }
  g_autofree char *tags = log_tags (f);
  g_assert_true (g_str_has_suffix (tags, "STOP CLEANUP"));
}

/* initialise itself crashes: the plugin is never sampled, the rest is. */
static void
test_plugin_init_crash (Fixture *f, gconstpointer user_data)
{
  write_faulty_plan (f, "faulty_crash", "");
  run_expecting (f, RUN_300, "MG_TEST_FAULTY_INIT=1", 0);
  Record *r = the_record (f);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_CRASHED);
  g_assert_cmpstr (rec_plugin (r, 1)->error, ==,
                   "crashed in allinea_plugin_initialise with SIGSEGV; nothing of it is called "
                   "again");
  g_assert_false (rec_metric (r, 1)->flags & MG_METRIC_FLAG_ACTIVE);
  g_assert_cmpuint (hdr (r)->n_samples, >, 0);
  for (guint i = 0; i < hdr (r)->n_samples; i++)
    {
      g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 1);
      g_assert_cmpuint (rec_value (r, i, 1)->count, ==, 0);
    }
}

/* Runs "fault 300 HOW" (the program faults after the plugin did) and checks
 * the plugin's crash was caught in the record. */
static int
run_program_fault (Fixture *f, const char *how, const char *extra_env, char **out)
{
  const char *const args[] = { "fault", "300", how, NULL };
  int status = run_workload (f, f->plan, args, out, NULL, extra_env);
  Record *r = the_record (f);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_CRASHED);
  g_assert_cmpint (g_unlink (r->path), ==, 0);
  return status;
}

/* A fault of the program's own goes to the program's handler: installed
 * after the sampler (sigaction or signal, and the program sees it as its
 * own), installed before it (by a library preloaded first), or none (the
 * default action: killed by SIGSEGV, as without Metrograph). */
static void
test_program_fault_handlers (Fixture *f, gconstpointer user_data)
{
  write_faulty_plan (f, "faulty_crash", "");
  const char *hows[] = { "sigaction", "signal" };
  for (guint i = 0; i < G_N_ELEMENTS (hows); i++)
    {
      g_autofree char *out = NULL;
      int status = run_program_fault (f, hows[i], NULL, &out);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 42);
      g_assert_cmpstr (out, ==, "own handler\n");
    }
  int status = run_program_fault (f, "none", NULL, NULL);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGSEGV);

  g_autofree char *early = build_file ("libmg-test-early-handler.so");
  g_autofree char *so = g_build_filename (build_root (), "sampler", "libmetrograph-sampler.so",
                                          NULL);
  g_autofree char *preload = g_strdup_printf ("LD_PRELOAD=%s %s", so, early);
  g_autofree char *out = NULL;
  status = run_program_fault (f, "none", preload, &out);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 43);
  g_assert_cmpstr (out, ==, "early handler\n");
}

/* The longest time between two slots' ends, and the slots of metric m with
 * a value. */
static gint64
longest_slot_gap (const Record *r, guint m, guint *valued)
{
  gint64 longest = 0;
  *valued = 0;
  for (guint i = 0; i < hdr (r)->n_samples; i++)
    {
      *valued += rec_value (r, i, m)->count > 0;
      if (i > 0)
        longest = MAX (longest, rec_slot (r, i)->t_end_ns - rec_slot (r, i - 1)->t_end_ns);
    }
  return longest;
}

/* Runs the workload as it would run unprofiled (same output, status, and
 * nothing on its stderr) and returns how long it took. */
static double
run_unnoticed (Fixture *f, const char *const *args, const char *extra_env, int exit_status)
{
  g_autofree char *out = NULL, *err = NULL;
  gint64 t0 = g_get_monotonic_time ();
  int status = run_workload (f, f->plan, args, &out, &err, extra_env);
  double took = (double) (g_get_monotonic_time () - t0) / 1e6;
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, exit_status);
  g_assert_cmpstr (out, ==, "hello\n");
  g_assert_cmpstr (err, ==, "");
  return took;
}

/* A getter that never returns from its 5th call: it is abandoned at the
 * hang bound (4 intervals of 5 ms), its plugin named HUNG, and the other
 * metric samples on to the program's end; the program ends as without
 * Metrograph. */
static void
test_plugin_hang (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "run", "400", "0", NULL };

  write_faulty_plan (f, "faulty_hang", "hang_intervals\t4\n");
  double took = run_unnoticed (f, args, NULL, 0);
  g_assert_cmpfloat (took, <, 3.2);
  {
    Record *r = the_record (f);
    guint valued;
    g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
    g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
    g_assert_true (g_str_has_prefix (rec_plugin (r, 1)->error, "hung in faulty_hang at sample 5 "
                                     "(called at "));
    g_assert_true (g_str_has_suffix (rec_plugin (r, 1)->error, "no return within 0.02 s); its "
                                     "metrics stop there"));
    /* Rounds 1-4 have its values, none after; the call is no longer
     * published, since it was abandoned. */
    g_assert_cmpuint (hdr (r)->n_samples, >, 20);
    for (guint i = 0; i < 4; i++)
      g_assert_cmpfloat (rec_value (r, i, 1)->mean, ==, (double) (i + 1));
    for (guint i = 4; i < hdr (r)->n_samples; i++)
      g_assert_cmpuint (rec_value (r, i, 1)->count, ==, 0);
    g_assert_cmpuint (rec_metric (r, 1)->call_since_ms, ==, 0);
    /* The other metric lost at most the bound and a tick (10 ms), with
     * room for a loaded machine. */
    gint64 gap = longest_slot_gap (r, 0, &valued);
    g_assert_cmpuint (valued, ==, hdr (r)->n_samples);
    g_assert_cmpint (gap, <, 200 * 1000000);
    g_assert_cmpint (g_unlink (r->path), ==, 0);
  }

  write_faulty_plan (f, "faulty_hang", "hang_intervals\t1000000\n");
  took = run_unnoticed (f, args, NULL, 0);
  g_assert_cmpfloat (took, <, 3.2);
  {
    Record *r = the_record (f);
    g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
    g_assert_true (g_str_has_prefix (rec_plugin (r, 1)->error,
                                     "had not returned from faulty_hang when the process ended "
                                     "(called at "));
  }
}

/* A getter that blocks for 10 s at its 5th call, in a program of 1.5 s: the
 * other metric keeps a sample every interval but for the bound (20
 * intervals of 5 ms) and a tick, and the blocked plugin is named. */
static void
test_plugin_getter_blocks (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "run", "1500", "3", NULL };
  write_faulty_plan (f, "faulty_block", "hang_intervals\t20\n");
  double took = run_unnoticed (f, args, NULL, 3);
  g_assert_cmpfloat (took, <, 5.0);

  Record *r = the_record (f);
  guint valued;
  gint64 gap = longest_slot_gap (r, 0, &valued);
  g_test_message ("1.5 s with a getter blocked from its 5th call: %u samples of the other "
                  "metric, longest gap %.0f ms, %.2f s in all", valued, (double) gap / 1e6, took);
  g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (r)->end_status, ==, 3);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_true (g_str_has_prefix (rec_plugin (r, 1)->error, "hung in faulty_block at sample 5 "));
  g_assert_true (g_str_has_suffix (rec_plugin (r, 1)->error, "no return within 0.1 s); its "
                                   "metrics stop there"));
  g_assert_cmpuint (valued, ==, hdr (r)->n_samples);
  /* 300 intervals in 1.5 s; the hang takes 20 of them and a loaded
   * machine some more. */
  g_assert_cmpuint (valued, >, 150);
  g_assert_cmpint (gap, <, 400 * 1000000);
  g_assert_cmpuint (rec_value (r, 3, 1)->count, ==, 1);
  g_assert_cmpuint (rec_value (r, hdr (r)->n_samples - 1, 1)->count, ==, 0);
  /* The round of the hang (the 5th) spans the gap it left, to after the
   * call was abandoned, with the other metric's value in it. */
  g_assert_cmpuint (rec_value (r, 4, 1)->count, ==, 0);
  g_assert_cmpuint (rec_value (r, 4, 0)->count, ==, 1);
  g_assert_cmpint (rec_slot (r, 4)->t_end_ns - rec_slot (r, 3)->t_end_ns, >=, 100 * 1000000);
}

/* A fork while the parent's sampler thread is in a getter that blocks
 * (faulty_block_slow's 5th call, 10 s; the hang bound 100 intervals of
 * 5 ms): the fork waits for a getter 100 ms at most, then goes on, and
 * the child is forked with the call in progress in its parent. The call
 * and its verdict are the parent's: the child's own calls (30 ms each, so
 * that its thread is in a round most of its life, its end too) sample
 * on, and nothing in the child's record names the plugin hung. */
static void
test_fork_during_getter (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "fork", "600", "400", NULL };
  guint64 kid_counts = 0;

  write_faulty_plan (f, "faulty_block_slow", "hang_intervals\t100\n");
  int child = run_fork_workload (f, args);
  GPtrArray *recs = take_records (f);
  Record *kid = find_record (recs, child, MG_RECORD_STATE_EXITED);
  Record *parent = find_record (recs, hdr (kid)->ppid, MG_RECORD_STATE_EXECED);
  g_assert_cmpuint (rec_plugin (parent, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_true (g_str_has_prefix (rec_plugin (parent, 1)->error,
                                   "hung in faulty_block_slow at sample 5 "));
  g_test_message ("child: plugin state %u, '%s'", rec_plugin (kid, 1)->state,
                  rec_plugin (kid, 1)->error);
  g_assert_cmpstr (rec_plugin (kid, 1)->error, ==, "");
  g_assert_cmpuint (rec_plugin (kid, 1)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  for (guint i = 0; i < hdr (kid)->n_samples; i++)
    kid_counts += rec_value (kid, i, 1)->count;
  g_assert_cmpuint (kid_counts, >, 5);
}

/* An initialise that never returns: the sampler thread loads the
 * plugins, so the program is not held up by it at all (before, its
 * constructor waited for the limit); abandoned at
 * METROGRAPH_PLUGIN_LIMIT_MS, the plugin named, the program runs as
 * without Metrograph and the other plugin samples it, from its start. */
static void
test_plugin_init_hangs (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "run", "1000", "4", NULL };
  write_faulty_plan (f, "faulty_crash", "");
  g_autofree char *env = g_strdup ("MG_TEST_FAULTY_INIT=hang");
  g_setenv ("METROGRAPH_PLUGIN_LIMIT_MS", "400", TRUE);
  double took = run_unnoticed (f, args, env, 4);
  g_unsetenv ("METROGRAPH_PLUGIN_LIMIT_MS");
  g_test_message ("an initialise that never returns: the 1 s program took %.2f s", took);
  g_assert_cmpfloat (took, >=, 1.0);
  /* Waiting for the limit would add 0.4 s. */
  g_assert_cmpfloat (took, <, 1.35);

  Record *r = the_record (f);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_cmpstr (rec_plugin (r, 1)->error, ==,
                   "did not return from allinea_plugin_initialise within 0.4 s; nothing of it "
                   "is called again");
  g_assert_false (rec_metric (r, 1)->flags & MG_METRIC_FLAG_ACTIVE);
  g_assert_cmpuint (rec_plugin (r, 0)->state, ==, MG_PLUGIN_STATE_ACTIVE);
  g_assert_cmpuint (hdr (r)->n_samples, >, 10);
  g_assert_cmpint (hdr (r)->end_status, ==, 4);
  for (guint i = 0; i < hdr (r)->n_samples; i++)
    g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 1);
}

/* An initialise that never returns in a program that ends before its
 * limit: the program is not held up, its record still shows its life (a
 * slot without values, its status) and names the plugin still in it. */
static void
test_plugin_init_hangs_past_end (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "run", "100", "4", NULL };
  write_faulty_plan (f, "faulty_crash", "");
  g_setenv ("METROGRAPH_PLUGIN_LIMIT_MS", "2000", TRUE);
  double took = run_unnoticed (f, args, "MG_TEST_FAULTY_INIT=hang", 4);
  g_unsetenv ("METROGRAPH_PLUGIN_LIMIT_MS");
  g_test_message ("an initialise that never returns: the 0.1 s program took %.2f s", took);
  /* Its end waits one round's bound at most (100 ms here), not the 2 s. */
  g_assert_cmpfloat (took, <, 0.6);

  Record *r = the_record (f);
  g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (r)->end_status, ==, 4);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_nonnull (strstr (rec_plugin (r, 1)->error, "allinea_plugin_initialise"));
  g_assert_cmpuint (hdr (r)->n_samples, ==, 1);
  g_assert_cmpuint (rec_value (r, 0, 0)->count, ==, 0);
  g_assert_cmpuint (rec_value (r, 0, 1)->count, ==, 0);
  g_assert_cmpint (rec_slot (r, 0)->t_start_ns, ==, hdr (r)->start_mono_ns);
  g_assert_cmpint (rec_slot (r, 0)->t_end_ns, <=, hdr (r)->end_mono_ns);
  g_assert_cmpint (rec_slot (r, 0)->t_end_ns - rec_slot (r, 0)->t_start_ns, >=, 100000000);
}

/* A start function that never returns, on the sampler thread (the
 * program is not held up): abandoned at the plan's plugin_limit_ms; the
 * plugin's metrics are not sampled, the other plugin's are. */
static void
test_plugin_start_hangs (Fixture *f, gconstpointer user_data)
{
  const char *const args[] = { "run", "1000", "0", NULL };
  g_autofree char *faulty = build_file ("libmg-test-faulty.so");
  g_autofree char *body = g_strdup_printf ("plugin_limit_ms\t300\n"
                                           "source\t1\tfaulty.src\t%s\tfaulty_start\t\n"
                                           COUNT_METRIC
                                           "metric\t1\t1\tf.value\tfaulty_crash\tuint64_t\t\t0\t0"
                                           "\t0\ttime\t\t\n", faulty);
  write_plan (f, 5, body);
  double took = run_unnoticed (f, args, "MG_TEST_FAULTY_START=hang", 0);
  g_assert_cmpfloat (took, >=, 1.0);
  /* Waiting for the limit would add 0.3 s. */
  g_assert_cmpfloat (took, <, 1.3);

  Record *r = the_record (f);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_cmpstr (rec_plugin (r, 1)->error, ==,
                   "did not return from faulty_start within 0.3 s; nothing of it is called "
                   "again");
  g_assert_cmpuint (hdr (r)->n_samples, >, 10);
  for (guint i = 0; i < hdr (r)->n_samples; i++)
    {
      g_assert_cmpuint (rec_value (r, i, 0)->count, ==, 1);
      g_assert_cmpuint (rec_value (r, i, 1)->count, ==, 0);
    }
}

/* A cleanup that never returns at exit: abandoned at the plan's
 * plugin_limit_ms, the process still exits with its status, the record
 * is closed and names it. */
static void
test_plugin_cleanup_hangs (Fixture *f, gconstpointer user_data)
{
  /* 50 ms: before faulty_crash's crash at its 20th call. */
  const char *const args[] = { "run", "50", "9", NULL };
  write_faulty_plan (f, "faulty_crash", "plugin_limit_ms\t300\n");
  double took = run_unnoticed (f, args, "MG_TEST_FAULTY_CLEANUP=hang", 9);
  g_test_message ("a cleanup that never returns: the 50 ms program took %.2f s", took);
  g_assert_cmpfloat (took, >=, 0.35);
  g_assert_cmpfloat (took, <, 3.0);

  Record *r = the_record (f);
  g_assert_cmpuint (hdr (r)->state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (hdr (r)->end_status, ==, 9);
  g_assert_cmpuint (rec_plugin (r, 1)->state, ==, MG_PLUGIN_STATE_HUNG);
  g_assert_cmpstr (rec_plugin (r, 1)->error, ==,
                   "did not return from allinea_plugin_cleanup within 0.3 s; nothing of it "
                   "is called again");
  g_autofree char *tags = log_tags (f);
  g_assert_true (g_str_has_suffix (tags, "STOP CLEANUP"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/sampler/divide", Fixture, NULL, fixture_setup, test_divide, fixture_teardown);
  g_test_add ("/sampler/percent-own-span", Fixture, NULL, fixture_setup, test_percent_own_span, fixture_teardown);
  g_test_add ("/sampler/record-dir-made-on-node", Fixture, NULL, fixture_setup, test_record_dir_made_on_node, fixture_teardown);
  g_test_add ("/sampler/plan-restored-on-node", Fixture, NULL, fixture_setup, test_plan_restored_on_node, fixture_teardown);
  g_test_add_func ("/sampler/final-sample", test_final_sample);
  g_test_add ("/sampler/percent", Fixture, NULL, fixture_setup, test_percent, fixture_teardown);
  g_test_add ("/sampler/gaps-and-errors", Fixture, NULL, fixture_setup, test_gaps_and_errors, fixture_teardown);
  g_test_add ("/sampler/config-file", Fixture, NULL, fixture_setup, test_config_file, fixture_teardown);
  g_test_add ("/sampler/backfill-and-lifecycle", Fixture, NULL, fixture_setup, test_backfill_and_lifecycle, fixture_teardown);
  g_test_add ("/sampler/unused-source-not-loaded", Fixture, NULL, fixture_setup, test_unused_source_not_loaded, fixture_teardown);
  g_test_add ("/sampler/load-and-init-failures", Fixture, NULL, fixture_setup, test_load_and_init_failures, fixture_teardown);
  g_test_add ("/sampler/one-per-node", Fixture, NULL, fixture_setup, test_one_per_node, fixture_teardown);
  g_test_add ("/sampler/fork-exec", Fixture, NULL, fixture_setup, test_fork_exec, fixture_teardown);
  g_test_add ("/sampler/underscore-exit", Fixture, NULL, fixture_setup, test_underscore_exit, fixture_teardown);
  g_test_add ("/sampler/failed-exec", Fixture, NULL, fixture_setup, test_failed_exec, fixture_teardown);
  g_test_add ("/sampler/fork-exec-leaves-marked-plugins", Fixture, &exec_leaves_marked,
              fixture_setup, test_fork_exec_plugins, fixture_teardown);
  g_test_add ("/sampler/fork-exec-stops-unmarked-plugins", Fixture, &exec_stops_unmarked,
              fixture_setup, test_fork_exec_plugins, fixture_teardown);
  g_test_add ("/sampler/fork-failed-exec-stops-marked-plugins", Fixture,
              &failed_exec_stops_marked, fixture_setup, test_fork_exec_plugins, fixture_teardown);
  g_test_add ("/sampler/one-per-node-fork-child", Fixture, "200", fixture_setup,
              test_one_per_node_fork_child, fixture_teardown);
  g_test_add ("/sampler/one-per-node-short-fork-child", Fixture, "1", fixture_setup,
              test_one_per_node_fork_child, fixture_teardown);
  g_test_add ("/sampler/fork-failed-exec", Fixture, NULL, fixture_setup, test_fork_failed_exec,
              fixture_teardown);
  g_test_add ("/sampler/vfork-spawn", Fixture, NULL, fixture_setup, test_vfork_spawn, fixture_teardown);
  g_test_add ("/sampler/sigkill-keeps-samples", Fixture, NULL, fixture_setup, test_sigkill_keeps_samples, fixture_teardown);
  g_test_add ("/sampler/merge", Fixture, NULL, fixture_setup, test_merge, fixture_teardown);
  g_test_add ("/sampler/fork-short-child", Fixture, NULL, fixture_setup,
              test_fork_short_child, fixture_teardown);
  g_test_add ("/sampler/affinity-kept", Fixture, NULL, fixture_setup, test_affinity_kept,
              fixture_teardown);
  g_test_add ("/sampler/long-all-metrics-from-start", Fixture, NULL, fixture_setup,
              test_long_all_metrics_from_start, fixture_teardown);
  g_test_add ("/sampler/short-record-small", Fixture, NULL, fixture_setup,
              test_short_record_small, fixture_teardown);
  g_test_add ("/sampler/fork-in-fork-child", Fixture, NULL, fixture_setup,
              test_fork_in_fork_child, fixture_teardown);
  g_test_add ("/sampler/busy-record-stacks", Fixture, NULL, fixture_setup,
              test_busy_record_stacks, fixture_teardown);
  g_test_add ("/sampler/grow-then-merge", Fixture, NULL, fixture_setup, test_grow_then_merge,
              fixture_teardown);
  g_test_add ("/sampler/bad-plan", Fixture, NULL, fixture_setup, test_bad_plan, fixture_teardown);
  g_test_add ("/sampler/unwritable-record-dir", Fixture, NULL, fixture_setup, test_unwritable_record_dir, fixture_teardown);
  g_test_add ("/sampler/record-too-large", Fixture, NULL, fixture_setup, test_record_too_large, fixture_teardown);
  g_test_add ("/sampler/skip-program", Fixture, NULL, fixture_setup, test_skip_program, fixture_teardown);
  g_test_add ("/sampler/start-stop-after", Fixture, NULL, fixture_setup, test_start_stop_after, fixture_teardown);
  g_test_add_func ("/sampler/select-ranks", test_select_ranks);
  g_test_add ("/sampler/execveat", Fixture, NULL, fixture_setup, test_execveat, fixture_teardown);
  g_test_add ("/sampler/plugin-crash", Fixture, NULL, fixture_setup, test_plugin_crash, fixture_teardown);
  g_test_add ("/sampler/plugin-init-crash", Fixture, NULL, fixture_setup, test_plugin_init_crash, fixture_teardown);
  g_test_add ("/sampler/program-fault-handlers", Fixture, NULL, fixture_setup, test_program_fault_handlers, fixture_teardown);
  g_test_add ("/sampler/plugin-hang", Fixture, NULL, fixture_setup, test_plugin_hang, fixture_teardown);
  g_test_add ("/sampler/plugin-getter-blocks", Fixture, NULL, fixture_setup, test_plugin_getter_blocks, fixture_teardown);
  g_test_add ("/sampler/fork-during-getter", Fixture, NULL, fixture_setup, test_fork_during_getter, fixture_teardown);
  g_test_add ("/sampler/plugin-init-hangs", Fixture, NULL, fixture_setup, test_plugin_init_hangs, fixture_teardown);
  g_test_add ("/sampler/plugin-init-hangs-past-end", Fixture, NULL, fixture_setup,
              test_plugin_init_hangs_past_end, fixture_teardown);
  g_test_add ("/sampler/plugin-start-hangs", Fixture, NULL, fixture_setup, test_plugin_start_hangs, fixture_teardown);
  g_test_add ("/sampler/plugin-cleanup-hangs", Fixture, NULL, fixture_setup, test_plugin_cleanup_hangs, fixture_teardown);
  return g_test_run ();
}
