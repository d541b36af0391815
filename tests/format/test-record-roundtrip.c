/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record's writer and reader together (format/mg-record-writer.h,
 * format/mg-record-view.h): what the writer puts in every field, slot and
 * table entry, the reader gives back; a record that halved its slots, one
 * that could not be allocated, and damaged ones. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-record-view.h"
#include "format/mg-record-writer.h"

#define S 1000000000LL

static char *tmpdir;

/* A record's file as the reader sees it: mapped read-only, as it is on
 * disk. */
typedef struct {
  void *map;
  size_t size;
} Mapped;

static Mapped
map_file (const char *path)
{
  Mapped m = { 0 };
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  m.size = (size_t) st.st_size;
  if (m.size > 0)
    {
      m.map = mmap (NULL, m.size, PROT_READ, MAP_SHARED, fd, 0);
      g_assert_true (m.map != MAP_FAILED);
    }
  close (fd);
  return m;
}

static void
unmap_file (Mapped *m)
{
  if (m->map)
    munmap (m->map, m->size);
}

static void
create (MgRecordWriter *w, const char *host, int pid, gint64 start, guint n_plugins,
        guint n_metrics, guint capacity)
{
  char err[512] = "";
  int rc = mg_record_create (w, tmpdir, host, "run-42", pid, start, n_plugins, n_metrics,
                             capacity, err, sizeof err);

  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (rc, ==, 0);
}

/* Writes slot n_samples as the sampler does: touch, fill, commit. */
static void
add_slot (MgRecordWriter *w, gint64 t_start, gint64 t_end, const double *values,
          const guint *counts)
{
  MgRecordSample *s;
  MgRecordValue *v;

  mg_record_touch_next (w);
  s = mg_record_slot (w, w->header->n_samples);
  v = mg_record_slot_values (s);
  s->t_start_ns = t_start;
  s->t_end_ns = t_end;
  s->n_raw = 1;
  for (guint m = 0; m < w->header->n_metrics; m++)
    if (counts[m] > 0)
      v[m] = (MgRecordValue) { values[m] - 1, values[m] + 1, values[m], counts[m], 0 };
  mg_record_commit (w);
}

/* Every field of the header, both tables and the slots, written with the
 * writer and read back from the file with the reader. */
