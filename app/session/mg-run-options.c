/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-run-options.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "format/mg-plan-keywords.h"
#include "defs/mg-catalogue.h"
#include "mg-rank-list.h"

G_DEFINE_QUARK (mg-run-option-error-quark, mg_run_option_error)

static const MgRunOption options[] = {
  { "--output", 'o', "output", MG_RUN_OPTION_PATH, 0, 0, FALSE,
    N_("FILE"), N_("Write the profile to FILE"), NULL, TRUE },
  { "--np", 'n', "n-processes", MG_RUN_OPTION_COUNT, 0, 1, FALSE,
    N_("N"), N_("Start N MPI processes with mpirun"), N_("a number of processes") },
  { "--select-ranks", 0, "select-ranks", MG_RUN_OPTION_RANKS, 0, 0, FALSE,
    N_("RANKS"), N_("Sample only these MPI ranks, e.g. 0,4-7"), NULL },
  { "--interval", 0, "interval-ms", MG_RUN_OPTION_COUNT, MG_PLAN_DEFAULT_INTERVAL_MS, MG_PLAN_MIN_INTERVAL_MS, FALSE,
    N_("MS"), N_("Sample every MS milliseconds"), N_("a number of milliseconds") },
  { "--samples", 0, "max-samples", MG_RUN_OPTION_COUNT, MG_PLAN_DEFAULT_SAMPLES, MG_PLAN_MIN_SAMPLES, FALSE,
    N_("N"), N_("Keep at most N samples per process"), N_("a number of samples") },
  { "--start-after", 0, "start-after", MG_RUN_OPTION_SECONDS, 0, 0, FALSE,
    N_("SECONDS"), N_("Start sampling SECONDS after the start"), NULL },
  { "--stop-after", 0, "stop-after", MG_RUN_OPTION_SECONDS, 0, 1, FALSE,
    N_("SECONDS"), N_("End the program after SECONDS, still writing the profile"), NULL },
  { "--metrics-path", 0, "metrics-path", MG_RUN_OPTION_FOLDERS, 0, 0, TRUE,
    N_("DIR"), N_("Look for metric definitions in DIR first (repeatable)"), NULL },
  { "--enable-metrics", 0, "enable-metrics", MG_RUN_OPTION_IDS, 0, 0, TRUE,
    N_("ID,…"), N_("Enable these metric or group ids"), NULL },
  { "--disable-metrics", 0, "disable-metrics", MG_RUN_OPTION_IDS, 0, 0, TRUE,
    N_("ID,…"), N_("Disable these metric or group ids"), NULL },
  { "--scorep-plugins", 0, "scorep-plugins", MG_RUN_OPTION_IDS, 0, 0, TRUE,
    N_("NAME,…"), N_("Host these Score-P metric plugins (libNAME.so on the library path)"), NULL },
  { "--scorep-metrics", 0, "scorep-metrics", MG_RUN_OPTION_ENTRIES, 0, 0, TRUE,
    N_("NAME:TOKEN,…"), N_("Record these metrics of Score-P plugin NAME (repeatable)"), NULL },
  { "--report", 0, "report", MG_RUN_OPTION_REPORT, 0, 0, FALSE,
    N_("FILE"), N_("Also write the performance report: FILE.txt, FILE.html, - (text on "
                   "standard output), or both beside the profile"), NULL },
  { "--process-precision", 0, "process-precision", MG_RUN_OPTION_PRECISION, 0, 0, FALSE,
    N_("PRECISION"), N_("Store each process's own series exact, or at single precision "
                        "(float32, off by at most 2^-24 of each value: a smaller profile); "
                        "the aggregates across processes stay exact"),
    NULL, TRUE },
  { "--no-stacks", 0, "no-stacks", MG_RUN_OPTION_SWITCH, 0, 0, FALSE,
    NULL, N_("Do not sample call stacks (they are sampled by default)"), NULL },
};

const MgRunOption *
mg_run_options_get (guint *n_options)
{
  *n_options = G_N_ELEMENTS (options);
  return options;
}

const MgRunOption *
mg_run_options_lookup (const char *word)
{
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (strcmp (word, options[i].name) == 0
        || (options[i].short_name != 0 && word[0] == '-' && word[1] == options[i].short_name
            && word[2] == '\0'))
      return &options[i];
  return NULL;
}

