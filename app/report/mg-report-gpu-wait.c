/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Whether the CPU mostly waited on the GPU, said in the report's CPU
 * section: the share of the run's time in which the GPUs were busy
 * (gpu_utilization, the mean over the nodes, MG_GPU_BUSY or more) while
 * the processes were mostly off the CPU (cpu_time_percentage, the mean
 * over the processes, under MG_CPU_IDLE). Said when that is at least half
 * of the time both were recorded. A program that spins on the CPU while
 * it waits for the GPU (a busy-waiting synchronisation) shows as CPU time
 * and is not caught. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "mg-report.h"

#define MG_GPU_BUSY 50.0 /* % */
#define MG_CPU_IDLE 50.0 /* % */
#define MG_WAIT_SHARE 0.5

static const MgSeries *
series (MgProfile *profile, const char *id)
{
  int m = mg_profile_find_metric (profile, id);
  return m >= 0 ? mg_profile_get_series (profile, (guint) m) : NULL;
}

double
mg_report_gpu_wait_share (MgProfile *profile)
{
  const MgSeries *gpu = series (profile, "gpu_utilization");
  const MgSeries *cpu = series (profile, "cpu_time_percentage");
  const double *starts = mg_profile_get_window_starts (profile);
  const double *ends = mg_profile_get_window_ends (profile);
  double both = 0, waiting = 0;

  if (gpu == NULL || cpu == NULL)
    return NAN;
  for (guint i = 0; i < mg_profile_get_n_windows (profile); i++)
    {
      double span = ends[i] - starts[i];

      if (isnan (gpu->means[i]) || isnan (cpu->means[i]) || span <= 0)
        continue;
      both += span;
      if (gpu->means[i] >= MG_GPU_BUSY && cpu->means[i] < MG_CPU_IDLE)
        waiting += span;
    }
  return both > 0 ? waiting / both : NAN;
}

char *
mg_report_gpu_wait_note (MgProfile *profile)
{
  double share = mg_report_gpu_wait_share (profile);

  if (isnan (share) || share < MG_WAIT_SHARE)
    return NULL;
  /* Translators: %.0f is a share of the run's time, e.g. 85 */
  return g_strdup_printf (_("The CPU mostly waited on the GPU: for %.0f %% of the time the GPUs "
                            "were busy (utilisation of 50 %% or more) while the processes were "
                            "on the CPU less than half of it."), share * 100);
}
