/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the sampler's signals share with the program's (mg-sigmask.c,
 * docs/sampler.md "Call stacks"): the masks, and the user's queue. */
#ifndef MG_SIGMASK_H
#define MG_SIGMASK_H

#include <signal.h>
#include <stdbool.h>

#include "mg-sampler-state.h"

/* The real pthread_sigmask, for the sampler's own masks. */
MG_INTERNAL int mg_sigmask_real (int how, const sigset_t *set, sigset_t *old);
/* Before an exec by this thread: our signal blocked for real if the
 * program asked for it (the new image inherits the mask); after a
 * failed one, deliverable again. */
MG_INTERNAL void mg_sigmask_before_exec (void);
MG_INTERNAL void mg_sigmask_after_failed_exec (void);

/* Each POSIX timer holds one of the user's queued signals for its life
 * (RLIMIT_SIGPENDING): under a program's tight limit (8) its own sigqueue
 * failed with EAGAIN after 1 where it queued 6 unprofiled. True, with
 * the limit, when the soft limit is below MG_SIGPENDING_ROOM (the
 * default is the machine's thread limit, tens of thousands; a limit
 * this low is the program counting): the sampler then makes no timer. */
#define MG_SIGPENDING_ROOM 256
MG_INTERNAL bool mg_sigpending_tight (unsigned long long *limit);

#endif /* MG_SIGMASK_H */