gboolean
mg_run_parse_count_value (const char *text, guint minimum, guint *value, char **message)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  guint64 parsed;

  if (!g_ascii_string_to_unsigned (stripped, 10, minimum, G_MAXINT, &parsed, NULL))
    {
      *message = g_strdup_printf (_("Give a whole number of at least %u"), minimum);
      return FALSE;
    }
  *value = (guint) parsed;
  return TRUE;
}

gboolean
mg_run_parse_seconds_value (const char *text, gboolean zero_ok, double *value, char **message)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  char *end = NULL;
  double parsed = g_ascii_strtod (stripped, &end);

  if (end == stripped || *end != '\0' || !isfinite (parsed) || parsed < 0
      || (!zero_ok && parsed == 0))
    {
      *message = g_strdup (_("Give a number of seconds, such as 2.5"));
      return FALSE;
    }
  *value = parsed;
  return TRUE;
}

static gboolean
value_error (GError **error, const MgRunOption *option, const char *text, const char *why)
{
  g_set_error (error, MG_RUN_OPTION_ERROR, MG_RUN_OPTION_ERROR_VALUE, "%s=%s: %s", option->name,
               text, why);
  return FALSE;
}

/* ids and folders add to what the settings hold. */
static void
append_to_strv (MgRunSettings *settings, const char *property, const char *const *values)
{
  g_auto (GStrv) old = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) joined = NULL;

  g_object_get (settings, property, &old, NULL);
  if (old != NULL)
    g_strv_builder_addv (builder, (const char **) old);
  g_strv_builder_addv (builder, (const char **) values);
  joined = g_strv_builder_end (builder);
  g_object_set (settings, property, joined, NULL);
}

gboolean
mg_run_option_parse (const MgRunOption *option, const char *text, MgRunSettings *settings,
                     GError **error)
{
  g_autofree char *message = NULL;

  switch (option->kind)
    {
    case MG_RUN_OPTION_PATH:
      if (*text == '\0')
        return value_error (error, option, text, _("give a file or folder name"));
      g_object_set (settings, option->property, text, NULL);
      return TRUE;
    case MG_RUN_OPTION_COUNT:
      {
        guint n;

        if (!mg_run_parse_count_value (text, option->minimum, &n, &message))
          {
            g_autofree char *why = g_strdup_printf (_("give %s of at least %u"), _(option->what),
                                                    option->minimum);
            return value_error (error, option, text, why);
          }
        g_object_set (settings, option->property, n, NULL);
        return TRUE;
      }
    case MG_RUN_OPTION_SECONDS:
      {
        double seconds;

        if (!mg_run_parse_seconds_value (text, option->minimum == 0, &seconds, &message))
          return value_error (error, option, text,
                              option->minimum == 0 ? _("give a number of seconds of at least 0")
                                                   : _("give a number of seconds greater than 0"));
        g_object_set (settings, option->property, seconds, NULL);
        return TRUE;
      }
    case MG_RUN_OPTION_RANKS:
      {
        g_autoptr (GError) local = NULL;
        g_autofree char *ranks = mg_rank_list_normalise (text, &local);

        if (ranks == NULL)
          return value_error (error, option, text, local->message);
        g_object_set (settings, option->property, ranks, NULL);
        return TRUE;
      }
    case MG_RUN_OPTION_IDS:
      {
        const char *lists[] = { text, NULL };
        g_auto (GStrv) ids = mg_catalogue_split_ids (lists);

        append_to_strv (settings, option->property, (const char *const *) ids);
        return TRUE;
      }
    case MG_RUN_OPTION_FOLDERS:
      {
        const char *folders[] = { text, NULL };

        append_to_strv (settings, option->property, folders);
        return TRUE;
      }
    case MG_RUN_OPTION_ENTRIES:
      {
        const char *entries[] = { text, NULL };
        const char *colon = strchr (text, ':');

        if (colon == NULL || colon == text || colon[1] == '\0')
          return value_error (error, option, text, _("give NAME:TOKEN,TOKEN"));
        append_to_strv (settings, option->property, entries);
        return TRUE;
      }
    case MG_RUN_OPTION_REPORT:
      /* NULL or "": the switch alone. */
      if (text != NULL && *text != '\0' && strcmp (text, "-") != 0
          && !g_str_has_suffix (text, ".txt") && !g_str_has_suffix (text, ".html"))
        return value_error (error, option, text, _("the file name must end in .txt or .html, "
                                                   "or be - for the text on standard output"));
      g_object_set (settings, option->property, text != NULL ? text : "", NULL);
      return TRUE;
    case MG_RUN_OPTION_SWITCH:
      if (text != NULL)
        return value_error (error, option, text, _("it takes no value"));
      g_object_set (settings, option->property, TRUE, NULL);
      return TRUE;
    case MG_RUN_OPTION_PRECISION:
      {
        MgProcessPrecision precision;
        g_autofree char *keywords = NULL;

        if (mg_process_precision_from_keyword (text, &precision))
          {
            g_object_set (settings, option->property, (guint) precision, NULL);
            return TRUE;
          }
        keywords = mg_process_precision_list_keywords ();
        message = g_strdup_printf (_("give %s"), keywords);
        return value_error (error, option, text, message);
      }
    default:
      g_return_val_if_reached (FALSE);
    }
}

