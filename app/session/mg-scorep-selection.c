/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-scorep-selection.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mg-run-settings-line.h"
#include "mg-run-options.h"

#define PLUGINS_VARIABLE "SCOREP_METRIC_PLUGINS"
#define SEPARATOR_VARIABLE "SCOREP_METRIC_PLUGINS_SEP"
#define DEFAULT_SEPARATOR ","
#define PLUGINS_OPTION "--scorep-plugins"
#define METRICS_OPTION "--scorep-metrics"

void
mg_scorep_choice_free (MgScorepChoice *choice)
{
  g_free (choice->name);
  g_strfreev (choice->tokens);
  g_free (choice->given);
  g_free (choice);
}

char *
mg_scorep_selection_plugin_name (const char *word)
{
  const char *base = strrchr (word, '/');

  base = base != NULL ? base + 1 : word;
  if (g_str_has_prefix (base, "lib") && g_str_has_suffix (base, ".so") && strlen (base) > 6)
    return g_strndup (base + 3, strlen (base) - 6);
  return g_strdup (word);
}

char *
mg_scorep_selection_tokens_variable (const char *name)
{
  g_autofree char *upper = g_ascii_strup (name, -1);

  return g_strconcat ("SCOREP_METRIC_", upper, NULL);
}

/* @text split at @separator, empty items dropped; @strip: blanks around
 * items too. Tokens from SCOREP_METRIC_<NAME> keep theirs, as Score-P
 * keeps them (a fileparser token can end in "s= ", a blank separator). */
static void
add_items (GStrvBuilder *builder, const char *text, const char *separator, gboolean strip)
{
  g_auto (GStrv) items = g_strsplit (text != NULL ? text : "", separator, -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      if (strip)
        g_strstrip (items[i]);
      if (*items[i] != '\0')
        g_strv_builder_add (builder, items[i]);
    }
}

static MgScorepChoice *
find (GPtrArray *choices, const char *name)
{
  for (guint i = 0; i < choices->len; i++)
    {
      MgScorepChoice *choice = g_ptr_array_index (choices, i);

      if (strcmp (choice->name, name) == 0)
        return choice;
    }
  return NULL;
}

/* The plugin @word names (a library's name is taken as the plugin's, as
 * Score-P looks for lib<NAME>.so), added once. */
static MgScorepChoice *
add_plugin (GPtrArray *choices, const char *word)
{
  g_autofree char *name = mg_scorep_selection_plugin_name (word);
  MgScorepChoice *choice = find (choices, name);

  if (choice == NULL)
    {
      choice = g_new0 (MgScorepChoice, 1);
      choice->name = g_steal_pointer (&name);
      g_ptr_array_add (choices, choice);
    }
  if (strcmp (choice->name, word) != 0 && choice->given == NULL)
    choice->given = g_strdup (word);
  return choice;
}

/* --scorep-metrics=NAME:TOKENS entries, each adding to NAME's tokens. */
static void
add_option_tokens (GPtrArray *choices, const char *const *entries)
{
  g_autoptr (GHashTable) builders =
    g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_strv_builder_unref);

  for (guint i = 0; entries != NULL && entries[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (entries[i], strcspn (entries[i], ":"));
      const char *tokens = strchr (entries[i], ':');
      MgScorepChoice *choice = add_plugin (choices, g_strstrip (name));
      GStrvBuilder *builder = g_hash_table_lookup (builders, choice->name);

      if (builder == NULL)
        {
          builder = g_strv_builder_new ();
          g_hash_table_insert (builders, choice->name, builder);
        }
      add_items (builder, tokens != NULL ? tokens + 1 : "", ",", TRUE);
    }
  for (guint i = 0; i < choices->len; i++)
    {
      MgScorepChoice *choice = g_ptr_array_index (choices, i);
      GStrvBuilder *builder = g_hash_table_lookup (builders, choice->name);

      if (builder != NULL)
        {
          g_strfreev (choice->tokens);
          choice->tokens = g_strv_builder_end (builder);
        }
    }
}

