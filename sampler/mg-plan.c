/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Run plan parser: line-based, TAB-separated fields with \\ \t \n escapes. */
#include "mg-plan.h"

#include "format/mg-plan-keywords.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  const char *path;
  unsigned line;
  char *err;
  size_t err_len;
  /* The arrays' capacities (presize, grow). */
  size_t source_cap, metric_cap, rank_cap, skip_cap;
} Ctx;

static int __attribute__((format(printf, 2, 3)))
fail (Ctx *ctx, const char *fmt, ...)
{
  int n = snprintf (ctx->err, ctx->err_len, "%s:%u: ", ctx->path, ctx->line);
  if (n >= 0 && (size_t) n < ctx->err_len)
    {
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (ctx->err + n, ctx->err_len - (size_t) n, fmt, ap);
      va_end (ap);
    }
  return -1;
}

static int
parse_bool (const char *s, bool *out)
{
  if (strcmp (s, "0") == 0 || strcmp (s, "1") == 0)
    {
      *out = s[0] == '1';
      return 0;
    }
  return -1;
}

/* Room for element n of an array of n with room for *cap: the capacity
 * doubles when reached, so that lines beyond the count presize made (or
 * of an array it does not count) cost a reallocation now and then. */
static void *
grow (void *array, size_t n, size_t *cap, size_t size)
{
  if (n < *cap)
    return array;
  *cap = n ? 2 * n : 1;
  void *p = realloc (array, *cap * size);
  if (!p)
    abort ();
  return p;
}

/* True when line (up to its newline) starts with keyword k and a tab. */
static bool
starts_with_key (const char *line, const char *end, MgPlanKey k)
{
  const char *name = mg_plan_keywords[k].name;
  size_t len = strlen (name);
  return (size_t) (end - line) > len && memcmp (line, name, len) == 0 && line[len] == '\t';
}

/* The source and metric arrays allocated once, at the size their lines
 * say: grown by doubling from 1, the default plan's 66 metrics took seven
 * reallocations whose copies and freed blocks spread the plan over about
 * six heap pages, each a page fault in every process, where three hold
 * it. */
static void
presize (Ctx *ctx, MgPlan *plan, const char *text, const char *end)
{
  size_t n_sources = 0, n_metrics = 0;
  for (const char *line = text; line < end;)
    {
      const char *newline = memchr (line, '\n', (size_t) (end - line));
      n_sources += starts_with_key (line, end, MG_PLAN_KEY_SOURCE);
      n_metrics += starts_with_key (line, end, MG_PLAN_KEY_METRIC);
      line = newline ? newline + 1 : end;
    }
  plan->sources = n_sources ? malloc (n_sources * sizeof *plan->sources) : NULL;
  plan->metrics = n_metrics ? malloc (n_metrics * sizeof *plan->metrics) : NULL;
  if ((n_sources && !plan->sources) || (n_metrics && !plan->metrics))
    abort ();
  ctx->source_cap = n_sources;
  ctx->metric_cap = n_metrics;
}

static int
parse_source (Ctx *ctx, MgPlan *plan, char **f, int n)
{
  long index;
  if (n != (int) mg_plan_keywords[MG_PLAN_KEY_SOURCE].n_fields + 1)
    return fail (ctx, "'%s' needs %u fields, found %d", f[0],
                 mg_plan_keywords[MG_PLAN_KEY_SOURCE].n_fields, n - 1);
  if (mg_plan_parse_number (f[MG_PLAN_SOURCE_INDEX], 0, &index) < 0
      || (size_t) index != plan->n_sources)
    return fail (ctx, "source index '%s' should be %zu", f[MG_PLAN_SOURCE_INDEX], plan->n_sources);
  if (f[MG_PLAN_SOURCE_LIBRARY][0] != '/')
    return fail (ctx, "source library '%s' is not an absolute path", f[MG_PLAN_SOURCE_LIBRARY]);
  plan->sources = grow (plan->sources, plan->n_sources, &ctx->source_cap, sizeof *plan->sources);
  MgPlanSource *s = &plan->sources[plan->n_sources++];
  memset (s, 0, sizeof *s);
  s->id = f[MG_PLAN_SOURCE_ID];
  s->library = f[MG_PLAN_SOURCE_LIBRARY];
  s->start_fn = f[MG_PLAN_SOURCE_START];
  s->stop_fn = f[MG_PLAN_SOURCE_STOP];
  return 0;
}

