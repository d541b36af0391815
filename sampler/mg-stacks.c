/* SPDX-License-Identifier: GPL-3.0-or-later */
/* On-CPU call stacks: per-thread CPU-time timers, the signal handler, and
 * the sampler thread's side (threads, modules, interval, drain). Only a
 * thread that runs consumes CPU time, so only a running thread is ever
 * signalled: a thread blocked in read, poll, nanosleep or a futex gets
 * nothing, and never an EINTR. */
#include "mg-stacks.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/lib-names.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "allinea_safe_syscalls.h"
#include "format/mg-mpi-threads.h"
#include "mg-own-memory.h"
#include "mg-sigmask.h"
#include "mg-unwind.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Threads followed at once; more are not sampled (the record's n_threads
 * counts those that were). */
#define MAX_THREADS 4096
/* /proc/self/task is listed when its link count (the thread count) changed,
 * and at least every this many rounds (a thread that replaced another in
 * between). */
#define LIST_EVERY_ROUNDS 16

typedef struct {
  pid_t tid;
  uint32_t ordinal;/* 0 the main thread, then in order of first sight */
  uint32_t seen;   /* the round that last listed it */
  uint32_t named;  /* the round that last read its name */
  int live;        /* 1 while the timer exists; whoever swaps it to 0 deletes */
  timer_t timer;
} ThreadTimer;

typedef int (*SigactionFn) (int, const struct sigaction *, struct sigaction *);

static ThreadTimer *threads;        /* mapped once, MAX_THREADS */
static uint32_t n_threads;          /* entries used (some may be dead) */
static uint32_t round_no;
static uint64_t armed_interval_ns;
static pid_t sampler_tid;
static unsigned modules_copied;
static nlink_t listed_links;        /* /proc/self/task's link count at the last listing */
static uint32_t listed_round;
/* A new thread was passed over because it blocked the signal: glibc's
 * pthread_create starts a thread with every signal blocked for a moment,
 * so it is looked at again at the next round, once. */
static bool skipped_blocked, relist_soon;
/* mg_unwind_refresh_memory ran in this listing. */
static bool memory_refreshed;
static MgRecordStacks *table;       /* what the handler writes, NULL: nothing */
static int state = MG_RECORD_STACKS_OFF;
static int handlers_running;
static bool handler_installed;
/* The record has room for stacks, not laid out yet (lay_out). */
static bool pending;
static uint64_t cpu_at_start_ns;    /* the process's CPU time at mg_stacks_start */
/* The timers' tags: a signal whose value points at none is not ours; the
 * one it points at is the thread's ordinal, so the handler knows its
 * thread without a system call. */
static const char thread_tags[MG_RECORD_STACK_THREAD_MAX + 1];
static uint32_t next_ordinal;
/* The MPI wrapper's thread table (format/mg-mpi-threads.h), NULL when the
 * wrapper is not loaded; looked up once, on the sampler thread. */
static const struct metrograph_mpi_threads *mpi_threads;
static bool mpi_looked_up;
/* Each slot's call at the last round (its sequence count; valid: there
 * was one), so that a wait that went on through rounds the sampler thread
 * missed (a loaded machine) counts them. */
static uint32_t mpi_prev_seq[MG_MPI_THREAD_SLOTS];
static bool mpi_prev_valid[MG_MPI_THREAD_SLOTS];
/* The stack walked for each slot's call (by its sequence count), reused
 * while the call waits: its callers' frames cannot change meanwhile. */
typedef struct {
  uint32_t seq;
  bool valid;
  uint16_t n, flags;
  uint64_t pcs[MG_RECORD_STACK_MAX_FRAMES];
} MpiStack;
/* Bytes of a waiting thread's stack the walk may copy (mg_unwind_frame). */
#define MPI_STACK_COPY (256 * 1024)
typedef struct {
  MpiStack stacks[MG_MPI_THREAD_SLOTS];
  uint8_t copy[MPI_STACK_COPY];
} MpiWalks;
static MpiWalks *mpi_walks; /* mapped once, at lay_out */
/* The slots walk_mpi_wait has used, from 0: only these can be valid. A
 * fork child clears these only; clearing all 256 wrote to each of the
 * mapping's 65 pages, a fault each (110 us of every fork child's CPU,
 * in every process that has the wrapper: every one, since it is linked
 * into the sampler). */
static int mpi_walks_used;
/* How the waits' stacks went, for the verbose log at the end. */
static uint64_t mpi_walked, mpi_reused, mpi_discarded, mpi_partial;

