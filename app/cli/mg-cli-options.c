/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "mg-config.h"

#include "mg-cli-options.h"

#include "session/mg-rank-list.h"
#include "session/mg-run-check.h"
#include "session/mg-run-settings-line.h"
#include "session/mg-run-options.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

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

/* Options given without the mode they belong to are mistakes, not no-ops. */
/* PROGRAM and its arguments, as the run dialog holds them. */
static void
set_program (MgCliOptions *o)
{
  g_autoptr (GString) arguments = g_string_new (NULL);

  mg_run_settings_set_program (o->settings, o->rest[0]);
  for (guint i = 1; o->rest[i] != NULL; i++)
    {
      g_autofree char *word = mg_run_quote_word (o->rest[i]);

      if (i > 1)
        g_string_append_c (arguments, ' ');
      g_string_append (arguments, word);
    }
  mg_run_settings_set_arguments (o->settings, arguments->str);
}

/* Which of the table's options were given: those for --profile only, the
 * metric options that go with --list-metrics too, and those that go with
 * --recover too. */
static void
given_options (MgRunSettings *settings, gboolean *profile_only, gboolean *toggles,
               gboolean *recover)
{
  guint n;
  const MgRunOption *options = mg_run_options_get (&n);

  *profile_only = *toggles = *recover = FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_auto (GStrv) words = mg_run_option_print (&options[i], settings);

      /* --report is also a mode of its own (checked with the modes). */
      if (options[i].kind == MG_RUN_OPTION_REPORT || words[0] == NULL)
        continue;
      if (options[i].with_list)
        *toggles = TRUE;
      else if (options[i].with_recover)
        *recover = TRUE;
      else
        *profile_only = TRUE;
    }
}

static gboolean
check_report (MgCliOptions *o, GError **error)
{
  if (o->reports_path != NULL && !o->report && o->mode != MG_CLI_MODE_LIST_REPORTS)
    return usage_error (error, _("--reports-path goes with --report or --list-reports"));
  if (o->baseline_file != NULL && !o->report)
    return usage_error (error, _("--baseline goes with --report: metrograph --report "
                                 "--baseline=OLD.mgprof NEW.mgprof"));
  if (o->mode == MG_CLI_MODE_REPORT && (o->rest[0] == NULL || o->rest[1] != NULL))
    return usage_error (error, _("--report needs exactly one profile: metrograph --report "
                                 "PROFILE.mgprof"));
  if (o->mode == MG_CLI_MODE_LIST_REPORTS && o->rest[0] != NULL)
    return usage_error (error, _("unexpected argument “%s”"), o->rest[0]);
  return TRUE;
}

/* --range=START-END in seconds from the run's start; END may be left out
 * (to the end). */
static gboolean
parse_range (MgCliOptions *o, GError **error)
{
  const char *dash = strchr (o->range, '-');
  char *end;

  if (dash == NULL || dash == o->range)
    return usage_error (error, _("--range=%s: give START-END in seconds from the run's start, "
                                 "e.g. --range=1.5-3"), o->range);
  g_autofree char *start_text = g_strndup (o->range, dash - o->range);
  o->range_start = g_ascii_strtod (start_text, &end);
  if (*end != '\0' || !isfinite (o->range_start) || o->range_start < 0)
    return usage_error (error, _("--range=%s: the start “%s” is not a number of seconds"),
                        o->range, start_text);
  o->range_end = INFINITY;
  if (dash[1] != '\0')
    {
      o->range_end = g_ascii_strtod (dash + 1, &end);
      if (*end != '\0' || !isfinite (o->range_end))
        return usage_error (error, _("--range=%s: the end “%s” is not a number of seconds"),
                            o->range, dash + 1);
      if (o->range_end <= o->range_start)
        return usage_error (error, _("--range=%s: the end (%g s) is not after the start (%g s): "
                                     "give START-END with END later than START"),
                            o->range, o->range_end, o->range_start);
    }
  return TRUE;
}

/* --processes=LIST: ranks (an MPI run) or process indices, as
 * --select-ranks takes ranks; kept in canonical form. Whether the profile
 * has them is checked once it is read (mg-cli-export.c). */
static gboolean
parse_processes (MgCliOptions *o, GError **error)
{
  g_autoptr (GError) local = NULL;
  char *list = mg_rank_list_normalise (o->processes, &local);

  if (list == NULL)
    return usage_error (error, _("--processes=%s: %s"), o->processes, local->message);
  g_free (o->processes_list);
  o->processes_list = list;
  return TRUE;
}

