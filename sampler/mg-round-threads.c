/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The process's thread count once a round for the built-in plugins
 * (include/metrograph_plugin_ext.h). The link count of /proc/self/task is
 * 2 plus the threads, and one fstat of a descriptor kept open gives it; CPU
 * Time (to know when to list the threads again) and Threads each made that
 * system call every round. The same fstat tells our descriptor from a file
 * the program put at its number (device and inode), as the plugins' kept
 * files do (plugins/mg-metric-util.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrograph_plugin_ext.h"
#include "mg-high-fd.h"
#include "mg-sampler-state.h"

#define TASK_DIR "/proc/self/task"
/* Out of the way of programs that expect the lowest free descriptors. */

/* Kept open and used on the sampler thread only. */
static int task_fd = -1;
static dev_t task_dev;
static ino_t task_ino;
static int64_t round_ns = -1;
static uint64_t round_threads;

/* Opened and kept (*kept set) where that takes none of the program's
 * numbers; otherwise open for this one reading (mg_keep_fd_or_not). */
static int
open_task_dir (struct stat *st, bool *kept)
{
  int fd = open (TASK_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int high = kept ? mg_keep_fd_or_not (fd) : -1;
  if (kept)
    *kept = high >= 0;
  if (high >= 0)
    fd = high;
  if (fstat (fd, st) != 0)
    {
      int e = errno;
      close (fd);
      errno = e;
      return -1;
    }
  return fd;
}

static uint64_t
threads_of (const struct stat *st)
{
  return st->st_nlink > 2 ? (uint64_t) st->st_nlink - 2 : 0;
}

/* From the kept-open folder, opened again when it is no longer ours. */
static int
count_kept (uint64_t *threads)
{
  struct stat st;
  if (task_fd >= 0
      && (fstat (task_fd, &st) != 0 || st.st_dev != task_dev || st.st_ino != task_ino))
    task_fd = -1; /* closed or replaced by the program: leave it alone */
  if (task_fd < 0)
    {
      bool kept;
      int fd = open_task_dir (&st, &kept);
      if (fd < 0)
        return -1;
      if (!kept)
        {
          close (fd); /* a tight hard limit: opened again next round */
          *threads = threads_of (&st);
          return 0;
        }
      task_fd = fd;
      task_dev = st.st_dev;
      task_ino = st.st_ino;
    }
  *threads = threads_of (&st);
  return 0;
}

int
mg_round_threads_dir (struct stat *st)
{
  if (task_fd >= 0 && fstat (task_fd, st) == 0 && st->st_dev == task_dev
      && st->st_ino == task_ino)
    return task_fd;
  return -1;
}

/* Another thread than the sampler's: opened for this one reading. */
static int
count_once (uint64_t *threads)
{
  struct stat st;
  int fd = open_task_dir (&st, NULL);
  if (fd < 0)
    return -1;
  close (fd);
  *threads = threads_of (&st);
  return 0;
}

void
mg_round_threads_reset (void)
{
  /* A forked child's copy describes its parent's threads: closed, unless
   * the program has put a file of its own at that number meanwhile. */
  struct stat st;
  if (task_fd >= 0 && fstat (task_fd, &st) == 0 && st.st_dev == task_dev
      && st.st_ino == task_ino)
    close (task_fd);
  task_fd = -1;
  round_ns = -1;
}

__attribute__((visibility ("default"))) int
metrograph_get_round_thread_count (const struct timespec *round, uint64_t *threads)
{
  if (!mg_thread_usage_on_sampler_thread ())
    return count_once (threads);
  int64_t ns = round ? (int64_t) round->tv_sec * 1000000000 + round->tv_nsec : -1;
  if (round == NULL || ns != round_ns)
    {
      round_ns = -1;
      if (count_kept (&round_threads) != 0)
        return -1;
      round_ns = round ? ns : -1;
    }
  *threads = round_threads;
  return 0;
}
