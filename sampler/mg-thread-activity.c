/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the sampler's own thread causes in the process beyond its CPU time
 * (include/metrograph_plugin_ext.h), so that the built-in plugins leave it
 * out of the program's figures and Sampler overhead shows it: the thread
 * itself (Threads), its page faults (getrusage RUSAGE_THREAD) and its
 * storage I/O (read_bytes and write_bytes of its own /proc/thread-self/io,
 * which count the record's pages it dirties through the record's mapping:
 * the kernel charges a dirtied page to the thread that dirtied it), and
 * the record's pages in the process's memory (mg_record_resident_bytes),
 * with the sampler's own tables and the modules' unwind tables the
 * unwinder mapped (mg_unwind_tables_resident).
 *
 * Read on the sampler thread, once a round for each part asked for, and
 * left as final figures when the thread ends (the process's totals keep an
 * ended thread's counts). The io file is kept open on a high descriptor,
 * as the task folder is (mg-round-threads.c), and read with
 * metrograph_safe_pread, so that the IO metrics leave that read out too. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrograph_plugin_ext.h"
#include "format/mg-record-writer.h"
#include "mg-high-fd.h"
#include "mg-own-memory.h"
#include "mg-sampler-state.h"
#include "mg-unwind.h"

#define IO_FILE "/proc/thread-self/io"

static int io_fd = -1;
static dev_t io_dev;
static ino_t io_ino;
static int64_t faults_round = -1, io_round = -1;
static struct metrograph_sampler_thread_activity current; /* the thread's, as last read */
static struct metrograph_sampler_thread_activity final_activity;
static bool running;
/* The final figures of the process's earlier sampler threads (ended to
 * let an unshare or setns through): the running thread's add to them. */
static struct metrograph_sampler_thread_activity carried;

/* Opened and kept out of the program's way, as the sampler's other
 * descriptors; *kept false when that would take one of the program's
 * numbers (mg_keep_fd_or_not): then open for this one reading. */
static int
open_io_file (bool *kept)
{
  struct stat st;
  int fd = open (IO_FILE, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int high = mg_keep_fd_or_not (fd);
  *kept = high >= 0;
  if (high < 0)
    return fd;
  if (fstat (high, &st) != 0)
    {
      close (high);
      return -1;
    }
  io_dev = st.st_dev;
  io_ino = st.st_ino;
  return high;
}

/* The number after key in text, or 0. */
static uint64_t
value_of (const char *text, const char *key)
{
  const char *at = strstr (text, key);
  uint64_t v = 0;
  if (at == NULL)
    return 0;
  for (at += strlen (key); *at == ' '; at++)
    ;
  for (; *at >= '0' && *at <= '9'; at++)
    v = v * 10 + (uint64_t) (*at - '0');
  return v;
}

/* The calling thread's (the sampler's) storage I/O. */
static int
read_storage (struct metrograph_sampler_thread_activity *out)
{
  char text[512];
  struct stat st;
  if (io_fd >= 0 && (fstat (io_fd, &st) != 0 || st.st_dev != io_dev || st.st_ino != io_ino))
    io_fd = -1; /* closed or replaced by the program: leave it alone */
  int fd = io_fd;
  bool kept = true;
  if (fd < 0 && (fd = open_io_file (&kept)) < 0)
    return -1;
  if (kept)
    io_fd = fd;
  ssize_t n = metrograph_safe_pread (fd, text, sizeof text - 1, 0);
  if (!kept)
    close (fd); /* a tight hard limit: opened again next round */
  if (n <= 0)
    return -1;
  text[n] = '\0';
  out->storage_read_bytes = carried.storage_read_bytes + value_of (text, "\nread_bytes:");
  out->storage_write_bytes = carried.storage_write_bytes + value_of (text, "\nwrite_bytes:");
  return 0;
}

static int
read_faults (struct metrograph_sampler_thread_activity *out)
{
  struct rusage ru;
  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return -1;
  out->minor_faults = carried.minor_faults + (uint64_t) ru.ru_minflt;
  out->major_faults = carried.major_faults + (uint64_t) ru.ru_majflt;
  return 0;
}

/* The io file names the thread that opened it: a forked child's copy
 * names its parent's, a resumed thread's its ended predecessor's. */
static void
forget_thread (void)
{
  struct stat st;
  if (io_fd >= 0 && fstat (io_fd, &st) == 0 && st.st_dev == io_dev && st.st_ino == io_ino)
    close (io_fd);
  io_fd = -1;
  faults_round = io_round = -1;
  __atomic_store_n (&running, false, __ATOMIC_RELEASE);
}

void
mg_thread_activity_reset (void)
{
  struct metrograph_sampler_thread_activity zero = { 0 };
  forget_thread ();
  current = final_activity = carried = zero;
}

void
mg_thread_activity_carry (void)
{
  forget_thread ();
  carried = final_activity;
}

void
mg_thread_activity_begin (void)
{
  __atomic_store_n (&running, true, __ATOMIC_RELEASE);
}

void
mg_thread_activity_end (void)
{
  read_faults (&current);
  read_storage (&current);
  final_activity = current;
  final_activity.threads = 0;
  __atomic_store_n (&running, false, __ATOMIC_RELEASE);
}

static bool
same_round (const struct timespec *round, int64_t *last)
{
  if (round == NULL)
    return false;
  int64_t ns = (int64_t) round->tv_sec * 1000000000 + round->tv_nsec;
  if (ns == *last)
    return true;
  *last = ns;
  return false;
}

/* What of the process's RSS is the sampler's. */
static uint64_t
own_resident (void)
{
  return mg_record_resident_bytes (&mg_sampler.rec) + mg_own_memory_resident () + mg_unwind_tables_resident ();
}

__attribute__((visibility ("default"))) int
metrograph_get_sampler_thread_activity (const struct timespec *round, unsigned what,
                                        struct metrograph_sampler_thread_activity *out)
{
  struct metrograph_sampler_thread_activity zero = { 0 };
  *out = zero;
  if (!__atomic_load_n (&running, __ATOMIC_ACQUIRE))
    {
      *out = final_activity;
      out->record_resident_bytes = own_resident ();
      out->main_thread_exited = __atomic_load_n (&mg_sampler.main_exited, __ATOMIC_ACQUIRE);
      return 0;
    }
  out->record_resident_bytes = own_resident ();
  out->main_thread_exited = __atomic_load_n (&mg_sampler.main_exited, __ATOMIC_ACQUIRE);
  out->threads = 1;
  if (!mg_thread_usage_on_sampler_thread ())
    {
      /* Another thread cannot read the sampler's counters: the last ones. */
      out->minor_faults = current.minor_faults;
      out->major_faults = current.major_faults;
      out->storage_read_bytes = current.storage_read_bytes;
      out->storage_write_bytes = current.storage_write_bytes;
      return 0;
    }
  int rc = 0;
  if ((what & METROGRAPH_ACTIVITY_FAULTS) && !same_round (round, &faults_round)
      && !mg_thread_usage_round_faults (round, &current.minor_faults, &current.major_faults)
      && read_faults (&current) != 0)
    {
      faults_round = -1;
      rc = -1;
    }
  if ((what & METROGRAPH_ACTIVITY_STORAGE) && !same_round (round, &io_round)
      && read_storage (&current) != 0)
    {
      io_round = -1;
      rc = -1;
    }
  if (what & METROGRAPH_ACTIVITY_FAULTS)
    {
      out->minor_faults = current.minor_faults;
      out->major_faults = current.major_faults;
    }
  if (what & METROGRAPH_ACTIVITY_STORAGE)
    {
      out->storage_read_bytes = current.storage_read_bytes;
      out->storage_write_bytes = current.storage_write_bytes;
    }
  if (rc != 0)
    errno = EIO;
  return rc;
}
