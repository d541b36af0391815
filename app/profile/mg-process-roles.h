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

/* The steps of a parent that together lived at least this share of its
 * life are its work, not helpers: a shell's loop of 300 quick commands
 * measured 50 % on an idle Debian 12 machine (a step's life is counted
 * from its sampler's start, after its fork, exec and loader), 64 % on a
 * loaded one; a shim's readlink and dirname before the program 3 %. */
#define MG_HELPER_STEPS_WORK_SHARE 0.25

/* A process that used this much CPU time of its own (s) is work, never a
 * helper, however short its life: shells, env, nice, shims' readlink and
 * dirname use a few milliseconds (docs/profile-format.md says why 0.1). */
#define MG_HELPER_BUSY_S 0.1
/* The metric that gives a process's own CPU time (plugins/cpu.xml). */
#define MG_HELPER_CPU_METRIC "cpu_time_percentage"

/* Which edition of the rule judges a profile: the one its aggregates were
 * merged with, so that its counts and its numbers agree. */
typedef enum {
  /* Formats 8 and older: every short step alone is a helper. */
  MG_HELPER_RULE_STEPS_HELPERS,
  /* Format 9 on: steps that are their parent's work, and a step that
   * failed with its parent, are processes. */
  MG_HELPER_RULE_STEPS_MAY_BE_WORK,
} MgHelperRule;

#define MG_HELPER_RULE_CURRENT MG_HELPER_RULE_STEPS_MAY_BE_WORK

/* The index of MG_HELPER_CPU_METRIC among metrics (MgMetricDef *, the
 * profile's or the builder's), -1 when it is not there as a time-domain
 * metric (disabled). */
int mg_process_roles_find_cpu_metric (GPtrArray *metrics);

/* The CPU seconds of process, or NaN when unknown (the metric not
 * recorded, no samples): mg_process_roles_cpu_seconds of its series. */
typedef double (*MgProcessCpuFunc) (guint process, gpointer user_data);

/* Sets helper[i] for each of the n processes, by the rule of the docs in
 * its edition rule; interval_ms: the sampling interval at the start.
 * cpu_seconds (may be
 * NULL: unknown for all) is asked only about the processes that their
 * times would make helpers. Never all of them. */
void mg_process_roles_find_helpers (const MgProcessInfo *processes, guint n, double interval_ms,
                                    MgHelperRule rule, MgProcessCpuFunc cpu_seconds,
                                    gpointer user_data, gboolean *helper);

/* The CPU time (s) in n samples of MG_HELPER_CPU_METRIC (percent of one
 * core): the sum of mean / 100 × the sample's window, which runs from the
 * previous sample's end (the first: from start_s, the process's start) to
 * its own end in times. NaN means are skipped; NaN when n is 0 or no mean
 * is a number. */
double mg_process_roles_cpu_seconds (const double *times, const double *means, gsize n,
                                     double start_s);

G_END_DECLS
