/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The record header's layout and validation, and the launcher's
 * end-of-record write (format/mg-record-format.h). */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "format/mg-record-format.h"
#include "format/mg-record-stacks.h"

enum { N_PLUGINS = 3, N_METRICS = 5, CAPACITY = 64 };

static MgRecordHeader
new_header (void)
{
  MgRecordHeader h;

  mg_record_header_init (&h, N_PLUGINS, N_METRICS, CAPACITY);
  return h;
}

/* The tables and the slots follow the header in order, 8-byte aligned,
 * without overlap, and the file ends with the last slot. */
static void
test_layout (void)
{
  MgRecordHeader h = new_header ();

  g_assert_cmpmem (h.magic, MG_RECORD_MAGIC_LEN, MG_RECORD_MAGIC, MG_RECORD_MAGIC_LEN);
  g_assert_cmpuint (h.version, ==, MG_RECORD_VERSION);
  g_assert_cmpuint (h.header_size, ==, sizeof h);
  g_assert_cmpint (h.rank, ==, -1);
  g_assert_cmpuint (h.state, ==, MG_RECORD_STATE_RUNNING);
  g_assert_cmpuint (h.sample_stride, ==, sizeof (MgRecordSample) + N_METRICS * sizeof (MgRecordValue));
  g_assert_cmpuint (h.plugins_offset % 8, ==, 0);
  g_assert_cmpuint (h.metrics_offset % 8, ==, 0);
  g_assert_cmpuint (h.samples_offset % 8, ==, 0);
  g_assert_cmpuint (h.plugins_offset, >=, sizeof h);
  g_assert_cmpuint (h.metrics_offset, >=, h.plugins_offset + N_PLUGINS * sizeof (MgRecordPlugin));
  g_assert_cmpuint (h.samples_offset, >=, h.metrics_offset + N_METRICS * sizeof (MgRecordMetric));
  g_assert_cmpuint (h.metrics_offset - h.plugins_offset, <, N_PLUGINS * sizeof (MgRecordPlugin) + 8);
  g_assert_cmpuint (h.file_size, ==, h.samples_offset + (guint64) CAPACITY * h.sample_stride);
  g_assert_cmpint (mg_record_check_header (&h, h.file_size), ==, MG_RECORD_OK);
  /* A longer file is fine (a reader may see it grow); a shorter one is not. */
  g_assert_cmpint (mg_record_check_header (&h, h.file_size + 1), ==, MG_RECORD_OK);
  g_assert_cmpint (mg_record_check_header (&h, h.file_size - 1), ==, MG_RECORD_TRUNCATED);
}

/* Version 2 (no sections: its `sections` was reserved, 0) still reads;
 * version 3 adds the call-stack section after the slots. */
static void
test_versions (void)
{
  MgRecordHeader h = new_header ();
  MgRecordHeader v2 = h;

  g_assert_cmpuint (MG_RECORD_VERSION, ==, 3);
  v2.version = 2;
  g_assert_cmpint (mg_record_check_header (&v2, v2.file_size), ==, MG_RECORD_OK);
  g_strlcpy (v2.run_id, "run", sizeof v2.run_id);
  g_assert_true (mg_record_is_of_run (&v2, "run"));
  v2.sections = MG_RECORD_SECTION_STACKS;
  g_assert_cmpint (mg_record_check_header (&v2, v2.file_size), ==, MG_RECORD_BAD_VERSION);
  v2.version = 1;
  v2.sections = 0;
  g_assert_cmpint (mg_record_check_header (&v2, v2.file_size), ==, MG_RECORD_BAD_VERSION);

  guint64 slots_end = h.file_size;
  mg_record_header_add_stacks (&h, 64);
  g_assert_cmpuint (h.sections, ==, MG_RECORD_SECTION_STACKS);
  g_assert_cmpuint (mg_record_sections_offset (&h), ==, (slots_end + 7) / 8 * 8);
  g_assert_cmpuint (h.file_size, ==,
                    mg_record_sections_offset (&h) + mg_record_stacks_layout (NULL, 64, CAPACITY));
  g_assert_cmpint (mg_record_check_header (&h, h.file_size), ==, MG_RECORD_OK);
  g_assert_cmpint (mg_record_check_header (&h, h.file_size - 1), ==, MG_RECORD_TRUNCATED);
}

typedef struct {
  const char *name;
  void (*damage) (MgRecordHeader *h);
  MgRecordProblem expected;
} Damage;

