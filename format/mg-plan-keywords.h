/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan's grammar (docs/run-plan.md): its keywords with their fields,
 * defaults and limits, the field escapes and the sampler's defaults. Written
 * by app/defs/mg-plan-writer.c, parsed by sampler/mg-plan.c; the command
 * line, the run dialog and the settings take their defaults and limits from
 * here too. libc only, no allocation. */
#ifndef MG_PLAN_KEYWORDS_H
#define MG_PLAN_KEYWORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "format/mg-record-format.h"

#define MG_PLAN_FIRST_LINE "metrograph-plan 1"

/* Diagnostics on stderr when set to 1: the sampler's (docs/sampler.md)
 * and the MPI wrapper's (what travelled at MPI_Finalize, docs/mpi.md). */
#define MG_SAMPLER_VERBOSE_ENV "METROGRAPH_SAMPLER_VERBOSE"

/* The sampler's timing when neither the plan nor the environment says. */
#define MG_PLAN_DEFAULT_INTERVAL_MS 20
#define MG_PLAN_MIN_INTERVAL_MS 1
#define MG_PLAN_DEFAULT_SAMPLES 4096
/* Fewer slots than this leave too little to draw once they have merged. */
#define MG_PLAN_MIN_SAMPLES 16
/* A getter still running after this many intervals is reported as hung. */
#define MG_PLAN_DEFAULT_HANG_INTERVALS 50
/* A plugin's initialise, start, stop or cleanup still running after this
 * many milliseconds is abandoned and the plugin disabled. */
#define MG_PLAN_DEFAULT_PLUGIN_LIMIT_MS 5000
/* Larger requests are cut down to this (the record's own limit). */
#define MG_PLAN_MAX_SAMPLES MG_RECORD_MAX_CAPACITY

enum {
  MG_PLAN_MAX_LINE = 4096,   /* bytes in one line, without its '\n' */
  MG_PLAN_MAX_FIELDS = 16,   /* fields in one line, the keyword included */
};

/* The words of a metric line's enumerated fields. */
#define MG_PLAN_TYPE_UINT64 "uint64_t"
#define MG_PLAN_TYPE_DOUBLE "double"
#define MG_PLAN_DOMAIN_TIME "time"
#define MG_PLAN_DOMAIN_SINGLE_VALUE "single_value"

/* Between the tokens of a scorep_plugin line's token field. */
#define MG_PLAN_SCOREP_TOKEN_SEPARATOR '\n'

typedef enum {
  MG_PLAN_KEY_RUN_ID,
  MG_PLAN_KEY_RECORD_DIR,
  MG_PLAN_KEY_INTERVAL_MS,
  MG_PLAN_KEY_SAMPLES,
  MG_PLAN_KEY_START_AFTER_MS,
  MG_PLAN_KEY_STOP_AFTER_MS,
  MG_PLAN_KEY_HANG_INTERVALS,
  MG_PLAN_KEY_PLUGIN_LIMIT_MS,
  MG_PLAN_KEY_NO_STACKS,
  MG_PLAN_KEY_SKIP_PROGRAM,
  MG_PLAN_KEY_SELECT_RANKS,
  MG_PLAN_KEY_SOURCE,
  MG_PLAN_KEY_METRIC,
  MG_PLAN_KEY_SCOREP_PLUGIN,
  MG_PLAN_N_KEYS,
} MgPlanKey;

/* Where each field of a FIELDS line is, the keyword being field 0: the one
 * place the readers (sampler/mg-plan.c, plugins/perf-plan.c) and the
 * writer's order agree on. */
typedef enum {
  MG_PLAN_SOURCE_INDEX = 1,
  MG_PLAN_SOURCE_ID,
  MG_PLAN_SOURCE_LIBRARY,
  MG_PLAN_SOURCE_START,
  MG_PLAN_SOURCE_STOP,
  MG_PLAN_SOURCE_N_FIELDS,     /* with the keyword */
} MgPlanSourceField;

typedef enum {
  MG_PLAN_METRIC_INDEX = 1,
  MG_PLAN_METRIC_SOURCE,
  MG_PLAN_METRIC_ID,
  MG_PLAN_METRIC_GETTER,
  MG_PLAN_METRIC_TYPE,
  MG_PLAN_METRIC_UNITS,
  MG_PLAN_METRIC_DIVIDE,
  MG_PLAN_METRIC_ONE_PER_NODE,
  MG_PLAN_METRIC_BACKFILL,
  MG_PLAN_METRIC_DOMAIN,
  MG_PLAN_METRIC_CONFIG_ENV,
  MG_PLAN_METRIC_CUSTOM_DATA,
  MG_PLAN_METRIC_N_FIELDS,     /* with the keyword */
} MgPlanMetricField;

typedef enum {
  MG_PLAN_SCOREP_SOURCE = 1,
  MG_PLAN_SCOREP_NAME,
  MG_PLAN_SCOREP_TOKENS,
  MG_PLAN_SCOREP_ERROR,
  MG_PLAN_SCOREP_N_FIELDS,     /* with the keyword */
} MgPlanScorepField;

typedef enum {
  MG_PLAN_VALUE_TEXT,    /* one field, a string */
  MG_PLAN_VALUE_NUMBER,  /* one field, a whole number >= min */
  MG_PLAN_VALUE_FIELDS,  /* n_fields fields (source, metric) */
} MgPlanValueKind;

typedef struct {
  const char *name;
  MgPlanValueKind kind;
  unsigned n_fields;        /* after the keyword */
  long min;                 /* NUMBER: the smallest value accepted */
  long fallback;            /* NUMBER: when neither the plan nor env[] says */
  const char *env[2];       /* NUMBER: read, in order, when the plan is silent */
} MgPlanKeyword;

extern const MgPlanKeyword mg_plan_keywords[MG_PLAN_N_KEYS];

#define MG_PLAN_KEYWORD(key) (mg_plan_keywords[(key)].name)

/* The keyword called name, or MG_PLAN_N_KEYS (a newer front end's keyword,
 * which the parser ignores). */
MgPlanKey mg_plan_key_lookup (const char *name);

/* A plain decimal number >= min (no sign, no blanks, no overflow) into *out.
 * Returns 0, or -1 leaving *out alone. */
int mg_plan_parse_number (const char *text, long min, long *out);

/* The value a NUMBER keyword takes when the plan does not give it: the first
 * of its environment variables (looked up through lookup) that holds a valid
 * number, else its fallback. */
long mg_plan_number_default (MgPlanKey key, const char *(*lookup) (const char *name, void *data),
                             void *data);

/* The letter that escapes c in a field ('\\' 't' 'n'), or 0 when c stands
 * for itself. */
char mg_plan_escape_letter (char c);

/* Splits line in place at TABs into at most max fields and resolves the
 * escapes. Returns the field count, max + 1 when there are more fields, or -1
 * on an unknown escape. */
int mg_plan_split_fields (char *line, char **fields, int max);

#endif /* MG_PLAN_KEYWORDS_H */
