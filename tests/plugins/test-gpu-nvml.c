/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU plugin without a GPU, on the tests' fake NVML (fake-nvml.c),
 * named by METROGRAPH_NVML_LIBRARY, with the values of each call scripted
 * in the file METROGRAPH_FAKE_NVML names. Two halves:
 * - the reader's work (plugins/gpu-reader-core.c) driven in this process,
 *   rounds given sample times 20 ms apart, so that energy and the slower
 *   cadences are known exactly;
 * - the plugin (plugins/gpu-nvml.c) with its real reader process: what it
 *   declines with, how its getters aggregate the GPUs, the refusals said
 *   once, the cost of a round. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-reader-core.h"
#include "plugins-test-support.h"
#include "mg-test-common.h"

#define ROUND_NS 20000000LL
#define GIB 1073741824.0

typedef struct {
  char *dir;
  void *plugin;
  int64_t round; /* the next round's number */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = mg_test_make_dir ("gpu-nvml");
  f->plugin = plugins_test_load_plugin ("metrograph-gpu");
  f->round = 1;
  plugins_test_clear_errors ();
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  PluginsTestInitFn cleanup = plugins_test_symbol (f->plugin, "allinea_plugin_cleanup");
  cleanup (1, NULL);
  g_unsetenv ("METROGRAPH_NVML_LIBRARY");
  g_unsetenv ("METROGRAPH_FAKE_NVML");
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

static char *
fake_library (void)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "plugins", "libfake-nvml.so",
                           NULL);
}

/* Initialises the plugin on the fake NVML with script; returns its result. */
static int
init_with_script (Fixture *f, const char *script)
{
  g_autofree char *library = fake_library ();
  g_autofree char *path = g_build_filename (f->dir, "nvml.script", NULL);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_setenv ("METROGRAPH_NVML_LIBRARY", library, TRUE);
  g_setenv ("METROGRAPH_FAKE_NVML", path, TRUE);
  return plugins_test_init_plugin (f->plugin, 1);
}

static void
init_ok (Fixture *f, const char *script)
{
  int code;
  int r = init_with_script (f, script);
  if (r != 0)
    g_error ("the GPU plugin refused: %s", plugins_test_plugin_error (&code));
}

static struct timespec
round_time (int64_t round)
{
  int64_t ns = 1000000000LL + round * ROUND_NS;
  return (struct timespec) { ns / 1000000000, ns % 1000000000 };
}

/* One getter's value in round (the same round for getters that share it). */
static double
value_at (Fixture *f, const char *getter, metric_id_t id, int64_t round)
{
  PluginsTestDoubleGetter fn = plugins_test_symbol (f->plugin, getter);
  struct timespec t = round_time (round);
  double v = -1;
  g_assert_cmpint (fn (id, &t, &v), ==, 0);
  return v;
}

/* The node's default metrics, with their getters and ids. */
static const struct {
  const char *getter;
  metric_id_t id;
} node_metrics[] = {
  { "mg_gpu_utilization", 1 },  { "mg_gpu_memory_utilization", 2 },
  { "mg_gpu_memory_used", 3 },  { "mg_gpu_memory_percent", 4 },
  { "mg_gpu_power", 5 },        { "mg_gpu_energy", 6 },
  { "mg_gpu_temperature", 7 },  { "mg_gpu_sm_clock", 8 },
  { "mg_gpu_program_memory", 9 }, { "mg_gpu_devices_used", 10 },
};

typedef struct {
  double v[G_N_ELEMENTS (node_metrics)];
} Round;

/* Every node metric in the next round. */
static Round
next_round (Fixture *f)
{
  Round r;
  for (guint i = 0; i < G_N_ELEMENTS (node_metrics); i++)
    r.v[i] = value_at (f, node_metrics[i].getter, node_metrics[i].id, f->round);
  f->round++;
  return r;
}

enum { UTIL, MEMUTIL, USED, USED_PCT, POWER, ENERGY, TEMP, CLOCK, PROGRAM, DEVICES };

