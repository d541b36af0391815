/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checks of run settings before a run starts, one field at a time, with a
 * sentence to show beside the field (the run dialog) or in an error. GTK-free. */
#pragma once

#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_RUN_CHECK_ERROR (mg_run_check_error_quark ())
GQuark mg_run_check_error_quark (void);

typedef enum {
  MG_RUN_CHECK_ERROR_INVALID,
} MgRunCheckError;

/* The program's absolute path: a name without "/" is looked up on PATH, a
 * relative path is taken from the working folder. NULL with a message when
 * it does not exist or cannot be run. */
char *mg_run_settings_resolve_program (MgRunSettings *self, GError **error);

/* A message for the property @property (a property name of MgRunSettings:
 * "program", "arguments", "working-folder", "env-set", "env-unset",
 * "stop-after", "n-processes", "output", "select-ranks", "scorep-plugins":
 * the Score-P selection, mg-scorep-selection.h), or NULL when it is fine. */
char *mg_run_settings_check_field (MgRunSettings *self, const char *property);
/* Every field; the first problem as an error whose message starts with the
 * field's label. */
gboolean mg_run_settings_check (MgRunSettings *self, GError **error);

/* The rules between options (--stop-after after --start-after, --np not
 * with an MPI launcher as the program, --select-ranks within --np), in the
 * command line's words: the message names the options. */
gboolean mg_run_settings_check_options (MgRunSettings *self, GError **error);
/* -o in the command line's words, before the program starts (a long run is
 * not lost at its end): a FOLDER/ that is not there, a folder that cannot
 * be written to. */
gboolean mg_run_settings_check_output (MgRunSettings *self, GError **error);
/* What runs but is likely not what was meant (--select-ranks without MPI),
 * one sentence each; empty when nothing. */
GStrv mg_run_settings_dup_warnings (MgRunSettings *self);

/* Text typed into a number field (the options' value parsers,
 * mg-run-options.h). Empty text is @empty_value. */
gboolean mg_run_parse_count (const char *text, guint min, guint empty_value, guint *value,
                             char **message);
gboolean mg_run_parse_seconds (const char *text, double *value, char **message);

G_END_DECLS
