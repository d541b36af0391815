/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The customData of a plugin's own metrics from the run plan: a plan line is
 * a keyword and TAB-separated fields with \\, \t and \n escapes;
 *   source  index  id  library  start  stop
 *   metric  index  source-index  id  getter  ...  custom-data (the 12th)
 * Only these two keywords matter here; the sampler has already checked the
 * plan, so a line that does not fit is skipped. */
#include "perf-plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FIELDS 16
#define MAX_SOURCES 256

/* Splits line (modified in place) at TABs, unescaping each field. */
static int
split_fields (char *line, char **fields, int max)
{
  int n = 0;
  char *in = line, *out = line;
  fields[n++] = out;
  for (; *in && *in != '\n'; in++)
    {
      if (*in == '\t')
        {
          *out++ = '\0';
          if (n == max)
            return -1;
          fields[n++] = out;
        }
      else if (*in == '\\' && in[1])
        {
          in++;
          *out++ = *in == 't' ? '\t' : *in == 'n' ? '\n' : *in;
        }
      else
        *out++ = *in;
    }
  *out = '\0';
  return n;
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
  const char *path = getenv ("METROGRAPH_PLAN");
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
          char *f[MAX_FIELDS];
          int n = split_fields (line, f, MAX_FIELDS);
          if (pass == 0 && n == 6 && strcmp (f[0], "source") == 0)
            {
              long index = strtol (f[1], NULL, 10);
              if (index >= 0 && index < MAX_SOURCES && same_file (f[3], library, library_st))
                ours[index] = true;
            }
          else if (pass == 1 && n >= 13 && strcmp (f[0], "metric") == 0)
            {
              long source = strtol (f[2], NULL, 10);
              if (source >= 0 && source < MAX_SOURCES && ours[source])
                fn (f[12], user);
            }
        }
    }
  free (line);
  fclose (plan);
  return true;
}