/* A GPU's script lines with constant values. */
static void
append_gpu (GString *s, int gpu, int util, int memutil, double used_gib, double total_gib,
            int power_w, int temp, int sm_mhz, const char *procs)
{
  g_string_append_printf (s, "%d util %d\n%d memutil %d\n", gpu, util, gpu, memutil);
  g_string_append_printf (s, "%d used %.0f\n%d total %.0f\n", gpu, used_gib * GIB, gpu,
                          total_gib * GIB);
  g_string_append_printf (s, "%d power_mw %d\n%d temp %d\n%d sm_mhz %d\n", gpu,
                          power_w * 1000, gpu, temp, gpu, sm_mhz);
  g_string_append_printf (s, "%d procs %s\n", gpu, procs);
}

/* No library where the variable points (the same as no driver): the
 * plugin declines with code 0 and says so in the summary's form. */
static void
test_no_driver (Fixture *f, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (f->dir, "libnvidia-ml.so.1", NULL);
  int code = -1;
  g_setenv ("METROGRAPH_NVML_LIBRARY", missing, TRUE);
  g_assert_cmpint (plugins_test_init_plugin (f->plugin, 1), ==, -1);
  const char *message = plugins_test_plugin_error (&code);
  g_test_message ("%s", message);
  g_autofree char *expected = g_strdup_printf ("GPU: no NVIDIA driver: %s cannot be loaded (",
                                               missing);
  g_assert_true (g_str_has_prefix (message, expected));
  g_assert_cmpint (code, ==, 0);
}

/* The library is there but NVML does not start (driver not loaded), or
 * sees no GPU: declined too, each with NVML's reason. */
static void
test_driver_not_loaded (Fixture *f, gconstpointer data)
{
  int code = -1;
  g_assert_cmpint (init_with_script (f, "init DRIVER_NOT_LOADED\n"), ==, -1);
  const char *message = plugins_test_plugin_error (&code);
  g_test_message ("%s", message);
  g_assert_true (g_str_has_prefix (message, "GPU: no NVIDIA driver: "));
  g_assert_nonnull (strstr (message, "NVML did not start: Driver Not Loaded (error 9)"));
  g_assert_cmpint (code, ==, 0);

  plugins_test_clear_errors ();
  g_assert_cmpint (init_with_script (f, "gpus 0\n"), ==, -1);
  message = plugins_test_plugin_error (&code);
  g_assert_cmpstr (message, ==, "GPU: no NVIDIA GPU: NVML sees none (0 devices)");
  g_assert_cmpint (code, ==, 0);
}

/* The reader's work in this process: its region, rounds at sample times
 * of the test's own (ROUND_NS apart). */
typedef struct {
  MgGpuShared *shared;
  int64_t round;
} Core;

static void
core_open (Fixture *f, Core *c, const char *script)
{
  g_autofree char *library = fake_library ();
  g_autofree char *path = g_build_filename (f->dir, "nvml.script", NULL);
  g_assert_true (g_file_set_contents (path, script, -1, NULL));
  g_setenv ("METROGRAPH_FAKE_NVML", path, TRUE);
  c->shared = g_new0 (MgGpuShared, 1);
  c->round = 1;
  mg_gpu_reader_open (c->shared, library, getpid ());
  g_assert_cmpuint (atomic_load (&c->shared->state), ==, MG_GPU_READY);
}

static void
core_close (Core *c)
{
  mg_gpu_reader_close ();
  g_free (c->shared);
}

/* GPU index's readings after the next round. */
static const MgGpuValues *
core_round (Core *c, unsigned int index)
{
  struct timespec t = round_time (c->round++);
  mg_gpu_reader_round (c->shared, (int64_t) t.tv_sec * 1000000000LL + t.tv_nsec);
  g_assert_cmpuint (index, <, c->shared->readings.n_gpus);
  return &c->shared->readings.gpus[index];
}

/* One GPU read by the reader's work: every quantity, the energy
 * integrated from power, the memory read every 100 ms, the processes every
 * second, a round after memory's. */
