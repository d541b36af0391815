/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Small async-signal-safe helpers shared by the built-in metric plugins:
 * reading /proc and /sys files through the allinea_safe_* functions into
 * caller buffers, parsing them by hand (no malloc, no stdio) and listing the
 * process's threads. The one home of the plugins' /proc reading.
 * Header-only (static inline) so that every plugin stays one self-contained
 * module that links against nothing. */
#ifndef MG_METRIC_UTIL_H
#define MG_METRIC_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "metrograph_plugin_ext.h"

/* Plugins are built with -fvisibility=hidden; the entry points named in the
 * definition files are exported with this. */
#define MG_PLUGIN_EXPORT __attribute__((visibility("default")))

/* Weak: under a host other than Metrograph's sampler it is absent (NULL). */
extern int metrograph_get_sampler_thread_usage (struct metrograph_sampler_thread_usage *out) __attribute__((weak));

extern ssize_t metrograph_safe_pread (int fd, void *buf, size_t count, off_t offset)
  __attribute__((weak));

extern int metrograph_keep_fd (int fd) __attribute__((weak));
extern int metrograph_keep_fd_if_free (int fd) __attribute__((weak));

/* Without Metrograph's sampler: the lowest number kept descriptors take. */
#define MG_PROC_FILE_MIN_FD 512

/* A descriptor kept open across rounds, moved out of the program's way
 * (above its RLIMIT_NOFILE) when the host can; fd itself otherwise. */
static inline int
mg_keep_fd (int fd)
{
  if (fd >= 0 && metrograph_keep_fd != NULL)
    return metrograph_keep_fd (fd);
  if (fd >= 0)
    {
      int high = fcntl (fd, F_DUPFD_CLOEXEC, MG_PROC_FILE_MIN_FD);
      if (high >= 0)
        {
          allinea_safe_close (fd);
          fd = high;
        }
    }
  return fd;
}

/* For a descriptor that can be opened again when needed: kept as by
 * mg_keep_fd where that takes none of the program's numbers; -1 (fd left
 * open) when it would, under a hard RLIMIT_NOFILE without room above the
 * soft one (metrograph_keep_fd_if_free): the caller reads it once and
 * closes it. Under another host, kept as by mg_keep_fd. */
static inline int
mg_keep_fd_if_free (int fd)
{
  if (fd >= 0 && metrograph_keep_fd_if_free != NULL)
    return metrograph_keep_fd_if_free (fd);
  return mg_keep_fd (fd);
}

/* The sampler thread's usage so far; false when the host does not tell. */
static inline bool
mg_sampler_usage (struct metrograph_sampler_thread_usage *out)
{
  return metrograph_get_sampler_thread_usage != NULL && metrograph_get_sampler_thread_usage (out) == 0;
}

extern int metrograph_get_sampler_thread_activity (const struct timespec *round, unsigned what,
                                                   struct metrograph_sampler_thread_activity *out)
  __attribute__((weak));

/* What the sampler's own thread has caused so far (the parts in what, read
 * once a round): all 0 under another host, which runs no thread of
 * Metrograph's. False when a part could not be read (it holds the last
 * figures then). */
static inline bool
mg_sampler_activity (const struct timespec *round, unsigned what,
                     struct metrograph_sampler_thread_activity *out)
{
  struct metrograph_sampler_thread_activity zero = { 0 };
  *out = zero;
  if (metrograph_get_sampler_thread_activity == NULL)
    return true;
  return metrograph_get_sampler_thread_activity (round, what, out) == 0;
}

/* a - b, never wrapped (a figure of the sampler's own thread may be read a
 * moment after the process's). */
static inline uint64_t
mg_less (uint64_t a, uint64_t b)
{
  return a > b ? a - b : 0;
}

extern int metrograph_get_round_usage (const struct timespec *round, struct rusage *process,
                                       struct metrograph_sampler_thread_usage *sampler_thread)
  __attribute__((weak));

/* The process's getrusage(RUSAGE_SELF) and the sampler thread's usage,
 * once a round for all plugins (round: the getter's sample time; NULL:
 * now). Under another host, read here (the thread's usage all 0). */
