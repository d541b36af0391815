/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reading sampler records, valid and damaged. */
/* unshare */
#define _GNU_SOURCE
#include "mg-config.h"
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "profile/mg-record-reader.h"
#include "record-fixture.h"

static char *tmpdir;

/* Two samples in room for @capacity. */
static RecordFixture *
valid_record_sized (guint capacity)
{
  RecordFixture *r = record_fixture_new (1, 2, capacity);
  MgRecordHeader *h = record_fixture_header (r);
  double v0[2] = { 1.5, NAN }, v1[2] = { 2.5, 7.0 };

  h->pid = 4242;
  h->ppid = 1;
  g_strlcpy (h->host, "node1", sizeof h->host);
  g_strlcpy (h->program, "/usr/bin/prog", sizeof h->program);
  g_strlcpy (h->run_id, "run-1", sizeof h->run_id);
  h->start_mono_ns = 1000;
  h->state = MG_RECORD_STATE_EXITED;
  g_strlcpy (record_fixture_plugin (r, 0)->source_id, "src", MG_RECORD_ID_LEN);
  record_fixture_plugin (r, 0)->state = MG_PLUGIN_STATE_ACTIVE;
  g_strlcpy (record_fixture_metric (r, 0)->id, "m0", MG_RECORD_ID_LEN);
  g_strlcpy (record_fixture_metric (r, 1)->id, "m1", MG_RECORD_ID_LEN);
  record_fixture_add_sample (r, 1000, 2000, v0);
  record_fixture_add_sample (r, 2000, 3000, v1);
  return r;
}

static RecordFixture *
valid_record (void)
{
  return valid_record_sized (8);
}

static char *
write_tmp (RecordFixture *r, const char *name)
{
  char *path = g_build_filename (tmpdir, name, NULL);

  record_fixture_write (r, path);
  return path;
}

