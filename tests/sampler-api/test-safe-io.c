/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_safe_open/read/write/read_all/read_all_with_alloc/read_line and
 * the I/O accounting extension. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "metrograph_plugin_ext.h"
#include "mg-test-common.h"

static char *tmpdir;

static char *
write_file (const char *name, const char *contents, gssize len)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static int
open_file (const char *path)
{
  int fd = allinea_safe_open (path, O_RDONLY);
  g_assert_cmpint (fd, >=, 0);
  return fd;
}

static void
assert_line (int fd, size_t size, gssize expected_n, const char *expected)
{
  char buf[4096];
  memset (buf, 'Z', sizeof buf);
  g_assert_cmpint (allinea_safe_read_line (fd, buf, size), ==, expected_n);
  g_assert_cmpstr (buf, ==, expected);
}

static void
test_read_line_edges (void)
{
  char long_line[301];
  memset (long_line, 'L', 300);
  long_line[300] = '\0';
  g_autofree char *contents = g_strdup_printf ("alpha\nbeta\n\n%s\nabcd\nabcde\nlast", long_line);
  g_autofree char *path = write_file ("lines.txt", contents, -1);
  int fd = open_file (path);
  assert_line (fd, 16, 5, "alpha");
  assert_line (fd, 16, 4, "beta");
  assert_line (fd, 16, 0, "");               /* a blank line also places 0 bytes */
  assert_line (fd, 16, 15, "LLLLLLLLLLLLLLL"); /* truncated, rest dropped */
  assert_line (fd, 5, 4, "abcd");             /* exactly fits with its NUL */
  assert_line (fd, 5, 4, "abcd");             /* one too long: "abcde" truncated */
  assert_line (fd, 16, 4, "last");            /* no final newline */
  assert_line (fd, 16, 0, "");                /* end of file */
  assert_line (fd, 16, 0, "");
  g_assert_cmpint (allinea_safe_close (fd), ==, 0);

  g_autofree char *empty = write_file ("empty.txt", "", 0);
  fd = open_file (empty);
  assert_line (fd, 16, 0, "");
  char buf[8];
  g_assert_cmpint (allinea_safe_read_all (fd, buf, sizeof buf), ==, 0);
  void *all = NULL;
  size_t allocated = 0;
  g_assert_cmpint (allinea_safe_read_all_with_alloc (fd, &all, &allocated), ==, 0);
  g_assert_cmpstr (all, ==, "");
  g_assert_cmpuint (allocated, >=, 1);
  allinea_safe_free (all);
  allinea_safe_close (fd);

  g_assert_cmpint (allinea_safe_read_line (-1, buf, sizeof buf), ==, -1);
  g_assert_cmpint (errno, ==, EBADF);
  /* A failing read(2) on a pipe keeps its own errno. */
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (allinea_safe_read_line (fds[1], buf, sizeof buf), ==, -1);
  g_assert_cmpint (errno, ==, EBADF);   /* the write end cannot be read */
  close (fds[0]);
  close (fds[1]);
}

/* The kernel regenerates /proc files: read_line must not seek. Compare the
 * field names line by line with a plain read of the same file. */
static void
check_proc_status (size_t size)
{
  g_autofree char *reference = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/status", &reference, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (reference, "\n", -1);
  int fd = open_file ("/proc/self/status");
  char buf[4096];
  guint count = 0;
  gboolean saw_pid = FALSE;
  ssize_t n;
  while ((n = allinea_safe_read_line (fd, buf, size)) > 0)
    {
      g_assert_cmpuint ((size_t) n, <, size);
      g_assert_cmpuint (strlen (buf), ==, (size_t) n);
      g_assert_null (strchr (buf, '\n'));
      g_assert_nonnull (lines[count]);
      const char *colon = strchr (lines[count], ':');
      g_assert_nonnull (colon);
      size_t name_len = MIN ((size_t) (colon - lines[count]), (size_t) n);
      g_assert_cmpint (strncmp (buf, lines[count], name_len), ==, 0);
      if (g_str_has_prefix (buf, "Pid:") && size > 20)
        {
          g_assert_cmpint (atoi (buf + 4), ==, getpid ());
          saw_pid = TRUE;
        }
      count++;
    }
  g_assert_cmpint (n, ==, 0);
  allinea_safe_close (fd);
  g_assert_cmpuint (count, ==, g_strv_length (lines) - 1);   /* final "" */
  g_assert_true (saw_pid || size <= 20);
}