uint32_t
mg_stacks_table_size (const MgSampler *s)
{
  if (s->plan.no_stacks)
    return 0;
  const char *env = getenv (MG_STACKS_TABLE_ENV);
  if (env && *env)
    {
      long n = strtol (env, NULL, 10);
      if (n >= MG_RECORD_STACKS_MIN && n <= MG_RECORD_STACKS_LIMIT)
        return (uint32_t) n;
    }
  return MG_RECORD_STACKS_DEFAULT_MAX;
}

/* True when the calling thread is inside an MPI call: its wait is
 * sampled by the round (sample_mpi_waits), at wall-clock time, and a
 * CPU-time sample of the library's progress loop would count it twice.
 * Async-signal-safe: a scan of the wrapper's table, with a gettid only
 * once some thread has called MPI (the wrapper is linked into the
 * sampler: in every process, MPI program or not). */
static bool
in_mpi_call (void)
{
  const struct metrograph_mpi_threads *m = __atomic_load_n (&mpi_threads, __ATOMIC_ACQUIRE);
  return m != NULL && __atomic_load_n (&m->tid[0], __ATOMIC_RELAXED) != 0
         && mg_mpi_threads_in_call (m, (pid_t) syscall (SYS_gettid));
}

/* The thread ordinal a timer's signal carries, -1 when it is not ours. */
static int
tag_ordinal (const siginfo_t *info)
{
  /* As integers: the value may point anywhere (a program's sigqueue). */
  uintptr_t tag = (uintptr_t) info->si_value.sival_ptr, first = (uintptr_t) thread_tags;
  if (info->si_code != SI_TIMER || tag < first || tag - first >= sizeof thread_tags)
    return -1;
  return (int) (tag - first);
}

static void
on_signal (int sig, siginfo_t *info, void *context)
{
  (void) sig;
  int saved = errno;
  int ordinal = tag_ordinal (info);
  if (ordinal < 0)
    {
      errno = saved;
      return;
    }
  __atomic_fetch_add (&handlers_running, 1, __ATOMIC_ACQUIRE);
  MgRecordStacks *t = __atomic_load_n (&table, __ATOMIC_ACQUIRE);
  if (t && __atomic_load_n (&state, __ATOMIC_RELAXED) == MG_RECORD_STACKS_ON && !in_mpi_call ())
    {
      uint64_t pcs[MG_RECORD_STACK_MAX_FRAMES];
      unsigned flags = 0;
      unsigned n = mg_unwind_context (context, pcs, MG_RECORD_STACK_MAX_FRAMES, &flags);
      unsigned f = mg_record_stack_thread_flags ((uint32_t) ordinal);
      if (flags & MG_UNWIND_TRUNCATED)
        f |= MG_RECORD_STACK_TRUNCATED;
      if (flags & MG_UNWIND_UNKNOWN_FRAME)
        f |= MG_RECORD_STACK_UNKNOWN;
      /* One sample whatever the timer's overrun count: weighting samples
       * by it got the totals right but not the shares of functions (a 3:1
       * split read 69 to 77 % at a load of 15, against 75 to 76 %
       * unweighted; docs/sampler.md). */
      if (n > 0)
        mg_record_stacks_add (t, pcs, n, f);
    }
  __atomic_fetch_sub (&handlers_running, 1, __ATOMIC_RELEASE);
  errno = saved;
}

/* The C library's own sigaction, not the next one: ThreadSanitizer's
 * (-fsanitize=thread) wraps a handler installed through it and holds every
 * timer signal back until the thread's next call into its runtime, so a
 * thread computing on its own was never sampled (1 sample of a 1 s loop
 * where the program built without it had 51) and a late one was walked
 * from a stack moved on since. Installed past it, the handler runs as
 * the kernel delivers it, and calls nothing such a runtime intercepts
 * (no memcpy, memcmp: a loop; docs/sampler.md, "The signal"). */