static gboolean
check_mode (MgCliOptions *o, gboolean profile, gboolean list, gboolean version,
            gboolean list_reports, GError **error)
{
  gboolean profile_only, toggles, recover;
  guint n_modes;

  o->report = mg_run_settings_get_report (o->settings) != NULL;
  n_modes = !!profile + !!list + (o->export_file != NULL) + !!version + !!list_reports
            + (o->report && !profile) + (o->recover_dir != NULL) + (o->merge_node_dir != NULL);

  given_options (o->settings, &profile_only, &toggles, &recover);
  /* How the end summary reads, for both modes that print it. */
  recover = recover || o->verbose;

  if (o->range != NULL && o->export_file == NULL)
    return usage_error (error, _("--range goes with --export=FILE"));
  if (o->processes != NULL && o->export_file == NULL)
    return usage_error (error, _("--processes goes with --export=FILE (to choose the processes "
                                 "of a run, use --select-ranks with --profile)"));
  if (n_modes > 1)
    return usage_error (error, _("--profile, --list-metrics, --export, --report, --list-reports, "
                                 "--recover, --merge-node and --version cannot be combined: "
                                 "choose one"));
  if (version)
    o->mode = MG_CLI_MODE_VERSION;
  else if (profile)
    o->mode = MG_CLI_MODE_PROFILE;
  else if (list)
    o->mode = MG_CLI_MODE_LIST_METRICS;
  else if (o->export_file != NULL)
    o->mode = MG_CLI_MODE_EXPORT;
  else if (o->recover_dir != NULL)
    o->mode = MG_CLI_MODE_RECOVER;
  else if (o->merge_node_dir != NULL)
    o->mode = MG_CLI_MODE_MERGE_NODE;
  else if (o->report)
    {
      const char *file = mg_run_settings_get_report (o->settings);

      o->mode = MG_CLI_MODE_REPORT;
      o->report_file = *file != '\0' ? g_strdup (file) : NULL;
    }
  else if (list_reports)
    o->mode = MG_CLI_MODE_LIST_REPORTS;
  else if (o->reports_path != NULL)
    return usage_error (error, _("--reports-path goes with --report or --list-reports"));
  else if (o->baseline_file != NULL)
    return usage_error (error, _("--baseline goes with --report: metrograph --report "
                                 "--baseline=OLD.mgprof NEW.mgprof"));
  else
    return usage_error (error, _("these options need --profile (or --list-metrics for the metric "
                                 "options)"));

  if (profile_only && o->mode != MG_CLI_MODE_PROFILE)
    return usage_error (error, _("--np, --interval, --samples, --start-after, --stop-after and "
                                 "--select-ranks go with --profile"));
  if (recover && o->mode != MG_CLI_MODE_PROFILE && o->mode != MG_CLI_MODE_RECOVER)
    return usage_error (error, _("-o, --process-precision and --verbose go with --profile or "
                                 "--recover"));
  if (toggles && o->mode != MG_CLI_MODE_PROFILE && o->mode != MG_CLI_MODE_LIST_METRICS)
    return usage_error (error, _("--enable-metrics, --disable-metrics and --metrics-path go with "
                                 "--profile or --list-metrics"));

  switch (o->mode)
    {
    case MG_CLI_MODE_PROFILE:
      if (o->rest[0] == NULL)
        return usage_error (error, _("--profile needs a program to run: metrograph --profile "
                                     "[OPTIONS] PROGRAM [ARGS…]"));
      set_program (o);
      if (!mg_run_settings_check_options (o->settings, error))
        return FALSE;
      break;
    case MG_CLI_MODE_EXPORT:
      if (o->rest[0] == NULL || o->rest[1] != NULL)
        return usage_error (error, _("--export needs exactly one profile: metrograph "
                                     "--export=FILE.json PROFILE.mgprof"));
      if (!g_str_has_suffix (o->export_file, ".json") && !g_str_has_suffix (o->export_file, ".csv")
          && !g_str_has_suffix (o->export_file, ".folded")
          && !g_str_has_suffix (o->export_file, ".pb.gz"))
        return usage_error (error, _("--export=%s: the file name must end in .json, .csv, "
                                     ".folded or .pb.gz"), o->export_file);
      if (o->range != NULL && !parse_range (o, error))
        return FALSE;
      if (o->processes != NULL && !parse_processes (o, error))
        return FALSE;
      break;
    case MG_CLI_MODE_LIST_METRICS:
    case MG_CLI_MODE_RECOVER:
    case MG_CLI_MODE_MERGE_NODE:
    case MG_CLI_MODE_VERSION:
      if (o->rest[0] != NULL)
        return usage_error (error, _("unexpected argument “%s”"), o->rest[0]);
      break;
    case MG_CLI_MODE_REPORT:
    case MG_CLI_MODE_LIST_REPORTS:
    case MG_CLI_MODE_NONE:
    default:
      break;
    }
  return check_report (o, error);
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
           "  metrograph --export=FILE.json|FILE.csv [--range=START-END] [--processes=LIST]\n"
           "             PROFILE.mgprof\n"
           "      export a profile (its metrics)\n"
           "  metrograph --export=FILE.folded|FILE.pb.gz [--range=START-END] [--processes=LIST]\n"
           "             PROFILE.mgprof\n"
           "      export its call stacks for flame-graph tools or pprof\n"
           "  metrograph --report[=FILE.txt|FILE.html|-] [--reports-path=PATH…] PROFILE.mgprof\n"
           "      write its performance report (both files beside the profile by default)\n"
           "  metrograph --report --baseline=OLD.mgprof NEW.mgprof\n"
           "      … with OLD's values and the change beside each value\n"
           "  metrograph --list-reports [--reports-path=PATH…]\n"
           "      list the partial report files found, in the order used\n"
           "  metrograph --recover=RUNDIR [-o FILE|DIR/] [--verbose]\n"
           "      write the profile of a run whose metrograph was killed\n"
           "  metrograph --merge-node=RUNDIR\n"
           "      reduce this node's records of a run into its node summary\n"
           "\n"
           "Everything after PROGRAM is passed to it. With --profile, the exit status is\n"
           "the program's (128 + signal number if a signal ended it); Metrograph's own\n"
           "errors exit with 2 (usage), 3 (metrics), 4 (launch), 5 (no samples) or\n"
           "6 (profile file). See docs/cli.md.");
}

