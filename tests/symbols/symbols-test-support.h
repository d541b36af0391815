/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the tests of app/symbols share: the test programs (built by meson
 * beside the tests), run to learn their build-id and their probes'
 * addresses, and the marked lines of their sources. */
#pragma once

#include <glib.h>

#include "symbols/mg-symbolizer.h"

G_BEGIN_DECLS

typedef struct {
  char *program;
  GByteArray *build_id;
  GHashTable *vaddrs; /* probe label → guint64 * */
} SymbolsTestRun;

/* A file built in <build>/tests/symbols. */
char *symbols_test_built (const char *name);
/* The absolute, canonical path of a source in tests/symbols. */
char *symbols_test_source (const char *name);
/* The line of SOURCE (a file of tests/symbols) that holds "MARK:MARKER". */
guint symbols_test_marker_line (const char *source, const char *marker);

/* Runs PROGRAM (a path) and reads what it printed: its build-id and its
 * probes' addresses. */
SymbolsTestRun *symbols_test_run (const char *program);
guint64 symbols_test_vaddr (SymbolsTestRun *run, const char *label);
void symbols_test_run_free (SymbolsTestRun *run);

void symbols_test_copy (const char *from, const char *to);

/* FRAME is FUNCTION at the marked line of SOURCE, inlined or not. */
void symbols_test_assert_frame (const MgSymbolFrame *frame,
                                const char *function,
                                const char *source,
                                const char *marker,
                                gboolean inlined);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SymbolsTestRun, symbols_test_run_free)

G_END_DECLS
