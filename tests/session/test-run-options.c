/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one --profile grammar (mg-run-options.h): every option in each
 * spelling through both parsers made from the table (the command line's
 * GOption entries and the run dialog's line), the printer's round trip, and
 * the rules decided once for both front ends. */
#include "mg-config.h"

#include <string.h>

#include "format/mg-plan-keywords.h"
#include "session/mg-run-check.h"
#include "session/mg-run-settings-line.h"
#include "session/mg-run-options.h"

/* Parses @args (after "metrograph --profile") with the table's GOption
 * entries, as the command line does. */
static MgRunSettings *
parse_goption (const char *const *args, GError **error)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  GOptionEntry *entries = mg_run_options_make_entries ();
  GOptionContext *context = g_option_context_new (NULL);
  GOptionGroup *group = g_option_group_new ("test", "", "", s, NULL);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) argv = NULL;
  gboolean ok;

  const GOptionEntry *lists[] = { entries, NULL };
  g_auto (GStrv) joined = NULL;

  g_strv_builder_add (builder, "metrograph");
  g_strv_builder_addv (builder, (const char **) args);
  joined = g_strv_builder_end (builder);
  argv = mg_run_options_split_attached ((const char *const *) joined, lists);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, group);
  g_option_context_set_strict_posix (context, TRUE);
  ok = g_option_context_parse_strv (context, &argv, error);
  g_option_context_free (context);
  mg_run_options_free_entries (entries);
  return ok ? g_steal_pointer (&s) : NULL;
}

/* The same words as a dialog line. */
static MgRunSettings *
parse_line (const char *const *args, GError **error)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GString) line = g_string_new ("metrograph --profile");

  for (guint i = 0; args[i] != NULL; i++)
    {
      g_autofree char *word = mg_run_quote_word (args[i]);

      g_string_append_printf (line, " %s", word);
    }
  g_string_append (line, " ./app");
  if (!mg_run_settings_set_from_command_line (s, line->str, NULL, error))
    return NULL;
  return g_steal_pointer (&s);
}

static char *
property_text (MgRunSettings *s, const char *property)
{
  g_auto (GValue) value = G_VALUE_INIT;

  g_object_get_property (G_OBJECT (s), property, &value);
  if (G_VALUE_HOLDS (&value, G_TYPE_STRV))
    return g_value_get_boxed (&value) != NULL ? g_strjoinv ("|", g_value_get_boxed (&value))
                                              : g_strdup ("");
  return g_strdup_value_contents (&value);
}

/* Every option of the table in every spelling gives the same value
 * through both parsers. */
static void
test_every_option (void)
{
  static const struct {
    const char *args[4];
    const char *property;
    const char *expected;      /* as g_strdup_value_contents shows it, strvs joined by | */
  } cases[] = {
    { { "--output=a.mgprof" }, "output", "\"a.mgprof\"" },
    { { "--output", "a.mgprof" }, "output", "\"a.mgprof\"" },
    { { "-o", "a.mgprof" }, "output", "\"a.mgprof\"" },
    { { "-oa.mgprof" }, "output", "\"a.mgprof\"" },
    { { "--np=4" }, "n-processes", "4" },
    { { "--np", "4" }, "n-processes", "4" },
    { { "-n", "4" }, "n-processes", "4" },
    { { "-n4" }, "n-processes", "4" },
    { { "--select-ranks=3,0-1" }, "select-ranks", "\"0-1,3\"" },
    { { "--select-ranks", "3,0-1" }, "select-ranks", "\"0-1,3\"" },
    { { "--interval=5" }, "interval-ms", "5" },
    { { "--interval", "5" }, "interval-ms", "5" },
    { { "--samples=64" }, "max-samples", "64" },
    { { "--samples", "64" }, "max-samples", "64" },
    { { "--start-after=0.5" }, "start-after", "0.500000" },
    { { "--start-after", "0" }, "start-after", "0.000000" },
    { { "--stop-after=2.5" }, "stop-after", "2.500000" },
    { { "--stop-after", "2.5" }, "stop-after", "2.500000" },
    { { "--metrics-path=/a", "--metrics-path", "/b" }, "metrics-path", "/a|/b" },
    { { "--enable-metrics=x, y", "--enable-metrics", "z" }, "enable-metrics", "x|y|z" },
    { { "--disable-metrics=x", "--disable-metrics", "y,z" }, "disable-metrics", "x|y|z" },
    { { "--scorep-plugins=a, b", "--scorep-plugins", "c" }, "scorep-plugins", "a|b|c" },
    { { "--scorep-metrics=a:x,y", "--scorep-metrics", "b:z" }, "scorep-metrics", "a:x,y|b:z" },
    /* The switch alone is "": both reports beside the profile. */
    { { "--report" }, "report", "\"\"" },
    { { "--report=run.html" }, "report", "\"run.html\"" },
    { { "--report=-" }, "report", "\"-\"" },
    { { "--process-precision=single" }, "process-precision", "1" },
    { { "--process-precision", "exact" }, "process-precision", "0" },
    { { "--no-stacks" }, "no-stacks", "TRUE" },
  };
  guint n_options;
  const MgRunOption *options = mg_run_options_get (&n_options);
  g_autoptr (GHashTable) covered = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (MgRunSettings) by_goption = parse_goption (cases[i].args, &error);
      g_autoptr (MgRunSettings) by_line = NULL;
      g_autofree char *from_goption = NULL, *from_line = NULL;

      g_assert_no_error (error);
      by_line = parse_line (cases[i].args, &error);
      g_assert_no_error (error);
      from_goption = property_text (by_goption, cases[i].property);
      from_line = property_text (by_line, cases[i].property);
      g_assert_cmpstr (from_goption, ==, cases[i].expected);
      g_assert_cmpstr (from_line, ==, cases[i].expected);
      g_hash_table_add (covered, (gpointer) cases[i].property);
    }
  for (guint i = 0; i < n_options; i++)
    if (!g_hash_table_contains (covered, options[i].property))
      g_error ("%s is not tested", options[i].name);
}