static void bad_magic (MgRecordHeader *h) { h->magic[0] = 'X'; }
static void bad_version (MgRecordHeader *h) { h->version = MG_RECORD_VERSION + 1; }
static void bad_header_size (MgRecordHeader *h) { h->header_size--; }
static void too_many_plugins (MgRecordHeader *h) { h->n_plugins = MG_RECORD_MAX_PLUGINS + 1; }
static void too_many_metrics (MgRecordHeader *h) { h->n_metrics = MG_RECORD_MAX_METRICS + 1; }
static void too_many_slots (MgRecordHeader *h) { h->capacity = MG_RECORD_MAX_CAPACITY + 1; }
static void bad_stride (MgRecordHeader *h) { h->sample_stride += 8; }
static void plugins_in_header (MgRecordHeader *h) { h->plugins_offset = 8; }
static void plugins_overflow (MgRecordHeader *h) { h->plugins_offset = G_MAXUINT64 - 8; }
static void metrics_overlap (MgRecordHeader *h) { h->metrics_offset = h->plugins_offset; }
static void slots_past_end (MgRecordHeader *h) { h->samples_offset += 8; }
static void more_samples (MgRecordHeader *h) { h->n_samples = h->capacity + 1; }
static void host_open (MgRecordHeader *h) { memset (h->host, 'h', sizeof h->host); }
static void run_id_open (MgRecordHeader *h) { memset (h->run_id, 'r', sizeof h->run_id); }
static void bad_state (MgRecordHeader *h) { h->state = MG_RECORD_STATE_EXECED + 1; }
static void negative_start (MgRecordHeader *h) { h->start_mono_ns = -1; }
static void far_end (MgRecordHeader *h) { h->end_mono_ns = MG_RECORD_MAX_TIME_NS + 1; }

/* Each kind of damage is named by its own problem, with its own words. */
static void
test_damaged_headers (void)
{
  const Damage damages[] = {
    { "magic", bad_magic, MG_RECORD_BAD_MAGIC },
    { "version", bad_version, MG_RECORD_BAD_VERSION },
    { "header size", bad_header_size, MG_RECORD_BAD_HEADER_SIZE },
    { "plugins", too_many_plugins, MG_RECORD_IMPLAUSIBLE_COUNTS },
    { "metrics", too_many_metrics, MG_RECORD_IMPLAUSIBLE_COUNTS },
    { "capacity", too_many_slots, MG_RECORD_IMPLAUSIBLE_COUNTS },
    { "stride", bad_stride, MG_RECORD_BAD_STRIDE },
    { "plugins in the header", plugins_in_header, MG_RECORD_PLUGINS_OUTSIDE },
    { "plugin offset overflow", plugins_overflow, MG_RECORD_PLUGINS_OUTSIDE },
    { "metrics over plugins", metrics_overlap, MG_RECORD_METRICS_OUTSIDE },
    { "slots past the end", slots_past_end, MG_RECORD_SAMPLES_OUTSIDE },
    { "samples", more_samples, MG_RECORD_TOO_MANY_SAMPLES },
    { "host", host_open, MG_RECORD_UNTERMINATED_HEADER },
    { "run id", run_id_open, MG_RECORD_UNTERMINATED_HEADER },
    { "state", bad_state, MG_RECORD_BAD_STATE },
    { "negative start", negative_start, MG_RECORD_BAD_TIME },
    { "end past the time range", far_end, MG_RECORD_BAD_TIME },
  };
  g_autoptr (GHashTable) texts = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      MgRecordHeader h = new_header ();

      damages[i].damage (&h);
      g_test_message ("%s", damages[i].name);
      g_assert_cmpint (mg_record_check_header (&h, h.file_size), ==, damages[i].expected);
    }
  for (int p = MG_RECORD_OK; p <= MG_RECORD_BAD_SAMPLE_TIMES; p++)
    {
      const char *text = mg_record_problem_text (p);

      g_assert_cmpstr (text, !=, "unknown problem");
      g_assert_false (g_hash_table_contains (texts, text));
      g_hash_table_add (texts, (gpointer) text);
    }
  g_assert_cmpstr (mg_record_problem_text (MG_RECORD_BAD_STACKS + 1), ==, "unknown problem");
  g_assert_cmpstr (mg_record_problem_text (MG_RECORD_BAD_MAGIC), ==, "wrong magic");
}

