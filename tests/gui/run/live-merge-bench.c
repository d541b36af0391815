/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What one live refresh of the run view costs: P records of M metrics × N
 * samples, still running (as the records of a run in progress are), read
 * and merged the way MgRunSession merges them while the program runs.
 * Usage: bench-live-merge [P M N [ROUNDS [live]]] (default 64 40 4096 5:
 * a 64-process run with the built-in metrics' default set, its sample
 * slots full). Prints the median wall and CPU time of a live merge that
 * reads every record whole, of a refresh of the incremental live merge
 * (MgLiveMerge) after each record got REFRESH_SLOTS new slots, and, for
 * comparison (unless "live" is given), of the full merge the saved
 * profile gets. */
#include "mg-config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "profile/mg-merge.h"
#include "profile/mg-record-reader.h"
#include "session/mg-run-session.h"
#include "record-fixture.h"
#include "mg-test-common.h"

static gint64
cpu_now (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * G_USEC_PER_SEC + ru.ru_utime.tv_usec
         + ru.ru_stime.tv_usec;
}

static void
write_records (const char *dir, guint n_proc, guint n_metrics, guint n_samples)
{
  g_autofree double *values = g_new (double, n_metrics);

  for (guint p = 0; p < n_proc; p++)
    {
      g_autoptr (RecordFixture) r = record_fixture_new (1, n_metrics, n_samples);
      MgRecordHeader *h = record_fixture_header (r);
      g_autofree char *path = g_strdup_printf ("%s/node%u.%u.0.mgrec", dir, p / 16, 1000 + p);

      h->pid = 1000 + p;
      h->rank = p;
      g_snprintf (h->host, sizeof h->host, "node%u", p / 16);
      g_strlcpy (h->program, "/bin/bench", sizeof h->program);
      g_strlcpy (h->run_id, "bench", sizeof h->run_id);
      h->start_mono_ns = 1000000000LL + p * 1000LL;
      h->start_real_ns = 1700000000000000000LL + p * 1000LL;
      h->state = MG_RECORD_STATE_RUNNING;
      for (guint m = 0; m < n_metrics; m++)
        g_snprintf (record_fixture_metric (r, m)->id, MG_RECORD_ID_LEN, "metric_%u", m);
      for (guint k = 0; k < n_samples; k++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = sin (k * 0.01 + m) * (p + 1);
          record_fixture_add_sample (r, h->start_mono_ns + k * 20000000LL,
                                     h->start_mono_ns + (k + 1) * 20000000LL, values);
        }
      record_fixture_write (r, path);
    }
}


/* New slots per record between two refreshes: a 20 ms interval, two
 * refreshes a second. */
#define REFRESH_SLOTS 25

/* Every record of dir with n committed slots, as if the sampler had just
 * committed up to there. */
static void
set_committed (const char *dir, guint n)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      int fd = open (path, O_WRONLY | O_CLOEXEC);
      guint32 committed = n;

      if (fd < 0 || pwrite (fd, &committed, sizeof committed,
                            G_STRUCT_OFFSET (MgRecordHeader, n_samples)) != sizeof committed)
        g_error ("%s: %s", path, g_strerror (errno));
      close (fd);
    }
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Median of rounds, wall and CPU, in ms. */
static void
time_merges (const char *what, const char *dir, const MgMergeInput *input, guint rounds)
{
  g_autofree double *wall = g_new (double, rounds);
  g_autofree double *cpu = g_new (double, rounds);
  guint windows = 0;

  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr (GError) error = NULL;
      gint64 t = g_get_monotonic_time (), c = cpu_now ();
      g_autoptr (MgProfile) profile = mg_merge_records (dir, input, &error);

      if (profile == NULL)
        g_error ("%s: %s", what, error->message);
      wall[i] = (g_get_monotonic_time () - t) / 1e3;
      cpu[i] = (cpu_now () - c) / 1e3;
      windows = mg_profile_get_n_windows (profile);
    }
  qsort (wall, rounds, sizeof *wall, compare_doubles);
  qsort (cpu, rounds, sizeof *cpu, compare_doubles);
  printf ("%s: %.0f ms wall, %.0f ms CPU (median of %u; %u windows)\n", what, wall[rounds / 2],
          cpu[rounds / 2], rounds, windows);
}

/* Refreshes of one MgLiveMerge while the records grow: the first reads
 * them all (not counted), each next one REFRESH_SLOTS more slots each. */
