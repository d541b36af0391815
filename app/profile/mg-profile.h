/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The profile: one run's facts, metric definitions, aggregate series across
 * processes, each process's own series, single values, errors and events.
 * Read by the viewer, the exporters and the command line; built by the merge
 * (or by tests) through MgProfileBuilder. Immutable once built. GTK-free.
 *
 * Times are seconds from the run's start. A gap (no value) is NaN in every
 * double array. Process indices count from 0 in the profile's process order. */
#pragma once

#include <gio/gio.h>

#include "defs/mg-metric-def.h"
#include "mg-process-precision.h"

G_BEGIN_DECLS

#define MG_PROFILE_ERROR (mg_profile_error_quark ())
GQuark mg_profile_error_quark (void);

typedef enum {
  MG_PROFILE_ERROR_NOT_A_PROFILE, /* foreign file: wrong magic */
  MG_PROFILE_ERROR_VERSION,       /* written by a newer Metrograph */
  MG_PROFILE_ERROR_TRUNCATED,
  MG_PROFILE_ERROR_CORRUPT,       /* checksum or structure does not hold */
  MG_PROFILE_ERROR_NO_SAMPLES,    /* merge: no record had a sample */
  MG_PROFILE_ERROR_FAILED,
} MgProfileError;

typedef enum {
  MG_PROCESS_END_UNKNOWN,  /* still running at the end, or killed without trace (SIGKILL) */
  MG_PROCESS_END_EXITED,   /* status = exit status */
  MG_PROCESS_END_SIGNALLED,/* status = signal number */
  MG_PROCESS_END_EXECED,   /* exec'd an image that was not sampled (static, setuid); before
                            * execs were kept, every exec (the new image: another entry) */
} MgProcessEnd;

typedef struct {
  char **argv;             /* command line as run (program first) */
  char *working_dir;
  char **hosts;            /* distinct host names, in order of first appearance */
  gint64 start_time_us;    /* wall clock, microseconds since the Unix epoch */
  double duration_s;
  guint n_processes;
  guint n_nodes;
  double interval_start_ms;
  double interval_end_ms;  /* after merges */
  guint max_samples;       /* slots per process */
  int exit_status;         /* the run's: the launched program's, 128+signal if killed */
  char *metrograph_version;
  /* What the program printed, stdout and stderr as they came (a run from
   * the viewer captures them; NULL when nothing was captured): the last
   * MG_PROFILE_OUTPUT_MAX bytes, output_cut bytes before them left out. */
  char *output;
  guint64 output_cut;
} MgRunInfo;

/* A profile keeps at most this much of the program's output: its end. */
#define MG_PROFILE_OUTPUT_MAX (1024 * 1024)

typedef struct {
  int pid;
  int ppid;
  int rank;                /* -1 if not MPI */
  char *host;
  char *program;
  double start_s;
  double end_s;
  MgProcessEnd end;
  int status;
  gboolean node_leader;    /* reported the onePerNode metrics on its host */
  /* A helper of the launch (a shell, wrapper or shim: mg-process-roles.h),
   * left out of the aggregates across processes. Not stored: the rule
   * finds it again when a profile that names its images is loaded. */
  gboolean helper;
} MgProcessInfo;

/* Aggregate across processes, one value per sample window. NaN = no value. */
typedef struct {
  const double *mins;
  const double *maxs;
  const double *means;
  const double *vars;      /* population variance across processes */
  const double *sums;
  const gint32 *min_process; /* process index holding the min, -1 in a gap */
  const gint32 *max_process;
} MgSeries;

/* One process's own samples of one metric (its own times). */
typedef struct {
  guint n;
  const double *times;     /* end of each of its sample windows */
  const double *mins;
  const double *maxs;
  const double *means;
} MgProcessSeries;

typedef struct {
  double min, max, mean, var, sum; /* across processes; NaN if none */
  guint count;
} MgSingleValue;

typedef struct {
  int process;             /* -1: the front end */
  char *source_id;
  char *library;
  int code;
  char *message;
} MgPluginError;

typedef struct {
  int process;
  char *metric_id;
  int code;
  char *message;
  guint count;
  double first_s;
  double last_s;
} MgMetricError;

typedef enum {
  MG_EVENT_START,
  MG_EVENT_EXIT,
  MG_EVENT_SIGNAL,         /* killed or crashed: status = signal */
  MG_EVENT_EXEC,
  MG_EVENT_RECORDING_STOPPED, /* e.g. disk full: message says why */
  MG_EVENT_PLUGIN_FAULT,   /* a plugin crashed (status = signal) or hung (0) at its
                            * last value; message: "<source id> <what happened>" */
} MgEventKind;

