/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program's signal masks and the call stacks' signal (mg-sigmask.c,
 * docs/sampler.md "Call stacks"). */
#ifndef MG_SIGMASK_H
#define MG_SIGMASK_H

#include <signal.h>

#include "mg-sampler-state.h"

/* The real pthread_sigmask, for the sampler's own masks. */
MG_INTERNAL int mg_sigmask_real (int how, const sigset_t *set, sigset_t *old);
/* Before an exec by this thread: our signal blocked for real if the
 * program asked for it (the new image inherits the mask); after a
 * failed one, deliverable again. */
MG_INTERNAL void mg_sigmask_before_exec (void);
MG_INTERNAL void mg_sigmask_after_failed_exec (void);

#endif /* MG_SIGMASK_H */
