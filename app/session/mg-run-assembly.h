/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One run put together from its settings: the single path from
 * MgRunSettings to a running program and back to a profile, taken by both
 * front ends (`metrograph --profile` and the window's MgRunSession).
 *
 * mg_run_assembly_new () keeps the enabled definitions of the run's
 * catalogue (mg_run_catalogue_for_run (): its toggles applied), makes the launcher (program
 * and arguments, working folder, environment, sampler and preloads, MPI
 * processes, Stop after), creates its run folder and writes the plan. The
 * front end then starts the program through the launcher (mg_launcher_run
 * blocks, mg_launcher_spawn does not) and merges the records
 * (mg_run_assembly_merge, also while the program runs) into the profile it
 * saves under mg_run_assembly_choose_output (). GTK-free. */
#pragma once

#include <gio/gio.h>

#include "defs/mg-catalogue.h"
#include "mg-launcher.h"
#include "profile/mg-profile.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_TYPE_RUN_ASSEMBLY (mg_run_assembly_get_type ())
G_DECLARE_FINAL_TYPE (MgRunAssembly, mg_run_assembly, MG, RUN_ASSEMBLY, GObject)

/* @settings is copied; @catalogue has the settings' toggles applied. NULL
 * with the launcher's or the plan writer's error when the run cannot be
 * prepared. */
MgRunAssembly *mg_run_assembly_new (MgRunSettings *settings, MgCatalogue *catalogue,
                                    GError **error);

MgRunSettings *mg_run_assembly_get_settings (MgRunAssembly *self);
/* Adds @catalogue's enabled and available definitions to @metrics, and the
 * groups that show one of them to @groups: what a profile carries so that it
 * opens where the plugins are not. */
void mg_run_assembly_collect_definitions (MgCatalogue *catalogue, GPtrArray *metrics,
                                          GPtrArray *groups);
MgLauncher *mg_run_assembly_get_launcher (MgRunAssembly *self);
/* Where the program runs (absolute). */
const char *mg_run_assembly_get_working_folder (MgRunAssembly *self);

/* The records so far as a profile carrying the enabled definitions, the
 * command line, the start time and @exit_status; @max_process_samples as
 * in MgMergeInput (0: every slot; else only the slots committed since the
 * last such merge are read). Safe from any thread once the program
 * started; the live merges (max_process_samples > 0) one at a time. */
MgProfile *mg_run_assembly_merge (MgRunAssembly *self, int exit_status,
                                  guint max_process_samples, GError **error);
/* The stop was asked @time_s seconds into the run (Stop, --stop-after):
 * the final profile records it (mg-stop-event.h), so that a profile
 * opened later does not count the processes it ended as failures. */
void mg_run_assembly_set_stopped (MgRunAssembly *self, double time_s);
/* What the program printed (stdout and stderr as they came, output_cut
 * bytes before it left out), for the profiles merged from now on. Not
 * while a merge runs. */
void mg_run_assembly_set_output (MgRunAssembly *self, const char *output, guint64 output_cut);
/* The profile's path: the settings' output read as -o is, else MAP's name
 * (mg_output_name_choose) in the working folder. */
char *mg_run_assembly_choose_output (MgRunAssembly *self, MgProfile *profile);
/* Why the run's merge found no samples (MG_PROFILE_ERROR_NO_SAMPLES), as a
 * clause for "no samples were recorded, so no profile was written: …":
 * the ranks selected, Stop after ending the program before its first
 * sample, or what keeps a program from being sampled. After the run. */
char *mg_run_assembly_explain_no_samples (MgRunAssembly *self);

G_END_DECLS