/* Bad values are refused by both parsers with the same message, naming the
 * option and the value. */
static void
test_bad_values (void)
{
  static const struct { const char *args[3]; const char *message; } cases[] = {
    { { "--np=0" }, "--np=0: give a number of processes of at least 1" },
    { { "-n", "x" }, "--np=x: give a number of processes of at least 1" },
    { { "--interval=0" }, "--interval=0: give a number of milliseconds of at least 1" },
    { { "--samples=15" }, "--samples=15: give a number of samples of at least 16" },
    { { "--start-after=-1" }, "--start-after=-1: give a number of seconds of at least 0" },
    { { "--stop-after=0" }, "--stop-after=0: give a number of seconds greater than 0" },
    { { "--stop-after=nan" }, "--stop-after=nan: give a number of seconds greater than 0" },
    { { "--select-ranks=1,x" }, "--select-ranks=1,x: “x” is not a rank" },
    { { "--output=" }, "--output=: give a file or folder name" },
    { { "--report=run.pdf" }, "--report=run.pdf: the file name must end in .txt or .html" },
    { { "--process-precision=Single" }, "--process-precision=Single: give exact or single" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) goption_error = NULL, line_error = NULL;
      g_autoptr (MgRunSettings) by_goption = parse_goption (cases[i].args, &goption_error);
      g_autoptr (MgRunSettings) by_line = parse_line (cases[i].args, &line_error);

      g_assert_null (by_goption);
      g_assert_null (by_line);
      g_assert_error (goption_error, MG_RUN_OPTION_ERROR, MG_RUN_OPTION_ERROR_VALUE);
      g_assert_error (line_error, MG_RUN_COMMAND_LINE_ERROR, MG_RUN_COMMAND_LINE_ERROR_OPTION);
      if (!g_str_has_prefix (goption_error->message, cases[i].message))
        g_error ("“%s” instead of “%s”", goption_error->message, cases[i].message);
      g_assert_cmpstr (line_error->message, ==, goption_error->message);
    }
}

static void
set_everything (MgRunSettings *s)
{
  const char *env_set[] = { "A=1", "B=two words", NULL };
  const char *env_unset[] = { "LANG", NULL };
  const char *enable[] = { "fx_off", "io", NULL };
  const char *disable[] = { "fx_on1", NULL };
  const char *scorep_plugins[] = { "mgt_a", "mgt_b", NULL };
  const char *scorep_metrics[] = { "mgt_a:x,y*", "mgt_b:z", NULL };
  const char *paths[] = { "/defs one", "/defs-two", NULL };

  mg_run_settings_set_program (s, "./app");
  /* As the printer quotes them: the arguments are kept as text. */
  mg_run_settings_set_arguments (s, "--size 10 'two words' 'it'\\''s'");
  mg_run_settings_set_working_folder (s, "/tmp");
  mg_run_settings_set_env_set (s, env_set);
  mg_run_settings_set_env_unset (s, env_unset);
  mg_run_settings_set_output (s, "out dir/run.mgprof");
  mg_run_settings_set_n_processes (s, 4);
  mg_run_settings_set_select_ranks (s, "0-1,3");
  mg_run_settings_set_interval_ms (s, 7);
  mg_run_settings_set_max_samples (s, 128);
  mg_run_settings_set_start_after (s, 0.25);
  mg_run_settings_set_stop_after (s, 3.5);
  mg_run_settings_set_no_stacks (s, TRUE);
  mg_run_settings_set_enable_metrics (s, enable);
  mg_run_settings_set_disable_metrics (s, disable);
  mg_run_settings_set_metrics_path (s, paths);
  mg_run_settings_set_scorep_plugins (s, scorep_plugins);
  mg_run_settings_set_scorep_metrics (s, scorep_metrics);
  mg_run_settings_set_report (s, "report dir/run.html");
  mg_run_settings_set_process_precision (s, MG_PROCESS_PRECISION_SINGLE);
}

