/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Score-P metric plugins end to end: our test plugins (scorep-test-plugin.c,
 * on LD_LIBRARY_PATH) chosen by --scorep-plugins / --scorep-metrics or by
 * SCOREP_METRIC_PLUGINS, run under `metrograph --profile`, and the profile
 * read back: values, modes, scaling, gaps, every run_per × sync, version 0,
 * C++, faults, the call order and --list-metrics. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/mg-export-json.h"
#include "profile/mg-profile.h"
#include "mg-test-common.h"

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = mg_test_make_dir ("scorep");
  g_assert_nonnull (f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* Runs metrograph with @args (NULL-terminated) and @env ("NAME=VALUE"
 * entries added); returns the wait status, output in @out and @err. */
static int
run_metrograph (Fixture *f, const char *const *args, const char *const *env, char **out,
                char **err)
{
  g_autofree char *metrograph = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "app", "cli",
                                                  "metrograph", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) environment = g_get_environ ();
  g_autoptr (GError) error = NULL;
  int status = -1;

  g_ptr_array_add (argv, metrograph);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  environment = g_environ_unsetenv (environment, "LD_PRELOAD");
  environment = g_environ_unsetenv (environment, "SCOREP_METRIC_PLUGINS");
  /* OpenMPI's hwloc would connect to it from every rank (tests/cli). */
  environment = g_environ_unsetenv (environment, "DISPLAY");
  environment = g_environ_setenv (environment, "ALLINEA_CONFIG_DIR", f->dir, TRUE);
  for (const char *const *e = env; e != NULL && *e != NULL; e++)
    {
      g_auto (GStrv) kv = g_strsplit (*e, "=", 2);
      environment = g_environ_setenv (environment, kv[0], kv[1], TRUE);
    }
  g_assert_true (g_spawn_sync (f->dir, (char **) argv->pdata, environment, G_SPAWN_DEFAULT,
                               NULL, NULL, out, err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s%s", *out, *err);
  return status;
}

/* metrograph --profile -o … --interval=20 @options… sleep @seconds, loaded. */
static MgProfile *
profile_for (Fixture *f, const char *const *options, const char *const *env,
             const char *seconds)
{
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  MgProfile *p;

  g_ptr_array_add (args, "--profile");
  g_ptr_array_add (args, "-o");
  g_ptr_array_add (args, output);
  g_ptr_array_add (args, "--interval=20");
  for (const char *const *o = options; *o != NULL; o++)
    g_ptr_array_add (args, (char *) *o);
  g_ptr_array_add (args, "sleep");
  g_ptr_array_add (args, (char *) seconds);
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_check_wait_status (
    run_metrograph (f, (const char *const *) args->pdata, env, &out, &err), NULL));
  p = mg_profile_load (output, &error);
  g_assert_no_error (error);
  return p;
}

/* The same for 0.5 s. */
static MgProfile *
profile (Fixture *f, const char *const *options, const char *const *env)
{
  return profile_for (f, options, env, "0.5");
}

/* Process 0's values of @id: the median of those present and how many
 * windows had none. */
static double
median (MgProfile *p, const char *id, guint *gaps)
{
  int m = mg_profile_find_metric (p, id);
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (double));

  if (m < 0)
    g_error ("metric %s is not in the profile", id);
  const MgProcessSeries *s = mg_profile_get_process_series (p, 0, (guint) m);
  *gaps = 0;
  for (guint i = 0; i < s->n; i++)
    if (isnan (s->means[i]))
      (*gaps)++;
    else
      g_array_append_val (values, s->means[i]);
  if (values->len == 0)
    return NAN;
  for (guint i = 1; i < values->len; i++) /* insertion sort: few values */
    for (guint j = i; j > 0 && g_array_index (values, double, j - 1) > g_array_index (values, double, j); j--)
      {
        double t = g_array_index (values, double, j);
        g_array_index (values, double, j) = g_array_index (values, double, j - 1);
        g_array_index (values, double, j - 1) = t;
      }
  return g_array_index (values, double, values->len / 2);
}

static double
value_of (MgProfile *p, const char *id)
{
  guint gaps;
  return median (p, id, &gaps);
}

static const char *
plugin_error (MgProfile *p, const char *source_id)
{
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (p); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (p, i);
      if (strcmp (e->source_id, source_id) == 0)
        return e->message;
    }
  return NULL;
}

