/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Completes the record of a process the sampler could not close: a process
 * killed by a signal leaves its record RUNNING (the sampler installs no
 * signal handler, docs/sampler.md), as does one that ends by a raw
 * exit_group; the launcher, which reaped it, knows the signal or the status
 * and writes it in. Which record is chosen here; reading a record's
 * header and marking it are format/'s (mg-record-format.h). GTK-free. */
#pragma once

#include <glib.h>

#include "format/mg-record-format.h"

G_BEGIN_DECLS

/* Marks as ended (@state SIGNALLED by the signal @end_status, or EXITED
 * with the status @end_status), at @end_mono_ns (CLOCK_MONOTONIC), the
 * records of run @run_id in @record_dir that the process left RUNNING,
 * and returns how many were changed.
 *
 * @pid > 0: our child @pid was killed, or exited by the exit_group system
 * call itself, past exit(3) and _exit(2), where the sampler closes its
 * record (Go's runtime always does; docs/sampler.md, "How a process
 * ends"); its RUNNING records are marked.
 *
 * @pid == 0 (SIGNALLED only): the ranks ran under mpirun or srun, which we
 * never reap, but Open MPI's mpirun (and srun) exits with 128 + signal
 * when a rank was killed by a signal. That names the signal, not the
 * rank, so it is written in only when it cannot be misattributed: exactly
 * one record of the run is still RUNNING (the others were closed by their
 * sampler), its process is gone (checked on this host), and no record
 * EXITED with the status 128 + signal itself (a rank that called exit
 * (128 + signal) explains it instead). The caller makes sure every rank
 * writes a record (no --select-ranks). */
guint mg_record_finish (const char *record_dir, const char *run_id, GPid pid,
                        MgRecordState state, int end_status, gint64 end_mono_ns);

G_END_DECLS
