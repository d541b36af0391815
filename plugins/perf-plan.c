/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The customData of a plugin's own metrics from the run plan, read with
 * format/'s splitter and field positions (docs/run-plan.md). Only source
 * and metric lines matter here; the sampler has already checked the plan,
 * so a line that does not fit is skipped. */
#include "perf-plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/mg-plan-keywords.h"
#include "format/mg-run-folder-layout.h"

#define MAX_SOURCES 256

/* The line's key when it is a FIELDS line with all its fields, else
 * MG_PLAN_N_KEYS. */
static MgPlanKey
split_line (char *line, char **f)
{
  line[strcspn (line, "\n")] = '\0';
  int n = mg_plan_split_fields (line, f, MG_PLAN_MAX_FIELDS);
  if (n < 1)
    return MG_PLAN_N_KEYS;
  MgPlanKey key = mg_plan_key_lookup (f[0]);
  if (key == MG_PLAN_N_KEYS || mg_plan_keywords[key].kind != MG_PLAN_VALUE_FIELDS
      || n != (int) mg_plan_keywords[key].n_fields + 1)
    return MG_PLAN_N_KEYS;
  return key;
}

/* Whether path names the library whose stat is *library (links followed):
 * one stat per source line, where a realpath of both names cost a readlink
 * per path component (about 140 system calls at each process start for the
 * two perf plugins and the default plan). */
static bool
same_file (const char *path, const char *library_path, const struct stat *library)
{
  if (strcmp (path, library_path) == 0)
    return true;
  struct stat st;
  return library != NULL && stat (path, &st) == 0 && st.st_dev == library->st_dev
         && st.st_ino == library->st_ino;
}

bool
mg_perf_plan_custom_data (const char *library, MgPerfPlanFn fn, void *user)
{
  const char *path = getenv (MG_PLAN_ENV);
  if (path == NULL || *path == '\0' || library == NULL)
    return false;
  FILE *plan = fopen (path, "re");
  if (plan == NULL)
    return false;
  struct stat st;
  const struct stat *library_st = stat (library, &st) == 0 ? &st : NULL;
  /* Two passes: the library's source indexes, then their metrics. */
  bool ours[MAX_SOURCES] = { false };
  char *line = NULL;
  size_t size = 0;
  for (int pass = 0; pass < 2; pass++)
    {
      rewind (plan);
      while (getline (&line, &size, plan) >= 0)
        {
          char *f[MG_PLAN_MAX_FIELDS];
          MgPlanKey key = split_line (line, f);
          if (pass == 0 && key == MG_PLAN_KEY_SOURCE)
            {
              long index = strtol (f[MG_PLAN_SOURCE_INDEX], NULL, 10);
              if (index >= 0 && index < MAX_SOURCES
                  && same_file (f[MG_PLAN_SOURCE_LIBRARY], library, library_st))
                ours[index] = true;
            }
          else if (pass == 1 && key == MG_PLAN_KEY_METRIC)
            {
              long source = strtol (f[MG_PLAN_METRIC_SOURCE], NULL, 10);
              if (source >= 0 && source < MAX_SOURCES && ours[source])
                fn (f[MG_PLAN_METRIC_CUSTOM_DATA], user);
            }
        }
    }
  free (line);
  fclose (plan);
  return true;
}
