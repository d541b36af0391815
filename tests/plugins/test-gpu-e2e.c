/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU metrics end to end without a GPU: `metrograph --profile` with
 * the tests' fake NVML (METROGRAPH_NVML_LIBRARY, scripted through
 * METROGRAPH_FAKE_NVML), the profile exported to JSON with
 * `metrograph --export` and read back; the summary's line for a machine
 * without a driver; and that the program sees nothing of the GPU plugin,
 * whose NVML calls are made in a reader process beside it (the fake, as
 * the real NVML, leaves descriptors and a thread where it starts). */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>

#include "mg-test-common.h"
#include "plugins-e2e-support.h"

#define GIB 1073741824.0

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = mg_test_make_dir ("gpu-e2e");
  g_assert_nonnull (f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* Runs metrograph in f->dir with METROGRAPH_NVML_LIBRARY and
 * METROGRAPH_FAKE_NVML set to library and script (NULL: unset); returns its
 * status, stderr in *err. */
static int
run_metrograph (Fixture *f, const char *const *args, const char *library, const char *script,
                char **err)
{
  g_autofree char *lib = library ? g_strconcat ("METROGRAPH_NVML_LIBRARY=", library, NULL)
                                 : g_strdup ("METROGRAPH_NVML_LIBRARY");
  g_autofree char *fake = script ? g_strconcat ("METROGRAPH_FAKE_NVML=", script, NULL)
                                 : g_strdup ("METROGRAPH_FAKE_NVML");
  const char *env[] = { lib, fake, NULL };
  return plugins_test_run_metrograph (f->dir, args, env, NULL, err);
}

/* Profiles `sleep SECONDS` with the fake NVML running script, exports the
 * profile to JSON and parses it; stderr of the run in *err. */
static JsonObject *
profile_and_export (Fixture *f, const char *script, const char *seconds, char **err,
                    JsonParser **parser)
{
  g_autofree char *metrics = plugins_test_build_path ("plugins");
  g_autofree char *library = plugins_test_build_path ("tests/plugins/libfake-nvml.so");
  g_autofree char *script_path = g_build_filename (f->dir, "nvml.script", NULL);
  g_assert_true (g_file_set_contents (script_path, script, -1, NULL));
  const char *args[] = { "--profile", "--metrics-path", metrics, "--enable-metrics=gpu_devices",
                         "-o", "run.mgprof", "sleep", seconds, NULL };
  g_assert_cmpint (run_metrograph (f, args, library, script_path, err), ==, 0);
  const char *export_args[] = { "--export=run.json", "run.mgprof", NULL };
  g_autofree char *export_err = NULL;
  g_assert_cmpint (run_metrograph (f, export_args, NULL, NULL, &export_err), ==, 0);
  g_autofree char *json = g_build_filename (f->dir, "run.json", NULL);
  g_autoptr (GError) error = NULL;
  *parser = json_parser_new ();
  json_parser_load_from_file (*parser, json, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*parser));
}

/* The export's per-window means of a metric ("null" windows as NaN). */
static GArray *
means (JsonObject *root, const char *id)
{
  JsonObject *samples = json_object_get_object_member (root, "samples");
  JsonObject *metrics = json_object_get_object_member (samples, "metrics");
  if (!json_object_has_member (metrics, id))
    g_error ("%s is not in the export", id);
  JsonArray *a = json_object_get_array_member (json_object_get_object_member (metrics, id),
                                               "means");
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *n = json_array_get_element (a, i);
      double v = JSON_NODE_HOLDS_NULL (n) ? NAN : json_node_get_double (n);
      g_array_append_val (values, v);
    }
  return values;
}

/* Every window with a value holds expected (and at least 10 do). */
static void
assert_constant (JsonObject *root, const char *id, double expected)
{
  g_autoptr (GArray) v = means (root, id);
  guint n = 0;
  for (guint i = 0; i < v->len; i++)
    {
      double x = g_array_index (v, double, i);
      if (isnan (x))
        continue;
      if (fabs (x - expected) > 1e-9 * MAX (1, fabs (expected)))
        g_error ("%s: window %u reads %.17g, expected %.17g", id, i, x, expected);
      n++;
    }
  g_test_message ("%s: %u windows of %g", id, n, expected);
  g_assert_cmpuint (n, >=, 10);
}

