/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options of `metrograph --profile`: one table (name, short form, kind,
 * default, minimum, help) that is the only grammar of a run's settings. The
 * command line's GOption parser is built from it, the run dialog's live
 * line is read and written through it, and its values are read by the same
 * parsers the dialog's fields use. GTK-free.
 *
 * Decided once for both (docs/cli.md):
 *   --stop-after=0 is refused ("never" is written by leaving it out);
 *   --np with an MPI launcher as the program is refused (mg-run-check.h);
 *   --select-ranks without MPI is a warning, not an error. */
#pragma once

#include <glib.h>

#include "mg-run-settings.h"

G_BEGIN_DECLS

#define MG_RUN_OPTION_ERROR (mg_run_option_error_quark ())
GQuark mg_run_option_error_quark (void);

typedef enum {
  MG_RUN_OPTION_ERROR_VALUE,     /* the message names the option and the value */
} MgRunOptionError;

typedef enum {
  MG_RUN_OPTION_PATH,            /* one file or folder name */
  MG_RUN_OPTION_COUNT,           /* a whole number of at least minimum */
  MG_RUN_OPTION_SECONDS,         /* seconds; minimum 1: greater than 0 */
  MG_RUN_OPTION_RANKS,           /* a rank list, kept in canonical form */
  MG_RUN_OPTION_IDS,             /* metric or group ids, comma-separated, repeatable */
  MG_RUN_OPTION_FOLDERS,         /* folders, one per use, repeatable */
  MG_RUN_OPTION_ENTRIES,         /* "NAME:VALUE", one per use, repeatable */
  MG_RUN_OPTION_REPORT,          /* a switch with an optional file: --name or --name=FILE */
  MG_RUN_OPTION_PRECISION,       /* a keyword of mg-process-precision.h */
  MG_RUN_OPTION_SWITCH,          /* a switch without a value: sets a boolean */
} MgRunOptionKind;

typedef struct {
  const char *name;              /* "--np" */
  char short_name;               /* 'n', or 0 */
  const char *property;          /* the MgRunSettings property it sets */
  MgRunOptionKind kind;
  guint default_value;           /* what the sampler takes when it is not given (help) */
  guint minimum;
  gboolean with_list;            /* also goes with --list-metrics */
  const char *arg;               /* N_(): the value's name in --help */
  const char *help;              /* N_(): --help's line (the default is added) */
  const char *what;              /* N_(): counts, "a number of …" in errors */
  gboolean with_recover;         /* also goes with --recover (where the profile goes) */
} MgRunOption;

/* The table, in --help's order. */
const MgRunOption *mg_run_options_get (guint *n_options);
/* By "--name" or "-x"; NULL when unknown. */
const MgRunOption *mg_run_options_lookup (const char *word);

/* Reads @text as @option's value into @settings; ids and folders are added
 * to those already there. On error @settings is unchanged. */
gboolean mg_run_option_parse (const MgRunOption *option, const char *text,
                              MgRunSettings *settings, GError **error);
/* The option's words for @settings ("--np=4", repeated options once per
 * value, ids joined); empty when it is not given. */
GStrv mg_run_option_print (const MgRunOption *option, MgRunSettings *settings);

/* The value parsers, also used by the run dialog's fields: FALSE with a
 * sentence (without the option's name) when @text does not read. */
gboolean mg_run_parse_count_value (const char *text, guint minimum, guint *value,
                                   char **message);
gboolean mg_run_parse_seconds_value (const char *text, gboolean zero_ok, double *value,
                                     char **message);

/* GOption entries for the table (G_OPTION_ARG_CALLBACK, translated help),
 * for a group whose user data is @settings; free with
 * mg_run_options_free_entries (). */
GOptionEntry *mg_run_options_make_entries (void);
void mg_run_options_free_entries (GOptionEntry *entries);

/* GOption reads no value attached to a short option ("-n4", "-ofile"):
 * @argv with those split in two ("-n" "4"), and an optional value's option
 * written bare ("--report") marked as such ("--report=") so that GOption
 * does not take the next word for its value, up to the first word that is
 * neither an option nor an option's value (PROGRAM), where GOption stops in
 * strict POSIX order. @entry_lists: the parser's entries, NULL-terminated. */
GStrv mg_run_options_split_attached (const char *const *argv,
                                     const GOptionEntry *const *entry_lists);

G_END_DECLS
