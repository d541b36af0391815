/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan (docs/run-plan.md): parsed once, before sampling starts, with
 * libc only. The parsed plan lives until the process ends. */
#ifndef MG_PLAN_H
#define MG_PLAN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *id;
  char *library;
  char *start_fn;   /* "" when none */
  char *stop_fn;
  /* A Score-P plugin (scorep_plugin line), else all NULL. */
  char *scorep_name;
  char *scorep_tokens;  /* MG_PLAN_SCOREP_TOKEN_SEPARATOR between tokens */
  char *scorep_error;   /* "" unless the front end could not list it */
} MgPlanSource;

typedef struct {
  unsigned source;
  char *id;
  char *getter;
  char *units;
  char *config_env; /* "" when none */
  char *custom_data;
  bool is_double;
  bool divide;
  bool percent;      /* units "%": divide multiplies by 100, over its own span */
  bool one_per_node;
  bool backfill;
  bool single_value;
} MgPlanMetric;

/* Ranks first..last, both included. */
typedef struct {
  long first;
  long last;
} MgPlanRankRange;

typedef struct {
  char *run_id;
  char *record_dir;
  long interval_ms;     /* resolved: plan, then environment, then 20 */
  long samples;         /* resolved likewise, default 4096 */
  long start_after_ms;
  long stop_after_ms;   /* 0: never */
  long hang_intervals;  /* a getter running this long is hung (default 50) */
  long plugin_limit_ms; /* initialise, start, stop, cleanup: abandoned after */
  long no_stacks;       /* non-zero: no call stacks (--no-stacks) */
  char **skip;
  size_t n_skip;
  MgPlanRankRange *ranks; /* select_ranks; none: every rank is sampled */
  size_t n_ranks;
  bool select_ranks;    /* a select_ranks line was given */
  MgPlanSource *sources;
  size_t n_sources;
  MgPlanMetric *metrics;
  size_t n_metrics;
  char *text;           /* the plan's text: every string above points into it */
} MgPlan;

/* Parses path into plan. On failure returns -1 and writes
 * "<path>:<line>: <what is wrong>" into err. */
__attribute__((visibility("hidden")))
int mg_plan_load (const char *path, MgPlan *plan, char *err, size_t err_len);
/* The same from text, the contents of path (the front end passes them in
 * the environment): no file is read; messages name path. */
__attribute__((visibility("hidden")))
int mg_plan_load_text (const char *path, const char *text, MgPlan *plan, char *err,
                       size_t err_len);

/* Frees everything mg_plan_load allocated and zeroes plan. */
__attribute__((visibility("hidden")))
void mg_plan_clear (MgPlan *plan);

/* True when program_name's basename is one of the plan's skip_program lines. */
__attribute__((visibility("hidden")))
bool mg_plan_skips (const MgPlan *plan, const char *program_name);

/* True when the plan samples a process of MPI rank @rank (-1: not an MPI
 * process, always sampled). */
__attribute__((visibility("hidden")))
bool mg_plan_selects_rank (const MgPlan *plan, long rank);

#endif /* MG_PLAN_H */
