/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the processes ended, grouped: the processes (not helpers) that ended
 * alike (the same way, the same status or signal) make one group, said in
 * one sentence ("64 processes exited with status 0"); a helper, and a
 * process that ended unlike any other, is a group of its own. */
#pragma once

#include <glib.h>

#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* Of GArray (guint: process indices, ascending), in the order of each
 * group's first process. */
GPtrArray *mg_process_ends_group (MgProfile *profile);
/* "64 processes exited with status 0", "2 processes crashed: signal 11
 * (Segmentation fault)". */
char *mg_process_ends_describe (MgProfile *profile, GArray *group);
/* Which processes: "ranks 0–3, 8, 10–63", or by pid when they have no
 * rank; long lists end in "…". */
char *mg_process_ends_describe_members (MgProfile *profile, GArray *group);

G_END_DECLS
