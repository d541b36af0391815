/* Signal-blocking spinlock: see mg-api-internal.h for why. */
#include "mg-api-internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's sigset is 64 bits on every Linux architecture we build for. */
#define MG_KERNEL_SIGSET_SIZE 8

void
mg_sig_lock_acquire (MgSigLock *lock, uint64_t *saved_mask)
{
  uint64_t all = ~(uint64_t) 0;
  syscall (SYS_rt_sigprocmask, SIG_BLOCK, &all, saved_mask, MG_KERNEL_SIGSET_SIZE);
  unsigned spins = 0;
  while (__atomic_exchange_n (&lock->locked, 1, __ATOMIC_ACQUIRE))
    {
      /* Another thread holds it: it cannot be us (signals are blocked). */
      if (++spins % 64 == 0)
        syscall (SYS_sched_yield);
#if defined(__x86_64__) || defined(__i386__)
      else
        __builtin_ia32_pause ();
#endif
    }
}

void
mg_sig_lock_release (MgSigLock *lock, const uint64_t *saved_mask)
{
  __atomic_store_n (&lock->locked, 0, __ATOMIC_RELEASE);
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, saved_mask, NULL, MG_KERNEL_SIGSET_SIZE);
}

void
mg_api_fatal (const char *message)
{
  static const char prefix[] = "metrograph-sampler: ";
  syscall (SYS_write, 2, prefix, sizeof prefix - 1);
  syscall (SYS_write, 2, message, strlen (message));
  syscall (SYS_write, 2, "\n", 1);
  abort ();
}
