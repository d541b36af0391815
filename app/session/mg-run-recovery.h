/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Recovery of a run whose front end ended before writing its profile
 * (killed with SIGKILL, its terminal lost, out of memory). The program ran
 * on and its sampler kept writing the records in the run folder; the folder
 * also keeps the plan and the run's settings as the `metrograph --profile`
 * line that repeats it (MG_RUN_FOLDER_COMMAND). Recovery merges the records
 * with the definitions those settings enable into the profile the front end
 * would have written, and tells which processes were still running (their
 * records end where recovery read them). GTK-free. */
#pragma once

#include <glib.h>

#include "defs/mg-catalogue.h"
#include "profile/mg-profile.h"
#include "profile/mg-profile-code.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_RUN_RECOVERY_ERROR (mg_run_recovery_error_quark ())
GQuark mg_run_recovery_error_quark (void);

typedef enum {
  MG_RUN_RECOVERY_ERROR_NOT_A_RUN,  /* no plan, records or command: the message says which */
  MG_RUN_RECOVERY_ERROR_LIVE,       /* its front end still runs and will write the profile */
  MG_RUN_RECOVERY_ERROR_SETTINGS,   /* the command file cannot be read back */
} MgRunRecoveryError;

typedef struct {
  int pid;
  char *program;
} MgRecoveredProcess;

typedef struct _MgRunRecovery MgRunRecovery;

/* Checks @run_dir and reads its settings. */
MgRunRecovery *mg_run_recovery_open (const char *run_dir, GError **error);
/* For a @path given as a profile that is a run folder instead: why it is
 * no profile, and in @what_to_do what to do (metrograph --recover, or
 * wait for the metrograph that still writes it); NULL for any other path. */
char *mg_run_recovery_describe_folder (const char *path, char **what_to_do);
void mg_run_recovery_free (MgRunRecovery *self);

const char *mg_run_recovery_get_run_dir (MgRunRecovery *self);
/* The run's settings (its program, options and metric toggles). */
MgRunSettings *mg_run_recovery_get_settings (MgRunRecovery *self);

/* The profile of the records so far, carrying the definitions @catalogue
 * enables (the run's toggles applied to it by the caller). The run's exit
 * status is that of its first process when it ended, else 0. */
MgProfile *mg_run_recovery_merge (MgRunRecovery *self, MgCatalogue *catalogue, GError **error);
/* The processes of this host whose records were still open and that still
 * run (MgRecoveredProcess, by pid); filled by mg_run_recovery_merge (). */
GPtrArray *mg_run_recovery_get_running (MgRunRecovery *self);
/* Writes the profile to @output (a file, replaced if it exists, or a folder
 * for MAP's name; relative to the current folder) instead of where the run
 * would have; NULL: where the run would have. */
void mg_run_recovery_set_output (MgRunRecovery *self, const char *output);
/* How the profile names its stacks' frames and which source text it
 * carries (mg-profile-code.h), as at a run's end: namer and sources (may
 * be NULL: no text) must outlive the recovery. Without it the profile
 * carries no names. */
void mg_run_recovery_set_code (MgRunRecovery *self, const MgStackNamer *namer,
                               const MgSourceCollector *sources, gsize source_limit);
/* Where to write @profile: the output set, else where the run would have
 * written it: its -o, else MAP's name in its working folder (an existing
 * file is then never replaced). */
char *mg_run_recovery_choose_output (MgRunRecovery *self, MgProfile *profile);

/* The whole recovery, for both front ends: the run's definitions (its
 * metric folders before the usual search path, its toggles), the merge,
 * the profile saved where the run would have written it (*output), and the
 * run folder removed unless some process still runs. Returns the profile,
 * or NULL with the error (the folder is then kept). */
MgProfile *mg_run_recovery_write (MgRunRecovery *self, char **output, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MgRunRecovery, mg_run_recovery_free)

G_END_DECLS