static void
add_taken (GStrvBuilder *builder, char *word)
{
  g_strv_builder_add (builder, word);
  g_free (word);
}

static char *
option_word (const MgRunOption *option, const char *value)
{
  return g_strdup_printf ("%s=%s", option->name, value);
}

GStrv
mg_run_option_print (const MgRunOption *option, MgRunSettings *settings)
{
  g_autoptr (GStrvBuilder) words = g_strv_builder_new ();
  g_auto (GValue) value = G_VALUE_INIT;

  g_object_get_property (G_OBJECT (settings), option->property, &value);
  switch (option->kind)
    {
    case MG_RUN_OPTION_PATH:
      /* A file name reads best apart: "-o out.mgprof". */
      if (g_value_get_string (&value) != NULL && option->short_name != 0)
        {
          add_taken (words, g_strdup_printf ("-%c", option->short_name));
          g_strv_builder_add (words, g_value_get_string (&value));
        }
      else if (g_value_get_string (&value) != NULL)
        add_taken (words, option_word (option, g_value_get_string (&value)));
      break;
    case MG_RUN_OPTION_RANKS:
      if (g_value_get_string (&value) != NULL)
        add_taken (words, option_word (option, g_value_get_string (&value)));
      break;
    case MG_RUN_OPTION_COUNT:
      /* 0 is "not given" (the sampler's default). */
      if (g_value_get_uint (&value) > 0)
        {
          char text[16];

          g_snprintf (text, sizeof text, "%u", g_value_get_uint (&value));
          add_taken (words, option_word (option, text));
        }
      break;
    case MG_RUN_OPTION_SECONDS:
      if (g_value_get_double (&value) > 0)
        {
          char text[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (text, sizeof text, "%g", g_value_get_double (&value));
          add_taken (words, option_word (option, text));
        }
      break;
    case MG_RUN_OPTION_IDS:
      {
        const char *const *ids = g_value_get_boxed (&value);

        if (ids != NULL && ids[0] != NULL)
          {
            g_autofree char *joined = g_strjoinv (",", (char **) ids);

            add_taken (words, option_word (option, joined));
          }
        break;
      }
    case MG_RUN_OPTION_FOLDERS:
    case MG_RUN_OPTION_ENTRIES:
      {
        const char *const *folders = g_value_get_boxed (&value);

        for (guint i = 0; folders != NULL && folders[i] != NULL; i++)
          add_taken (words, option_word (option, folders[i]));
        break;
      }
    case MG_RUN_OPTION_REPORT:
      if (g_strcmp0 (g_value_get_string (&value), "") == 0)
        g_strv_builder_add (words, option->name);
      else if (g_value_get_string (&value) != NULL)
        add_taken (words, option_word (option, g_value_get_string (&value)));
      break;
    case MG_RUN_OPTION_SWITCH:
      if (g_value_get_boolean (&value))
        g_strv_builder_add (words, option->name);
      break;
    case MG_RUN_OPTION_PRECISION:
      if (g_value_get_uint (&value) != MG_PROCESS_PRECISION_DEFAULT)
        add_taken (words, option_word (option,
                                       mg_process_precision_to_keyword (g_value_get_uint (&value))));
      break;
    default:
      g_return_val_if_reached (NULL);
    }
  return g_strv_builder_end (words);
}

static gboolean
on_option (const char *name, const char *value, gpointer settings, GError **error)
{
  const MgRunOption *option = mg_run_options_lookup (name);

  g_return_val_if_fail (option != NULL, FALSE);
  return mg_run_option_parse (option, value, settings, error);
}

GOptionEntry *
mg_run_options_make_entries (void)
{
  GOptionEntry *entries = g_new0 (GOptionEntry, G_N_ELEMENTS (options) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      const MgRunOption *option = &options[i];

      entries[i].long_name = option->name + 2;
      entries[i].short_name = option->short_name;
      entries[i].flags = option->kind == MG_RUN_OPTION_PATH || option->kind == MG_RUN_OPTION_FOLDERS
                           ? G_OPTION_FLAG_FILENAME : 0;
      if (option->kind == MG_RUN_OPTION_REPORT)
        entries[i].flags = G_OPTION_FLAG_FILENAME | G_OPTION_FLAG_OPTIONAL_ARG;
      if (option->kind == MG_RUN_OPTION_SWITCH)
        entries[i].flags = G_OPTION_FLAG_NO_ARG;
      entries[i].arg = G_OPTION_ARG_CALLBACK;
      entries[i].arg_data = (gpointer) on_option;
      /* Translated here: the help carries the default. */
      if (option->kind == MG_RUN_OPTION_PRECISION)
        {
          g_autofree char *keywords = mg_process_precision_list_keywords ();
          g_autofree char *by_default = g_strdup_printf (
            _("(%s; default %s)"), keywords,
            mg_process_precision_to_keyword (MG_PROCESS_PRECISION_DEFAULT));

          entries[i].description = g_strconcat (_(option->help), " ", by_default, NULL);
        }
      else if (option->default_value != 0)
        {
          g_autofree char *by_default = g_strdup_printf (_("(default %u)"), option->default_value);

          entries[i].description = g_strconcat (_(option->help), " ", by_default, NULL);
        }
      else
        entries[i].description = g_strdup (_(option->help));
      entries[i].arg_description = option->arg != NULL ? g_strdup (_(option->arg)) : NULL;
    }
  return entries;
}

void
mg_run_options_free_entries (GOptionEntry *entries)
{
  for (guint i = 0; entries != NULL && entries[i].long_name != NULL; i++)
    {
      g_free ((char *) entries[i].description);
      g_free ((char *) entries[i].arg_description);
    }
  g_free (entries);
}

static const GOptionEntry *
find_entry (const GOptionEntry *const *lists, const char *long_name, char short_name)
{
  for (guint i = 0; lists[i] != NULL; i++)
    for (const GOptionEntry *e = lists[i]; e->long_name != NULL; e++)
      if ((long_name != NULL && strcmp (e->long_name, long_name) == 0)
          || (long_name == NULL && short_name != 0 && e->short_name == short_name))
        return e;
  return NULL;
}

static gboolean
takes_value (const GOptionEntry *entry)
{
  return entry != NULL && entry->arg != G_OPTION_ARG_NONE;
}

GStrv
mg_run_options_split_attached (const char *const *argv, const GOptionEntry *const *entry_lists)
{
  g_autoptr (GStrvBuilder) out = g_strv_builder_new ();
  guint i = 0;

  if (argv[0] != NULL)
    g_strv_builder_add (out, argv[i++]);
  while (argv[i] != NULL && argv[i][0] == '-' && argv[i][1] != '\0'
         && strcmp (argv[i], "--") != 0)
    {
      const char *word = argv[i++];
      const GOptionEntry *entry;

      if (word[1] == '-')
        {
          entry = strchr (word, '=') == NULL ? find_entry (entry_lists, word + 2, 0) : NULL;
          if (entry != NULL && (entry->flags & G_OPTION_FLAG_OPTIONAL_ARG))
            {
              /* "--report PROGRAM": the next word is not the value. */
              add_taken (out, g_strconcat (word, "=", NULL));
              continue;
            }
          g_strv_builder_add (out, word);
        }
      else
        {
          char short_form[] = { '-', word[1], '\0' };

          entry = find_entry (entry_lists, NULL, word[1]);
          if (takes_value (entry) && word[2] != '\0')
            {
              /* "-n4": the value is attached. */
              g_strv_builder_add (out, short_form);
              g_strv_builder_add (out, word + 2);
              continue;
            }
          g_strv_builder_add (out, word);
        }
      /* The value is the next word, whatever it looks like. */
      if (takes_value (entry) && argv[i] != NULL)
        g_strv_builder_add (out, argv[i++]);
    }
  for (; argv[i] != NULL; i++)
    g_strv_builder_add (out, argv[i]);
  return g_strv_builder_end (out);
}
