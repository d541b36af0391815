/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A library whose constructor installs a SIGSEGV handler before the
 * sampler starts (the "installed before us" case): listed after the sampler
 * in LD_PRELOAD, it is initialised first. The handler says so and ends the
 * process with status 43. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void
on_segv (int sig, siginfo_t *info, void *context)
{
  static const char msg[] = "early handler\n";
  if (write (STDOUT_FILENO, msg, sizeof msg - 1) < 0)
    _exit (44);
  _exit (43);
}

/* The kernel's own view: a handler already there means the sampler's
 * constructor ran first and the test would not test what it says. */
static int
kernel_has_handler (int sig)
{
  struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } k;
  memset (&k, 0, sizeof k);
  if (syscall (SYS_rt_sigaction, sig, NULL, &k, sizeof k.mask) != 0)
    return 1;
  return k.handler != (void *) SIG_DFL;
}

__attribute__((constructor)) static void
install_early (void)
{
  if (kernel_has_handler (SIGSEGV))
    {
      static const char msg[] = "mg-test-early-handler: the sampler ran first\n";
      if (write (STDERR_FILENO, msg, sizeof msg - 1) < 0)
        _exit (45);
      _exit (45);
    }
  struct sigaction act = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
  sigemptyset (&act.sa_mask);
  sigaction (SIGSEGV, &act, NULL);
}
