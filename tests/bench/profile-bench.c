/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Profile benchmark: writes P records of M metrics × N samples into a
 * temporary folder, then times the merge, the save and the load of the
 * profile, and the JSON export, with each step's peak memory and a verdict
 * on each goal of docs/profile-format.md. Usage: bench-profile [P M N]
 * [--nodes K] [--single] [--stacks].
 *
 * With --single, the profile stores each process's own series at single
 * precision (--process-precision=single); the aggregates, and so the JSON
 * export and its SHA-256, are the same as without.
 *
 * With --nodes, the processes run on K nodes (consecutive ranks on one
 * node) and, after the direct merge, each node's records are reduced into
 * its node summary (metrograph --merge-node) and the front end merges the
 * K summaries: each node's time, the combination's time and peak memory,
 * and whether its JSON export is the direct merge's byte for byte.
 *
 * With --stacks, each record carries call stacks as an MPI rank's would
 * (issue 29 point 6): a few hundred distinct stacks of 20 to 40 frames,
 * most of them the same in every rank (BENCH_SHARED_STACKS) and some a
 * rank's own (BENCH_OWN_STACKS), one sample a slot; the profile is saved
 * a second time without its stacks member, for the size with and without
 * stacks against the goal (at most 25 % more), the loaded profile's first
 * stacks query (which decodes them: the load does not), with the heap it
 * adds, and one process's stack windows before that are timed, and with
 * --nodes the combined
 * profile's stacks are checked against the direct merge's.
 *
 * The JSON export's SHA-256 is printed (with --stacks the folded and pprof
 * exports' too), so that two builds of the merge can be checked to give
 * the same profile.
 *
 * The records look like real ones, not like white noise (bench-synthetic.h). */
#include "mg-config.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>

#include "profile/mg-export-folded.h"
#include "profile/mg-export-json.h"
#include "profile/mg-export-pprof.h"
#include "profile/mg-merge.h"
#include "profile/mg-node-summary.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-stack-builder.h"
#include "profile/mg-stack-pack.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stack-windows.h"
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

/* A figure of /proc/self/status in MB ("VmHWM:", "VmRSS:"). */
static double
status_mb (const char *field)
{
  g_autofree char *status = NULL;
  const char *at;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      || (at = strstr (status, field)) == NULL)
    return NAN;
  return g_ascii_strtod (at + strlen (field), NULL) / 1024.0;
}

/* What malloc has handed out and not had back, in MB: unlike the
 * resident size, not hidden by pages an earlier step freed. */
static double
heap_mb (void)
{
  struct mallinfo2 m = mallinfo2 ();
  return (m.uordblks + m.hblkhd) / 1e6;  /* big blocks are mapped apart */
}

/* Peak resident memory since the last reset, in MB (VmHWM). */
static double
peak_mb (void)
{
  return status_mb ("VmHWM:");
}

/* Starts a new peak (Linux: 5 to clear_refs resets VmHWM). Written in
 * place: g_file_set_contents would write a new file and rename it. */
static void
reset_peak (void)
{
  FILE *f = fopen ("/proc/self/clear_refs", "w");

  if (f == NULL || fputs ("5", f) < 0)
    g_printerr ("bench-profile: cannot reset the peak memory; peaks are since the start\n");
  if (f != NULL)
    fclose (f);
}

static const char *
verdict (gboolean met)
{
  return met ? "met" : "MISSED";
}

/* Process p's node: 16 processes a node, or n_nodes nodes of consecutive
 * ranks. */
static guint
node_of (guint p, guint n_proc, guint n_nodes)
{
  return n_nodes > 0 ? (guint) ((guint64) p * n_nodes / n_proc) : p / 16;
}

/* Stacks like an MPI solver's: BENCH_SHARED_STACKS the same in every
 * rank (main → solve → … → a kernel or an MPI call), BENCH_OWN_STACKS
 * each rank's own (the same paths through other lines), 20 to 40 frames,
 * the innermost three in libmpi for every third stack. */
enum {
  BENCH_SHARED_STACKS = 270,
  BENCH_OWN_STACKS = 30,
  BENCH_MAX_STACKS = 1024,
};
#define BENCH_PROG_START 0x400000ULL
#define BENCH_MPI_START 0x7f0000000000ULL

