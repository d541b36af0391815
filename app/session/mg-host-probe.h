/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What this machine cannot measure, found without a profile recorded on
 * it: a short program (sleep 0.3) run once under the sampler with every
 * metric that can be switched on, whose plugins decline what they have
 * nothing to measure on here (no RAPL, no counters: docs/plugin-api.md).
 * Its profile says which (mg-unavailable.h); it is kept for the rest of
 * the process, so the run dialog opens without waiting and the probe runs
 * once. MPI metrics are left out: their plugins decline outside an MPI
 * program, which says nothing of the machine. GTK-free. */
#pragma once

#include <gio/gio.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* The probe's profile (a new run only the first time; one that failed is
 * tried again next time). @cancellable only stops the callback from being
 * told: the probe itself runs to its end, for the next caller. */
void mg_host_probe_run_async (GCancellable *cancellable, GAsyncReadyCallback callback,
                              gpointer user_data);
MgProfile *mg_host_probe_run_finish (GAsyncResult *result, GError **error);
/* Forgets the kept profile (tests: another environment). */
void mg_host_probe_forget (void);
/* Ends a probe still running at once, leaving nothing (the application
 * quits); its callbacks are told it failed. */
void mg_host_probe_abandon (void);
/* How many probe runs this process started (tests). */
guint mg_host_probe_get_n_runs (void);

G_END_DECLS
