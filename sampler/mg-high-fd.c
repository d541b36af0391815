/* SPDX-License-Identifier: GPL-3.0-or-later */
/* RLIMIT_NOFILE bounds the numbers of new descriptors, not how many are
 * open: a descriptor at or above the soft limit costs the program none of
 * the numbers it may use. So a kept descriptor goes at the soft limit (at
 * least MG_HIGH_FD_MIN), the soft limit raised for the moment of the dup
 * when the hard one allows. Under a huge limit (more than
 * MG_HIGH_FD_TABLE_MAX) it goes to MG_HIGH_FD_MIN, not to a number that
 * would grow the descriptor table by megabytes. When nothing above the
 * limit can be had (hard = soft), it takes the highest free number below,
 * (the top MG_HIGH_FD_BAND), which the program reaches last. */
#include "mg-high-fd.h"

#include "metrograph_plugin_ext.h"

#include <fcntl.h>
#include <sys/resource.h>
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

/* A free number in the band just below @limit, or -1. */
static int
dup_top (int fd, rlim_t limit)
{
  if (limit < 3 + MG_HIGH_FD_BAND)
    return -1;
  return dup_at (fd, limit - MG_HIGH_FD_BAND);
}

int
mg_high_fd (int fd)
{
  struct rlimit limit;
  rlim_t target = MG_HIGH_FD_MIN;
  int high = -1;

  if (fd < 0 || getrlimit (RLIMIT_NOFILE, &limit) != 0)
    return fd;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= MG_HIGH_FD_TABLE_MAX
      && limit.rlim_cur > target)
    target = limit.rlim_cur;
  if (limit.rlim_cur == RLIM_INFINITY || target < limit.rlim_cur)
    high = dup_at (fd, target);
  else if (limit.rlim_max == RLIM_INFINITY || limit.rlim_max > target)
    {
      /* Only this thread's dup needs the room; the program gets its own
       * limit back at once. */
      rlim_t need = target + MG_HIGH_FD_ROOM;
      struct rlimit room = { limit.rlim_max == RLIM_INFINITY || need < limit.rlim_max
                               ? need : limit.rlim_max, limit.rlim_max };
      if (setrlimit (RLIMIT_NOFILE, &room) == 0)
        {
          high = dup_at (fd, target);
          setrlimit (RLIMIT_NOFILE, &limit);
        }
    }
  if (high < 0 && limit.rlim_cur != RLIM_INFINITY)
    high = dup_top (fd, limit.rlim_cur < target ? limit.rlim_cur : target);
  if (high < 0 || high < fd)
    {
      if (high >= 0)
        close (high);
      return fd;
    }
  close (fd);
  return high;
}

__attribute__((visibility("default"))) int
metrograph_keep_fd (int fd)
{
  return mg_high_fd (fd);
}