static void
test_reader_valid (void)
{
  g_autoptr(RecordFixture) r = valid_record ();
  g_autofree char *path = write_tmp (r, "valid.mgrec");
  g_autoptr(GError) error = NULL;
  g_autoptr(MgRecordFile) rec = mg_record_file_read (path, &error);
  MgRecordHeader header;

  g_assert_no_error (error);
  g_assert_nonnull (rec);
  g_assert_cmpint (rec->header.pid, ==, 4242);
  g_assert_cmpstr (rec->header.host, ==, "node1");
  g_assert_cmpstr (rec->header.run_id, ==, "run-1");
  g_assert_cmpuint (rec->n_samples, ==, 2);
  g_assert_cmpstr (rec->metrics[1].id, ==, "m1");
  g_assert_cmpstr (rec->plugins[0].source_id, ==, "src");
  g_assert_cmpint (mg_record_file_get_sample (rec, 1)->t_end_ns, ==, 3000);
  g_assert_cmpfloat (mg_record_file_get_values (rec, 0)[0].mean, ==, 1.5);
  g_assert_cmpuint (mg_record_file_get_values (rec, 0)[1].count, ==, 0);
  g_assert_cmpfloat (mg_record_file_get_values (rec, 1)[1].max, ==, 7.0);

  g_assert_true (mg_record_file_read_header (path, &header, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (header.n_samples, ==, 2);
}

typedef void (*Damage) (RecordFixture *r);

static void
assert_damaged (Damage damage, gsize keep, int code, const char *what)
{
  g_autoptr(RecordFixture) r = valid_record ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) header_error = NULL;
  g_autoptr(MgRecordFile) rec = NULL;
  MgRecordHeader header;

  if (damage != NULL)
    damage (r);
  if (keep > 0)
    r->size = keep;
  path = write_tmp (r, "damaged.mgrec");
  rec = mg_record_file_read (path, &error);
  g_assert_null (rec);
  g_assert_error (error, MG_RECORD_ERROR, code);
  g_assert_nonnull (strstr (error->message, "damaged.mgrec"));
  if (what != NULL)
    g_assert_nonnull (strstr (error->message, what));
  g_assert_false (mg_record_file_read_header (path, &header, &header_error));
  g_assert_nonnull (header_error);
}

static void bad_magic (RecordFixture *r) { r->data[0] = 'X'; }
static void bad_version (RecordFixture *r) { record_fixture_header (r)->version = MG_RECORD_VERSION + 1; }
static void bad_plugins_offset (RecordFixture *r) { record_fixture_header (r)->plugins_offset = 1u << 30; }
static void bad_samples_offset (RecordFixture *r) { record_fixture_header (r)->samples_offset = record_fixture_header (r)->file_size - 8; }
static void overlapping_offset (RecordFixture *r) { record_fixture_header (r)->metrics_offset = 8; }
static void bad_count (RecordFixture *r) { record_fixture_header (r)->n_samples = 9; }
static void huge_capacity (RecordFixture *r) { record_fixture_header (r)->capacity = G_MAXUINT32; }
static void bad_stride (RecordFixture *r) { record_fixture_header (r)->sample_stride += 8; }
static void unterminated_host (RecordFixture *r) { memset (record_fixture_header (r)->host, 'a', MG_RECORD_HOST_LEN); }
static void unterminated_metric (RecordFixture *r) { memset (record_fixture_metric (r, 0)->id, 'a', MG_RECORD_ID_LEN); }
static void bad_state (RecordFixture *r) { record_fixture_header (r)->state = 17; }
static void bad_plugin_index (RecordFixture *r) { record_fixture_metric (r, 1)->plugin_index = 5; }

static void
test_reader_damaged (void)
{
  assert_damaged (bad_magic, 0, MG_RECORD_ERROR_INVALID, "magic");
  assert_damaged (bad_version, 0, MG_RECORD_ERROR_VERSION, "version 3");
  assert_damaged (bad_plugins_offset, 0, MG_RECORD_ERROR_INVALID, "plugin table");
  assert_damaged (bad_samples_offset, 0, MG_RECORD_ERROR_INVALID, "sample slots");
  assert_damaged (overlapping_offset, 0, MG_RECORD_ERROR_INVALID, "metric table");
  assert_damaged (bad_count, 0, MG_RECORD_ERROR_INVALID, "more samples");
  assert_damaged (huge_capacity, 0, MG_RECORD_ERROR_INVALID, NULL);
  assert_damaged (bad_stride, 0, MG_RECORD_ERROR_INVALID, "sample size");
  assert_damaged (unterminated_host, 0, MG_RECORD_ERROR_INVALID, "unterminated");
  assert_damaged (bad_state, 0, MG_RECORD_ERROR_INVALID, "state");
  /* Table checks need the full read; the header alone is fine. */
  {
    g_autoptr(RecordFixture) r = valid_record ();
    g_autofree char *path = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(MgRecordFile) rec = NULL;

    unterminated_metric (r);
    path = write_tmp (r, "damaged.mgrec");
    rec = mg_record_file_read (path, &error);
    g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
    g_clear_error (&error);
    bad_plugin_index (r);
    memset (record_fixture_metric (r, 0)->id, 0, MG_RECORD_ID_LEN);
    record_fixture_write (r, path);
    rec = mg_record_file_read (path, &error);
    g_assert_null (rec);
    g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
  }
}

static void
test_reader_truncated (void)
{
  g_autoptr(RecordFixture) r = valid_record ();

  for (gsize keep = 1; keep < r->size; keep += 97)
    assert_damaged (NULL, keep, MG_RECORD_ERROR_TRUNCATED, NULL);
}

static void
test_reader_foreign (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "text.mgrec", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgRecordFile) rec = NULL;
  g_autofree char *text = g_strnfill (4000, 'y');

  /* 'y' (0x79) is odd: a foreign file must not pass for a busy live record. */
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  rec = mg_record_file_read (path, &error);
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (path, "short", -1, NULL));
  rec = mg_record_file_read (path, &error);
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_TRUNCATED);
  g_clear_error (&error);
  rec = mg_record_file_read ("/nonexistent/x.mgrec", &error);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "x.mgrec"));
}

/* A live record whose writer is mid-rewrite (odd seq) cannot be read
 * consistently: the reader retries for a bounded time, then says so. */