static inline int
mg_round_usage (const struct timespec *round, struct rusage *process,
                struct metrograph_sampler_thread_usage *sampler_thread)
{
  if (metrograph_get_round_usage != NULL)
    return metrograph_get_round_usage (round, process, sampler_thread);
  struct rusage ignored;
  if (getrusage (RUSAGE_SELF, process ? process : &ignored) != 0)
    return -1;
  if (sampler_thread)
    {
      struct metrograph_sampler_thread_usage zero = { 0 };
      *sampler_thread = zero;
      mg_sampler_usage (sampler_thread);
    }
  return 0;
}

/* Two getter calls closer than this belong to the same sampling round. */
#define MG_ROUND_SLACK_NS 500000

/* One entry per thread of the process; its link count is 2 + threads. */
#define MG_PROC_TASK_DIR "/proc/self/task"

/* Reads a whole (small) file into buf, NUL-terminated. Returns its length,
 * or -1 with errno set. */
static inline ssize_t
mg_read_file (const char *path, char *buf, size_t size)
{
  int fd = allinea_safe_open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = allinea_safe_read_all (fd, buf, size - 1);
  int saved = errno;
  allinea_safe_close (fd);
  if (n < 0)
    {
      errno = saved;
      return -1;
    }
  buf[n] = '\0';
  return n;
}

extern unsigned metrograph_get_fork_generation (void) __attribute__((weak));

/* Forks seen, counted by a pthread_atfork() child handler: comparing it
 * costs nothing, where getpid() is a system call (about 1 us on a virtual
 * machine). Metrograph's sampler counts them for all plugins: a handler
 * here, one per plugin, wrote a page of each plugin's in every fork child
 * (two page faults with its code's, in a shell's every command). Under
 * another host, this plugin's own count. Children made by a raw clone(2)
 * system call, which skips the handlers, are not noticed. */
static volatile unsigned mg_own_fork_generation __attribute__((unused));

static inline unsigned
mg_forks_seen (void)
{
  if (metrograph_get_fork_generation != NULL)
    return metrograph_get_fork_generation ();
  return mg_own_fork_generation;
}

static inline void
mg_count_fork (void)
{
  mg_own_fork_generation++;
}

/* Call from initialisation. */
static inline void
mg_watch_forks (void)
{
  static bool registered;
  if (!registered && metrograph_get_fork_generation == NULL)
    registered = pthread_atfork (NULL, NULL, mg_count_fork) == 0;
}

/* A /proc or /sys file kept open between sampling rounds: re-reading it
 * from offset 0 costs one lseek and one read instead of open, read, read
 * (to see the end) and close, which on a virtual machine is half the cost
 * of a round. The descriptor is moved to a high number, out of the way of
 * programs that expect the lowest free ones; where it would take one of
 * the program's numbers (mg_keep_fd_if_free: a hard RLIMIT_NOFILE without
 * room, `ulimit -n 16`) it is not kept but opened for each use and closed
 * after it (mg_proc_file_done), so that the program opens as many files
 * as without Metrograph. A kept one is checked: if the program
 * closed it (and the number now names another file), or if this is a forked
 * child (whose /proc/self file would still describe the parent), the file
 * is opened afresh. A fork is seen at each use; the fstat that tells our
 * file from another is done when a read fails and every
 * MG_PROC_FILE_CHECK_EVERY reads: that one system call per file and round
 * was a fifth of a round's. Until then a read of another file costs the
 * program nothing (pread neither moves its offset nor takes from a pipe or
 * socket) and gives our metric nonsense for at most that many rounds. */
typedef struct {
  const char *path;
  int fd;
  unsigned generation;  /* mg_forks_seen () when opened */
  dev_t dev;
  ino_t ino;
  unsigned unchecked_reads; /* since the last fstat */
  bool once;            /* fd is open for the current use only: not kept */
} MgProcFile;

#define MG_PROC_FILE(p) { .path = (p), .fd = -1 }
/* About a second at the default interval. */
#define MG_PROC_FILE_CHECK_EVERY 50

/* Opens the file (kept, or for this use only) and fills *st. */
static inline int
mg_proc_file_open (MgProcFile *f, struct stat *st)
{
  int fd = allinea_safe_open (f->path, O_RDONLY | O_CLOEXEC);  /* files and directories */
  if (fd < 0)
    return -1;
  int kept = mg_keep_fd_if_free (fd);
  f->once = kept < 0;
  if (kept >= 0)
    fd = kept;
  if (fstat (fd, st) != 0)
    {
      int saved = errno;
      allinea_safe_close (fd);
      errno = saved;
      return -1;
    }
  f->fd = fd;
  f->generation = mg_forks_seen ();
  f->dev = st->st_dev;
  f->ino = st->st_ino;
  f->unchecked_reads = 0;
  return 0;
}