static void
test_roundtrip_every_field (void)
{
  MgRecordWriter w;
  struct timespec now;
  gint64 before;
  g_autofree char *expected_path = g_strdup_printf ("%s/node7.4242.%lld.mgrec", tmpdir, 5 * S);
  double v0[3] = { 10, 20, 30 }, v1[3] = { 11, 0, 31 };
  guint c0[3] = { 1, 1, 1 }, c1[3] = { 2, 0, 1 };
  MgRecordView view;
  Mapped file;

  clock_gettime (CLOCK_REALTIME, &now);
  before = (gint64) now.tv_sec * S + now.tv_nsec;
  create (&w, "node7", 4242, 5 * S, 2, 3, 16);
  g_assert_cmpstr (w.path, ==, expected_path);

  /* What the sampler sets after creating the record. */
  w.header->ppid = 17;
  w.header->rank = 3;
  w.header->world_size = 8;
  w.header->flags = MG_RECORD_FLAG_NODE_LEADER | MG_RECORD_FLAG_BACKFILLED;
  mg_record_copy_str (w.header->program, sizeof w.header->program, "/usr/bin/solver");
  w.header->interval_start_ns = 20000000;
  w.header->interval_ns = 20000000;
  w.header->end_mono_ns = 9 * S;
  w.header->state = MG_RECORD_STATE_SIGNALLED;
  w.header->end_status = 11;
  w.header->record_error_code = ENOSPC;
  mg_record_copy_str (w.header->record_error, sizeof w.header->record_error, "disk full");

  mg_record_copy_str (w.plugins[0].source_id, MG_RECORD_ID_LEN, "cpu-src");
  mg_record_copy_str (w.plugins[0].library, MG_RECORD_PATH_LEN, "/lib/libcpu.so");
  w.plugins[0].state = MG_PLUGIN_STATE_ACTIVE;
  mg_record_copy_str (w.plugins[1].source_id, MG_RECORD_ID_LEN, "gpu-src");
  mg_record_copy_str (w.plugins[1].library, MG_RECORD_PATH_LEN, "/lib/libgpu.so");
  w.plugins[1].state = MG_PLUGIN_STATE_CRASHED;
  w.plugins[1].error_code = 11;
  mg_record_copy_str (w.plugins[1].error, MG_RECORD_MSG_LEN, "fault in getter");

  for (guint m = 0; m < 3; m++)
    {
      MgRecordMetric *mt = &w.metrics[m];

      g_snprintf (mt->id, sizeof mt->id, "metric.%u", m);
      mt->plan_index = 10 + m;
      mt->plugin_index = m == 2 ? 1 : 0;
      mt->flags = MG_METRIC_FLAG_ACTIVE | (m == 1 ? MG_METRIC_FLAG_DOUBLE | MG_METRIC_FLAG_PERCENT : 0);
    }
  w.metrics[2].error_code = 5;
  w.metrics[2].error_count = 3;
  w.metrics[2].call_since_ms = 1 + 250;
  w.metrics[2].first_error_ns = 6 * S;
  w.metrics[2].last_error_ns = 7 * S;
  mg_record_copy_str (w.metrics[2].error, MG_RECORD_MSG_LEN, "device lost");

  add_slot (&w, 5 * S, 5 * S + 20000000, v0, c0);
  add_slot (&w, 5 * S + 20000000, 5 * S + 40000000, v1, c1);
  mg_record_forget (&w);

  file = map_file (expected_path);
  g_assert_cmpint (mg_record_view_open (&view, file.map, file.size), ==, MG_RECORD_OK);
  {
    const MgRecordHeader *h = view.header;

    g_assert_cmpuint (h->file_size, ==, file.size);
    g_assert_cmpuint (h->version, ==, MG_RECORD_VERSION);
    g_assert_cmpint (h->pid, ==, 4242);
    g_assert_cmpint (h->ppid, ==, 17);
    g_assert_cmpint (h->rank, ==, 3);
    g_assert_cmpint (h->world_size, ==, 8);
    g_assert_cmpuint (h->flags, ==, MG_RECORD_FLAG_NODE_LEADER | MG_RECORD_FLAG_BACKFILLED);
    g_assert_cmpstr (h->host, ==, "node7");
    g_assert_cmpstr (h->run_id, ==, "run-42");
    g_assert_cmpstr (h->program, ==, "/usr/bin/solver");
    g_assert_cmpint (h->start_mono_ns, ==, 5 * S);
    /* The writer takes the wall clock at creation. */
    g_assert_cmpint (h->start_real_ns, >=, before);
    g_assert_cmpint (h->start_real_ns, <, before + 60 * S);
    g_assert_cmpint (h->end_mono_ns, ==, 9 * S);
    g_assert_cmpuint (h->state, ==, MG_RECORD_STATE_SIGNALLED);
    g_assert_cmpint (h->end_status, ==, 11);
    g_assert_cmpuint (h->interval_start_ns, ==, 20000000);
    g_assert_cmpuint (h->interval_ns, ==, 20000000);
    g_assert_cmpuint (h->seq, ==, 0);
    g_assert_cmpuint (h->n_merges, ==, 0);
    g_assert_cmpuint (h->capacity, ==, 16);
    g_assert_cmpint (h->record_error_code, ==, ENOSPC);
    g_assert_cmpstr (h->record_error, ==, "disk full");
    g_assert_true (mg_record_is_of_run (h, "run-42"));
  }
  g_assert_cmpuint (view.header->n_plugins, ==, 2);
  g_assert_cmpstr (view.plugins[0].source_id, ==, "cpu-src");
  g_assert_cmpstr (view.plugins[0].library, ==, "/lib/libcpu.so");
  g_assert_cmpuint (view.plugins[0].state, ==, MG_PLUGIN_STATE_ACTIVE);
  g_assert_cmpint (view.plugins[0].error_code, ==, 0);
  g_assert_cmpstr (view.plugins[0].error, ==, "");
  g_assert_cmpstr (view.plugins[1].source_id, ==, "gpu-src");
  g_assert_cmpuint (view.plugins[1].state, ==, MG_PLUGIN_STATE_CRASHED);
  g_assert_cmpint (view.plugins[1].error_code, ==, 11);
  g_assert_cmpstr (view.plugins[1].error, ==, "fault in getter");

  g_assert_cmpuint (view.header->n_metrics, ==, 3);
  for (guint m = 0; m < 3; m++)
    {
      g_autofree char *id = g_strdup_printf ("metric.%u", m);

      g_assert_cmpstr (view.metrics[m].id, ==, id);
      g_assert_cmpuint (view.metrics[m].plan_index, ==, 10 + m);
      g_assert_cmpuint (view.metrics[m].plugin_index, ==, m == 2 ? 1 : 0);
    }
  g_assert_cmpuint (view.metrics[1].flags, ==,
                    MG_METRIC_FLAG_ACTIVE | MG_METRIC_FLAG_DOUBLE | MG_METRIC_FLAG_PERCENT);
  g_assert_cmpint (view.metrics[2].error_code, ==, 5);
  g_assert_cmpuint (view.metrics[2].error_count, ==, 3);
  g_assert_cmpuint (view.metrics[2].call_since_ms, ==, 251);
  g_assert_cmpint (view.metrics[2].first_error_ns, ==, 6 * S);
  g_assert_cmpint (view.metrics[2].last_error_ns, ==, 7 * S);
  g_assert_cmpstr (view.metrics[2].error, ==, "device lost");

  g_assert_cmpuint (view.n_samples, ==, 2);
  g_assert_cmpuint (view.first, ==, 0);
  g_assert_cmpint (mg_record_view_sample (&view, 1)->t_start_ns, ==, 5 * S + 20000000);
  g_assert_cmpint (mg_record_view_sample (&view, 1)->t_end_ns, ==, 5 * S + 40000000);
  g_assert_cmpuint (mg_record_view_sample (&view, 1)->n_raw, ==, 1);
  for (guint m = 0; m < 3; m++)
    {
      const MgRecordValue *a = &mg_record_view_values (&view, 0)[m];
      const MgRecordValue *b = &mg_record_view_values (&view, 1)[m];

      g_assert_cmpfloat (a->mean, ==, v0[m]);
      g_assert_cmpfloat (a->min, ==, v0[m] - 1);
      g_assert_cmpfloat (a->max, ==, v0[m] + 1);
      g_assert_cmpuint (a->count, ==, c0[m]);
      g_assert_cmpuint (b->count, ==, c1[m]);
      if (c1[m] > 0)
        g_assert_cmpfloat (b->mean, ==, v1[m]);
    }
  /* Past the committed slots the view gives nothing. */
  g_assert_null (mg_record_view_sample (&view, 2));
  g_assert_null (mg_record_view_values (&view, 2));
  unmap_file (&file);
  g_unlink (expected_path);
}