static void
test_reader_live_busy (void)
{
  g_autoptr(RecordFixture) r = valid_record ();
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MgRecordFile) rec = NULL;

  record_fixture_header (r)->seq = 3;
  path = write_tmp (r, "live.mgrec");
  rec = mg_record_file_read (path, &error);
  g_assert_null (rec);
  g_assert_error (error, MG_RECORD_ERROR, MG_RECORD_ERROR_BUSY);
  g_clear_error (&error);

  record_fixture_header (r)->seq = 4;
  record_fixture_write (r, path);
  rec = mg_record_file_read (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rec->n_samples, ==, 2);
}

/* A record with a call-stack section holding two stacks counted in its
 * two slots, as the sampler drains them. */
static RecordFixture *
stacks_record (void)
{
  RecordFixture *r = record_fixture_new_with_stacks (1, 1, 4, 8);
  MgRecordStacks *t = record_fixture_stacks (r);
  MgRecordHeader *h = record_fixture_header (r);
  uint64_t s1[] = { 0x401234, 0x401300 };
  uint64_t s2[] = { 0x999 };
  double v[1] = { 3.0 };

  g_strlcpy (h->run_id, "run-1", sizeof h->run_id);
  g_strlcpy (record_fixture_metric (r, 0)->id, "m0", MG_RECORD_ID_LEN);
  h->start_mono_ns = 1000;
  for (guint k = 0; k < 2; k++)
    {
      g_assert_true (mg_record_stacks_add (t, s1, 2, 0));
      g_assert_true (mg_record_stacks_add (t, k == 0 ? s1 : s2, k == 0 ? 2 : 1, 0));
      mg_record_stacks_drain (t, k);
      record_fixture_add_sample (r, 1000 + k * 1000, 2000 + k * 1000, v);
    }
  return r;
}

/* The record read with @state set in its header (written to @name). */
static MgRecordFile *
read_in_state (RecordFixture *r, MgRecordState state, const char *name, guint first,
               GError **error)
{
  g_autofree char *path = NULL;

  record_fixture_header (r)->state = state;
  path = write_tmp (r, name);
  return mg_record_file_read_from (path, first, error);
}

/* What a live record's copy and an ended record's mapping hold are the
 * same, byte for byte: header (but the state), tables, slots, stacks. */
static void
assert_same_record (const MgRecordFile *copied, const MgRecordFile *mapped)
{
  MgRecordHeader a = copied->header, b = mapped->header;
  const MgRecordHeader *h = &copied->header;

  g_assert_null (copied->mapped);
  g_assert_null (copied->whole);
  /* Up to 256 kB copied whole with one pread, mapped above. */
  g_assert_true ((mapped->whole != NULL) == (h->file_size <= 256 * 1024));
  g_assert_true ((mapped->mapped != NULL) == (h->file_size > 256 * 1024));
  g_test_message ("record of %" G_GUINT64_FORMAT " bytes: %s", h->file_size,
                  mapped->whole != NULL ? "copied whole" : "mapped");
  a.state = b.state = 0;
  g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
  g_assert_cmpmem (copied->plugins, h->n_plugins * sizeof (MgRecordPlugin), mapped->plugins,
                   h->n_plugins * sizeof (MgRecordPlugin));
  g_assert_cmpmem (copied->metrics, h->n_metrics * sizeof (MgRecordMetric), mapped->metrics,
                   h->n_metrics * sizeof (MgRecordMetric));
  g_assert_cmpuint (copied->first, ==, mapped->first);
  g_assert_cmpuint (copied->n_samples, ==, mapped->n_samples);
  g_assert_cmpuint (copied->stride, ==, mapped->stride);
  g_assert_cmpmem (copied->slots, copied->n_samples * copied->stride, mapped->slots,
                   mapped->n_samples * mapped->stride);
  g_assert_true ((copied->stacks == NULL) == (mapped->stacks == NULL));
  if (copied->stacks != NULL)
    {
      gsize size = h->file_size - mg_record_sections_offset (h);

      g_assert_cmpmem (copied->stacks, size, mapped->stacks, size);
    }
}

/* An ended record (EXITED, SIGNALLED, EXECED) is copied whole (up to
 * 256 kB) or mapped, a RUNNING one copied piece by piece; all read the
 * same, whole or from a later slot. */
