/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A seccomp filter that the program installed (docs/sampler.md, "A
 * seccomp filter"): the filter may kill the whole process for a system
 * call that only the sampler makes (timer_create, perf_event_open, …), so
 * a thread under one makes no more of ours than it must. */
#ifndef MG_SECCOMP_H
#define MG_SECCOMP_H

#include <stdbool.h>

#include "format/mg-record-format.h"

#define MG_SECCOMP_HIDDEN __attribute__((visibility("hidden")))

/* Whether the calling thread runs under a seccomp filter (or in strict
 * mode): one prctl. Filters are per thread and inherited by the threads
 * and children it makes, never removed. */
MG_SECCOMP_HIDDEN bool mg_seccomp_filtered (void);

/* Stops @h's recording with the reason (memory only, no system call),
 * unless it stopped already for another. */
MG_SECCOMP_HIDDEN void mg_seccomp_stop_record (MgRecordHeader *h);

#endif