/* A full record halves its slots: neighbours merged (windows joined, raw
 * counts added, min/max/mean of both, a gap taking the other's value), an
 * odd last slot kept alone, the freed slots zero, the interval doubled. */
static void
test_roundtrip_halved (void)
{
  MgRecordWriter w;
  g_autofree char *path = NULL;
  /* metric 0 always has a value; metric 1 has a gap in slot 1 and 2. */
  double vals[5][2] = { { 2, 100 }, { 4, 0 }, { 6, 0 }, { 8, 300 }, { 10, 500 } };
  guint counts[5][2] = { { 1, 1 }, { 1, 0 }, { 1, 0 }, { 3, 1 }, { 1, 1 } };
  MgRecordView view;
  Mapped file;
  guchar zero[512] = { 0 };

  create (&w, "node1", 77, S, 1, 2, 5);
  mg_record_copy_str (w.plugins[0].source_id, MG_RECORD_ID_LEN, "src");
  w.header->interval_start_ns = w.header->interval_ns = 10000000;
  for (guint i = 0; i < 5; i++)
    add_slot (&w, S + i * 10000000, S + (i + 1) * 10000000, vals[i], counts[i]);
  g_assert_cmpuint (w.header->n_samples, ==, w.header->capacity);
  mg_record_merge (&w);
  path = g_strdup (w.path);
  g_assert_cmpuint (w.header->seq % 2, ==, 0);
  mg_record_forget (&w);

  file = map_file (path);
  g_assert_cmpint (mg_record_view_open (&view, file.map, file.size), ==, MG_RECORD_OK);
  g_assert_cmpuint (view.n_samples, ==, 3);
  g_assert_cmpuint (view.header->n_merges, ==, 1);
  g_assert_cmpuint (view.header->interval_ns, ==, 20000000);
  g_assert_cmpuint (view.header->interval_start_ns, ==, 10000000);
  /* Slot 0 = slots 0 and 1; slot 1 = slots 2 and 3; slot 2 = slot 4. */
  g_assert_cmpint (mg_record_view_sample (&view, 0)->t_start_ns, ==, S);
  g_assert_cmpint (mg_record_view_sample (&view, 0)->t_end_ns, ==, S + 20000000);
  g_assert_cmpuint (mg_record_view_sample (&view, 0)->n_raw, ==, 2);
  g_assert_cmpint (mg_record_view_sample (&view, 2)->t_start_ns, ==, S + 40000000);
  g_assert_cmpint (mg_record_view_sample (&view, 2)->t_end_ns, ==, S + 50000000);
  g_assert_cmpuint (mg_record_view_sample (&view, 2)->n_raw, ==, 1);
  {
    const MgRecordValue *s0 = mg_record_view_values (&view, 0);
    const MgRecordValue *s1 = mg_record_view_values (&view, 1);
    const MgRecordValue *s2 = mg_record_view_values (&view, 2);

    /* 2 and 4, one each: mean 3, min 2 - 1, max 4 + 1. */
    g_assert_cmpuint (s0[0].count, ==, 2);
    g_assert_cmpfloat (s0[0].mean, ==, 3);
    g_assert_cmpfloat (s0[0].min, ==, 1);
    g_assert_cmpfloat (s0[0].max, ==, 5);
    /* 6 once and 8 three times: (6 + 24) / 4. */
    g_assert_cmpuint (s1[0].count, ==, 4);
    g_assert_cmpfloat (s1[0].mean, ==, 7.5);
    /* A gap merged with a value is the value. */
    g_assert_cmpuint (s0[1].count, ==, 1);
    g_assert_cmpfloat (s0[1].mean, ==, 100);
    g_assert_cmpuint (s1[1].count, ==, 1);
    g_assert_cmpfloat (s1[1].mean, ==, 300);
    g_assert_cmpuint (s2[0].count, ==, 1);
    g_assert_cmpfloat (s2[0].mean, ==, 10);
    g_assert_cmpfloat (s2[1].mean, ==, 500);
  }
  /* The freed slots 3 and 4 read as zero. */
  g_assert_cmpuint (view.stride, <=, sizeof zero);
  for (guint i = 3; i < 5; i++)
    g_assert_cmpmem (view.slots + (gsize) i * view.stride, view.stride, zero, view.stride);
  unmap_file (&file);
  g_unlink (path);
}

