/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A report metric's value from the profile (spec 3.3.4): in each sample
 * window the cross-process min, max, mean or sum (sampleValue), combined
 * over the windows by min, max or mean (aggregation; the mean weighted by
 * window length, gaps skipped). GTK-free. */
#pragma once

#include "mg-partial-report.h"
#include "profile/mg-profile.h"

G_BEGIN_DECLS

/* The value, or NaN when the run did not record @metric_ref; then
 * @why_not (may be NULL) says so, with the metric's or its plugin's error
 * when the profile holds one. */
double mg_report_value_compute (MgProfile *profile, const char *metric_ref,
                                MgReportPick sample_value, MgReportPick aggregation,
                                char **why_not);

/* The aggregation over windows of one per-window array (NaN = gap). */
double mg_report_value_aggregate (const double *values, const double *starts,
                                  const double *ends, guint n, MgReportPick aggregation);

G_END_DECLS
