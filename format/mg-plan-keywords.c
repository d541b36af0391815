/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run plan's keyword table and field syntax. */
#include "format/mg-plan-keywords.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const MgPlanKeyword mg_plan_keywords[MG_PLAN_N_KEYS] = {
  [MG_PLAN_KEY_RUN_ID] = { "run_id", MG_PLAN_VALUE_TEXT, 1 },
  [MG_PLAN_KEY_RECORD_DIR] = { "record_dir", MG_PLAN_VALUE_TEXT, 1 },
  [MG_PLAN_KEY_INTERVAL_MS] = { "interval_ms", MG_PLAN_VALUE_NUMBER, 1,
                                MG_PLAN_MIN_INTERVAL_MS, MG_PLAN_DEFAULT_INTERVAL_MS,
                                { "FORGE_SAMPLER_INTERVAL", "ALLINEA_SAMPLER_INTERVAL" } },
  [MG_PLAN_KEY_SAMPLES] = { "samples", MG_PLAN_VALUE_NUMBER, 1,
                            MG_PLAN_MIN_SAMPLES, MG_PLAN_DEFAULT_SAMPLES,
                            { "FORGE_SAMPLER_NUM_SAMPLES", "ALLINEA_SAMPLER_NUM_SAMPLES" } },
  [MG_PLAN_KEY_START_AFTER_MS] = { "start_after_ms", MG_PLAN_VALUE_NUMBER, 1 },
  [MG_PLAN_KEY_STOP_AFTER_MS] = { "stop_after_ms", MG_PLAN_VALUE_NUMBER, 1 },
  [MG_PLAN_KEY_HANG_INTERVALS] = { "hang_intervals", MG_PLAN_VALUE_NUMBER, 1,
                                   1, MG_PLAN_DEFAULT_HANG_INTERVALS,
                                   { "METROGRAPH_HANG_INTERVALS" } },
  [MG_PLAN_KEY_PLUGIN_LIMIT_MS] = { "plugin_limit_ms", MG_PLAN_VALUE_NUMBER, 1,
                                    1, MG_PLAN_DEFAULT_PLUGIN_LIMIT_MS,
                                    { "METROGRAPH_PLUGIN_LIMIT_MS" } },
  /* 1: no call stacks (--no-stacks); absent or 0: stacks sampled */
  [MG_PLAN_KEY_NO_STACKS] = { "no_stacks", MG_PLAN_VALUE_NUMBER, 1 },
  [MG_PLAN_KEY_SKIP_PROGRAM] = { "skip_program", MG_PLAN_VALUE_TEXT, 1 },
  [MG_PLAN_KEY_SELECT_RANKS] = { "select_ranks", MG_PLAN_VALUE_TEXT, 1 },
  /* index, id, library, start function, stop function */
  [MG_PLAN_KEY_SOURCE] = { "source", MG_PLAN_VALUE_FIELDS, MG_PLAN_SOURCE_N_FIELDS - 1 },
  /* index, source index, id, getter, data type, units, divide, one per node,
   * backfill, domain, config env, custom data */
  [MG_PLAN_KEY_METRIC] = { "metric", MG_PLAN_VALUE_FIELDS, MG_PLAN_METRIC_N_FIELDS - 1 },
  /* source index (an earlier source line, whose metrics follow), plugin
   * name, tokens (MG_PLAN_SCOREP_TOKEN_SEPARATOR between them), the
   * front end's error ("" when it could list the plugin's metrics) */
  [MG_PLAN_KEY_SCOREP_PLUGIN] = { "scorep_plugin", MG_PLAN_VALUE_FIELDS,
                                  MG_PLAN_SCOREP_N_FIELDS - 1 },
};

MgPlanKey
mg_plan_key_lookup (const char *name)
{
  /* The first byte first: most lines are metric lines, and a strcmp
   * against each keyword was a quarter of a sampler's plan parse. */
  for (unsigned k = 0; k < MG_PLAN_N_KEYS; k++)
    if (mg_plan_keywords[k].name[0] == name[0] && strcmp (mg_plan_keywords[k].name, name) == 0)
      return (MgPlanKey) k;
  return MG_PLAN_N_KEYS;
}

/* Digits only, by hand: strtol's locale tables were two page faults in
 * every process the sampler starts in, for a handful of small numbers. */
int
mg_plan_parse_number (const char *text, long min, long *out)
{
  long v = 0;

  if (text[0] < '0' || text[0] > '9')
    return -1;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p < '0' || *p > '9')
        return -1;
      int digit = *p - '0';
      if (v > (LONG_MAX - digit) / 10)
        return -1;
      v = v * 10 + digit;
    }
  if (v < min)
    return -1;
  *out = v;
  return 0;
}

long
mg_plan_number_default (MgPlanKey key, const char *(*lookup) (const char *name, void *data),
                        void *data)
{
  const MgPlanKeyword *k = &mg_plan_keywords[key];

  for (size_t i = 0; i < sizeof k->env / sizeof k->env[0]; i++)
    {
      const char *value = k->env[i] != NULL ? lookup (k->env[i], data) : NULL;
      long n;

      if (value != NULL && mg_plan_parse_number (value, k->min, &n) == 0)
        return n;
    }
  return k->fallback;
}

/* Escape letters and the characters they stand for, pairwise. */
static const char escape_letters[] = "\\tn";
static const char escaped_chars[] = "\\\t\n";

char
mg_plan_escape_letter (char c)
{
  const char *p = c != '\0' ? strchr (escaped_chars, c) : NULL;
  return p != NULL ? escape_letters[p - escaped_chars] : 0;
}

/* The end of a run of plain bytes. A loop rather than strcspn: a field is
 * about 20 bytes, and strcspn's set-up for each was half of a sampler's
 * plan parse (17 us of CPU for the default plan, 66 metric lines). */
static char *
plain_run_end (char *in)
{
  while (*in != '\0' && *in != '\t' && *in != '\\')
    in++;
  return in;
}

int
mg_plan_split_fields (char *line, char **fields, int max)
{
  int n = 0;
  char *out = line;
  char *in = line;

  fields[n++] = out;
  for (;;)
    {
      /* Runs of plain bytes at once: a sampler parses the plan in every
       * process it starts in. */
      char *run_end = plain_run_end (in);
      size_t run = (size_t) (run_end - in);
      if (out != in)
        memmove (out, in, run);
      out += run;
      in = run_end;
      if (*in == '\0')
        break;
      if (*in == '\t')
        {
          *out++ = '\0';
          if (n == max)
            return max + 1;
          fields[n++] = out;
          in++;
        }
      else
        {
          const char *letter = in[1] != '\0' ? strchr (escape_letters, in[1]) : NULL;

          if (letter == NULL)
            return -1;
          *out++ = escaped_chars[letter - escape_letters];
          in += 2;
        }
    }
  *out = '\0';
  return n;
}