/* The writer's own errors: a folder that does not exist, and a record the
 * file size limit does not let it allocate, which still leaves a valid
 * header saying why. */
static void
test_roundtrip_create_errors (void)
{
  MgRecordWriter w;
  char err[512] = "";
  g_autofree char *missing = g_build_filename (tmpdir, "no-such-folder", NULL);
  g_autofree char *path = g_strdup_printf ("%s/big.9.1.mgrec", tmpdir);
  struct rlimit saved, small;
  MgRecordView view;
  Mapped file;
  int rc;

  rc = mg_record_create (&w, missing, "h", "r", 1, 1, 0, 1, 4, err, sizeof err);
  g_assert_cmpint (rc, ==, -ENOENT);
  g_assert_nonnull (strstr (err, "cannot create record"));
  g_assert_nonnull (strstr (err, "no-such-folder"));

  /* A path one byte too long for the writer's 4096, and one that fits
   * exactly (a negative start, the number's sign included). */
  g_autofree char *long_dir = g_strnfill (4096 - strlen ("/h.1.-5.mgrec"), 'd');
  for (size_t i = 0; i < strlen (long_dir); i += 200)
    long_dir[i] = '/'; /* components the kernel takes: it says ENOENT */
  rc = mg_record_create (&w, long_dir, "h", "r", 1, -5, 0, 1, 4, err, sizeof err);
  g_assert_cmpint (rc, ==, -ENAMETOOLONG);
  g_assert_true (g_str_has_prefix (err, "record path in"));
  long_dir[strlen (long_dir) - 1] = '\0';
  rc = mg_record_create (&w, long_dir, "h", "r", 1, -5, 0, 1, 4, err, sizeof err);
  g_assert_cmpint (rc, ==, -ENOENT);
  g_assert_true (g_str_has_suffix (w.path, "d/h.1.-5.mgrec"));
  g_assert_cmpuint (strlen (w.path), ==, 4095);

  /* A limit the header fits under but 100000 slots do not. */
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  small = saved;
  small.rlim_cur = 64 * 1024;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);
  rc = mg_record_create (&w, tmpdir, "big", "run-42", 9, 1, 2, 4, 100000, err, sizeof err);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  g_assert_cmpint (rc, ==, -EFBIG);
  g_assert_nonnull (strstr (err, "cannot allocate record"));

  file = map_file (path);
  g_assert_cmpuint (file.size, ==, sizeof (MgRecordHeader));
  g_assert_cmpint (mg_record_view_open (&view, file.map, file.size), ==, MG_RECORD_OK);
  g_assert_true (view.header->flags & MG_RECORD_FLAG_STOPPED);
  g_assert_cmpint (view.header->record_error_code, ==, EFBIG);
  g_assert_cmpstr (view.header->record_error, ==, err);
  g_assert_cmpuint (view.header->n_plugins, ==, 0);
  g_assert_cmpuint (view.header->n_metrics, ==, 0);
  g_assert_cmpuint (view.header->capacity, ==, 0);
  g_assert_cmpuint (view.n_samples, ==, 0);
  g_assert_cmpstr (view.header->run_id, ==, "run-42");
  g_assert_cmpint (view.header->pid, ==, 9);
  unmap_file (&file);
  g_unlink (path);
}

