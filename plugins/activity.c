/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "Activity": what the program's threads are doing at
 * each sample, as MAP's main-thread activity: computing, in MPI, in I/O,
 * waiting (sleep), waiting (lock), or other. Each round the main thread is
 * classed (0 or 100 per class, so that a window's mean is the share of its
 * samples) and so are up to MG_ACTIVITY_BUDGET other threads in turn (each
 * keeps its last class until its turn comes again), whose classes give the
 * share of the program's threads in each class.
 *
 * No signal reaches a thread: /proc/self/task/TID/syscall says "running"
 * for a thread that runs or is ready to, and otherwise the number of the
 * system call it is blocked in, which the kernel reads from the sleeping
 * thread's saved registers without waking it (the stat line's state is
 * read only where that file is missing). In MPI comes from the MPI
 * wrapper's per-thread table (format/mg-mpi-threads.h) and wins over the rest (a
 * rank blocked in a barrier sits in poll or futex inside MPI). The
 * classification table is in docs/builtin-metrics.md ("Activity").
 *
 * The files stay open (on high descriptors, mg_keep_fd_if_free) for up to
 * 64 threads: one pread per thread and round; under a hard RLIMIT_NOFILE
 * without room for them they are opened for each read, as beyond those
 * 64. The sampler's own thread is left out. */
#include <dlfcn.h>

#include "mg-metric-util.h"
#include "format/mg-mpi-threads.h"

enum {
  CLASS_COMPUTING,
  CLASS_MPI,
  CLASS_IO,
  CLASS_SLEEP,
  CLASS_LOCK,
  CLASS_OTHER,
  N_CLASSES,
  CLASS_NONE = N_CLASSES, /* not classed yet, or not the program's */
};

/* Threads followed; a process with more leaves the rest out of the
 * shares. */
#define MG_ACTIVITY_MAX_THREADS 512
/* Threads besides the main one classed per round: a program with many
 * threads costs at most this many reads a round, about 4 us each (a
 * 64-thread program has each thread read every 8 rounds, 160 ms at the
 * default 20 ms). */
#define MG_ACTIVITY_BUDGET 8
/* Threads whose files stay open between rounds (a descriptor each, above
 * the program's limit); the others' are opened for each read. */
#define MG_ACTIVITY_MAX_KEPT 64
/* The thread list is read again when the count changes and at least this
 * often (a thread that ended and another that started in one round). */
#define MG_ACTIVITY_RELIST_EVERY 50

typedef struct {
  pid_t tid;
  int stat_fd;    /* -1: not open */
  int syscall_fd; /* -1: not open */
  unsigned char klass;
} Thread;

static MgProcFile task_dir = MG_PROC_FILE (MG_PROC_TASK_DIR);
static Thread threads[MG_ACTIVITY_MAX_THREADS];
static int n_threads;
static int next_turn;            /* round robin over threads[] */
static uint64_t listed_count;    /* thread count when listed */
static unsigned rounds_since_list;
static unsigned generation;      /* mg_forks_seen () at the table */
static pid_t main_tid;
static int64_t round_ns = -1;
static unsigned char main_class = CLASS_NONE;
static double shares[N_CLASSES]; /* all threads, percent */
static const struct metrograph_mpi_threads *mpi_threads;

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

/* A blocked thread's class by its system call (docs/builtin-metrics.md,
 * "Activity"): the names of <sys/syscall.h>, each where the architecture
 * has it (SYS_open, SYS_poll, SYS_select... are x86-64's only). Any other
 * blocked system call is "other". */