static void
test_one_gpu (Fixture *f, gconstpointer data)
{
  Core c;
  /* Power 100 W then 300 W from the third call; memory used grows by
   * 1 GiB per read. */
  core_open (f, &c, "gpus 1\n"
                    "0 util 100 100 40\n0 memutil 30 31 32\n"
                    "0 used 1073741824 2147483648 3221225472\n0 total 85899345920\n"
                    "0 power_mw 100000 100000 300000\n0 temp 55 57\n0 sm_mhz 1400\n"
                    "0 procs self:1048576,99999999:4096 self:2097152\n");

  const MgGpuValues *g = core_round (&c, 0);
  g_assert_cmpuint (g->utilization, ==, 100);
  g_assert_cmpuint (g->memory_utilization, ==, 30);
  g_assert_cmpfloat (g->memory_used, ==, 1 * GIB);
  g_assert_cmpfloat (g->memory_total, ==, 80 * GIB);
  g_assert_cmpfloat (g->power_w, ==, 100);
  g_assert_cmpfloat (g->energy_j, ==, 0);
  g_assert_cmpuint (g->temperature, ==, 55);
  g_assert_cmpuint (g->clock_mhz, ==, 1400);
  /* The processes are not read in memory's round: no value yet. */
  g_assert_false (g->have[MG_GPU_Q_PROCESSES]);

  g = core_round (&c, 0); /* 20 ms later */
  g_assert_cmpuint (g->utilization, ==, 100);
  g_assert_cmpuint (g->memory_utilization, ==, 31);
  g_assert_cmpfloat (g->power_w, ==, 100);
  g_assert_cmpfloat_with_epsilon (g->energy_j, 100 * 0.02, 1e-9);
  g_assert_cmpuint (g->temperature, ==, 57);
  /* Memory stands until its period is up; the processes are read here,
   * one round after memory. The process that cannot be in our session is
   * not the program's. */
  g_assert_cmpfloat (g->memory_used, ==, 1 * GIB);
  g_assert_true (g->have[MG_GPU_Q_PROCESSES]);
  g_assert_cmpfloat (g->program_memory, ==, 1048576);
  g_assert_true (g->used_by_program);

  g = core_round (&c, 0); /* 40 ms */
  g_assert_cmpuint (g->utilization, ==, 40);
  g_assert_cmpfloat (g->power_w, ==, 300);
  /* Trapezoids: 2 J, then (100 + 300) / 2 W for 20 ms. */
  g_assert_cmpfloat_with_epsilon (g->energy_j, 2 + 200 * 0.02, 1e-9);
  for (int i = 0; i < 2; i++)
    g = core_round (&c, 0); /* 80 ms */
  g_assert_cmpfloat (g->memory_used, ==, 1 * GIB);
  g = core_round (&c, 0); /* 100 ms: memory read again */
  g_assert_cmpfloat (g->memory_used, ==, 2 * GIB);
  g_assert_cmpfloat_with_epsilon (g->energy_j, 6 + 300 * 0.06, 1e-9);
  while (c.round <= 50)
    g = core_round (&c, 0); /* up to 980 ms */
  g_assert_cmpfloat (g->program_memory, ==, 1048576);
  g = core_round (&c, 0); /* 1 s: memory read again */
  g_assert_cmpfloat (g->program_memory, ==, 1048576);
  g_assert_cmpfloat (g->memory_used, ==, 3 * GIB);
  g = core_round (&c, 0); /* 1.02 s: processes read again */
  g_assert_cmpfloat (g->program_memory, ==, 2097152);
  for (int q = 0; q < MG_GPU_N_QUANTITIES; q++)
    g_assert_cmpuint (atomic_load (&c.shared->refusals[0][q].count), ==, 0);
  core_close (&c);
}

/* The reader's work on 2 GPUs, GPU 1 lost at its third utilisation
 * reading and its power not supported: each refusal written once with
 * its message, the lost GPU no longer read, the other carrying on. */