/* A written record, damaged in one place: the reader names the problem. */
typedef void (*Damage) (guchar *data, const MgRecordHeader *h);

static void damage_magic (guchar *d, const MgRecordHeader *h) { (void) h; d[0] = 'X'; }
static void damage_version (guchar *d, const MgRecordHeader *h) { (void) h; ((MgRecordHeader *) d)->version = 99; }
static void damage_n_samples (guchar *d, const MgRecordHeader *h) { ((MgRecordHeader *) d)->n_samples = h->capacity + 1; }
static void damage_host (guchar *d, const MgRecordHeader *h) { (void) h; memset (((MgRecordHeader *) d)->host, 'a', MG_RECORD_HOST_LEN); }
static void damage_plugin_state (guchar *d, const MgRecordHeader *h) { ((MgRecordPlugin *) (d + h->plugins_offset))[1].state = 42; }
static void damage_plugin_index (guchar *d, const MgRecordHeader *h) { ((MgRecordMetric *) (d + h->metrics_offset))[0].plugin_index = 2; }
static void damage_metric_id (guchar *d, const MgRecordHeader *h) { memset (((MgRecordMetric *) (d + h->metrics_offset))[1].id, 'x', MG_RECORD_ID_LEN); }
static void
damage_sample (guchar *d, const MgRecordHeader *h)
{
  MgRecordSample *s = (MgRecordSample *) (d + h->samples_offset + h->sample_stride);

  s->t_end_ns = s->t_start_ns - 1;
}

