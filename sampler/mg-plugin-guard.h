/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fault isolation for plugin calls (docs/sampler.md, "When a plugin
 * fails"). A synchronous fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) raised
 * inside a guarded call is caught on the calling thread and the call
 * returns the signal; any other fault goes to the program's own handlers,
 * those it installed before the sampler and those it installs after
 * (signal() and sigaction() are interposed for these four signals). */
#ifndef MG_PLUGIN_GUARD_H
#define MG_PLUGIN_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "mg-sampler-state.h"

/* The plugin call in progress, read when the process ends to name a hang. */
typedef struct {
  size_t plugin;         /* source index */
  const char *function;  /* the plugin's function, for messages */
  int64_t since_ns;      /* when the call began (monotonic) */
  int64_t limit_ns;      /* abandoned at since_ns + limit_ns; 0: no limit */
} MgPluginCall;

/* What mg_plugin_guard_call returns for a call abandoned at its limit. */
#define MG_PLUGIN_GUARD_TIMED_OUT (-1)

typedef int (*MgGuardedFn) (void *data);

/* Installs the fault handlers, keeping the program's. Called once, in the
 * constructor, before any plugin is loaded. */
MG_INTERNAL void mg_plugin_guard_install (void);

/* Lets the calling thread (the sampling thread, which blocks every other
 * signal) receive the four fault signals. */
MG_INTERNAL void mg_plugin_guard_thread_init (void);

/* Watches the calling thread's guarded calls for the time limit with a
 * tick every period_ns (a POSIX timer aimed at this thread, no thread of
 * its own, and the fault signals unblocked): for the sampling thread's
 * life, and on a program thread around the plugins' start and end, so
 * that a call costs no system call. Nests (the inner pair does nothing).
 * A call with a limit on a thread not watched arms a timer of its own. */
MG_INTERNAL void mg_plugin_guard_watch_begin (int64_t period_ns);
MG_INTERNAL void mg_plugin_guard_watch_end (void);
/* On the watched thread between calls: once a period, one sigaction
 * query; the watch ends if the fault handler is no longer ours (replaced
 * through the raw system call), so that no tick reaches the program. */
MG_INTERNAL void mg_plugin_guard_watch_check (int64_t now_ns);

/* Runs fn (data) as call: returns 0 with fn's result in *ret, the number
 * of the signal that interrupted it, or MG_PLUGIN_GUARD_TIMED_OUT when it
 * ran past call->limit_ns and was abandoned (then *ret is untouched). */
MG_INTERNAL int mg_plugin_guard_call (const MgPluginCall *call, MgGuardedFn fn, void *data,
                                      int *ret);

/* Copies the plugin call in progress (on the sampling thread) into out;
 * false when there is none. */
MG_INTERNAL bool mg_plugin_guard_current (MgPluginCall *out);

/* The plugin of call faulted with sig: its state becomes CRASHED with a
 * message naming the function, the signal and the sample (1, 2…; 0 for a
 * call outside sampling), its metrics stop and none of its functions is
 * called again. */
MG_INTERNAL void mg_plugin_guard_disable (MgSampler *s, const MgPluginCall *call, int sig,
                                          uint64_t sample);

/* call ran past its limit and was abandoned: its plugin is HUNG (the
 * message names the function, the limit and the sample, 0 outside
 * sampling), and nothing of it is called again. */
MG_INTERNAL void mg_plugin_guard_timed_out (MgSampler *s, const MgPluginCall *call,
                                            uint64_t sample);

/* The process ends while call has not returned: plugin call->plugin is
 * HUNG (the message says since when, and whether the bound was passed). */
MG_INTERNAL void mg_plugin_guard_report_hang (MgSampler *s, const MgPluginCall *call,
                                              int64_t now_ns);

#endif /* MG_PLUGIN_GUARD_H */
