/* Completes the record of a process the sampler could not close: a process
 * killed by a signal leaves its record RUNNING (the sampler installs no
 * signal handler, docs/sampler.md); the launcher, which reaped it, knows the
 * signal and writes it in. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Marks the RUNNING records of @pid in @record_dir (of run @run_id) as
 * SIGNALLED by @signal, ended at @end_mono_ns (CLOCK_MONOTONIC). Returns how
 * many records were changed. */
guint mg_record_finish_signalled (const char *record_dir, const char *run_id, int pid,
                                  int signal, gint64 end_mono_ns);

G_END_DECLS
