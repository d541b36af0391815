/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where mg_high_fd (sampler/mg-high-fd.c) puts the descriptors the sampler
 * and the built-in plugins keep, under each kind of RLIMIT_NOFILE: at or
 * above the soft limit when the hard one allows (the soft one given back
 * at once), else from FD_SETSIZE below a limit with room there, so that
 * the descriptor table every fork copies stays small, else in the top band
 * below a tight limit, else at the highest free numbers below a limit too
 * tight for a band, else where it was; and where mg_keep_fd_or_not and
 * mg_hold_lock keep nothing (a hard limit without room, below
 * FD_SETSIZE + 64). Each case runs in a child of its own, as a hard limit
 * cannot be raised again once lowered. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mg-high-fd.h"

#define N_KEPT 3

typedef struct {
  int low;                 /* the number the first descriptor was opened at */
  int opened[N_KEPT];      /* the number each was opened at */
  int kept[N_KEPT];        /* where mg_high_fd put each */
  int low_closed;          /* the opened number was closed */
  int cloexec;             /* every kept one is close-on-exec */
  rlim_t soft_after;       /* the soft limit once they are kept */
  long table;              /* FDSize of /proc/self/status: the descriptor table's slots */
  int errors[N_KEPT];      /* errno after each, when it gave -1 */
  int below;               /* descriptors from 3 up to the soft limit, once kept */
} Placed;

typedef int (*KeepFn) (int fd);

static long
table_slots (void)
{
  g_autofree char *text = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL)
      || (line = strstr (text, "\nFDSize:")) == NULL)
    return -1;
  return strtol (line + strlen ("\nFDSize:"), NULL, 10);
}

/* In a child whose RLIMIT_NOFILE is {soft, hard}: N_KEPT descriptors
 * opened and kept. FALSE when this machine's hard limit is below @hard. */
static gboolean
place_with (KeepFn keep, rlim_t soft, rlim_t hard, Placed *placed)
{
  int fds[2];
  pid_t pid;
  int status = 0;
  ssize_t got;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct rlimit limit = { soft, hard };
      Placed p = { 0 };

      /* Every number from 3 free, whatever the test runner left open:
       * the answer goes out on a descriptor moved to just below 2048 (the
       * table the cases below expect), which stays usable under any
       * limit set after. */
      struct rlimit now;
      if (getrlimit (RLIMIT_NOFILE, &now) != 0)
        _exit (1);
      int top = now.rlim_cur == RLIM_INFINITY || now.rlim_cur > 2048 ? 2048 : (int) now.rlim_cur;
      int out = fcntl (fds[1], F_DUPFD, top - 1);
      if (out < 0)
        _exit (1);
      for (int fd = 3; fd < out; fd++)
        close (fd);
      if (setrlimit (RLIMIT_NOFILE, &limit) != 0)
        _exit (77);
      p.cloexec = 1;
      for (int i = 0; i < N_KEPT; i++)
        {
          int fd = open ("/dev/null", O_RDONLY);
          if (i == 0)
            p.low = fd;
          p.opened[i] = fd;
          errno = 0;
          p.kept[i] = keep (fd);
          p.errors[i] = p.kept[i] < 0 ? errno : 0;
          if (p.kept[i] != fd)
            p.low_closed += fcntl (fd, F_GETFD) < 0 && errno == EBADF;
          if (p.kept[i] >= 0 && !(fcntl (p.kept[i], F_GETFD) & FD_CLOEXEC))
            p.cloexec = 0;
        }
      for (int fd = 3; fd < (int) soft && fd < out; fd++)
        p.below += fcntl (fd, F_GETFD) >= 0;
      p.soft_after = getrlimit (RLIMIT_NOFILE, &limit) == 0 ? limit.rlim_cur : 0;
      p.table = table_slots ();
      _exit (write (out, &p, sizeof p) == (ssize_t) sizeof p ? 0 : 1);
    }
  close (fds[1]);
  got = read (fds[0], placed, sizeof *placed);
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) == 77)
    return FALSE;
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpint (got, ==, (ssize_t) sizeof *placed);
  return TRUE;
}

static gboolean
place (rlim_t soft, rlim_t hard, Placed *placed)
{
  return place_with (mg_high_fd, soft, hard, placed);
}

static void
assert_kept_from (const Placed *p, int first, rlim_t soft)
{
  for (int i = 0; i < N_KEPT; i++)
    g_assert_cmpint (p->kept[i], ==, first + i);
  g_assert_cmpint (p->low, <, 16);
  g_assert_cmpint (p->low_closed, ==, N_KEPT);
  g_assert_true (p->cloexec);
  g_assert_cmpuint (p->soft_after, ==, soft);
}

/* A tight soft limit below a higher hard one: at MG_HIGH_FD_MIN, above
 * the soft limit, which the program gets back unchanged. */
static void
test_high_fd_above_tight (void)
{
  Placed p;

  if (!place (16, 4096, &p))
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 4096 here");
      return;
    }
  assert_kept_from (&p, MG_HIGH_FD_MIN, 16);
}