static void
test_reader_mapped (void)
{
  const MgRecordState ended[] = { MG_RECORD_STATE_EXITED, MG_RECORD_STATE_SIGNALLED,
                                  MG_RECORD_STATE_EXECED };
  g_autoptr (RecordFixture) plain = valid_record ();
  g_autoptr (RecordFixture) stacks = stacks_record ();
  g_autoptr (RecordFixture) big = valid_record_sized (16384); /* mapped */
  RecordFixture *records[] = { plain, stacks, big };

  g_assert_cmpuint (record_fixture_header (big)->file_size, >, 256 * 1024);

  for (guint i = 0; i < G_N_ELEMENTS (records); i++)
    for (guint e = 0; e < G_N_ELEMENTS (ended); e++)
      for (guint first = 0; first < 3; first++)
        {
          g_autoptr (GError) error = NULL;
          g_autoptr (MgRecordFile) copied = read_in_state (records[i], MG_RECORD_STATE_RUNNING,
                                                           "live.mgrec", first, &error);
          g_autoptr (MgRecordFile) mapped = NULL;

          g_assert_no_error (error);
          mapped = read_in_state (records[i], ended[e], "ended.mgrec", first, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (mapped->header.state, ==, ended[e]);
          g_assert_cmpuint (mapped->n_samples, ==, first < 2 ? 2 - first : 0);
          assert_same_record (copied, mapped);
        }
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (MgRecordFile) rec = read_in_state (stacks, MG_RECORD_STATE_EXITED, "ended.mgrec",
                                                  0, &error);

    g_assert_no_error (error);
    g_assert_nonnull (rec->stacks);
    g_assert_cmpuint (rec->stacks->n_stacks, ==, 2);
    g_assert_cmpint (mg_record_file_get_sample (rec, 1)->t_end_ns, ==, 3000);
    g_assert_cmpfloat (mg_record_file_get_values (rec, 1)[0].mean, ==, 3.0);
  }
}

/* In a user and mount namespace of its own, a tmpfs of @size bytes on
 * @dir; FALSE where this system allows neither. */
static gboolean
mount_small_tmpfs (const char *dir, guint size)
{
  g_autofree char *uid_map = g_strdup_printf ("0 %u 1", (guint) getuid ());
  g_autofree char *gid_map = g_strdup_printf ("0 %u 1", (guint) getgid ());
  g_autofree char *options = g_strdup_printf ("size=%u", size);

  /* Root needs no user namespace (and a container may refuse one). */
  if (unshare (CLONE_NEWNS) != 0)
    {
      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return FALSE;
      if (!g_file_set_contents ("/proc/self/setgroups", "deny", -1, NULL)
          || !g_file_set_contents ("/proc/self/uid_map", uid_map, -1, NULL)
          || !g_file_set_contents ("/proc/self/gid_map", gid_map, -1, NULL))
        return FALSE;
    }
  /* Nothing mounted here reaches the test's own namespace. */
  if (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    return FALSE;
  return mount ("none", dir, "tmpfs", 0, options) == 0;
}

/* The child of /profile/record/hole-on-full-disk, in @dir: its exit
 * status (77: no small tmpfs to be had). A function, so that the fixture
 * and its folder are freed before the child's _exit. */
static int
hole_on_full_disk_child (const char *dir)
{
  g_autoptr (RecordFixture) r = record_fixture_new_with_stacks (1, 2, 16384, 8);
  MgRecordHeader *h = record_fixture_header (r);
  g_autofree char *path = g_build_filename (dir, "ended.mgrec", NULL);
  g_autofree char *filler = g_build_filename (dir, "filler", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRecordFile) rec = NULL;
  double v[2] = { 1.0, 2.0 };
  gsize written = 64 * 1024;
  char page[4096] = { 0 };
  int fd;

  if (!mount_small_tmpfs (dir, 256 * 1024))
    return 77;
  g_strlcpy (h->run_id, "run-1", sizeof h->run_id);
  h->start_mono_ns = 1000;
  record_fixture_add_sample (r, 1000, 2000, v);
  record_fixture_add_sample (r, 2000, 3000, v);
  h->state = MG_RECORD_STATE_EXITED;
  g_assert_cmpuint (h->file_size, >, 256 * 1024);
  g_assert_cmpuint (mg_record_sections_offset (h), >, written);
  /* Header, tables and the sampled slots on disk; the rest a hole. */
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, r->data, written), ==, (gssize) written);
  g_assert_cmpint (ftruncate (fd, (off_t) h->file_size), ==, 0);
  close (fd);
  fd = open (filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  while (write (fd, page, sizeof page) == sizeof page)
    ;
  close (fd);
  rec = mg_record_file_read (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rec->mapped);
  g_assert_cmpuint (rec->n_samples, ==, 2);
  g_assert_null (rec->stacks);
  g_assert_cmpint (mg_record_file_get_sample (rec, 1)->t_end_ns, ==, 3000);
  return 0;
}

