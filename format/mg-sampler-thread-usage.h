/* What the sampler's own thread has cost so far: the one contract between
 * libmetrograph-sampler.so and the built-in plugins that is not part of the
 * MAP plugin API. The CPU Time plugin leaves this out of the program's
 * figures, and the Sampler overhead plugin reports it. A plugin refers to
 * mg_sampler_thread_usage weakly, so that it still loads (without these
 * figures) under another host of the MAP API. libc only. */
#ifndef MG_SAMPLER_THREAD_USAGE_H
#define MG_SAMPLER_THREAD_USAGE_H

#include <stdint.h>
#include <sys/types.h>

typedef struct {
  pid_t tid;            /* the thread's id while it runs, else 0 */
  uint64_t cpu_ns;      /* its CPU clock: exact */
  uint64_t user_ns;     /* getrusage's split of it (RUSAGE_THREAD) */
  uint64_t system_ns;
  uint64_t voluntary;   /* its context switches */
  uint64_t involuntary;
} MgSamplerThreadUsage;

/* Fills *out with the sampler thread's usage in this process so far (all 0
 * before it starts; its final figures once it has ended). Called on the
 * sampler thread or after it ended; from another thread while it runs it
 * returns -1 (its split cannot be read from there). Async-signal-safe. */
int mg_sampler_thread_usage (MgSamplerThreadUsage *out);

#endif /* MG_SAMPLER_THREAD_USAGE_H */
