#include "mg-config.h"

#include "mg-run-command-line.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mg-output-name.h"
#include "mg-rank-list.h"
#include "mg-run-metric-toggles.h"

G_DEFINE_QUARK (mg-run-command-line-error-quark, mg_run_command_line_error)

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

/* "--name=value" as one word, the value quoted with the rest. */
static void
append_option (GString *line, const char *name, const char *value)
{
  g_autofree char *word = g_strdup_printf ("%s=%s", name, value);

  append_word (line, word);
}

static void
append_seconds (GString *line, const char *name, double seconds)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  append_option (line, name, g_ascii_formatd (buffer, sizeof buffer, "%g", seconds));
}

static void
append_uint (GString *line, const char *name, guint value)
{
  g_autofree char *text = g_strdup_printf ("%u", value);

  append_option (line, name, text);
}

static void
append_ids (GString *line, const char *name, const char *const *ids)
{
  g_autofree char *joined = NULL;

  if (ids == NULL || ids[0] == NULL)
    return;
  joined = g_strjoinv (",", (char **) ids);
  append_option (line, name, joined);
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

char *
mg_run_settings_to_command_line (MgRunSettings *self, MgCatalogue *catalogue)
{
  g_autoptr (GString) line = g_string_new (NULL);
  const char *folder = mg_run_settings_get_working_folder (self);
  const char *const *paths = mg_run_settings_get_metrics_path (self);
  g_autofree char *output = output_word (self);
  g_auto (GStrv) enable_ids = NULL, disable_ids = NULL;

  if (folder != NULL)
    {
      append_word (line, "cd");
      append_word (line, folder);
      g_string_append (line, " &&");
    }
  append_environment (line, self);
  append_word (line, "metrograph");
  append_word (line, "--profile");
  if (output != NULL)
    {
      append_word (line, "-o");
      append_word (line, output);
    }
  if (mg_run_settings_get_n_processes (self) > 0)
    append_uint (line, "--np", mg_run_settings_get_n_processes (self));
  if (mg_run_settings_get_select_ranks (self) != NULL)
    append_option (line, "--select-ranks", mg_run_settings_get_select_ranks (self));
  /* What the sampler would take anyway is not written. */
  if (mg_run_settings_get_interval_ms (self) > 0
      && mg_run_settings_get_interval_ms (self) != mg_run_settings_get_default_interval_ms (self))
    append_uint (line, "--interval", mg_run_settings_get_interval_ms (self));
  if (mg_run_settings_get_max_samples (self) > 0
      && mg_run_settings_get_max_samples (self) != mg_run_settings_get_default_max_samples (self))
    append_uint (line, "--samples", mg_run_settings_get_max_samples (self));
  if (mg_run_settings_get_start_after (self) > 0)
    append_seconds (line, "--start-after", mg_run_settings_get_start_after (self));
  if (mg_run_settings_get_stop_after (self) > 0)
    append_seconds (line, "--stop-after", mg_run_settings_get_stop_after (self));
  for (guint i = 0; paths[i] != NULL; i++)
    append_option (line, "--metrics-path", paths[i]);

  /* Normalised through the catalogue: relative to the definitions' defaults. */
  if (catalogue != NULL && mg_run_settings_apply_toggles (self, catalogue, NULL))
    {
      g_autoptr (MgRunSettings) scratch = mg_run_settings_copy (self);

      for (guint i = 0; i < mg_catalogue_get_n_metrics (catalogue); i++)
        {
          const MgCatalogueMetric *m = mg_catalogue_get_metric (catalogue, i);

          if (mg_run_metric_is_switchable (m))
            mg_run_settings_set_metric_enabled (scratch, catalogue, m->def->id, m->enabled);
        }
      enable_ids = g_strdupv ((char **) mg_run_settings_get_enable_metrics (scratch));
      disable_ids = g_strdupv ((char **) mg_run_settings_get_disable_metrics (scratch));
    }
  else
    {
      enable_ids = g_strdupv ((char **) mg_run_settings_get_enable_metrics (self));
      disable_ids = g_strdupv ((char **) mg_run_settings_get_disable_metrics (self));
    }
  append_ids (line, "--enable-metrics", (const char *const *) enable_ids);
  append_ids (line, "--disable-metrics", (const char *const *) disable_ids);

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

/* Matches "--long=value", "--long value", "-s value" and "-svalue"; *value
 * is then the option's value. */
static gboolean
match_option (Words *w, const char *long_name, const char *short_name, const char **value,
              GError **error, gboolean *failed)
{
  const char *word = w->words[w->i];
  size_t n = strlen (long_name);

  if (strncmp (word, long_name, n) == 0 && word[n] == '=')
    {
      *value = word + n + 1;
      w->i++;
      return TRUE;
    }
  if (strcmp (word, long_name) == 0 || (short_name != NULL && strcmp (word, short_name) == 0))
    {
      if (w->words[w->i + 1] == NULL)
        {
          *failed = !option_error (error, _("%s needs a value"), word);
          return TRUE;
        }
      *value = w->words[w->i + 1];
      w->i += 2;
      return TRUE;
    }
  if (short_name != NULL && g_str_has_prefix (word, short_name) && word[2] != '\0')
    {
      *value = word + 2;
      w->i++;
      return TRUE;
    }
  return FALSE;
}

static gboolean
parse_uint (const char *option, const char *text, guint min, const char *what, guint *out,
            GError **error)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (text, 10, min, G_MAXINT, &value, NULL))
    return option_error (error, _("%s=%s: give %s of at least %u"), option, text, what, min);
  *out = (guint) value;
  return TRUE;
}

