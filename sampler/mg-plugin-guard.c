/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault isolation for plugin calls: a handler for the four synchronous
 * fault signals that jumps out of a plugin call on the thread that made it,
 * and otherwise hands the signal to the program exactly as the kernel would
 * have. signal() and sigaction() are interposed for these signals so that a
 * program that installs its own handler after us keeps ours in front of it
 * and still sees its own handler as the one installed. */
#include "mg-plugin-guard.h"
#include "mg-sigmask.h"
#include "mg-stacks.h"

#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* glibc before 2.35 names the field only by its union member. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define MG_EXPORT __attribute__((visibility("default")))

typedef int (*SigactionFn) (int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*SignalFn) (int, sighandler_t);

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define N_FAULT_SIGNALS (sizeof fault_signals / sizeof fault_signals[0])
static const char *const fault_names[] = { "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL" };

static SigactionFn real_sigaction;
static SignalFn real_signal;
static bool installed;
/* What the program asked for, before or after us: where faults outside a
 * plugin call go. */
static struct sigaction program_actions[N_FAULT_SIGNALS];

/* The innermost guarded call of this thread; static TLS, so reading it in
 * a signal handler takes no lock. */
static __thread sigjmp_buf *volatile guard_env __attribute__((tls_model ("initial-exec")));
/* A copy of the call in progress (its fields always point at the plan or at
 * string constants, so a reader racing with the call's end reads a stale
 * but valid call); current_active says whether there is one. */
static MgPluginCall current_call;
static int current_active;

/* Time limits. A watch timer sends SIGSEGV (whose handler is ours already:
 * no disposition of the program changes) to the thread making the call,
 * with this address as its value; the handler abandons the call once its
 * deadline has passed, by the same jump as after a crash. */
static const int watch_tag;
static __thread int64_t call_deadline_ns __attribute__((tls_model ("initial-exec")));
static __thread bool watched __attribute__((tls_model ("initial-exec")));
static __thread timer_t watch_timer __attribute__((tls_model ("initial-exec")));

static int
fault_slot (int sig)
{
  for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
    if (fault_signals[i] == sig)
      return (int) i;
  return -1;
}

static void
fault_set (sigset_t *set)
{
  sigemptyset (set);
  for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
    sigaddset (set, fault_signals[i]);
}

static void
resolve (void)
{
  if (real_sigaction)
    return;
  *(void **) &real_signal = dlsym (RTLD_NEXT, "signal");
  *(void **) &real_sigaction = dlsym (RTLD_NEXT, "sigaction");
}

/* The default action, as the kernel would take it: a fault raised by an
 * instruction happens again on return and kills the process; a signal sent
 * by someone is sent again. An ignored fault still kills (the kernel does
 * not let a process ignore its own fault); an ignored sent signal is
 * dropped. */
static void
take_default (int sig, const siginfo_t *info, bool ignored)
{
  bool from_kernel = info->si_code > 0;
  if (ignored && !from_kernel)
    return;
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  real_sigaction (sig, &dfl, NULL);
  if (!from_kernel)
    raise (sig);
}

/* Runs the program's handler with the mask and flags it asked for. */
static void
forward (int sig, siginfo_t *info, void *context)
{
  struct sigaction *a = &program_actions[fault_slot (sig)];
  struct sigaction h = *a;
  bool siginfo = (h.sa_flags & SA_SIGINFO) != 0;

  if (!siginfo && (h.sa_handler == SIG_DFL || h.sa_handler == SIG_IGN))
    {
      take_default (sig, info, h.sa_handler == SIG_IGN);
      return;
    }
  sigset_t mask = h.sa_mask, old;
  if (!(h.sa_flags & SA_NODEFER))
    sigaddset (&mask, sig);
  if (h.sa_flags & SA_RESETHAND)
    {
      a->sa_handler = SIG_DFL;
      a->sa_flags &= ~SA_SIGINFO;
    }
  pthread_sigmask (SIG_BLOCK, &mask, &old);
  if (siginfo)
    h.sa_sigaction (sig, info, context);
  else
    h.sa_handler (sig);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
}

