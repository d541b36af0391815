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

/* Fails the test, printing a line diff (expected -, actual +), when
 * @actual differs from the contents of @expected_path. */
void mg_test_cases_assert_expected (const char *actual, const char *expected_path);

/* "@text" with every occurrence of @path replaced by its base name. */
char *mg_test_cases_strip_path (const char *text, const char *path);

G_END_DECLS
