/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampled addresses → functions, inline chains and source lines, at the
 * end of a run (docs/symbols.md). A module is named by its path and the
 * GNU build-id the run read from it; its file is used only while it still
 * has that build-id. Each module is opened once and its indexes kept, so
 * the thousands of addresses of a profile resolve fast. One thread at a
 * time: libdwfl's sessions are not shared between threads. */
#pragma once

#include <glib-object.h>

#include "symbols/mg-symbol-frame.h"
#include "symbols/mg-symbols-error.h"

G_BEGIN_DECLS

#define MG_TYPE_SYMBOLIZER (mg_symbolizer_get_type ())
G_DECLARE_FINAL_TYPE (MgSymbolizer, mg_symbolizer, MG, SYMBOLIZER, GObject)

MgSymbolizer *mg_symbolizer_new (void);

/* The folders searched for separate debug info, in libdwfl's form:
 * "[+|-]DIR:DIR:…"; absolute folders are searched for
 * ".build-id/xx/yyyy.debug" and the module's ".gnu_debuglink" name,
 * relative ones (".debug") beside the module. NULL (the default) is
 * ":.debug:/usr/lib/debug". Also the "debug-path" property. Set it
 * before the first resolve: modules already opened keep theirs. */
void mg_symbolizer_set_debug_path (MgSymbolizer *self, const char *debug_path);
const char *mg_symbolizer_get_debug_path (MgSymbolizer *self);

/* The frames of VADDR, an ELF virtual address of the module (the
 * sampled pc minus the module's load bias; for a return address, the
 * caller passes the address minus 1, inside the call instruction):
 * MgSymbolFrame items, innermost inlined instance first, the function
 * that holds them last. Never NULL and never empty: where the address
 * cannot be resolved the array holds one frame without a function
 * (module + vaddr) and ERROR says why (MG_SYMBOLS_ERROR_*); it is the
 * one call of Metrograph that returns a result beside its error, since
 * the caller stores the fallback frame either way. BUILD_ID_LEN 0: the
 * run did not know the build-id, the file is used as it is. */
GPtrArray *mg_symbolizer_resolve (MgSymbolizer *self,
                                  const char *module_path,
                                  const guint8 *build_id,
                                  gsize build_id_len,
                                  guint64 vaddr,
                                  GError **error);

/* Names one module of the profiled process (as the run saw it), which
 * the symboliser searches for the MPI library: a frame of Metrograph's
 * own libraries (mg_symbolizer_is_own_module: the MPI wrapper, the
 * sampler) resolves to the function it interposes, "MPI_<name>", without
 * file or line, its module the one defining PMPI_<name> (or MPI_<name>)
 * among these and the modules opened so far whose name holds "mpi" (the
 * others are not read, lest a debuginfod server be asked for each), else
 * "MPI library"
 * (translated): Metrograph's code never shows in the user's profile. */
void mg_symbolizer_add_process_module (MgSymbolizer *self,
                                       const char *path,
                                       const guint8 *build_id,
                                       gsize build_id_len);

/* Whether MODULE_PATH is one of Metrograph's own preloaded libraries
 * (libmetrograph-*.so). */
gboolean mg_symbolizer_is_own_module (const char *module_path);

/* How many modules are open (one per path and build-id), for tests. */
guint mg_symbolizer_get_n_modules (MgSymbolizer *self);

G_END_DECLS
