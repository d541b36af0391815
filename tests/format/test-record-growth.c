/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A record starts small and grows (format/mg-record-writer.h): a short
 * process's record takes a few pages on disk though its size is full, and
 * reads back; a long one grows to its full size and halves when full; one
 * that cannot grow (a full tmpfs) stops with its reason, never a SIGBUS. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/mg-record-view.h"
#include "format/mg-record-writer.h"

#define S 1000000000LL
#define INTERVAL 20000000LL

static char *tmpdir;

static void
create (MgRecordWriter *w, const char *dir, int pid, guint n_metrics, guint capacity)
{
  char err[512] = "";
  int rc = mg_record_create (w, dir, "node", "run-27", pid, S, 1, n_metrics, capacity, err,
                             sizeof err);

  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (rc, ==, 0);
  w->header->interval_start_ns = w->header->interval_ns = INTERVAL;
}

/* One round as the sampler takes it: halve when full, reserve and touch,
 * fill (every metric i + the round), commit. False when the record
 * stopped. */
static gboolean
round_ (MgRecordWriter *w, guint round)
{
  MgRecordHeader *h = w->header;
  uint32_t n;
  MgRecordSample *s;
  MgRecordValue *v;

  if (h->n_samples >= h->capacity)
    mg_record_merge (w);
  if (!mg_record_touch_next (w))
    return FALSE;
  n = h->n_samples;
  s = mg_record_slot (w, n);
  v = mg_record_slot_values (s);
  s->t_start_ns = n ? mg_record_slot (w, n - 1)->t_end_ns : S;
  s->t_end_ns = s->t_start_ns + (gint64) h->interval_ns;
  s->n_raw = 1;
  for (guint m = 0; m < h->n_metrics; m++)
    v[m] = (MgRecordValue) { m + round, m + round, m + round, 1, 0 };
  mg_record_commit (w);
  return TRUE;
}

static guint64
allocated (const char *path)
{
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  return (guint64) st.st_blocks * 512;
}

static guint64
apparent (const char *path)
{
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  return (guint64) st.st_size;
}

/* Reads the file as the front end does: its whole apparent size, checked. */
static void
open_view (const char *path, MgRecordView *view, void **map, size_t *size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  *size = apparent (path);
  *map = mmap (NULL, *size, PROT_READ, MAP_SHARED, fd, 0);
  g_assert_true (*map != MAP_FAILED);
  close (fd);
  g_assert_cmpint (mg_record_view_open (view, *map, *size), ==, MG_RECORD_OK);
}

/* A process of three rounds, with the default plan's shape (33 metrics,
 * 4096 slots, 4.4 MB): its file has the full size (the reader's equations
 * hold) but takes its header, tables and first slots only, which read
 * back. */
static void
test_growth_short_is_small (void)
{
  MgRecordWriter w;
  g_autofree char *path = NULL;
  MgRecordView view;
  void *map;
  size_t size;
  guint64 head;

  create (&w, tmpdir, 101, 33, 4096);
  for (guint r = 0; r < 3; r++)
    g_assert_true (round_ (&w, r));
  head = w.header->samples_offset + MG_RECORD_HEAD_SLOTS * w.header->sample_stride;
  path = g_strdup (w.path);
  g_assert_cmpuint (w.size, >, 4000000);
  mg_record_forget (&w);

  g_assert_cmpuint (apparent (path), ==, w.size);
  /* The head and at most a page or two of rounding. */
  g_assert_cmpuint (allocated (path), <=, head + 2 * 4096);
  g_assert_cmpuint (allocated (path), <, w.size / 20);
  open_view (path, &view, &map, &size);
  g_assert_cmpuint (view.n_samples, ==, 3);
  g_assert_cmpuint (view.header->capacity, ==, 4096);
  for (guint r = 0; r < 3; r++)
    {
      const MgRecordValue *v = mg_record_view_values (&view, r);

      g_assert_cmpint (mg_record_view_sample (&view, r)->t_end_ns, ==, S + (r + 1) * INTERVAL);
      g_assert_cmpuint (v[32].count, ==, 1);
      g_assert_cmpfloat (v[32].mean, ==, 32 + r);
    }
  munmap (map, size);
  g_unlink (path);
}

