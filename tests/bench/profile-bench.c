/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profile benchmark: writes P records of M metrics × N samples into a
 * temporary folder, then times the merge, the save and the load of the
 * profile, and the JSON export. Usage: bench-profile [P M N]. */
#include "mg-config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "mg-export-json.h"
#include "mg-merge.h"
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

static void
write_records (const char *dir, guint n_proc, guint n_metrics, guint n_samples)
{
  g_autofree double *values = g_new (double, n_metrics);

  for (guint p = 0; p < n_proc; p++)
    {
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
        g_snprintf (test_record_metric (r, m)->id, MG_RECORD_ID_LEN, "metric_%u", m);
      for (guint k = 0; k < n_samples; k++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = sin (k * 0.01 + m) * (p + 1);
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

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  profile = mg_merge_records (records, &input, &error);
  if (profile == NULL)
    g_error ("merge: %s", error->message);
  printf ("merge: %s (%u windows)\n", seconds_since (t), mg_profile_get_n_windows (profile));

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  if (!mg_profile_save (profile, path, &error))
    g_error ("save: %s", error->message);
  g_stat (path, &st);
  printf ("save: %s (%.1f MB)\n", seconds_since (t), st.st_size / 1e6);

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  loaded = mg_profile_load (path, &error);
  if (loaded == NULL)
    g_error ("load: %s", error->message);
  printf ("load: %s\n", seconds_since (t));

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  if (!mg_export_json (loaded, json, &error))
    g_error ("export: %s", error->message);
  g_stat (json, &st);
  printf ("json export: %s (%.1f MB)\n", seconds_since (t), st.st_size / 1e6);

  mg_test_remove_tree (records);
  mg_test_remove_tree (dir);
  return 0;
}
