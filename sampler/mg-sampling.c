/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sampling thread and one sampling round. A round touches only
 * preallocated memory: the mapped record and the runtime tables. */
#include <errno.h>
#include <linux/futex.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "allinea_safe_syscalls.h"

#include "mg-plugin-guard.h"
#include "mg-sampler-hooks.h"
#include "mg-sampler-state.h"
#include "mg-seccomp.h"
#include "mg-scorep-host.h"
#include "mg-stacks.h"

static struct timespec
ns_to_ts (int64_t ns)
{
  struct timespec ts = { (time_t) (ns / 1000000000), (long) (ns % 1000000000) };
  return ts;
}

static int64_t
ts_to_ns (const struct timespec *ts)
{
  return (int64_t) ts->tv_sec * 1000000000 + ts->tv_nsec;
}

typedef struct {
  MgSampler *s;
  size_t m;
  struct timespec *t;
  double *out;
} GetterArgs;

/* Calls metric m's getter with the type its dataType names. A value equal to
 * the pre-filled sentinel (~0 / NaN) or a non-zero return is no value. */
static int
getter_value (void *data)
{
  GetterArgs *a = data;
  metric_id_t id = (metric_id_t) (a->m + 1);
  if (mg_scorep_owns_metric (a->s, a->m))
    return mg_scorep_read (a->s, a->m, ts_to_ns (a->t), a->out);
  if (a->s->plan.metrics[a->m].is_double)
    {
      double v = NAN;
      int ret = ((MgDoubleGetter) a->s->metrics[a->m].getter) (id, a->t, &v);
      if (ret != 0 || isnan (v))
        return false;
      *a->out = v;
    }
  else
    {
      uint64_t v = UINT64_MAX;
      int ret = ((MgU64Getter) a->s->metrics[a->m].getter) (id, a->t, &v);
      if (ret != 0 || v == UINT64_MAX)
        return false;
      *a->out = (double) v;
    }
  return true;
}

int64_t
mg_sampling_hang_bound_ns (const MgSampler *s)
{
  return (int64_t) s->plan.hang_intervals * s->plan.interval_ms * 1000000;
}

/* The watch's tick: a quarter of the shorter limit, so that a call is
 * abandoned at most a quarter late, but not more often than every 10 ms
 * nor less than every second. */
int64_t
mg_sampling_watch_period_ns (const MgSampler *s)
{
  int64_t bound = mg_sampling_hang_bound_ns (s);
  int64_t lifecycle = (int64_t) s->plan.plugin_limit_ms * 1000000;
  int64_t period = (bound < lifecycle ? bound : lifecycle) / 4;
  if (period < 10 * 1000000)
    return 10 * 1000000;
  return period > 1000000000 ? 1000000000 : period;
}

/* The getter under the fault guard and the time limit (the hang bound): a
 * crash in it is no value, and stops its plugin at this sample; so does a
 * call that runs past the bound, abandoned there so that the other
 * metrics sample on. The call is published in the record while it runs
 * (the front end names a getter that does not return). */
static bool
call_getter (MgSampler *s, size_t m, struct timespec *t, double *out, int64_t since_ns,
             uint64_t sample)
{
  GetterArgs args = { s, m, t, out };
  MgPluginCall call = { s->plan.metrics[m].source, s->plan.metrics[m].getter, since_ns,
                        mg_sampling_hang_bound_ns (s) };
  uint32_t *published = &s->rec.metrics[m].call_since_ms;
  int ok = false;
  __atomic_store_n (published, (uint32_t) ((since_ns - s->start_ns) / 1000000) + 1,
                    __ATOMIC_RELAXED);
  int sig = mg_plugin_guard_call (&call, getter_value, &args, &ok);
  __atomic_store_n (published, 0, __ATOMIC_RELAXED);
  if (sig == MG_PLUGIN_GUARD_TIMED_OUT)
    {
      mg_plugin_guard_timed_out (s, &call, sample);
      s->round_late = true;
    }
  else if (sig != 0)
    mg_plugin_guard_disable (s, &call, sig, sample);
  return sig == 0 && ok;
}


static MgRecordValue
single (double v)
{
  MgRecordValue out = { v, v, v, 1, 0 };
  return out;
}

/* divideBySampleTime: per second from prev_ns to t_ns, x100 for "%". */
static bool
divide (const MgPlanMetric *pm, double *v, int64_t t_ns, int64_t prev_ns)
{
  if (!pm->divide)
    return true;
  if (t_ns <= prev_ns)
    return false;
  *v = *v / ((double) (t_ns - prev_ns) / 1e9);
  if (pm->percent)
    *v *= 100.0;
  return true;
}