static gboolean
parse_seconds (const char *option, const char *text, double *out, GError **error)
{
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !isfinite (value) || value < 0)
    return option_error (error, _("%s=%s: give a number of seconds of at least 0"), option, text);
  *out = value;
  return TRUE;
}

static void
add_ids (GPtrArray *ids, const char *value)
{
  const char *values[] = { value, NULL };
  g_auto (GStrv) split = mg_catalogue_split_ids (values);

  for (guint i = 0; split[i] != NULL; i++)
    g_ptr_array_add (ids, g_strdup (split[i]));
}

/* One option at w->i; FALSE on error. */
static gboolean
parse_option (Words *w, MgRunSettings *s, GPtrArray *enable, GPtrArray *disable,
              GPtrArray *paths, gboolean *profile, GError **error)
{
  const char *word = w->words[w->i];
  const char *value = NULL;
  gboolean failed = FALSE;
  guint n;
  double seconds;

  if (strcmp (word, "--profile") == 0)
    {
      *profile = TRUE;
      w->i++;
      return TRUE;
    }
#define MATCH(l, s) (match_option (w, l, s, &value, error, &failed) && !failed)
  if (MATCH ("--output", "-o"))
    mg_run_settings_set_output (s, value);
  else if (MATCH ("--np", "-n"))
    {
      if (!parse_uint ("--np", value, 1, _("a number of processes"), &n, error))
        return FALSE;
      mg_run_settings_set_n_processes (s, n);
    }
  else if (MATCH ("--select-ranks", NULL))
    {
      g_autoptr (GError) local = NULL;
      g_autofree char *ranks = mg_rank_list_normalise (value, &local);

      if (ranks == NULL)
        return option_error (error, "--select-ranks=%s: %s", value, local->message);
      mg_run_settings_set_select_ranks (s, ranks);
    }
  else if (MATCH ("--interval", NULL))
    {
      if (!parse_uint ("--interval", value, 1, _("a number of milliseconds"), &n, error))
        return FALSE;
      mg_run_settings_set_interval_ms (s, n);
    }
  else if (MATCH ("--samples", NULL))
    {
      if (!parse_uint ("--samples", value, 16, _("a number of samples"), &n, error))
        return FALSE;
      mg_run_settings_set_max_samples (s, n);
    }
  else if (MATCH ("--start-after", NULL))
    {
      if (!parse_seconds ("--start-after", value, &seconds, error))
        return FALSE;
      mg_run_settings_set_start_after (s, seconds);
    }
  else if (MATCH ("--stop-after", NULL))
    {
      if (!parse_seconds ("--stop-after", value, &seconds, error))
        return FALSE;
      mg_run_settings_set_stop_after (s, seconds);
    }
  else if (MATCH ("--enable-metrics", NULL))
    add_ids (enable, value);
  else if (MATCH ("--disable-metrics", NULL))
    add_ids (disable, value);
  else if (MATCH ("--metrics-path", NULL))
    g_ptr_array_add (paths, g_strdup (value));
  else if (!failed)
    return option_error (error, _("unknown option “%s” (the run dialog knows the options of "
                                  "metrograph --profile)"), word);
#undef MATCH
  return !failed;
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

static void
set_strv (MgRunSettings *s, GPtrArray *array,
          void (*setter) (MgRunSettings *, const char *const *))
{
  g_ptr_array_add (array, NULL);
  setter (s, (const char *const *) array->pdata);
}

gboolean
mg_run_settings_set_from_command_line (MgRunSettings *self, const char *line,
                                       MgCatalogue *catalogue, GError **error)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GPtrArray) enable = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) disable = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
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
      if (!parse_option (&w, s, enable, disable, paths, &profile, error))
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
  set_strv (s, enable, mg_run_settings_set_enable_metrics);
  set_strv (s, disable, mg_run_settings_set_disable_metrics);
  set_strv (s, paths, mg_run_settings_set_metrics_path);

  if (catalogue != NULL && !mg_run_settings_apply_toggles (s, catalogue, &local_error))
    {
      g_set_error (error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_METRICS,
                   "%s", local_error->message);
      return FALSE;
    }

  mg_run_settings_assign (self, s);
  return TRUE;
}