static int
parse_metric (Ctx *ctx, MgPlan *plan, char **f, int n)
{
  long index, source;
  MgPlanMetric m = { 0 };
  if (n != (int) mg_plan_keywords[MG_PLAN_KEY_METRIC].n_fields + 1)
    return fail (ctx, "'%s' needs %u fields, found %d", f[0],
                 mg_plan_keywords[MG_PLAN_KEY_METRIC].n_fields, n - 1);
  if (mg_plan_parse_number (f[MG_PLAN_METRIC_INDEX], 0, &index) < 0
      || (size_t) index != plan->n_metrics)
    return fail (ctx, "metric index '%s' should be %zu", f[MG_PLAN_METRIC_INDEX], plan->n_metrics);
  if (mg_plan_parse_number (f[MG_PLAN_METRIC_SOURCE], 0, &source) < 0
      || (size_t) source >= plan->n_sources)
    return fail (ctx, "metric source index '%s' names no earlier source line",
                 f[MG_PLAN_METRIC_SOURCE]);
  if (f[MG_PLAN_METRIC_ID][0] == '\0' || f[MG_PLAN_METRIC_GETTER][0] == '\0')
    return fail (ctx, "metric id and getter must not be empty");
  if (strcmp (f[MG_PLAN_METRIC_TYPE], MG_PLAN_TYPE_DOUBLE) == 0)
    m.is_double = true;
  else if (strcmp (f[MG_PLAN_METRIC_TYPE], MG_PLAN_TYPE_UINT64) != 0)
    return fail (ctx, "data type '%s' is neither " MG_PLAN_TYPE_UINT64 " nor " MG_PLAN_TYPE_DOUBLE,
                 f[MG_PLAN_METRIC_TYPE]);
  if (parse_bool (f[MG_PLAN_METRIC_DIVIDE], &m.divide) < 0
      || parse_bool (f[MG_PLAN_METRIC_ONE_PER_NODE], &m.one_per_node) < 0
      || parse_bool (f[MG_PLAN_METRIC_BACKFILL], &m.backfill) < 0)
    return fail (ctx, "divide, one per node and backfill must be 0 or 1");
  if (strcmp (f[MG_PLAN_METRIC_DOMAIN], MG_PLAN_DOMAIN_SINGLE_VALUE) == 0)
    m.single_value = true;
  else if (strcmp (f[MG_PLAN_METRIC_DOMAIN], MG_PLAN_DOMAIN_TIME) != 0)
    return fail (ctx, "domain '%s' is neither " MG_PLAN_DOMAIN_TIME " nor "
                 MG_PLAN_DOMAIN_SINGLE_VALUE, f[MG_PLAN_METRIC_DOMAIN]);
  m.source = (unsigned) source;
  m.id = f[MG_PLAN_METRIC_ID];
  m.getter = f[MG_PLAN_METRIC_GETTER];
  m.units = f[MG_PLAN_METRIC_UNITS];
  m.percent = strcmp (m.units, "%") == 0;
  m.config_env = f[MG_PLAN_METRIC_CONFIG_ENV];
  m.custom_data = f[MG_PLAN_METRIC_CUSTOM_DATA];
  plan->metrics = grow (plan->metrics, plan->n_metrics, &ctx->metric_cap, sizeof *plan->metrics);
  plan->metrics[plan->n_metrics++] = m;
  return 0;
}

static int
parse_scorep_plugin (Ctx *ctx, MgPlan *plan, char **f, int n)
{
  long index;
  if (n != (int) mg_plan_keywords[MG_PLAN_KEY_SCOREP_PLUGIN].n_fields + 1)
    return fail (ctx, "'%s' needs %u fields, found %d", f[0],
                 mg_plan_keywords[MG_PLAN_KEY_SCOREP_PLUGIN].n_fields, n - 1);
  if (mg_plan_parse_number (f[MG_PLAN_SCOREP_SOURCE], 0, &index) < 0
      || (size_t) index + 1 != plan->n_sources)
    return fail (ctx, "scorep_plugin source index '%s' should be %zu, the source line before it",
                 f[MG_PLAN_SCOREP_SOURCE], plan->n_sources ? plan->n_sources - 1 : 0);
  MgPlanSource *s = &plan->sources[index];
  if (s->scorep_name)
    return fail (ctx, "source %ld has two scorep_plugin lines", index);
  for (size_t m = 0; m < plan->n_metrics; m++)
    if (plan->metrics[m].source == (unsigned) index)
      return fail (ctx, "scorep_plugin for source %ld comes after its metric lines", index);
  if (f[MG_PLAN_SCOREP_NAME][0] == '\0')
    return fail (ctx, "scorep_plugin needs a plugin name");
  s->scorep_name = f[MG_PLAN_SCOREP_NAME];
  s->scorep_tokens = f[MG_PLAN_SCOREP_TOKENS];
  s->scorep_error = f[MG_PLAN_SCOREP_ERROR];
  return 0;
}

