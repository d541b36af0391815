/* Benchmark of the built-in metrics: loads every built-in plugin whose
 * initialisation succeeds on this machine, then calls every getter once per
 * sampling round for many rounds and prints the cost of one round.
 * Usage: bench-metrics [ROUNDS [breakdown]]  (MG_BUILD_ROOT names the build
 * tree; "breakdown" also prints the cost of each getter). */
#include <dlfcn.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "metrics-test-support.h"

typedef struct {
  const char *plugin;
  const char *getter;
  gboolean is_double;
  const char *custom_data;
} Getter;

static const Getter getters[] = {
  { "metrograph-cpu", "mg_cpu_time", TRUE, NULL },
  { "metrograph-cpu", "mg_cpu_user_time", TRUE, NULL },
  { "metrograph-cpu", "mg_cpu_system_time", TRUE, NULL },
  { "metrograph-cpu", "mg_cpu_voluntary_switches", FALSE, NULL },
  { "metrograph-cpu", "mg_cpu_involuntary_switches", FALSE, NULL },
  { "metrograph-cpu", "mg_cpu_loadavg", TRUE, NULL },
  { "metrograph-memory", "mg_memory_rss", FALSE, NULL },
  { "metrograph-memory", "mg_memory_node_percent", TRUE, NULL },
  { "metrograph-memory", "mg_memory_minor_faults", FALSE, NULL },
  { "metrograph-memory", "mg_memory_major_faults", FALSE, NULL },
  { "metrograph-io", "mg_io_rchar_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_wchar_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_read_bytes_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_write_bytes_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_syscr_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_syscw_rate", FALSE, NULL },
  { "metrograph-io", "mg_io_rchar_total", FALSE, NULL },
  { "metrograph-io", "mg_io_wchar_total", FALSE, NULL },
  { "metrograph-io", "mg_io_read_bytes_total", FALSE, NULL },
  { "metrograph-io", "mg_io_write_bytes_total", FALSE, NULL },
  { "metrograph-io", "mg_io_syscr_total", FALSE, NULL },
  { "metrograph-io", "mg_io_syscw_total", FALSE, NULL },
  { "metrograph-energy", "mg_energy_power", TRUE, NULL },
  { "metrograph-energy", "mg_energy_total", TRUE, NULL },
  { "metrograph-threads", "mg_threads_count", FALSE, NULL },
  { "metrograph-perf-sw", "mg_perf_seconds", TRUE, "task-clock" },
  { "metrograph-perf-sw", "mg_perf_count", FALSE, "page-faults" },
  { "metrograph-perf-sw", "mg_perf_count", FALSE, "context-switches" },
  { "metrograph-perf-sw", "mg_perf_count", FALSE, "cpu-migrations" },
  { "metrograph-perf-hw", "mg_perf_count", FALSE, "cycles" },
  { "metrograph-perf-hw", "mg_perf_count", FALSE, "instructions" },
  { "metrograph-perf-hw", "mg_perf_ratio", TRUE, "cycles/instructions" },
  { "metrograph-mpi", "mg_mpi_calls", FALSE, NULL },
  { "metrograph-mpi", "mg_mpi_sent", FALSE, NULL },
};

#define N_GETTERS G_N_ELEMENTS (getters)

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20000;
  /* A second argument "breakdown" also times each getter. */
  gboolean breakdown = argc > 2 && g_str_equal (argv[2], "breakdown");
  gpointer fns[N_GETTERS] = { 0 };
  GHashTable *status = g_hash_table_new (g_str_hash, g_str_equal);
  int active = 0;

  for (guint i = 0; i < N_GETTERS; i++)
    {
      const Getter *g = &getters[i];
      if (!g_hash_table_contains (status, g->plugin))
        {
          void *plugin = mg_test_load_plugin (g->plugin);
          int ok = mg_test_init_plugin (plugin, i) == 0;
          if (!ok)
            printf ("%-22s unavailable: %s\n", g->plugin, mg_test_plugin_error (NULL));
          g_hash_table_insert (status, (gpointer) g->plugin, ok ? plugin : NULL);
        }
      void *plugin = g_hash_table_lookup (status, g->plugin);
      if (plugin == NULL)
        continue;
      mg_test_set_custom_data (i, g->custom_data);
      fns[i] = mg_test_symbol (plugin, g->getter);
      active++;
    }

  /* Sample times 20 ms apart, as the sampler's default rate gives. The
   * rounds run in 10 batches: on a shared machine the best and median
   * batch say more than the mean, which other processes inflate. */
  struct timespec t = mg_test_now ();
  int failures = 0;
  gint64 spent[N_GETTERS] = { 0 };
  double batch_us[10];
  int per_batch = MAX (rounds / 10, 1);
  for (int b = 0; b < 10; b++)
    {
      gint64 start = g_get_monotonic_time ();
      for (int r = 0; r < per_batch; r++)
        {
          t.tv_nsec += 20000000;
          if (t.tv_nsec >= 1000000000)
            t.tv_sec++, t.tv_nsec -= 1000000000;
          for (guint i = 0; i < N_GETTERS; i++)
            {
              if (fns[i] == NULL)
                continue;
              struct timespec ts = t;
              uint64_t u;
              double d;
              gint64 before = breakdown ? g_get_monotonic_time () : 0;
              int res = getters[i].is_double ? ((MgTestDoubleGetter) fns[i]) (i, &ts, &d)
                                             : ((MgTestIntGetter) fns[i]) (i, &ts, &u);
              if (breakdown)
                spent[i] += g_get_monotonic_time () - before;
              failures += res != 0;
            }
        }
      batch_us[b] = (double) (g_get_monotonic_time () - start) / per_batch;
    }
  rounds = per_batch * 10;
  double mean = 0;
  for (int b = 0; b < 10; b++)
    mean += batch_us[b] / 10;
  qsort (batch_us, 10, sizeof batch_us[0], compare_doubles);
  for (guint i = 0; breakdown && i < N_GETTERS; i++)
    if (fns[i])
      printf ("  %-20s %-28s %6.2f us\n", getters[i].plugin + 11,
              getters[i].getter, (double) spent[i] / rounds);
  printf ("built-in metrics: %d getters in %u plugins active, %d rounds: "
          "%.2f us per round (median of 10 batches; best %.2f, mean %.2f; "
          "target < 50 us)%s\n",
          active, g_hash_table_size (status), rounds,
          (batch_us[4] + batch_us[5]) / 2, batch_us[0], mean,
          failures ? " - some getters failed" : "");
  g_hash_table_destroy (status);
  return failures ? 1 : 0;
}
