#include "mg-config.h"

#include "mg-cli-options.h"

#include "format/mg-plan-keywords.h"
#include "mg-mpi.h"
#include "mg-rank-list.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* Integer options the user did not give. */
#define NOT_GIVEN G_MININT

gboolean
mg_cli_options_wanted (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0 || argv[i][0] != '-' || argv[i][1] == '\0')
        return FALSE;
      return TRUE;
    }
  return FALSE;
}

/* "a,b" "c" → a b c; blanks around ids are dropped. */
static GStrv
split_ids (char **lists)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; lists != NULL && lists[i] != NULL; i++)
    {
      g_auto (GStrv) parts = g_strsplit (lists[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        {
          char *id = g_strstrip (parts[j]);

          if (*id != '\0')
            g_strv_builder_add (builder, id);
        }
    }
  return g_strv_builder_end (builder);
}

static gboolean
usage_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
usage_error (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* Seconds as a C-locale number; absent: -1. */
static gboolean
parse_seconds (const char *option, const char *text, gboolean zero_ok, double *seconds,
               GError **error)
{
  char *end = NULL;
  double value;

  *seconds = -1;
  if (text == NULL)
    return TRUE;
  value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (value) || value < 0 || (!zero_ok && value == 0))
    return usage_error (error, zero_ok ? _("%s=%s: give a number of seconds of at least 0")
                                       : _("%s=%s: give a number of seconds greater than 0"),
                        option, text);
  *seconds = value;
  return TRUE;
}

/* MAP's rank list, kept in canonical form for the plan. */
static gboolean
parse_ranks (const char *text, char **ranks, GError **error)
{
  g_autoptr (GError) local = NULL;

  if (text == NULL)
    return TRUE;
  *ranks = mg_rank_list_normalise (text, &local);
  if (*ranks == NULL)
    return usage_error (error, "--select-ranks=%s: %s", text, local->message);
  return TRUE;
}

static gboolean
check_numbers (MgCliOptions *o, GError **error)
{
  if (o->n_processes != NOT_GIVEN && o->n_processes < 1)
    return usage_error (error, _("--np must be a number of processes of at least 1"));
  if (o->interval_ms != NOT_GIVEN && o->interval_ms < MG_PLAN_MIN_INTERVAL_MS)
    return usage_error (error, _("--interval must be a number of milliseconds of at least %d"),
                        MG_PLAN_MIN_INTERVAL_MS);
  if (o->samples != NOT_GIVEN && o->samples < MG_PLAN_MIN_SAMPLES)
    return usage_error (error, _("--samples must be at least %d"), MG_PLAN_MIN_SAMPLES);
  if (o->start_after_s > 0 && o->stop_after_s > 0 && o->stop_after_s <= o->start_after_s)
    return usage_error (error, _("--stop-after must be later than --start-after"));
  return TRUE;
}

/* Options given without the mode they belong to are mistakes, not no-ops. */
static gboolean
check_mode (MgCliOptions *o, gboolean profile, gboolean list, gboolean version, GError **error)
{
  gboolean profile_only = o->output != NULL || o->n_processes != NOT_GIVEN
                          || o->interval_ms != NOT_GIVEN || o->samples != NOT_GIVEN
                          || o->start_after_s >= 0 || o->stop_after_s >= 0
                          || o->select_ranks != NULL || o->verbose;
  gboolean toggles = o->enable_ids[0] != NULL || o->disable_ids[0] != NULL
                     || o->metrics_path[0] != NULL;
  guint n_modes = !!profile + !!list + (o->export_file != NULL) + !!version;

  if (n_modes > 1)
    return usage_error (error, _("--profile, --list-metrics, --export and --version cannot be "
                                 "combined: choose one"));
  if (version)
    o->mode = MG_CLI_MODE_VERSION;
  else if (profile)
    o->mode = MG_CLI_MODE_PROFILE;
  else if (list)
    o->mode = MG_CLI_MODE_LIST_METRICS;
  else if (o->export_file != NULL)
    o->mode = MG_CLI_MODE_EXPORT;
  else
    return usage_error (error, _("these options need --profile (or --list-metrics for the metric "
                                 "options)"));

  if (profile_only && o->mode != MG_CLI_MODE_PROFILE)
    return usage_error (error, _("-o, --np, --interval, --samples, --start-after, --stop-after, "
                                 "--select-ranks and --verbose go with --profile"));
  if (toggles && o->mode != MG_CLI_MODE_PROFILE && o->mode != MG_CLI_MODE_LIST_METRICS)
    return usage_error (error, _("--enable-metrics, --disable-metrics and --metrics-path go with "
                                 "--profile or --list-metrics"));

  switch (o->mode)
    {
    case MG_CLI_MODE_PROFILE:
      if (o->rest[0] == NULL)
        return usage_error (error, _("--profile needs a program to run: metrograph --profile "
                                     "[OPTIONS] PROGRAM [ARGS…]"));
      if (o->n_processes != NOT_GIVEN && mg_mpi_is_launcher (o->rest[0]))
        return usage_error (error, _("--np starts mpirun itself: give either --np=N PROGRAM or "
                                     "%s … PROGRAM"), o->rest[0]);
      /* The canonical list starts with its lowest rank. */
      if (o->select_ranks != NULL && o->n_processes != NOT_GIVEN
          && g_ascii_strtoll (o->select_ranks, NULL, 10) >= o->n_processes)
        return usage_error (error, _("--select-ranks=%s selects none of the ranks of --np=%d "
                                     "(0 to %d): nothing would be sampled"),
                            o->select_ranks, o->n_processes, o->n_processes - 1);
      break;
    case MG_CLI_MODE_EXPORT:
      if (o->rest[0] == NULL || o->rest[1] != NULL)
        return usage_error (error, _("--export needs exactly one profile: metrograph "
                                     "--export=FILE.json PROFILE.mgprof"));
      if (!g_str_has_suffix (o->export_file, ".json") && !g_str_has_suffix (o->export_file, ".csv"))
        return usage_error (error, _("--export=%s: the file name must end in .json or .csv"),
                            o->export_file);
      break;
    case MG_CLI_MODE_LIST_METRICS:
    case MG_CLI_MODE_VERSION:
      if (o->rest[0] != NULL)
        return usage_error (error, _("unexpected argument “%s”"), o->rest[0]);
      break;
    case MG_CLI_MODE_NONE:
    default:
      break;
    }
  return TRUE;
}

static const char *
description (void)
{
  return _("Modes:\n"
           "  metrograph [PROFILE.mgprof…]\n"
           "      open profiles in the viewer\n"
           "  metrograph --profile [OPTIONS] PROGRAM [ARGS…]\n"
           "      profile a program and write a .mgprof file\n"
           "  metrograph --profile -n N [OPTIONS] PROGRAM [ARGS…]\n"
           "      … as N MPI processes started with mpirun\n"
           "  metrograph --profile [OPTIONS] mpirun|srun … PROGRAM [ARGS…]\n"
           "      … under your own MPI launcher\n"
           "  metrograph --list-metrics [--metrics-path…] [--enable-metrics…] [--disable-metrics…]\n"
           "      list the metrics, their groups and states\n"
           "  metrograph --export=FILE.json|FILE.csv PROFILE.mgprof\n"
           "      export a profile\n"
           "\n"
           "Everything after PROGRAM is passed to it. With --profile, the exit status is\n"
           "the program's (128 + signal number if a signal ended it); Metrograph's own\n"
           "errors exit with 2 (usage), 3 (metrics), 4 (launch), 5 (no samples) or\n"
           "6 (profile file). See docs/cli.md.");
}

MgCliOptions *
mg_cli_options_parse (int argc, char **argv, GError **error)
{
  g_autoptr (MgCliOptions) o = g_new0 (MgCliOptions, 1);
  gboolean profile = FALSE, list = FALSE, version = FALSE;
  g_autofree char *start_after = NULL, *stop_after = NULL, *select_ranks = NULL;
  g_auto (GStrv) enable = NULL, disable = NULL, metrics_path = NULL, rest = NULL;
  g_autofree char *interval_help = g_strdup_printf (_("Sample every MS milliseconds (default %d)"),
                                                    MG_PLAN_DEFAULT_INTERVAL_MS);
  g_autofree char *samples_help = g_strdup_printf (
      _("Keep at most N samples per process (default %d)"), MG_PLAN_DEFAULT_SAMPLES);
  const GOptionEntry entries[] = {
    { "profile", 0, 0, G_OPTION_ARG_NONE, &profile,
      N_("Profile PROGRAM and write a profile file"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Write the profile to FILE"), N_("FILE") },
    { "np", 'n', 0, G_OPTION_ARG_INT, &o->n_processes,
      N_("Start N MPI processes with mpirun"), N_("N") },
    { "interval", 0, 0, G_OPTION_ARG_INT, &o->interval_ms,
      interval_help, N_("MS") },
    { "samples", 0, 0, G_OPTION_ARG_INT, &o->samples,
      samples_help, N_("N") },
    { "start-after", 0, 0, G_OPTION_ARG_STRING, &start_after,
      N_("Start sampling SECONDS after the start"), N_("SECONDS") },
    { "stop-after", 0, 0, G_OPTION_ARG_STRING, &stop_after,
      N_("End the program after SECONDS, still writing the profile"), N_("SECONDS") },
    { "select-ranks", 0, 0, G_OPTION_ARG_STRING, &select_ranks,
      N_("Sample only these MPI ranks, e.g. 0,4-7"), N_("RANKS") },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
      N_("Print every plugin and metric error of the run in full"), NULL },
    { "enable-metrics", 0, 0, G_OPTION_ARG_STRING_ARRAY, &enable,
      N_("Enable these metric or group ids"), N_("ID,…") },
    { "disable-metrics", 0, 0, G_OPTION_ARG_STRING_ARRAY, &disable,
      N_("Disable these metric or group ids"), N_("ID,…") },
    { "metrics-path", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &metrics_path,
      N_("Look for metric definitions in DIR first (repeatable)"), N_("DIR") },
    { "list-metrics", 0, 0, G_OPTION_ARG_NONE, &list,
      N_("List the metrics, their groups and states"), NULL },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &o->export_file,
      N_("Export PROFILE to FILE.json or FILE.csv"), N_("FILE") },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version,
      N_("Print the version"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest,
      NULL, N_("[PROGRAM [ARGS…] | PROFILE]") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_auto (GStrv) args = g_new0 (char *, argc + 1);

  o->n_processes = NOT_GIVEN;
  o->interval_ms = NOT_GIVEN;
  o->samples = NOT_GIVEN;
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Profile programs with MAP-compatible metric plugins."));
  g_option_context_set_description (context, description ());
  /* Stop at PROGRAM: its own options are not ours. */
  g_option_context_set_strict_posix (context, TRUE);
  if (!g_option_context_parse_strv (context, &args, error))
    return NULL;

  if (!parse_seconds ("--start-after", start_after, TRUE, &o->start_after_s, error)
      || !parse_seconds ("--stop-after", stop_after, FALSE, &o->stop_after_s, error)
      || !parse_ranks (select_ranks, &o->select_ranks, error))
    return NULL;
  o->enable_ids = split_ids (enable);
  o->disable_ids = split_ids (disable);
  o->metrics_path = metrics_path != NULL ? g_steal_pointer (&metrics_path) : g_new0 (char *, 1);
  o->rest = rest != NULL ? g_steal_pointer (&rest) : g_new0 (char *, 1);
  /* A "--" before PROGRAM is kept by GOption in the remaining arguments. */
  if (o->rest[0] != NULL && strcmp (o->rest[0], "--") == 0)
    {
      g_free (o->rest[0]);
      memmove (o->rest, o->rest + 1, g_strv_length (o->rest) * sizeof (char *));
    }

  if (!check_numbers (o, error) || !check_mode (o, profile, list, version, error))
    return NULL;
  return g_steal_pointer (&o);
}

void
mg_cli_options_free (MgCliOptions *o)
{
  if (o == NULL)
    return;
  g_free (o->output);
  g_free (o->select_ranks);
  g_strfreev (o->enable_ids);
  g_strfreev (o->disable_ids);
  g_strfreev (o->metrics_path);
  g_free (o->export_file);
  g_strfreev (o->rest);
  g_free (o);
}