static void
test_roundtrip_damaged (void)
{
  static const struct {
    Damage damage;
    MgRecordProblem problem;
    const char *text;
  } cases[] = {
    { damage_magic, MG_RECORD_BAD_MAGIC, "wrong magic" },
    { damage_version, MG_RECORD_BAD_VERSION, "unknown format version" },
    { damage_n_samples, MG_RECORD_TOO_MANY_SAMPLES, "more samples than slots" },
    { damage_host, MG_RECORD_UNTERMINATED_HEADER, "unterminated string in the header" },
    { damage_plugin_state, MG_RECORD_BAD_PLUGIN_STATE, "unknown plugin state" },
    { damage_plugin_index, MG_RECORD_BAD_PLUGIN_INDEX, "metric names a plugin that is not in the table" },
    { damage_metric_id, MG_RECORD_UNTERMINATED_METRIC, "unterminated string in the metric table" },
    { damage_sample, MG_RECORD_BAD_SAMPLE_TIMES, "a sample whose times are out of range or out of order" },
  };
  MgRecordWriter w;
  double v[2] = { 1, 2 };
  guint c[2] = { 1, 1 };
  g_autofree guchar *copy = NULL;
  size_t size;
  MgRecordView view;

  create (&w, "dmg", 5, S, 2, 2, 4);
  w.plugins[1].state = MG_PLUGIN_STATE_ACTIVE;
  add_slot (&w, S, 2 * S, v, c);
  add_slot (&w, 2 * S, 3 * S, v, c);
  size = w.size;
  g_assert_cmpint (mg_record_view_open (&view, w.map, size), ==, MG_RECORD_OK);
  copy = g_malloc (size);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      MgRecordProblem problem;

      memcpy (copy, w.map, size);
      cases[i].damage (copy, w.header);
      problem = mg_record_view_open (&view, copy, size);
      g_assert_cmpint (problem, ==, cases[i].problem);
      g_assert_cmpstr (mg_record_problem_text (problem), ==, cases[i].text);
      /* A failed open leaves nothing to read. */
      g_assert_null (view.header);
      g_assert_cmpuint (view.n_samples, ==, 0);
    }

  /* Cut short: inside the header, a wrong magic there, and past it. */
  memcpy (copy, w.map, size);
  g_assert_cmpint (mg_record_view_open (&view, copy, 0), ==, MG_RECORD_TRUNCATED);
  g_assert_cmpint (mg_record_view_open (&view, copy, 4), ==, MG_RECORD_TRUNCATED);
  g_assert_cmpint (mg_record_view_open (&view, copy, 100), ==, MG_RECORD_TRUNCATED);
  copy[1] = '?';
  g_assert_cmpint (mg_record_view_open (&view, copy, 100), ==, MG_RECORD_BAD_MAGIC);
  copy[1] = MG_RECORD_MAGIC[1];
  g_assert_cmpint (mg_record_view_open (&view, copy, size - 1), ==, MG_RECORD_TRUNCATED);
  g_assert_cmpstr (mg_record_problem_text (MG_RECORD_TRUNCATED), ==, "shorter than its header says");

  g_unlink (w.path);
  mg_record_forget (&w);
}

/* The pieces a reader copied: the slots from index first on, as a live
 * reader asks for what it has not seen; more than were committed is
 * refused. */
static void
test_roundtrip_parts (void)
{
  MgRecordWriter w;
  double v[1] = { 0 };
  guint c[1] = { 1 };
  MgRecordView view;
  const MgRecordHeader *h;

  create (&w, "parts", 6, S, 0, 1, 8);
  for (guint i = 0; i < 5; i++)
    {
      v[0] = 100 + i;
      add_slot (&w, S + i, S + i + 1, v, c);
    }
  h = w.header;
  g_assert_cmpint (mg_record_view_open_parts (&view, h, w.size, w.plugins, w.metrics,
                                              mg_record_slot (&w, 3), 3, 2),
                   ==, MG_RECORD_OK);
  g_assert_cmpuint (view.first, ==, 3);
  g_assert_cmpuint (view.n_samples, ==, 2);
  g_assert_cmpfloat (mg_record_view_values (&view, 0)[0].mean, ==, 103);
  g_assert_cmpint (mg_record_view_sample (&view, 1)->t_start_ns, ==, S + 4);
  g_assert_cmpint (mg_record_view_open_parts (&view, h, w.size, w.plugins, w.metrics,
                                              mg_record_slot (&w, 3), 3, 3),
                   ==, MG_RECORD_TOO_MANY_SAMPLES);
  g_assert_cmpint (mg_record_view_open_parts (&view, h, w.size - 1, w.plugins, w.metrics,
                                              mg_record_slot (&w, 0), 0, 5),
                   ==, MG_RECORD_TRUNCATED);
  g_unlink (w.path);
  mg_record_forget (&w);
}