GPtrArray *
mg_scorep_selection_get (MgRunSettings *settings, const char *const *environment,
                         GError **error)
{
  g_auto (GStrv) own_environment = NULL;
  g_autoptr (GPtrArray) choices =
    g_ptr_array_new_with_free_func ((GDestroyNotify) mg_scorep_choice_free);
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  g_auto (GStrv) named = NULL;
  const char *separator;

  if (environment == NULL)
    {
      own_environment = mg_run_settings_build_environment (settings, NULL);
      environment = (const char *const *) own_environment;
    }
  separator = g_environ_getenv ((char **) environment, SEPARATOR_VARIABLE);
  if (separator == NULL || *separator == '\0')
    separator = DEFAULT_SEPARATOR;

  add_items (names, g_environ_getenv ((char **) environment, PLUGINS_VARIABLE), separator, TRUE);
  for (const char *const *p = mg_run_settings_get_scorep_plugins (settings); *p != NULL; p++)
    add_items (names, *p, ",", TRUE);
  named = g_strv_builder_end (names);
  for (guint i = 0; named[i] != NULL; i++)
    {
      MgScorepChoice *choice = add_plugin (choices, named[i]);
      g_autofree char *variable = mg_scorep_selection_tokens_variable (choice->name);
      g_autoptr (GStrvBuilder) tokens = g_strv_builder_new ();

      if (choice->tokens != NULL)
        continue;
      add_items (tokens, g_environ_getenv ((char **) environment, variable), separator, FALSE);
      choice->tokens = g_strv_builder_end (tokens);
    }
  add_option_tokens (choices, mg_run_settings_get_scorep_metrics (settings));

  for (guint i = 0; i < choices->len; i++)
    {
      MgScorepChoice *choice = g_ptr_array_index (choices, i);

      if (choice->tokens == NULL || choice->tokens[0] == NULL)
        {
          g_autofree char *variable = mg_scorep_selection_tokens_variable (choice->name);

          g_set_error (error, MG_RUN_OPTION_ERROR, MG_RUN_OPTION_ERROR_VALUE,
                       _("Score-P plugin %s: no metrics selected; give --scorep-metrics=%s:TOKEN "
                         "or set %s"), choice->name, choice->name, variable);
          return NULL;
        }
    }
  return g_steal_pointer (&choices);
}

GStrv
mg_scorep_selection_dup_notes (MgRunSettings *settings)
{
  g_autoptr (GStrvBuilder) notes = g_strv_builder_new ();
  g_autoptr (GPtrArray) choices = mg_scorep_selection_get (settings, NULL, NULL);

  for (guint i = 0; choices != NULL && i < choices->len; i++)
    {
      MgScorepChoice *choice = g_ptr_array_index (choices, i);

      if (choice->given != NULL)
        {
          g_autofree char *note = g_strdup_printf (
            _("Score-P plugin %s chosen for %s: a plugin is named without 'lib' and '.so', "
              "and its library is found on LD_LIBRARY_PATH"),
            choice->name, choice->given);

          g_strv_builder_add (notes, note);
        }
    }
  return g_strv_builder_end (notes);
}

char *
mg_scorep_selection_to_text (MgRunSettings *settings)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_auto (GStrv) all = NULL;

  g_strv_builder_addv (words, (const char **) mg_run_settings_get_scorep_plugins (settings));
  g_strv_builder_addv (words, (const char **) mg_run_settings_get_scorep_metrics (settings));
  all = g_strv_builder_end (words);
  /* Quoted as in the command line, so that tokens with blanks read back. */
  for (guint i = 0; all[i] != NULL; i++)
    {
      char *quoted = mg_run_quote_word (all[i]);

      g_free (all[i]);
      all[i] = quoted;
    }
  return g_strjoinv (" ", all);
}

/* @text's words (split and unquoted as a shell does, like the command
 * line) through the table's two options into @out (new settings). */
static gboolean
parse_words (const char *text, MgRunSettings *out, GError **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_auto (GStrv) words = NULL;
  g_autoptr (GError) local_error = NULL;

  if (*stripped == '\0')
    return TRUE;
  if (!g_shell_parse_argv (text, NULL, &words, &local_error))
    {
      g_set_error (error, MG_RUN_OPTION_ERROR, MG_RUN_OPTION_ERROR_VALUE,
                   _("Check the quotes: %s"), local_error->message);
      return FALSE;
    }

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *name = strchr (words[i], ':') != NULL ? METRICS_OPTION : PLUGINS_OPTION;

      if (*words[i] != '\0'
          && !mg_run_option_parse (mg_run_options_lookup (name), words[i], out, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
mg_scorep_selection_set_from_text (MgRunSettings *settings, const char *text, GError **error)
{
  g_autoptr (MgRunSettings) read = mg_run_settings_new ();

  if (!parse_words (text, read, error))
    return FALSE;
  mg_run_settings_set_scorep_plugins (settings, mg_run_settings_get_scorep_plugins (read));
  mg_run_settings_set_scorep_metrics (settings, mg_run_settings_get_scorep_metrics (read));
  return TRUE;
}

gboolean
mg_scorep_selection_text_matches (MgRunSettings *settings, const char *text)
{
  g_autoptr (MgRunSettings) read = mg_run_settings_new ();

  return parse_words (text, read, NULL)
         && g_strv_equal (mg_run_settings_get_scorep_plugins (read),
                          mg_run_settings_get_scorep_plugins (settings))
         && g_strv_equal (mg_run_settings_get_scorep_metrics (read),
                          mg_run_settings_get_scorep_metrics (settings));
}
