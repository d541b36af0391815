/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-settings-line.h"

#include <glib/gi18n.h>
#include <string.h>

#include "format/mg-plan-keywords.h"
#include "mg-output-name.h"
#include "mg-run-metric-toggles.h"
#include "mg-run-options.h"

G_DEFINE_QUARK (mg-run-settings-line-error-quark, mg_run_command_line_error)

char *
mg_run_quote_word (const char *word)
{
  static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "_@%+=:,./-";

  if (*word != '\0' && strspn (word, safe) == strlen (word))
    return g_strdup (word);
  return g_shell_quote (word);
}

static void
append_word (GString *line, const char *word)
{
  g_autofree char *quoted = mg_run_quote_word (word);

  if (line->len > 0)
    g_string_append_c (line, ' ');
  g_string_append (line, quoted);
}

/* A folder is written with a "/" at the end: `metrograph --profile -o DIR/`
 * gives the profile MAP's default name in DIR, made when the run ends,
 * exactly as the window's run names it (mg_output_name_choose). */
static char *
output_word (MgRunSettings *self)
{
  const char *output = mg_run_settings_get_output (self);
  const char *folder = mg_run_settings_get_working_folder (self);
  g_autofree char *base = folder != NULL ? g_canonicalize_filename (folder, NULL)
                                         : g_get_current_dir ();

  if (output == NULL)
    return NULL;
  if (!g_str_has_suffix (output, "/") && mg_output_name_is_folder (output, base))
    return g_strconcat (output, "/", NULL);
  return g_strdup (output);
}

static void
append_environment (GString *line, MgRunSettings *self)
{
  const char *const *unset = mg_run_settings_get_env_unset (self);
  const char *const *set = mg_run_settings_get_env_set (self);

  if (unset[0] == NULL && set[0] == NULL)
    return;
  append_word (line, "env");
  for (guint i = 0; unset[i] != NULL; i++)
    {
      append_word (line, "-u");
      append_word (line, unset[i]);
    }
  for (guint i = 0; set[i] != NULL; i++)
    append_word (line, set[i]);
}

static void
append_program (GString *line, MgRunSettings *self)
{
  const char *program = mg_run_settings_get_program (self);
  const char *arguments = mg_run_settings_get_arguments (self);
  g_auto (GStrv) argv = mg_run_settings_dup_argv (self, NULL);

  if (program != NULL && program[0] == '-')
    append_word (line, "--");
  append_word (line, program != NULL ? program : "PROGRAM");
  if (argv != NULL)
    for (guint i = 0; argv[i] != NULL; i++)
      append_word (line, argv[i]);
  else if (arguments != NULL)
    g_string_append_printf (line, " %s", arguments); /* unbalanced: shown as typed */
}

/* The settings as the line shows them: -o DIR/ for a folder, what the
 * sampler would take anyway left out, the toggles relative to the
 * definitions' defaults (through @catalogue). */
static MgRunSettings *
normalise (MgRunSettings *self, MgCatalogue *catalogue)
{
  MgRunSettings *shown = mg_run_settings_copy (self);
  g_autofree char *output = output_word (self);

  mg_run_settings_set_output (shown, output);
  if (mg_run_settings_get_interval_ms (self) == mg_run_settings_get_default_interval_ms (self))
    mg_run_settings_set_interval_ms (shown, 0);
  if (mg_run_settings_get_max_samples (self) == mg_run_settings_get_default_max_samples (self))
    mg_run_settings_set_max_samples (shown, 0);
  if (catalogue != NULL && mg_run_settings_apply_toggles (self, catalogue, NULL))
    {
      for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
        {
          const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);

          if (mg_run_metric_is_switchable (m))
            mg_run_settings_set_metric_enabled (shown, catalogue, m->def->id, m->enabled);
        }
    }
  return shown;
}

char *
mg_run_settings_to_command_line (MgRunSettings *self, MgCatalogue *catalogue)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_autoptr (MgRunSettings) shown = normalise (self, catalogue);
  const char *folder = mg_run_settings_get_working_folder (self);
  guint n_options;
  const MgRunOption *options = mg_run_options_get (&n_options);

  if (folder != NULL)
    {
      append_word (line, "cd");
      append_word (line, folder);
      g_string_append (line, " &&");
    }
  append_environment (line, self);
  append_word (line, "metrograph");
  append_word (line, "--profile");
  for (guint i = 0; i < n_options; i++)
    {
      g_auto (GStrv) words = mg_run_option_print (&options[i], shown);

      for (guint j = 0; words[j] != NULL; j++)
        append_word (line, words[j]);
    }
  append_program (line, self);
  return g_string_free (g_steal_pointer (&line), FALSE);
}

/* ---- reading a line back ------------------------------------------------ */

typedef struct {
  char **words;
  guint i;
} Words;

static gboolean
option_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
option_error (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (MG_RUN_COMMAND_LINE_ERROR,
                                                MG_RUN_COMMAND_LINE_ERROR_OPTION, format, args));
  va_end (args);
  return FALSE;
}

/* The option at w->i and its value: "--long=value", "--long value",
 * "-s value" or "-svalue" ("--report" alone: NULL). NULL when the word is
 * no option of the table. */