static guint
bench_stack (guint s, guint p, guint64 *pcs)
{
  guint depth = 20 + (s * 7) % 21;

  for (guint f = 0; f < depth; f++)
    {
      /* Outer frames shared by more stacks (s >> level), so that the stacks
       * form a tree as real call paths do. */
      guint outer = depth - 1 - f;
      guint64 node = s >> MIN (outer / 4, 8u);
      if (s % 3 == 0 && f < 3)
        pcs[f] = BENCH_MPI_START + 0x1000 + f * 0x400 + (s % 64) * 0x10;
      else
        pcs[f] = BENCH_PROG_START + 0x1000 + outer * 0x2000 + node * 0x20
                 + (s >= BENCH_SHARED_STACKS ? 0x100000 + p * 0x40 : 0);
    }
  return depth;
}

static void
add_bench_modules (MgRecordStacks *t)
{
  MgRecordModule *m = mg_record_stacks_modules (t);

  m[0] = (MgRecordModule) { .start = BENCH_PROG_START, .end = BENCH_PROG_START + 0x200000,
                            .load_bias = BENCH_PROG_START - 0x1000, .build_id_len = 4,
                            .build_id = { 1, 2, 3, 4 } };
  g_strlcpy (m[0].path, "/bin/bench", sizeof m[0].path);
  m[1] = (MgRecordModule) { .start = BENCH_MPI_START, .end = BENCH_MPI_START + 0x100000,
                            .load_bias = BENCH_MPI_START, .build_id_len = 4,
                            .build_id = { 5, 6, 7, 8 } };
  g_strlcpy (m[1].path, "/usr/lib/x86_64-linux-gnu/libmpi.so.40", sizeof m[1].path);
  t->n_modules = 2;
}

/* Sample k's stack: mostly the shared ones, the hot ones most often. */
static void
sample_stack (MgRecordStacks *t, guint p, GRand *rand)
{
  guint64 pcs[MG_RECORD_STACK_MAX_FRAMES];
  double u = g_rand_double (rand);
  guint s = g_rand_double (rand) < 0.9 ? (guint) (u * u * BENCH_SHARED_STACKS)
                                       : BENCH_SHARED_STACKS + (guint) (u * BENCH_OWN_STACKS);
  guint n = bench_stack (s, p, pcs);

  mg_record_stacks_add (t, pcs, n, 0);
}

static void
write_records (const char *dir, guint n_proc, guint n_metrics, guint n_samples, guint n_nodes,
               gboolean stacks)
{
  g_autofree double *values = g_new (double, n_metrics);
  g_autofree double *totals = g_new (double, n_metrics);

  for (guint p = 0; p < n_proc; p++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (p);
      /* Apart from the metrics' values, which stay those of a run without
       * stacks. */
      g_autoptr(GRand) stack_rand = g_rand_new_with_seed (1000000 + p);

      g_autoptr(RecordFixture) r = record_fixture_new_with_stacks (1, n_metrics, n_samples,
                                                                   stacks ? BENCH_MAX_STACKS : 0);
      MgRecordStacks *t = record_fixture_stacks (r);
      MgRecordHeader *h = record_fixture_header (r);
      guint node = node_of (p, n_proc, n_nodes);
      g_autofree char *path = g_strdup_printf ("%s/node%u.%u.0.mgrec", dir, node, 1000 + p);

      h->pid = 1000 + p;
      h->rank = p;
      g_snprintf (h->host, sizeof h->host, "node%u", node);
      g_strlcpy (h->program, "/bin/bench", sizeof h->program);
      h->start_mono_ns = 1000000000LL + p * 1000LL;
      h->start_real_ns = 1700000000000000000LL + p * 1000LL;
      h->end_mono_ns = h->start_mono_ns + (gint64) n_samples * 20000000LL;
      h->state = MG_RECORD_STATE_EXITED;
      for (guint m = 0; m < n_metrics; m++)
        {
          g_snprintf (record_fixture_metric (r, m)->id, MG_RECORD_ID_LEN, "metric_%u", m);
          totals[m] = 0;
        }
      if (t != NULL)
        add_bench_modules (t);
      for (guint k = 0; k < n_samples; k++)
        {
          for (guint m = 0; m < n_metrics; m++)
            values[m] = bench_synthetic_value (m, k, p, &totals[m], rand);
          if (t != NULL)
            {
              sample_stack (t, p, stack_rand);
              mg_record_stacks_drain (t, k);
            }
          record_fixture_add_sample (r, h->start_mono_ns + k * 20000000LL,
                                     h->start_mono_ns + (k + 1) * 20000000LL, values);
        }
      record_fixture_write (r, path);
    }
}
/* A file's SHA-256, to tell two builds' exports apart without keeping them. */
static char *
file_sha256 (const char *path)
{
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  if (file == NULL)
    return g_strdup ("(unreadable)");
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                      (const guchar *) g_mapped_file_get_contents (file),
                                      g_mapped_file_get_length (file));
}