/* parse (print (s)) == s, with every option given and with none. */
static void
test_round_trip (void)
{
  g_autoptr (MgRunSettings) full = mg_run_settings_new ();
  g_autoptr (MgRunSettings) bare = mg_run_settings_new ();
  MgRunSettings *cases[] = { full, bare };

  set_everything (full);
  mg_run_settings_set_program (bare, "true");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (MgRunSettings) back = mg_run_settings_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *line = mg_run_settings_to_command_line (cases[i], NULL);
      g_autofree char *again = NULL;

      g_assert_true (mg_run_settings_set_from_command_line (back, line, NULL, &error));
      g_assert_no_error (error);
      if (!mg_run_settings_equal (back, cases[i]))
        g_error ("“%s” reads back differently", line);
      again = mg_run_settings_to_command_line (back, NULL);
      g_assert_cmpstr (again, ==, line);
    }
}

/* Each option prints as the table says, and what it prints reads back
 * through the command line's parser too. */
static void
test_print_through_goption (void)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) args = NULL;
  g_autoptr (MgRunSettings) back = NULL;
  g_autoptr (GError) error = NULL;
  guint n_options;
  const MgRunOption *options = mg_run_options_get (&n_options);

  set_everything (s);
  for (guint i = 0; i < n_options; i++)
    {
      g_auto (GStrv) words = mg_run_option_print (&options[i], s);

      g_assert_nonnull (words[0]);
      g_strv_builder_addv (builder, (const char **) words);
    }
  args = g_strv_builder_end (builder);
  g_assert_cmpstr (args[0], ==, "-o");
  g_assert_cmpstr (args[1], ==, "out dir/run.mgprof");
  g_assert_cmpstr (args[2], ==, "--np=4");
  back = parse_goption ((const char *const *) args, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_options; i++)
    {
      g_autofree char *want = property_text (s, options[i].property);
      g_autofree char *got = property_text (back, options[i].property);

      g_assert_cmpstr (got, ==, want);
    }
}

/* --report's value is optional and only ever attached: the word after
 * "--report" is the program, in both parsers. */