/* A soft limit above MG_HIGH_FD_MIN, the hard one higher: at the soft
 * limit (a stock desktop's 1024). */
static void
test_high_fd_above_soft (void)
{
  Placed p;

  if (!place (2000, 4096, &p))
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 4096 here");
      return;
    }
  assert_kept_from (&p, 2000, 2000);
}

/* Soft = hard, with room above FD_SETSIZE: from FD_SETSIZE, not at the
 * top below the limit, so the table stays at 2048 slots (it was 8192 at
 * 4032, and 32768 at 19936 under a limit of 20000). */
static void
test_high_fd_below_room (void)
{
  Placed p;

  if (!place (4096, 4096, &p))
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 4096 here");
      return;
    }
  assert_kept_from (&p, FD_SETSIZE, 4096);
  g_assert_cmpint (p.table, ==, 2048);
  /* Just room for the band there. */
  if (!place (FD_SETSIZE + 64, FD_SETSIZE + 64, &p))
    return;
  assert_kept_from (&p, FD_SETSIZE, FD_SETSIZE + 64);
}

/* Soft = hard, without room above FD_SETSIZE (a service's 1024): the top
 * 64 numbers below the limit, which the program reaches last. */
static void
test_high_fd_below_band (void)
{
  Placed p;

  if (!place (1024, 1024, &p))
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 1024 here");
      return;
    }
  assert_kept_from (&p, 1024 - 64, 1024);
  g_assert_true (place (200, 200, &p));
  assert_kept_from (&p, 200 - 64, 200);
}

/* Soft = hard, too tight for a band (`ulimit -n 40`, `ulimit -n 16`):
 * the highest free numbers below the limit, one after the other, so the
 * program's first open still gets 3 (they stayed at 3, 4 and 5, and a
 * shell's `exec 3<file` closed the first). */
static void
test_high_fd_top (void)
{
  Placed p;

  g_assert_true (place (40, 40, &p));
  for (int i = 0; i < N_KEPT; i++)
    g_assert_cmpint (p.kept[i], ==, 39 - i);
  g_assert_cmpint (p.low, ==, 3);
  g_assert_cmpint (p.opened[N_KEPT - 1], ==, 3);
  g_assert_cmpint (p.low_closed, ==, N_KEPT);
  g_assert_true (p.cloexec);
  g_assert_cmpuint (p.soft_after, ==, 40);
  g_assert_true (place (16, 16, &p));
  for (int i = 0; i < N_KEPT; i++)
    g_assert_cmpint (p.kept[i], ==, 15 - i);
  g_assert_cmpint (p.low_closed, ==, N_KEPT);
}

/* Soft = hard, with no free number above the one it was opened at: where
 * it was (under a limit of 6, the third one finds 4 and 5 taken). */
static void
test_high_fd_stays (void)
{
  Placed p;

  g_assert_true (place (6, 6, &p));
  g_assert_cmpint (p.kept[0], ==, 5);
  g_assert_cmpint (p.kept[1], ==, 4);
  g_assert_cmpint (p.opened[2], ==, 3);
  g_assert_cmpint (p.kept[2], ==, 3);
  g_assert_cmpint (p.low_closed, ==, 2);
  g_assert_cmpuint (p.soft_after, ==, 6);
}

/* A soft limit too high to go above (its table would be megabytes): from
 * FD_SETSIZE. Needs a hard limit above 65536. */
static void
test_high_fd_huge (void)
{
  Placed p;

  if (!place (100000, 100000, &p))
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 100000 here");
      return;
    }
  assert_kept_from (&p, FD_SETSIZE, 100000);
  g_assert_cmpint (p.table, ==, 2048);
}

/* mg_keep_fd_or_not, for what can be opened again (the plugins' /proc
 * files, the threads' folder): under a hard limit that leaves no room
 * above the soft one and a soft one below FD_SETSIZE + 64 (`ulimit -n
 * 16`, `ulimit -n 40`, a service's 1024) nothing is kept: -1 with EMFILE,
 * each descriptor left open where it was and nothing else taken, so that
 * once the caller closes them the program has every number (mg_high_fd
 * put them at 15, 14 and 13). Where a kept one takes none of the
 * program's numbers, it is kept as mg_high_fd keeps it. */
static void
test_high_fd_not_kept (void)
{
  const rlim_t tight[] = { 16, 40, 1024 };
  Placed p;

  for (guint t = 0; t < G_N_ELEMENTS (tight); t++)
    {
      if (!place_with (mg_keep_fd_or_not, tight[t], tight[t], &p))
        {
          g_test_skip ("the hard RLIMIT_NOFILE is below 1024 here");
          return;
        }
      for (int i = 0; i < N_KEPT; i++)
        {
          g_assert_cmpint (p.opened[i], ==, 3 + i);
          g_assert_cmpint (p.kept[i], ==, -1);
          g_assert_cmpint (p.errors[i], ==, EMFILE);
        }
      g_assert_cmpint (p.low_closed, ==, 0);
      g_assert_cmpint (p.below, ==, N_KEPT);
      g_assert_cmpuint (p.soft_after, ==, tight[t]);
    }
  /* The hard limit higher: above the soft one, as mg_high_fd. */
  if (place_with (mg_keep_fd_or_not, 16, 4096, &p))
    {
      assert_kept_from (&p, MG_HIGH_FD_MIN, 16);
      g_assert_cmpint (p.below, ==, 0);
    }
  /* Soft = hard with room above FD_SETSIZE (this machine's 20000, a
   * container's 1048576): from FD_SETSIZE, as mg_high_fd. */
  if (place_with (mg_keep_fd_or_not, FD_SETSIZE + 64, FD_SETSIZE + 64, &p))
    assert_kept_from (&p, FD_SETSIZE, FD_SETSIZE + 64);
}

