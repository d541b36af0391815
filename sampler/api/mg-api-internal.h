/* Internal helpers shared by the allinea_* API implementation. libc only. */
#ifndef MG_API_INTERNAL_H
#define MG_API_INTERNAL_H

#include <stdint.h>

/* Exported API symbols stay visible even if the library is built with
 * -fvisibility=hidden; everything else is hidden. */
#define MG_API __attribute__((visibility("default")))
#define MG_HIDDEN __attribute__((visibility("hidden")))

/* A spinlock that is safe against signal handlers on the same thread: all
 * signals are blocked (raw rt_sigprocmask, no libc state) while it is held, so
 * a handler can never interrupt the holder and then spin on the lock forever.
 * Critical sections guarded by it are a few dozen instructions long. */
typedef struct {
  volatile int locked;
} MgSigLock;

#define MG_SIG_LOCK_INIT { 0 }

MG_HIDDEN void mg_sig_lock_acquire (MgSigLock *lock, uint64_t *saved_mask);
MG_HIDDEN void mg_sig_lock_release (MgSigLock *lock, const uint64_t *saved_mask);

/* Writes a message on stderr (fd 2) and aborts; async-signal-safe. */
MG_HIDDEN _Noreturn void mg_api_fatal (const char *message);

#endif /* MG_API_INTERNAL_H */
