/* The sampler thread's usage for the built-in plugins
 * (include/metrograph_plugin_ext.h). The thread announces itself when it
 * starts and leaves its final figures when it ends: getrusage cannot read
 * another thread's split, and an ended thread has no clock left, while its
 * time stays in the process's total. */
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "metrograph_plugin_ext.h"
#include "mg-sampler-state.h"

static pid_t running_tid;
static struct metrograph_sampler_thread_usage final_usage;
/* Which thread asks, without a gettid system call per round. */
static __thread bool on_sampler_thread __attribute__((tls_model ("initial-exec")));

static uint64_t
timeval_ns (const struct timeval *tv)
{
  return (uint64_t) tv->tv_sec * 1000000000u + (uint64_t) tv->tv_usec * 1000u;
}

/* The calling thread's usage: its clock, getrusage's split, switches. */
static int
read_own_usage (struct metrograph_sampler_thread_usage *out)
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
  return 0;
}

void
mg_thread_usage_reset (void)
{
  struct metrograph_sampler_thread_usage zero = { 0 };
  final_usage = zero;
  __atomic_store_n (&running_tid, 0, __ATOMIC_RELEASE);
}

void
mg_thread_usage_begin (void)
{
  on_sampler_thread = true;
  __atomic_store_n (&running_tid, (pid_t) syscall (SYS_gettid), __ATOMIC_RELEASE);
}

void
mg_thread_usage_end (void)
{
  struct metrograph_sampler_thread_usage u = { 0 };
  if (read_own_usage (&u) == 0)
    final_usage = u;
  __atomic_store_n (&running_tid, 0, __ATOMIC_RELEASE);
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
  if (!on_sampler_thread || read_own_usage (out) != 0)
    return -1;
  out->tid = tid;
  return 0;
}