static const struct {
  long nr;
  unsigned char klass;
} syscall_classes[] = {
#ifdef SYS_read
  { SYS_read, CLASS_IO },
#endif
#ifdef SYS_write
  { SYS_write, CLASS_IO },
#endif
#ifdef SYS_pread64
  { SYS_pread64, CLASS_IO },
#endif
#ifdef SYS_pwrite64
  { SYS_pwrite64, CLASS_IO },
#endif
#ifdef SYS_readv
  { SYS_readv, CLASS_IO },
#endif
#ifdef SYS_writev
  { SYS_writev, CLASS_IO },
#endif
#ifdef SYS_preadv
  { SYS_preadv, CLASS_IO },
#endif
#ifdef SYS_pwritev
  { SYS_pwritev, CLASS_IO },
#endif
#ifdef SYS_preadv2
  { SYS_preadv2, CLASS_IO },
#endif
#ifdef SYS_pwritev2
  { SYS_pwritev2, CLASS_IO },
#endif
#ifdef SYS_fsync
  { SYS_fsync, CLASS_IO },
#endif
#ifdef SYS_fdatasync
  { SYS_fdatasync, CLASS_IO },
#endif
#ifdef SYS_sync
  { SYS_sync, CLASS_IO },
#endif
#ifdef SYS_syncfs
  { SYS_syncfs, CLASS_IO },
#endif
#ifdef SYS_sync_file_range
  { SYS_sync_file_range, CLASS_IO },
#endif
#ifdef SYS_open
  { SYS_open, CLASS_IO },
#endif
#ifdef SYS_openat
  { SYS_openat, CLASS_IO },
#endif
#ifdef SYS_openat2
  { SYS_openat2, CLASS_IO },
#endif
#ifdef SYS_creat
  { SYS_creat, CLASS_IO },
#endif
#ifdef SYS_close
  { SYS_close, CLASS_IO },
#endif
#ifdef SYS_sendfile
  { SYS_sendfile, CLASS_IO },
#endif
#ifdef SYS_splice
  { SYS_splice, CLASS_IO },
#endif
#ifdef SYS_tee
  { SYS_tee, CLASS_IO },
#endif
#ifdef SYS_vmsplice
  { SYS_vmsplice, CLASS_IO },
#endif
#ifdef SYS_copy_file_range
  { SYS_copy_file_range, CLASS_IO },
#endif
#ifdef SYS_fallocate
  { SYS_fallocate, CLASS_IO },
#endif
#ifdef SYS_ftruncate
  { SYS_ftruncate, CLASS_IO },
#endif
#ifdef SYS_truncate
  { SYS_truncate, CLASS_IO },
#endif
#ifdef SYS_msync
  { SYS_msync, CLASS_IO },
#endif
#ifdef SYS_recvfrom
  { SYS_recvfrom, CLASS_IO },
#endif
#ifdef SYS_recvmsg
  { SYS_recvmsg, CLASS_IO },
#endif
#ifdef SYS_recvmmsg
  { SYS_recvmmsg, CLASS_IO },
#endif
#ifdef SYS_sendto
  { SYS_sendto, CLASS_IO },
#endif
#ifdef SYS_sendmsg
  { SYS_sendmsg, CLASS_IO },
#endif
#ifdef SYS_sendmmsg
  { SYS_sendmmsg, CLASS_IO },
#endif
#ifdef SYS_accept
  { SYS_accept, CLASS_IO },
#endif
#ifdef SYS_accept4
  { SYS_accept4, CLASS_IO },
#endif
#ifdef SYS_connect
  { SYS_connect, CLASS_IO },
#endif
#ifdef SYS_io_getevents
  { SYS_io_getevents, CLASS_IO },
#endif
#ifdef SYS_io_pgetevents
  { SYS_io_pgetevents, CLASS_IO },
#endif
#ifdef SYS_io_uring_enter
  { SYS_io_uring_enter, CLASS_IO },
#endif
#ifdef SYS_nanosleep
  { SYS_nanosleep, CLASS_SLEEP },
#endif
#ifdef SYS_clock_nanosleep
  { SYS_clock_nanosleep, CLASS_SLEEP },
#endif
#ifdef SYS_select
  { SYS_select, CLASS_SLEEP },
#endif
#ifdef SYS_pselect6
  { SYS_pselect6, CLASS_SLEEP },
#endif
#ifdef SYS_poll
  { SYS_poll, CLASS_SLEEP },
#endif
#ifdef SYS_ppoll
  { SYS_ppoll, CLASS_SLEEP },
#endif
#ifdef SYS_epoll_wait
  { SYS_epoll_wait, CLASS_SLEEP },
#endif
#ifdef SYS_epoll_pwait
  { SYS_epoll_pwait, CLASS_SLEEP },
#endif
#ifdef SYS_epoll_pwait2
  { SYS_epoll_pwait2, CLASS_SLEEP },
#endif
#ifdef SYS_pause
  { SYS_pause, CLASS_SLEEP },
#endif
#ifdef SYS_rt_sigsuspend
  { SYS_rt_sigsuspend, CLASS_SLEEP },
#endif
#ifdef SYS_rt_sigtimedwait
  { SYS_rt_sigtimedwait, CLASS_SLEEP },
#endif
#ifdef SYS_wait4
  { SYS_wait4, CLASS_SLEEP },
#endif
#ifdef SYS_waitid
  { SYS_waitid, CLASS_SLEEP },
#endif
#ifdef SYS_msgrcv
  { SYS_msgrcv, CLASS_SLEEP },
#endif
#ifdef SYS_mq_timedreceive
  { SYS_mq_timedreceive, CLASS_SLEEP },
#endif
#ifdef SYS_futex
  { SYS_futex, CLASS_LOCK },
#endif
#ifdef SYS_futex_waitv
  { SYS_futex_waitv, CLASS_LOCK },
#endif
#ifdef SYS_flock
  { SYS_flock, CLASS_LOCK },
#endif
#ifdef SYS_fcntl
  { SYS_fcntl, CLASS_LOCK },
#endif
#ifdef SYS_semop
  { SYS_semop, CLASS_LOCK },
#endif
#ifdef SYS_semtimedop
  { SYS_semtimedop, CLASS_LOCK },
#endif
};

