/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Builds an MgProfile from per-process samples: used by the merge of sampler
 * records and by tests that need profiles of known shape. The builder puts
 * every process's samples onto one grid of sample windows and computes the
 * aggregates (min / max / mean / variance / sum across processes, and which
 * process held the min and the max). GTK-free. */
#pragma once

#include "mg-builder-cache.h"
#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct _MgProfileBuilder MgProfileBuilder;

MgProfileBuilder *mg_profile_builder_new (void);
void mg_profile_builder_free (MgProfileBuilder *self);

/* Finishing keeps what the next builder given the cache can reuse. */
void mg_profile_builder_set_cache (MgProfileBuilder *self, MgProfileBuilderCache *cache);
/* Windows of one width, a power of two (s), the smallest that makes no more
 * windows than finish's n_windows (or its default); the last one ends at
 * the run's end. Unlike the uniform grid's, these windows stay where they
 * are as the run grows (until the width doubles): the live view's grid. */
void mg_profile_builder_set_stable_grid (MgProfileBuilder *self);

/* Run facts; argv, working_dir and version are copied. Hosts, process and
 * node counts and the duration come from the processes added. */
void mg_profile_builder_set_command (MgProfileBuilder *self, const char *const *argv,
                                     const char *working_dir);
/* The program's output (stdout and stderr as they came); its last
 * MG_PROFILE_OUTPUT_MAX bytes are kept, the bytes left out added to cut
 * (bytes already left out before). NULL: none captured. */
void mg_profile_builder_set_output (MgProfileBuilder *self, const char *output, guint64 cut);
void mg_profile_builder_set_start_time (MgProfileBuilder *self, gint64 start_time_us);
void mg_profile_builder_set_interval (MgProfileBuilder *self, double start_ms, double end_ms,
                                      guint max_samples);
void mg_profile_builder_set_exit_status (MgProfileBuilder *self, int exit_status);

/* Definitions are copied. Returns the metric's index. */
guint mg_profile_builder_add_metric (MgProfileBuilder *self, const MgMetricDef *def);
void mg_profile_builder_add_group (MgProfileBuilder *self, const MgMetricGroup *group);

/* Returns the process index; info is copied. */
guint mg_profile_builder_add_process (MgProfileBuilder *self, const MgProcessInfo *info);
/* The process's facts replaced (copied): a process that exec'd took on its
 * new image's program and end. */
void mg_profile_builder_update_process (MgProfileBuilder *self, guint process,
                                        const MgProcessInfo *info);

/* One sample window of one process: (t_start_s, t_end_s] and per metric
 * min / max / mean, NaN where the metric has no value. Arrays have one entry
 * per metric added so far (metrics must all be added before samples). */
void mg_profile_builder_add_sample (MgProfileBuilder *self, guint process, double t_start_s,
                                    double t_end_s, const double *mins, const double *maxs,
                                    const double *means);
/* Optional: room for n_samples more samples of the process, so that adding
 * them does not reallocate. */
void mg_profile_builder_reserve (MgProfileBuilder *self, guint process, guint n_samples);
/* The process's first n samples are the first n of process `previous` of
 * the cache's profile (the caller knows them unchanged): they are copied
 * from it, and only the rest is added. Call before adding the process's
 * samples (after reserving room for all of them). Returns how many were taken: 0 without a cache or such a process. */
guint mg_profile_builder_reuse_samples (MgProfileBuilder *self, guint process, guint previous,
                                        guint n);
/* The process has all its samples: its series are packed into a compact
 * block now, on another thread, so that the builder's memory stays that of
 * the profile's file rather than of every sample (the merge of thousands
 * of processes). Once one process is packed, finishing packs the rest and
 * the profile keeps its processes' series packed, decoded when asked for.
 * Single values can still be set. */
void mg_profile_builder_pack (MgProfileBuilder *self, guint process);
/* A single-value metric's value in one process. */
void mg_profile_builder_set_single_value (MgProfileBuilder *self, guint process, guint metric,
                                          double value);

void mg_profile_builder_add_plugin_error (MgProfileBuilder *self, const MgPluginError *error);
void mg_profile_builder_add_metric_error (MgProfileBuilder *self, const MgMetricError *error);
void mg_profile_builder_add_event (MgProfileBuilder *self, const MgProcessEvent *event);

/* Computes the aggregates; the builder is spent afterwards. n_windows == 0
 * chooses the window count from the samples. */
MgProfile *mg_profile_builder_finish (MgProfileBuilder *self, guint n_windows, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgProfileBuilder, mg_profile_builder_free)

G_END_DECLS