static bool
is_watch_tick (const siginfo_t *info)
{
  return info->si_code == SI_TIMER && info->si_value.sival_ptr == (void *) &watch_tag;
}

static void
on_fault (int sig, siginfo_t *info, void *context)
{
  if (is_watch_tick (info))
    {
      /* A tick after the call returned (a race with its end) is dropped. */
      sigjmp_buf *env = guard_env;
      int64_t deadline = call_deadline_ns;
      if (env != NULL && deadline != 0 && mg_now_ns () >= deadline)
        siglongjmp (*env, MG_PLUGIN_GUARD_TIMED_OUT);
      return;
    }
  /* Only a fault of this thread's own instructions inside a plugin call is
   * the plugin's; a signal someone sent is the program's business. */
  sigjmp_buf *env = guard_env;
  if (env != NULL && info->si_code > 0)
    siglongjmp (*env, sig);
  forward (sig, info, context);
}

void
mg_plugin_guard_install (void)
{
  resolve ();
  if (installed || !real_sigaction)
    return;
  for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
    {
      /* SA_NODEFER: a jump out of the handler leaves the mask as it was. */
      struct sigaction act = { .sa_sigaction = on_fault,
                               .sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | SA_RESTART };
      sigemptyset (&act.sa_mask);
      real_sigaction (fault_signals[i], &act, &program_actions[i]);
    }
  installed = true;
}

void
mg_plugin_guard_thread_init (void)
{
  sigset_t faults;
  fault_set (&faults);
  pthread_sigmask (SIG_UNBLOCK, &faults, NULL);
}

static struct timespec
ns_to_ts (int64_t ns)
{
  struct timespec ts = { (time_t) (ns / 1000000000), (long) (ns % 1000000000) };
  return ts;
}

/* A CLOCK_MONOTONIC timer that ticks this thread with SIGSEGV from first_ns
 * (absolute) every period_ns. */
static bool
arm_watch (timer_t *timer, int64_t first_ns, int64_t period_ns)
{
  struct sigevent ev = { 0 };
  unsigned long long limit;
  /* Its queued signal would be the program's (mg-sigmask.h): no limit
   * on plugin calls then. */
  if (mg_sigpending_tight (&limit))
    return false;
  ev.sigev_notify = SIGEV_THREAD_ID;
  ev.sigev_signo = SIGSEGV;
  ev.sigev_value.sival_ptr = (void *) &watch_tag;
  ev.sigev_notify_thread_id = (pid_t) syscall (SYS_gettid);
  if (timer_create (CLOCK_MONOTONIC, &ev, timer) != 0)
    return false;
  struct itimerspec when = { .it_interval = ns_to_ts (period_ns), .it_value = ns_to_ts (first_ns) };
  if (timer_settime (*timer, TIMER_ABSTIME, &when, NULL) == 0)
    return true;
  timer_delete (*timer);
  return false;
}

/* A tick must only ever reach our handler: a program that replaced it
 * through the raw system call (which the interposed sigaction cannot
 * see) would get a SIGSEGV of ours. */
static bool
handler_is_ours (void)
{
  struct sigaction now;
  return real_sigaction (SIGSEGV, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO)
         && now.sa_sigaction == on_fault;
}

static __thread int64_t watch_period_ns __attribute__((tls_model ("initial-exec")));
static __thread int64_t watch_next_check_ns __attribute__((tls_model ("initial-exec")));
/* Watches begun on this thread inside the one that armed the timer. */
static __thread int watch_depth __attribute__((tls_model ("initial-exec")));
static __thread sigset_t watch_old_mask;