static void
test_table_entries (void)
{
  MgRecordPlugin plugin = { .state = MG_PLUGIN_STATE_HUNG };
  MgRecordMetric metric = { .plugin_index = N_PLUGINS - 1 };

  g_assert_cmpint (mg_record_check_plugin (&plugin), ==, MG_RECORD_OK);
  plugin.state++;
  g_assert_cmpint (mg_record_check_plugin (&plugin), ==, MG_RECORD_BAD_PLUGIN_STATE);
  plugin.state = MG_PLUGIN_STATE_ACTIVE;
  memset (plugin.library, 'l', sizeof plugin.library);
  g_assert_cmpint (mg_record_check_plugin (&plugin), ==, MG_RECORD_UNTERMINATED_PLUGIN);

  g_assert_cmpint (mg_record_check_metric (&metric, N_PLUGINS), ==, MG_RECORD_OK);
  metric.plugin_index = N_PLUGINS;
  g_assert_cmpint (mg_record_check_metric (&metric, N_PLUGINS), ==, MG_RECORD_BAD_PLUGIN_INDEX);
  /* A record stopped before its tables were written has no plugin table. */
  g_assert_cmpint (mg_record_check_metric (&metric, 0), ==, MG_RECORD_OK);
  metric.plugin_index = 0;
  metric.last_error_ns = G_MININT64;
  g_assert_cmpint (mg_record_check_metric (&metric, N_PLUGINS), ==, MG_RECORD_BAD_TIME);
  metric.last_error_ns = 0;
  memset (metric.error, 'e', sizeof metric.error);
  g_assert_cmpint (mg_record_check_metric (&metric, N_PLUGINS), ==, MG_RECORD_UNTERMINATED_METRIC);
}

/* A slot's window: in the time range, not ending before it starts (the
 * fuzzer's first find: such times overflowed the merge's arithmetic). */
static void
test_sample_times (void)
{
  MgRecordSample s = { .t_start_ns = 10, .t_end_ns = 20, .n_raw = 1 };

  g_assert_cmpint (mg_record_check_sample (&s), ==, MG_RECORD_OK);
  s.t_end_ns = 9;
  g_assert_cmpint (mg_record_check_sample (&s), ==, MG_RECORD_BAD_SAMPLE_TIMES);
  s.t_end_ns = MG_RECORD_MAX_TIME_NS + 1;
  g_assert_cmpint (mg_record_check_sample (&s), ==, MG_RECORD_BAD_SAMPLE_TIMES);
  s.t_start_ns = G_MININT64;
  s.t_end_ns = 20;
  g_assert_cmpint (mg_record_check_sample (&s), ==, MG_RECORD_BAD_SAMPLE_TIMES);
}

static void
test_copy_str (void)
{
  char field[8];

  memset (field, 'x', sizeof field);
  mg_record_copy_str (field, sizeof field, "abc");
  g_assert_cmpmem (field, sizeof field, "abc\0\0\0\0\0", 8);
  mg_record_copy_str (field, sizeof field, "0123456789");
  g_assert_cmpmem (field, sizeof field, "0123456\0", 8);
  mg_record_copy_str (field, sizeof field, NULL);
  g_assert_cmpmem (field, sizeof field, "\0\0\0\0\0\0\0\0", 8);
}

static MgRecordHeader
read_back (int fd)
{
  MgRecordHeader h;

  g_assert_cmpint (pread (fd, &h, sizeof h, 0), ==, sizeof h);
  return h;
}

/* The launcher's write: status, end time unless the sampler set one, state;
 * nothing else in the header changes. Only records of the run match. */