static const char *
plugin_library (MgProfile *p, const char *source_id)
{
  for (guint i = 0; i < mg_profile_get_n_plugin_errors (p); i++)
    {
      const MgPluginError *e = mg_profile_get_plugin_error (p, i);
      if (strcmp (e->source_id, source_id) == 0)
        return e->library;
    }
  return NULL;
}

/* SYNC, PER_PROCESS through --scorep-plugins / --scorep-metrics: every
 * mode and value type, scaling, a wildcard, a refused metric, gaps. */
static void
test_sync_values (Fixture *f, gconstpointer data)
{
  const char *options[] = {
    "--scorep-plugins=mgt_process_sync",
    "--scorep-metrics=mgt_process_sync:counter,level,negative,scaled,relative",
    "--scorep-metrics=mgt_process_sync:wild*,refused,sometimes", NULL,
  };
  g_autoptr (MgProfile) p = profile (f, options, NULL);
  guint gaps;

  /* ACCUMULATED_START, ms since BEGIN: a rate of 1000 ms/s. */
  g_assert_cmpfloat_with_epsilon (value_of (p, "scorep:mgt_process_sync:counter"), 1000, 30);
  g_assert_cmpstr (mg_profile_get_metric (p, mg_profile_find_metric (p, "scorep:mgt_process_sync:counter"))->units, ==, "ms/s");
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:level"), ==, 2.5);       /* DOUBLE */
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:negative"), ==, -7);     /* INT64 */
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:scaled"), ==, 3 * 1024); /* 2^10 */
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:relative"), ==, 5);
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:wild_a"), ==, 1);
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:wild_b"), ==, 2);
  /* get_optional_value answers every other read: a gap each time. */
  g_assert_cmpfloat (median (p, "scorep:mgt_process_sync:sometimes", &gaps), ==, 9);
  g_assert_cmpuint (gaps, >=, 5);
  /* add_counter refused it: an error, no values. */
  g_assert_true (isnan (value_of (p, "scorep:mgt_process_sync:refused")));
  gboolean refused = FALSE;
  for (guint i = 0; i < mg_profile_get_n_metric_errors (p); i++)
    {
      const MgMetricError *e = mg_profile_get_metric_error (p, i);
      refused |= strcmp (e->metric_id, "scorep:mgt_process_sync:refused") == 0
                 && strstr (e->message, "add_counter (\"refused\") returned -1") != NULL;
    }
  g_assert_true (refused);

  /* The plugin is a group named after it. */
  gboolean grouped = FALSE;
  for (guint i = 0; i < mg_profile_get_n_groups (p); i++)
    {
      const MgMetricGroup *g = mg_profile_get_group (p, i);
      grouped |= strcmp (g->id, "scorep:mgt_process_sync") == 0
                 && strcmp (g->display_name, "mgt_process_sync") == 0 && g->metric_refs->len == 9;
    }
  g_assert_true (grouped);
}

/* Every run_per × sync, chosen the Score-P way: all in one run. */
static void
test_every_combination (Fixture *f, gconstpointer data)
{
  const char *pers[] = { "thread", "process", "host", "once" };
  const char *syncs[] = { "strict", "sync", "event", "async" };
  g_autoptr (GStrvBuilder) env = g_strv_builder_new ();
  g_autoptr (GString) names = g_string_new ("SCOREP_METRIC_PLUGINS=");
  const char *options[] = { NULL };

  for (guint i = 0; i < G_N_ELEMENTS (pers); i++)
    for (guint j = 0; j < G_N_ELEMENTS (syncs); j++)
      {
        g_autofree char *name = g_strdup_printf ("mgt_%s_%s", pers[i], syncs[j]);
        g_autofree char *upper = g_ascii_strup (name, -1);

        g_string_append_printf (names, "%s%s", i + j > 0 ? ";" : "", name);
        g_autofree char *tokens = g_strdup_printf ("SCOREP_METRIC_%s=level;counter", upper);

        g_strv_builder_add (env, tokens);
      }
  g_strv_builder_add (env, names->str);
  g_strv_builder_add (env, "SCOREP_METRIC_PLUGINS_SEP=;");
  g_auto (GStrv) environment = g_strv_builder_end (env);
  g_autoptr (MgProfile) p = profile (f, options, (const char *const *) environment);

  for (guint i = 0; i < G_N_ELEMENTS (pers); i++)
    for (guint j = 0; j < G_N_ELEMENTS (syncs); j++)
      {
        g_autofree char *source = g_strdup_printf ("scorep:mgt_%s_%s", pers[i], syncs[j]);
        g_autofree char *level = g_strconcat (source, ":level", NULL);
        g_autofree char *counter = g_strconcat (source, ":counter", NULL);

        if (j == 0 && i > 0)
          {
            /* Score-P reads STRICTLY_SYNC plugins per thread only. */
            g_assert_cmpint (mg_profile_find_metric (p, level), <, 0);
            g_assert_nonnull (strstr (plugin_error (p, source), "must be PER_THREAD"));
            continue;
          }
        g_test_message ("%s", source);
        g_assert_null (plugin_error (p, source));
        g_assert_cmpfloat (value_of (p, level), ==, 2.5);
        g_assert_cmpfloat_with_epsilon (value_of (p, counter), 1000, 30);
      }
}

