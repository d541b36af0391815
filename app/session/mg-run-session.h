/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One profiling run, from its settings to the saved profile, the one run
 * object of both front ends (docs/architecture.md, "One run"):
 *
 * - the window starts it (mg_run_session_start): checks the settings,
 *   puts the run together (MgRunAssembly), starts the program through
 *   mg_launcher_spawn () in its own process group, captures its stdout and
 *   stderr (bounded), re-merges the records into a live MgProfile at least
 *   twice a second, and when the program ends merges, saves the profile
 *   and explains what went wrong, never blocking the main loop;
 * - the command line runs it (mg_run_session_run), blocking, with the
 *   terminal's stdio, and only prints what it says.
 *
 * Both end the same way (mg-run-end.h). GTK-free.
 *
 * Properties (all notify on the main context): state, elapsed, n-processes,
 * n-samples, exit-status, profile, output-path, message, stopped. */
#pragma once

#include <gio/gio.h>

#include "defs/mg-catalogue.h"
#include "profile/mg-profile.h"
#include "profile/mg-profile-code.h"
#include "mg-run-report.h"
#include "mg-run-settings.h"
#include "mg-run-summary.h"

G_BEGIN_DECLS

/* Live merges give each process at most this many samples (consecutive
 * slots combined, extremes kept): as many as a graph row has pixels, far
 * fewer than a long run's slots (docs/run-dialog.md, the cost). The saved
 * profile has every slot. */
#define MG_RUN_SESSION_LIVE_SAMPLES 512

typedef enum {
  MG_RUN_STATE_IDLE,
  MG_RUN_STATE_PREPARING,
  MG_RUN_STATE_RUNNING,
  MG_RUN_STATE_MERGING,
  MG_RUN_STATE_DONE,       /* the profile is saved; message may explain a failure of the program */
  MG_RUN_STATE_FAILED,     /* no profile: message says why */
  MG_RUN_STATE_CANCELLED,
} MgRunState;

GType mg_run_state_get_type (void);
#define MG_TYPE_RUN_STATE (mg_run_state_get_type ())

#define MG_TYPE_RUN_SESSION (mg_run_session_get_type ())
G_DECLARE_FINAL_TYPE (MgRunSession, mg_run_session, MG, RUN_SESSION, GObject)

#define MG_RUN_SESSION_ERROR (mg_run_session_error_quark ())
GQuark mg_run_session_error_quark (void);

/* Why mg_run_session_run () made no profile. */
typedef enum {
  MG_RUN_SESSION_ERROR_SETTINGS,   /* a --metrics-path folder, the Score-P plugins, -o */
  MG_RUN_SESSION_ERROR_METRICS,    /* the metric toggles (MG_CATALOGUE_ERROR's message) */
  MG_RUN_SESSION_ERROR_LAUNCH,     /* the run could not be put together or started */
  MG_RUN_SESSION_ERROR_NO_SAMPLES, /* nothing was sampled; the message says why, as a clause */
  MG_RUN_SESSION_ERROR_END,        /* the merge or the save failed: records kept (mg-run-end.h) */
} MgRunSessionError;

/* @settings is copied; @catalogue gives the metrics (its toggles are set
 * from the settings when the run starts). NULL: the run loads the one the
 * settings name (mg_run_catalogue_for_run ()). */
MgRunSession *mg_run_session_new (MgRunSettings *settings, MgCatalogue *catalogue);

/* Checks the settings, creates the run folder, writes the plan and starts
 * the program. FALSE (state FAILED) with the reason when it cannot start. */
gboolean mg_run_session_start (MgRunSession *self, GError **error);
/* The command line's run, blocking: the catalogue when none was given,
 * the output folder checked, the run put together, "prepared" emitted
 * (what to say before the program starts: mg_run_session_dup_warnings (),
 * the catalogue's diagnostics), the program run with this process's stdio
 * (signals forwarded, stop-after, a stop followed when there is a
 * terminal), then the run's end (mg-run-end.h) in this thread. TRUE with
 * the profile saved (state DONE). FALSE with MG_RUN_SESSION_ERROR (state
 * FAILED); once the program ran, its exit status is there either way. The
 * report is written by the run's end as for the window; what came of it
 * (mg_run_session_get_report ()) is the caller's to say. */
gboolean mg_run_session_run (MgRunSession *self, GError **error);
/* Besides the settings' report file (mg_run_settings_get_report ()): more
 * partial report locations (--reports-path) and a profile to compare with
 * (--baseline), both may be NULL. Before the run starts. */
void mg_run_session_set_report_sources (MgRunSession *self, const char *const *reports_path,
                                        const char *baseline);
