/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The owner-tagged spinlock: see mg-api-internal.h for why. */
#include "mg-api-internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int
mg_lock_acquire (MgLock *lock)
{
  uintptr_t self = (uintptr_t) pthread_self ();
  if (__atomic_load_n (&lock->owner, __ATOMIC_RELAXED) == self)
    return 0;   /* a handler interrupted this thread inside the lock */
  unsigned spins = 0;
  for (;;)
    {
      uintptr_t expected = 0;
      if (__atomic_compare_exchange_n (&lock->owner, &expected, self, 0,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return 1;
      /* Held by another thread, which will release it: wait. */
      if (++spins % 64 == 0)
        syscall (SYS_sched_yield);
#if defined(__x86_64__) || defined(__i386__)
      else
        __builtin_ia32_pause ();
#endif
    }
}

void
mg_lock_release (MgLock *lock)
{
  __atomic_store_n (&lock->owner, 0, __ATOMIC_RELEASE);
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