/* Every text is translated where it is made (the table's help carries its
 * default). */
static const char *
keep_text (const char *text, gpointer data)
{
  return text;
}

/* The modes' entries around --profile's options, which come from the table;
 * values attached to short options in @args are split off for GOption. */
static GOptionGroup *
make_group (MgCliOptions *o, GOptionEntry *table, gboolean *profile, gboolean *list,
            gboolean *version, gboolean *list_reports, GStrv *rest, GStrv *args)
{
  const GOptionEntry modes[] = {
    { "profile", 0, 0, G_OPTION_ARG_NONE, profile,
      _("Profile PROGRAM and write a profile file"), NULL },
    G_OPTION_ENTRY_NULL
  };
  const GOptionEntry others[] = {
    /* How the end summary reads, not how the run is made: not in the table. */
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
      _("Print every plugin and metric error of the run in full"), NULL },
    { "list-metrics", 0, 0, G_OPTION_ARG_NONE, list,
      _("List the metrics, their groups and states"), NULL },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &o->export_file,
      _("Export PROFILE to FILE.json or FILE.csv, or its call stacks to FILE.folded or "
        "FILE.pb.gz (pprof)"),
      _("FILE") },
    { "range", 0, 0, G_OPTION_ARG_STRING, &o->range,
      _("With --export: only the sample windows from START to END seconds (END left out: to "
        "the end)"),
      _("START-END") },
    { "processes", 0, 0, G_OPTION_ARG_STRING, &o->processes,
      _("With --export: only these processes, e.g. 0,4-7: MPI ranks, else process indices "
        "from 0 as the viewer lists them"),
      _("LIST") },
    { "list-reports", 0, 0, G_OPTION_ARG_NONE, list_reports,
      _("List the partial report files found, in the order used, with their errors"), NULL },
    { "reports-path", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->reports_path,
      _("Read partial reports from PATH (a file or a folder) first; repeatable"), _("PATH") },
    { "baseline", 0, 0, G_OPTION_ARG_FILENAME, &o->baseline_file,
      _("With --report: show OLD.mgprof's values and the change beside each value"),
      _("OLD.mgprof") },
    { "recover", 0, 0, G_OPTION_ARG_FILENAME, &o->recover_dir,
      _("Write the profile of the run in RUNDIR, whose metrograph ended before writing it"),
      _("RUNDIR") },
    { "merge-node", 0, 0, G_OPTION_ARG_FILENAME, &o->merge_node_dir,
      _("Reduce the records of RUNDIR written on this node into one node summary there"),
      _("RUNDIR") },
    { "version", 0, 0, G_OPTION_ARG_NONE, version,
      _("Print the version"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, rest,
      NULL, _("[PROGRAM [ARGS…] | PROFILE]") },
    G_OPTION_ENTRY_NULL
  };
  /* The table's callbacks get the settings. */
  GOptionGroup *group = g_option_group_new ("metrograph", "", "", o->settings, NULL);

  const GOptionEntry *lists[] = { modes, table, others, NULL };
  GStrv split = mg_run_options_split_attached ((const char *const *) *args, lists);

  g_strfreev (*args);
  *args = split;

  g_option_group_add_entries (group, modes);
  g_option_group_add_entries (group, table);
  g_option_group_add_entries (group, others);
  g_option_group_set_translate_func (group, keep_text, NULL, NULL);
  return group;
}