static SigactionFn
real_sigaction (void)
{
  static SigactionFn fn;
  if (fn == NULL)
    {
      /* Loaded already: the handle is only looked in, never closed. */
      void *libc = dlopen (LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
      if (libc != NULL)
        *(void **) &fn = dlsym (libc, "sigaction");
      if (fn == NULL)
        *(void **) &fn = dlsym (RTLD_NEXT, "sigaction");
    }
  return fn;
}

static void
set_state (MgSampler *s, int st)
{
  __atomic_store_n (&state, st, __ATOMIC_SEQ_CST);
  if (s->rec.stacks)
    __atomic_store_n (&s->rec.stacks->state, (uint32_t) st, __ATOMIC_RELAXED);
}

/* Installs the handler unless the program has its own for the signal. */
static bool
install_handler (void)
{
  if (handler_installed)
    return true;
  SigactionFn sa = real_sigaction ();
  struct sigaction old;
  if (sa == NULL || sa (MG_STACKS_SIGNAL, NULL, &old) != 0)
    return false;
  if ((old.sa_flags & SA_SIGINFO) ? old.sa_sigaction != NULL
                                  : old.sa_handler != SIG_DFL)
    return false; /* the program's: leave it alone */
  struct sigaction act = { .sa_sigaction = on_signal,
                           .sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK };
  /* No other signal in the middle of a walk (the unwinder's contract). */
  sigfillset (&act.sa_mask);
  if (sa (MG_STACKS_SIGNAL, &act, NULL) != 0)
    return false;
  handler_installed = true;
  return true;
}

void
mg_stacks_forget_sampler_thread (void)
{
  sampler_tid = 0;
}

void
mg_stacks_start (MgSampler *s)
{
  round_no = 0;
  listed_links = 0;
  listed_round = 0;
  armed_interval_ns = 0;
  sampler_tid = 0;
  modules_copied = 0;
  next_ordinal = 1;
  /* Nothing more now: the section is laid out, the unwinder prepared and
   * the handler installed on the sampler thread once the program has used
   * CPU (lay_out), so that a short or sleeping process pays none of it. */
  pending = s->rec.max_stacks > 0;
  struct timespec now;
  cpu_at_start_ns = clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now) == 0
                      ? (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec
                      : 0;
}

/* The CPU time of the process's threads but the sampler's (this one)
 * since sampling started (the loader's and the sampler's own start left
 * out). */
static uint64_t
program_cpu_ns (void)
{
  struct timespec all, mine;
  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &all) != 0
      || clock_gettime (CLOCK_THREAD_CPUTIME_ID, &mine) != 0)
    return UINT64_MAX;
  int64_t ns = ((int64_t) all.tv_sec - mine.tv_sec) * 1000000000
               + (all.tv_nsec - mine.tv_nsec) - (int64_t) cpu_at_start_ns;
  return ns > 0 ? (uint64_t) ns : 0;
}

/* The wrapper's table, looked up at the first round (by name: the
 * sampler's sources do not see the wrapper, which the build links in, or
 * leaves out where it has no mpi.h). */
static const struct metrograph_mpi_threads *
mpi_table (void)
{
  if (!mpi_looked_up)
    {
      mpi_looked_up = true;
      const struct metrograph_mpi_threads *m = dlsym (RTLD_DEFAULT, "metrograph_mpi_threads");
      if (m != NULL && m->version == MG_MPI_THREADS_VERSION)
        __atomic_store_n (&mpi_threads, m, __ATOMIC_RELEASE);
    }
  return mpi_threads;
}

/* Whether some thread of the process is inside an MPI call now. */
static bool
mpi_call_in_flight (void)
{
  const struct metrograph_mpi_threads *m = mpi_table ();
  uint64_t function, site;
  for (int i = 0; m != NULL && i < MG_MPI_THREAD_SLOTS; i++)
    {
      if (__atomic_load_n (&m->tid[i], __ATOMIC_ACQUIRE) == 0)
        break;
      if (mg_mpi_threads_call_at (m, i, &function, &site))
        return true;
    }
  return false;
}

/* The stack flags naming thread tid's ordinal, 0 (not known) for a thread
 * without a timer. */
static unsigned
thread_flags_of (pid_t tid)
{
  for (uint32_t i = 0; i < n_threads; i++)
    if (__atomic_load_n (&threads[i].live, __ATOMIC_RELAXED) && threads[i].tid == tid)
      return mg_record_stack_thread_flags (threads[i].ordinal);
  return 0;
}

/* The stack of slot i's call (read by mg_mpi_threads_call_begin), seen
 * first this round: [MPI_<name>, call site, the callers' return
 * addresses...], walked from the wrapper's frame while the call waits
 * (its callers' frames cannot change meanwhile), and kept for the next
 * rounds of the same call only when the call was in flight from before
 * the walk to after it. A call that ended meanwhile (the frames read may
 * be another call's) gets [MPI_<name>, call site] marked unknown above,
 * as a wrapper frame that does not lead to the call site does. */
