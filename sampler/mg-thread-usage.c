/* The sampler thread's usage for the built-in plugins
 * (include/metrograph_plugin_ext.h). The thread announces itself when it
 * starts and leaves its final figures when it ends: getrusage cannot read
 * another thread's split, and an ended thread has no clock left, while its
 * time stays in the process's total. With the process's usage, it is read
 * once a round and shared by the plugins (CPU Time, Memory, Sampler
 * overhead each asked for it on their own). */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "metrograph_plugin_ext.h"
#include "mg-sampler-state.h"

static pid_t running_tid;
/* The round's figures (sampler thread only), keyed by its sample time. */
static int64_t round_ns = -1;
static struct rusage round_process;
static struct metrograph_sampler_thread_usage round_thread;
/* The thread's page faults in the same getrusage as round_thread: read
 * apart, a fault the thread took between the process's read and its own
 * (a first touch of a cold code page) would show as the program's. */
static uint64_t round_faults[2]; /* minor, major */
static struct metrograph_sampler_thread_usage final_usage;
/* Its figures as last read on it, for a round taken on another thread
 * while it waits (MPI_Finalize's last sample, sampler.md). */
static struct metrograph_sampler_thread_usage last_usage;
/* The figures of the process's earlier sampler threads (ended to let an
 * unshare or setns through, mg_sampler_pause): added to the running
 * thread's, so that the figures never run backwards and the program's
 * share (the process's less these) never jumps by them. */
static struct metrograph_sampler_thread_usage carried;
static uint64_t carried_faults[2], final_faults[2];
/* Which thread asks, without a gettid system call per round. */
static __thread bool on_sampler_thread __attribute__((tls_model ("initial-exec")));

static uint64_t
timeval_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

static void
add_carried (struct metrograph_sampler_thread_usage *out)
{
  out->cpu_ns += carried.cpu_ns;
  out->user_ns += carried.user_ns;
  out->system_ns += carried.system_ns;
  out->voluntary += carried.voluntary;
  out->involuntary += carried.involuntary;
}

/* The calling thread's usage: its clock, getrusage's split, switches. */
static int
read_own_usage (struct metrograph_sampler_thread_usage *out, uint64_t faults[2])
{
  struct timespec cpu;
  struct rusage ru;
  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu) != 0 || getrusage (RUSAGE_THREAD, &ru) != 0)
    return -1;
  out->cpu_ns = (uint64_t) cpu.tv_sec * 1000000000u + (uint64_t) cpu.tv_nsec;
  out->user_ns = timeval_ns (&ru.ru_utime);
  out->system_ns = timeval_ns (&ru.ru_stime);
  out->voluntary = (uint64_t) ru.ru_nvcsw;
  out->involuntary = (uint64_t) ru.ru_nivcsw;
  add_carried (out);
  if (faults)
    {
      faults[0] = carried_faults[0] + (uint64_t) ru.ru_minflt;
      faults[1] = carried_faults[1] + (uint64_t) ru.ru_majflt;
    }
  last_usage = *out;
  return 0;
}

/* The running sampler thread's usage, read on another thread: its clock
 * (exact, read by its id), the rest as last read on it. Left at 0, its
 * whole CPU time read as the program's in that round: the last sample
 * before MPI_Finalize of a 19 s LULESH run read 1224 %. */
static int
read_usage_elsewhere (pid_t tid, struct metrograph_sampler_thread_usage *out)
{
  /* The kernel's encoding of a thread's CPUCLOCK_SCHED clock id. */
  clockid_t clock = (clockid_t) (((unsigned) ~tid << 3) | 4u | 2u);
  struct timespec cpu;
  if (clock_gettime (clock, &cpu) != 0)
    return -1;
  *out = last_usage;
  uint64_t ns = (uint64_t) cpu.tv_sec * 1000000000u + (uint64_t) cpu.tv_nsec + carried.cpu_ns;
  if (ns > out->cpu_ns)
    out->cpu_ns = ns;
  return 0;
}

void
mg_thread_usage_reset (void)
{
  struct metrograph_sampler_thread_usage zero = { 0 };
  final_usage = zero;
  last_usage = zero;
  carried = zero;
  carried_faults[0] = carried_faults[1] = 0;
  final_faults[0] = final_faults[1] = 0;
  __atomic_store_n (&running_tid, 0, __ATOMIC_RELEASE);
}