/* "--export-json" for --export=FILE.json (as "--report-html" for
 * --report=FILE.html): GOption's "Unknown option --export-json" alone
 * left the user to find the option's form in --help. */
static void
suggest_file_option (GError *error, const char *const *args)
{
  static const char *const file_options[] = { "export", "report", NULL };

  if (!g_error_matches (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION))
    return;
  for (guint i = 1; args[i] != NULL; i++)
    for (guint k = 0; file_options[k] != NULL; k++)
      {
        g_autofree char *prefix = g_strdup_printf ("--%s-", file_options[k]);
        const char *extension = args[i] + strlen (prefix);

        /* The option GOption refused, not a program's argument after it. */
        if (!g_str_has_prefix (args[i], prefix) || *extension == '\0'
            || strpbrk (extension, "=/ ") != NULL || strstr (error->message, args[i]) == NULL)
          continue;
        {
          g_autofree char *message = error->message;
          /* Translators: GOption's message, then the option and an extension,
           * e.g. "--export" and "json" */
          error->message = g_strdup_printf (_("%s; did you mean --%s=FILE.%s?"), message,
                                            file_options[k], extension);
        }
        return;
      }
}

static void
free_entries (GOptionEntry **entries)
{
  mg_run_options_free_entries (*entries);
}

MgCliOptions *
mg_cli_options_parse (int argc, char **argv, GError **error)
{
  g_autoptr (MgCliOptions) o = g_new0 (MgCliOptions, 1);
  gboolean profile = FALSE, list = FALSE, version = FALSE, list_reports = FALSE;
  g_auto (GStrv) rest = NULL;
  /* Declared first, freed last: the context's help shows its strings. */
  __attribute__ ((cleanup (free_entries))) GOptionEntry *table = mg_run_options_make_entries ();
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);
  g_auto (GStrv) args = g_new0 (char *, argc + 1);

  o->settings = mg_run_settings_new ();
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  g_option_context_set_main_group (context, make_group (o, table, &profile, &list, &version,
                                                        &list_reports, &rest, &args));
  g_option_context_set_translate_func (context, keep_text, NULL, NULL);
  g_option_context_set_summary (context, _("Profile programs with MAP-compatible metric plugins."));
  g_option_context_set_description (context, description ());
  /* Stop at PROGRAM: its own options are not ours. */
  g_option_context_set_strict_posix (context, TRUE);
  if (!g_option_context_parse_strv (context, &args, error))
    {
      if (error != NULL && *error != NULL)
        suggest_file_option (*error, (const char *const *) args);
      return NULL;
    }

  o->rest = rest != NULL ? g_steal_pointer (&rest) : g_new0 (char *, 1);
  /* A "--" before PROGRAM is kept by GOption in the remaining arguments. */
  if (o->rest[0] != NULL && strcmp (o->rest[0], "--") == 0)
    {
      g_free (o->rest[0]);
      memmove (o->rest, o->rest + 1, g_strv_length (o->rest) * sizeof (char *));
    }

  if (!check_mode (o, profile, list, version, list_reports, error))
    return NULL;
  return g_steal_pointer (&o);
}

void
mg_cli_options_free (MgCliOptions *o)
{
  if (o == NULL)
    return;
  g_clear_object (&o->settings);
  g_free (o->export_file);
  g_free (o->range);
  g_free (o->processes);
  g_free (o->processes_list);
  g_free (o->report_file);
  g_free (o->baseline_file);
  g_strfreev (o->reports_path);
  g_free (o->recover_dir);
  g_free (o->merge_node_dir);
  g_strfreev (o->rest);
  g_free (o);
}