static void
test_core_refusals (Fixture *f, gconstpointer data)
{
  Core c;
  g_autoptr (GString) s = g_string_new ("gpus 2\n");
  append_gpu (s, 0, 90, 10, 1, 80, 200, 50, 1400, "self:100");
  append_gpu (s, 1, 30, 20, 2, 80, 100, 70, 1200, "self:200");
  g_string_append (s, "1 util 30 30 GPU_IS_LOST\n1 power_mw NOT_SUPPORTED\n");
  core_open (f, &c, s->str);
  MgGpuRefusal *power = &c.shared->refusals[1][MG_GPU_Q_POWER];
  MgGpuRefusal *util = &c.shared->refusals[1][MG_GPU_Q_UTILIZATION];
  const MgGpuValues *g1 = core_round (&c, 1);
  g_assert_cmpuint (atomic_load (&power->count), ==, 1);
  g_assert_cmpstr (power->text, ==, "GPU 1: power: Not Supported: no longer read on this GPU");
  g_assert_true (g1->off[MG_GPU_Q_POWER]);
  g_assert_false (g1->have[MG_GPU_Q_POWER]);
  g_assert_true (g1->have[MG_GPU_Q_TEMPERATURE]);
  g1 = core_round (&c, 1);
  g_assert_false (g1->lost);
  g_assert_cmpuint (atomic_load (&util->count), ==, 0);
  g1 = core_round (&c, 1);
  g_assert_true (g1->lost);
  g_assert_cmpuint (atomic_load (&util->count), ==, 1);
  g_assert_cmpstr (util->text, ==,
                   "GPU 1 lost (GPU is lost): no longer read; the other GPUs carry on");
  for (int i = 0; i < 5; i++)
    core_round (&c, 1);
  /* Said once: no further refusal of either. */
  g_assert_cmpuint (atomic_load (&util->count), ==, 1);
  g_assert_cmpuint (atomic_load (&power->count), ==, 1);
  const MgGpuValues *g0 = &c.shared->readings.gpus[0];
  g_assert_cmpuint (g0->utilization, ==, 90);
  g_assert_cmpfloat_with_epsilon (g0->energy_j, 200 * 0.02 * 7, 1e-9);
  core_close (&c);
}

/* Rounds until metric k has a value (the reader's first readings in);
 * the last round's values. */
static Round
settle (Fixture *f, guint k)
{
  Round r = next_round (f);
  for (int tries = 0; tries < 300 && isnan (r.v[k]); tries++)
    {
      g_usleep (10000);
      r = next_round (f);
    }
  g_assert_false (isnan (r.v[k]));
  return r;
}

/* A node of n GPUs with different figures: the node's row aggregates them
 * (sums of memory and power, mean of utilisation and clock, the hottest),
 * each GPU's own metrics give its own figures, a GPU not there gives no
 * value. */