static const MpiStack *
walk_mpi_wait (const struct metrograph_mpi_threads *m, int i, const struct mg_mpi_call *call)
{
  MpiStack *c = &mpi_walks->stacks[i];
  if (i >= mpi_walks_used)
    mpi_walks_used = i + 1;
  if (c->valid && c->seq == call->seq)
    {
      mpi_reused++;
      return c;
    }
  c->valid = false;
  c->seq = call->seq;
  c->pcs[0] = call->function;
  c->pcs[1] = call->site;
  unsigned flags = 0;
  unsigned n = call->site != 0 ? mg_unwind_frame (call->frame, call->site, mpi_walks->copy,
                                                 sizeof mpi_walks->copy, c->pcs + 1,
                                                 MG_RECORD_STACK_MAX_FRAMES - 1, &flags)
                               : 0;
  if (!mg_mpi_threads_call_still (m, i, call))
    {
      /* Ended during the walk: what it read may be the next call's. */
      mpi_discarded++;
      c->pcs[1] = call->site;
      c->n = call->site != 0 ? 2 : 1;
      c->flags = MG_RECORD_STACK_UNKNOWN;
      return c;
    }
  mpi_walked++;
  /* Nothing walked (a stack the snapshot did not know yet, modules being
   * unloaded, a frame that is not the call's): tried again next round. */
  c->valid = n > 0;
  if (n == 0)
    {
      c->pcs[1] = call->site;
      n = call->site != 0 ? 1 : 0;
      flags = MG_UNWIND_UNKNOWN_FRAME;
    }
  c->n = (uint16_t) (1 + n);
  c->flags = (flags & MG_UNWIND_TRUNCATED ? MG_RECORD_STACK_TRUNCATED : 0)
             | (flags & MG_UNWIND_UNKNOWN_FRAME ? MG_RECORD_STACK_UNKNOWN : 0);
  if (c->flags != 0)
    mpi_partial++;
  return c;
}

/* One sample for each thread blocked in an MPI call, read from the
 * wrapper's table (no signal: the thread's wait is left alone), with the
 * stack walk_mpi_wait gives it, flagged MPI. One a round: the waits are
 * counted in wall-clock time at the sampling interval, as the CPU-time
 * timers count computing. */
static void
sample_mpi_waits (MgRecordStacks *t, uint32_t skipped)
{
  const struct metrograph_mpi_threads *m = mpi_table ();
  if (m == NULL || mpi_walks == NULL)
    return;
  /* The deadlines since the last round: 1 unless the sampler thread
   * passed some over (mg-sampling.c). */
  uint32_t rounds = skipped < UINT32_MAX ? 1 + skipped : skipped;
  for (int i = 0; i < MG_MPI_THREAD_SLOTS; i++)
    {
      if (__atomic_load_n (&m->tid[i], __ATOMIC_ACQUIRE) == 0)
        break;
      struct mg_mpi_call call;
      if (!mg_mpi_threads_call_begin (m, i, &call))
        {
          mpi_prev_valid[i] = false;
          continue;
        }
      /* The same call as at the last round: it waited through the rounds
       * in between; a call seen first now, one round. */
      bool same = mpi_prev_valid[i] && call.seq == mpi_prev_seq[i];
      mpi_prev_valid[i] = true;
      mpi_prev_seq[i] = call.seq;
      const MpiStack *stack = walk_mpi_wait (m, i, &call);
      mg_record_stacks_add_weighted (t, stack->pcs, stack->n,
                                     MG_RECORD_STACK_MPI | stack->flags | thread_flags_of (m->tid[i]),
                                     same ? rounds : 1);
    }
}

/* Lays out the record's stack section (its blocks reserved: a full disk
 * turns stacks off with the reason, the metrics go on), prepares the
 * unwinder and installs the handler, before any timer is armed. Only
 * once the program's threads have used an interval of CPU time: before
 * that no thread's CPU-time timer could have fired, so no sample is lost
 * by waiting. True when stacks are on. */
