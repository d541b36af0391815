/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Built-in metric plugin "CPU Time": CPU time percentages, context switches
 * and the node's running threads, with MAP's ids and meanings.
 *
 * The process's CPU time has to be right for each 20 ms sample, not only on
 * average. The kernel keeps it as the sum of its threads' scheduler run
 * times (ns), but a thread running on another CPU has its sum brought up to
 * date only at that CPU's scheduler tick (4 ms at HZ=250, 10 ms at HZ=100).
 * The getters run on the sampler's own thread, so getrusage(RUSAGE_SELF),
 * clock_gettime(CLOCK_PROCESS_CPUTIME_ID) and /proc/self/schedstat (which
 * besides covers the main thread only) all lag by up to a tick per busy
 * thread: a busy thread sampled every 20 ms reads 80-120% (HZ=250) or
 * 50-150% (HZ=100). A thread's own CPU clock (CLOCK_THREAD_CPUTIME_ID of its
 * tid) is brought up to date when read, even while the thread runs
 * elsewhere. So each round:
 *
 * - getrusage(): the kernel's total (which includes ended threads), its
 *   user/system split (the kernel scales the total by the ratio of user and
 *   system ticks) and the context switches, in one system call;
 * - for up to MAX_THREADS threads (listed by getdents64 of /proc/self/task,
 *   kept open, when their number changed), one clock_gettime() each: the
 *   sum of their increases since the previous round is the exact increase
 *   of the total;
 * - total = max(previous total + that increase, getrusage's total): the
 *   first term is exact to the microsecond while threads live; the second
 *   catches up with time the first cannot see (threads that ended between
 *   two rounds) and is used alone for processes with more threads, whose
 *   cost would otherwise grow with their number;
 * - user and system: the total split by getrusage's ratio, each kept from
 *   running backwards, so that user + system == total in every round.
 *
 * The sampler's own thread is not the program: its CPU time, its share of
 * the user/system split and its context switches (mg_sampler_usage) are
 * left out of every figure, and its clock out of the per-thread sum. Under
 * a host that does not say, they stay in.
 *
 * All of it is async-signal-safe system calls: no libc state. */
#include <sys/resource.h>
#include <sys/syscall.h>

#include "mg-metric-util.h"

#define MAX_THREADS 32

typedef struct {
  uint64_t cpu_ns, user_ns, system_ns;
  uint64_t voluntary, involuntary;
} CpuSnapshot;

/* The threads seen in the previous round and their CPU clocks. */
typedef struct {
  bool valid; /* false: the next round only takes a new baseline */
  int n;
  pid_t tids[MAX_THREADS];
  uint64_t clock_ns[MAX_THREADS];
} ThreadClocks;

static CpuSnapshot cur;
static int64_t cur_round;
static struct timespec cur_read_time; /* when cur was read */
static ThreadClocks threads;
static unsigned cur_generation; /* mg_forks_seen () at cur */
/* The sampler thread's id, kept once it has ended (its usage then says 0):
 * the kernel lists it a moment after its joiner returns, and its clock,
 * never in the baseline, would read whole as the program's. */
static pid_t known_sampler_tid;
static int physical_cores = 1;
static MgProcFile loadavg_file = MG_PROC_FILE ("/proc/loadavg");
static MgProcFile task_dir = MG_PROC_FILE (MG_PROC_TASK_DIR);

/* The previous value each getter saw, so each returns its own delta. */
static CpuSnapshot prev_cpu, prev_user, prev_system, prev_vol, prev_invol;

static uint64_t
timeval_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

/* a - b, or 0 where b is more (a figure of the sampler's own thread, read
 * after the process's). */
static uint64_t
less (uint64_t a, uint64_t b)
{
  return a > b ? a - b : 0;
}

/* The CPU clock of thread tid of this process (the kernel's encoding of a
 * per-thread CPUCLOCK_SCHED clock id, as glibc's pthread_getcpuclockid). */
static int
thread_clock_ns (pid_t tid, uint64_t *ns)
{
  clockid_t clock = (clockid_t) (((unsigned) ~tid << 3) | 4u | 2u);
  struct timespec ts;
  if (clock_gettime (clock, &ts) != 0)
    return -1;
  *ns = (uint64_t) mg_timespec_ns (&ts);
  return 0;
}

/* The threads of the process (at most MAX_THREADS), from the kept-open
 * task folder; -1 when there are more or it cannot be listed. */
static int
list_threads (pid_t *tids)
{
  int fd = mg_proc_file_fd (&task_dir);
  bool more;
  int n = fd < 0 ? -1 : mg_list_tasks (fd, tids, MAX_THREADS, &more);
  mg_proc_file_done (&task_dir);
  return n >= 0 && more ? -1 : n;
}

/* Reads the threads' CPU clocks; a thread that has ended gets UINT64_MAX.
 * Returns false when one had. */
static bool
read_clocks_once (const pid_t *tids, int n, pid_t sampler_tid, uint64_t *clocks)
{
  bool all = true;
  for (int i = 0; i < n; i++)
    if (tids[i] == sampler_tid)
      clocks[i] = 0; /* not the program's: adds nothing */
    else if (thread_clock_ns (tids[i], &clocks[i]) != 0)
      {
        clocks[i] = UINT64_MAX;
        all = false;
      }
  return all;
}

/* The most the clocks' reads may spread over before they are read again:
 * the sampler preempted among them (a scheduler tick, 4 ms) would date a
 * busy thread's clock too late, and it read 81 % in one sample and
 * 119 % in the next. */
#define CLOCKS_SPREAD_NS 100000
#define CLOCKS_ATTEMPTS 3

/* read_clocks_once with *at, a time the clocks are right for: up to
 * CLOCKS_ATTEMPTS reads, until one took no more than CLOCKS_SPREAD_NS. */
static bool
read_clocks (const pid_t *tids, int n, pid_t sampler_tid, uint64_t *clocks,
             struct timespec *at)
{
  for (int attempt = 1;; attempt++)
    {
      struct timespec before = allinea_get_current_time ();
      bool all = read_clocks_once (tids, n, sampler_tid, clocks);
      *at = allinea_get_current_time ();
      if (mg_timespec_ns (at) - mg_timespec_ns (&before) <= CLOCKS_SPREAD_NS
          || attempt == CLOCKS_ATTEMPTS)
        return all;
    }
}

/* The exact increase of the process's CPU time since the previous round,
 * from its threads' clocks; false when it cannot be known this round (too
 * many threads, or no baseline yet), and the total then comes from
 * getrusage alone. The threads are listed again (getdents64) only when
 * their number (mg_thread_count: the task directory's link count, read once
 * a round for this plugin and Threads) changed or one of them has ended. */
static bool
threads_cpu_increase (const struct timespec *now, pid_t sampler_tid, uint64_t *increase,
                      struct timespec *read_at)
{
  pid_t tids[MAX_THREADS] = { 0 };
  uint64_t clocks[MAX_THREADS];
  uint64_t count;
  if (mg_thread_count (now, &task_dir, &count) != 0 || count > MAX_THREADS)
    {
      threads.valid = false;
      return false;
    }
  int n = -1;
  if (threads.valid && (int) count == threads.n)
    {
      n = threads.n;
      for (int i = 0; i < n; i++)
        tids[i] = threads.tids[i];
      if (!read_clocks (tids, n, sampler_tid, clocks, read_at))
        n = -1;
    }
  if (n < 0)
    {
      n = list_threads (tids);
      if (n < 0)
        {
          threads.valid = false;
          return false;
        }
      read_clocks (tids, n, sampler_tid, clocks, read_at);
    }
  uint64_t sum = 0;
  int kept = 0;
  for (int i = 0; i < n; i++)
    {
      if (clocks[i] == UINT64_MAX)
        continue; /* ended since it was listed: getrusage has its time */
      uint64_t before = 0; /* a thread started since the previous round */
      for (int k = 0; k < threads.n; k++)
        if (threads.tids[k] == tids[i])
          {
            before = threads.clock_ns[k];
            break;
          }
      sum += clocks[i] > before ? clocks[i] - before : 0;
      tids[kept] = tids[i];
      clocks[kept++] = clocks[i];
    }
  bool had_baseline = threads.valid;
  threads.n = kept;
  for (int k = 0; k < kept; k++)
    {
      threads.tids[k] = tids[k];
      threads.clock_ns[k] = clocks[k];
    }
  threads.valid = true;
  *increase = sum;
  return had_baseline;
}

/* Splits the new total into user and system by getrusage's ratio, keeping
 * both from running backwards (the total never does). */
static void
split_total (CpuSnapshot *s, uint64_t total, uint64_t ru_user, uint64_t ru_system)
{
  uint64_t system = 0;
  if (ru_user + ru_system > 0)
    system = (uint64_t) ((double) total * ((double) ru_system
                                           / (double) (ru_user + ru_system)));
  if (system > total)
    system = total;
  if (system < s->system_ns)
    system = s->system_ns;
  uint64_t user = total - system;
  if (user < s->user_ns)
    {
      user = s->user_ns;
      system = total - user;
    }
  s->cpu_ns = total;
  s->user_ns = user;
  s->system_ns = system;
}

/* The new values of *s (the previous round's, or zeros for a baseline) at
 * the round of sample time now (NULL: a baseline, read now). */
static int
take_snapshot (CpuSnapshot *s, const struct timespec *now)
{
  struct rusage ru;
  struct metrograph_sampler_thread_usage self;
  if (mg_round_usage (now, &ru, &self) != 0)
    return -1;
  uint64_t ru_user = less (timeval_ns (&ru.ru_utime), self.user_ns);
  uint64_t ru_system = less (timeval_ns (&ru.ru_stime), self.system_ns);
  /* getrusage's total is the threads' exact run times summed (then split):
   * the sampler's exact clock comes off it. */
  uint64_t total = less (timeval_ns (&ru.ru_utime) + timeval_ns (&ru.ru_stime), self.cpu_ns);
  uint64_t increase;
  /* When the threads' clocks were read (then the time they are right for),
   * or not: then now, after getrusage. */
  struct timespec read_at = { 0, 0 };
  if (self.tid != 0)
    known_sampler_tid = self.tid;
  if (threads_cpu_increase (now, known_sampler_tid, &increase, &read_at) && s->cpu_ns + increase > total)
    total = s->cpu_ns + increase;
  if (total < s->cpu_ns)
    total = s->cpu_ns;
  split_total (s, total, ru_user, ru_system);
  cur_read_time = mg_timespec_ns (&read_at) > 0 ? read_at : allinea_get_current_time ();
  s->voluntary = less ((uint64_t) ru.ru_nvcsw, self.voluntary);
  s->involuntary = less ((uint64_t) ru.ru_nivcsw, self.involuntary);
  return 0;
}

/* A new baseline: at initialisation, the process's times now; in a forked
 * child, zero, since its times start again from 0 at the fork and the
 * child's first sample covers the time since then (the sampler's first
 * sample window in a child starts at the fork). */
static int
take_baseline (bool forked_child)
{
  CpuSnapshot zero = { 0 };
  cur = zero;
  threads.valid = false;
  threads.n = 0;
  cur_generation = mg_forks_seen ();
  cur_round = 0;
  known_sampler_tid = 0; /* a forked child's sampler is a new thread */
  prev_cpu = prev_user = prev_system = prev_vol = prev_invol = zero;
  if (forked_child)
    return 0;
  if (take_snapshot (&cur, NULL) != 0)
    return -1;
  prev_cpu = prev_user = prev_system = prev_vol = prev_invol = cur;
  return 0;
}

static int
refresh (metric_id_t id, const struct timespec *now)
{
  if (cur_generation != mg_forks_seen ())
    take_baseline (true);
  if (mg_same_round (now, &cur_round))
    return 0;
  if (take_snapshot (&cur, now) != 0)
    {
      cur_round = 0;
      allinea_set_metric_error_messagef (id, errno,
                                         "getrusage failed (errno %d)", errno);
      return -1;
    }
  return 0;
}

MG_PLUGIN_EXPORT int allinea_plugin_initialize (plugin_id_t plugin_id, void *data);
MG_PLUGIN_EXPORT int allinea_plugin_cleanup (plugin_id_t plugin_id, void *data);

int
allinea_plugin_initialize (plugin_id_t plugin_id, void *data)
{
  mg_watch_forks ();
  if (take_baseline (false) != 0)
    {
      allinea_set_plugin_error_messagef (plugin_id, errno,
                                         "CPU Time: getrusage failed: errno %d",
                                         errno);
      return -1;
    }
  int cores = allinea_get_physical_core_count ();
  if (cores <= 0)
    cores = allinea_get_logical_core_count ();
  physical_cores = cores > 0 ? cores : 1;
  return 0;
}

int
allinea_plugin_cleanup (plugin_id_t plugin_id, void *data)
{
  mg_proc_file_close (&loadavg_file);
  mg_proc_file_close (&task_dir);
  return 0;
}

/* Seconds of CPU consumed since the previous call: the sampler divides by
 * the sample time and multiplies by 100 (units "%", divideBySampleTime). */
#define SECONDS_GETTER(name, field, prev)                                      \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, double *out); \
  int name (metric_id_t id, struct timespec *t, double *out)                   \
  {                                                                            \
    if (refresh (id, t) != 0)                                                  \
      return -1;                                                               \
    uint64_t d = cur.field >= prev.field ? cur.field - prev.field : 0;         \
    prev.field = cur.field;                                                    \
    *out = (double) d / 1e9;                                                   \
    mg_report_read_time (t, &cur_read_time);                                   \
    return 0;                                                                  \
  }

#define COUNT_GETTER(name, field, prev)                                          \
  MG_PLUGIN_EXPORT int name (metric_id_t id, struct timespec *t, uint64_t *out); \
  int name (metric_id_t id, struct timespec *t, uint64_t *out)                   \
  {                                                                              \
    if (refresh (id, t) != 0)                                                    \
      return -1;                                                                 \
    *out = cur.field >= prev.field ? cur.field - prev.field : 0;                 \
    prev.field = cur.field;                                                      \
    mg_report_read_time (t, &cur_read_time);                                     \
    return 0;                                                                    \
  }

SECONDS_GETTER (mg_cpu_time, cpu_ns, prev_cpu)
SECONDS_GETTER (mg_cpu_user_time, user_ns, prev_user)
SECONDS_GETTER (mg_cpu_system_time, system_ns, prev_system)
COUNT_GETTER (mg_cpu_voluntary_switches, voluntary, prev_vol)
COUNT_GETTER (mg_cpu_involuntary_switches, involuntary, prev_invol)

/* Runnable threads on the node (4th field of /proc/loadavg, "running/total")
 * as a percentage of the physical cores. The count includes the thread that
 * is reading it. */
MG_PLUGIN_EXPORT int mg_cpu_loadavg (metric_id_t id, struct timespec *t, double *out);
int
mg_cpu_loadavg (metric_id_t id, struct timespec *t, double *out)
{
  char buf[128];
  if (mg_proc_file_read (&loadavg_file, buf, sizeof buf) < 0)
    {
      allinea_set_metric_error_messagef (id, errno,
                                         "cannot read /proc/loadavg (errno %d)",
                                         errno);
      return -1;
    }
  const char *p = buf;
  for (int field = 0; field < 3; field++)
    {
      p = mg_skip_spaces (p);
      while (*p && *p != ' ')
        p++;
    }
  uint64_t running = mg_parse_u64 (&p);
  *out = (double) running * 100.0 / physical_cores;
  return 0;
}