/* Faults become plugin errors; the run and the other plugins go on:
 * version 0 (no synchronize) and the C++ plugin work; delta_t leaves gaps. */
static void
test_faults_and_versions (Fixture *f, gconstpointer data)
{
  const char *options[] = {
    "--scorep-plugins=mgt_newer,mgt_noentry,mgt_missing,mgt_thread_strict",
    "--scorep-metrics=mgt_newer:level", "--scorep-metrics=mgt_noentry:level",
    "--scorep-metrics=mgt_missing:level", "--scorep-metrics=mgt_thread_strict:level",
    "--scorep-metrics=mgt_v0:counter,level", "--scorep-metrics=mgt_delta:level",
    "--scorep-metrics=mgt_cxx:cxx_level", NULL,
  };
  g_autoptr (MgProfile) p = profile (f, options, NULL);
  guint gaps;

  g_assert_nonnull (strstr (plugin_error (p, "scorep:mgt_newer"),
                            "interface version 2 is newer than version 1"));
  g_assert_nonnull (strstr (plugin_error (p, "scorep:mgt_noentry"),
                            "does not export its entry point: SCOREP_MetricPlugin_mgt_noentry_get_info"));
  g_assert_cmpstr (plugin_error (p, "scorep:mgt_missing"), ==,
                   "Score-P plugin mgt_missing: cannot find libmgt_missing.so (is its folder on "
                   "LD_LIBRARY_PATH?)");
  g_assert_cmpfloat (value_of (p, "scorep:mgt_thread_strict:level"), ==, 2.5);
  g_assert_cmpfloat (value_of (p, "scorep:mgt_v0:level"), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (value_of (p, "scorep:mgt_v0:counter"), 1000, 30);
  g_assert_cmpfloat (value_of (p, "scorep:mgt_cxx:cxx_level"), ==, 42);
  /* delta_t 100 ms at 20 ms: at most one read in five windows. */
  g_assert_cmpfloat (median (p, "scorep:mgt_delta:level", &gaps), ==, 2.5);
  const MgProcessSeries *s =
    mg_profile_get_process_series (p, 0, (guint) mg_profile_find_metric (p, "scorep:mgt_delta:level"));
  g_assert_cmpuint (gaps, >=, s->n / 2);
}

/* initialize fails: an error naming it; the program still runs profiled.
 * The order of the calls (MGT_SCOREP_LOG) is Score-P's. */
/* The calls made in the sampled process (the one that called
 * add_counter), from the plugin's log, each followed by ";". */
static char *
sampled_calls (const char *log)
{
  g_autofree char *calls = NULL;
  GString *sampled = g_string_new (NULL);

  g_assert_true (g_file_get_contents (log, &calls, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (calls, "\n", -1);
  const char *pid = NULL;
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], " add_counter ") != NULL)
      pid = lines[i];
  g_assert_nonnull (pid);
  g_autofree char *prefix = g_strndup (pid, strcspn (pid, " ") + 1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      g_string_append_printf (sampled, "%s;", lines[i] + strlen (prefix));
  return g_string_free (sampled, FALSE);
}

static void
test_init_failure_and_order (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  const char *options[] = { "--scorep-metrics=mgt_process_async:level", NULL };
  const char *env[] = { log_env, NULL };
  g_autoptr (MgProfile) p = profile (f, options, env);
  g_autofree char *sampled = NULL;

  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_async:level"), ==, 2.5);
  sampled = sampled_calls (log);
  g_assert_cmpstr (sampled, ==,
                   "get_info;set_clock_function;initialize clock;get_event_info level;"
                   "add_counter level;synchronize begin;synchronize end;finalize;");

  const char *fail_env[] = { "MGT_SCOREP_INIT_FAIL=1", NULL };
  const char *fail_options[] = { "--scorep-metrics=mgt_process_sync:level", NULL };
  g_autoptr (MgProfile) failed = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  const char *args[] = { "--profile", "-o", output, fail_options[0], "sleep", "0.2", NULL };
  int status = run_metrograph (f, args, fail_env, &out, &err);
  /* The probe runs initialize too: the front end reports it and the
   * plugin never runs in the program. */
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  failed = mg_profile_load (output, NULL);
  g_assert_nonnull (failed);
  /* With what the plugin printed, and the file it was looked for as. */
  g_assert_cmpstr (plugin_error (failed, "scorep:mgt_process_sync"), ==,
                   "Score-P plugin mgt_process_sync: initialize returned 3; it printed: "
                   "mgt: no counters here Failed to initialize any available source");
  g_assert_cmpstr (plugin_library (failed, "scorep:mgt_process_sync"), ==,
                   "libmgt_process_sync.so");
}

/* The values present in @n doubles at @means (gaps are NaN), in order,
 * as "1,2,3". */
static char *
present_values (const double *means, gsize n)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < n; i++)
    if (!isnan (means[i]))
      g_string_append_printf (text, "%s%g", text->len ? "," : "", means[i]);
  return g_string_free (text, FALSE);
}

