/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metrograph-scorep-probe NAME [TOKEN…]: loads the Score-P metric plugin
 * NAME as Score-P would, up to get_event_info for each TOKEN, and prints
 * what it offers, for the front end (app/defs/mg-scorep-defs.c), which runs
 * this in a short-lived child so that a plugin that crashes or hangs cannot
 * take it down. libc only.
 *
 * Output, one TAB-separated line each, fields escaped as in the run plan
 * (\\ \t \n):
 *   plugin  LIBRARY VERSION RUN_PER SYNC DELTA_T
 *   metric  TOKEN NAME DESCRIPTION MODE VALUE_TYPE BASE EXPONENT UNIT
 * (the enumerations as numbers). On a fault: "error  MESSAGE" and exit
 * status 2; bad usage: exit status 64. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "format/mg-plan-keywords.h"
#include "mg-scorep-plugin.h"
#include "mg-scorep-probe-format.h"

static void
put_field (const char *text)
{
  putchar ('\t');
  for (const char *c = text ? text : ""; *c; c++)
    {
      char letter = mg_plan_escape_letter (*c);
      if (letter)
        {
          putchar ('\\');
          putchar (letter);
        }
      else
        putchar (*c);
    }
}

static int
fault (const char *message)
{
  fputs (MG_SCOREP_PROBE_ERROR, stdout);
  put_field (message);
  putchar ('\n');
  fflush (stdout);
  return 2;
}

static uint64_t
clock_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int
main (int argc, char **argv)
{
  MgScorepPlugin p;
  char err[1024], buf[64];

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s NAME [TOKEN…]\n", argv[0]);
      return 64;
    }
  /* A plugin that hangs ends the probe; the front end says so. */
  alarm (MG_SCOREP_PROBE_TIMEOUT_S);
  if (mg_scorep_open (&p, argv[1], NULL, err, sizeof err) < 0)
    return fault (err);
  SCOREP_Metric_Plugin_Info *info = &p.got.info;
  if (info->set_clock_function)
    info->set_clock_function (clock_ns);
  int32_t rc = info->initialize ();
  if (rc != 0)
    {
      snprintf (err, sizeof err, "Score-P plugin %s: initialize returned %" PRId32, argv[1], rc);
      return fault (err);
    }
  fputs (MG_SCOREP_PROBE_PLUGIN, stdout);
  put_field (p.library);
  snprintf (buf, sizeof buf, "%" PRIu32, info->plugin_version);
  put_field (buf);
  snprintf (buf, sizeof buf, "%d", (int) info->run_per);
  put_field (buf);
  snprintf (buf, sizeof buf, "%d", (int) info->sync);
  put_field (buf);
  snprintf (buf, sizeof buf, "%" PRIu64, info->delta_t);
  put_field (buf);
  putchar ('\n');
  /* Kept until finalize has returned, as Score-P keeps them. */
  SCOREP_Metric_Plugin_MetricProperties **answers = calloc ((size_t) argc, sizeof *answers);
  if (!answers)
    return fault ("out of memory");
  for (int t = 2; t < argc; t++)
    {
      /* The plugin may cut its token up (strtok): it gets a copy. */
      char token[MG_PLAN_MAX_LINE + 1];
      snprintf (token, sizeof token, "%s", argv[t]);
      SCOREP_Metric_Plugin_MetricProperties *props = answers[t] = info->get_event_info (token);
      for (SCOREP_Metric_Plugin_MetricProperties *m = props; m && m->name; m++)
        {
          fputs (MG_SCOREP_PROBE_METRIC, stdout);
          put_field (argv[t]);
          put_field (m->name);
          put_field (m->description);
          snprintf (buf, sizeof buf, "%d", (int) m->mode);
          put_field (buf);
          snprintf (buf, sizeof buf, "%d", (int) m->value_type);
          put_field (buf);
          snprintf (buf, sizeof buf, "%d", (int) m->base);
          put_field (buf);
          snprintf (buf, sizeof buf, "%" PRId64, m->exponent);
          put_field (buf);
          put_field (m->unit);
          putchar ('\n');
        }
    }
  fflush (stdout);
  info->finalize ();
  for (int t = 2; t < argc; t++)
    mg_scorep_free_properties (answers[t]);
  free (answers);
  mg_scorep_close (&p);
  return 0;
}
