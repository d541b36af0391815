/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Functions table's figures across processes (issue 30 point 1, issue
 * 29 point 6): for each function of a profile's stacks in a time range,
 * its self and total share of each process's samples, then min, mean and
 * max over the processes with samples and the process of each extreme
 * (mg-process-spread.h), keyed by the namer's function ids, so that they
 * join the rows of any MgCallTree built with the same namer. Kept apart
 * from mg-call-tree.c: one call tree per process, built here. */
#pragma once

#include <glib.h>

#include "plot/mg-call-index.h"
#include "plot/mg-frame-namer.h"
#include "profile/mg-process-spread.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* Every process of PROFILE with stacks sampled in (t0, t1] (seconds from
 * the run's start; -INFINITY, INFINITY for the whole run). Finished. */
MgProcessSpread *mg_function_spread_new (MgFrameNamer *namer, MgProfile *profile, double t0,
                                         double t1);
/* The same from INDEX (the profile's, built with the namer), over the
 * profile's N_PROCESSES: each process's entries summed once into the
 * index's stacks, no stack read or named again (the Code pane's). */
MgProcessSpread *mg_function_spread_new_for_index (const MgCallIndex *index, guint n_processes,
                                                   double t0, double t1);

G_END_DECLS