static unsigned char
class_of_syscall (long nr)
{
  for (size_t i = 0; i < sizeof syscall_classes / sizeof syscall_classes[0]; i++)
    if (syscall_classes[i].nr == nr)
      return syscall_classes[i].klass;
  return CLASS_OTHER;
}

/* Our kept descriptors, MG_ACTIVITY_MAX_KEPT at most. */
static unsigned n_kept;

/* Closes a kept descriptor: only while it names a /proc file. After a
 * failed read the number may be the program's (it closed ours and got the
 * number back): then it is left alone. */
static void
close_fd (int *fd)
{
  struct stat st;
  if (*fd >= 0)
    {
      if (fstat (*fd, &st) == 0 && st.st_dev == task_dir.dev)
        allinea_safe_close (*fd);
      n_kept--;
    }
  *fd = -1;
}

/* "TID/NAME" under the task folder, opened (not yet kept): relative to
 * the kept folder, or by its whole path when the folder is not kept (a
 * tight hard RLIMIT_NOFILE, see MgProcFile). */
static int
open_thread_file (pid_t tid, const char *name)
{
  static const char prefix[] = MG_PROC_TASK_DIR "/";
  char path[64];
  char digits[16];
  int n = 0, k = 0;
  unsigned v = (unsigned) tid;
  if (task_dir.fd < 0)
    for (const char *p = prefix; *p; p++)
      path[k++] = *p;
  do
    digits[n++] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  while (n > 0)
    path[k++] = digits[--n];
  path[k++] = '/';
  for (; *name && k < (int) sizeof path - 1; name++)
    path[k++] = *name;
  path[k] = '\0';
  return openat (task_dir.fd >= 0 ? task_dir.fd : AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
}

/* Reads the thread's file NAME through *fd, opened and kept when it is
 * not open and fewer than MG_ACTIVITY_MAX_KEPT are; beyond, opened and
 * closed for this read. */
static ssize_t
read_kept (int *fd, pid_t tid, const char *name, char *buf, size_t size)
{
  int once = -1;
  if (*fd < 0)
    {
      int opened = open_thread_file (tid, name);
      if (opened < 0)
        return -1;
      int kept = n_kept < MG_ACTIVITY_MAX_KEPT ? mg_keep_fd_if_free (opened) : -1;
      if (kept >= 0)
        {
          *fd = kept;
          n_kept++;
        }
      else
        once = opened; /* beyond the budget, or not kept (MgProcFile) */
    }
  int use = once >= 0 ? once : *fd;
  ssize_t n = metrograph_safe_pread != NULL ? metrograph_safe_pread (use, buf, size - 1, 0)
                                            : (lseek (use, 0, SEEK_SET) == 0
                                                 ? allinea_safe_read (use, buf, size - 1) : -1);
  if (once >= 0)
    allinea_safe_close (once);
  else if (n <= 0)
    close_fd (fd); /* the thread ended */
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  return n;
}

/* The state letter of the thread (after the last ')' of its stat line:
 * the name may hold any character). */
static char
thread_state (Thread *t)
{
  char buf[128];
  ssize_t n = read_kept (&t->stat_fd, t->tid, "stat", buf, sizeof buf);
  if (n <= 0)
    return '\0';
  const char *close_paren = NULL;
  for (const char *p = buf; *p; p++)
    if (*p == ')')
      close_paren = p;
  if (close_paren == NULL || close_paren[1] != ' ')
    return '\0';
  return close_paren[2];
}

/* The system call the blocked thread is in: -1 when it is blocked outside
 * one (a page fault, stopped), -2 when it runs or is ready to run ("running":
 * the kernel reads a blocked thread's registers only), -3 when the file
 * cannot be read (the thread ended, or a kernel without it). */
static long
thread_syscall (Thread *t)
{
  char buf[32];
  ssize_t n = read_kept (&t->syscall_fd, t->tid, "syscall", buf, sizeof buf);
  if (n <= 0)
    return -3;
  if (buf[0] == 'r')
    return -2;
  if (buf[0] == '-')
    return -1;
  if (buf[0] < '0' || buf[0] > '9')
    return -3;
  const char *p = buf;
  return (long) mg_parse_u64 (&p);
}

/* Without a syscall file: the state alone (running, or blocked in an
 * unknown call). */
static unsigned char
classify_by_state (Thread *t)
{
  switch (thread_state (t))
    {
    case 'R':
      return CLASS_COMPUTING;
    case '\0':
    case 'Z':
    case 'X':
      return CLASS_NONE; /* ended */
    default:
      return CLASS_OTHER;
    }
}

static unsigned char
classify (Thread *t, bool main_exited, pid_t reader)
{
  if (t->tid == main_tid && main_exited)
    return CLASS_OTHER; /* listed until the process ends, but runs no more */
  if (t->tid == reader)
    return CLASS_COMPUTING; /* its syscall file would name this pread */
  if (mpi_threads != NULL && mg_mpi_threads_in_call (mpi_threads, t->tid))
    return CLASS_MPI;
  /* One read: the syscall file says "running" for a running or runnable
   * thread (its stat line, which also has the state, costs about 3 times
   * as much to read: 11 against 4 us on the development VM). */
  long nr = thread_syscall (t);
  if (nr >= 0)
    return class_of_syscall (nr);
  if (nr == -2)
    return CLASS_COMPUTING;
  if (nr == -1)
    return CLASS_OTHER;
  return classify_by_state (t);
}

static void
forget_thread (Thread *t)
{
  close_fd (&t->stat_fd);
  close_fd (&t->syscall_fd);
}

static void
forget_all (void)
{
  for (int i = 0; i < n_threads; i++)
    forget_thread (&threads[i]);
  n_threads = 0;
  next_turn = 0;
}

/* After a fork the table and the files describe the parent's threads:
 * closed (our inherited copies), and the main thread is this one. */
static void
follow_fork (void)
{
  if (generation == mg_forks_seen () && main_tid != 0)
    return;
  forget_all ();
  generation = mg_forks_seen ();
  main_tid = (pid_t) getpid ();
  listed_count = 0;
}

/* Reads the thread list again, keeping the open files and classes of the
 * threads still there. */
static void
relist (pid_t sampler_tid)
{
  static pid_t tids[MG_ACTIVITY_MAX_THREADS];
  bool more;
  int fd = mg_proc_file_fd (&task_dir);
  int n = fd < 0 ? -1 : mg_list_tasks (fd, tids, MG_ACTIVITY_MAX_THREADS, &more);
  mg_proc_file_done (&task_dir);
  if (n < 0)
    return;
  static Thread kept[MG_ACTIVITY_MAX_THREADS];
  int n_listed = 0;
  for (int i = 0; i < n; i++)
    {
      if (tids[i] == sampler_tid)
        continue;
      Thread t = { tids[i], -1, -1, CLASS_NONE };
      for (int k = 0; k < n_threads; k++)
        if (threads[k].tid == tids[i])
          {
            t = threads[k];
            threads[k].tid = 0; /* moved */
            break;
          }
      kept[n_listed++] = t;
    }
  for (int k = 0; k < n_threads; k++)
    if (threads[k].tid != 0)
      forget_thread (&threads[k]);
  for (int i = 0; i < n_listed; i++)
    threads[i] = kept[i];
  n_threads = n_listed;
  if (next_turn >= n_threads)
    next_turn = 0;
  rounds_since_list = 0;
}

/* The sampler thread's id, asked for once per process: the question
 * also reads its clock and usage (two system calls a round). 0 under
 * another host. */
static pid_t
sampler_thread_id (void)
{
  static pid_t tid;
  static unsigned asked_generation;
  if (tid == 0 || asked_generation != mg_forks_seen ())
    {
      struct metrograph_sampler_thread_usage self = { 0 };
      mg_sampler_usage (&self);
      tid = self.tid;
      asked_generation = mg_forks_seen ();
    }
  return tid;
}

/* Classes the main thread, and the next threads in turn. */
static void
read_round (const struct timespec *now)
{
  struct metrograph_sampler_thread_activity own;
  uint64_t count = 0;
  follow_fork ();
  mg_sampler_activity (now, 0, &own); /* nothing read: no system call */
  bool main_exited = own.main_thread_exited;
  /* The sampler's thread is left out; under another host (or a test) the
   * thread calling the getters is one of the program's. */
  pid_t sampler_tid = sampler_thread_id ();
  pid_t reader = sampler_tid != 0 ? sampler_tid : (pid_t) syscall (SYS_gettid);
  if (mg_thread_count (now, &task_dir, &count) != 0 || count != listed_count
      || ++rounds_since_list >= MG_ACTIVITY_RELIST_EVERY || n_threads == 0)
    {
      relist (sampler_tid);
      listed_count = count;
    }
  main_class = CLASS_NONE;
  int budget = MG_ACTIVITY_BUDGET;
  for (int i = 0; i < n_threads; i++)
    if (threads[i].tid == main_tid)
      main_class = threads[i].klass = classify (&threads[i], main_exited, reader);
  /* Not yet classed first, then in turn. */
  for (int i = 0; i < n_threads && budget > 0; i++)
    if (threads[i].klass == CLASS_NONE && threads[i].tid != main_tid)
      {
        threads[i].klass = classify (&threads[i], main_exited, reader);
        budget--;
      }
  for (int seen = 0; seen < n_threads && budget > 0; seen++)
    {
      Thread *t = &threads[next_turn];
      next_turn = (next_turn + 1) % n_threads;
      if (t->tid == main_tid)
        continue;
      t->klass = classify (t, main_exited, reader);
      budget--;
    }
  unsigned counts[N_CLASSES + 1] = { 0 };
  unsigned total = 0;
  for (int i = 0; i < n_threads; i++)
    {
      counts[threads[i].klass]++;
      total += threads[i].klass != CLASS_NONE;
    }
  for (int c = 0; c < N_CLASSES; c++)
    shares[c] = total ? 100.0 * counts[c] / total : 0;
}

static void
update (struct timespec *t)
{
  if (!mg_same_round (t, &round_ns))
    read_round (t);
}

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  struct stat st;
  mg_watch_forks ();
  forget_all ();
  mg_proc_file_close (&task_dir);
  main_tid = 0;
  round_ns = -1;
  int r = mg_proc_file_stat (&task_dir, &st);
  mg_proc_file_done (&task_dir);
  if (r != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "Activity: cannot open /proc/self/task "
                                         "(errno %d): is /proc mounted?", errno);
      return -1;
    }
  /* Present where the sampler carries the MPI wrapper (built with mpi.h). */
  mpi_threads = dlsym (RTLD_DEFAULT, "metrograph_mpi_threads");
  if (mpi_threads != NULL && mpi_threads->version != MG_MPI_THREADS_VERSION)
    mpi_threads = NULL;
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  forget_all ();
  mg_proc_file_close (&task_dir);
  return 0;
}

static int
main_share (struct timespec *t, int klass, double *out)
{
  update (t);
  *out = main_class == klass ? 100.0 : 0.0;
  return 0;
}

static int
all_share (struct timespec *t, int klass, double *out)
{
  update (t);
  *out = shares[klass];
  return 0;
}

#define GETTERS(name, klass)                                                     \
  MG_PLUGIN_EXPORT int mg_activity_main_##name (metric_id_t id, struct timespec *t, \
                                                double *out);                    \
  int mg_activity_main_##name (metric_id_t id, struct timespec *t, double *out)  \
  {                                                                              \
    return main_share (t, klass, out);                                           \
  }                                                                              \
  MG_PLUGIN_EXPORT int mg_activity_all_##name (metric_id_t id, struct timespec *t, \
                                               double *out);                     \
  int mg_activity_all_##name (metric_id_t id, struct timespec *t, double *out)   \
  {                                                                              \
    return all_share (t, klass, out);                                            \
  }

GETTERS (computing, CLASS_COMPUTING)
GETTERS (mpi, CLASS_MPI)
GETTERS (io, CLASS_IO)
GETTERS (sleep, CLASS_SLEEP)
GETTERS (lock, CLASS_LOCK)
GETTERS (other, CLASS_OTHER)