/* How the run's end names the call stacks' frames, once each, for the
 * profile to carry (mg-profile-code.h) and the report ("Where the time
 * went"): namer's data must outlive the run; it is used on the thread that
 * saves the profile. NULL (the default): the profile carries no names and
 * shows module + offset where the binaries are gone. Before the run
 * starts. */
void mg_run_session_set_stack_namer (MgRunSession *self, const MgStackNamer *namer);
/* What reads the source text the profile carries of the files that hold
 * sampled lines, within limit bytes (MG_PROFILE_SOURCE_DEFAULT_LIMIT);
 * used only with a namer. sources' data must outlive the run. NULL (the
 * default): no source text. Before the run starts. */
void mg_run_session_set_source_collector (MgRunSession *self, const MgSourceCollector *sources,
                                          gsize limit);
/* Once DONE with a report asked for: its diagnostics (partial report files
 * left out), its text for "-" (standard output is the caller's), or why it
 * was not written (the profile is saved all the same; the window's message
 * says it too). */
const MgRunReport *mg_run_session_get_report (MgRunSession *self);
/* Once mg_run_session_run () saved the profile: the lines the command line
 * says about it (mg-run-summary.h), made from the profile at the run's
 * end; NULL before, for a window's run, or when no profile was saved. */
const MgRunSummary *mg_run_session_get_summary (MgRunSession *self);

/* All that a blocking run's front end says after mg_run_session_run (), in
 * one piece: the program's exit status (mg_run_session_get_exit_status ()),
 * and once the profile is saved the summary and what came of the report
 * (summary NULL when no profile was saved). Owned by the run. */
typedef struct {
  int exit_status;
  const MgRunSummary *summary;
  const MgRunReport *report;
} MgRunSessionEnd;

MgRunSessionEnd mg_run_session_get_end (MgRunSession *self);
MgCatalogue *mg_run_session_get_catalogue (MgRunSession *self);
/* What to say before the program starts: the settings' warnings and why
 * the program cannot be sampled, if it cannot. */
GStrv mg_run_session_dup_warnings (MgRunSession *self);

/* Ends the program as --stop-after would: SIGTERM to its process group,
 * SIGKILL after the grace period; the profile is still written. */
void mg_run_session_stop (MgRunSession *self);
/* Ends the program the same way and writes nothing. */
void mg_run_session_cancel (MgRunSession *self);
/* Ends the program at once (SIGKILL to its process group), reaps it when it
 * can, writes nothing and removes the run folder: the last resort when the
 * application itself goes away with the run unfinished (running or
 * merging). The state is not changed (the main loop that would report it
 * is ending). A finished session has removed its run folder already. */
void mg_run_session_kill_now (MgRunSession *self);
void mg_run_session_set_grace_period (MgRunSession *self, double seconds);
/* Live profiles are merged this often (default 250 ms), one merge at a time. */
void mg_run_session_set_refresh_interval (MgRunSession *self, guint ms);

MgRunSettings *mg_run_session_get_settings (MgRunSession *self);
MgRunState mg_run_session_get_state (MgRunSession *self);
/* TRUE once the state is DONE, FAILED or CANCELLED. */
gboolean mg_run_session_is_finished (MgRunSession *self);
double mg_run_session_get_elapsed (MgRunSession *self);
guint mg_run_session_get_n_processes (MgRunSession *self);
guint mg_run_session_get_n_samples (MgRunSession *self);
/* -1 until the program ended; 128 + signal number when a signal ended it. */
int mg_run_session_get_exit_status (MgRunSession *self);
/* The live profile while running (NULL before the first sample), then the
 * saved one. */
MgProfile *mg_run_session_get_profile (MgRunSession *self);
const char *mg_run_session_get_output_path (MgRunSession *self);
/* What went wrong (or NULL): non-zero exit, signal, no samples and why,
 * plugin errors, a profile that could not be written. */
const char *mg_run_session_get_message (MgRunSession *self);
gboolean mg_run_session_get_stopped (MgRunSession *self);
/* The program's process id (also its process group's), 0 before it
 * started. */
int mg_run_session_get_pid (MgRunSession *self);
/* How many live merges have been published. */
guint mg_run_session_get_n_refreshes (MgRunSession *self);

/* The program's name as the user gave it (the settings' program, without
 * its folder): what the viewer's header and the run view call the run. */
char *mg_run_session_dup_program_name (MgRunSession *self);
/* The program's stdout and stderr so far, the last max lines (2000). The
 * "output" signal passes each new chunk as it arrives. */
char *mg_run_session_dup_output (MgRunSession *self);

G_END_DECLS