static void
time_live_refreshes (const char *dir, MgMergeInput *input, guint n_samples, guint rounds)
{
  g_autofree double *wall = g_new (double, rounds);
  g_autofree double *cpu = g_new (double, rounds);
  g_autoptr (MgLiveMerge) live = mg_live_merge_new ();
  guint n0 = n_samples > rounds * REFRESH_SLOTS ? n_samples - rounds * REFRESH_SLOTS : 1;
  guint64 samples;
  guint windows;

  input->live = live;
  set_committed (dir, n0);
  g_object_unref (mg_merge_records (dir, input, NULL));
  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (MgProfile) profile = NULL;
      gint64 t, c;

      set_committed (dir, MIN (n0 + (i + 1) * REFRESH_SLOTS, n_samples));
      t = g_get_monotonic_time ();
      c = cpu_now ();
      profile = mg_merge_records (dir, input, &error);
      if (profile == NULL)
        g_error ("live refresh: %s", error->message);
      wall[i] = (g_get_monotonic_time () - t) / 1e3;
      cpu[i] = (cpu_now () - c) / 1e3;
    }
  mg_profile_builder_cache_get_reused (mg_live_merge_get_cache (live), &windows, &samples);
  input->live = NULL;
  set_committed (dir, n_samples);
  qsort (wall, rounds, sizeof *wall, compare_doubles);
  qsort (cpu, rounds, sizeof *cpu, compare_doubles);
  printf ("incremental live refresh (+%u slots per record): %.0f ms wall, %.0f ms CPU "
          "(median of %u; the last kept %u windows' aggregates and %" G_GUINT64_FORMAT
          " samples)\n", REFRESH_SLOTS, wall[rounds / 2], cpu[rounds / 2], rounds, windows,
          samples);
}

/* Only reading the records, the part of a merge that does not depend on
 * the samples kept. */
static void
time_reads (const char *dir, guint rounds)
{
  g_autofree double *wall = g_new (double, rounds);
  guint64 bytes = 0;

  for (guint i = 0; i < rounds; i++)
    {
      g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
      gint64 t = g_get_monotonic_time ();
      const char *name;

      while ((name = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          g_autoptr (MgRecordFile) r = mg_record_file_read (path, NULL);

          g_assert_nonnull (r);
          if (i == 0)
            bytes += (guint64) r->n_samples * r->stride;
        }
      wall[i] = (g_get_monotonic_time () - t) / 1e3;
    }
  qsort (wall, rounds, sizeof *wall, compare_doubles);
  printf ("reading the records alone (%.0f MB of samples): %.0f ms wall (median of %u)\n",
          bytes / 1e6, wall[rounds / 2], rounds);
}

int
main (int argc, char **argv)
{
  guint n_proc = argc > 3 ? atoi (argv[1]) : 64;
  guint n_metrics = argc > 3 ? atoi (argv[2]) : 40;
  guint n_samples = argc > 3 ? atoi (argv[3]) : 4096;
  guint rounds = argc > 4 ? MAX (atoi (argv[4]), 1) : 5;
  g_autofree char *dir = g_dir_make_tmp ("mg-bench-live-XXXXXX", NULL);
  g_autoptr (GPtrArray) metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) mg_metric_def_free);
  const char *cmd[] = { "bench", NULL };
  MgMergeInput input = { .metrics = metrics, .argv = cmd, .working_dir = "/", .run_id = "bench" };

  for (guint m = 0; m < n_metrics; m++)
    {
      MgMetricDef *def = mg_metric_def_new ();

      def->id = g_strdup_printf ("metric_%u", m);
      g_ptr_array_add (metrics, def);
    }
  write_records (dir, n_proc, n_metrics, n_samples);
  printf ("%u running records × %u metrics × %u samples\n", n_proc, n_metrics, n_samples);
  time_reads (dir, rounds);
  input.max_process_samples = MG_RUN_SESSION_LIVE_SAMPLES;
  time_merges ("live merge reading every record whole", dir, &input, rounds);
  time_live_refreshes (dir, &input, n_samples, rounds);
  input.max_process_samples = 0;
  if (argc <= 5 || strcmp (argv[5], "live") != 0)
    time_merges ("full merge", dir, &input, rounds);
  mg_test_remove_tree (dir);
  return 0;
}