static void
assert_no_value (JsonObject *root, const char *id)
{
  g_autoptr (GArray) v = means (root, id);
  for (guint i = 0; i < v->len; i++)
    g_assert_true (isnan (g_array_index (v, double, i)));
}

/* Two fake GPUs with constant figures: every node metric's value, the
 * aggregation, each GPU's own metrics, a GPU that is not there, and the
 * energy integrated from the power over the run. */
static void
test_export (Fixture *f, gconstpointer data)
{
  const char *script = "gpus 2\n"
                       "0 util 90\n0 memutil 30\n0 used 2147483648\n0 total 85899345920\n"
                       "0 power_mw 400000\n0 temp 55\n0 sm_mhz 1400\n0 procs self:1048576\n"
                       "1 util 30\n1 memutil 10\n1 used 1073741824\n1 total 85899345920\n"
                       "1 power_mw 100000\n1 temp 70\n1 sm_mhz 1000\n1 procs 99999999:4096\n";
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = profile_and_export (f, script, "1", &err, &parser);
  g_assert_null (strstr (err, "GPU ("));
  g_assert_null (strstr (err, "failed while sampling"));

  assert_constant (root, "gpu_utilization", 60);
  assert_constant (root, "gpu_memory_utilization", 20);
  assert_constant (root, "gpu_memory_used", 3 * GIB);
  assert_constant (root, "gpu_memory_percent", 100 * 3.0 / 160);
  assert_constant (root, "gpu_power", 500);
  assert_constant (root, "gpu_temperature", 70);
  assert_constant (root, "gpu_sm_clock", 1200e6);
  assert_constant (root, "gpu_program_memory", 1048576);
  assert_constant (root, "gpu_devices_used", 1);
  assert_constant (root, "gpu0_utilization", 90);
  assert_constant (root, "gpu1_utilization", 30);
  assert_constant (root, "gpu0_memory_used", 2 * GIB);
  assert_constant (root, "gpu1_power", 100);
  assert_constant (root, "gpu1_temperature", 70);
  assert_constant (root, "gpu0_program_memory", 1048576);
  assert_constant (root, "gpu1_program_memory", 0);
  assert_no_value (root, "gpu2_utilization");
  assert_no_value (root, "gpu7_power");

  /* Energy: 500 W integrated, rising, at most 500 W x the run's time and
   * most of it (the samples cover the program's life less its start). */
  g_autoptr (GArray) energy = means (root, "gpu_energy");
  double last = 0, previous = 0;
  for (guint i = 0; i < energy->len; i++)
    {
      double e = g_array_index (energy, double, i);
      if (isnan (e))
        continue;
      g_assert_cmpfloat (e, >=, previous);
      previous = last = e;
    }
  double runtime = json_object_get_double_member (json_object_get_object_member (root, "info"),
                                                  "runtime") / 1000;
  g_test_message ("gpu_energy: %.2f J after %.3f s at 500 W", last, runtime);
  g_assert_cmpfloat (last, <=, 500 * runtime);
  g_assert_cmpfloat (last, >=, 500 * runtime * 0.7);
}

/* GPU 1 lost at its 11th reading: the summary names the metric that says
 * so, and from then on the node's figures are GPU 0's alone. */
static void
test_lost (Fixture *f, gconstpointer data)
{
  const char *script = "gpus 2\n"
                       "0 util 90\n0 memutil 30\n0 used 2147483648\n0 total 85899345920\n"
                       "0 power_mw 400000\n0 temp 55\n0 sm_mhz 1400\n0 procs none\n"
                       "1 util 30 30 30 30 30 30 30 30 30 30 GPU_IS_LOST\n1 memutil 10\n"
                       "1 used 1073741824\n1 total 85899345920\n"
                       "1 power_mw 100000\n1 temp 70\n1 sm_mhz 1000\n1 procs none\n";
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  JsonObject *root = profile_and_export (f, script, "1", &err, &parser);
  g_assert_nonnull (strstr (err, "metrograph: 1 metric failed while sampling: gpu_utilization"));

  g_autoptr (GArray) util = means (root, "gpu_utilization");
  g_autoptr (GArray) power = means (root, "gpu_power");
  guint first = G_MAXUINT, last = 0;
  for (guint i = 0; i < util->len; i++)
    if (!isnan (g_array_index (util, double, i)))
      {
        first = MIN (first, i);
        last = i;
      }
  g_assert_cmpuint (first, <, last);
  /* Windows may hold two samples: the first reads both GPUs, the last
   * GPU 0 alone. */
  g_assert_cmpfloat (g_array_index (util, double, first), ==, 60);
  g_assert_cmpfloat (g_array_index (power, double, first), ==, 500);
  g_assert_cmpfloat (g_array_index (util, double, last), ==, 90);
  g_assert_cmpfloat (g_array_index (power, double, last), ==, 400);
  g_autoptr (GArray) gpu1 = means (root, "gpu1_utilization");
  g_assert_cmpfloat (g_array_index (gpu1, double, first), ==, 30);
  g_assert_true (isnan (g_array_index (gpu1, double, last)));
}