static void
test_report_switch (void)
{
  const char *args[] = { "--report", "./app", "--report=x.txt", NULL };
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (MgRunSettings) by_goption = NULL;
  g_autofree char *line = NULL;
  GOptionEntry *entries = mg_run_options_make_entries ();
  const GOptionEntry *lists[] = { entries, NULL };
  const char *argv[] = { "metrograph", "--report", "./app", "--report=x.txt", NULL };
  g_auto (GStrv) split = mg_run_options_split_attached (argv, lists);

  /* The dialog's line: the program's own --report stays its argument. */
  g_assert_true (mg_run_settings_set_from_command_line (s, "metrograph --profile --report ./app "
                                                        "--report=x.txt", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (mg_run_settings_get_report (s), ==, "");
  g_assert_cmpstr (mg_run_settings_get_program (s), ==, "./app");
  g_assert_cmpstr (mg_run_settings_get_arguments (s), ==, "--report=x.txt");
  line = mg_run_settings_to_command_line (s, NULL);
  g_assert_cmpstr (line, ==, "metrograph --profile --report ./app --report=x.txt");
  /* The command line: marked as given without a value, the rest untouched. */
  g_assert_cmpstr (split[1], ==, "--report=");
  g_assert_cmpstr (split[2], ==, "./app");
  g_assert_cmpstr (split[3], ==, "--report=x.txt");
  mg_run_options_free_entries (entries);
  by_goption = parse_goption (args, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mg_run_settings_get_report (by_goption), ==, "");
}

/* The rules between options, decided once: the command line's words and
 * the dialog's fields come from the same test. */
static void
test_decided_rules (void)
{
  g_autoptr (MgRunSettings) s = mg_run_settings_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) warnings = NULL;
  g_autofree char *field = NULL;

  /* --np with an MPI launcher as the program. */
  mg_run_settings_set_program (s, "mpirun");
  mg_run_settings_set_n_processes (s, 2);
  g_assert_false (mg_run_settings_check_options (s, &error));
  g_assert_error (error, MG_RUN_CHECK_ERROR, MG_RUN_CHECK_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "--np starts mpirun itself: give either --np=N PROGRAM or mpirun … PROGRAM");
  g_clear_error (&error);
  field = mg_run_settings_check_field (s, "n-processes");
  g_assert_nonnull (strstr (field, "mpirun starts the MPI processes itself"));
  g_clear_pointer (&field, g_free);
  mg_run_settings_set_program (s, "/usr/bin/srun");
  g_assert_false (mg_run_settings_check_options (s, NULL));
  mg_run_settings_set_program (s, "./app");
  g_assert_true (mg_run_settings_check_options (s, &error));
  g_assert_no_error (error);
  g_assert_null (mg_run_settings_check_field (s, "n-processes"));

  /* --select-ranks outside --np's ranks. */
  mg_run_settings_set_select_ranks (s, "2-5");
  g_assert_false (mg_run_settings_check_options (s, &error));
  g_assert_cmpstr (error->message, ==, "--select-ranks=2-5 selects none of the ranks of --np=2 "
                                       "(0 to 1): nothing would be sampled");
  g_clear_error (&error);
  field = mg_run_settings_check_field (s, "select-ranks");
  g_assert_nonnull (strstr (field, "None of the ranks of the 2 MPI processes (0 to 1)"));
  g_clear_pointer (&field, g_free);

  /* --select-ranks without MPI: runs, with a warning. */
  mg_run_settings_set_n_processes (s, 0);
  g_assert_true (mg_run_settings_check_options (s, NULL));
  g_assert_null (mg_run_settings_check_field (s, "select-ranks"));
  warnings = mg_run_settings_dup_warnings (s);
  g_assert_cmpuint (g_strv_length (warnings), ==, 1);
  g_assert_true (g_str_has_prefix (warnings[0], "--select-ranks=2-5 has no effect without MPI"));
  g_clear_pointer (&warnings, g_strfreev);
  mg_run_settings_set_program (s, "mpirun");
  warnings = mg_run_settings_dup_warnings (s);
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);
  g_clear_pointer (&warnings, g_strfreev);
  mg_run_settings_set_program (s, "./app");
  mg_run_settings_set_n_processes (s, 8);
  warnings = mg_run_settings_dup_warnings (s);
  g_assert_cmpuint (g_strv_length (warnings), ==, 0);

  /* --stop-after not after --start-after. */
  mg_run_settings_set_start_after (s, 2);
  mg_run_settings_set_stop_after (s, 2);
  g_assert_false (mg_run_settings_check_options (s, &error));
  g_assert_cmpstr (error->message, ==, "--stop-after must be later than --start-after");
  field = mg_run_settings_check_field (s, "stop-after");
  g_assert_cmpstr (field, ==, "Stop after must be later than start after");
}

/* The help lines come from the table, with the defaults it holds. */
static void
test_help_from_table (void)
{
  GOptionEntry *entries = mg_run_options_make_entries ();
  guint n_options;
  const MgRunOption *options = mg_run_options_get (&n_options);
  g_autofree char *interval = g_strdup_printf ("(default %u)", MG_PLAN_DEFAULT_INTERVAL_MS);
  g_autofree char *samples = g_strdup_printf ("(default %u)", MG_PLAN_DEFAULT_SAMPLES);

  for (guint i = 0; i < n_options; i++)
    {
      g_assert_cmpstr (entries[i].long_name, ==, options[i].name + 2);
      g_assert_cmpint (entries[i].short_name, ==, options[i].short_name);
      g_assert_true (g_str_has_prefix (entries[i].description, options[i].help));
      if (strcmp (options[i].name, "--interval") == 0)
        g_assert_true (g_str_has_suffix (entries[i].description, interval));
      if (strcmp (options[i].name, "--samples") == 0)
        g_assert_true (g_str_has_suffix (entries[i].description, samples));
    }
  g_assert_null (entries[n_options].long_name);
  mg_run_options_free_entries (entries);
  g_assert_true (mg_run_options_lookup ("-n") == mg_run_options_lookup ("--np"));
  g_assert_null (mg_run_options_lookup ("--no-such"));
  g_assert_null (mg_run_options_lookup ("-"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/session/options/every-option", test_every_option);
  g_test_add_func ("/session/options/bad-values", test_bad_values);
  g_test_add_func ("/session/options/round-trip", test_round_trip);
  g_test_add_func ("/session/options/print-through-goption", test_print_through_goption);
  g_test_add_func ("/session/options/decided-rules", test_decided_rules);
  g_test_add_func ("/session/options/report-switch", test_report_switch);
  g_test_add_func ("/session/options/help-from-table", test_help_from_table);
  return g_test_run ();
}
