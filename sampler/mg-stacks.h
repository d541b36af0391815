/* SPDX-License-Identifier: GPL-3.0-or-later */
/* On-CPU call stacks (docs/sampler.md, "Call stacks"): a CPU-time timer per
 * thread signals only a running thread; the handler unwinds
 * (mg-unwind.h) and counts the stack in the record's table
 * (format/mg-record-stacks.h); the sampler thread follows the threads,
 * the modules and the interval, and moves the counts into each slot. */
#ifndef MG_STACKS_H
#define MG_STACKS_H

#include <signal.h>
#include <stdbool.h>

#include "mg-sampler-state.h"

/* The signal the timers send: a real-time signal from the top of the range,
 * away from the low ones that programs and libraries take first. */
#define MG_STACKS_SIGNAL (SIGRTMAX - 3)

/* Test-only: the stack table's size (distinct stacks), to fill it. */
#define MG_STACKS_TABLE_ENV "METROGRAPH_TEST_STACK_TABLE"

/* The table size for a new record: 0 when the plan turned stacks off. */
MG_INTERNAL uint32_t mg_stacks_table_size (const MgSampler *s);
/* At sampling start (a new record): the handler and the unwinder's
 * tables; the timers follow on the sampler thread's rounds. */
MG_INTERNAL void mg_stacks_start (MgSampler *s);
/* On the sampler thread, at each round before the getters: new and
 * ended threads, modules, the interval. */
MG_INTERNAL void mg_stacks_round (MgSampler *s);
/* Into the round's slot n, after the getters. */
MG_INTERNAL void mg_stacks_drain (MgSampler *s, uint32_t n);
/* Deletes every timer and waits for handlers in progress: at the end
 * (exit, exec) once the sampler thread has stopped. */
MG_INTERNAL void mg_stacks_stop (MgSampler *s);
/* The same without the threads' last names (no /proc read): at an exec
 * under a seccomp filter (mg-seccomp.h), so that no timer's signal is
 * left pending for the new image, which would die of it. */
MG_INTERNAL void mg_stacks_disarm (void);
/* In a fork child: the parent's timers are not ours. */
MG_INTERNAL void mg_stacks_forget_threads (void);
/* A new sampler thread takes over in this process: it is found again (it
 * gets no timer) at its first round. */
MG_INTERNAL void mg_stacks_forget_sampler_thread (void);
/* The program installs a handler for sig: when it is ours, stacks stop
 * (timers deleted first), so that the program's handler never gets our
 * signal. */
MG_INTERNAL void mg_stacks_program_takes (int sig);
/* True while the signal is ours (the handler installed): the program's
 * masks leave it deliverable (mg-sigmask.c). */
MG_INTERNAL bool mg_stacks_signal_taken (void);

#endif /* MG_STACKS_H */