static void
test_read_line_proc (void)
{
  check_proc_status (4096);
  check_proc_status (6);   /* every line longer than the buffer */
  check_proc_status (40);
}

static void
test_read_line_then_read (void)
{
  g_autofree char *path = write_file ("mixed.txt", "first\nsecond line\nthird\n", -1);
  int fd = open_file (path);
  assert_line (fd, 64, 5, "first");
  /* read_line read ahead: plain reads must still see the next bytes. */
  char buf[64] = "";
  g_assert_cmpint (allinea_safe_read_all (fd, buf, sizeof buf - 1), ==, 18);
  g_assert_cmpstr (buf, ==, "second line\nthird\n");
  allinea_safe_close (fd);
}

static void
test_read_line_fd_reused (void)
{
  g_autofree char *a = write_file ("a.txt", "a1\na2\na3\n", -1);
  g_autofree char *b = write_file ("b.txt", "b1\nb2\n", -1);
  int fd = open_file (a);
  assert_line (fd, 64, 2, "a1");
  close (fd);   /* behind the API's back */
  int fd2 = open (b, O_RDONLY);
  g_assert_cmpint (fd2, ==, fd);   /* the kernel hands out the lowest free fd */
  assert_line (fd2, 64, 2, "b1");
  assert_line (fd2, 64, 2, "b2");
  assert_line (fd2, 64, 0, "");
  close (fd2);
}

static void
test_read_line_pipe (void)
{
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], "one\ntwo\nthree", 13), ==, 13);
  close (fds[1]);
  assert_line (fds[0], 64, 3, "one");
  assert_line (fds[0], 3, 2, "tw");
  assert_line (fds[0], 64, 5, "three");
  assert_line (fds[0], 64, 0, "");
  allinea_safe_close (fds[0]);
}

static void
test_read_all (void)
{
  GString *big = g_string_new (NULL);
  for (int i = 0; i < 20000; i++)
    g_string_append_printf (big, "%d,", i);
  g_autofree char *path = write_file ("big.txt", big->str, big->len);
  int fd = open_file (path);
  char small[100];
  g_assert_cmpint (allinea_safe_read_all (fd, small, sizeof small), ==, 100);
  g_assert_cmpint (memcmp (small, big->str, 100), ==, 0);
  void *rest = NULL;
  size_t allocated = 0;
  g_assert_cmpint (allinea_safe_read_all_with_alloc (fd, &rest, &allocated), ==, big->len - 100);
  g_assert_cmpstr (rest, ==, big->str + 100);
  g_assert_cmpuint (allocated, >, big->len - 100);
  allinea_safe_free (rest);
  allinea_safe_close (fd);

  /* A pipe gives no size: the buffer has to grow. */
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], big->str, 20000), ==, 20000);
  close (fds[1]);
  g_assert_cmpint (allinea_safe_read_all_with_alloc (fds[0], &rest, &allocated), ==, 20000);
  g_assert_cmpint (memcmp (rest, big->str, 20000), ==, 0);
  g_assert_cmpint (((char *) rest)[20000], ==, '\0');
  g_assert_cmpuint (allocated, >=, 20001);
  allinea_safe_free (rest);
  allinea_safe_close (fds[0]);
  g_string_free (big, TRUE);
}

