/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The `metrograph --profile …` line equivalent to run settings, and back:
 * what the run dialog shows under its fields so that a run made in the
 * window can be repeated in a batch job, and what it reads when a line is
 * pasted. GTK-free.
 *
 * Shape (docs/run-dialog.md):
 *   [cd DIR && ][env [-u NAME]… [NAME=VALUE]… ]metrograph --profile [OPTIONS] [--] PROGRAM [ARGS…]
 * Only options that differ from the defaults appear; words are quoted only
 * when the shell needs it. */
#pragma once

#include "defs/mg-catalogue.h"
#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_RUN_COMMAND_LINE_ERROR (mg_run_command_line_error_quark ())
GQuark mg_run_command_line_error_quark (void);

typedef enum {
  MG_RUN_COMMAND_LINE_ERROR_SYNTAX,    /* unbalanced quotes, missing metrograph/--profile */
  MG_RUN_COMMAND_LINE_ERROR_OPTION,    /* unknown option or bad value: the message names it */
  MG_RUN_COMMAND_LINE_ERROR_NO_PROGRAM,
  MG_RUN_COMMAND_LINE_ERROR_METRICS,   /* a toggle the catalogue refuses */
} MgRunCommandLineError;

/* The metric toggles are written relative to each metric's definition
 * default (whole groups by their id when that is exact), so @catalogue's
 * enabled states are set from @self as a side effect. @catalogue may be NULL:
 * the toggles are then written as stored. */
char *mg_run_settings_to_command_line (MgRunSettings *self, MgCatalogue *catalogue);

/* Replaces every property of @self with what @line says (options it does not
 * give return to their defaults). On error @self is unchanged and the
 * message names the bad option. @catalogue (may be NULL) checks the
 * toggles. */
gboolean mg_run_settings_set_from_command_line (MgRunSettings *self, const char *line,
                                                MgCatalogue *catalogue, GError **error);

/* @word as is when the shell reads it unchanged, else single-quoted. */
char *mg_run_quote_word (const char *word);

G_END_DECLS