static bool
lay_out (MgSampler *s, uint64_t interval_ns)
{
  uint64_t cpu = program_cpu_ns ();
  if (cpu != UINT64_MAX && cpu < interval_ns && !mpi_call_in_flight ())
    return false;
  pending = false;
  char err[sizeof s->rec.path + 160];
  int e = mg_record_stacks_reserve (&s->rec, err, sizeof err);
  if (e != 0)
    {
      mg_log ("%s; no call stacks", err);
      return false;
    }
  MgRecordStacks *t = s->rec.stacks;
  t->signal = MG_STACKS_SIGNAL;
  if (threads == NULL)
    {
      void *p = mmap (NULL, MAX_THREADS * sizeof *threads, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED)
        {
          set_state (s, MG_RECORD_STACKS_FAILED);
          return false;
        }
      threads = p;
      mg_own_memory_add (p, MAX_THREADS * sizeof *threads);
    }
  if (mpi_walks == NULL && mpi_table () != NULL)
    {
      /* Only where the MPI wrapper is loaded; without it the waits
       * are not sampled (sample_mpi_waits). */
      void *p = mmap (NULL, sizeof *mpi_walks, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED)
        {
          mpi_walks = p;
          mg_own_memory_add (p, sizeof *mpi_walks);
        }
    }
  if (mg_unwind_prepare () != 0)
    {
      set_state (s, MG_RECORD_STACKS_FAILED);
      return false;
    }
  if (!install_handler ())
    {
      mg_log ("signal %d has the program's handler: no call stacks", MG_STACKS_SIGNAL);
      set_state (s, MG_RECORD_STACKS_STEPPED_ASIDE);
      return false;
    }
  __atomic_store_n (&table, t, __ATOMIC_RELEASE);
  set_state (s, MG_RECORD_STACKS_ON);
  return true;
}

static struct timespec
ns_ts (uint64_t ns)
{
  return (struct timespec) { (time_t) (ns / 1000000000u), (long) (ns % 1000000000u) };
}

static void
arm (timer_t timer, uint64_t interval_ns)
{
  struct itimerspec when = { .it_interval = ns_ts (interval_ns), .it_value = ns_ts (interval_ns) };
  timer_settime (timer, 0, &when, NULL);
}

static void
drop (ThreadTimer *t)
{
  if (__atomic_exchange_n (&t->live, 0, __ATOMIC_SEQ_CST))
    timer_delete (t->timer);
}

/* The CPU-time clock of thread tid (the kernel's encoding of a per-thread
 * CPU clock, as pthread_getcpuclockid gives for a pthread_t). */
static clockid_t
thread_cpu_clock (pid_t tid)
{
  return (clockid_t) ((~(unsigned) tid << 3) | 6);
}

/* Thread tid's name as the kernel holds it (its comm, any bytes but NUL,
 * at most 15): /proc/self/task/TID/comm, which gives the raw bytes and a
 * newline (status escapes a newline and a backslash in them). "" when
 * unknown (the thread ended). */
