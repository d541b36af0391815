/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running the built metrograph for the plugins' end-to-end tests
 * (builtin-e2e, activity-e2e, gpu-e2e). */
#pragma once

#include <glib.h>

/* <build>/relative (MG_BUILD_ROOT). */
char *plugins_test_build_path (const char *relative);

/* Runs <build>/app/cli/metrograph with args in dir: no user metric folders,
 * no sanitizer runtime preloaded into the profiled program, no display (an
 * MPI launcher's hwloc would connect to it from every rank), dir as the
 * config and data home. env: "NAME=VALUE" to set, "NAME" to unset,
 * NULL-terminated, or NULL. Logs both outputs; returns the wait status,
 * with stdout and stderr in *out and *err where not NULL. */
int plugins_test_run_metrograph (const char *dir, const char *const *args,
                                 const char *const *env, char **out, char **err);
