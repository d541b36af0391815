/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The activity metrics of a profile (plugins/activity.xml, "Main thread
 * activity" and "All threads activity") as the four classes the activity
 * row stacks: computing, in MPI, in I/O and waiting (sleep, lock and other
 * summed). Per pixel column each class's share is the mean of its parts'
 * means (the aggregate across processes, or the chosen process's own), and
 * computing's min and max across processes are kept for the band. GTK-free. */
#pragma once

#include <glib.h>

#include "mg-lod.h"
#include "mg-series-view.h"

G_BEGIN_DECLS

typedef enum {
  MG_ACTIVITY_COMPUTING,
  MG_ACTIVITY_MPI,
  MG_ACTIVITY_IO,
  MG_ACTIVITY_WAITING,
  MG_ACTIVITY_N_CLASSES,
} MgActivityClass;

typedef enum {
  MG_ACTIVITY_MAIN_THREAD, /* org.metrograph.activity.main.* */
  MG_ACTIVITY_ALL_THREADS, /* org.metrograph.activity.threads.* */
} MgActivityScope;

/* Waiting is sleep + lock + other. */
#define MG_ACTIVITY_MAX_PARTS 3

typedef struct {
  guint n_parts[MG_ACTIVITY_N_CLASSES];
  MgSeriesView parts[MG_ACTIVITY_N_CLASSES][MG_ACTIVITY_MAX_PARTS];
  /* One process's values: no band across processes. */
  gboolean one_process;
} MgActivitySeries;

/* The classes' shares, one column per pixel: NaN where no part has a value. */
typedef struct {
  guint n;
  double *shares[MG_ACTIVITY_N_CLASSES]; /* percent of the samples */
  double *computing_min;                 /* across processes (= share for one) */
  double *computing_max;
} MgActivityColumns;

/* The profile's metric id of a class part (NULL past the class's parts). */
const char *mg_activity_metric_id (MgActivityScope scope, MgActivityClass klass, guint part);

/* Fills series with scope's metrics for process (-1: the aggregate). FALSE
 * when the profile has no computing series of that scope (the plugin was
 * off, or that process never reported it). */
gboolean mg_activity_series_init (MgActivitySeries *series, MgProfile *profile,
                                  MgActivityScope scope, int process);

/* Whether metric (an index of profile) is one of scope's. */
gboolean mg_activity_is_metric (MgProfile *profile, guint metric, MgActivityScope scope);

/* Whether the run had threads besides the main one: all threads' activity
 * differs from the main thread's in some window (aggregates). */
gboolean mg_activity_profile_is_multithreaded (MgProfile *profile);

/* The legend's name of a class, translated ("Computing", ...). */
const char *mg_activity_class_name (MgActivityClass klass);

MgActivityColumns *mg_activity_columns_new (const MgActivitySeries *series, double t0, double t1,
                                            guint n_columns);
void mg_activity_columns_free (MgActivityColumns *columns);

/* The windows holding [t_lo, t_hi] (at least the one holding t_lo): the
 * range a click on the activity row selects. FALSE outside every window. */
gboolean mg_activity_series_snap (const MgActivitySeries *series, double t_lo, double t_hi,
                                  double *start, double *end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgActivityColumns, mg_activity_columns_free)

G_END_DECLS
