/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the tests of the definitions area. */
#pragma once

#include <glib.h>

#include "defs/mg-diagnostic.h"
#include "mg-test-common.h"

G_BEGIN_DECLS

/* tests/fixtures/defs/@relative in the source tree. */
char *defs_test_fixture_path (const char *relative);
/* A new temporary folder holding copies of the *.xml files of the fixture
 * folder @relative (NULL: empty). */
char *defs_test_copy_fixture (const char *relative);
/* A file that passes the catalogue's shared-library check. */
void defs_test_fake_library (const char *dir, const char *name);
/* The diagnostic about @basename:@line with @severity; fails the test when
 * there is none. */
const MgDiagnostic *defs_test_find_diagnostic (GPtrArray *diagnostics, const char *basename,
                                               int line, MgSeverity severity);
guint defs_test_count_diagnostics_for (GPtrArray *diagnostics, const char *basename);

G_END_DECLS
