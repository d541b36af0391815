/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Merges the per-process sampler records of one run into a profile.
 * Streaming: one record in memory at a time, linear in their number. */
#pragma once

#include "mg-live-merge.h"
#include "mg-profile.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *metrics;          /* MgMetricDef*: the enabled metrics, matched by id */
  GPtrArray *groups;           /* MgMetricGroup*, may be NULL */
  const char *const *argv;     /* the command line as run */
  const char *working_dir;
  gint64 start_time_us;        /* 0: the earliest record's start */
  int exit_status;             /* the run's */
  const char *run_id;          /* NULL: every record in the folder */
  guint n_windows;             /* 0: the most samples any process has */
  /* 0: every slot of every record. Else runs of consecutive slots are
   * combined (MgSlotCombiner) so that no process gives more than this
   * many samples: the cheaper merge
   * of the live view, whose graphs are not wider than that. At 0 each
   * process is packed (mg_profile_builder_pack) as soon as its record is
   * read, so that memory stays bounded whatever the number of processes;
   * the live view's few samples per process are not worth packing. */
  guint max_process_samples;
  /* With max_process_samples: the records' slots combined by the previous
   * merges, so that only new slots are read (the live view's refreshes);
   * NULL: every record read whole. The profile is the same either way. */
  MgLiveMerge *live;
  /* The program's output, NULL when not captured; output_cut bytes before
   * it were left out (mg_profile_builder_set_output). */
  const char *output;
  guint64 output_cut;
  /* Problems the caller found with the run as a whole, added to the
   * profile's plugin errors (process -1); may be NULL. */
  const MgPluginError *run_errors;
  guint n_run_errors;
  /* Events of the run as a whole (process -1), added after the processes'
   * own: the stop the user asked for (mg-stop-event.h); may be NULL. */
  const MgProcessEvent *run_events;
  guint n_run_events;
  /* What saving the profile stores each process's series at (the merge
   * itself, and the aggregates, are exact either way). */
  MgProcessPrecision process_precision;
} MgMergeInput;

MgProfile *mg_merge_records (const char *record_dir, const MgMergeInput *input, GError **error);

G_END_DECLS