void
mg_plugin_guard_watch_begin (int64_t period_ns)
{
  if (watched)
    {
      watch_depth++;
      return;
    }
  if (!installed || !handler_is_ours ())
    return;
  int64_t now = mg_now_ns ();
  watched = arm_watch (&watch_timer, now + period_ns, period_ns);
  if (!watched)
    return;
  watch_depth = 0;
  watch_period_ns = period_ns;
  watch_next_check_ns = now + period_ns;
  /* A program thread (the constructor's, the one that exits) may block
   * the fault signals: unblocked while it is watched. */
  sigset_t faults;
  fault_set (&faults);
  pthread_sigmask (SIG_UNBLOCK, &faults, &watch_old_mask);
}

void
mg_plugin_guard_watch_check (int64_t now_ns)
{
  if (!watched || now_ns < watch_next_check_ns)
    return;
  watch_next_check_ns = now_ns + watch_period_ns;
  unsigned long long limit;
  /* Or the program has since set a limit with no room for its signal. */
  if (!handler_is_ours () || mg_sigpending_tight (&limit))
    {
      watch_depth = 0;
      mg_plugin_guard_watch_end ();
    }
}

void
mg_plugin_guard_watch_end (void)
{
  if (!watched)
    return;
  if (watch_depth > 0)
    {
      watch_depth--;
      return;
    }
  /* A tick still pending reaches the handler with no deadline set and is
   * dropped there. */
  timer_delete (watch_timer);
  watched = false;
  pthread_sigmask (SIG_SETMASK, &watch_old_mask, NULL);
}

/* The least tick after a deadline missed on an unwatched thread (the first
 * tick can come just before the deadline's clock reading). */
enum { ONCE_PERIOD_NS = 10 * 1000 * 1000 };

int
mg_plugin_guard_call (const MgPluginCall *call, MgGuardedFn fn, void *data, int *ret)
{
  sigjmp_buf env;
  sigjmp_buf *volatile outer = guard_env;
  int64_t deadline = call->limit_ns > 0 && installed ? call->since_ns + call->limit_ns : 0;
  timer_t once;
  sigset_t faults, old;
  /* A thread that is not watched (the program's, in the constructor or at
   * exit) gets a timer for this call, and the fault signals unblocked for
   * it, as the sampling thread has them. */
  bool armed = deadline != 0 && !watched && handler_is_ours ()
               && arm_watch (&once, deadline, ONCE_PERIOD_NS);
  if (armed)
    {
      fault_set (&faults);
      pthread_sigmask (SIG_UNBLOCK, &faults, &old);
    }
  /* No mask to save: the handler runs with SA_NODEFER. */
  int sig = sigsetjmp (env, 0);
  if (sig == 0)
    {
      guard_env = &env;
      current_call = *call;
      __atomic_store_n (&current_active, 1, __ATOMIC_RELEASE);
      call_deadline_ns = deadline;
      *ret = fn (data);
    }
  call_deadline_ns = 0;
  __atomic_store_n (&current_active, 0, __ATOMIC_RELEASE);
  guard_env = outer;
  if (armed)
    {
      /* A tick still pending reaches the handler with no deadline set and
       * is dropped there. */
      timer_delete (once);
      pthread_sigmask (SIG_SETMASK, &old, NULL);
    }
  return sig;
}

bool
mg_plugin_guard_current (MgPluginCall *out)
{
  if (!__atomic_load_n (&current_active, __ATOMIC_ACQUIRE))
    return false;
  *out = current_call;
  return true;
}

static void
stop_plugin (MgSampler *s, size_t plugin, uint32_t state, int code, const char *msg)
{
  MgPluginRt *p = &s->plugins[plugin];
  MgRecordPlugin *rp = &s->rec.plugins[plugin];

  /* Nothing of it is called again, not even cleanup: its state is unknown. */
  p->initialised = false;
  p->start = p->stop = NULL;
  for (size_t m = 0; m < s->plan.n_metrics; m++)
    if (s->plan.metrics[m].source == plugin)
      s->metrics[m].active = false;
  rp->error_code = code;
  mg_record_copy_str (rp->error, sizeof rp->error, msg);
  __atomic_store_n (&rp->state, state, __ATOMIC_RELEASE);
  mg_log ("%s: %s", s->plan.sources[plugin].library, msg);
}