static void
check_aggregate (Fixture *f, int n)
{
  g_autoptr (GString) s = g_string_new (NULL);
  double util = 0, memutil = 0, used = 0, total = 0, power = 0, temp = 0, clock = 0;
  double program = 0;
  g_string_append_printf (s, "gpus %d\n", n);
  for (int i = 0; i < n; i++)
    {
      /* GPU i: 10 + 20 i %, i + 1 GiB of 80, 100 + 50 i W, 40 + 7 i °C. */
      g_autofree char *procs = i % 2 == 0 ? g_strdup_printf ("self:%d", (i + 1) * 1000)
                                          : g_strdup ("99999999:5000");
      append_gpu (s, i, 10 + 20 * i, 5 + i, i + 1, 80, 100 + 50 * i, 40 + 7 * i,
                  1000 + 100 * i, procs);
      util += 10 + 20 * i;
      memutil += 5 + i;
      used += (i + 1) * GIB;
      total += 80 * GIB;
      power += 100 + 50 * i;
      temp = MAX (temp, 40 + 7 * i);
      clock += (1000 + 100 * i) * 1e6;
      program += i % 2 == 0 ? (i + 1) * 1000 : 0;
    }
  init_ok (f, s->str);
  Round r = settle (f, DEVICES);
  g_assert_cmpfloat_with_epsilon (r.v[UTIL], util / n, 1e-9);
  g_assert_cmpfloat_with_epsilon (r.v[MEMUTIL], memutil / n, 1e-9);
  g_assert_cmpfloat (r.v[USED], ==, used);
  g_assert_cmpfloat_with_epsilon (r.v[USED_PCT], 100 * used / total, 1e-9);
  g_assert_cmpfloat (r.v[POWER], ==, power);
  /* The reader's own rounds: power for some time, less than the wait. */
  g_assert_cmpfloat (r.v[ENERGY], >, 0);
  g_assert_cmpfloat (r.v[ENERGY], <, power * 5);
  g_assert_cmpfloat (r.v[TEMP], ==, temp);
  g_assert_cmpfloat_with_epsilon (r.v[CLOCK], clock / n, 1e-3);
  g_assert_cmpfloat (r.v[PROGRAM], ==, program);
  g_assert_cmpfloat (r.v[DEVICES], ==, (n + 1) / 2);

  /* Per GPU: customData names the GPU. */
  static const char *const getters[] = {
    "mg_gpu_device_utilization", "mg_gpu_device_memory_used", "mg_gpu_device_power",
    "mg_gpu_device_temperature", "mg_gpu_device_program_memory",
  };
  for (int i = 0; i <= n; i++)
    {
      static const char *const index[] = { "0", "1", "2", "3", "4" };
      for (guint g = 0; g < G_N_ELEMENTS (getters); g++)
        {
          metric_id_t id = 20 + (metric_id_t) (i * 5 + g);
          plugins_test_set_custom_data (id, index[i]);
          double v = value_at (f, getters[g], id, f->round);
          double expected[] = { 10 + 20 * i, (i + 1) * GIB, 100 + 50 * i, 40 + 7 * i,
                                i % 2 == 0 ? (i + 1) * 1000 : 0 };
          if (i == n)
            g_assert_true (isnan (v)); /* no such GPU: no value, no error */
          else
            g_assert_cmpfloat (v, ==, expected[g]);
          g_assert_cmpstr (plugins_test_metric_error (id), ==, "");
        }
    }
}

static void
test_aggregate_2 (Fixture *f, gconstpointer data)
{
  check_aggregate (f, 2);
}

static void
test_aggregate_4 (Fixture *f, gconstpointer data)
{
  check_aggregate (f, 4);
}

/* Power not supported on GPU 1 of 2: the node's power is GPU 0's, the
 * reason said once, GPU 1's other figures go on. */
static void
test_not_supported (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new ("gpus 2\n");
  append_gpu (s, 0, 80, 10, 1, 80, 200, 50, 1400, "none");
  append_gpu (s, 1, 40, 20, 2, 80, 0, 60, 1200, "none");
  g_string_append (s, "1 power_mw NOT_SUPPORTED\n");
  init_ok (f, s->str);
  Round r = settle (f, DEVICES);
  g_assert_cmpstr (plugins_test_metric_error (5), ==,
                   "GPU 1: power: Not Supported: no longer read on this GPU");
  /* Said once, by the first metric of power: not by energy, not again. */
  g_assert_cmpstr (plugins_test_metric_error (6), ==, "");
  plugins_test_clear_errors ();
  for (int i = 0; i < 3; i++)
    r = next_round (f);
  g_assert_cmpstr (plugins_test_metric_error (5), ==, "");
  g_assert_cmpfloat (r.v[POWER], ==, 200);
  g_assert_cmpfloat (r.v[ENERGY], >, 0);
  g_assert_cmpfloat (r.v[UTIL], ==, 60);
  g_assert_cmpfloat (r.v[TEMP], ==, 60);
  g_assert_cmpfloat (r.v[USED], ==, 3 * GIB);
  /* No process reading on either GPU: none used, nothing of the program. */
  g_assert_cmpfloat (r.v[PROGRAM], ==, 0);
  g_assert_cmpfloat (r.v[DEVICES], ==, 0);
  g_assert_cmpstr (plugins_test_metric_error (1), ==, "");

  /* Not supported anywhere: no value at all (not 0). */
  plugins_test_clear_errors ();
  g_string_assign (s, "gpus 1\n0 util 50\n0 memutil 5\n");
  init_ok (f, s->str);
  r = settle (f, UTIL);
  g_assert_true (isnan (r.v[POWER]));
  g_assert_true (isnan (r.v[TEMP]));
  g_assert_cmpfloat (r.v[UTIL], ==, 50);
  g_assert_cmpstr (plugins_test_metric_error (7), ==,
                   "GPU 0: temperature: Not Supported: no longer read on this GPU");
}