/* Ends a use of the file begun by mg_proc_file_stat or mg_proc_file_fd:
 * closes it when it is not kept. */
static inline void
mg_proc_file_done (MgProcFile *f)
{
  if (f->once && f->fd >= 0)
    {
      allinea_safe_close (f->fd);
      f->fd = -1;
    }
}

/* fstat of the file, checked and opened afresh when needed (see above):
 * one system call while it stays open. -1 with errno set on failure. Call
 * mg_proc_file_done when done with it. */
static inline int
mg_proc_file_stat (MgProcFile *f, struct stat *st)
{
  if (f->fd >= 0 && f->generation != mg_forks_seen ())
    {
      allinea_safe_close (f->fd); /* our inherited copy */
      f->fd = -1;
    }
  if (f->fd >= 0)
    {
      if (fstat (f->fd, st) == 0 && st->st_dev == f->dev && st->st_ino == f->ino)
        {
          f->unchecked_reads = 0;
          return 0;
        }
      f->fd = -1; /* no longer ours: leave it alone */
    }
  return mg_proc_file_open (f, st);
}

/* The file's descriptor, checked (see above) and positioned at offset 0;
 * -1 with errno set on failure. Call mg_proc_file_done when done with
 * it. */
static inline int
mg_proc_file_fd (MgProcFile *f)
{
  struct stat st;
  if (mg_proc_file_stat (f, &st) != 0)
    return -1;
  if (lseek (f->fd, 0, SEEK_SET) != 0)
    {
      int saved = errno;
      mg_proc_file_done (f);
      errno = saved;
      return -1;
    }
  return f->fd;
}

extern int metrograph_get_round_thread_count (const struct timespec *round, uint64_t *threads)
  __attribute__((weak));

/* The process's thread count at the round of sample time *round (NULL:
 * now): the sampler's one fstat of MG_PROC_TASK_DIR a round, shared by the
 * plugins that ask; under another host, the link count of own, the
 * plugin's kept-open MG_PROC_TASK_DIR. -1 with errno set on failure. */
static inline int
mg_thread_count (const struct timespec *round, MgProcFile *own, uint64_t *threads)
{
  struct stat st;
  if (metrograph_get_round_thread_count != NULL)
    return metrograph_get_round_thread_count (round, threads);
  if (mg_proc_file_stat (own, &st) != 0)
    return -1;
  mg_proc_file_done (own);
  *threads = st.st_nlink > 2 ? (uint64_t) st.st_nlink - 2 : 0;
  return 0;
}

/* Reads the whole (small, under size bytes) file into buf, NUL-terminated:
 * one pread where the host offers it, else lseek and read. Returns its
 * length, or -1 with errno set. */
static inline ssize_t
mg_proc_file_read (MgProcFile *f, char *buf, size_t size)
{
  struct stat st;
  ssize_t n;
  /* /proc and sysfs files of a few kB come whole from one read. */
  if (metrograph_safe_pread != NULL)
    {
      n = -1;
      if (f->fd >= 0 && f->generation == mg_forks_seen ()
          && f->unchecked_reads < MG_PROC_FILE_CHECK_EVERY)
        n = metrograph_safe_pread (f->fd, buf, size - 1, 0);
      /* Not read, failed, or due for a check: checked, then read. */
      if (n < 0)
        n = mg_proc_file_stat (f, &st) != 0 ? -1 : metrograph_safe_pread (f->fd, buf, size - 1, 0);
      f->unchecked_reads++;
    }
  else
    {
      int fd = mg_proc_file_fd (f);
      if (fd < 0)
        return -1;
      n = allinea_safe_read (fd, buf, size - 1);
    }
  int saved = errno;
  mg_proc_file_done (f);
  errno = saved;
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return n;
}

static inline void
mg_proc_file_close (MgProcFile *f)
{
  if (f->fd >= 0)
    allinea_safe_close (f->fd); /* ours, or our inherited copy */
  f->fd = -1;
}