void
mg_plugin_guard_disable (MgSampler *s, const MgPluginCall *call, int sig, uint64_t sample)
{
  char msg[MG_RECORD_MSG_LEN];
  int slot = fault_slot (sig);
  const char *name = slot >= 0 ? fault_names[slot] : "a signal";

  if (sample > 0)
    snprintf (msg, sizeof msg, "crashed in %s with %s at sample %llu; its metrics stop there",
              call->function, name, (unsigned long long) sample);
  else
    snprintf (msg, sizeof msg, "crashed in %s with %s; nothing of it is called again",
              call->function, name);
  stop_plugin (s, call->plugin, MG_PLUGIN_STATE_CRASHED, sig, msg);
}

void
mg_plugin_guard_timed_out (MgSampler *s, const MgPluginCall *call, uint64_t sample)
{
  char msg[MG_RECORD_MSG_LEN];
  double limit_s = (double) call->limit_ns / 1e9;
  double since_s = (double) (call->since_ns - s->start_ns) / 1e9;

  if (sample > 0)
    snprintf (msg, sizeof msg, "hung in %s at sample %llu (called at %.3g s, no return within "
              "%.3g s); its metrics stop there", call->function, (unsigned long long) sample,
              since_s, limit_s);
  else
    snprintf (msg, sizeof msg, "did not return from %s within %.3g s; nothing of it is called "
              "again", call->function, limit_s);
  stop_plugin (s, call->plugin, MG_PLUGIN_STATE_HUNG, 0, msg);
}

void
mg_plugin_guard_report_hang (MgSampler *s, const MgPluginCall *call, int64_t now_ns)
{
  char msg[MG_RECORD_MSG_LEN];
  double since_s = (double) (call->since_ns - s->start_ns) / 1e9;
  int64_t bound_ns = (int64_t) s->plan.hang_intervals * s->plan.interval_ms * 1000000;

  if (now_ns - call->since_ns >= bound_ns)
    snprintf (msg, sizeof msg, "hung in %s since %.3g s; its metrics stop there",
              call->function, since_s);
  else
    snprintf (msg, sizeof msg, "had not returned from %s when the process ended (called at "
              "%.3g s)", call->function, since_s);
  stop_plugin (s, call->plugin, MG_PLUGIN_STATE_HUNG, 0, msg);
}

MG_EXPORT int
sigaction (int sig, const struct sigaction *act, struct sigaction *old)
{
  resolve ();
  /* A vfork child (Python's subprocess resets every caught signal in one
   * before its exec) shares our memory but has a handler table of its
   * own: what it sets is its own, and must change neither the parent's
   * stacks nor the handlers kept for the parent's faults. */
  if (!mg_sampler_owns_process ())
    return real_sigaction (sig, act, old);
  if (act)
    mg_stacks_program_takes (sig);
  int slot = fault_slot (sig);
  if (slot < 0 || !installed)
    return real_sigaction (sig, act, old);
  if (old)
    *old = program_actions[slot];
  if (act)
    program_actions[slot] = *act;
  return 0;
}

/* glibc's signal() has BSD semantics: restart, and the signal blocked in
 * its own handler. */
MG_EXPORT sighandler_t
signal (int sig, sighandler_t handler)
{
  resolve ();
  if (!mg_sampler_owns_process ())
    return real_signal (sig, handler);  /* a vfork child's: see sigaction */
  if (handler != SIG_ERR)
    mg_stacks_program_takes (sig);
  int slot = fault_slot (sig);
  if (slot < 0 || !installed)
    return real_signal (sig, handler);
  if (handler == SIG_ERR)
    {
      errno = EINVAL;
      return SIG_ERR;
    }
  struct sigaction act = { .sa_handler = handler, .sa_flags = SA_RESTART };
  sigemptyset (&act.sa_mask);
  sigaddset (&act.sa_mask, sig);
  sighandler_t previous = program_actions[slot].sa_handler;
  program_actions[slot] = act;
  return previous;
}