/* GPU 1 of 2 lost at its third utilisation reading, through the plugin
 * and its reader: the node's figures are then GPU 0's alone; the reason is
 * said once, by the node's utilisation. */
static void
test_gpu_lost (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new ("gpus 2\n");
  append_gpu (s, 0, 90, 10, 1, 80, 200, 50, 1400, "self:100");
  append_gpu (s, 1, 30, 20, 2, 80, 100, 70, 1200, "self:200");
  g_string_append (s, "1 util 30 30 GPU_IS_LOST\n");
  init_ok (f, s->str);
  Round r = settle (f, DEVICES);
  for (int tries = 0; tries < 300 && r.v[POWER] != 200; tries++)
    {
      g_usleep (10000);
      r = next_round (f);
    }
  g_assert_cmpstr (plugins_test_metric_error (1), ==,
                   "GPU 1 lost (GPU is lost): no longer read; the other GPUs carry on");
  g_assert_cmpstr (plugins_test_metric_error (2), ==, "");
  g_assert_cmpfloat (r.v[UTIL], ==, 90);
  g_assert_cmpfloat (r.v[POWER], ==, 200);
  g_assert_cmpfloat (r.v[TEMP], ==, 50);
  g_assert_cmpfloat (r.v[USED], ==, 1 * GIB);
  g_assert_cmpfloat (r.v[PROGRAM], ==, 100);
  plugins_test_clear_errors ();
  r = next_round (f);
  g_assert_cmpfloat (r.v[UTIL], ==, 90);
  g_assert_cmpstr (plugins_test_metric_error (1), ==, "");
  g_assert_cmpstr (plugins_test_metric_error (3), ==, "");
}

/* The plugin's own cost of a round of the 10 default metrics on 4 GPUs:
 * with NVML in the reader, a round only copies the readings and adds them
 * up, whatever NVML's calls cost. */
static void
test_round_cost (Fixture *f, gconstpointer data)
{
  g_autoptr (GString) s = g_string_new ("gpus 4\n");
  for (int i = 0; i < 4; i++)
    append_gpu (s, i, 50, 10, 1, 80, 200, 50, 1400, "self:100,99999999:100");
  init_ok (f, s->str);
  const int rounds = 5000;
  next_round (f);
  gint64 start = g_get_monotonic_time ();
  for (int i = 0; i < rounds; i++)
    next_round (f);
  double us = (double) (g_get_monotonic_time () - start) / rounds;
  g_test_message ("GPU plugin: %.2f us a round for 10 metrics on 4 fake GPUs (NVML in the reader)", us);
  g_print ("# GPU plugin round: %.2f us (10 metrics, 4 fake GPUs)\n", us);
  /* Generous for a loaded 2-core VM: it reads about 2 us quiet. */
  g_assert_cmpfloat (us, <, 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("/metrics/gpu/no-driver", test_no_driver);
  ADD ("/metrics/gpu/driver-not-loaded", test_driver_not_loaded);
  ADD ("/metrics/gpu/one-gpu", test_one_gpu);
  ADD ("/metrics/gpu/aggregate-2", test_aggregate_2);
  ADD ("/metrics/gpu/aggregate-4", test_aggregate_4);
  ADD ("/metrics/gpu/not-supported", test_not_supported);
  ADD ("/metrics/gpu/lost", test_gpu_lost);
  ADD ("/metrics/gpu/core-refusals", test_core_refusals);
  ADD ("/metrics/gpu/round-cost", test_round_cost);
  return g_test_run ();
}
