/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profile benchmark: writes P records of M metrics × N samples into a
 * temporary folder, then times the merge, the save and the load of the
 * profile, and the JSON export, with each step's peak memory and a verdict
 * on each goal of docs/profile-format.md. Usage: bench-profile [P M N].
 *
 * The records look like real ones, not like white noise (bench-synthetic.h). */
#include "mg-config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "profile/mg-export-json.h"
#include "profile/mg-merge.h"
#include "bench-synthetic.h"
#include "record-fixture.h"
#include "mg-test-common.h"

static gint64 cpu_start;

static gint64
cpu_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * G_USEC_PER_SEC + ru.ru_utime.tv_usec
         + ru.ru_stime.tv_usec;
}

/* Wall and CPU seconds: the machine may be shared, CPU time is steadier. */
static const char *
seconds_since (gint64 start)
{
  static char text[64];

  g_snprintf (text, sizeof text, "%.3f s wall, %.3f s CPU", (g_get_monotonic_time () - start) / 1e6,
              (cpu_now () - cpu_start) / 1e6);
  return text;
}

/* Peak resident memory since the last reset, in MB (VmHWM). */
static double
peak_mb (void)
{
  g_autofree char *status = NULL;
  const char *at;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      || (at = strstr (status, "VmHWM:")) == NULL)
    return NAN;
  return g_ascii_strtod (at + 6, NULL) / 1024.0;
}

/* Starts a new peak (Linux: 5 to clear_refs resets VmHWM). */
static void
reset_peak (void)
{
  g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
}

static const char *
verdict (gboolean met)
{
  return met ? "met" : "MISSED";
}

static void
write_records (const char *dir, guint n_proc, guint n_metrics, guint n_samples)
{
  g_autofree double *values = g_new (double, n_metrics);
  g_autofree double *totals = g_new (double, n_metrics);

  for (guint p = 0; p < n_proc; p++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (p);

      g_autoptr(TestRecord) r = test_record_new (1, n_metrics, n_samples);
      MgRecordHeader *h = test_record_header (r);
      g_autofree char *path = g_strdup_printf ("%s/node%u.%u.0.mgrec", dir, p / 16, 1000 + p);

      h->pid = 1000 + p;
      h->rank = p;
      g_snprintf (h->host, sizeof h->host, "node%u", p / 16);
      g_strlcpy (h->program, "/bin/bench", sizeof h->program);
      h->start_mono_ns = 1000000000LL + p * 1000LL;
      h->start_real_ns = 1700000000000000000LL + p * 1000LL;
      h->end_mono_ns = h->start_mono_ns + (gint64) n_samples * 20000000LL;
      h->state = MG_RECORD_STATE_EXITED;
      for (guint m = 0; m < n_metrics; m++)
        {
          g_snprintf (test_record_metric (r, m)->id, MG_RECORD_ID_LEN, "metric_%u", m);
          totals[m] = 0;
        }
      for (guint k = 0; k < n_samples; k++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = bench_synthetic_value (m, k, p, &totals[m], rand);
          test_record_add_sample (r, h->start_mono_ns + k * 20000000LL,
                                  h->start_mono_ns + (k + 1) * 20000000LL, values);
        }
      test_record_write (r, path);
    }
}


int
main (int argc, char **argv)
{
  guint n_proc = argc > 3 ? atoi (argv[1]) : 64;
  guint n_metrics = argc > 3 ? atoi (argv[2]) : 32;
  guint n_samples = argc > 3 ? atoi (argv[3]) : 4096;
  g_autofree char *dir = g_dir_make_tmp ("mg-bench-XXXXXX", NULL);
  g_autofree char *records = g_build_filename (dir, "records", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.mgprof", NULL);
  g_autofree char *json = g_build_filename (dir, "bench.json", NULL);
  g_autoptr(GPtrArray) metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autoptr(MgProfile) loaded = NULL;
  const char *cmd[] = { "bench", NULL };
  MgMergeInput input = { metrics, NULL, cmd, "/", 0, 0, NULL, 0 };
  GStatBuf st;
  gint64 t;
  double merge_s, load_s, size_mb, merge_peak, save_peak;

  g_mkdir (records, 0700);
  for (guint m = 0; m < n_metrics; m++)
    {
      MgMetricDef *def = mg_metric_def_new ();

      def->id = g_strdup_printf ("metric_%u", m);
      g_ptr_array_add (metrics, def);
    }
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  write_records (records, n_proc, n_metrics, n_samples);
  printf ("records: %u processes × %u metrics × %u samples written in %s\n", n_proc,
          n_metrics, n_samples, seconds_since (t));

  reset_peak ();
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  profile = mg_merge_records (records, &input, &error);
  if (profile == NULL)
    g_error ("merge: %s", error->message);
  merge_s = (g_get_monotonic_time () - t) / 1e6;
  printf ("merge: %s (%u windows), peak memory %.0f MB\n", seconds_since (t),
          mg_profile_get_n_windows (profile), merge_peak = peak_mb ());

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  if (!mg_profile_save (profile, path, &error))
    g_error ("save: %s", error->message);
  g_stat (path, &st);
  size_mb = st.st_size / 1e6;
  printf ("save: %s (%.1f MB, %.3f MB per process), peak memory %.0f MB\n", seconds_since (t),
          size_mb, size_mb / MAX (n_proc, 1), save_peak = peak_mb ());
  g_clear_object (&profile);

  reset_peak ();
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  loaded = mg_profile_load (path, &error);
  if (loaded == NULL)
    g_error ("load: %s", error->message);
  load_s = (g_get_monotonic_time () - t) / 1e6;
  printf ("load: %s, peak memory %.0f MB\n", seconds_since (t), peak_mb ());
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  for (guint p = 0; p < n_proc; p++)
    if (!mg_profile_read_process_series (loaded, p, &error))
      g_error ("series: %s", error->message);
  printf ("every process's series decoded: %s (%.2f ms per process)\n", seconds_since (t),
          (g_get_monotonic_time () - t) / 1e3 / MAX (n_proc, 1));

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  if (!mg_export_json (loaded, json, &error))
    g_error ("export: %s", error->message);
  g_stat (json, &st);
  printf ("json export: %s (%.1f MB)\n", seconds_since (t), st.st_size / 1e6);

  /* The goals are set for 1024 processes × 32 metrics × 4096 samples. */
  printf ("goal profile ≤ 256 MB: %s (%.1f MB)\n", verdict (size_mb <= 256), size_mb);
  printf ("goal peak memory ≤ 1024 MB: %s (merge %.0f MB, save %.0f MB)\n",
          verdict (MAX (merge_peak, save_peak) <= 1024), merge_peak, save_peak);
  printf ("goal merge ≤ 10 s: %s (%.2f s)\n", verdict (merge_s <= 10), merge_s);
  printf ("goal load ≤ 0.3 s: %s (%.3f s)\n", verdict (load_s <= 0.3), load_s);

  mg_test_remove_tree (records);
  mg_test_remove_tree (dir);
  return 0;
}