/* A round's divideBySampleTime values, once its slot's end is known. A
 * rate of a count is divided by the time from the end of the metric's
 * previous sample to the end of this slot, the span the viewer draws it
 * over, so that the rate integrated over the slots is the count: divided
 * by its own read times it was not, whenever a round's reads spread (a
 * loaded machine), and energy integrated from power was 3 % off. A
 * percentage is a share of the time its value was measured over, so it is
 * divided by its own read times: over the slot, a busy thread read 75 % in
 * a slot longer than its reads' span and time in MPI 101 % in a shorter one. */
static void
divide_round (MgSampler *s, MgRecordValue *vals, int64_t t_end)
{
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      const MgPlanMetric *pm = &s->plan.metrics[m];
      MgMetricRt *rt = &s->metrics[m];
      int64_t end = pm->percent ? rt->read_ns : t_end;
      double v = vals[m].mean;

      if (!pm->divide || vals[m].count == 0)
        continue;
      if (divide (pm, &v, end, rt->prev_ns))
        {
          vals[m] = single (v);
          rt->prev_ns = end;
        }
      else
        vals[m] = (MgRecordValue) { 0 };
    }
}

void
mg_sampling_round (MgSampler *s, int64_t now_ns)
{
  MgRecordWriter *w = &s->rec;
  MgRecordHeader *h = w->header;
  if (h->flags & MG_RECORD_FLAG_STOPPED)
    return;
  if (h->n_samples >= h->capacity)
    mg_record_merge (w);
  /* The slot's blocks are reserved here, on the sampler thread (or the
   * thread that ends the process): a full disk stops the record, with its
   * reason, rather than a SIGBUS in the program. */
  if (!mg_record_touch_next (w))
    {
      mg_log ("%s; recording stopped", h->record_error);
      return;
    }
  mg_stacks_round (s);
  uint32_t n = h->n_samples;
  MgRecordSample *slot = mg_record_slot (w, n);
  MgRecordValue *vals = mg_record_slot_values (slot);
  int64_t t_end = now_ns;
  /* After a call abandoned at the hang bound, the getters that follow read
   * at their own time, so that the slot spans the gap the hang left and
   * their values are drawn over it (not squeezed into one interval). */
  int64_t read_at = now_ns;
  s->round_late = false;

  for (size_t m = 0; m < s->plan.n_metrics; m++)
    {
      const MgPlanMetric *pm = &s->plan.metrics[m];
      MgMetricRt *rt = &s->metrics[m];
      MgRecordValue value = { 0 };
      if (s->round_late)
        read_at = mg_now_ns ();
      struct timespec ts = ns_to_ts (read_at);
      double v;
      if (rt->active && !pm->backfill && call_getter (s, m, &ts, &v, now_ns, s->rounds + 1))
        {
          /* The getter may move the time forward, never back. */
          int64_t t = ts_to_ns (&ts);
          if (t < read_at)
            t = read_at;
          if (t > t_end)
            t_end = t;
          rt->read_ns = t;
          value = single (v);
        }
      vals[m] = value;
    }
  if (s->round_late)
    {
      int64_t after = mg_now_ns ();
      if (after > t_end)
        t_end = after;
    }
  divide_round (s, vals, t_end);
  slot->t_start_ns = n ? mg_record_slot (w, n - 1)->t_end_ns : s->sampling_start_ns;
  slot->t_end_ns = t_end;
  slot->n_raw = 1;
  slot->reserved = 0;
  mg_scorep_collect (s, slot, n);
  mg_stacks_drain (s, n);
  mg_record_commit (w);
  /* The next slot too, while on the sampler thread: the process's last
   * round, on the thread that ends it, finds it touched (or the record
   * stopped, said at the next round). */
  (void) mg_record_touch_next (w);
}

int64_t
mg_sampling_life_end (const MgSampler *s)
{
  const MgRecordHeader *h = s->rec.header;
  int64_t now = mg_now_ns ();
  if ((h && (h->flags & MG_RECORD_FLAG_STOPPED)) || s->sampling_ended
      || now <= s->sampling_start_ns)
    return 0;
  return now;
}