/* The line "metrograph: not available here: …", or NULL. */
static char *
unavailable_line (const char *err)
{
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "metrograph: not available here: "))
      return g_strdup (lines[i]);
  return NULL;
}

static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;
  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* No driver: GPU is listed once under "not available here", not as an
 * error, whether the library is missing where the variable points or (on
 * this GPU-less machine) where the system would have it. */
static void
test_no_driver (Fixture *f, gconstpointer data)
{
  g_autofree char *metrics = plugins_test_build_path ("plugins");
  g_autofree char *missing = g_build_filename (f->dir, "libnvidia-ml.so.1", NULL);
  const char *args[] = { "--profile", "--metrics-path", metrics, "-o", "run.mgprof", "sleep",
                         "0.2", NULL };
  for (int system = 0; system < 2; system++)
    {
      if (system && (g_file_test ("/proc/driver/nvidia", G_FILE_TEST_EXISTS)
                     || g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS)))
        {
          g_test_message ("an NVIDIA driver is loaded here: the system's library not tried");
          continue;
        }
      g_autofree char *err = NULL;
      g_assert_cmpint (run_metrograph (f, args, system ? NULL : missing, NULL, &err), ==, 0);
      g_autofree char *line = unavailable_line (err);
      g_assert_nonnull (line);
      g_test_message ("%s", line);
      g_assert_cmpuint (count (line, "GPU (no NVIDIA driver)"), ==, 1);
      g_assert_cmpuint (count (err, "GPU"), ==, 1);
      g_assert_null (strstr (err, "failed while sampling"));
    }
}

/* The constant two-GPU script of the export test. */
static const char two_gpus[] =
  "gpus 2\n"
  "0 util 90\n0 memutil 30\n0 used 2147483648\n0 total 85899345920\n"
  "0 power_mw 400000\n0 temp 55\n0 sm_mhz 1400\n0 procs self:1048576\n"
  "1 util 30\n1 memutil 10\n1 used 1073741824\n1 total 85899345920\n"
  "1 power_mw 100000\n1 temp 70\n1 sm_mhz 1000\n1 procs none\n";

/* Profiles argv (NULL-terminated) with the built-in metrics and the fake
 * NVML on script, GPU metrics on or off; returns the program's stdout.
 * metrograph's exit status must be expected. */