static GBytes *
json_of (MgProfile *profile)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  if (!mg_export_json_to_stream (profile, out, &error)
      || !g_output_stream_close (out, NULL, &error))
    g_error ("export: %s", error->message);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* Each node's records into its summary, then the summaries merged: times,
 * sizes, peak memory, and the JSON export against the direct merge's. */
static void
bench_nodes (const char *records, guint n_proc, guint n_nodes, const MgMergeInput *input,
             GBytes *direct_json, GVariant *direct_stacks, double direct_s)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) combined = NULL;
  g_autoptr (GBytes) json = NULL;
  double slowest = 0, total = 0, total_cpu = 0, size_mb = 0, combine_s;
  gint64 t;

  /* What the earlier steps left resident (freed heap the allocator
   * keeps): the peaks below include it. */
  printf ("resident before the node steps: %.0f MB\n", status_mb ("VmRSS:"));
  reset_peak ();
  for (guint node = 0; node < n_nodes; node++)
    {
      g_autofree char *host = g_strdup_printf ("node%u", node);
      g_autofree char *name = mg_node_summary_file_name (host);
      g_autofree char *file = g_build_filename (records, name, NULL);
      MgNodeSummaryStats stats;
      GStatBuf st;
      double s;

      t = g_get_monotonic_time ();
      cpu_start = cpu_now ();
      if (!mg_node_summary_merge (records, host, &stats, &error))
        g_error ("merge-node: %s", error->message);
      s = (g_get_monotonic_time () - t) / 1e6;
      total += s;
      total_cpu += (cpu_now () - cpu_start) / 1e6;
      slowest = MAX (slowest, s);
      g_stat (file, &st);
      size_mb += st.st_size / 1e6;
    }
  printf ("merge-node: %u nodes of %u processes, %.3f s wall a node on average (slowest %.3f "
          "s), %.3f s CPU a node, peak memory %.0f MB; summaries %.1f MB in all\n", n_nodes,
          n_proc / MAX (n_nodes, 1), total / MAX (n_nodes, 1), slowest,
          total_cpu / MAX (n_nodes, 1), peak_mb (), size_mb);

  reset_peak ();
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  combined = mg_merge_records (records, input, &error);
  if (combined == NULL)
    g_error ("combine: %s", error->message);
  combine_s = (g_get_monotonic_time () - t) / 1e6;
  printf ("combine: %s, peak memory %.0f MB (direct merge %.3f s wall)\n", seconds_since (t),
          peak_mb (), direct_s);
  json = json_of (combined);
  printf ("combined profile: JSON export %s the direct merge's\n",
          g_bytes_equal (json, direct_json) ? "identical to" : "DIFFERENT from");
  if (direct_stacks != NULL)
    {
      g_autoptr (GVariant) procs = g_variant_get_child_value (combined->stacks, 1);
      printf ("combined profile: stacks (%u processes) %s the direct merge's\n",
              (guint) g_variant_n_children (procs),
                g_variant_equal (combined->stacks, direct_stacks) ? "identical to"
                                                                 : "DIFFERENT from");
    }
  printf ("nodes in parallel, then combine: %.2f s wall (slowest node + combine)\n",
          slowest + combine_s);
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) numbers = g_ptr_array_new ();
  guint n_nodes = 0;
  gboolean stacks = FALSE;
  g_autoptr (GVariant) direct_stacks = NULL;
  double no_stacks_mb = 0;
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
  g_autoptr (GBytes) direct_json = NULL;
  g_autofree char *json_sha256 = NULL;
  guint n_proc, n_metrics, n_samples;

  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--nodes") == 0 && i + 1 < argc)
      n_nodes = atoi (argv[++i]);
    else if (strcmp (argv[i], "--single") == 0)
      input.process_precision = MG_PROCESS_PRECISION_SINGLE;
    else if (strcmp (argv[i], "--stacks") == 0)
      stacks = TRUE;
    else
      g_ptr_array_add (numbers, argv[i]);
  n_proc = numbers->len >= 3 ? atoi (g_ptr_array_index (numbers, 0)) : 64;
  n_metrics = numbers->len >= 3 ? atoi (g_ptr_array_index (numbers, 1)) : 32;
  n_samples = numbers->len >= 3 ? atoi (g_ptr_array_index (numbers, 2)) : 4096;
  n_nodes = MIN (n_nodes, n_proc);
  g_mkdir (records, 0700);
  for (guint m = 0; m < n_metrics; m++)
    {
      MgMetricDef *def = mg_metric_def_new ();

      def->id = g_strdup_printf ("metric_%u", m);
      g_ptr_array_add (metrics, def);
    }
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  write_records (records, n_proc, n_metrics, n_samples, n_nodes, stacks);
  printf ("records: %u processes × %u metrics × %u samples%s written in %s\n", n_proc,
          n_metrics, n_samples, stacks ? " with call stacks" : "", seconds_since (t));

  reset_peak ();
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  profile = mg_merge_records (records, &input, &error);
  if (profile == NULL)
    g_error ("merge: %s", error->message);
  merge_s = (g_get_monotonic_time () - t) / 1e6;
  printf ("merge: %s (%u windows), peak memory %.0f MB, resident after it %.0f MB\n",
          seconds_since (t), mg_profile_get_n_windows (profile), merge_peak = peak_mb (),
          status_mb ("VmRSS:"));
  if (n_nodes > 0)
    direct_json = json_of (profile);
  if (stacks)
    direct_stacks = g_variant_ref (profile->stacks);

  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  if (!mg_profile_save (profile, path, &error))
    g_error ("save: %s", error->message);
  g_stat (path, &st);
  size_mb = st.st_size / 1e6;
  printf ("save: %s (%.1f MB, %.3f MB per process, %s precision), peak memory %.0f MB\n",
          seconds_since (t), size_mb, size_mb / MAX (n_proc, 1),
          mg_process_precision_to_keyword (input.process_precision), save_peak = peak_mb ());
  if (stacks)
    {
      /* The same profile without its stacks: what they add. */
      g_autofree char *bare = g_build_filename (dir, "bare.mgprof", NULL);
      g_autoptr (GVariant) kept = g_steal_pointer (&profile->stacks);
      g_autoptr (GVariant) procs = g_variant_get_child_value (kept, 1);
      guint64 n_stacks = 0;

      /* What one stack table for the whole run would hold: each distinct
       * stack once, whichever ranks sampled it. */
      g_autoptr (GHashTable) distinct = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                               (GDestroyNotify) g_bytes_unref,
                                                               NULL);
      guint64 distinct_bytes = 0, rest_bytes = 0;

      for (gsize i = 0; i < g_variant_n_children (procs); i++)
        {
          g_autoptr (GVariant) proc = g_variant_get_child_value (procs, i);
          g_autoptr (GVariant) list = g_variant_get_child_value (proc, 4);
          n_stacks += g_variant_n_children (list);
          for (gsize k = 0; k < g_variant_n_children (list); k++)
            {
              g_autoptr (GVariant) one = g_variant_get_child_value (list, k);
              GBytes *data = g_variant_get_data_as_bytes (one);
              if (g_hash_table_add (distinct, data))
                distinct_bytes += g_bytes_get_size (data);
            }
          for (gsize k = 5; k < 8; k++)
            {
              g_autoptr (GVariant) part = g_variant_get_child_value (proc, k);
              rest_bytes += g_variant_get_size (part);
            }
        }
      printf ("stacks: %u distinct across the run (%.1f MB); with one table for the run the "
              "member would be about %.1f MB (windows and counts %.1f MB)\n",
              g_hash_table_size (distinct), distinct_bytes / 1e6,
              (distinct_bytes + rest_bytes) / 1e6, rest_bytes / 1e6);
      profile->stacks = mg_stack_payload_empty ();
      if (!mg_profile_save (profile, bare, &error))
        g_error ("save: %s", error->message);
      g_stat (bare, &st);
      no_stacks_mb = st.st_size / 1e6;
      g_unlink (bare);
      g_autoptr (GVariant) stored = mg_stack_pack (kept);
      printf ("stacks: %" G_GUINT64_FORMAT " stacks in %u processes (%.0f a process), "
              "%.1f MB unpacked, stacks member %.1f MB as stored; profile %.1f MB with stacks, "
              "%.1f MB without (+%.1f %%)\n",
              n_stacks, (guint) g_variant_n_children (procs),
              (double) n_stacks / MAX (g_variant_n_children (procs), 1),
              g_variant_get_size (kept) / 1e6, g_variant_get_size (stored) / 1e6, size_mb,
              no_stacks_mb,
              100.0 * (size_mb - no_stacks_mb) / no_stacks_mb);
      /* Format 6 stored the member unpacked: the same run side by side. */
      double unpacked_mb = size_mb + (g_variant_get_size (kept) - g_variant_get_size (stored)) / 1e6;
      printf ("stacks: stored unpacked (format 6's layout) the profile would be %.1f MB (+%.1f %%)\n",
              unpacked_mb, 100.0 * (unpacked_mb - no_stacks_mb) / no_stacks_mb);
    }
  g_clear_object (&profile);

  reset_peak ();
  double rss_before = status_mb ("VmRSS:"), heap_before = heap_mb ();
  t = g_get_monotonic_time ();
  cpu_start = cpu_now ();
  loaded = mg_profile_load (path, &error);
  if (loaded == NULL)
    g_error ("load: %s", error->message);
  load_s = (g_get_monotonic_time () - t) / 1e6;
  /* Timed before mallinfo2, which walks the heap. */
  g_autofree char *load_time = g_strdup (seconds_since (t));
  printf ("load: %s, peak memory %.0f MB (%.0f MB resident before), heap %+.1f MB\n",
          load_time, peak_mb (), rss_before, heap_mb () - heap_before);
  if (stacks)
    {
      /* The stacks are decoded by the first query that needs them. */
      reset_peak ();
      rss_before = status_mb ("VmRSS:");
      heap_before = heap_mb ();
      t = g_get_monotonic_time ();
      cpu_start = cpu_now ();
      g_autoptr (MgStackSet) first = mg_stack_set_new (loaded, -1, -INFINITY, INFINITY);
      g_autofree char *first_time = g_strdup (seconds_since (t));
      printf ("first stacks query (every process, the whole run: %u stacks): %s, "
              "peak memory %.0f MB (%.0f MB resident before), heap %+.1f MB (the decoded "
              "stacks and the set)\n",
              mg_stack_set_get_n_stacks (first), first_time, peak_mb (), rss_before,
              heap_mb () - heap_before);
      /* A window shows one process's thread activity: that process alone. */
      g_autoptr (MgProfile) again = mg_profile_load (path, &error);
      if (again == NULL)
        g_error ("load: %s", error->message);
      t = g_get_monotonic_time ();
      cpu_start = cpu_now ();
      g_autoptr (MgStackWindows) one = mg_stack_windows_new (again, 0);
      printf ("one process's stack windows (%u counts) before the stacks are decoded: %s\n",
              mg_stack_windows_get_n_counts (one), seconds_since (t));
      printf ("stacks read back %s the merge's\n",
              g_variant_equal (mg_profile_peek_stacks (loaded), direct_stacks)
                ? "identical to" : "DIFFERENT FROM");
    }
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
  printf ("json export's SHA-256 (the same before and after a change to the merge): %s\n",
          json_sha256 = file_sha256 (json));
  if (stacks)
    {
      /* The stack exports too: a change to how the merge holds stacks
       * must not change them. */
      g_autofree char *folded = g_build_filename (dir, "bench.folded", NULL);
      g_autofree char *pprof = g_build_filename (dir, "bench.pb.gz", NULL);
      g_autofree char *folded_sha256 = NULL, *pprof_sha256 = NULL;

      t = g_get_monotonic_time ();
      cpu_start = cpu_now ();
      if (!mg_export_folded (loaded, folded, NULL, -INFINITY, INFINITY, NULL, &error)
          || !mg_export_pprof (loaded, pprof, NULL, -INFINITY, INFINITY, NULL, &error))
        g_error ("export: %s", error->message);
      printf ("folded and pprof exports: %s\n", seconds_since (t));
      printf ("folded export's SHA-256: %s\npprof export's SHA-256: %s\n",
              folded_sha256 = file_sha256 (folded), pprof_sha256 = file_sha256 (pprof));
      g_unlink (folded);
      g_unlink (pprof);
    }

  /* The goals are set for 1024 processes × 32 metrics × 4096 samples. */
  printf ("goal profile ≤ 256 MB: %s (%.1f MB)\n", verdict (size_mb <= 256), size_mb);
  printf ("goal peak memory ≤ 1024 MB: %s (merge %.0f MB, save %.0f MB)\n",
          verdict (MAX (merge_peak, save_peak) <= 1024), merge_peak, save_peak);
  printf ("goal merge ≤ 10 s: %s (%.2f s)\n", verdict (merge_s <= 10), merge_s);
  printf ("goal load ≤ 0.3 s: %s (%.3f s)\n", verdict (load_s <= 0.3), load_s);
  if (stacks)
    printf ("goal stacks add ≤ 25 %% to the profile: %s (+%.1f %%)\n",
            verdict (size_mb <= 1.25 * no_stacks_mb),
            100.0 * (size_mb - no_stacks_mb) / no_stacks_mb);

  g_clear_object (&loaded);
  if (n_nodes > 0)
    bench_nodes (records, n_proc, n_nodes, &input, direct_json, direct_stacks, merge_s);

  mg_test_remove_tree (records);
  mg_test_remove_tree (dir);
  return 0;
}