/* A process that outlives its slots: the record grows to its full size,
 * then halves when full, and every window and value reads back. */
static void
test_growth_long_grows_and_halves (void)
{
  MgRecordWriter w;
  g_autofree char *path = NULL;
  MgRecordView view;
  void *map;
  size_t size;
  guint64 reserved_before;
  guint64 full;
  const guint capacity = 1024, rounds = 3000;

  create (&w, tmpdir, 102, 4, capacity);
  path = g_strdup (w.path);
  full = w.size;
  for (guint r = 0; r < 200; r++)
    g_assert_true (round_ (&w, r));
  /* Partway: grown past the head, still well short of full. */
  reserved_before = allocated (path);
  g_assert_cmpuint (reserved_before, >=,
                    w.header->samples_offset + 200 * (guint64) w.header->sample_stride);
  g_assert_cmpuint (reserved_before, <, full / 2);
  for (guint r = 200; r < rounds; r++)
    g_assert_true (round_ (&w, r));
  /* 3000 rounds in 1024 slots: halved at rounds 1024, 1536, 2048 and
   * 2560, 952 slots left, the interval 16 times the first (which a real
   * sampler would take too, here each round is one slot). */
  g_assert_cmpuint (w.header->n_merges, ==, 4);
  g_assert_cmpuint (w.header->n_samples, ==, 952);
  g_assert_cmpuint (w.header->interval_ns, ==, 16 * INTERVAL);
  g_assert_cmpuint (w.header->flags & MG_RECORD_FLAG_STOPPED, ==, 0);
  mg_record_forget (&w);

  g_assert_cmpuint (allocated (path), >=, full);
  open_view (path, &view, &map, &size);
  g_assert_cmpuint (view.n_samples, ==, 952);
  {
    guint64 raw = 0;
    gint64 t = S;

    for (guint i = 0; i < view.n_samples; i++)
      {
        const MgRecordSample *s = mg_record_view_sample (&view, i);

        g_assert_cmpint (s->t_start_ns, ==, t);
        t = s->t_end_ns;
        raw += s->n_raw;
      }
    /* Every round is in some slot. */
    g_assert_cmpuint (raw, ==, rounds);
    /* The first slot holds the first 16 rounds: metric 3's mean of 3..18,
     * its min and max the first and the last. */
    g_assert_cmpuint (mg_record_view_sample (&view, 0)->n_raw, ==, 16);
    g_assert_cmpfloat (mg_record_view_values (&view, 0)[3].mean, ==, 10.5);
    g_assert_cmpfloat (mg_record_view_values (&view, 0)[3].min, ==, 3);
    g_assert_cmpfloat (mg_record_view_values (&view, 0)[3].max, ==, 18);
    g_assert_cmpuint (mg_record_view_values (&view, 0)[3].count, ==, 16);
  }
  munmap (map, size);
  g_unlink (path);
}

/* In a child: a 96 KiB tmpfs in mount (and, not root, user) namespaces of
 * its own, a record whose head fits and whose growth does not, rounds until
 * it stops. Exits 0 when all held, 77 when no tmpfs can be mounted. */