static void
test_io_counts (void)
{
  g_autofree char *path = write_file ("counted.txt", "0123456789abcdefghij", 20);
  struct metrograph_safe_io_counts before, after;
  g_assert_cmpint (metrograph_get_safe_io_counts (&before), ==, 0);
  int fd = open_file (path);
  char buf[20];
  g_assert_cmpint (allinea_safe_read_all (fd, buf, sizeof buf), ==, 20);
  allinea_safe_close (fd);
  metrograph_get_safe_io_counts (&after);
  g_assert_cmpuint (after.bytes_read - before.bytes_read, ==, 20);
  g_assert_cmpuint (after.read_calls - before.read_calls, ==, 1);
  g_assert_cmpuint (after.bytes_written, ==, before.bytes_written);

  int out = allinea_safe_open ("/dev/null", O_WRONLY);
  char data[1234] = { 0 };
  g_assert_cmpint (allinea_safe_write (out, data, sizeof data), ==, 1234);
  allinea_safe_fprintf (out, "%d-%s", 12345, "xyz");   /* 9 bytes */
  allinea_safe_close (out);
  before = after;
  metrograph_get_safe_io_counts (&after);
  g_assert_cmpuint (after.bytes_written - before.bytes_written, ==, 1234 + 9);
  g_assert_cmpuint (after.write_calls - before.write_calls, ==, 2);
  g_assert_cmpuint (after.bytes_read, ==, before.bytes_read);

  /* read_line counts what it reads from the kernel, read-ahead included. */
  fd = open_file (path);
  before = after;
  assert_line (fd, 64, 20, "0123456789abcdefghij");
  allinea_safe_close (fd);
  metrograph_get_safe_io_counts (&after);
  g_assert_cmpuint (after.bytes_read - before.bytes_read, ==, 20);
  g_assert_cmpuint (after.read_calls - before.read_calls, ==, 2);   /* data, then EOF */
}

static void
on_usr1 (int signo)
{
}

static void *
blocked_reader (void *data)
{
  int fd = GPOINTER_TO_INT (data);
  char c = 0;
  ssize_t n = allinea_safe_read (fd, &c, 1);
  return GINT_TO_POINTER (n == 1 && c == 'x');
}

static void
test_eintr_retried (void)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_usr1;
  sa.sa_flags = 0;   /* no SA_RESTART: read(2) fails with EINTR */
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  int fds[2];
  g_assert_cmpint (pipe (fds), ==, 0);
  pthread_t thread;
  pthread_create (&thread, NULL, blocked_reader, GINT_TO_POINTER (fds[0]));
  g_usleep (100000);
  pthread_kill (thread, SIGUSR1);
  g_usleep (100000);
  g_assert_cmpint (write (fds[1], "x", 1), ==, 1);
  void *ok = NULL;
  pthread_join (thread, &ok);
  g_assert_true (ok != NULL);
  close (fds[0]);
  close (fds[1]);
}

static void
test_open_create_mode (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "created.bin", NULL);
  int fd = allinea_safe_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
  g_assert_cmpint (fd, >=, 0);
  allinea_safe_close (fd);
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0640);
  g_assert_cmpint (allinea_safe_open ("/nonexistent/metrograph", O_RDONLY), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);
}

static void
test_current_time (void)
{
  struct timespec a, b;
  clock_gettime (CLOCK_MONOTONIC, &a);
  struct timespec now = allinea_get_current_time ();
  clock_gettime (CLOCK_MONOTONIC, &b);
  gint64 ta = a.tv_sec * G_GINT64_CONSTANT (1000000000) + a.tv_nsec;
  gint64 tn = now.tv_sec * G_GINT64_CONSTANT (1000000000) + now.tv_nsec;
  gint64 tb = b.tv_sec * G_GINT64_CONSTANT (1000000000) + b.tv_nsec;
  g_assert_cmpint (ta, <=, tn);
  g_assert_cmpint (tn, <=, tb);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  umask (022);
  tmpdir = mg_test_make_dir ("safe-io");
  g_test_add_func ("/safe-io/read-line-edges", test_read_line_edges);
  g_test_add_func ("/safe-io/read-line-proc", test_read_line_proc);
  g_test_add_func ("/safe-io/read-line-then-read", test_read_line_then_read);
  g_test_add_func ("/safe-io/read-line-fd-reused", test_read_line_fd_reused);
  g_test_add_func ("/safe-io/read-line-pipe", test_read_line_pipe);
  g_test_add_func ("/safe-io/read-all", test_read_all);
  g_test_add_func ("/safe-io/io-counts", test_io_counts);
  g_test_add_func ("/safe-io/eintr-retried", test_eintr_retried);
  g_test_add_func ("/safe-io/open-create-mode", test_open_create_mode);
  g_test_add_func ("/safe-io/current-time", test_current_time);
  int status = g_test_run ();
  mg_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