/* "1,3-5": ranges of ranks; fills plan->ranks. */
static int
parse_ranks (Ctx *ctx, MgPlan *plan, char *list)
{
  char *save = NULL;
  if (plan->select_ranks)
    return fail (ctx, "more than one 'select_ranks' line");
  plan->select_ranks = true;
  for (char *item = strtok_r (list, ",", &save); item; item = strtok_r (NULL, ",", &save))
    {
      MgPlanRankRange r;
      char *dash = strchr (item, '-');
      if (dash)
        *dash = '\0';
      if (mg_plan_parse_number (item, 0, &r.first) < 0 || mg_plan_parse_number (dash ? dash + 1 : item, 0, &r.last) < 0
          || r.last < r.first)
        return fail (ctx, "select_ranks: '%s%s%s' is not a rank or a range FIRST-LAST", item,
                     dash ? "-" : "", dash ? dash + 1 : "");
      plan->ranks = grow (plan->ranks, plan->n_ranks, &ctx->rank_cap, sizeof *plan->ranks);
      plan->ranks[plan->n_ranks++] = r;
    }
  if (plan->n_ranks == 0)
    return fail (ctx, "select_ranks: the list is empty");
  return 0;
}

static int
parse_text (Ctx *ctx, MgPlan *plan, MgPlanKey key, char *value)
{
  switch (key)
    {
    case MG_PLAN_KEY_RUN_ID:
      if (value[0] == '\0' || strchr (value, '/'))
        return fail (ctx, "run_id must be non-empty and contain no '/'");
      plan->run_id = value;
      return 0;
    case MG_PLAN_KEY_RECORD_DIR:
      if (value[0] != '/')
        return fail (ctx, "record_dir '%s' is not an absolute path", value);
      plan->record_dir = value;
      return 0;
    case MG_PLAN_KEY_SELECT_RANKS:
      return parse_ranks (ctx, plan, value);
    default: /* MG_PLAN_KEY_SKIP_PROGRAM */
      plan->skip = grow (plan->skip, plan->n_skip, &ctx->skip_cap, sizeof *plan->skip);
      plan->skip[plan->n_skip++] = value;
      return 0;
    }
}

static long *
number_field (MgPlan *plan, MgPlanKey key)
{
  switch (key)
    {
    case MG_PLAN_KEY_INTERVAL_MS:
      return &plan->interval_ms;
    case MG_PLAN_KEY_SAMPLES:
      return &plan->samples;
    case MG_PLAN_KEY_START_AFTER_MS:
      return &plan->start_after_ms;
    case MG_PLAN_KEY_HANG_INTERVALS:
      return &plan->hang_intervals;
    case MG_PLAN_KEY_PLUGIN_LIMIT_MS:
      return &plan->plugin_limit_ms;
    case MG_PLAN_KEY_NO_STACKS:
      return &plan->no_stacks;
    default: /* MG_PLAN_KEY_STOP_AFTER_MS */
      return &plan->stop_after_ms;
    }
}

static int
parse_line (Ctx *ctx, MgPlan *plan, char *line)
{
  char *f[MG_PLAN_MAX_FIELDS];
  int n = mg_plan_split_fields (line, f, MG_PLAN_MAX_FIELDS);
  if (n < 0)
    return fail (ctx, "unknown escape (only \\\\, \\t and \\n exist)");
  if (n > MG_PLAN_MAX_FIELDS)
    return fail (ctx, "too many fields");
  MgPlanKey key = mg_plan_key_lookup (f[0]);
  if (key == MG_PLAN_N_KEYS)
    return 0; /* unknown keyword: a newer front end */
  const MgPlanKeyword *kw = &mg_plan_keywords[key];
  if (key == MG_PLAN_KEY_SOURCE)
    return parse_source (ctx, plan, f, n);
  if (key == MG_PLAN_KEY_METRIC)
    return parse_metric (ctx, plan, f, n);
  if (key == MG_PLAN_KEY_SCOREP_PLUGIN)
    return parse_scorep_plugin (ctx, plan, f, n);
  if (n != (int) kw->n_fields + 1)
    return fail (ctx, "'%s' needs %u field, found %d", kw->name, kw->n_fields, n - 1);
  if (kw->kind == MG_PLAN_VALUE_TEXT)
    return parse_text (ctx, plan, key, f[1]);
  if (mg_plan_parse_number (f[1], kw->min, number_field (plan, key)) < 0)
    return fail (ctx, "%s '%s' is not an integer >= %ld", kw->name, f[1], kw->min);
  return 0;
}

static const char *
lookup_env (const char *name, void *data)
{
  return getenv (name);
}

static int load (Ctx *ctx, char *text, size_t len, MgPlan *plan);

