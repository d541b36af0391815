/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The report's summary: how the processes' time divides between MPI
 * (MPI time, calls in flight included), compute (CPU time outside it) and
 * neither (I/O, waiting, sleeping), the I/O rates, and one sentence. A
 * share whose metrics were not recorded is said to be so, never guessed. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "defs/mg-colour.h"
#include "mg-report-value.h"
#include "mg-report.h"

/* Thresholds of the sentence, as shares of the processes' time. */
#define MPI_BOUND 0.30
#define COMPUTE_BOUND 0.80
#define WAITING_BOUND 0.50

/* Why the MPI share is unknown: the first of its metrics with an error in
 * the profile, else that it was not recorded. */
static void
why_missing (MgProfile *profile, char **why_not)
{
  static const char *const ids[] = { "mpi_time_percentage", "mpi_call_time", "mpi_calls" };
  g_autofree char *plain = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *why = NULL;

      mg_report_value_compute (profile, ids[i], MG_REPORT_PICK_MEAN, MG_REPORT_PICK_MEAN, &why);
      if (why == NULL)
        continue;
      if (plain == NULL)
        plain = g_strdup (why);
      if (strcmp (why, plain) != 0 || strchr (why, ':') != NULL)
        {
          *why_not = g_steal_pointer (&why);
          return;
        }
    }
  *why_not = g_steal_pointer (&plain);
}

/* The share of the processes' time in MPI: MPI time, the mean over
 * processes and time, which counts calls that have not returned (a rank
 * blocked in a barrier or a deadlock is in MPI). Without it (a run that
 * recorded only some MPI metrics), per window the mean call duration (ns)
 * × calls per second, then the time-weighted mean, which sees a call only
 * once it has returned. NaN when nothing tells. */
static double
mpi_share (MgProfile *profile, char **why_not)
{
  g_autofree char *time_why = NULL;
  double time = mg_report_value_compute (profile, "mpi_time_percentage", MG_REPORT_PICK_MEAN,
                                         MG_REPORT_PICK_MEAN, &time_why);
  if (!isnan (time))
    return MIN (time / 100.0, 1.0);

  int duration = mg_profile_find_metric (profile, "mpi_call_time");
  int calls = mg_profile_find_metric (profile, "mpi_calls");
  const MgSeries *d, *c;
  guint n = mg_profile_get_n_windows (profile);
  g_autofree double *share = NULL;
  double value;

  if (duration < 0 || calls < 0
      || (d = mg_profile_get_series (profile, (guint) duration)) == NULL
      || (c = mg_profile_get_series (profile, (guint) calls)) == NULL)
    {
      why_missing (profile, why_not);
      return NAN;
    }
  share = g_new (double, n);
  for (guint i = 0; i < n; i++)
    share[i] = d->means[i] * c->means[i] / 1e9;
  value = mg_report_value_aggregate (share, mg_profile_get_window_starts (profile),
                                     mg_profile_get_window_ends (profile), n,
                                     MG_REPORT_PICK_MEAN);
  if (isnan (value))
    why_missing (profile, why_not);
  return value;
}

static void
set_colour (MgReportLine *line, MgMetricType type)
{
  line->has_colour = TRUE;
  line->colour = mg_colour_for_type (type, FALSE);
}

static MgReportLine *
share_line (const char *name, double share, const char *why_not, MgMetricType type)
{
  MgReportLine *line = mg_report_line_new (name, share * 100.0, "%", why_not);

  set_colour (line, type);

  mg_report_line_set_scale (line, 100.0, FALSE, "%");
  return line;
}

static char *
percent (double share)
{
  return g_strdup_printf ("%.0f %%", share * 100.0);
}

static char *
sentence (double compute, double mpi, double neither)
{
  g_autofree char *c = percent (compute), *m = percent (mpi), *n = percent (neither);

  if (isnan (compute))
    return g_strdup (_("CPU time was not recorded in this run, so this report cannot say how "
                       "its time divides."));
  if (!isnan (mpi) && mpi >= MPI_BOUND)
    return g_strdup_printf (_("This run is MPI-bound: its processes spend %s of their time in "
                              "MPI calls."), m);
  if (compute >= COMPUTE_BOUND)
    return g_strdup_printf (_("This run is compute-bound: its processes are on the CPU %s of "
                              "the time."), c);
  if (neither >= WAITING_BOUND)
    return g_strdup_printf (_("This run mostly waits: its processes are neither on the CPU nor "
                              "in MPI calls %s of the time (I/O, other processes or sleep)."),
                            n);
  if (isnan (mpi))
    return g_strdup_printf (_("This run's processes are on the CPU %s of the time and wait "
                              "%s; MPI was not recorded."), c, n);
  return g_strdup_printf (_("This run's time divides between computation (%s), MPI calls (%s) "
                            "and waiting (%s)."), c, m, n);
}

void
mg_report_summarise (MgReport *report, MgProfile *profile)
{
  g_autofree char *cpu_why = NULL, *mpi_why = NULL, *read_why = NULL, *write_why = NULL;
  double cpu = mg_report_value_compute (profile, "cpu_time_percentage", MG_REPORT_PICK_MEAN,
                                        MG_REPORT_PICK_MEAN, &cpu_why);
  double mpi = mpi_share (profile, &mpi_why);
  /* Time in MPI counts as MPI even where the library spins on the CPU
   * while it waits: compute is CPU time outside it, at most. */
  double compute = MIN (cpu / 100.0, isnan (mpi) ? 1.0 : 1.0 - mpi);
  double neither = isnan (compute) ? NAN : MAX (1.0 - compute - (isnan (mpi) ? 0.0 : mpi), 0.0);
  double read = mg_report_value_compute (profile, "rchar_rate", MG_REPORT_PICK_SUM,
                                         MG_REPORT_PICK_MEAN, &read_why);
  double written = mg_report_value_compute (profile, "wchar_rate", MG_REPORT_PICK_SUM,
                                            MG_REPORT_PICK_MEAN, &write_why);
  /* Each rate against its own peak (the largest window of the sum over
   * processes), not against the other rate. */
  double read_peak = mg_report_value_compute (profile, "rchar_rate", MG_REPORT_PICK_SUM,
                                              MG_REPORT_PICK_MAX, NULL);
  double write_peak = mg_report_value_compute (profile, "wchar_rate", MG_REPORT_PICK_SUM,
                                               MG_REPORT_PICK_MAX, NULL);
  MgReportLine *line;

  g_ptr_array_add (report->summary, share_line (_("Compute (on the CPU)"), compute, cpu_why,
                                                MG_METRIC_TYPE_CPU_TIME));
  g_ptr_array_add (report->summary, share_line (_("MPI calls"), mpi, mpi_why,
                                                MG_METRIC_TYPE_MPI));
  g_ptr_array_add (report->summary,
                   share_line (_("Neither (I/O, waiting, sleeping)"), neither,
                               isnan (compute) ? cpu_why : NULL, MG_METRIC_TYPE_OTHER));
  line = mg_report_line_new (_("I/O read rate (all processes)"), read, "B/s", read_why);
  mg_report_line_set_scale (line, read_peak, TRUE, "B/s");
  set_colour (line, MG_METRIC_TYPE_IO);
  g_ptr_array_add (report->summary, line);
  line = mg_report_line_new (_("I/O write rate (all processes)"), written, "B/s", write_why);
  mg_report_line_set_scale (line, write_peak, TRUE, "B/s");
  set_colour (line, MG_METRIC_TYPE_IO);
  g_ptr_array_add (report->summary, line);
  report->sentence = sentence (compute, mpi, isnan (compute) ? NAN : neither);
}
