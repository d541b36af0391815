/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RLIMIT_NOFILE bounds the numbers of new descriptors, not how many are
 * open: a descriptor at or above the soft limit costs the program none of
 * the numbers it may use. So a kept descriptor goes at the soft limit (at
 * least MG_HIGH_FD_MIN), the soft limit raised for the moment of the dup
 * when the hard one allows.
 *
 * When nothing above the limit can be had (hard = soft), or the limit is
 * huge (more than MG_HIGH_FD_TABLE_MAX), it goes below it. There the
 * program loses one number per descriptor wherever it sits, but the
 * descriptor table is as large as the highest open number: every fork
 * copies it and every exec unshares it again (at numbers near a limit of
 * 20000, a table of 32768 slots: about 50 µs of the parent's CPU more per
 * fork). So it
 * takes the lowest number above select()'s (FD_SETSIZE), the table then
 * 2048 slots, and the top MG_HIGH_FD_BAND numbers below a limit that
 * leaves no room above FD_SETSIZE, which the program reaches last. Below
 * a limit too tight for that band (`ulimit -n 16`), or once the band is
 * full, it takes the highest free number below it: left where it was
 * opened (3, 4, …), the program's first open got the next number and a
 * shell's `exec 3<file` closed the sampler's lock.
 *
 * Below a limit under FD_SETSIZE + MG_HIGH_FD_BAND, though, whatever the
 * number, it is one the program reaches: what can be opened again (the
 * /proc files, the threads' folder) is not kept there
 * (mg_keep_fd_or_not: the caller opens it for each reading), and a lock
 * held for the process's life is held by a mapping of its file
 * (mg_hold_lock). Only mg_high_fd and a third-party plugin's
 * metrograph_keep_fd still place a descriptor there. */
#include "mg-high-fd.h"

#include "metrograph_plugin_ext.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <unistd.h>

#define MG_HIGH_FD_TABLE_MAX 65536
/* The numbers kept descriptors may take above the limit, and below it
 * when nothing above can be had. */
#define MG_HIGH_FD_ROOM 4096
#define MG_HIGH_FD_BAND 64

static int
dup_at (int fd, rlim_t at)
{
  return fcntl (fd, F_DUPFD_CLOEXEC, (int) at);
}

/* A free number at or above the soft limit (at least MG_HIGH_FD_MIN), the
 * limit raised for the moment of the dup; -1 when the hard limit leaves
 * no room. Only this thread's dup needs the room: the program gets its
 * own limit back at once. */
static int
dup_above (int fd, const struct rlimit *limit)
{
  rlim_t target = limit->rlim_cur > MG_HIGH_FD_MIN ? limit->rlim_cur : MG_HIGH_FD_MIN;
  rlim_t need = target + MG_HIGH_FD_ROOM;
  struct rlimit room = { need, limit->rlim_max };
  int high;

  if (limit->rlim_max != RLIM_INFINITY && limit->rlim_max <= target)
    return -1;
  if (limit->rlim_max != RLIM_INFINITY && need > limit->rlim_max)
    room.rlim_cur = limit->rlim_max;
  if (setrlimit (RLIMIT_NOFILE, &room) != 0)
    return -1;
  high = dup_at (fd, target);
  setrlimit (RLIMIT_NOFILE, limit);
  return high;
}

/* The highest free number from below @top down to just above @fd, -1
 * when there is none. Each try is F_DUPFD's own atomic search, so a
 * number the program opens meanwhile in another thread is never taken
 * from it (dup2 onto a probed number could be). */
static int
dup_highest_below (int fd, rlim_t top)
{
  for (rlim_t at = top; at-- > (rlim_t) fd + 1;)
    {
      int high = dup_at (fd, at);
      if (high >= 0 || errno != EMFILE)
        return high;
    }
  return -1;
}

/* A free number below the soft limit @limit: from FD_SETSIZE when the
 * limit leaves a band's room there, else in the band just below the
 * limit, else (a limit too tight for a band, or the band full) the
 * highest free number below that; -1 when none is above @fd. */
static int
dup_below (int fd, rlim_t limit)
{
  rlim_t top = limit;

  if (limit == RLIM_INFINITY || limit >= FD_SETSIZE + MG_HIGH_FD_BAND)
    return dup_at (fd, FD_SETSIZE);
  if (limit >= 3 + MG_HIGH_FD_BAND)
    {
      int high = dup_at (fd, limit - MG_HIGH_FD_BAND);
      if (high >= 0)
        return high;
      top = limit - MG_HIGH_FD_BAND;
    }
  return dup_highest_below (fd, top);
}

/* True when a descriptor below the soft limit @limit would take one of
 * the numbers a program reaches: below FD_SETSIZE + MG_HIGH_FD_BAND, where
 * dup_below can only use the top of the program's own range. Above it
 * the descriptor goes from FD_SETSIZE, a few numbers of more than a
 * thousand (a container's 1048576, this kind of machine's 20000), and
 * reopening the files each round there would add about a third to every
 * round of every run (docs/sampler.md). */
static bool
below_takes_programs (rlim_t limit)
{
  return limit != RLIM_INFINITY && limit < FD_SETSIZE + MG_HIGH_FD_BAND;
}

/* Where @fd is moved: -1 when it is not (no room, or only below @fd). With
 * @tight_ok false, also -1 when only the program's top numbers are left. */
static int
place (int fd, bool tight_ok)
{
  struct rlimit limit;
  int high = -1;

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0)
    return -1;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= MG_HIGH_FD_TABLE_MAX)
    high = dup_above (fd, &limit);
  if (high < 0 && !tight_ok && below_takes_programs (limit.rlim_cur))
    return -1;
  if (high < 0)
    high = dup_below (fd, limit.rlim_cur);
  if (high >= 0 && high < fd)
    {
      close (high);
      high = -1;
    }
  return high;
}

int
mg_high_fd (int fd)
{
  int high;

  if (fd < 0 || (high = place (fd, true)) < 0)
    return fd;
  close (fd);
  return high;
}

int
mg_keep_fd_or_not (int fd)
{
  int high;

  if (fd < 0)
    {
      errno = EBADF;
      return -1;
    }
  high = place (fd, false);
  if (high < 0)
    {
      errno = EMFILE;
      return -1;
    }
  close (fd);
  return high;
}

int
mg_hold_lock (int fd)
{
  int high = mg_keep_fd_or_not (fd);
  void *map;

  if (high >= 0 || fd < 0)
    return high;
  /* flock's lock belongs to the open file description, which lives as
   * long as anything refers to it: a mapping of the file does, and goes
   * with the process (or its image, at exec, as a close-on-exec
   * descriptor would). Not inherited by a fork child, whose copy would
   * keep the lock after the holder ended. Never unmapped: held for the
   * process's life. */
  map = mmap (NULL, (size_t) sysconf (_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    return mg_high_fd (fd); /* held by the descriptor, as before */
  madvise (map, (size_t) sysconf (_SC_PAGESIZE), MADV_DONTFORK);
  close (fd);
  return -1;
}

__attribute__((visibility("default"))) int
metrograph_keep_fd (int fd)
{
  return mg_high_fd (fd);
}

__attribute__((visibility("default"))) int
metrograph_keep_fd_if_free (int fd)
{
  return mg_keep_fd_or_not (fd);
}