void
mg_sampling_life_slot (MgSampler *s)
{
  MgRecordWriter *w = &s->rec;
  MgRecordHeader *h = w->header;
  int64_t now = mg_sampling_life_end (s);
  uint32_t n = h->n_samples;

  if (now == 0 || n >= h->capacity || !mg_record_touch_next (w))
    return;
  MgRecordSample *slot = mg_record_slot (w, n);
  MgRecordValue *vals = mg_record_slot_values (slot);
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    vals[m] = (MgRecordValue) { 0 };
  slot->t_start_ns = n ? mg_record_slot (w, n - 1)->t_end_ns : s->sampling_start_ns;
  slot->t_end_ns = now;
  slot->n_raw = 1;
  slot->reserved = 0;
  mg_record_commit (w);
}

/* The round a process takes as it ends, so that one ending before the
 * first interval (a short tool, a quick test) still leaves a sample. None
 * before --start-after or after --stop-after, and none when the last round
 * ended less than half an interval ago: a sliver of a window would turn a
 * few events into a wild rate. Runs after the thread stopped, so nothing
 * writes the record concurrently. */
void
mg_sampling_final_round (MgSampler *s)
{
  MgRecordHeader *h = s->rec.header;
  int64_t now = mg_now_ns ();
  uint32_t n = h->n_samples;

  if (s->sampling_ended || now <= s->sampling_start_ns)
    return;
  if (n > 0 && now - mg_record_slot (&s->rec, n - 1)->t_end_ns < (int64_t) h->interval_ns / 2)
    {
      /* No round for less than half an interval: the stack samples taken
       * since the last one go to the last slot rather than nowhere (they
       * read as "not stored" otherwise). */
      mg_stacks_drain (s, n - 1);
      return;
    }
  mg_sampling_round (s, now);
}

void
mg_sampling_backfill (MgSampler *s)
{
  MgRecordWriter *w = &s->rec;
  bool any = false;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    any |= s->metrics[m].active && s->plan.metrics[m].backfill;
  if (!any)
    return;

  mg_record_begin_rewrite (w);
  uint32_t n = w->header->n_samples;
  for (uint32_t i = 0; i < n; i++)
    {
      MgRecordSample *slot = mg_record_slot (w, i);
      MgRecordValue *vals = mg_record_slot_values (slot);
      for (size_t m = 0; m < s->plan.n_metrics; m++)
        {
          const MgPlanMetric *pm = &s->plan.metrics[m];
          if (!s->metrics[m].active || !pm->backfill)
            continue; /* also once its plugin crashed in an earlier slot */
          struct timespec ts = ns_to_ts (slot->t_end_ns);
          double v;
          MgRecordValue value = { 0 };
          if (call_getter (s, m, &ts, &v, mg_now_ns (), i + 1)
              && divide (pm, &v, slot->t_end_ns, slot->t_start_ns))
            value = single (v);
          if (ts_to_ns (&ts) != slot->t_end_ns)
            mg_hook_metric_error ((metric_id_t) (m + 1), EINVAL,
                                  "backfill getter changed currentSampleTime");
          vals[m] = value;
        }
    }
  mg_record_end_rewrite (w);
  __atomic_or_fetch (&w->header->flags, MG_RECORD_FLAG_BACKFILLED, __ATOMIC_RELEASE);
}

/* Sleeps until the CLOCK_MONOTONIC time wake_ns or a stop request, whichever
 * comes first, without s->lock: one futex wait on an absolute deadline (no
 * drift, as clock_nanosleep with TIMER_ABSTIME, but wakeable at once). A
 * condition variable cost one more system call a round: glibc takes the
 * mutex back from a wait as contended, so every unlock after it was a
 * FUTEX_WAKE. */
static void
sleep_until (MgSampler *s, int64_t wake_ns)
{
  struct timespec deadline = ns_to_ts (wake_ns);
  while (__atomic_load_n (&s->stop_word, __ATOMIC_ACQUIRE) == 0 && mg_now_ns () < wake_ns)
    {
      /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline. */
      long rc = syscall (SYS_futex, &s->stop_word, FUTEX_WAIT_BITSET_PRIVATE, 0, &deadline,
                         NULL, FUTEX_BITSET_MATCH_ANY);
      if (rc != 0 && errno == ETIMEDOUT)
        return;
    }
}