/* An ended record whose call-stack section was never reserved (a hole, as
 * the sampler leaves it until a stack is taken), on a tmpfs that has
 * filled: reading a hole through a mapping would allocate a page there,
 * and the front end died of SIGBUS merging such a run. Its sampled slots
 * are read, and it has no call stacks. */
static void
test_reader_hole_on_full_disk (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "full", NULL);
  int status;
  pid_t pid;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (hole_on_full_disk_child (dir));
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_rmdir (dir);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      g_test_skip ("no user namespace to mount a small tmpfs in");
      return;
    }
  if (WIFSIGNALED (status))
    g_error ("reading the record was killed by signal %d (%s)", WTERMSIG (status),
             g_strsignal (WTERMSIG (status)));
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static void no_damage (RecordFixture *r) { (void) r; }
static void bad_sample_times (RecordFixture *r) { record_fixture_sample (r, 1)->t_end_ns = 10; }
static void bad_stacks (RecordFixture *r) { record_fixture_stacks (r)->n_stacks = 1u << 30; }

/* The same damage says the same whether the record is copied (live) or
 * mapped (ended), a cut file included. */
static void
test_reader_mapped_damaged (void)
{
  const Damage damages[] = { unterminated_metric, bad_plugin_index, bad_sample_times,
                             bad_stacks, no_damage };

  for (guint d = 0; d < G_N_ELEMENTS (damages); d++)
    for (guint cut = 0; cut < 2; cut++)
      {
        g_autoptr (RecordFixture) r = stacks_record ();
        g_autoptr (GError) live_error = NULL;
        g_autoptr (GError) ended_error = NULL;
        g_autoptr (MgRecordFile) copied = NULL;
        g_autoptr (MgRecordFile) mapped = NULL;

        if (damages[d] == bad_plugin_index)
          record_fixture_metric (r, 0)->plugin_index = 5;
        else
          damages[d] (r);
        if (cut)
          r->size -= 16;
        else if (damages[d] == no_damage)
          continue;
        copied = read_in_state (r, MG_RECORD_STATE_RUNNING, "same.mgrec", 0, &live_error);
        mapped = read_in_state (r, MG_RECORD_STATE_EXITED, "same.mgrec", 0, &ended_error);
        g_assert_null (copied);
        g_assert_null (mapped);
        g_assert_nonnull (live_error);
        g_assert_error (ended_error, live_error->domain, live_error->code);
        g_assert_cmpstr (ended_error->message, ==, live_error->message);
        g_assert_nonnull (strstr (ended_error->message, "same.mgrec"));
      }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("mg-record-XXXXXX", NULL);
  g_test_add_func ("/profile/record/valid", test_reader_valid);
  g_test_add_func ("/profile/record/damaged", test_reader_damaged);
  g_test_add_func ("/profile/record/truncated", test_reader_truncated);
  g_test_add_func ("/profile/record/foreign", test_reader_foreign);
  g_test_add_func ("/profile/record/live-busy", test_reader_live_busy);
  g_test_add_func ("/profile/record/mapped", test_reader_mapped);
  g_test_add_func ("/profile/record/mapped-damaged", test_reader_mapped_damaged);
  g_test_add_func ("/profile/record/hole-on-full-disk", test_reader_hole_on_full_disk);
  rc = g_test_run ();
  {
    g_autoptr(GDir) d = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_unlink (p);
      }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return rc;
}
