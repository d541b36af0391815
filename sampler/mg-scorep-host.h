/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hosting Score-P metric plugins beside MAP's (docs/scorep-plugins.md): a
 * plan source with a scorep_plugin line is loaded here instead of by
 * mg-plugin-loader.c, and its metrics are read here instead of through
 * getters. The small hooks below are called by the loader and the sampling
 * round; everything is allocated while loading, never in a round (except
 * freeing the lists the plugins' get_all_values allocate, as the ABI asks). */
#ifndef MG_SCOREP_HOST_H
#define MG_SCOREP_HOST_H

#include "mg-sampler-state.h"

/* True when plan metric m belongs to a Score-P plugin. */
MG_INTERNAL bool mg_scorep_owns_metric (const MgSampler *s, size_t m);

/* The lifecycle up to the first read for source i: get_info and its
 * checks, set_clock_function, initialize, get_event_info per token,
 * add_counter per planned metric, synchronize (BEGIN). Faults go into the
 * record's plugin and metric tables. */
MG_INTERNAL void mg_scorep_load (MgSampler *s, size_t i);
/* False when add_counter refused metric m (or its plugin is not running). */
MG_INTERNAL bool mg_scorep_metric_usable (const MgSampler *s, size_t m);

/* STRICTLY_SYNC and SYNC metrics: the value now, scaled, as the round's
 * divide expects it (an ACCUMULATED metric's increase since its last
 * value). False: no value (a gap), and always for ASYNC metrics. */
MG_INTERNAL bool mg_scorep_read (MgSampler *s, size_t m, int64_t now_ns, double *out);
/* In each round, before the slot at index n is committed: the
 * ASYNC_EVENT metrics' new values into their windows (ASYNC ones wait for
 * the end, as in Score-P). */
MG_INTERNAL void mg_scorep_collect (MgSampler *s, MgRecordSample *slot, uint32_t n);
/* At the end of the measurement (sampling's end, or MPI_Finalize), once
 * per plugin: synchronize (END), then one get_all_values per asynchronous
 * metric, its values into the windows of their timestamps. */
MG_INTERNAL void mg_scorep_stop (MgSampler *s);
/* True between a successful initialize and finalize. */
MG_INTERNAL bool mg_scorep_running (size_t i);
/* finalize, once, for a source whose initialize succeeded. */
MG_INTERNAL void mg_scorep_finalize (MgSampler *s, size_t i);

#endif /* MG_SCOREP_HOST_H */