void
mg_thread_usage_carry (void)
{
  carried = final_usage;
  carried.tid = 0;
  last_usage = final_usage;
  carried_faults[0] = final_faults[0];
  carried_faults[1] = final_faults[1];
  __atomic_store_n (&running_tid, 0, __ATOMIC_RELEASE);
}

void
mg_thread_usage_begin (void)
{
  on_sampler_thread = true;
  round_ns = -1;
  __atomic_store_n (&running_tid, (pid_t) syscall (SYS_gettid), __ATOMIC_RELEASE);
}

void
mg_thread_usage_end (void)
{
  struct metrograph_sampler_thread_usage u = { 0 };
  if (read_own_usage (&u, final_faults) == 0)
    final_usage = u;
  __atomic_store_n (&running_tid, 0, __ATOMIC_RELEASE);
}

bool
mg_thread_usage_on_sampler_thread (void)
{
  return on_sampler_thread;
}

__attribute__((visibility ("default"))) int
metrograph_get_sampler_thread_usage (struct metrograph_sampler_thread_usage *out)
{
  pid_t tid = __atomic_load_n (&running_tid, __ATOMIC_ACQUIRE);
  if (tid == 0)
    {
      *out = final_usage;
      out->tid = 0;
      return 0;
    }
  if (on_sampler_thread ? read_own_usage (out, NULL) != 0 : read_usage_elsewhere (tid, out) != 0)
    return -1;
  out->tid = tid;
  return 0;
}

/* The sampler thread's usage right after getrusage (RUSAGE_SELF) on it,
 * in one system call: RUSAGE_SELF brought the thread's run time up to date,
 * and RUSAGE_THREAD's user + system is that run time (the kernel scales its
 * split to it) to the microsecond of each timeval, where a read of its
 * clock was one more system call a round. */
static int
read_own_rusage (struct metrograph_sampler_thread_usage *out, uint64_t faults[2])
{
  struct rusage ru;
  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return -1;
  out->user_ns = timeval_ns (&ru.ru_utime);
  out->system_ns = timeval_ns (&ru.ru_stime);
  out->cpu_ns = out->user_ns + out->system_ns;
  out->voluntary = (uint64_t) ru.ru_nvcsw;
  out->involuntary = (uint64_t) ru.ru_nivcsw;
  add_carried (out);
  faults[0] = carried_faults[0] + (uint64_t) ru.ru_minflt;
  faults[1] = carried_faults[1] + (uint64_t) ru.ru_majflt;
  last_usage = *out;
  return 0;
}

/* Reads both now; the thread's usage is all 0 when it cannot be read here. */
static int
read_round_usage (struct rusage *process, struct metrograph_sampler_thread_usage *thread,
                  uint64_t faults[2])
{
  struct metrograph_sampler_thread_usage zero = { 0 };
  if (getrusage (RUSAGE_SELF, process) != 0)
    return -1;
  pid_t tid = __atomic_load_n (&running_tid, __ATOMIC_ACQUIRE);
  if (tid != 0 && on_sampler_thread && read_own_rusage (thread, faults) == 0)
    thread->tid = tid;
  else if (metrograph_get_sampler_thread_usage (thread) != 0)
    *thread = zero;
  return 0;
}

__attribute__((visibility ("default"))) int
metrograph_get_round_usage (const struct timespec *round, struct rusage *process,
                            struct metrograph_sampler_thread_usage *sampler_thread)
{
  struct rusage p;
  struct metrograph_sampler_thread_usage t;
  if (round != NULL && on_sampler_thread)
    {
      int64_t ns = (int64_t) round->tv_sec * 1000000000 + round->tv_nsec;
      if (ns != round_ns)
        {
          if (read_round_usage (&round_process, &round_thread, round_faults) != 0)
            {
              round_ns = -1;
              return -1;
            }
          round_ns = ns;
        }
      p = round_process;
      t = round_thread;
    }
  else if (read_round_usage (&p, &t, (uint64_t[2]) { 0, 0 }) != 0)
    return -1;
  if (process)
    *process = p;
  if (sampler_thread)
    *sampler_thread = t;
  return 0;
}

bool
mg_thread_usage_round_faults (const struct timespec *round, uint64_t *minor, uint64_t *major)
{
  if (round == NULL || !on_sampler_thread || __atomic_load_n (&running_tid, __ATOMIC_ACQUIRE) == 0
      || metrograph_get_round_usage (round, NULL, NULL) != 0)
    return false;
  *minor = round_faults[0];
  *major = round_faults[1];
  return true;
}
