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

/* Notes whether the image starts under a filter (in its constructor). A
 * filter it inherited is not the program's doing: a container's (Docker's
 * default profile), a service manager's, the front end's own; it was
 * there when the launcher ran too, and the sampler keeps to its usual
 * ways under it (a fork child keeps its parent's note). */
MG_SECCOMP_HIDDEN void mg_seccomp_note_start (void);

/* Whether the calling thread runs under a seccomp filter (or in strict
 * mode) that the image did not start under: one prctl. Filters are per
 * thread and inherited by the threads and children it makes, never
 * removed. Always false in an image that started under one. */
MG_SECCOMP_HIDDEN bool mg_seccomp_filtered (void);

/* Stops @h's recording with the reason (memory only, no system call),
 * unless it stopped already for another. */
MG_SECCOMP_HIDDEN void mg_seccomp_stop_record (MgRecordHeader *h);

#endif
