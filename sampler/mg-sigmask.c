/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sigprocmask and pthread_sigmask, interposed while the call stacks'
 * handler is installed: the program may block every signal but ours
 * stays deliverable. A thread that blocked it kept its timer (the
 * sampler finds a thread's mask only when it first lists it), so the
 * timer's signals stayed pending there: the program's signalfd or
 * sigwaitinfo on a full set took them as its own (8 in a second), and a
 * pselect or ppoll with an empty mask (the usual race-free wait for
 * signals) returned EINTR at once with the pending one (20 times in a
 * second). Kept deliverable, the signal comes only to a running thread,
 * whose handler takes it at once, as in a thread that never blocked it.
 * What the program asked for is kept per thread and given back as the
 * old mask, so that it reads what it set; an exec blocks it for real
 * (the new image inherits the mask the program meant). */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mg-sigmask.h"
#include "mg-stacks.h"

#define MG_EXPORT __attribute__((visibility("default")))

typedef int (*MaskFn) (int, const sigset_t *, sigset_t *);

/* The program asked for our signal to be blocked in this thread. */
static __thread bool program_blocks __attribute__((tls_model ("initial-exec")));

static MaskFn
real_pthread_sigmask (void)
{
  static MaskFn fn;
  if (fn == NULL)
    *(void **) &fn = dlsym (RTLD_NEXT, "pthread_sigmask");
  return fn;
}

static MaskFn
real_sigprocmask (void)
{
  static MaskFn fn;
  if (fn == NULL)
    *(void **) &fn = dlsym (RTLD_NEXT, "sigprocmask");
  return fn;
}

/* Looked up before any constructor of the program's can call them: a
 * handler may change its mask (async-signal-safe), and dlsym is not. */
__attribute__((constructor(101))) static void
resolve (void)
{
  real_pthread_sigmask ();
  real_sigprocmask ();
}

/* Without the real function (no libc could lack it): the system call,
 * as both functions do for one thread. */
static int
raw_mask (int how, const sigset_t *set, sigset_t *old)
{
  return (int) syscall (SYS_rt_sigprocmask, how, set, old, _NSIG / 8);
}

int
mg_sigmask_real (int how, const sigset_t *set, sigset_t *old)
{
  MaskFn fn = real_pthread_sigmask ();
  return fn != NULL ? fn (how, set, old) : (raw_mask (how, set, old) == 0 ? 0 : errno);
}

/* The mask change how, set as the program asked, made with ours left out
 * while the handler is installed; real's result as it gave it (an error
 * number, or -1 with errno). */
static int
filtered (MaskFn real, int how, const sigset_t *set, sigset_t *old)
{
  sigset_t pass, real_old;
  bool in = set != NULL && sigismember (set, MG_STACKS_SIGNAL) == 1;
  /* Nothing of ours at stake: the call as it is. No system call is
   * added either way (a getpid to tell a vfork child, which runs on its
   * parent's thread and TLS, doubled the cost of a program's mask loop):
   * such a child sets the mask its parent restores after it (CPython's
   * subprocess), and its exec blocks our signal for real if asked. */
  if (!mg_stacks_signal_taken () || (!in && !program_blocks))
    return real (how, set, old);
  const sigset_t *given = set;
  if (in && how != SIG_UNBLOCK)
    {
      pass = *set;
      sigdelset (&pass, MG_STACKS_SIGNAL);
      given = &pass;
    }
  int rc = real (how, given, &real_old);
  if (rc != 0)
    return rc;
  bool was = program_blocks || sigismember (&real_old, MG_STACKS_SIGNAL) == 1;
  if (set != NULL)
    program_blocks = how == SIG_BLOCK ? was || in : how == SIG_UNBLOCK ? was && !in : in;
  if (old != NULL)
    {
      *old = real_old;
      if (was)
        sigaddset (old, MG_STACKS_SIGNAL);
    }
  return 0;
}

MG_EXPORT int
pthread_sigmask (int how, const sigset_t *set, sigset_t *old)
{
  MaskFn real = real_pthread_sigmask ();
  if (real == NULL)
    return raw_mask (how, set, old) == 0 ? 0 : errno;
  return filtered (real, how, set, old);
}

MG_EXPORT int
sigprocmask (int how, const sigset_t *set, sigset_t *old)
{
  MaskFn real = real_sigprocmask ();
  if (real == NULL)
    return raw_mask (how, set, old);
  return filtered (real, how, set, old);
}

void
mg_sigmask_before_exec (void)
{
  sigset_t ours;
  if (!program_blocks)
    return;
  sigemptyset (&ours);
  sigaddset (&ours, MG_STACKS_SIGNAL);
  mg_sigmask_real (SIG_BLOCK, &ours, NULL);
}

void
mg_sigmask_after_failed_exec (void)
{
  sigset_t ours;
  if (!program_blocks || !mg_stacks_signal_taken ())
    return;
  sigemptyset (&ours);
  sigaddset (&ours, MG_STACKS_SIGNAL);
  mg_sigmask_real (SIG_UNBLOCK, &ours, NULL);
}

bool
mg_sigpending_tight (unsigned long long *limit)
{
  struct rlimit lim;
  if (getrlimit (RLIMIT_SIGPENDING, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY
      || lim.rlim_cur >= MG_SIGPENDING_ROOM)
    return false;
  *limit = (unsigned long long) lim.rlim_cur;
  return true;
}
