/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every test area shares: temporary trees, the main loop turned for a
 * while, the host's steal time (and, in mg-test-cases.h, tests driven by
 * fixture files with expected outputs; in stacks-fixture.h, a profile's
 * call stacks from a compact description).
 *
 * Names of test helpers, one convention for all of tests/:
 * - here, in tests/common/: mg_test_* functions, MgTest* types, files
 *   mg-test-*.[ch];
 * - the helpers of one area, in tests/<area>/ (defs-test-support.[ch],
 *   session-test-support.[ch], plugins-test-support.[ch], cli-harness.[ch],
 *   gui-test-util.[ch]): <area>_test_* functions and <Area>Test* types,
 *   <area> being the folder's name (defs_test_fixture_path,
 *   session_test_wait, plugins_test_symbol, cli_test_run, gui_test_render);
 * - data made to order (profiles, records, graphs): <name>_fixture_* and
 *   <Name>Fixture, after their file <name>-fixture(s).[ch]
 *   (profile_fixture_profile, record_fixture_new, report_fixture_profile,
 *   graph_fixture_profile, gui_fixture_demo), in tests/common/ too where
 *   several areas use them (stacks_fixture_set, StacksFixture: call
 *   stacks from a description, stacks-fixture.h);
 * - symbols a test plugin or workload exports are named by the plan or the
 *   definition file that calls them, not by this rule.
 * Nothing outside tests/common uses the mg_test_ prefix. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes path and everything below it; symbolic links are removed, not
 * followed. Missing paths are fine (a test cleans up what it may not have
 * made). */
void mg_test_remove_tree (const char *path);

/* A new folder for one test, "<tmp>/metrograph-test-<name>-XXXXXX"; free it
 * with mg_test_remove_tree. */
char *mg_test_make_dir (const char *name);

/* Runs the default main context for MS milliseconds (what a test does to
 * let a widget lay out and draw, or a subprocess report), without spinning
 * the CPU while nothing is pending. */
void mg_test_spin (guint ms);

/* The run folder a failed end names ("metrograph --recover DIR", in the
 * command line's stderr or the window's message), asserted to hold
 * records (mg-run-end.h: they are kept). */
char *mg_test_kept_run_folder (const char *message);

/* Seconds the host has taken this virtual machine's CPUs away since boot
 * (steal time, all CPUs together), from /proc/stat; 0 where it is not
 * counted. Subtract two readings for the steal during a test: perf's
 * task-clock goes on counting through it, the threads' CPU clocks do not. */
double mg_test_steal_seconds (void);

G_END_DECLS
