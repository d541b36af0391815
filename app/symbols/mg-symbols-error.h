/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Why an address kept its module and offset instead of a function. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MG_SYMBOLS_ERROR (mg_symbols_error_quark ())
GQuark mg_symbols_error_quark (void);

typedef enum {
  /* The module's file is not there (and no file with its build-id is in
   * the debug folders). */
  MG_SYMBOLS_ERROR_NOT_FOUND,
  /* The file at the module's path has another build-id than the run
   * recorded: it was rebuilt or replaced since, and its symbols would be
   * wrong. */
  MG_SYMBOLS_ERROR_BUILD_ID_MISMATCH,
  /* The module is there but holds no symbol for the address (stripped,
   * and no separate debug info found). */
  MG_SYMBOLS_ERROR_NO_SYMBOLS,
  /* The file is not an ELF object libdw can read. */
  MG_SYMBOLS_ERROR_INVALID,
} MgSymbolsError;

G_END_DECLS