/* Whether the windows' values are the readings 1, 2, …, n, each once and
 * in order: readings the plugin took closer together than a window (its
 * thread late on a loaded machine) share that window as their mean
 * (22, 23, 24 and 25 read 23.5). */
static gboolean
readings_placed_once (const double *means, gsize n_windows, guint n)
{
  double next = 1;

  for (gsize i = 0; i < n_windows; i++)
    {
      if (isnan (means[i]))
        continue;
      /* A run of L readings from next has the mean next + (L - 1) / 2. */
      double run = 2 * (means[i] - next) + 1;
      if (run < 1 || fabs (run - round (run)) > 1e-9)
        return FALSE;
      next += round (run);
    }
  return next == n + 1;
}

/* "1,2,…,n". */
static char *
one_to (guint n)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i <= n; i++)
    g_string_append_printf (text, "%s%u", i > 1 ? "," : "", i);
  return g_string_free (text, FALSE);
}

/* The means of @id in the JSON export, as present_values () gives them. */
static char *
exported_values (MgProfile *p, const char *id)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  g_assert_true (mg_export_json_to_stream (p, out, &error));
  g_assert_no_error (error);
  GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (out);
  g_autofree char *json = g_strndup (g_memory_output_stream_get_data (memory),
                                     g_memory_output_stream_get_data_size (memory));
  g_autofree char *key = g_strdup_printf ("\"%s\":{", id);
  const char *at = strstr (json, key);
  g_assert_nonnull (at);
  at = strstr (at, "\"means\":");
  g_assert_nonnull (at);
  const char *open = strchr (at, '[');
  const char *close = open ? strchr (open, ']') : NULL;
  g_assert_nonnull (close);
  g_autofree char *array = g_strndup (open + 1, (gsize) (close - open - 1));
  g_auto (GStrv) items = g_strsplit (array, ",", -1);
  GString *text = g_string_new (NULL);
  for (guint i = 0; items[i] != NULL; i++)
    if (strcmp (items[i], "null") != 0)
      g_string_append_printf (text, "%s%g", text->len ? "," : "", g_ascii_strtod (items[i], NULL));
  return g_string_free (text, FALSE);
}

/* The host takes the measurement's END time just before it calls
 * synchronize (END), and drops readings taken after it; a reading this
 * close before the plugin saw END may have fallen between the two. */
#define READING_AT_END_RACE_NS 30000000ull

/* From the plugin's "finalize calls=C readings=R at_end=E since_last_ns=D"
 * in @sampled: C, and E, the readings taken before END. *@last_may_drop:
 * whether reading E came so close to END that it may be after the host's
 * END time. */
