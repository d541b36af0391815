/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* Through mpirun or srun we never reap the ranks, but Open MPI's mpirun (and
 * srun) exits with 128 + signal when a rank was killed by a signal. That
 * names the signal, not the rank, so it is written in only when it cannot be
 * misattributed: exactly one record of the run is still RUNNING (the others
 * were closed by their sampler), its process is gone (checked on this host),
 * and no record EXITED with the status @launcher_status itself (a rank that
 * called exit (128 + signal) explains it instead). The caller makes sure
 * every rank writes a record (no --select-ranks). Returns TRUE when that
 * record was marked SIGNALLED. */
gboolean mg_record_finish_lone_running (const char *record_dir, const char *run_id,
                                        int launcher_status, gint64 end_mono_ns);

G_END_DECLS