/* Whether another open file description of @path can take its lock. */
static gboolean
lock_free (const char *path)
{
  int fd = open (path, O_RDWR | O_CLOEXEC);
  gboolean free_now;

  g_assert_cmpint (fd, >=, 0);
  free_now = flock (fd, LOCK_EX | LOCK_NB) == 0;
  close (fd);
  return free_now;
}

/* In a child under {soft, hard}: the lock on @path taken and handed to
 * mg_hold_lock. The child reports what it returned, whether the number
 * it was opened at is free again, whether the lock is still held, and
 * whether a fork child of its own could take it; then it ends. */
static void
hold_in_child (const char *path, rlim_t soft, rlim_t hard, int *held_fd, int *number_free,
               int *held, int *held_in_fork)
{
  int fds[2];
  int answer[4] = { -2, -2, -2, -2 };
  pid_t pid;
  int status = 0;

  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      struct rlimit limit = { soft, hard };
      int out = fcntl (fds[1], F_DUPFD, 100);
      int fd;

      for (int i = 3; i < out; i++)
        close (i);
      if (out < 0 || setrlimit (RLIMIT_NOFILE, &limit) != 0)
        _exit (1);
      fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd != 3 || flock (fd, LOCK_EX | LOCK_NB) != 0)
        _exit (1);
      answer[0] = mg_hold_lock (fd);
      answer[1] = answer[0] != fd && fcntl (fd, F_GETFD) < 0 && errno == EBADF;
      answer[2] = !lock_free (path);
      pid_t child = fork ();
      if (child == 0)
        _exit (lock_free (path) ? 3 : 4);
      if (child < 0 || waitpid (child, &status, 0) != child || !WIFEXITED (status))
        _exit (1);
      answer[3] = WEXITSTATUS (status) == 4;
      _exit (write (out, answer, sizeof answer) == (ssize_t) sizeof answer ? 0 : 1);
    }
  close (fds[1]);
  g_assert_cmpint (read (fds[0], answer, sizeof answer), ==, (ssize_t) sizeof answer);
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  *held_fd = answer[0];
  *number_free = answer[1];
  *held = answer[2];
  *held_in_fork = answer[3];
}

/* mg_hold_lock, for the node leader's lock and a Score-P plugin's
 * once-per-run lock (flock, which cannot be taken again each round):
 * under `ulimit -n 16` no descriptor is kept (it took number 15) and the
 * lock stays held by a mapping of the file, the program's number 3 free
 * again; a fork child's fresh open cannot take it, and once the holder
 * ends it is free. With room above the limit the descriptor is kept
 * there, as before. */
static void
test_high_fd_hold_lock (void)
{
  g_autofree char *dir = g_dir_make_tmp ("mg-high-fd-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "node-lock", NULL);
  int fd, number_free, held, held_in_fork;

  g_assert_nonnull (dir);
  hold_in_child (path, 16, 16, &fd, &number_free, &held, &held_in_fork);
  g_assert_cmpint (fd, ==, -1);
  g_assert_true (number_free);
  g_assert_true (held);
  g_assert_true (held_in_fork);
  g_assert_true (lock_free (path)); /* the holder ended */

  hold_in_child (path, 16, 4096, &fd, &number_free, &held, &held_in_fork);
  if (fd == 3)
    {
      g_test_skip ("the hard RLIMIT_NOFILE is below 4096 here");
      return;
    }
  g_assert_cmpint (fd, ==, MG_HIGH_FD_MIN);
  g_assert_true (number_free);
  g_assert_true (held);
  g_assert_true (held_in_fork);
  g_assert_true (lock_free (path));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sampler/high-fd/above-tight", test_high_fd_above_tight);
  g_test_add_func ("/sampler/high-fd/above-soft", test_high_fd_above_soft);
  g_test_add_func ("/sampler/high-fd/below-room", test_high_fd_below_room);
  g_test_add_func ("/sampler/high-fd/below-band", test_high_fd_below_band);
  g_test_add_func ("/sampler/high-fd/top", test_high_fd_top);
  g_test_add_func ("/sampler/high-fd/stays", test_high_fd_stays);
  g_test_add_func ("/sampler/high-fd/huge", test_high_fd_huge);
  g_test_add_func ("/sampler/high-fd/not-kept", test_high_fd_not_kept);
  g_test_add_func ("/sampler/high-fd/hold-lock", test_high_fd_hold_lock);
  return g_test_run ();
}