static int
full_disk_child (const char *dir)
{
  MgRecordWriter w;
  char err[512] = "";
  g_autofree char *filler = g_build_filename (dir, "filler", NULL);
  g_autofree char *of_its = NULL;
  guint rounds = 0;
  int fd;

  if (unshare (getuid () == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS) != 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
      || mount ("tmpfs", dir, "tmpfs", 0, "size=96k") != 0)
    return 77;
  /* 1 metric: 56-byte slots, a 3.5 KiB head; 100000 slots would be 5.6 MB. */
  if (mg_record_create (&w, dir, "node", "run-27", 103, S, 1, 1, 100000, err, sizeof err) != 0)
    {
      g_printerr ("create: %s\n", err);
      return 1;
    }
  /* Fill the disk, then give back four pages: the head's slots fit, the
   * doubling steps beyond them do not, for long. */
  fd = open (filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return 2;
  {
    char page[4096];
    off_t filled = 0;

    memset (page, 1, sizeof page);
    while (write (fd, page, sizeof page) == sizeof page)
      filled += sizeof page;
    if (filled < 4 * 4096 || ftruncate (fd, filled - 4 * 4096) != 0)
      return 3;
  }
  close (fd);
  while (round_ (&w, rounds))
    if (++rounds > 100000)
      return 4;
  /* The head's 64 slots at least, and the record says why it stopped. */
  if (rounds < MG_RECORD_HEAD_SLOTS || w.header->n_samples != rounds)
    return 5;
  if (!(w.header->flags & MG_RECORD_FLAG_STOPPED) || w.header->record_error_code != ENOSPC)
    return 6;
  g_print ("%s\n", w.header->record_error);
  of_its = g_strdup_printf (" bytes (of its %zu): ", w.size);
  if (!strstr (w.header->record_error, "cannot grow record ")
      || !strstr (w.header->record_error, dir)
      || !strstr (w.header->record_error, of_its)
      || !strstr (w.header->record_error, strerror (ENOSPC)))
    return 7;
  /* Stopped: no more rounds, and the record still reads back. */
  if (mg_record_touch_next (&w))
    return 8;
  {
    MgRecordView view;

    if (mg_record_view_open (&view, w.map, w.size) != MG_RECORD_OK || view.n_samples != rounds
        || mg_record_view_values (&view, rounds - 1)[0].mean != rounds - 1)
      return 9;
  }
  return 0;
}

/* In a child, as full_disk_child: a record with room for call stacks on
 * a disk that cannot hold its stack section. Reserving it fails with the
 * reason and the header's flag, never a SIGBUS; the slots go on. */
static int
full_disk_stacks_child (const char *dir)
{
  MgRecordWriter w;
  char err[512] = "";

  if (unshare (getuid () == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS) != 0
      || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
      || mount ("tmpfs", dir, "tmpfs", 0, "size=96k") != 0)
    return 77;
  /* The head (3.5 KiB) fits; the 4096-stack section (1.2 MB) does not. */
  if (mg_record_create_with_stacks (&w, dir, "node", "run-29", 104, S, 1, 1, 4096,
                                    MG_RECORD_STACKS_DEFAULT_MAX, err, sizeof err) != 0)
    {
      g_printerr ("create: %s\n", err);
      return 1;
    }
  if (w.stacks != NULL)
    return 2;
  if (mg_record_stacks_reserve (&w, err, sizeof err) != ENOSPC || w.stacks != NULL)
    return 3;
  g_print ("%s\n", err);
  if (!strstr (err, "cannot reserve the call-stack section of record ") || !strstr (err, dir)
      || !strstr (err, strerror (ENOSPC)))
    return 4;
  if (!(w.header->flags & MG_RECORD_FLAG_STACKS_NO_ROOM)
      || (w.header->flags & MG_RECORD_FLAG_STOPPED))
    return 5;
  /* Asked again: the same answer, without another try. */
  if (mg_record_stacks_reserve (&w, err, sizeof err) != ENOSPC)
    return 6;
  /* The metrics go on in the head's slots. */
  for (guint i = 0; i < 8; i++)
    if (!round_ (&w, i))
      return 7;
  MgRecordView view;
  if (mg_record_view_open (&view, w.map, w.size) != MG_RECORD_OK || view.n_samples != 8)
    return 8;
  return 0;
}

static void
test_growth_full_disk_no_stacks (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "full-stacks", NULL);
  pid_t pid;
  int status;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (full_disk_stacks_child (dir));
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_rmdir (dir);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      g_test_skip ("cannot mount a tmpfs in a namespace of its own here");
      return;
    }
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

static void
test_growth_full_disk_stops (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "full", NULL);
  pid_t pid;
  int status;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (full_disk_child (dir));
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_rmdir (dir);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 77)
    {
      g_test_skip ("cannot mount a tmpfs in a namespace of its own here");
      return;
    }
  /* A SIGBUS would end it by a signal. */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("mg-record-growth-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/format/record-growth/short-is-small", test_growth_short_is_small);
  g_test_add_func ("/format/record-growth/long-grows-and-halves",
                   test_growth_long_grows_and_halves);
  g_test_add_func ("/format/record-growth/full-disk-stops", test_growth_full_disk_stops);
  g_test_add_func ("/format/record-growth/full-disk-no-stacks", test_growth_full_disk_no_stacks);
  rc = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return rc;
}