static void
test_write_end (void)
{
  g_autofree char *path = NULL;
  MgRecordHeader h = new_header ();
  MgRecordHeader got, expected;
  int fd = g_file_open_tmp ("mg-format-record-XXXXXX", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  mg_record_copy_str (h.run_id, sizeof h.run_id, "run-1");
  h.pid = 4242;
  g_assert_cmpint (pwrite (fd, &h, sizeof h, 0), ==, sizeof h);
  g_assert_true (mg_record_is_of_run (&h, "run-1"));
  g_assert_false (mg_record_is_of_run (&h, "run-2"));

  g_assert_true (mg_record_write_end (fd, &h, MG_RECORD_STATE_SIGNALLED, 9, 123456789));
  got = read_back (fd);
  expected = h;
  expected.state = MG_RECORD_STATE_SIGNALLED;
  expected.end_status = 9;
  expected.end_mono_ns = 123456789;
  g_assert_cmpmem (&got, sizeof got, &expected, sizeof expected);

  /* An end time the sampler wrote stays. */
  g_assert_true (mg_record_write_end (fd, &got, MG_RECORD_STATE_EXITED, 3, 999));
  got = read_back (fd);
  g_assert_cmpint (got.end_mono_ns, ==, 123456789);
  g_assert_cmpint (got.end_status, ==, 3);
  g_assert_cmpuint (got.state, ==, MG_RECORD_STATE_EXITED);
  close (fd);

  /* A read-only descriptor: the failure is reported. */
  fd = open (path, O_RDONLY | O_CLOEXEC);
  g_assert_false (mg_record_write_end (fd, &h, MG_RECORD_STATE_SIGNALLED, 9, 1));
  close (fd);
  g_unlink (path);

  h.version++;
  g_assert_false (mg_record_is_of_run (&h, "run-1"));
}

/* The launcher's end of a killed (or raw exit_group) process's record by
 * path: the header is read only for a record of the run, and only a
 * RUNNING record of that pid is marked; a short file, another run, another
 * pid or an ended record are left as they were. */
static void
test_mark_signalled (void)
{
  g_autofree char *path = NULL;
  MgRecordHeader h = new_header ();
  MgRecordHeader got;
  int fd = g_file_open_tmp ("mg-format-record-XXXXXX", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_assert_false (mg_record_read_header_of_run (path, "run-1", &got)); /* empty */
  mg_record_copy_str (h.run_id, sizeof h.run_id, "run-1");
  h.pid = 4242;
  g_assert_cmpint (pwrite (fd, &h, sizeof h, 0), ==, sizeof h);
  close (fd);

  g_assert_true (mg_record_read_header_of_run (path, "run-1", &got));
  g_assert_cmpmem (&got, sizeof got, &h, sizeof h);
  g_assert_false (mg_record_read_header_of_run (path, "run-2", &got));
  g_assert_false (mg_record_read_header_of_run ("/nonexistent/x.mgrec", "run-1", &got));

  g_assert_false (mg_record_mark_ended (path, "run-2", 4242, MG_RECORD_STATE_SIGNALLED, 9, 77));
  g_assert_false (mg_record_mark_ended (path, "run-1", 4243, MG_RECORD_STATE_SIGNALLED, 9, 77));
  g_assert_true (mg_record_read_header_of_run (path, "run-1", &got));
  g_assert_cmpuint (got.state, ==, MG_RECORD_STATE_RUNNING);

  g_assert_true (mg_record_mark_ended (path, "run-1", 4242, MG_RECORD_STATE_SIGNALLED, 9, 77));
  g_assert_true (mg_record_read_header_of_run (path, "run-1", &got));
  g_assert_cmpuint (got.state, ==, MG_RECORD_STATE_SIGNALLED);
  g_assert_cmpint (got.end_status, ==, 9);
  g_assert_cmpint (got.end_mono_ns, ==, 77);
  /* Ended already: not marked twice. */
  g_assert_false (mg_record_mark_ended (path, "run-1", 4242, MG_RECORD_STATE_SIGNALLED, 15, 88));
  g_assert_false (mg_record_mark_ended (path, "run-1", 4242, MG_RECORD_STATE_EXITED, 3, 88));
  g_assert_true (mg_record_read_header_of_run (path, "run-1", &got));
  g_assert_cmpuint (got.state, ==, MG_RECORD_STATE_SIGNALLED);
  g_assert_cmpint (got.end_status, ==, 9);

  /* A process that ended by a raw exit_group: EXITED with the status the
   * launcher reaped, cut to 8 bits as exit(3) does. */
  fd = open (path, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, &h, sizeof h, 0), ==, sizeof h);
  close (fd);
  /* Only an end is marked. */
  g_assert_false (mg_record_mark_ended (path, "run-1", 4242, MG_RECORD_STATE_RUNNING, 0, 99));
  g_assert_false (mg_record_mark_ended (path, "run-1", 4243, MG_RECORD_STATE_EXITED, 11, 99));
  g_assert_true (mg_record_mark_ended (path, "run-1", 4242, MG_RECORD_STATE_EXITED, 256 + 11, 99));
  g_assert_true (mg_record_read_header_of_run (path, "run-1", &got));
  g_assert_cmpuint (got.state, ==, MG_RECORD_STATE_EXITED);
  g_assert_cmpint (got.end_status, ==, 11);
  g_assert_cmpint (got.end_mono_ns, ==, 99);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/format/record/layout", test_layout);
  g_test_add_func ("/format/record/versions", test_versions);
  g_test_add_func ("/format/record/damaged-headers", test_damaged_headers);
  g_test_add_func ("/format/record/table-entries", test_table_entries);
  g_test_add_func ("/format/record/sample-times", test_sample_times);
  g_test_add_func ("/format/record/copy-str", test_copy_str);
  g_test_add_func ("/format/record/write-end", test_write_end);
  g_test_add_func ("/format/record/mark-signalled", test_mark_signalled);
  return g_test_run ();
}