static inline int64_t
mg_timespec_ns (const struct timespec *ts)
{
  return (int64_t) ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* For getters whose value the sampler divides by the sample time: reports
 * when the reading was taken by moving *sample_time forward to read_time
 * (the spec lets a getter do so, with allinea_get_current_time()). The
 * sampler then divides by the time the reading covers: otherwise a sampler
 * thread delayed between the start of its round and this getter divides a
 * longer interval's count by the nominal one (a busy thread read 121%). */
static inline void
mg_report_read_time (struct timespec *sample_time, const struct timespec *read_time)
{
  if (mg_timespec_ns (read_time) > mg_timespec_ns (sample_time))
    *sample_time = *read_time;
}

/* True when now falls in the round whose time is *round_ns; otherwise
 * records now as the new round and returns false. */
static inline bool
mg_same_round (const struct timespec *now, int64_t *round_ns)
{
  int64_t t = mg_timespec_ns (now);
  int64_t d = t - *round_ns;
  if (*round_ns != 0 && d < MG_ROUND_SLACK_NS && d > -MG_ROUND_SLACK_NS)
    return true;
  *round_ns = t;
  return false;
}

static inline const char *
mg_skip_spaces (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* Parses an unsigned decimal number at *p (after blanks), advancing *p. */
static inline uint64_t
mg_parse_u64 (const char **p)
{
  const char *s = mg_skip_spaces (*p);
  uint64_t v = 0;
  while (*s >= '0' && *s <= '9')
    v = v * 10 + (uint64_t) (*s++ - '0');
  *p = s;
  return v;
}

/* The text after "key" at the start of a line of text, or NULL. */
static inline const char *
mg_find_key (const char *text, const char *key)
{
  const char *line = text;
  while (*line)
    {
      const char *k = key, *s = line;
      while (*k && *s == *k)
        k++, s++;
      if (*k == '\0')
        return s;
      while (*line && *line != '\n')
        line++;
      if (*line == '\n')
        line++;
    }
  return NULL;
}

/* The number after "key" in a "Key:   123 kB"-style file; 0 when absent. */
static inline uint64_t
mg_key_u64 (const char *text, const char *key, bool *found)
{
  const char *p = mg_find_key (text, key);
  if (found)
    *found = p != NULL;
  return p ? mg_parse_u64 (&p) : 0;
}

/* The number at the start of a small file (a sysfs counter); -1 with errno
 * set when it cannot be read. */
static inline int
mg_read_u64_file (const char *path, uint64_t *value)
{
  char buf[64];
  if (mg_read_file (path, buf, sizeof buf) < 0)
    return -1;
  const char *p = buf;
  *value = mg_parse_u64 (&p);
  return 0;
}

/* The same through a kept-open file. */
static inline int
mg_proc_file_read_u64 (MgProcFile *f, uint64_t *value)
{
  char buf[64];
  if (mg_proc_file_read (f, buf, sizeof buf) < 0)
    return -1;
  const char *p = buf;
  *value = mg_parse_u64 (&p);
  return 0;
}

/* An entry as getdents64(2) returns it. */
typedef struct {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
} MgDirent64;

/* The thread ids in the MG_PROC_TASK_DIR directory open on fd, read from
 * its current offset: at most max into tids, *more set when there were
 * more. getdents64 rather than readdir, which allocates. Returns the count,
 * or -1 with errno set. */
static inline int
mg_list_tasks (int fd, pid_t *tids, int max, bool *more)
{
  /* 4 kB hold over 100 entries: one call for most processes. */
  char buf[4096] __attribute__ ((aligned (8)));
  int n = 0;
  *more = false;
  for (;;)
    {
      long len = syscall (SYS_getdents64, fd, buf, sizeof buf);
      if (len <= 0)
        return len < 0 ? -1 : n;
      for (long off = 0; off < len;)
        {
          const MgDirent64 *d = (const MgDirent64 *) (buf + off);
          const char *name = d->name;
          if (*name >= '0' && *name <= '9')
            {
              if (n == max)
                {
                  *more = true;
                  return n;
                }
              tids[n++] = (pid_t) mg_parse_u64 (&name);
            }
          if (d->reclen == 0)
            return n;
          off += d->reclen;
        }
    }
}

static inline bool
mg_str_eq (const char *a, const char *b)
{
  while (*a && *a == *b)
    a++, b++;
  return *a == *b;
}

#endif /* MG_METRIC_UTIL_H */