static guint
readings_taken (const char *sampled, guint *calls, gboolean *last_may_drop)
{
  const char *at = strstr (sampled, "finalize calls=");
  guint readings = 0, at_end = 0;
  guint64 since_last_ns = 0;

  g_assert_nonnull (at);
  g_assert_cmpint (sscanf (at, "finalize calls=%u readings=%u at_end=%u since_last_ns=%" G_GUINT64_FORMAT,
                           calls, &readings, &at_end, &since_last_ns), ==, 4);
  g_assert_cmpuint (at_end, <=, readings);
  *last_may_drop = at_end > 0 && since_last_ns < READING_AT_END_RACE_NS;
  return at_end;
}

/* Each reading of @id (1, 2, … every 100 ms, @readings of them, the last
 * perhaps not when @last_may_drop) once in the process's windows, once in
 * the profile's windows and once in the JSON export, the windows between
 * them gaps; none taken after END. */
static void
assert_readings_once (MgProfile *p, const char *id, guint readings, gboolean last_may_drop)
{
  int m = mg_profile_find_metric (p, id);
  g_autofree char *want = one_to (readings);
  g_autofree char *want_less = last_may_drop ? one_to (readings - 1) : NULL;

  g_assert_cmpint (m, >=, 0);
  g_assert_true (mg_profile_get_metric (p, (guint) m)->sparse);
  const MgProcessSeries *ps = mg_profile_get_process_series (p, 0, (guint) m);
  g_autofree char *in_process = present_values (ps->means, ps->n);
  if (last_may_drop && strcmp (in_process, want_less) == 0)
    {
      g_test_message ("reading %u was taken as END came and is not in the profile", readings);
      g_free (g_steal_pointer (&want));
      want = g_steal_pointer (&want_less);
      readings--;
    }
  g_assert_cmpstr (in_process, ==, want);
  const MgSeries *s = mg_profile_get_series (p, (guint) m);
  guint n = mg_profile_get_n_windows (p);
  /* 20 ms windows: several for each reading, the rest gaps. */
  g_assert_cmpuint (n, >, 3 * readings);
  g_autofree char *in_windows = present_values (s->means, n);
  g_assert_cmpstr (in_windows, ==, want);
  g_autofree char *in_json = exported_values (p, id);
  g_assert_cmpstr (in_json, ==, want);
}

/* ASYNC: Score-P collects the values once, at the very end of the
 * measurement (after synchronize (END), before finalize), one
 * get_all_values per metric. A plugin that stops its own thread in that
 * call still gives every reading, each at its own time. */
static void
test_async_read_at_end (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  const char *options[] = { "--scorep-metrics=mgt_async_stop:reading", NULL };
  const char *env[] = { log_env, NULL };
  g_autoptr (MgProfile) p = profile_for (f, options, env, "1.1");
  g_autofree char *sampled = sampled_calls (log);
  guint calls;
  gboolean last_may_drop;
  guint readings = readings_taken (sampled, &calls, &last_may_drop);

  g_assert_cmpuint (calls, ==, 1);
  g_assert_true (g_str_has_prefix (sampled, "initialize;add_counter reading;synchronize begin;"
                                            "synchronize end;get_all_values;finalize calls=1"));
  /* About 10 in 1.1 s, less the start. */
  g_assert_cmpuint (readings, >=, 6);
  assert_readings_once (p, "scorep:mgt_async_stop:reading", readings, last_may_drop);
}

/* ASYNC_EVENT: read during the run, at every sample, and once more after
 * END; the readings are again each in one window. */
static void
test_async_event_during_run (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  const char *options[] = { "--scorep-metrics=mgt_event_count:reading", NULL };
  const char *env[] = { log_env, NULL };
  g_autoptr (MgProfile) p = profile_for (f, options, env, "1.1");
  g_autofree char *sampled = sampled_calls (log);
  guint calls;
  gboolean last_may_drop;
  guint readings = readings_taken (sampled, &calls, &last_may_drop);

  /* A call per 20 ms sample and one after END. */
  g_assert_cmpuint (calls, >=, 20);
  g_assert_nonnull (strstr (sampled, "synchronize begin;get_all_values;get_all_values;"));
  g_assert_nonnull (strstr (sampled, "synchronize end;get_all_values;finalize"));
  g_assert_cmpuint (readings, >=, 6);
  assert_readings_once (p, "scorep:mgt_event_count:reading", readings, last_may_drop);
}

/* An MPI program's measurement ends at MPI_Finalize, where each rank hands
 * its record on (docs/mpi.md): an ASYNC plugin is read there, once in each
 * rank, and both ranks' readings are in the profile, each once. */
