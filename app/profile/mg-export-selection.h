/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What an export takes of a profile: the sample windows overlapping a time
 * range and a selection of processes, with the aggregates across the
 * selected processes (docs/export.md). GTK-free. */
#pragma once

#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  const gboolean *processes; /* a flag per process of the profile; NULL: every process */
  double start_s;            /* windows overlapping (start_s, end_s]; -INFINITY, */
  double end_s;              /* INFINITY: the whole run */
} MgExportSelection;

typedef struct _MgExportSeries MgExportSeries;

/* The windows of selection (NULL: all) and each metric's aggregates over
 * them. Every process selected: the profile's own aggregates. Some: made
 * again from the selected processes' own series (a helper of the launch
 * too: it was chosen), each sample in the window that holds its
 * end time; a process's value in a window is the mean of its samples
 * there, its min and max their min and max. NULL, error naming the
 * process, when a process's series cannot be read. */
MgExportSeries *mg_export_series_new (MgProfile *profile, const MgExportSelection *selection,
                                      GError **error);
void mg_export_series_free (MgExportSeries *self);

guint mg_export_series_get_n_windows (const MgExportSeries *self);
/* Start of each kept window, seconds from the run's start. */
const double *mg_export_series_get_starts (const MgExportSeries *self);
/* NULL where the profile has no series for metric (a single value);
 * min_process and max_process are NULL. */
const MgSeries *mg_export_series_get (const MgExportSeries *self, guint metric);
/* TRUE when the window at start_s, end_s is in selection (NULL: all). */
gboolean mg_export_selection_has_window (const MgExportSelection *selection, double start_s,
                                         double end_s);
/* TRUE when process is in selection (NULL: all). */
gboolean mg_export_selection_has_process (const MgExportSelection *selection, guint process);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgExportSeries, mg_export_series_free)

G_END_DECLS
