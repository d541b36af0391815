/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The front ends' side of symbols: one MgSymbolizer (app/symbols) behind
 * the profile's MgStackNamer, so frames get function names, inline chains
 * and source lines (docs/symbols.md), and MgSourceBundle behind the
 * profile's MgSourceCollector, for the source text a profile carries
 * (mg-profile-code.h). The command line and the window (which builds this
 * file into its module) use it alike. */
#pragma once

#include "profile/mg-profile-code.h"
#include "profile/mg-stack-namer.h"
#include "session/mg-run-recovery.h"
#include "session/mg-run-session.h"
#include "symbols/mg-symbolizer.h"

G_BEGIN_DECLS

/* A namer resolving through symbolizer, which must outlive it. */
MgStackNamer mg_cli_symbol_namer (MgSymbolizer *symbolizer);

/* A collector reading the files through an MgSourceBundle of the limit
 * it is given. */
MgSourceCollector mg_cli_source_collector (void);

/* Sets up session's end to name the frames with a symboliser the session
 * keeps and to carry up to MG_PROFILE_SOURCE_DEFAULT_LIMIT bytes of
 * source text. Before the run starts. */
void mg_cli_symbols_prepare_run (MgRunSession *session);

/* The same for a recovery (metrograph --recover, the window's Recover),
 * through symbolizer, which must outlive it. */
void mg_cli_symbols_prepare_recovery (MgRunRecovery *recovery, MgSymbolizer *symbolizer);

G_END_DECLS
