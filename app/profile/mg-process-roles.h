/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which processes of a run are helpers: the shells, wrappers and shims a
 * launch goes through, listed but left out of the statistics across
 * processes (docs/profile-format.md, "Helper processes"). */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

/* A helper lived at most this many sampling intervals (at the start)... */
#define MG_HELPER_QUICK_INTERVALS 5
/* ...or this long, whichever is longer (s). */
#define MG_HELPER_QUICK_MIN_S 0.25

/* Sets helper[i] for each of the n processes, by the rule of the docs;
 * interval_ms: the sampling interval at the start. Never all of them. */
void mg_process_roles_find_helpers (const MgProcessInfo *processes, guint n, double interval_ms,
                                    gboolean *helper);

G_END_DECLS
