/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one profiling run is made of: the program and its arguments, where
 * and with which environment it runs, MPI processes, the sampler's timing,
 * the metric toggles and where the profile goes. The run dialog edits one;
 * MgRunSession runs one; mg-run-settings-line.h turns one into the
 * equivalent `metrograph --profile …` line and back. GTK-free.
 *
 * Defaults (the command line's): no MPI (n-processes 0), interval 0 and
 * max-samples 0 (the sampler's own defaults, format/mg-plan-keywords.h), start-after
 * and stop-after 0 (none), no toggles, output NULL (the MAP-style name in the
 * working folder), select-ranks NULL (every MPI rank sampled), report NULL
 * (none), process-precision MG_PROCESS_PRECISION_DEFAULT (exact). */
#pragma once

#include <glib-object.h>

#include "profile/mg-process-precision.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_SETTINGS (mg_run_settings_get_type ())
G_DECLARE_FINAL_TYPE (MgRunSettings, mg_run_settings, MG, RUN_SETTINGS, GObject)

MgRunSettings *mg_run_settings_new (void);
MgRunSettings *mg_run_settings_copy (MgRunSettings *self);
/* Every property of @self set from @other (each change notified once). */
void mg_run_settings_assign (MgRunSettings *self, MgRunSettings *other);
/* TRUE when every property is equal. */
gboolean mg_run_settings_equal (MgRunSettings *a, MgRunSettings *b);

const char *mg_run_settings_get_program (MgRunSettings *self);
void mg_run_settings_set_program (MgRunSettings *self, const char *program);
/* The program's arguments as one line with shell quoting ('a b' "c\"d"). */
const char *mg_run_settings_get_arguments (MgRunSettings *self);
void mg_run_settings_set_arguments (MgRunSettings *self, const char *arguments);
/* The arguments split as a shell would; NULL with an error when the quoting
 * is unbalanced. */
GStrv mg_run_settings_dup_argv (MgRunSettings *self, GError **error);
/* NULL: the current folder. */
const char *mg_run_settings_get_working_folder (MgRunSettings *self);
void mg_run_settings_set_working_folder (MgRunSettings *self, const char *folder);
/* "NAME=VALUE" entries added to the program's environment. */
const char *const *mg_run_settings_get_env_set (MgRunSettings *self);
void mg_run_settings_set_env_set (MgRunSettings *self, const char *const *entries);
/* Variable names removed from the program's environment. */
const char *const *mg_run_settings_get_env_unset (MgRunSettings *self);
void mg_run_settings_set_env_unset (MgRunSettings *self, const char *const *names);
guint mg_run_settings_get_n_processes (MgRunSettings *self);
void mg_run_settings_set_n_processes (MgRunSettings *self, guint n);
guint mg_run_settings_get_interval_ms (MgRunSettings *self);
void mg_run_settings_set_interval_ms (MgRunSettings *self, guint ms);
guint mg_run_settings_get_max_samples (MgRunSettings *self);
void mg_run_settings_set_max_samples (MgRunSettings *self, guint n);
double mg_run_settings_get_start_after (MgRunSettings *self);
void mg_run_settings_set_start_after (MgRunSettings *self, double seconds);
double mg_run_settings_get_stop_after (MgRunSettings *self);
void mg_run_settings_set_stop_after (MgRunSettings *self, double seconds);
/* Metric or group ids, as --enable-metrics / --disable-metrics take them. */
const char *const *mg_run_settings_get_enable_metrics (MgRunSettings *self);
void mg_run_settings_set_enable_metrics (MgRunSettings *self, const char *const *ids);
const char *const *mg_run_settings_get_disable_metrics (MgRunSettings *self);
void mg_run_settings_set_disable_metrics (MgRunSettings *self, const char *const *ids);
/* Score-P metric plugins to host, as --scorep-plugins takes them (names),
 * and their tokens, as --scorep-metrics does ("PLUGIN:TOKEN,TOKEN", one
 * entry per plugin); added to the environment's SCOREP_METRIC_PLUGINS
 * selection (mg-scorep-selection.h). */
const char *const *mg_run_settings_get_scorep_plugins (MgRunSettings *self);
void mg_run_settings_set_scorep_plugins (MgRunSettings *self, const char *const *names);
const char *const *mg_run_settings_get_scorep_metrics (MgRunSettings *self);
void mg_run_settings_set_scorep_metrics (MgRunSettings *self, const char *const *entries);
/* --metrics-path folders (searched first). */
const char *const *mg_run_settings_get_metrics_path (MgRunSettings *self);
void mg_run_settings_set_metrics_path (MgRunSettings *self, const char *const *dirs);
/* NULL: the MAP-style name in the working folder; a path ending in .mgprof:
 * that file; any other path: a folder for the MAP-style name. */
const char *mg_run_settings_get_output (MgRunSettings *self);
void mg_run_settings_set_output (MgRunSettings *self, const char *output);
/* The MPI ranks to sample, as --select-ranks takes them ("0,4-7", kept in
 * mg_rank_list_normalise ()'s canonical form); NULL: every rank. */
const char *mg_run_settings_get_select_ranks (MgRunSettings *self);
void mg_run_settings_set_select_ranks (MgRunSettings *self, const char *ranks);
/* --report: NULL, none; "": the text and HTML reports beside the profile
 * (its name with .txt and .html); a path ending in .txt or .html: that one
 * report; "-": the text on standard output. */
const char *mg_run_settings_get_report (MgRunSettings *self);
void mg_run_settings_set_report (MgRunSettings *self, const char *report);
/* --process-precision: what the profile stores each process's own series
 * at (the aggregates are always exact). */
MgProcessPrecision mg_run_settings_get_process_precision (MgRunSettings *self);
void mg_run_settings_set_process_precision (MgRunSettings *self, MgProcessPrecision precision);
/* --no-stacks: no call stacks sampled (default FALSE: stacks on). */
gboolean mg_run_settings_get_no_stacks (MgRunSettings *self);
void mg_run_settings_set_no_stacks (MgRunSettings *self, gboolean no_stacks);

/* The program's environment: @base (NULL: ours) with env-unset removed and
 * env-set added. */
GStrv mg_run_settings_build_environment (MgRunSettings *self, const char *const *base);

/* What the sampler takes when the interval or the sample slots are not
 * given: FORGE_SAMPLER_INTERVAL (ALLINEA_SAMPLER_INTERVAL), resp.
 * FORGE_SAMPLER_NUM_SAMPLES (ALLINEA_SAMPLER_NUM_SAMPLES) in the program's
 * environment (ours with the settings' changes), else the sampler's defaults
 * (MG_PLAN_DEFAULT_INTERVAL_MS, MG_PLAN_DEFAULT_SAMPLES). */
guint mg_run_settings_get_default_interval_ms (MgRunSettings *self);
guint mg_run_settings_get_default_max_samples (MgRunSettings *self);

G_END_DECLS