static char *
profile_program_ending (Fixture *f, const char *script, gboolean gpu, const char *const *argv,
                        int expected)
{
  g_autofree char *metrics = plugins_test_build_path ("plugins");
  g_autofree char *library = plugins_test_build_path ("tests/plugins/libfake-nvml.so");
  g_autofree char *script_path = g_build_filename (f->dir, "nvml.script", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_assert_true (g_file_set_contents (script_path, script, -1, NULL));
  g_ptr_array_add (args, "--profile");
  g_ptr_array_add (args, "--metrics-path");
  g_ptr_array_add (args, metrics);
  g_ptr_array_add (args, "--interval=10");
  g_ptr_array_add (args, gpu ? "--enable-metrics=gpu" : "--disable-metrics=gpu");
  g_ptr_array_add (args, "-o");
  g_ptr_array_add (args, "run.mgprof");
  for (const char *const *a = argv; *a != NULL; a++)
    g_ptr_array_add (args, (char *) *a);
  g_ptr_array_add (args, NULL);
  g_autofree char *lib = g_strconcat ("METROGRAPH_NVML_LIBRARY=", library, NULL);
  g_autofree char *fake = g_strconcat ("METROGRAPH_FAKE_NVML=", script_path, NULL);
  const char *env[] = { lib, fake, NULL };
  g_assert_cmpint (plugins_test_run_metrograph (f->dir, (const char *const *) args->pdata, env,
                                                &out, &err), ==, expected);
  return g_steal_pointer (&out);
}

static char *
profile_program (Fixture *f, const char *script, gboolean gpu, const char *const *argv)
{
  return profile_program_ending (f, script, gpu, argv, 0);
}

/* The lines of out that begin with one of the workload's answers. */
static char *
answers (const char *out, gboolean with_readers)
{
  static const char *const prefixes[] = { "first fd ", "opened ", "threads ", "unshare: ",
                                          "wait: ", "gpu readers ", NULL };
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GString *s = g_string_new (NULL);
  for (guint i = 0; lines[i] != NULL; i++)
    for (const char *const *p = prefixes; *p != NULL; p++)
      if (g_str_has_prefix (lines[i], *p)
          && (with_readers || !g_str_has_prefix (lines[i], "gpu readers ")))
        g_string_append_printf (s, "%s\n", lines[i]);
  return g_string_free (s, FALSE);
}

/* The reader processes of this build now running (their pids). */
static GArray *
running_readers (void)
{
  g_autofree char *reader = plugins_test_build_path ("plugins/metrograph-gpu-reader");
  GArray *pids = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr (GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmd = NULL;
      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmd, NULL, NULL))
        continue;
      if (g_strcmp0 (cmd, reader) == 0)
        {
          int pid = atoi (name);
          g_array_append_val (pids, pid);
        }
    }
  return pids;
}

/* No reader of this build is left (one that is ending gets a second). */
static void
assert_no_reader_left (void)
{
  for (int tries = 0;; tries++)
    {
      g_autoptr (GArray) left = running_readers ();
      if (left->len == 0)
        return;
      if (tries == 100)
        g_error ("%u GPU reader(s) left, pid %d first", left->len, g_array_index (left, int, 0));
      g_usleep (10000);
    }
}

/* The program sees nothing of the GPU plugin: with the fake NVML (which,
 * as the real one, leaves descriptors and a thread where it starts) its
 * first open, the files it can open under `ulimit -Sn 16`, its threads,
 * unshare (CLONE_NEWUSER) and a wait for any child answer as in a run
 * without the GPU metrics, and as unprofiled. One reader runs for it, its
 * sibling, not its child (so no SIGCHLD of it comes to the program: its
 * exit signal goes to the parent they share); after an exec, the old
 * image's reader has stopped and the new image's runs; none is left at
 * the end. */
static void
test_invisible (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = plugins_test_build_path ("tests/cli/mg-cli-workload");
  const char *plain[] = { workload, "sleep=0.3", "fds", "threads", "wait-any", "gpu-readers",
                          "unshare-user", NULL };
  g_autofree char *script = g_strdup_printf ("ulimit -Sn 16 && exec %s sleep=0.3 fds nofile=16 "
                                             "gpu-readers", workload);
  const char *limited[] = { "sh", "-c", script, NULL };
  g_autofree char *unprofiled = NULL;
  int status;

  g_assert_true (g_spawn_sync (f->dir, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &unprofiled, NULL, &status, NULL));
  g_autofree char *expected = answers (unprofiled, FALSE);
  g_test_message ("unprofiled:\n%s", expected);
  g_assert_nonnull (strstr (expected, "first fd 3\nthreads 1\nwait: No child processes\n"));
  /* Where no user namespace may be made (a build root: EPERM), the
   * profiled runs must fail it the same way. */
  const char *unshare_line = strstr (expected, "unshare: ");
  g_assert_nonnull (unshare_line);

  for (int gpu = 0; gpu < 2; gpu++)
    {
      g_autofree char *out = profile_program (f, two_gpus, gpu, plain);
      g_autofree char *got = answers (out, TRUE);
      g_test_message ("profiled, GPU %s:\n%s", gpu ? "on" : "off", got);
      /* The sampler's own thread is the one more. */
      g_assert_nonnull (strstr (got, "first fd 3\nthreads 2\nwait: No child processes\n"));
      g_assert_nonnull (strstr (got, gpu ? "gpu readers 1, my children 0, siblings 1\n"
                                         : "gpu readers 0, my children 0, siblings 0\n"));
      g_assert_nonnull (strstr (got, unshare_line));
      assert_no_reader_left ();

      g_free (out);
      out = profile_program (f, two_gpus, gpu, limited);
      g_free (got);
      got = answers (out, TRUE);
      g_test_message ("ulimit -Sn 16, GPU %s:\n%s", gpu ? "on" : "off", got);
      /* sh's reader stopped at the exec, the workload's own runs. */
      g_assert_cmpstr (got, ==, gpu ? "first fd 3\nopened 13\n"
                                      "gpu readers 1, my children 0, siblings 1\n"
                                    : "first fd 3\nopened 13\n"
                                      "gpu readers 0, my children 0, siblings 0\n");
      assert_no_reader_left ();
    }
}

