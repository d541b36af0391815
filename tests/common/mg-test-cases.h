/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests that grow by adding files: one GTest per NAME.xml of a fixture
 * folder, whose parse is dumped as text and compared with NAME.expected
 * beside it (GLib's markup-parse test is the model). A new case is a new
 * pair of files; its expected text comes from the test program itself:
 *
 *   build/tests/defs/test-defs-definition-cases --print NAME.xml > NAME.expected
 *
 * and is then read and checked by hand against the spec. */
#pragma once

#include <glib.h>

#include "defs/mg-metric-def.h"

G_BEGIN_DECLS

/* Parses the file at @path and returns the canonical dump of what was
 * read: every field and every diagnostic, with paths reduced to their
 * base names so that the text does not depend on where the tree is. */
typedef char *(*MgTestCaseDump) (const char *path);

/* Handles "--print FILE…" in @argv: prints the dump of each FILE to stdout
 * and returns TRUE (the program then exits without running tests). Call it
 * before g_test_init(). */
gboolean mg_test_cases_print (int argc, char **argv, MgTestCaseDump dump);

/* Adds the test "@prefix/NAME" for every NAME.xml of @folder, in name
 * order; fails (at the first test run) when the folder holds no case or a
 * case has no NAME.expected. */
void mg_test_cases_add (const char *prefix, const char *folder, MgTestCaseDump dump);

/* The whole main () of a cases program: "--print FILE…", or one test
 * "@prefix/NAME" per case of tests/fixtures/@area/cases. */
int mg_test_cases_main (int argc, char **argv, const char *prefix, const char *area,
                        MgTestCaseDump dump);

/* Fails the test, printing a line diff (expected -, actual +), when
 * @actual differs from the contents of @expected_path. */
void mg_test_cases_assert_expected (const char *actual, const char *expected_path);

/* Lines of a dump, each "  KEY: VALUE\n": a string quoted with C escapes
 * (UTF-8 kept) or "(none)" for NULL, a boolean as true/false, a colour as
 * #rrggbbaa. */
char *mg_test_cases_escape (const char *text);
void mg_test_cases_put_str (GString *out, const char *key, const char *value);
void mg_test_cases_put_bool (GString *out, const char *key, gboolean value);
void mg_test_cases_put_colour (GString *out, const char *key, MgRgba colour);
/* "diagnostics: N" and each MgDiagnostic of @diagnostics as
 * "  BASENAME:LINE: SEVERITY: MESSAGE", @path reduced to its base name in
 * the message too. */
void mg_test_cases_put_diagnostics (GString *out, GPtrArray *diagnostics, const char *path);

/* "@text" with every occurrence of @path replaced by its base name. */
char *mg_test_cases_strip_path (const char *text, const char *path);

G_END_DECLS
