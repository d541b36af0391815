/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault isolation for plugin calls: a handler for the four synchronous
 * fault signals that jumps out of a plugin call on the thread that made it,
 * and otherwise hands the signal to the program exactly as the kernel would
 * have. signal() and sigaction() are interposed for these signals so that a
 * program that installs its own handler after us keeps ours in front of it
 * and still sees its own handler as the one installed. */
#include "mg-plugin-guard.h"

#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

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

static int
fault_slot (int sig)
{
  for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
    if (fault_signals[i] == sig)
      return (int) i;
  return -1;
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

static void
on_fault (int sig, siginfo_t *info, void *context)
{
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
  sigemptyset (&faults);
  for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
    sigaddset (&faults, fault_signals[i]);
  pthread_sigmask (SIG_UNBLOCK, &faults, NULL);
}

int
mg_plugin_guard_call (const MgPluginCall *call, MgGuardedFn fn, void *data, int *ret)
{
  sigjmp_buf env;
  sigjmp_buf *volatile outer = guard_env;
  /* No mask to save: the handler runs with SA_NODEFER. */
  int sig = sigsetjmp (env, 0);
  if (sig == 0)
    {
      guard_env = &env;
      current_call = *call;
      __atomic_store_n (&current_active, 1, __ATOMIC_RELEASE);
      *ret = fn (data);
    }
  __atomic_store_n (&current_active, 0, __ATOMIC_RELEASE);
  guard_env = outer;
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