void
mg_sampling_request_stop (MgSampler *s)
{
  mg_sampling_mark_stop (s);
  syscall (SYS_futex, &s->stop_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void
mg_sampling_mark_stop (MgSampler *s)
{
  s->stop_requested = true;
  __atomic_store_n (&s->stop_word, 1, __ATOMIC_RELEASE);
}

/* True when the main thread has called pthread_exit and is gone (a
 * zombie, listed until the process ends) and no other thread of the
 * program is left: the sampler's is the last one. One stat of the task
 * folder a round, and only in a program whose main thread left; the
 * process's state only once the threads are down to those two. Read
 * through allinea_safe_*, so that the IO metrics leave it out. */
static bool
program_gone (MgSampler *s)
{
  struct stat st;
  char text[512];
  if (!__atomic_load_n (&s->main_exited, __ATOMIC_ACQUIRE)
      || stat ("/proc/self/task", &st) != 0 || st.st_nlink > 2 + 2)
    return false;
  int fd = allinea_safe_open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ssize_t n = allinea_safe_read (fd, text, sizeof text - 1);
  allinea_safe_close (fd);
  if (n <= 0)
    return false;
  text[n] = '\0';
  /* "pid (comm) S ...": the state follows the last ')'. */
  const char *paren = strrchr (text, ')');
  return paren != NULL && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}

/* On the sampler thread, once it has left its loop because no thread of
 * the program is left (its main thread called pthread_exit, then the
 * others ended): what glibc does when the last thread ends, exit(0),
 * which the sampler thread would otherwise prevent for ever. */
static _Noreturn void
exit_for_program (MgSampler *s)
{
  /* This thread has left its loop: the exit's last round need not (and
   * could not) join it. */
  s->thread_started = false;
  mg_log ("the program's last thread has ended (its main thread called pthread_exit): "
          "the process exits with status 0");
  exit (0);
}

/* The calling thread's CPU and affinity, by system call rather than
 * libc's wrappers: the first call of each wrapper in a process was a lazy
 * binding (the symbol looked up through every loaded object's tables and
 * the sampler's GOT written), in every fork child and every exec'd image
 * that starts its thread pinned; syscall() is bound by then. */
static int
this_cpu (void)
{
  unsigned cpu;
  return syscall (SYS_getcpu, &cpu, NULL, NULL) == 0 ? (int) cpu : -1;
}

static int
get_affinity (cpu_set_t *mask)
{
  /* The kernel writes its own mask's size, which may be less. */
  CPU_ZERO (mask);
  return syscall (SYS_sched_getaffinity, 0, sizeof *mask, mask) > 0 ? 0 : -1;
}

static int
set_affinity (const cpu_set_t *mask)
{
  return syscall (SYS_sched_setaffinity, 0, sizeof *mask, mask) == 0 ? 0 : -1;
}

/* Back to the mask a pinned thread (or its creator) had; to every CPU
 * (the kernel keeps to those the cpuset allows) should that mask no longer
 * be allowed, never left on one CPU. */
static void
unpin (const cpu_set_t *mask)
{
  if (set_affinity (mask) != 0)
    {
      cpu_set_t any;
      memset (&any, 0xff, sizeof any);
      set_affinity (&any);
    }
}

void
mg_sampling_stop_under_filter (MgSampler *s)
{
  if (s->rec.header == NULL || s->rec.in_memory)
    return;
  /* A process filtered before its first round still shows its life (its
   * first slot's blocks were reserved with the record: memory only). */
  if (s->rec.header->n_samples == 0)
    mg_sampling_life_slot (s);
  mg_seccomp_stop_record (s->rec.header);
}

/* Under a seccomp filter (the program's, made for every thread with
 * SECCOMP_FILTER_FLAG_TSYNC, or inherited from the thread that made this
 * one), any system call of ours may be one that kills the process
 * (openat, read and getdents64 of a round did, at its first round): the
 * thread makes none but its waits until the end asks it to stop, and
 * then ends by the exit system call itself (glibc's end of a thread
 * makes others, madvise). Its record says why it stopped. */
static _Noreturn void
park_under_filter (MgSampler *s, bool locked)
{
  mg_sampling_stop_under_filter (s);
  __atomic_store_n (&s->seccomp_parked, true, __ATOMIC_RELEASE);
  if (locked)
    pthread_mutex_unlock (&s->lock);
  while (__atomic_load_n (&s->stop_word, __ATOMIC_ACQUIRE) == 0)
    sleep_until (s, INT64_MAX);
  for (;;)
    syscall (SYS_exit, 0);
}

static void *
thread_main (void *data)
{
  MgSampler *s = data;
  int not_begun = MG_THREAD_NOT_BEGUN;
  if (!__atomic_compare_exchange_n (&s->thread_state, &not_begun, MG_THREAD_RUNNING, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return NULL; /* called off by the process's end before it began */
  /* The plan's interval, the record's: a fork child's record is laid out
   * below, under the lock. */
  int64_t interval_ns = (int64_t) s->plan.interval_ms * 1000000;
  int64_t next = s->sampling_start_ns + interval_ns;
  int64_t stop_at = s->plan.stop_after_ms
                      ? s->start_ns + (int64_t) s->plan.stop_after_ms * 1000000
                      : INT64_MAX;
  bool reached_stop = false, gone = false;

  /* Named by itself: glibc names another thread by writing its
   * /proc/self/task/TID/comm, a write(2) that the IO metrics would charge
   * to the program; its own name is one prctl. */
  pthread_setname_np (pthread_self (), "mg-sampler");
  /* The plugins wait a quarter of an interval from the process's start
   * (not from --start-after: they start with the process): one that ends
   * (or execs) before, most of a build's or a script's, never loads them,
   * nor waits at its end for one being loaded. */
  if (s->plugins_pending)
    sleep_until (s, s->start_ns + interval_ns / 4);
  /* A fork child with the plugins it inherited has nothing to do before
   * its first round: it sleeps at once, and its watch and record wait for
   * that round (most exec before: a shell's command). Laid out here, the
   * record (a 10 MB mapping, its tables) and the watch's timer cost 10
   * system calls and the faults of the layout, and the exec waited on the
   * lock for them. */
  else if (s->record_pending)
    sleep_until (s, next < stop_at ? next : stop_at);
  if (s->thread_pinned)
    unpin (&s->thread_cpus);
  if (mg_seccomp_filtered ())
    park_under_filter (s, false);
  mg_plugin_guard_thread_init ();
  mg_plugin_guard_watch_begin (mg_sampling_watch_period_ns (s));
  pthread_mutex_lock (&s->lock);
  /* Before any round (the end's last round waits for this lock). */
  mg_sampling_start_spans (s);
  mg_sampler_forget_leader_metrics (s);
  /* Under the lock: a fork or the process's end waits for the plugins to
   * be ready (or for their time limit), as for a round. Before this
   * thread's usage and activity start: their initialisation is not a
   * round's. */
  bool have_record = s->stop_requested || mg_sampler_ensure_record (s);
  if (!s->stop_requested && have_record && s->plugins_pending)
    {
      mg_sampler_elect (s);
      mg_plugins_begin (s);
    }
  mg_thread_usage_begin ();
  mg_thread_activity_begin ();
  while (have_record && !s->stop_requested)
    {
      int64_t wake = next < stop_at ? next : stop_at;
      pthread_mutex_unlock (&s->lock);
      sleep_until (s, wake);
      /* An exit, exec or fork waiting for the lock gets it first: rounds
       * longer than the interval (a slow getter) left no gap, and the end,
       * woken too late each time (a loaded machine), gave up and called
       * the next round's getter hung ("had not returned … when the process
       * ended"). Woken by the stop, else looked at every millisecond. */
      while (__atomic_load_n (&s->end_waiting, __ATOMIC_ACQUIRE) && !s->stop_requested)
        sleep_until (s, mg_now_ns () + 1000000);
      pthread_mutex_lock (&s->lock);
      if (s->stop_requested)
        break;
      if (mg_seccomp_filtered ())
        park_under_filter (s, true);
      /* Its first round: the process lives on, its record becomes a file
       * (with its first slots' blocks, off the program's path). */
      if (!mg_sampler_materialize (s, MG_RECORD_HEAD_SLOTS))
        break;
      int64_t now = mg_now_ns ();
      if (now >= stop_at)
        {
          reached_stop = true;
          break;
        }
      mg_sampling_round (s, now);
      int64_t took = mg_now_ns () - now;
      s->rounds++;
      s->round_ns_total += took;
      if (took > s->round_ns_max)
        s->round_ns_max = took;
      /* Absolute deadlines: no drift; rounds missed while busy are skipped. */
      int64_t interval = (int64_t) s->rec.header->interval_ns;
      next += interval;
      s->rounds_skipped = 0;
      if (next <= now)
        {
          int64_t skipped = (now - next) / interval + 1;
          next += skipped * interval;
          s->rounds_skipped = skipped < UINT32_MAX ? (uint32_t) skipped : UINT32_MAX;
        }
      mg_plugin_guard_watch_check (now);
      if (program_gone (s))
        {
          gone = true;
          break;
        }
    }
  struct timespec cpu;
  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
    s->thread_cpu_ns = ts_to_ns (&cpu);
  mg_thread_activity_end ();
  mg_thread_usage_end ();
  pthread_mutex_unlock (&s->lock);
  /* After the stop functions at --stop-after, which it watches too. */
  if (reached_stop)
    {
      mg_stacks_stop (s);
      mg_sampling_end (s);
    }
  mg_plugin_guard_watch_end ();
  if (gone)
    exit_for_program (s);
  return NULL;
}

/* A thread that sleeps first (a descendant's, a fork child's: most such
 * processes exec or exit before it wakes) is started on the CPU its
 * creator runs on: the creator's mask is narrowed to that CPU around the
 * pthread_create only (the new thread inherits it), and the thread takes
 * the creator's mask back when it wakes for its work. Started on another
 * CPU, it was a wake-up there, and the exec (which waits for every other
 * thread to die) or the exit waited for that CPU to run it out: a bash
 * loop of 20 profiled /bin/true took 3-4 ms less wall time and 1.8-2.4 ms
 * less CPU so (docs/sampler.md, "Cost"). */
static bool
pin_to_this_cpu (MgSampler *s)
{
  cpu_set_t one;
  s->thread_pinned = false;
  if (!s->plugins_pending && !s->record_pending)
    return false;
  int cpu = this_cpu ();
  if (cpu < 0 || cpu >= CPU_SETSIZE || get_affinity (&s->thread_cpus) != 0
      || !CPU_ISSET (cpu, &s->thread_cpus))
    return false;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  s->thread_pinned = set_affinity (&one) == 0;
  return s->thread_pinned;
}

static int start_thread (MgSampler *s, bool resume);

int
mg_sampling_start_thread (MgSampler *s)
{
  return start_thread (s, false);
}

int
mg_sampling_resume_thread (MgSampler *s)
{
  return start_thread (s, true);
}

static int
start_thread (MgSampler *s, bool resume)
{
  pthread_attr_t attr;
  sigset_t all;

  /* A thread called off before it began (then a failed exec) must have
   * returned before the next one's state is reset, or it would begin as
   * that one. */
  if (s->thread_called_off)
    pthread_join (s->thread, NULL);
  s->thread_called_off = false;
  s->thread_state = MG_THREAD_NOT_BEGUN;
  pthread_mutex_init (&s->lock, NULL);
  s->stop_requested = false;
  __atomic_store_n (&s->stop_word, 0, __ATOMIC_RELAXED);
  if (resume)
    {
      mg_thread_usage_carry ();
      mg_thread_activity_carry ();
      mg_stacks_forget_sampler_thread ();
    }
  else if (s->thread_figures_used)
    {
      /* A previous thread's figures (in a fork child, its parent's
       * thread's; after a failed exec, the last one's); a new image's
       * first thread finds them as initialised, and writing them again
       * only faulted in their pages. */
      mg_thread_usage_reset ();
      mg_thread_activity_reset ();
      mg_round_threads_reset ();
    }
  s->thread_figures_used = true;

  /* The thread blocks every signal, so the program's handlers always run on
   * its own threads and its system calls never see our wake-ups. Given
   * as the thread's own mask, not by blocking the creator's around the
   * creation: two system calls fewer on the program's path, and no
   * moment with the program's signals blocked. */
  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, 1 << 20);
  sigfillset (&all);
  pthread_attr_setsigmask_np (&attr, &all);
  bool pinned = pin_to_this_cpu (s);
  int rc = pthread_create (&s->thread, &attr, thread_main, s);
  if (pinned)
    unpin (&s->thread_cpus);
  pthread_attr_destroy (&attr);
  s->thread_started = rc == 0;
  return rc;
}

void
mg_sampling_start_spans (MgSampler *s)
{
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    s->metrics[m].prev_ns = s->sampling_start_ns;
}

/* The plugins' stop functions, the record's flag and the backfill, once:
 * at Stop after (the thread) or at the end (the lifecycle). */
void
mg_sampling_end (MgSampler *s)
{
  if (__atomic_exchange_n (&s->sampling_ended, true, __ATOMIC_ACQ_REL))
    return;
  mg_plugins_stop (s);
  __atomic_or_fetch (&s->rec.header->flags, MG_RECORD_FLAG_SAMPLING_ENDED, __ATOMIC_RELEASE);
  mg_sampling_backfill (s);
}