/* The launcher ends a killed process's record through a descriptor; the
 * reader then sees the state, the status and the end time. The resident
 * bytes the writer counts cover the header, the tables and the slots it
 * touched, whole pages. */
static void
test_roundtrip_end_and_resident (void)
{
  MgRecordWriter w;
  double v[1] = { 1 };
  guint c[1] = { 1 };
  g_autofree char *path = NULL;
  MgRecordHeader h;
  MgRecordView view;
  Mapped file;
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  int fd;

  create (&w, "end", 8, S, 1, 1, 1000);
  g_assert_cmpuint (mg_record_resident_bytes (&w), ==,
                    (w.header->samples_offset + page - 1) / page * page);
  add_slot (&w, S, 2 * S, v, c);
  g_assert_cmpuint (mg_record_resident_bytes (&w), ==,
                    (w.header->samples_offset + w.header->sample_stride + page - 1) / page * page);
  h = *w.header;
  path = g_strdup (w.path);
  mg_record_forget (&w);
  g_assert_cmpuint (mg_record_resident_bytes (&w), ==, 0);

  fd = open (path, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (mg_record_write_end (fd, &h, MG_RECORD_STATE_SIGNALLED, 9, 3 * S));
  close (fd);
  file = map_file (path);
  g_assert_cmpint (mg_record_view_open (&view, file.map, file.size), ==, MG_RECORD_OK);
  g_assert_cmpuint (view.header->state, ==, MG_RECORD_STATE_SIGNALLED);
  g_assert_cmpint (view.header->end_status, ==, 9);
  g_assert_cmpint (view.header->end_mono_ns, ==, 3 * S);
  g_assert_cmpuint (view.n_samples, ==, 1);
  unmap_file (&file);
  g_unlink (path);
}

/* What a record composed at the end fills in (the same for the record
 * laid out in memory). */
static void
composed_header (void *data, MgRecordHeader *h)
{
  (void) data;
  h->ppid = 41;
  h->rank = 3;
  h->world_size = 8;
  mg_record_copy_str (h->program, sizeof h->program, "/bin/true");
  h->start_real_ns = 1700000000 * S;
  h->interval_start_ns = h->interval_ns = 20000000;
  h->flags |= MG_RECORD_FLAG_SAMPLING_ENDED;
  h->end_mono_ns = 5 * S;
  h->end_status = 7;
  h->state = MG_RECORD_STATE_EXITED;
}

static void
composed_plugin (void *data, uint32_t i, MgRecordPlugin *e)
{
  (void) data;
  g_snprintf (e->source_id, sizeof e->source_id, "org.example.source%u", i);
  g_snprintf (e->library, sizeof e->library, "/usr/lib/libsource%u.so", i);
  e->state = i % 3 == 0 ? MG_PLUGIN_STATE_ACTIVE : MG_PLUGIN_STATE_UNUSED;
  e->error_code = (int32_t) i;
}

static void
composed_metric (void *data, uint32_t m, MgRecordMetric *e)
{
  (void) data;
  g_snprintf (e->id, sizeof e->id, "org.example.metric.%u", m);
  e->plan_index = m;
  e->plugin_index = m % 10;
  e->flags = MG_METRIC_FLAG_DOUBLE | (m % 2 ? MG_METRIC_FLAG_ACTIVE : 0u);
}

/* A record written by mg_record_write_out after the same fills in memory. */
static char *
write_laid_out (const char *dir, guint n_plugins, guint n_metrics, guint max_stacks,
                gint64 slot_end)
{
  MgRecordWriter w;
  char err[512];

  g_assert_cmpint (mg_record_create_in_memory (&w, dir, "composed", "run-1", 12, 2 * S,
                                               n_plugins, n_metrics, 4096, max_stacks, err,
                                               sizeof err),
                   ==, 0);
  composed_header (NULL, w.header);
  for (guint i = 0; i < n_plugins; i++)
    composed_plugin (NULL, i, &w.plugins[i]);
  for (guint m = 0; m < n_metrics; m++)
    composed_metric (NULL, m, &w.metrics[m]);
  if (slot_end > 0)
    {
      g_assert_true (mg_record_touch_next (&w));
      MgRecordSample *slot = mg_record_slot (&w, 0);
      slot->t_start_ns = 2 * S;
      slot->t_end_ns = slot_end;
      slot->n_raw = 1;
      mg_record_commit (&w);
    }
  g_assert_cmpint (mg_record_write_out (&w, err, sizeof err), ==, 0);
  char *path = g_strdup (w.path);
  mg_record_forget (&w);
  return path;
}

/* The record composed at a process's end without being laid out
 * (mg_record_write_composed) is, byte for byte, the one laid out in
 * memory and written out: tables that span pages (66 metrics, ten
 * plugins, as the default plan), a tiny one, with and without its life
 * slot and a call-stack section; and the reader takes it. */
static void
test_roundtrip_composed (void)
{
  static const struct {
    guint n_plugins, n_metrics, max_stacks;
    gint64 slot_end;
  } cases[] = {
    { 10, 66, 0, 3 * S },
    { 10, 66, 4096, 3 * S },
    { 10, 66, 4096, 0 },
    { 0, 1, 0, 3 * S },
  };
  g_autofree char *dir_a = g_build_filename (tmpdir, "laid-out", NULL);
  g_autofree char *dir_b = g_build_filename (tmpdir, "composed", NULL);

  g_assert_cmpint (g_mkdir (dir_a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (dir_b, 0700), ==, 0);
  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *a = write_laid_out (dir_a, cases[k].n_plugins, cases[k].n_metrics,
                                           cases[k].max_stacks, cases[k].slot_end);
      MgRecordComposer c = { composed_header, composed_plugin, composed_metric, 2 * S,
                             cases[k].slot_end, NULL };
      char err[512];
      g_autofree char *b = NULL;
      g_autofree char *name = g_path_get_basename (a);
      MgRecordView view;

      g_assert_cmpint (mg_record_write_composed (dir_b, "composed", "run-1", 12, 2 * S,
                                                 cases[k].n_plugins, cases[k].n_metrics, 4096,
                                                 cases[k].max_stacks, &c, err, sizeof err),
                       ==, 0);
      b = g_build_filename (dir_b, name, NULL);
      Mapped fa = map_file (a), fb = map_file (b);
      g_assert_cmpuint (fa.size, ==, fb.size);
      g_assert_cmpuint (fa.size, >, 40000);
      g_assert_true (memcmp (fa.map, fb.map, fa.size) == 0);
      g_assert_cmpint (mg_record_view_open (&view, fb.map, fb.size), ==, MG_RECORD_OK);
      g_assert_cmpuint (view.n_samples, ==, cases[k].slot_end > 0 ? 1 : 0);
      g_assert_cmpint (view.header->end_status, ==, 7);
      g_assert_cmpstr (view.metrics[cases[k].n_metrics - 1].id, ==,
                       cases[k].n_metrics == 66 ? "org.example.metric.65"
                                                : "org.example.metric.0");
      unmap_file (&fa);
      unmap_file (&fb);
      g_unlink (a);
      g_unlink (b);
    }
  g_rmdir (dir_a);
  g_rmdir (dir_b);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("mg-record-roundtrip-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/format/record-roundtrip/every-field", test_roundtrip_every_field);
  g_test_add_func ("/format/record-roundtrip/halved", test_roundtrip_halved);
  g_test_add_func ("/format/record-roundtrip/create-errors", test_roundtrip_create_errors);
  g_test_add_func ("/format/record-roundtrip/damaged", test_roundtrip_damaged);
  g_test_add_func ("/format/record-roundtrip/parts", test_roundtrip_parts);
  g_test_add_func ("/format/record-roundtrip/end-and-resident", test_roundtrip_end_and_resident);
  g_test_add_func ("/format/record-roundtrip/composed", test_roundtrip_composed);
  rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