static void
test_async_read_at_finalize (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "plugins",
                                                "mpi-workload", NULL);
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  g_autofree char *output = g_build_filename (f->dir, "mpi.mgprof", NULL);
  const char *env[] = { log_env, NULL };
  const char *args[] = { "--profile", "-o", output, "--interval=20", "-n", "2",
                         "--scorep-metrics=mgt_async_stop:reading", workload, NULL };
  g_autofree char *out = NULL, *err = NULL, *calls = NULL;
  g_autoptr (GHashTable) readings = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (MgProfile) p = NULL;
  g_autoptr (GError) error = NULL;
  int m;

  if (!g_file_test (workload, G_FILE_TEST_EXISTS) || mpirun == NULL)
    {
      g_test_skip ("no OpenMPI here (development files at configure time, mpirun)");
      return;
    }
  g_assert_true (g_spawn_check_wait_status (run_metrograph (f, args, env, &out, &err), NULL));
  p = mg_profile_load (output, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (p), ==, 2);

  /* Each rank (a process that added the counter: the front end's probe
   * only lists it): one get_all_values, after END, before finalize. */
  g_assert_true (g_file_get_contents (log, &calls, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (calls, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *at = strstr (lines[i], " finalize calls=");
      g_autofree char *added = g_strdup_printf ("\n%.*s add_counter ",
                                                (int) strcspn (lines[i], " "), lines[i]);

      if (at != NULL && strstr (calls, added) != NULL)
        {
          guint n_calls = 0;
          gboolean last_may_drop;
          guint n_readings = readings_taken (at + 1, &n_calls, &last_may_drop);

          g_assert_cmpuint (n_calls, ==, 1);
          /* About 20 in the workload's 2 s. */
          g_assert_cmpuint (n_readings, >=, 6);
          g_hash_table_add (readings, GUINT_TO_POINTER (n_readings));
          if (last_may_drop)
            g_hash_table_add (readings, GUINT_TO_POINTER (n_readings - 1));
        }
    }
  g_assert_cmpuint (g_hash_table_size (readings), >=, 1);
  m = mg_profile_find_metric (p, "scorep:mgt_async_stop:reading");
  g_assert_cmpint (m, >=, 0);
  for (guint proc = 0; proc < 2; proc++)
    {
      const MgProcessSeries *ps = mg_profile_get_process_series (p, proc, (guint) m);
      g_autofree char *present = present_values (ps->means, ps->n);
      gboolean found = FALSE;
      GHashTableIter iter;
      gpointer key;

      g_test_message ("rank process %u: %s", proc, present);
      g_hash_table_iter_init (&iter, readings);
      while (!found && g_hash_table_iter_next (&iter, &key, NULL))
        found = readings_placed_once (ps->means, ps->n, GPOINTER_TO_UINT (key));
      g_assert_true (found);
    }
}

/* In an MPI process (a rank in the launcher's variables) the measurement
 * begins with BEGIN_MPP, as in Score-P's multi-process measurements; the
 * plugin starts counting there. */
static void
test_mpi_begin_mpp (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  const char *options[] = { "--scorep-metrics=mgt_process_sync:counter", NULL };
  const char *env[] = { log_env, "OMPI_COMM_WORLD_RANK=0", NULL };
  g_autoptr (MgProfile) p = profile (f, options, env);
  g_autofree char *sampled = sampled_calls (log);

  g_assert_nonnull (strstr (sampled, "add_counter counter;synchronize begin_mpp;"));
  g_assert_null (strstr (sampled, "synchronize begin;"));
  g_assert_true (g_str_has_suffix (sampled, "synchronize end;finalize;"));
  g_assert_cmpfloat (fabs (value_of (p, "scorep:mgt_process_sync:counter") - 1000), <, 100);
}

/* A C++ plugin whose statics are made while it starts and by its first
 * read (scorep-test-plugin-cxx.cpp): finalize runs while both are alive,
 * then their destructors, whether the program returns from main or calls
 * exit from another thread. */
static void
test_cxx_statics_at_exit (Fixture *f, gconstpointer data)
{
  const char *programs[][4] = {
    { "sleep", "0.3", NULL },
    /* exit with a status, from a shell that runs a child first */
    { "sh", "-c", "sleep 0.3; exit 3", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
      g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
      g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
      const char *env[] = { log_env, NULL };
      g_autoptr (GPtrArray) args = g_ptr_array_new ();
      g_autofree char *out = NULL, *err = NULL, *calls = NULL;
      g_autoptr (MgProfile) p = NULL;
      g_autoptr (GError) error = NULL;

      g_ptr_array_add (args, "--profile");
      g_ptr_array_add (args, "-o");
      g_ptr_array_add (args, output);
      g_ptr_array_add (args, "--interval=20");
      g_ptr_array_add (args, "--scorep-metrics=mgt_cxx:cxx_level");
      for (guint a = 0; programs[i][a] != NULL; a++)
        g_ptr_array_add (args, (char *) programs[i][a]);
      g_ptr_array_add (args, NULL);
      run_metrograph (f, (const char *const *) args->pdata, env, &out, &err);
      p = mg_profile_load (output, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (value_of (p, "scorep:mgt_cxx:cxx_level"), ==, 42);
      g_assert_null (plugin_error (p, "scorep:mgt_cxx"));
      calls = sampled_calls (log);
      g_test_message ("%s: %s", programs[i][0], calls);
      g_assert_nonnull (strstr (calls, "finalize alive;"));
      /* The destructors come after finalize, both of them. */
      g_assert_nonnull (strstr (strstr (calls, "finalize alive;"), "destroyed counters;"));
      g_assert_nonnull (strstr (strstr (calls, "finalize alive;"), "destroyed reads;"));
      /* Past the 256 the table holds, too (pages of them). */
      g_assert_nonnull (strstr (strstr (calls, "finalize alive;"), "destroyed extra;"));
      {
        /* In every process that hosted it (sh and its sleep, and the probe). */
        g_autofree char *all = NULL;
        guint started = 0, finalized = 0;

        g_assert_true (g_file_get_contents (log, &all, NULL, NULL));
        g_assert_null (strstr (all, "finalize destroyed"));
        for (const char *c = all; (c = strstr (c, " add_counter ")) != NULL; c++)
          started++;
        for (const char *c = all; (c = strstr (c, " finalize alive")) != NULL; c++)
          finalized++;
        g_assert_cmpuint (finalized, ==, started + 1);
      }
      /* The record is still closed with the program's status. */
      {
        gboolean status_seen = FALSE;

        for (guint k = 0; k < mg_profile_get_n_processes (p); k++)
          status_seen |= mg_profile_get_process (p, k)->status == (i == 0 ? 0 : 3);
        g_assert_true (status_seen);
      }
      g_unlink (log);
      g_unlink (output);
    }
}

/* A plugin that frees its descriptions and units in finalize and cuts its
 * tokens up in place (as scorep_plugin_fileparser): no double free in the
 * probe or the program, and the tokens from SCOREP_METRIC_<NAME> arrive as
 * written, blanks included (fileparser's "s= " names a blank separator). */
static void
test_plugin_owned_strings (Fixture *f, gconstpointer data)
{
  g_autofree char *log = g_build_filename (f->dir, "calls.log", NULL);
  g_autofree char *log_env = g_strconcat ("MGT_SCOREP_LOG=", log, NULL);
  const char *options[] = { "--scorep-plugins=mgt_owner", NULL };
  const char *env[] = { log_env, "SCOREP_METRIC_MGT_OWNER=level;s= ,counter;x", NULL };
  g_autoptr (MgProfile) p = profile (f, options, env);
  g_autofree char *calls = sampled_calls (log);
  g_autofree char *all = NULL;
  g_auto (GStrv) finalized = NULL;

  g_assert_null (plugin_error (p, "scorep:mgt_owner"));
  g_assert_cmpfloat (value_of (p, "scorep:mgt_owner:level"), ==, 2.5);
  g_assert_cmpfloat_with_epsilon (value_of (p, "scorep:mgt_owner:counter"), 1000, 100);
  g_assert_nonnull (strstr (calls, "get_event_info level;s= ;get_event_info counter;x;"));
  g_assert_true (g_str_has_suffix (calls, "finalize;"));
  /* The probe listed them too, and ended normally. */
  g_assert_true (g_file_get_contents (log, &all, NULL, NULL));
  finalized = g_strsplit (all, " finalize", -1);
  g_assert_cmpuint (g_strv_length (finalized), ==, 3);
}

/* A plugin without tokens is refused with what to do; --list-metrics
 * lists the selected plugins' metrics. */
static void
test_selection_and_listing (Fixture *f, gconstpointer data)
{
  const char *no_tokens[] = { "--profile", "--scorep-plugins=mgt_process_sync", "true", NULL };
  const char *list[] = { "--list-metrics", "--scorep-metrics=mgt_process_sync:wild*", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_false (g_spawn_check_wait_status (run_metrograph (f, no_tokens, NULL, &out, &err),
                                             NULL));
  g_assert_nonnull (strstr (err, "--scorep-metrics=mgt_process_sync:TOKEN"));
  g_assert_nonnull (strstr (err, "SCOREP_METRIC_MGT_PROCESS_SYNC"));
  /* A plugin that cannot be listed is named once, before what is wrong. */
  g_autofree char *output = g_build_filename (f->dir, "missing.mgprof", NULL);
  const char *missing[] = { "--profile", "-o", output, "--scorep-metrics=mgt_missing:level", "true",
                            NULL };
  g_autofree char *out3 = NULL, *err3 = NULL;
  g_assert_true (g_spawn_check_wait_status (run_metrograph (f, missing, NULL, &out3, &err3), NULL));
  g_assert_true (g_str_has_prefix (err3, "metrograph: Score-P plugin mgt_missing: error: cannot "
                                         "find libmgt_missing.so (is its folder on "
                                         "LD_LIBRARY_PATH?)\n"));
  g_assert_true (g_spawn_check_wait_status (run_metrograph (f, list, NULL, &out2, &err2), NULL));
  g_assert_nonnull (strstr (out2, "scorep:mgt_process_sync:wild_a"));
  g_assert_nonnull (strstr (out2, "scorep:mgt_process_sync:wild_b"));
}

/* A plugin chosen by its library's name (as users write it) is taken as
 * the plugin's name, with a note; it records as usual. */
static void
test_library_name_accepted (Fixture *f, gconstpointer data)
{
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  const char *args[] = { "--profile", "-o", output, "--interval=20",
                         "--scorep-metrics=libmgt_process_sync.so:level", "sleep", "0.3", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_spawn_check_wait_status (run_metrograph (f, args, NULL, &out, &err), NULL));
  g_assert_nonnull (strstr (err, "warning: Score-P plugin mgt_process_sync chosen for "
                                 "libmgt_process_sync.so: a plugin is named without 'lib' and "
                                 "'.so'"));
  g_autoptr (MgProfile) p = mg_profile_load (output, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (value_of (p, "scorep:mgt_process_sync:level"), ==, 2.5);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/scorep/sync-values", Fixture, NULL, fixture_set_up, test_sync_values,
              fixture_tear_down);
  g_test_add ("/scorep/library-name-accepted", Fixture, NULL, fixture_set_up,
              test_library_name_accepted, fixture_tear_down);
  g_test_add ("/scorep/every-combination", Fixture, NULL, fixture_set_up,
              test_every_combination, fixture_tear_down);
  g_test_add ("/scorep/faults-and-versions", Fixture, NULL, fixture_set_up,
              test_faults_and_versions, fixture_tear_down);
  g_test_add ("/scorep/init-failure-and-order", Fixture, NULL, fixture_set_up,
              test_init_failure_and_order, fixture_tear_down);
  g_test_add ("/scorep/async-read-at-end", Fixture, NULL, fixture_set_up,
              test_async_read_at_end, fixture_tear_down);
  g_test_add ("/scorep/async-event-during-run", Fixture, NULL, fixture_set_up,
              test_async_event_during_run, fixture_tear_down);
  g_test_add ("/scorep/async-read-at-finalize", Fixture, NULL, fixture_set_up,
              test_async_read_at_finalize, fixture_tear_down);
  g_test_add ("/scorep/mpi-begin-mpp", Fixture, NULL, fixture_set_up, test_mpi_begin_mpp,
              fixture_tear_down);
  g_test_add ("/scorep/cxx-statics-at-exit", Fixture, NULL, fixture_set_up,
              test_cxx_statics_at_exit, fixture_tear_down);
  g_test_add ("/scorep/plugin-owned-strings", Fixture, NULL, fixture_set_up,
              test_plugin_owned_strings, fixture_tear_down);
  g_test_add ("/scorep/selection-and-listing", Fixture, NULL, fixture_set_up,
              test_selection_and_listing, fixture_tear_down);
  return g_test_run ();
}
