/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profiles of known values for the report tests and the benchmark. */
#pragma once

#include "profile/mg-profile-builder.h"

/* Three processes on one host, 8 windows of 0.5 s from a fixed start:
 * cpu_time_percentage, rchar_rate, wchar_rate, rss (time), memory_per_node
 * (single value) and com.allinea.metrics.custom1.interrupts (process 2 has
 * a gap in windows 3 and 4); mpi_calls is listed with an error but never
 * recorded. */
MgProfile *report_fixture_profile (void);

/* @n_processes × @n_metrics (ids metric_0…, the first four named as the
 * summary's metrics) × @n_samples, built in memory. */
MgProfile *report_fixture_large (guint n_processes, guint n_metrics, guint n_samples);

/* A file of the source tree: G_TEST_SRCDIR/../../@relative. */
char *report_fixture_source_path (const char *relative);
