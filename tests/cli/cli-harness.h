/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running the built metrograph from tests: paths in the build folder, an
 * isolated environment (no user metric folders), captured output. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  int status;       /* exit status, 128 + signal when killed */
  char *out;
  char *err;
  double seconds;
} CliTestRun;

void cli_test_run_free (CliTestRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliTestRun, cli_test_run_free)

/* <MG_BUILD_ROOT>/<relative>. */
char *cli_test_build_path (const char *relative);
/* A fresh temporary folder, removed by cli_test_tmpdir_remove(). */
char *cli_test_tmpdir_new (void);
void cli_test_tmpdir_remove (const char *path);
/* The environment for metrograph: user metric and report folders point
 * into @home. */
GStrv cli_test_environ (const char *home);

/* Runs metrograph with @args (NULL-terminated) in @cwd and waits. */
CliTestRun *cli_test_run (const char *cwd, const char *const *args);
/* Same, with "NAME=value" entries added to the environment. */
CliTestRun *cli_test_run_with_env (const char *cwd, const char *const *args,
                                   const char *const *extra_env);
/* Starts metrograph in @cwd without waiting; output goes to files in cwd. */
GPid cli_test_spawn (const char *cwd, const char *const *args, const char *const *extra_env);
/* Waits for @pid for at most @timeout_s; returns the exit status, or -1
 * after killing it on timeout. */
int cli_test_wait (GPid pid, double timeout_s);

/* Builds tests/fixtures/cli/@fixture into @dir/@name with @compiler (a
 * name on PATH or a path) and @flags; then, unless @run_args is NULL,
 * runs it once unprofiled with them (its stdout into *@out when @out is
 * not NULL). The binary's path, or NULL with the test skipped and the
 * compiler's or the program's message where this toolchain or machine
 * cannot (a sanitizer not installed, or one that refuses this
 * address-space layout). */
char *cli_test_build_fixture (const char *compiler, const char *dir, const char *fixture,
                              const char *name, const char *const *flags,
                              const char *const *run_args, char **out);

/* A folder of its own for one test: runs/ in it holds the run folders the
 * test's metrograph makes (METROGRAPH_TMPDIR) and must be empty at the end
 * (no way out leaves one behind); the bundled workload and the example
 * plugins' folder. For g_test_add (). */
typedef struct {
  char *dir;
  char *runs;
  char *examples;
  char *workload;
} CliTestFolder;

void cli_test_folder_setup (CliTestFolder *f, gconstpointer data);
void cli_test_folder_teardown (CliTestFolder *f, gconstpointer data);

G_END_DECLS