typedef struct {
  Fixture *f;
  const char *const *argv;
  const char *script;
} Background;

static gpointer
profile_in_background (gpointer data)
{
  Background *b = data;
  /* metrograph ends as its program did: 128 + 9. */
  return profile_program_ending (b->f, b->script, TRUE, b->argv, 137 << 8);
}

/* The program killed with SIGKILL (no cleanup runs in it): its reader
 * ends with it. */
static void
test_killed (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = plugins_test_build_path ("tests/cli/mg-cli-workload");
  const char *argv[] = { workload, "sleep=10", NULL };
  Background b = { f, argv, two_gpus };
  GThread *run = g_thread_new ("profile", profile_in_background, &b);
  int program = 0;
  for (int tries = 0; tries < 500 && program == 0; tries++)
    {
      g_autoptr (GArray) readers = running_readers ();
      for (guint i = 0; i < readers->len && program == 0; i++)
        {
          g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline",
                                                   g_array_index (readers, int, i));
          g_autofree char *cmd = NULL;
          gsize len = 0;
          if (!g_file_get_contents (path, &cmd, &len, NULL))
            continue;
          /* argv: reader, period, the program's pid, its start */
          const char *arg = cmd;
          for (int k = 0; k < 2 && arg < cmd + len; k++)
            arg += strlen (arg) + 1;
          if (arg < cmd + len)
            program = atoi (arg);
        }
      if (program == 0)
        g_usleep (10000);
    }
  g_assert_cmpint (program, >, 0);
  g_test_message ("killing the program, pid %d", program);
  g_assert_cmpint (kill (program, SIGKILL), ==, 0);
  g_autofree char *out = g_thread_join (run);
  assert_no_reader_left ();
}

/* An NVML call that never returns (the reader's first utilisation
 * reading): the program's rounds go on, its other metrics keep their
 * samples, the GPU's give none, and the reader ends with the program. */
static void
test_hang (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  const char *script = "gpus 1\n0 util hang\n0 memutil 30\n0 power_mw 100000\n0 temp 50\n";
  JsonObject *root = profile_and_export (f, script, "1", &err, &parser);
  g_autoptr (GArray) cpu = means (root, "cpu_time_percentage");
  g_autoptr (GArray) util = means (root, "gpu_utilization");
  guint n = 0;
  for (guint i = 0; i < cpu->len; i++)
    n += !isnan (g_array_index (cpu, double, i));
  g_test_message ("CPU time: %u windows with values of %u", n, cpu->len);
  g_assert_cmpuint (n, >=, 10);
  g_assert_cmpuint (n, >=, cpu->len * 8 / 10);
  for (guint i = 0; i < util->len; i++)
    g_assert_true (isnan (g_array_index (util, double, i)));
  g_assert_null (strstr (err, "hung"));
  assert_no_reader_left ();
}

/* NVML hangs after some readings: the GPU's values stand for 2 s more (the
 * reader may be slow), then give none, said once as a metric error; the
 * program's other metrics keep every sample; no reader is left. */
