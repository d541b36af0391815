/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal helpers shared by the allinea_* API implementation. libc only. */
#ifndef MG_API_INTERNAL_H
#define MG_API_INTERNAL_H

#include <stdint.h>

/* Exported API symbols stay visible even if the library is built with
 * -fvisibility=hidden; everything else is hidden. */
#define MG_API __attribute__((visibility("default")))
#define MG_HIDDEN __attribute__((visibility("hidden")))

/* A spinlock that is safe against signal handlers on the same thread, with
 * no system call in the common path. The lock word holds the owner's thread
 * id (pthread_self(), a register read), set by one compare-and-swap, so a
 * handler that interrupted the holder sees its own id and must not wait:
 * mg_lock_acquire() then returns 0 and the caller takes a lock-free fallback.
 * (Blocking signals around the lock would be simpler but costs two
 * rt_sigprocmask calls per acquisition: ~4.6 us per malloc/free pair here
 * against ~0.1 us now.) */
typedef struct {
  uintptr_t owner;   /* 0: free */
} MgLock;

#define MG_LOCK_INIT { 0 }

/* 1: acquired. 0: this thread already holds it (re-entered from a signal
 * handler); nothing was acquired. */
MG_HIDDEN int mg_lock_acquire (MgLock *lock);
MG_HIDDEN void mg_lock_release (MgLock *lock);

/* The safe I/O counts (metrograph_get_safe_io_counts), read here without
 * a call by the sampler's atfork child handler (whose code page is the
 * only one of the sampler's it then needs). */
MG_HIDDEN extern uint64_t mg_bytes_read, mg_bytes_written, mg_read_calls, mg_write_calls;

/* For tests: takes (hold) or releases the allocator's lock on the calling
 * thread, to make its signal-handler fallbacks happen deterministically. */
MG_HIDDEN void mg_safe_malloc_hold_lock_for_test (int hold);

/* Computes the core counts once, before the plugins are initialised
 * (mg_plugins_load), so that their getters only read them: a process that
 * loads no plugin (one that ends in its first moments) pays nothing. */
MG_HIDDEN void mg_system_info_warm (void);

/* Writes a message on stderr (fd 2) and aborts; async-signal-safe. */
MG_HIDDEN _Noreturn void mg_api_fatal (const char *message);

#endif /* MG_API_INTERNAL_H */