static void
read_comm (pid_t tid, char name[MG_RECORD_THREAD_NAME_LEN])
{
  char path[64], buf[MG_RECORD_THREAD_NAME_LEN + 1];
  name[0] = '\0';
  snprintf (path, sizeof path, "/proc/self/task/%d/comm", (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  /* Through the safe read, so that the IO metrics leave it out. */
  ssize_t n = allinea_safe_read (fd, buf, sizeof buf);
  close (fd);
  if (n <= 0)
    return;
  /* The kernel ends it with one newline; the name itself may hold one. */
  if (buf[n - 1] == '\n')
    n--;
  if (n >= MG_RECORD_THREAD_NAME_LEN)
    n = MG_RECORD_THREAD_NAME_LEN - 1;
  memcpy (name, buf, (size_t) n);
  name[n] = '\0';
}

/* Thread t's name again, into the record when it changed: the table keeps
 * the last name seen (a thread often names itself after it started). */
static void
rename_thread (MgSampler *s, const ThreadTimer *t)
{
  char name[MG_RECORD_THREAD_NAME_LEN];
  read_comm (t->tid, name);
  if (name[0] != '\0' && s->rec.stacks)
    mg_record_stacks_rename_thread (s->rec.stacks, (int32_t) t->tid, t->ordinal, name);
}

/* True when thread tid blocks the signal (its SigBlk in /proc): a timer's
 * signal would stay pending there, where a sigwait on a full set would
 * take it as the program's. Such a thread gets no timer; it is looked at
 * again at the next listing. */
static bool
blocks_signal (pid_t tid)
{
  char path[64], buf[4096];
  snprintf (path, sizeof path, "/proc/self/task/%d/status", (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  /* Through the safe read, so that the IO metrics leave it out of the
   * program's reads. */
  ssize_t n = allinea_safe_read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return false;
  buf[n] = '\0';
  const char *line = strstr (buf, "\nSigBlk:");
  if (line == NULL)
    return false;
  unsigned long long mask = strtoull (line + strlen ("\nSigBlk:"), NULL, 16);
  return (mask >> (MG_STACKS_SIGNAL - 1)) & 1;
}

static void
follow (MgSampler *s, pid_t tid, uint64_t interval_ns)
{
  uint32_t free_at = UINT32_MAX;
  for (uint32_t i = 0; i < n_threads; i++)
    {
      if (__atomic_load_n (&threads[i].live, __ATOMIC_RELAXED) && threads[i].tid == tid)
        {
          threads[i].seen = round_no;
          /* Its name again, at most every LIST_EVERY_ROUNDS rounds
           * whatever the listings (a program that keeps starting threads
           * has one each round). */
          if (round_no - threads[i].named >= LIST_EVERY_ROUNDS)
            {
              threads[i].named = round_no;
              rename_thread (s, &threads[i]);
            }
          return;
        }
      if (free_at == UINT32_MAX && !__atomic_load_n (&threads[i].live, __ATOMIC_RELAXED))
        free_at = i;
    }
  if (free_at == UINT32_MAX)
    {
      if (n_threads == MAX_THREADS)
        return;
      free_at = n_threads;
    }
  if (blocks_signal (tid))
    {
      skipped_blocked = true;
      return;
    }
  /* A new thread's stack is a new mapping: known to the walk before its
   * timer can fire (once per listing, whatever the new threads). */
  if (!memory_refreshed)
    {
      mg_unwind_refresh_memory ();
      memory_refreshed = true;
    }
  ThreadTimer *t = &threads[free_at];
  /* 0 for the main thread (its id is the process's), then in order. */
  uint32_t ordinal = tid == getpid () ? 0 : next_ordinal;
  if (ordinal > MG_RECORD_STACK_THREAD_MAX - 1)
    ordinal = MG_RECORD_STACK_THREAD_MAX - 1;
  struct sigevent ev = { 0 };
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = MG_STACKS_SIGNAL;
  ev.sigev_value.sival_ptr = (void *) &thread_tags[ordinal];
  ev.sigev_notify_thread_id = tid;
  if (timer_create (thread_cpu_clock (tid), &ev, &t->timer) != 0)
    return; /* ended meanwhile */
  t->tid = tid;
  t->ordinal = ordinal;
  t->seen = round_no;
  t->named = round_no;
  if (ordinal != 0 && next_ordinal < MG_RECORD_STACK_THREAD_MAX)
    next_ordinal++;
  if (s->rec.stacks)
    {
      char name[MG_RECORD_THREAD_NAME_LEN];
      read_comm (tid, name);
      mg_record_stacks_name_thread (s->rec.stacks, (int32_t) tid, ordinal, name);
    }
  __atomic_store_n (&t->live, 1, __ATOMIC_SEQ_CST);
  if (free_at == n_threads)
    __atomic_store_n (&n_threads, n_threads + 1, __ATOMIC_SEQ_CST);
  /* The program may have taken the signal meanwhile (mg_stacks_program_takes). */
  if (__atomic_load_n (&state, __ATOMIC_SEQ_CST) != MG_RECORD_STACKS_ON)
    {
      drop (t);
      return;
    }
  arm (t->timer, interval_ns);
  if (s->rec.stacks)
    __atomic_fetch_add (&s->rec.stacks->n_threads, 1, __ATOMIC_RELAXED);
}

struct linux_dirent64
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

static void
delete_all (void)
{
  uint32_t n = __atomic_load_n (&n_threads, __ATOMIC_SEQ_CST);
  for (uint32_t i = 0; i < n; i++)
    drop (&threads[i]);
}

/* False, with every timer deleted and the stacks failed, when the
 * program's RLIMIT_SIGPENDING has no room for them (mg-sigmask.h). */
static bool
room_for_timers (MgSampler *s)
{
  unsigned long long limit;
  if (!mg_sigpending_tight (&limit))
    return true;
  mg_log ("the program's RLIMIT_SIGPENDING is %llu: its queued signals have no room for the "
          "call stacks' timers (one each), no more call stacks", limit);
  set_state (s, MG_RECORD_STACKS_FAILED);
  delete_all ();
  return false;
}

/* Every thread of the process but the sampler's gets a timer; ended
 * threads' timers are deleted. getdents64 on a fresh descriptor: no
 * allocation (opendir would malloc) and nothing kept in the program's way. */
static void
follow_threads (MgSampler *s, uint64_t interval_ns)
{
  struct stat st;
  /* After a chroot into a root without /proc (the sampler's thread shares
   * the process's root), the folder kept open for the thread count. */
  int kept = -1;
  if (stat ("/proc/self/task", &st) != 0 && (kept = mg_round_threads_dir (&st)) < 0)
    st.st_nlink = 0;
  /* One stat a round; the listing (about 5 µs and more on a busy
   * machine) only when the thread count moved, or now and then. */
  if (st.st_nlink != 0 && st.st_nlink == listed_links && !relist_soon
      && round_no - listed_round < LIST_EVERY_ROUNDS)
    {
      round_no++;
      for (uint32_t i = 0; i < n_threads; i++)
        threads[i].seen = round_no;
      return;
    }
  if (!room_for_timers (s))
    return;
  int fd = kept >= 0 ? kept : open ("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || (kept >= 0 && lseek (fd, 0, SEEK_SET) != 0))
    return;
  round_no++;
  listed_round = round_no;
  /* Listed because the count moved: a thread passed over now is looked at
   * again next round. */
  bool count_moved = st.st_nlink != listed_links && !relist_soon;
  listed_links = st.st_nlink;
  skipped_blocked = false;
  memory_refreshed = false;
  char buf[4096] __attribute__((aligned (8)));
  long n;
  bool complete = true;
  while ((n = syscall (SYS_getdents64, fd, buf, sizeof buf)) > 0)
    for (long at = 0; at < n;)
      {
        struct linux_dirent64 *d = (struct linux_dirent64 *) (buf + at);
        at += d->d_reclen;
        char *end;
        long tid = strtol (d->d_name, &end, 10);
        if (d->d_name[0] < '0' || d->d_name[0] > '9' || *end != '\0' || tid == sampler_tid)
          continue;
        follow (s, (pid_t) tid, interval_ns);
      }
  if (n < 0)
    complete = false;
  if (kept < 0)
    close (fd);
  relist_soon = skipped_blocked && count_moved;
  if (!complete)
    return;
  for (uint32_t i = 0; i < n_threads; i++)
    if (threads[i].seen != round_no)
      drop (&threads[i]);
}

/* The unwinder's module list into the record, as it grows. */
static void
copy_modules (MgRecordStacks *t)
{
  unsigned n = mg_unwind_module_count ();
  MgRecordModule *out = mg_record_stacks_modules (t);
  for (; modules_copied < n && modules_copied < t->max_modules; modules_copied++)
    {
      const struct mg_unwind_module *m = mg_unwind_module (modules_copied);
      MgRecordModule *r = &out[modules_copied];
      r->start = m->start;
      r->end = m->end;
      r->load_bias = m->load_bias;
      r->build_id_len = m->build_id_len <= MG_RECORD_BUILD_ID_MAX ? m->build_id_len : 0;
      memcpy (r->build_id, m->build_id, r->build_id_len);
      mg_record_copy_str (r->path, sizeof r->path, m->path);
      __atomic_store_n (&t->n_modules, modules_copied + 1, __ATOMIC_RELEASE);
    }
}

void
mg_stacks_round (MgSampler *s)
{
  /* Not in the final round on the thread that ends the process. */
  if (!mg_thread_usage_on_sampler_thread ())
    return;
  if (pending && s->rec.stacks == NULL && !lay_out (s, s->rec.header->interval_ns))
    return;
  MgRecordStacks *t = s->rec.stacks;
  if (t == NULL || __atomic_load_n (&state, __ATOMIC_SEQ_CST) != MG_RECORD_STACKS_ON)
    return;
  if (sampler_tid == 0)
    sampler_tid = (pid_t) syscall (SYS_gettid);
  /* Cheap when nothing was loaded or unloaded and no walk met an unknown
   * stack: it compares the loader's counters (docs/sampler.md, "Call
   * stacks: unwinding"). */
  mg_unwind_refresh ();
  copy_modules (t);
  /* The timers follow the record's interval, which doubles when its
   * slots halve: a slot keeps about as many stack samples as before. */
  uint64_t interval = s->rec.header->interval_ns;
  if (interval != armed_interval_ns)
    {
      for (uint32_t i = 0; i < n_threads; i++)
        if (__atomic_load_n (&threads[i].live, __ATOMIC_SEQ_CST))
          arm (threads[i].timer, interval);
      armed_interval_ns = interval;
    }
  follow_threads (s, interval);
  /* A module loaded by a thread just seen. */
  copy_modules (t);
  sample_mpi_waits (t, s->rounds_skipped);
}

void
mg_stacks_drain (MgSampler *s, uint32_t n)
{
  if (s->rec.stacks)
    mg_record_stacks_drain (s->rec.stacks, n);
}


/* A signal of a deleted timer may still be on its way to this thread
 * (exec keeps a pending signal, and the new image would die of it). */
static void
discard_pending (void)
{
  sigset_t set, old;
  sigemptyset (&set);
  sigaddset (&set, MG_STACKS_SIGNAL);
  /* The real masks: the program's (mg-sigmask.c) would leave ours out. */
  mg_sigmask_real (SIG_BLOCK, &set, &old);
  struct timespec zero = { 0, 0 };
  siginfo_t info;
  while (sigtimedwait (&set, &info, &zero) == MG_STACKS_SIGNAL)
    if (tag_ordinal (&info) < 0)
      {
        /* The program's own, queued to itself: give it back. */
        mg_sigmask_real (SIG_SETMASK, &old, NULL);
        sigqueue (getpid (), MG_STACKS_SIGNAL, info.si_value);
        return;
      }
  mg_sigmask_real (SIG_SETMASK, &old, NULL);
}

static void
wait_for_handlers (void)
{
  for (int i = 0; i < 10000 && __atomic_load_n (&handlers_running, __ATOMIC_ACQUIRE); i++)
    sched_yield ();
}

void
mg_stacks_stop (MgSampler *s)
{
  if (threads == NULL)
    return;
  /* The handler's switch only: the record keeps saying how stacks went
   * (on, or stepped aside). */
  int on = MG_RECORD_STACKS_ON;
  __atomic_compare_exchange_n (&state, &on, MG_RECORD_STACKS_OFF, false, __ATOMIC_SEQ_CST,
                               __ATOMIC_SEQ_CST);
  /* The names the threads still running end with. */
  uint32_t n = __atomic_load_n (&n_threads, __ATOMIC_SEQ_CST);
  for (uint32_t i = 0; i < n; i++)
    if (__atomic_load_n (&threads[i].live, __ATOMIC_SEQ_CST))
      rename_thread (s, &threads[i]);
  delete_all ();
  discard_pending ();
  __atomic_store_n (&table, NULL, __ATOMIC_RELEASE);
  wait_for_handlers ();
  if (mpi_walked + mpi_discarded > 0)
    mg_log ("MPI waits: %llu stacks walked (%llu partial), %llu reused, %llu discarded "
            "(the call ended during the walk)",
            (unsigned long long) mpi_walked, (unsigned long long) mpi_partial,
            (unsigned long long) mpi_reused, (unsigned long long) mpi_discarded);
}

void
mg_stacks_disarm (void)
{
  if (threads == NULL)
    return;
  int on = MG_RECORD_STACKS_ON;
  __atomic_compare_exchange_n (&state, &on, MG_RECORD_STACKS_OFF, false, __ATOMIC_SEQ_CST,
                               __ATOMIC_SEQ_CST);
  delete_all ();
  discard_pending ();
  __atomic_store_n (&table, NULL, __ATOMIC_RELEASE);
  wait_for_handlers ();
}

void
mg_stacks_forget_threads (void)
{
  /* Timers are not inherited by a child: these ids name nothing here;
   * its threads are numbered afresh (its forking thread the main one). */
  n_threads = 0;
  next_ordinal = 1;
  /* The parent's waits are not the child's (the wrapper empties its table). */
  memset (mpi_prev_valid, 0, sizeof mpi_prev_valid);
  if (mpi_walks != NULL)
    for (int i = 0; i < mpi_walks_used; i++)
      mpi_walks->stacks[i].valid = false;
  mpi_walks_used = 0;
  __atomic_store_n (&table, NULL, __ATOMIC_RELEASE);
}

bool
mg_stacks_signal_taken (void)
{
  return __atomic_load_n (&handler_installed, __ATOMIC_ACQUIRE);
}

void
mg_stacks_program_takes (int sig)
{
  if (sig != MG_STACKS_SIGNAL || !handler_installed)
    return;
  if (__atomic_load_n (&state, __ATOMIC_SEQ_CST) == MG_RECORD_STACKS_ON)
    {
      set_state (&mg_sampler, MG_RECORD_STACKS_STEPPED_ASIDE);
      mg_log ("the program takes signal %d: no more call stacks", sig);
    }
  delete_all ();
  wait_for_handlers ();
  handler_installed = false;
}