/* The last kind a profile file may hold. */
#define MG_EVENT_LAST MG_EVENT_PLUGIN_FAULT

typedef struct {
  int process;
  double time_s;
  MgEventKind kind;
  int status;
  char *message;           /* may be NULL */
} MgProcessEvent;

#define MG_TYPE_PROFILE (mg_profile_get_type ())
G_DECLARE_FINAL_TYPE (MgProfile, mg_profile, MG, PROFILE, GObject)

/* Files. Loading validates everything: a foreign, truncated or corrupted file
 * is a GError naming the file, never a crash. Saving is atomic. */
MgProfile *mg_profile_load (const char *path, GError **error);
MgProfile *mg_profile_load_bytes (GBytes *bytes, const char *name, GError **error);
gboolean mg_profile_save (MgProfile *self, const char *path, GError **error);

const MgRunInfo *mg_profile_get_run_info (MgProfile *self);
/* The precision of the processes' own series in the file the profile was
 * read from, or that saving will store them at (the aggregates are always
 * exact). Setting it takes effect when the profile is saved; a profile read
 * at single precision stays single. */
MgProcessPrecision mg_profile_get_process_precision (MgProfile *self);
void mg_profile_set_process_precision (MgProfile *self, MgProcessPrecision precision);

guint mg_profile_get_n_metrics (MgProfile *self);
const MgMetricDef *mg_profile_get_metric (MgProfile *self, guint metric);
/* Returns -1 when the id is not in the profile. */
int mg_profile_find_metric (MgProfile *self, const char *id);
guint mg_profile_get_n_groups (MgProfile *self);
const MgMetricGroup *mg_profile_get_group (MgProfile *self, guint group);

/* Sample windows shared by every aggregate series. */
guint mg_profile_get_n_windows (MgProfile *self);
const double *mg_profile_get_window_starts (MgProfile *self);
const double *mg_profile_get_window_ends (MgProfile *self);
/* For time-domain metrics; NULL for single-value ones. */
const MgSeries *mg_profile_get_series (MgProfile *self, guint metric);
/* For single-value metrics; NULL for time-domain ones. */
const MgSingleValue *mg_profile_get_single_value (MgProfile *self, guint metric);

guint mg_profile_get_n_processes (MgProfile *self);
/* How many of them are helpers (MgProcessInfo.helper). */
guint mg_profile_get_n_helpers (MgProfile *self);
/* How many processes ended (not killed) within the first sampling interval
 * without a value of any metric: in the profile with their start, end and
 * status, but nothing else to show (from the reported flags: no series is
 * read). */
guint mg_profile_get_n_unsampled (MgProfile *self);
const MgProcessInfo *mg_profile_get_process (MgProfile *self, guint process);
/* Whether it ended with an exit status other than 0 or by a signal. */
gboolean mg_process_info_failed (const MgProcessInfo *info);
/* n == 0 when the process never reported that metric. */
const MgProcessSeries *mg_profile_get_process_series (MgProfile *self, guint process,
                                                      guint metric);
/* A profile opened from a file reads a process's own series from it when
 * they are first asked for (they are most of a large file). This reads them
 * now: FALSE, with error naming the file and the process, if the file
 * changed on disk since it was opened or cannot be read; the process's
 * series are then empty (n == 0). Always TRUE for profiles built in memory. */
gboolean mg_profile_read_process_series (MgProfile *self, guint process, GError **error);
/* A copy of one metric of a process's own series, in one block (free it
 * with g_free; n == 0 when the process never reported the metric). For
 * views over many processes at once (the rank overview): a profile read
 * from a file decodes the process's series into scratch memory, so the
 * few processes kept decoded (the one the graphs show) stay as they are.
 * Callable from any thread. NULL, with error naming the file and the
 * process, when the series cannot be read. */
MgProcessSeries *mg_profile_dup_process_series (MgProfile *self, guint process, guint metric,
                                                GError **error);

guint mg_profile_get_n_plugin_errors (MgProfile *self);
const MgPluginError *mg_profile_get_plugin_error (MgProfile *self, guint i);
guint mg_profile_get_n_metric_errors (MgProfile *self);
const MgMetricError *mg_profile_get_metric_error (MgProfile *self, guint i);
guint mg_profile_get_n_events (MgProfile *self);
const MgProcessEvent *mg_profile_get_event (MgProfile *self, guint i);

G_END_DECLS
