/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Report benchmark: the text and the HTML report of a P × M × N profile
 * (64 × 32 × 4096 by default, built in memory) with the built-in sections
 * and examples/report.xml must take at most 200 ms together (CPU time: the
 * machine may be shared), from opening the saved profile to both texts.
 * Usage: bench-report [P M N]. */
#include "mg-config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"
#include "report-fixture.h"

#define BUDGET_S 0.200

static double
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int
main (int argc, char **argv)
{
  guint n_proc = argc > 3 ? (guint) atoi (argv[1]) : 64;
  guint n_metrics = argc > 3 ? (guint) atoi (argv[2]) : 32;
  guint n_samples = argc > 3 ? (guint) atoi (argv[3]) : 4096;
  g_autofree char *installed = report_fixture_source_path ("data/reports");
  g_autofree char *example = report_fixture_source_path ("examples/report.xml");
  const char *paths[] = { example, NULL };
  g_autoptr (MgProfile) built = report_fixture_large (n_proc, n_metrics, n_samples);
  g_autofree char *dir = g_dir_make_tmp ("metrograph-bench-report-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.mgprof", NULL);
  g_autoptr (MgProfile) profile = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReport) report = NULL;
  g_autofree char *text = NULL, *html = NULL;
  gint64 wall;
  double cpu, cpu_s, wall_s;

  if (!mg_profile_save (built, path, &error))
    g_error ("%s", error->message);
  wall = g_get_monotonic_time ();
  cpu = cpu_seconds ();
  profile = mg_profile_load (path, &error);
  if (profile == NULL)
    g_error ("%s", error->message);
  set = mg_report_set_load (paths, installed);
  report = mg_report_new (profile, "bench.mgprof", set->reports);
  text = mg_report_to_text (report);
  html = mg_report_to_html (report);
  cpu_s = cpu_seconds () - cpu;
  wall_s = (g_get_monotonic_time () - wall) / 1e6;
  printf ("reports of %u processes × %u metrics × %u samples: %.3f s wall, %.3f s CPU "
          "(budget %.3f s); %zu + %zu bytes\n", n_proc, n_metrics, n_samples, wall_s, cpu_s,
          BUDGET_S, strlen (text), strlen (html));
  g_unlink (path);
  g_rmdir (dir);
  return cpu_s <= BUDGET_S ? 0 : 1;
}