int
mg_plan_load (const char *path, MgPlan *plan, char *err, size_t err_len)
{
  Ctx ctx = { path, 0, err, err_len };
  memset (plan, 0, sizeof *plan);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail (&ctx, "cannot read the plan: %s", strerror (errno));
  size_t len = 0, cap = 0;
  char *text = NULL;
  for (;;)
    {
      if (cap - len < 4096)
        {
          cap = cap ? 2 * cap : 16384;
          char *bigger = realloc (text, cap + 1);
          if (!bigger)
            abort ();
          text = bigger;
        }
      ssize_t n = read (fd, text + len, cap - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          close (fd);
          free (text);
          return fail (&ctx, "cannot read the plan: %s", strerror (saved));
        }
      if (n == 0)
        break;
      len += (size_t) n;
    }
  close (fd);
  return load (&ctx, text, len, plan);
}

int
mg_plan_load_text (const char *path, const char *text, MgPlan *plan, char *err, size_t err_len)
{
  Ctx ctx = { path, 0, err, err_len };
  memset (plan, 0, sizeof *plan);
  /* One copy, parsed in place: the environment is the program's. */
  size_t len = strlen (text);
  char *copy = malloc (len + 1);
  if (!copy)
    abort ();
  memcpy (copy, text, len + 1);
  return load (&ctx, copy, len, plan);
}

/* Parses text[0..len) in place and keeps it (text[len] is writable): every
 * string of the plan points into it, so that a plan costs a few
 * allocations rather than one per field (a process's start is on the
 * program's path: 93 us to parse the default plan with one strdup a field
 * and getline, 66 metric lines). */
static int
load (Ctx *ctx_in, char *text, size_t len, MgPlan *plan)
{
  Ctx ctx = *ctx_in;
  int ret = 0;
  char *end = text + len;

  *end = '\0';
  plan->text = text;
  presize (&ctx, plan, text, end);
  for (char *line = text; ret == 0 && line < end;)
    {
      char *newline = memchr (line, '\n', (size_t) (end - line));
      char *line_end = newline ? newline : end;
      size_t line_len = (size_t) (line_end - line);
      *line_end = '\0';
      ctx.line++;
      if (line_len > MG_PLAN_MAX_LINE)
        ret = fail (&ctx, "line longer than %d bytes", MG_PLAN_MAX_LINE);
      else if (memchr (line, '\0', line_len))
        ret = fail (&ctx, "NUL byte in line");
      else if (ctx.line == 1)
        {
          if (strcmp (line, MG_PLAN_FIRST_LINE) != 0)
            ret = fail (&ctx, "first line is not '" MG_PLAN_FIRST_LINE "'");
        }
      else if (line_len > 0 && line[0] != '#')
        ret = parse_line (&ctx, plan, line);
      line = newline ? newline + 1 : end;
    }
  if (ret == 0 && ctx.line == 0)
    ret = fail (&ctx, "empty file, not a plan");
  else if (ret == 0 && !plan->run_id)
    ret = fail (&ctx, "no 'run_id' line");
  else if (ret == 0 && !plan->record_dir)
    ret = fail (&ctx, "no 'record_dir' line");
  if (ret < 0)
    {
      mg_plan_clear (plan);
      return ret;
    }
  if (plan->interval_ms == 0)
    plan->interval_ms = mg_plan_number_default (MG_PLAN_KEY_INTERVAL_MS, lookup_env, NULL);
  if (plan->samples == 0)
    plan->samples = mg_plan_number_default (MG_PLAN_KEY_SAMPLES, lookup_env, NULL);
  if (plan->hang_intervals == 0)
    plan->hang_intervals = mg_plan_number_default (MG_PLAN_KEY_HANG_INTERVALS, lookup_env, NULL);
  if (plan->plugin_limit_ms == 0)
    plan->plugin_limit_ms = mg_plan_number_default (MG_PLAN_KEY_PLUGIN_LIMIT_MS, lookup_env, NULL);
  if (plan->samples > MG_PLAN_MAX_SAMPLES)
    plan->samples = MG_PLAN_MAX_SAMPLES;
  return 0;
}

void
mg_plan_clear (MgPlan *plan)
{
  free (plan->sources);
  free (plan->metrics);
  free (plan->skip);
  free (plan->ranks);
  free (plan->text);
  memset (plan, 0, sizeof *plan);
}

bool
mg_plan_skips (const MgPlan *plan, const char *program_name)
{
  if (!program_name)
    return false;
  const char *base = strrchr (program_name, '/');
  base = base ? base + 1 : program_name;
  for (size_t i = 0; i < plan->n_skip; i++)
    if (strcmp (plan->skip[i], base) == 0)
      return true;
  return false;
}

bool
mg_plan_selects_rank (const MgPlan *plan, long rank)
{
  if (!plan->select_ranks || rank < 0)
    return true;
  for (size_t i = 0; i < plan->n_ranks; i++)
    if (rank >= plan->ranks[i].first && rank <= plan->ranks[i].last)
      return true;
  return false;
}
