/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which Score-P metric plugins a run hosts and with which tokens, the
 * Score-P way and Metrograph's (docs/scorep-plugins.md):
 *   SCOREP_METRIC_PLUGINS=a,b in the program's environment (separator
 *   SCOREP_METRIC_PLUGINS_SEP, default ","), each plugin's tokens from
 *   SCOREP_METRIC_<NAME IN UPPER CASE>;
 *   --scorep-plugins=a,b and --scorep-metrics=a:tok1,tok2, which add
 *   plugins and, for a plugin they name, replace the environment's tokens.
 * GTK-free. */
#pragma once

#include <glib.h>

#include "mg-run-settings.h"

G_BEGIN_DECLS

typedef struct {
  char *name;
  GStrv tokens;
  char *given;   /* the word as written when it named the library (libNAME.so), else NULL */
} MgScorepChoice;

void mg_scorep_choice_free (MgScorepChoice *choice);

/* The plugin name in @word: NAME for a library's name or path
 * (lib<NAME>.so, …/lib<NAME>.so), else @word itself (newly allocated). */
char *mg_scorep_selection_plugin_name (const char *word);
/* One sentence for each plugin chosen by its library's name, saying the
 * name it was taken as; empty when none (or the selection is wrong). */
GStrv mg_scorep_selection_dup_notes (MgRunSettings *settings);

/* The choices (MgScorepChoice*, in the order named) for @settings in
 * @environment (NULL: the program's, mg_run_settings_build_environment);
 * NULL with an error naming the plugin when one has no tokens. */
GPtrArray *mg_scorep_selection_get (MgRunSettings *settings, const char *const *environment,
                                    GError **error);

/* The run dialog's one field for both options: words separated by blanks
 * and quoted as in the command line (a token may hold blanks), "NAME" (or
 * "A,B") for --scorep-plugins and "NAME:TOKEN,TOKEN" for --scorep-metrics,
 * read and written through the option table. */
char *mg_scorep_selection_to_text (MgRunSettings *settings);
/* FALSE with the option's error, @settings unchanged, when a word does not
 * read. */
gboolean mg_scorep_selection_set_from_text (MgRunSettings *settings, const char *text,
                                            GError **error);
/* Whether @text reads as what @settings already hold. */
gboolean mg_scorep_selection_text_matches (MgRunSettings *settings, const char *text);

/* The environment variable holding @name's tokens: SCOREP_METRIC_<NAME>. */
char *mg_scorep_selection_tokens_variable (const char *name);

G_END_DECLS