static const MgRunOption *
match_option (Words *w, const char **value, GError **error, gboolean *failed)
{
  const char *word = w->words[w->i];
  const char *eq = g_str_has_prefix (word, "--") ? strchr (word, '=') : NULL;
  g_autofree char *name = eq != NULL ? g_strndup (word, eq - word) : NULL;
  const MgRunOption *option = mg_run_options_lookup (name != NULL ? name : word);

  if (option != NULL && eq != NULL)
    {
      *value = eq + 1;
      w->i++;
      return option;
    }
  if (option != NULL && option->kind == MG_RUN_OPTION_SWITCH)
    {
      /* No value. */
      *value = NULL;
      w->i++;
      return option;
    }
  if (option != NULL && option->kind == MG_RUN_OPTION_REPORT)
    {
      /* Its value is optional, and only ever attached. */
      *value = NULL;
      w->i++;
      return option;
    }
  if (option != NULL)
    {
      if (w->words[w->i + 1] == NULL)
        {
          *failed = !option_error (error, _("%s needs a value"), word);
          return option;
        }
      *value = w->words[w->i + 1];
      w->i += 2;
      return option;
    }
  if (word[0] == '-' && word[1] != '-' && word[1] != '\0' && word[2] != '\0')
    {
      char short_form[] = { '-', word[1], '\0' };

      option = mg_run_options_lookup (short_form);
      if (option != NULL)
        {
          *value = word + 2;
          w->i++;
        }
    }
  return option;
}

/* One option at w->i; FALSE on error. */
static gboolean
parse_option (Words *w, MgRunSettings *s, gboolean *profile, GError **error)
{
  const char *word = w->words[w->i];
  const char *value = NULL;
  gboolean failed = FALSE;
  const MgRunOption *option;
  g_autoptr (GError) local = NULL;

  if (strcmp (word, "--profile") == 0)
    {
      *profile = TRUE;
      w->i++;
      return TRUE;
    }
  option = match_option (w, &value, error, &failed);
  if (failed)
    return FALSE;
  if (option == NULL)
    return option_error (error, _("unknown option “%s” (the run dialog knows the options of "
                                  "metrograph --profile)"), word);
  if (!mg_run_option_parse (option, value, s, &local))
    return option_error (error, "%s", local->message);
  return TRUE;
}

/* "cd DIR &&" and "env [-u NAME]… [NAME=VALUE]…" before metrograph. */
static gboolean
parse_prefix (Words *w, MgRunSettings *s, GError **error)
{
  g_autoptr (GPtrArray) set = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) unset = g_ptr_array_new_with_free_func (g_free);

  if (w->words[w->i] != NULL && strcmp (w->words[w->i], "cd") == 0)
    {
      if (w->words[w->i + 1] == NULL || g_strcmp0 (w->words[w->i + 2], "&&") != 0)
        {
          g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_SYNTAX,
                       _("write the working folder as “cd FOLDER && metrograph --profile …”"));
          return FALSE;
        }
      mg_run_settings_set_working_folder (s, w->words[w->i + 1]);
      w->i += 3;
    }
  if (w->words[w->i] != NULL && strcmp (w->words[w->i], "env") == 0)
    {
      for (w->i++; w->words[w->i] != NULL; w->i++)
        {
          const char *word = w->words[w->i];

          if (strcmp (word, "-u") == 0 && w->words[w->i + 1] != NULL)
            g_ptr_array_add (unset, g_strdup (w->words[++w->i]));
          else if (g_str_has_prefix (word, "--unset="))
            g_ptr_array_add (unset, g_strdup (word + strlen ("--unset=")));
          else if (word[0] != '-' && word[0] != '=' && strchr (word, '=') != NULL)
            g_ptr_array_add (set, g_strdup (word));
          else
            break;
        }
    }
  g_ptr_array_add (set, NULL);
  g_ptr_array_add (unset, NULL);
  mg_run_settings_set_env_set (s, (const char *const *) set->pdata);
  mg_run_settings_set_env_unset (s, (const char *const *) unset->pdata);
  return TRUE;
}

static char *
join_quoted (char **words)
{
  g_autoptr (GString) line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    append_word (line, words[i]);
  return g_string_free (g_steal_pointer (&line), FALSE);
}

gboolean
mg_run_settings_set_from_command_line (MgRunSettings *self, const char *line,
                                       MgCatalogue *catalogue, GError **error)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GError) local_error = NULL;
  g_auto (GStrv) words = NULL;
  g_autofree char *arguments = NULL;
  gboolean profile = FALSE;
  Words w = { 0 };

  if (!g_shell_parse_argv (line, NULL, &words, &local_error))
    {
      g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_SYNTAX,
                   _("cannot read the command line: %s"), local_error->message);
      return FALSE;
    }
  w.words = words;
  if (!parse_prefix (&w, s, error))
    return FALSE;
  {
    g_autofree char *base = w.words[w.i] != NULL ? g_path_get_basename (w.words[w.i]) : NULL;

    if (g_strcmp0 (base, "metrograph") != 0)
      {
        g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_SYNTAX,
                     _("the line must start with “metrograph --profile”"));
        return FALSE;
      }
    w.i++;
  }
  while (w.words[w.i] != NULL && w.words[w.i][0] == '-')
    {
      if (strcmp (w.words[w.i], "--") == 0)
        {
          w.i++;
          break;
        }
      if (!parse_option (&w, s, &profile, error))
        return FALSE;
    }
  if (!profile)
    {
      g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_SYNTAX,
                   _("the line has no --profile: metrograph --profile [OPTIONS] PROGRAM [ARGS…]"));
      return FALSE;
    }
  if (w.words[w.i] == NULL)
    {
      g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_NO_PROGRAM,
                   _("the line names no program to profile: metrograph --profile [OPTIONS] "
                     "PROGRAM [ARGS…]"));
      return FALSE;
    }
  mg_run_settings_set_program (s, w.words[w.i]);
  arguments = join_quoted (w.words + w.i + 1);
  mg_run_settings_set_arguments (s, arguments);

  if (catalogue != NULL && !mg_run_settings_apply_toggles (s, catalogue, &local_error))
    {
      g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_METRICS,
                   "%s", local_error->message);
      return FALSE;
    }

  mg_run_settings_assign (self, s);
  return TRUE;
}