static void
test_hang_later (Fixture *f, gconstpointer data)
{
  g_autofree char *err = NULL;
  g_autoptr (JsonParser) parser = NULL;
  const char *script = "gpus 1\n0 util 50 50 50 50 50 hang\n0 memutil 30\n0 used 1000\n"
                       "0 total 8000\n0 power_mw 100000\n0 temp 50\n0 sm_mhz 1000\n"
                       "0 procs none\n";
  JsonObject *root = profile_and_export (f, script, "3.5", &err, &parser);
  g_autoptr (GArray) cpu = means (root, "cpu_time_percentage");
  g_autoptr (GArray) util = means (root, "gpu_utilization");
  guint n = 0, last_value = 0, first_value = G_MAXUINT;
  for (guint i = 0; i < cpu->len; i++)
    n += !isnan (g_array_index (cpu, double, i));
  for (guint i = 0; i < util->len; i++)
    if (!isnan (g_array_index (util, double, i)))
      {
        g_assert_cmpfloat (g_array_index (util, double, i), ==, 50);
        first_value = MIN (first_value, i);
        last_value = i;
      }
  g_test_message ("CPU time: %u windows with values of %u; GPU utilisation from window %u to "
                  "%u", n, cpu->len, first_value, last_value);
  g_assert_cmpuint (n, >=, cpu->len * 8 / 10);
  g_assert_cmpuint (first_value, <, last_value);
  /* 2 s of 3.5 s, and none in the last quarter. */
  g_assert_cmpuint (last_value, <, util->len * 3 / 4);
  g_assert_cmpuint (last_value, >, util->len * 4 / 10);
  g_assert_nonnull (strstr (err, "metrograph: 1 metric failed while sampling: gpu_utilization;"));
  assert_no_reader_left ();
}

/* A program built with ThreadSanitizer (clang's runtime) runs as
 * unprofiled with the GPU metrics on: the reader was started by glibc's
 * clone(), whose TSan interceptor failed a CHECK on the sampler thread
 * ("ThreadSanitizer: CHECK failed: tsan_rtl.cpp … ((!thr->slot)) != (0)")
 * and ended the program with status 66 on every machine with an NVIDIA
 * GPU (an H100's, GCC 13's runtime; here clang's). Now a raw system call,
 * which no sanitizer intercepts. Skipped where clang cannot build one. */
static void
test_tsan_program (Fixture *f, gconstpointer data)
{
  static const char source[] =
    "#include <pthread.h>\n#include <stdio.h>\n"
    "static void *run (void *a) { volatile double x = 0; "
    "for (long i = 0; i < 20000000; i++) x += i; return a; }\n"
    "int main (void) { pthread_t t; pthread_create (&t, 0, run, 0); run (0); "
    "pthread_join (t, 0); puts (\"tsan ok\"); return 0; }\n";
  g_autofree char *c = g_build_filename (f->dir, "tsan.c", NULL);
  g_autofree char *binary = g_build_filename (f->dir, "tsan-program", NULL);
  g_autofree char *plain = NULL;
  int status = -1;
  g_assert_true (g_file_set_contents (c, source, -1, NULL));
  const char *cc[] = { "clang", "-O1", "-fsanitize=thread", "-o", binary, c, NULL };
  if (!g_spawn_sync (f->dir, (char **) cc, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                     | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip ("clang cannot build a -fsanitize=thread program here");
      return;
    }
  const char *run[] = { binary, NULL };
  g_assert_true (g_spawn_sync (f->dir, (char **) run, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, &plain, NULL, &status, NULL));
  g_assert_cmpstr (plain, ==, "tsan ok\n");
  g_autofree char *out = profile_program (f, two_gpus, TRUE, run);
  g_assert_cmpstr (out, ==, plain);
  assert_no_reader_left ();
}

static void
add (const char *path, void (*test) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_set_up, test, fixture_tear_down);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  add ("/metrics/e2e/gpu/export", test_export);
  add ("/metrics/e2e/gpu/lost", test_lost);
  add ("/metrics/e2e/gpu/no-driver", test_no_driver);
  add ("/metrics/e2e/gpu/invisible", test_invisible);
  add ("/metrics/e2e/gpu/killed", test_killed);
  add ("/metrics/e2e/gpu/hang", test_hang);
  add ("/metrics/e2e/gpu/hang-later", test_hang_later);
  add ("/metrics/e2e/gpu/tsan-program", test_tsan_program);
  return g_test_run ();
}
