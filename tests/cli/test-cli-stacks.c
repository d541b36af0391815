/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Call stacks end to end: metrograph --profile runs the stack workload
 * (tests/fixtures/cli/mg-stacks-workload.c, -O2 -fomit-frame-pointer),
 * --export=FILE.folded writes its stacks with their functions' names
 * (app/symbols), which the tests read directly. */
#include "mg-config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli-harness.h"
#include "profile/mg-export-folded.h"
#include "profile/mg-profile.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-profile-threads.h"
#include "profile/mg-stack-set.h"
#include "symbols/mg-symbolizer.h"

typedef CliTestFolder Fixture;

#define WORKLOAD_NAME "mg-stacks-workload"

#define assert_status(run, expected)                                                  \
  G_STMT_START                                                                        \
  {                                                                                   \
    if ((run)->status != (expected))                                                  \
      g_error ("metrograph exited with %d, expected %d; stderr:\n%s", (run)->status,   \
               (int) (expected), (run)->err);                                         \
  }                                                                                   \
  G_STMT_END

static char *
workload_path (void)
{
  return cli_test_build_path ("tests/cli/" WORKLOAD_NAME);
}

/* The leaf frame of a folded line: its function, named by the export. */
static const char *
leaf_function (const char *stack)
{
  const char *leaf = strrchr (stack, ';');
  return leaf != NULL ? leaf + 1 : stack;
}

/* Whether a folded line has a frame named fn. */
static gboolean
has_frame_in (const char *stack, const char *fn)
{
  g_auto (GStrv) frames = g_strsplit (stack, ";", -1);
  return g_strv_contains ((const char *const *) frames, fn);
}

/* The folded file as leaf function → count; *total gets every line's. */
static GHashTable *
read_folded (const char *path, guint64 *total, guint *n_lines)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  GHashTable *by_leaf = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  *total = 0;
  *n_lines = 0;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      /* "frame;frame;… COUNT", the count after the last space. */
      char *space = strrchr (lines[i], ' ');
      g_assert_nonnull (space);
      char *end;
      guint64 count = g_ascii_strtoull (space + 1, &end, 10);
      g_assert_cmpint (*end, ==, '\0');
      g_assert_cmpuint (count, >, 0);
      *space = '\0';
      g_assert_null (strchr (lines[i], ' '));
      *total += count;
      (*n_lines)++;
      /* Whole stacks: from main (through the workload's frames). */
      if (has_frame_in (lines[i], "main"))
        {
          guint64 *in_main = g_hash_table_lookup (by_leaf, "(through main)");
          if (in_main == NULL)
            g_hash_table_insert (by_leaf, g_strdup ("(through main)"),
                                 in_main = g_new0 (guint64, 1));
          *in_main += count;
        }
      const char *fn = leaf_function (lines[i]);
      guint64 *sum = g_hash_table_lookup (by_leaf, fn);
      if (sum == NULL)
        g_hash_table_insert (by_leaf, g_strdup (fn), sum = g_new0 (guint64, 1));
      *sum += count;
    }
  return by_leaf;
}

static guint64
count_of (GHashTable *by_leaf, const char *fn)
{
  guint64 *sum = g_hash_table_lookup (by_leaf, fn);
  return sum != NULL ? *sum : 0;
}

/* The count of the summary's "metrograph: N call-stack samples" line. */
static guint64
said_stack_samples (const char *err)
{
  guint64 taken = 0;
  int end = 0;

  for (const char *line = strstr (err, "metrograph: "); line != NULL;
       line = strstr (line + 1, "metrograph: "))
    if (sscanf (line, "metrograph: %" G_GUINT64_FORMAT " call-stack samples%n", &taken, &end) == 1
        && end > 0)
      return taken;
  g_error ("no line “metrograph: N call-stack samples” in stderr:\n%s", err);
}

/* metrograph --profile [options] WORKLOAD args…, then the folded export. */
static void
profile_and_export (Fixture *f, const char *const *options, const char *const *workload_args,
                    const char *const *env, CliTestRun **profile_run)
{
  g_autofree char *workload = workload_path ();
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_ptr_array_add (args, (gpointer) "--profile");
  g_ptr_array_add (args, (gpointer) "-o");
  g_ptr_array_add (args, (gpointer) "run.mgprof");
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) options[i]);
  g_ptr_array_add (args, workload);
  for (guint i = 0; workload_args[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) workload_args[i]);
  g_ptr_array_add (args, NULL);
  *profile_run = cli_test_run_with_env (f->dir, (const char *const *) args->pdata, env);

  const char *export[] = { "--export=run.folded", "run.mgprof", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, export);
  assert_status (run, 0);
}

/* a() takes three times the CPU time of b(): 75 % of their samples. */
static void
test_split (Fixture *f, gconstpointer data)
{
  const char *options[] = { "--interval=2", NULL };
  const char *args[] = { "split", "6", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total;
  guint n_lines;

  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->err, "call-stack samples"));
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  guint64 a = count_of (by_leaf, "a"), b = count_of (by_leaf, "b");
  g_test_message ("a %" G_GUINT64_FORMAT ", b %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
                  a, b, total);
  /* 6 s of CPU time at a 2 ms interval (the kernel's tick may make it 4):
   * about 1200 samples, a binomial spread of 1.3 points; a loaded machine
   * loses up to half (4 s gave 259 beside eight builds), 300 keep the
   * spread under 2.5 points. */
  g_assert_cmpuint (a + b, >=, 300);
  double share = 100.0 * (double) a / (double) (a + b);
  g_assert_cmpfloat_with_epsilon (share, 75.0, 5.0);
  /* The walk goes through .eh_frame (no frame pointers) up to main, past
   * the workload's own frames: nearly every sample's stack reaches it,
   * named: "…;main;split;a" (split inlined in main, its own frame). */
  guint64 through_main = count_of (by_leaf, "(through main)");
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " stacks reach main",
                  through_main, total);
  g_assert_cmpfloat (100.0 * (double) through_main / (double) total, >=, 90.0);
}

/* The share of the report line that starts with prefix in the section
 * under heading (text report), or -1 when there is none. */
static double
report_share (const char *text, const char *heading, const char *prefix)
{
  const char *section = strstr (text, heading);
  if (section == NULL)
    return -1;
  g_auto (GStrv) lines = g_strsplit (section, "\n", -1);
  /* Line 0 the heading, 1 its underline; the next underline ends it. */
  for (guint i = 2; lines[i] != NULL; i++)
    {
      if (lines[i + 1] != NULL && g_str_has_prefix (lines[i + 1], "---"))
        break;
      const char *name = lines[i];
      while (*name == ' ')
        name++;
      if (name == lines[i] || !g_str_has_prefix (name, prefix))
        continue;
      const char *pc = strstr (name, " %");
      g_assert_nonnull (pc);
      while (pc > name && pc[-1] != ' ')
        pc--;
      return g_ascii_strtod (pc, NULL);
    }
  return -1;
}

/* The report's "Where the time went": a() has 75 % of the samples by
 * self time, named with its file and line; main and split are in every
 * stack (total); the same in the HTML report and in the report written at
 * the run's end. */
static void
test_report_where (Fixture *f, gconstpointer data)
{
  const char *options[] = { "--interval=2", "--report=end.txt", NULL };
  const char *args[] = { "split", "4", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *html = NULL, *at_end = NULL;
  g_autofree char *html_path = g_build_filename (f->dir, "r.html", NULL);
  g_autofree char *end_path = g_build_filename (f->dir, "end.txt", NULL);

  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  const char *text_args[] = { "--report=-", "run.mgprof", NULL };
  const char *html_args[] = { "--report=r.html", "run.mgprof", NULL };
  g_autoptr (CliTestRun) text = cli_test_run (f->dir, text_args);
  g_autoptr (CliTestRun) written = cli_test_run (f->dir, html_args);
  assert_status (text, 0);
  assert_status (written, 0);
  g_test_message ("%s", strstr (text->out, "Where the time went"));
  const char *self = "Where the time went: self", *total = "Where the time went: total";
  double a = report_share (text->out, self, "a (mg-stacks-workload.c:");
  double b = report_share (text->out, self, "b (mg-stacks-workload.c:");
  g_assert_cmpfloat_with_epsilon (a, 75.0, 5.0);
  g_assert_cmpfloat_with_epsilon (a + b, 100.0, 1.0);
  /* The self section names no caller; the total one has main above all. */
  g_assert_cmpfloat (report_share (text->out, self, "main ("), <, 0);
  g_assert_cmpfloat (report_share (text->out, total, "main (mg-stacks-workload.c:"), >=, 90.0);
  g_assert_cmpfloat_with_epsilon (report_share (text->out, total, "a (mg-stacks-workload.c:"),
                                  a, 0.05);
  g_assert_true (g_file_get_contents (html_path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "Where the time went: self"));
  g_assert_nonnull (strstr (html, "a (mg-stacks-workload.c:"));
  /* The report written at the run's end names them too. */
  g_assert_true (g_file_get_contents (end_path, &at_end, NULL, NULL));
  g_assert_cmpfloat (report_share (at_end, self, "a (mg-stacks-workload.c:"), ==, a);
}

/* The text of `protoc --decode` of a pprof file: per sample its leaf
 * function's name and whether main is in its stack, summed by leaf name
 * ("(through main)" for the latter), *total the samples. */
static GHashTable *
read_pprof_text (const char *text, guint64 *total)
{
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) function_name = g_hash_table_new (NULL, NULL);   /* id → string index */
  g_autoptr (GHashTable) location_lines = g_hash_table_new_full (NULL, NULL, NULL,
                                                                 (GDestroyNotify) g_array_unref);
  g_autoptr (GPtrArray) samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  char block[32] = "";
  guint64 id = 0, function_id = 0;
  GArray *current = NULL; /* the location's function ids, or the sample's location ids + value */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      guint64 v;
      if (l[0] != ' ' && g_str_has_suffix (l, " {"))
        {
          g_strlcpy (block, l, MIN (sizeof block, strlen (l) - 1));
          id = 0;
          current = g_array_new (FALSE, FALSE, sizeof (guint64));
          if (strcmp (block, "sample") == 0)
            g_ptr_array_add (samples, current);
          else if (strcmp (block, "location") != 0)
            g_clear_pointer (&current, g_array_unref);
        }
      else if (g_str_has_prefix (l, "string_table: \"") && g_str_has_suffix (l, "\""))
        {
          /* C-escaped between the quotes. */
          g_autofree char *quoted = g_strndup (l + strlen ("string_table: \""),
                                               strlen (l) - strlen ("string_table: \"\""));
          g_ptr_array_add (strings, g_strcompress (quoted));
        }
      else if (sscanf (l, "  id: %" G_GUINT64_FORMAT, &v) == 1)
        {
          id = v;
          if (strcmp (block, "location") == 0)
            g_hash_table_insert (location_lines, GSIZE_TO_POINTER (id), current);
        }
      else if (sscanf (l, "  name: %" G_GUINT64_FORMAT, &v) == 1 && strcmp (block, "function") == 0)
        g_hash_table_insert (function_name, GSIZE_TO_POINTER (id), GSIZE_TO_POINTER (v));
      else if (sscanf (l, "    function_id: %" G_GUINT64_FORMAT, &function_id) == 1 && current)
        g_array_append_val (current, function_id);
      else if ((sscanf (l, "  location_id: %" G_GUINT64_FORMAT, &v) == 1
                || sscanf (l, "  value: %" G_GUINT64_FORMAT, &v) == 1) && current)
        g_array_append_val (current, v);
    }
  GHashTable *by_leaf = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  *total = 0;
  for (guint k = 0; k < samples->len; k++)
    {
      GArray *sample = g_ptr_array_index (samples, k);
      g_assert_cmpuint (sample->len, >=, 2);
      guint64 count = g_array_index (sample, guint64, sample->len - 1);
      *total += count;
      gboolean through_main = FALSE;
      const char *leaf = NULL;
      for (guint j = 0; j + 1 < sample->len; j++)
        {
          GArray *fns = g_hash_table_lookup (location_lines,
                                             GSIZE_TO_POINTER (g_array_index (sample, guint64, j)));
          g_assert_nonnull (fns);
          g_assert_cmpuint (fns->len, >, 0);
          for (guint f = 0; f < fns->len; f++)
            {
              gpointer name = g_hash_table_lookup (function_name,
                                                   GSIZE_TO_POINTER (g_array_index (fns, guint64, f)));
              g_assert_cmpuint (GPOINTER_TO_SIZE (name), <, strings->len);
              const char *fn = g_ptr_array_index (strings, GPOINTER_TO_SIZE (name));
              /* The leaf: the first location's first (innermost) line. */
              if (j == 0 && f == 0)
                leaf = fn;
              through_main |= strcmp (fn, "main") == 0;
            }
        }
      const char *keys[] = { leaf, through_main ? "(through main)" : NULL };
      for (guint j = 0; j < G_N_ELEMENTS (keys); j++)
        if (keys[j] != NULL)
          {
            guint64 *sum = g_hash_table_lookup (by_leaf, keys[j]);
            if (sum == NULL)
              g_hash_table_insert (by_leaf, g_strdup (keys[j]), sum = g_new0 (guint64, 1));
            *sum += count;
          }
    }
  return by_leaf;
}

/* The text of `protoc --decode` of a pprof file: the samples summed by
 * their "thread" label's string; ordinals gets each one's
 * "thread_ordinal" label. */
static GHashTable *
read_pprof_threads (const char *text, GHashTable *ordinals)
{
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "string_table: \""))
      {
        g_autofree char *quoted = g_strndup (lines[i] + 15, strlen (lines[i]) - 16);
        g_ptr_array_add (strings, g_strcompress (quoted));
      }
  GHashTable *by_thread = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint64 value = 0, key = 0, v;
  gint64 str = -1, num = -1;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      if (strcmp (l, "sample {") == 0)
        value = 0, str = -1, num = -1;
      else if (g_str_has_prefix (l, "  value: "))
        value = g_ascii_strtoull (l + 9, NULL, 10);
      else if (sscanf (l, "    key: %" G_GUINT64_FORMAT, &v) == 1)
        {
          key = v;
          /* proto3's text leaves out a number that is 0. */
          if (strcmp (g_ptr_array_index (strings, key), "thread_ordinal") == 0)
            num = 0;
        }
      else if (sscanf (l, "    str: %" G_GUINT64_FORMAT, &v) == 1
               && strcmp (g_ptr_array_index (strings, key), "thread") == 0)
        str = (gint64) v;
      else if (sscanf (l, "    num: %" G_GUINT64_FORMAT, &v) == 1
               && strcmp (g_ptr_array_index (strings, key), "thread_ordinal") == 0)
        num = (gint64) v;
      else if (strcmp (l, "}") == 0 && str >= 0)
        {
          const char *name = g_ptr_array_index (strings, str);
          guint64 *sum = g_hash_table_lookup (by_thread, name);
          if (sum == NULL)
            g_hash_table_insert (by_thread, g_strdup (name), sum = g_new0 (guint64, 1));
          *sum += value;
          g_hash_table_insert (ordinals, g_strdup (name), GINT_TO_POINTER ((int) num));
          str = -1;
        }
    }
  return by_thread;
}

/* --export=FILE.pb.gz: pprof's format, gzip'd, read back by protoc
 * (Debian's protobuf-compiler) with our own schema of its fields: a()'s
 * share by leaf as in the folded export, every stack through main, the
 * same sample count. */
static void
test_pprof (Fixture *f, gconstpointer data)
{
  g_autofree char *protoc = g_find_program_in_path ("protoc");
  if (protoc == NULL)
    {
      g_test_skip ("protoc is not installed (scripts/install-deps installs protobuf-compiler)");
      return;
    }
  const char *options[] = { "--interval=2", NULL };
  const char *args[] = { "split", "4", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  const char *export[] = { "--export=run.pb.gz", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);

  g_autofree char *schema_dir = g_test_build_filename (G_TEST_DIST, "fixtures", "cli", NULL);
  g_autofree char *command = g_strdup_printf (
    "gzip -dc run.pb.gz | protoc --decode=mgtest.Profile -I '%s' '%s/pprof-profile.proto'",
    schema_dir, schema_dir);
  const char *argv[] = { "sh", "-c", command, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;
  g_spawn_sync (f->dir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("protoc could not read the export: %s", err);
  guint64 total, folded_total;
  guint n_lines;
  g_autoptr (GHashTable) by_leaf = read_pprof_text (out, &total);
  g_autoptr (GHashTable) folded_by_leaf = read_folded (folded, &folded_total, &n_lines);
  guint64 a = count_of (by_leaf, "a"), b = count_of (by_leaf, "b");
  g_test_message ("pprof: a %" G_GUINT64_FORMAT ", b %" G_GUINT64_FORMAT " of %"
                  G_GUINT64_FORMAT, a, b, total);
  g_assert_cmpuint (total, ==, folded_total);
  g_assert_cmpuint (a, ==, count_of (folded_by_leaf, "a"));
  g_assert_cmpuint (a + b, >=, 400);
  g_assert_cmpfloat_with_epsilon (100.0 * (double) a / (double) (a + b), 75.0, 5.0);
  g_assert_cmpfloat (100.0 * (double) count_of (by_leaf, "(through main)") / (double) total, >=,
                     90.0);
  g_assert_nonnull (strstr (out, "string_table: \"samples\""));
}

/* 16 threads, each busy in a function of its own: each is in the stacks. */
static void
test_threads (Fixture *f, gconstpointer data)
{
  const char *args[] = { "threads", "16", "0.25", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total;
  guint n_lines;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  for (int i = 0; i < 16; i++)
    {
      g_autofree char *fn = g_strdup_printf ("thread_%d", i);
      if (count_of (by_leaf, fn) == 0)
        g_error ("no stack of thread %d (%s) in:\n%s", i, fn, folded);
    }
}

/* --no-stacks: nothing sampled, nothing exported, nothing said. */
static void
test_no_stacks (Fixture *f, gconstpointer data)
{
  const char *options[] = { "--no-stacks", NULL };
  const char *args[] = { "split", "0.3", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *text = NULL;

  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "call-stack"));
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "");
}

/* Threads blocked in read, nanosleep, poll, sem_wait and
 * pthread_cond_wait for the whole run never see EINTR (the workload exits
 * 3 if one does), while the busy thread is sampled. */
static void
test_no_eintr (Fixture *f, gconstpointer data)
{
  const char *args[] = { "blocking", "1.5", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total;
  guint n_lines;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "EINTR"));
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  g_assert_cmpuint (total, >, 0);
}

/* The program installs its own handler for the sampler's signal: stacks
 * stop, the program gets exactly the signal it sent itself, and the
 * summary says so. */
static void
test_program_handler (Fixture *f, gconstpointer data)
{
  const char *args[] = { "handler", "0.6", NULL };
  g_autoptr (CliTestRun) run = NULL;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->err, "\nmetrograph: call stacks stopped in 1 process: it handles "
                            "or ignores the sampler's signal (SIGRTMAX-3) itself\n"));
}

/* The program ignores the sampler's signal: no stacks, and the line says
 * it may be ignored (it said "it installed its own handler"). */
static void
test_program_ignores (Fixture *f, gconstpointer data)
{
  const char *args[] = { "ignore", "0.3", NULL };
  g_autoptr (CliTestRun) run = NULL;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->err, "\nmetrograph: 0 call-stack samples\n"));
  g_assert_nonnull (strstr (run->err, "\nmetrograph: call stacks stopped in 1 process: it handles "
                            "or ignores the sampler's signal (SIGRTMAX-3) itself\n"));
}

/* A fork child starts its own stacks, and execs while its timers run: the
 * new image is not killed by a signal of the old one's, and both
 * processes have stacks of their own. */
static void
test_fork_exec (Fixture *f, gconstpointer data)
{
  const char *args[] = { "forkexec", "0.6", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *path = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GError) error = NULL;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  for (guint p = 0; p < 2; p++)
    {
      g_autoptr (MgStackSet) set = mg_stack_set_new (profile, (int) p, -INFINITY, INFINITY);
      if (mg_stack_set_get_total (set) == 0)
        g_error ("process %u has no stacks", p);
      g_assert_cmpuint (mg_stack_set_get_taken (set), >=, mg_stack_set_get_total (set));
    }
}

/* A vfork child that resets every caught signal to SIG_DFL before its
 * exec (CPython's subprocess does) shares the program's memory: it must
 * change neither the program's stacks nor the fault handler kept for it.
 * The program's SIGSEGV handler still runs (it exits 7; it died of the
 * signal, a Python program lost its faulthandler traceback), and its
 * stacks go on after the child (they stepped aside: "call stacks stopped
 * in 1 process", 12 samples of a Python loop of 0.9 s instead of 43). */
static void
test_vfork_reset (Fixture *f, gconstpointer data)
{
  const char *args[] = { "vfork", "0.6", NULL };
  g_autoptr (CliTestRun) run = NULL;
  guint64 taken;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 7);
  g_assert_null (strstr (run->err, "call stacks stopped"));
  taken = said_stack_samples (run->err);
  /* 0.6 s of CPU at 20 ms: about 30, half of them after the child. */
  g_assert_cmpuint (taken, >=, 20);
}

/* A process that execs takes no last round: the stack samples since its
 * last one go to its last window, so none is "not stored" and the
 * export holds every sample taken. Ten execs of a busy image: each had
 * about one chance in two of a sample pending at its exec, which was
 * counted as not stored ("…, 1 of them not stored (the stack table was
 * full)" of a table holding a few stacks). */
static void
test_exec_chain (Fixture *f, gconstpointer data)
{
  const char *args[] = { "execchain", "10", "0.1", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total, taken;
  guint n_lines;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "not stored"));
  taken = said_stack_samples (run->err);
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  g_assert_cmpuint (total, ==, taken);
  g_assert_cmpuint (taken, >=, 20);
}

/* A thread that blocks every signal and takes what is pending with
 * sigtimedwait on a full set never gets the sampler's signal: it gets no
 * timer. */
static void
test_sigwait (Fixture *f, gconstpointer data)
{
  const char *args[] = { "sigwait", "0.5", NULL };
  g_autoptr (CliTestRun) run = NULL;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "took the sampler's signal"));
}

/* A thread that blocks every signal after it got its timer (the usual
 * start of a signal-handling loop): the timer's signal is left
 * deliverable, so it never waits there for the thread's pselect with an
 * empty mask (which returned EINTR with it at once, 20 times a second),
 * its signalfd or its sigtimedwait on a full set (8 signals a second),
 * and the thread is sampled on; its mask still says the signal is
 * blocked, as it asked. */
static void
test_late_block (Fixture *f, gconstpointer data)
{
  const char *args[] = { "lateblock", "0.8", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total;
  guint n_lines;

  g_autofree char *text = NULL;
  guint64 blocked = 0;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  /* 0.8 s of CPU at 20 ms, the second half with every signal blocked,
   * a() called by late_block itself there (by split in the first half):
   * about 20 samples of it, 8 or more on a loaded machine; none when the
   * blocked signal is not delivered. */
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      static const char leaf[] = ";late_block;a";
      const char *space = strrchr (lines[i], ' ');

      if (space != NULL && space - lines[i] >= (gssize) strlen (leaf)
          && memcmp (space - strlen (leaf), leaf, strlen (leaf)) == 0)
        blocked += g_ascii_strtoull (space + 1, NULL, 10);
    }
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples after the block",
                  blocked, total);
  g_assert_cmpuint (blocked, >=, 5);
}

/* A table of one stack: the other stacks are counted as not stored, and
 * the export's count plus those is what was taken. */
static void
test_table_full (Fixture *f, gconstpointer data)
{
  const char *env[] = { "METROGRAPH_TEST_STACK_TABLE=1", NULL };
  const char *args[] = { "split", "0.6", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 total, taken = 0, lost = 0;
  guint n_lines;

  profile_and_export (f, NULL, args, env, &run);
  assert_status (run, 0);
  const char *line = strstr (run->err, "metrograph: ");
  while (line != NULL && sscanf (line, "metrograph: %" G_GUINT64_FORMAT " call-stack samples, %"
                                 G_GUINT64_FORMAT, &taken, &lost) != 2)
    line = strstr (line + 1, "metrograph: ");
  if (line == NULL)
    g_error ("no line on the samples not stored in:\n%s", run->err);
  g_assert_cmpuint (lost, >, 0);
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  g_assert_cmpuint (n_lines, ==, 1);
  g_assert_cmpuint (total + lost, ==, taken);
}

/* --range: the whole run as without it, an error after the end; with
 * JSON too. An old profile (format 4) exports no stacks. */
static void
test_range (Fixture *f, gconstpointer data)
{
  const char *args[] = { "split", "0.5", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autofree char *whole = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *all = g_build_filename (f->dir, "all.folded", NULL);
  g_autofree char *old = g_build_filename (f->dir, "old.folded", NULL);
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                    "format-v4.mgprof", NULL);
  g_autofree char *text = NULL;
  guint64 t1, t2;
  guint n1, n2;

  profile_and_export (f, NULL, args, NULL, &run);
  assert_status (run, 0);
  const char *a1[] = { "--export=all.folded", "--range=0-", "run.mgprof", NULL };
  const char *a2[] = { "--export=after.folded", "--range=1000-2000", "run.mgprof", NULL };
  const char *a3[] = { "--export=x.json", "--range=0-1", "run.mgprof", NULL };
  const char *a4[] = { "--export=x.folded", "--range=2-1", "run.mgprof", NULL };
  const char *a5[] = { "--export=old.folded", fixture, NULL };
  g_autoptr (CliTestRun) r1 = cli_test_run (f->dir, a1);
  g_autoptr (CliTestRun) r2 = cli_test_run (f->dir, a2);
  g_autoptr (CliTestRun) r3 = cli_test_run (f->dir, a3);
  g_autoptr (CliTestRun) r4 = cli_test_run (f->dir, a4);
  g_autoptr (CliTestRun) r5 = cli_test_run (f->dir, a5);
  assert_status (r1, 0);
  assert_status (r2, 2);
  g_assert_nonnull (strstr (r2->err, "--range=1000-2000: no sample window"));
  assert_status (r3, 0);
  assert_status (r4, 2);
  g_assert_nonnull (strstr (r4->err, "--range=2-1"));
  assert_status (r5, 0);
  g_autoptr (GHashTable) h1 = read_folded (whole, &t1, &n1);
  g_autoptr (GHashTable) h2 = read_folded (all, &t2, &n2);
  g_assert_cmpuint (t1, >, 0);
  g_assert_cmpuint (t2, ==, t1);
  g_assert_cmpuint (n2, ==, n1);
  g_assert_true (g_file_get_contents (old, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "");
}

/* A profile carries its code (mg-profile-code.h): the workload built
 * from a copy of its source in a folder of its own, profiled, then the
 * binary and the source deleted: the export and the report still name
 * a() and b() with their file and line, and the profile gives back the
 * source's text. */
static void
test_self_contained (Fixture *f, gconstpointer data)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "fixtures", "cli",
                                                    WORKLOAD_NAME ".c", NULL);
  g_autofree char *src_dir = g_build_filename (f->dir, "src", NULL);
  g_autofree char *source = g_build_filename (src_dir, "work.c", NULL);
  g_autofree char *binary = g_build_filename (src_dir, "work", NULL);
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *text = NULL, *profile_path = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;
  int status;

  g_assert_true (g_file_get_contents (fixture, &text, &len, &error));
  g_assert_cmpint (g_mkdir (src_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (source, text, (gssize) len, &error));
  const char *cc[] = { CLI_TEST_CC, "-O2", "-g", "-fomit-frame-pointer", "-pthread", "-o",
                       binary, source, NULL };
  g_assert_true (g_spawn_sync (src_dir, (char **) cc, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_true (g_spawn_check_wait_status (status, &error));

  /* Three seconds of CPU: samples are not weighted by the timer's overrun
   * (docs/sampler.md), so a loaded machine gives fewer of them, as few as
   * 200 for two seconds while the suites ran side by side. */
  const char *profile_args[] = { "--profile", "-o", "run.mgprof", "--interval=2", binary,
                                 "split", "3", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, profile_args);
  assert_status (run, 0);
  g_assert_nonnull (strstr (run->err, "the profile keeps the source text of "));
  g_assert_cmpint (g_unlink (binary), ==, 0);
  g_assert_cmpint (g_unlink (source), ==, 0);

  /* The folded export names the functions without the binary. */
  const char *export[] = { "--export=run.folded", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);
  guint64 total;
  guint n_lines;
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  guint64 a = count_of (by_leaf, "a"), b = count_of (by_leaf, "b");
  g_test_message ("a %" G_GUINT64_FORMAT ", b %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
                  a, b, total);
  g_assert_cmpuint (a + b, >=, 200);
  g_assert_cmpfloat_with_epsilon (100.0 * (double) a / (double) (a + b), 75.0, 5.0);

  /* The report names them with their file and line. */
  const char *report_args[] = { "--report=-", "run.mgprof", NULL };
  g_autoptr (CliTestRun) report = cli_test_run (f->dir, report_args);
  assert_status (report, 0);
  const char *self = "Where the time went: self";
  double a_share = report_share (report->out, self, "a (work.c:");
  double b_share = report_share (report->out, self, "b (work.c:");
  g_assert_cmpfloat_with_epsilon (a_share, 75.0, 5.0);
  g_assert_cmpfloat_with_epsilon (a_share + b_share, 100.0, 1.0);

  /* The profile holds the source as it was, and names a()'s lines in it. */
  profile_path = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (MgProfile) profile = mg_profile_load (profile_path, &error);
  g_assert_no_error (error);
  g_assert_true (mg_profile_has_stored_names (profile));
  g_autoptr (GBytes) kept = mg_profile_get_source_text (profile, source);
  g_assert_nonnull (kept);
  g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), text, len);
  g_assert_cmpuint (mg_profile_get_source_limit (profile), ==, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  g_assert_cmpuint (mg_profile_get_sources_size (profile), >=, len);
  /* a()'s line, as the report gives it, holds the text of a() in the source. */
  const char *at = strstr (strstr (report->out, self), "a (work.c:");
  guint line = (guint) g_ascii_strtoull (at + strlen ("a (work.c:"), NULL, 10);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (line, >, 0);
  g_assert_cmpuint (line, <=, g_strv_length (lines));
  guint first_a = 0;
  for (guint i = 0; lines[i] != NULL && first_a == 0; i++)
    if (g_str_has_prefix (lines[i], "a (unsigned long n)"))
      first_a = i + 1;
  g_assert_cmpuint (first_a, >, 0);
  /* Within a()'s body: it follows its definition by a few lines. */
  g_assert_cmpuint (line, >, first_a);
  g_assert_cmpuint (line, <, first_a + 12);
}

/* A program built with ThreadSanitizer is sampled as any other. Its
 * runtime wraps the handlers installed through its sigaction and holds
 * timer signals back until the thread's next call into it: here the clock
 * read every 32 rounds, so the samples were few (174 of 3 s at 2 ms where
 * there are now 735) and walked from a stack that had moved on: a() and
 * b() under cpu_seconds(), which never calls them. */
static void
test_tsan_program (Fixture *f, gconstpointer data)
{
  const char *flags[] = { "-O2", "-g", "-fomit-frame-pointer", "-pthread", "-fsanitize=thread",
                          NULL };
  const char *briefly[] = { "split", "0.01", NULL };
  g_autofree char *binary = cli_test_build_fixture (CLI_TEST_CC, f->dir, WORKLOAD_NAME ".c",
                                                    "tsan-workload", flags, briefly, NULL);
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  guint64 a = 0, b = 0, total = 0, misplaced = 0;

  if (binary == NULL)
    return;
  const char *args[] = { "--profile", "-o", "run.mgprof", "--interval=2", binary, "split", "3",
                         NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_assert_null (strstr (run->err, "ThreadSanitizer"));
  const char *export[] = { "--export=run.folded", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);

  /* Read here, not by read_folded: a sample taken inside the runtime
   * names its C++ functions, spaces and all. a() and b() are called by
   * split() (inlined in main or not), never by cpu_seconds(). */
  g_assert_true (g_file_get_contents (folded, &text, NULL, &error));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');
      if (lines[i][0] == '\0')
        continue;
      g_assert_nonnull (space);
      *space = '\0';
      guint64 count = g_ascii_strtoull (space + 1, NULL, 10);
      const char *leaf = leaf_function (lines[i]);
      total += count;
      if (strcmp (leaf, "a") == 0)
        a += count;
      else if (strcmp (leaf, "b") == 0)
        b += count;
      else
        continue;
      if (strstr (lines[i], "cpu_seconds") != NULL)
        misplaced += count;
    }
  g_test_message ("a %" G_GUINT64_FORMAT ", b %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                  ", %" G_GUINT64_FORMAT " under cpu_seconds", a, b, total, misplaced);
  /* 3 s of CPU at 2 ms: about 700 samples here, 106 with both suites
   * running side by side (a loaded machine's timers overrun, and overruns
   * are not counted). The share within 5 points, or 3 standard deviations
   * of a share of so few samples. Before the fix most samples were under
   * cpu_seconds. */
  g_assert_cmpuint (a + b, >=, 60);
  double sd = 100.0 * sqrt (0.75 * 0.25 / (double) (a + b));
  g_assert_cmpfloat_with_epsilon (100.0 * (double) a / (double) (a + b), 75.0, MAX (5.0, 3 * sd));
  g_assert_cmpuint (misplaced, ==, 0);
}

/* --recover names the frames as a run's end does: the profile's save
 * failed (its folder removed during the run), the recovered profile
 * carries the names of a() and b(). */
static void
test_recover_names (Fixture *f, gconstpointer data)
{
  g_autofree char *workload = workload_path ();
  g_autofree char *folder = g_build_filename (f->dir, "gone", NULL);
  g_autofree char *output = g_build_filename (f->dir, "recovered.mgprof", NULL);
  const char *args[] = { "--profile", "-o", "gone/out.mgprof", "--interval=2", workload,
                         "split", "1.5", NULL };
  g_autofree char *left = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  GPid pid = cli_test_spawn (f->dir, args, NULL);
  g_usleep (700 * 1000);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  g_assert_cmpint (cli_test_wait (pid, 60), ==, 6);
  g_autoptr (GDir) runs = g_dir_open (f->runs, 0, NULL);
  const char *name = g_dir_read_name (runs);
  g_assert_nonnull (name);
  left = g_build_filename (f->runs, name, NULL);

  const char *recover_args[] = { "--recover", left, "-o", "recovered.mgprof", NULL };
  g_autoptr (CliTestRun) recover = cli_test_run (f->dir, recover_args);
  assert_status (recover, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (output, &error);
  g_assert_no_error (error);
  g_assert_true (mg_profile_has_stored_names (profile));
  g_assert_cmpuint (mg_profile_get_source_limit (profile), ==, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  /* Named by the profile alone: no namer here. */
  g_autofree char *folded = g_build_filename (f->dir, "recovered.folded", NULL);
  g_assert_true (mg_export_folded (profile, folded, NULL, -INFINITY, INFINITY, NULL, &error));
  guint64 total;
  guint n_lines;
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  g_assert_cmpuint (count_of (by_leaf, "a"), >, count_of (by_leaf, "b"));
  g_assert_cmpuint (count_of (by_leaf, "b"), >, 0);
}

/* The line of the MPI workload's source that holds marker. */
static guint
source_line_of (const char *relative, const char *marker)
{
  g_autofree char *path = g_build_filename (MG_SOURCE_ROOT, relative, NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], marker) != NULL)
      return i + 1;
  g_error ("no line with '%s' in %s", marker, path);
}

/* The value in seconds of the report line that starts with prefix under
 * heading (text report), or -1 when there is none. */
static double
report_seconds (const char *text, const char *heading, const char *prefix)
{
  const char *section = strstr (text, heading);
  if (section == NULL)
    return -1;
  g_auto (GStrv) lines = g_strsplit (section, "\n", -1);
  for (guint i = 2; lines[i] != NULL; i++)
    {
      if (lines[i + 1] != NULL && g_str_has_prefix (lines[i + 1], "---"))
        break;
      const char *name = lines[i];
      while (*name == ' ')
        name++;
      if (!g_str_has_prefix (name, prefix))
        continue;
      /* "name   3.02 s  [bar]": the number before " s"; a name wider than
       * the report's name column has its value on the next line. */
      const char *unit = strstr (name + strlen (prefix), " s ");
      if (unit == NULL && lines[i + 1] != NULL)
        {
          name = lines[i + 1];
          unit = strstr (name, " s ");
        }
      g_assert_nonnull (unit);
      const char *number = unit;
      while (number > name && number[-1] != ' ')
        number--;
      return g_ascii_strtod (number, NULL);
    }
  return -1;
}

/* An MPI late rank (tests/plugins/mpi-workload.c "late": rank 1 sleeps
 * 3 s, then both meet in an MPI_Barrier): rank 0's wait is sampled from
 * the MPI wrapper's thread table, without a signal, as the stack
 * [MPI_Barrier, its call site], at least 90 % of rank 0's samples; the
 * folded export shows it under its caller, and the report's "MPI call
 * sites that waited longest" names the call site's line, rank 0 and about
 * 3 s. */
/* A folded line split at its first frame named main: *above* gets the
 * frames before it (the C library's start), NULL when the line has no
 * main; returns the rest ("main;…"), or the whole line without main. The
 * line's count is cut off into *count. */
static char *
split_at_main (const char *line, char **above, guint64 *count)
{
  const char *space = strrchr (line, ' ');
  g_assert_nonnull (space);
  *count = g_ascii_strtoull (space + 1, NULL, 10);
  g_autofree char *stack = g_strndup (line, (gsize) (space - line));
  *above = NULL;
  if (g_str_has_prefix (stack, "main;"))
    {
      *above = g_strdup ("");
      return g_steal_pointer (&stack);
    }
  const char *at = strstr (stack, ";main;");
  if (at == NULL)
    return g_steal_pointer (&stack);
  *above = g_strndup (stack, (gsize) (at - stack));
  return g_strdup (at + 1);
}

/* Whether frames above main are the C library's start only: no frame of
 * the workload, no mark of a walk that stopped. */
static gboolean
is_start_frames (const char *above)
{
  return strstr (above, "[unknown]") == NULL && strstr (above, "[truncated]") == NULL
         && strstr (above, "in_flight") == NULL && strstr (above, "chain") == NULL
         && strstr (above, "churn") == NULL;
}

/* The count of the folded file's lines whose stack is chain from main,
 * whole: under the C library's start frames only. */
static guint64
count_of_chain (const char *folded, const char *chain)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint64 sum = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      g_autofree char *above = NULL;
      guint64 count;
      g_autofree char *from_main = split_at_main (lines[i], &above, &count);
      if (above != NULL && is_start_frames (above) && strcmp (from_main, chain) == 0)
        sum += count;
    }
  return sum;
}

/* The wrapper's frame of an MPI stack is the MPI function in the MPI
 * library, never our code: the names the run stored give MPI_Barrier
 * without file or line, the symboliser (given the process's modules) its
 * module, the library defining PMPI_Barrier; no text or omission of the
 * wrapper's source is stored. */
static void
assert_mpi_frame_presented (MgProfile *profile, MgStackSet *set)
{
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  g_autoptr (GPtrArray) names =
    g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  const MgStackFrame *frames = NULL;
  guint n, flags;

  for (guint s = 0; s < mg_stack_set_get_n_stacks (set) && frames == NULL; s++)
    {
      const MgStackFrame *its = mg_stack_set_get_frames (set, s, &n, &flags);
      if (flags & MG_STACK_MPI)
        frames = its;
    }
  g_assert_nonnull (frames);
  g_assert_true (mg_profile_name_stored_frame (profile, frames[0].module, frames[0].vaddr, names));
  g_assert_cmpuint (names->len, ==, 1);
  const MgStackFrameName *stored = g_ptr_array_index (names, 0);
  g_assert_cmpstr (stored->function, ==, "MPI_Barrier");
  g_assert_null (stored->file);
  g_assert_cmpuint (stored->line, ==, 0);

  for (guint m = 0; m < mg_stack_set_get_n_modules (set); m++)
    {
      const MgStackModule *module = mg_stack_set_get_module (set, m);
      mg_symbolizer_add_process_module (symbolizer, module->path, module->build_id,
                                        module->build_id_len);
    }
  const MgStackModule *wrapper = mg_stack_set_get_module (set, frames[0].module);
  g_autoptr (GPtrArray) resolved = mg_symbolizer_resolve (symbolizer, wrapper->path,
                                                          wrapper->build_id, wrapper->build_id_len,
                                                          frames[0].vaddr, NULL);
  g_assert_cmpuint (resolved->len, ==, 1);
  const MgSymbolFrame *frame = g_ptr_array_index (resolved, 0);
  g_test_message ("the wrapper's frame: %s in %s", frame->function, frame->module);
  g_assert_cmpstr (frame->function, ==, "MPI_Barrier");
  g_assert_null (frame->file);
  g_assert_cmpuint (frame->line, ==, 0);
  g_assert_null (strstr (frame->module, "libmetrograph-"));
  g_autofree char *library = g_path_get_basename (frame->module);
  g_assert_true (g_str_has_prefix (library, "lib") && strstr (library, "mpi") != NULL);

  for (guint i = 0; i < mg_profile_get_n_sources (profile); i++)
    g_assert_false (g_str_has_suffix (mg_profile_get_source_path (profile, i), "mpi-wrap.c"));
  for (guint i = 0; i < mg_profile_get_n_source_omissions (profile); i++)
    g_assert_false (g_str_has_suffix (mg_profile_get_source_omission (profile, i, NULL),
                                      "mpi-wrap.c"));
}

static void
test_mpi_late (Fixture *f, gconstpointer data)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-mpi-workload");
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  guint64 total;
  guint n_lines;

  if (mpirun == NULL || !g_file_test (workload, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mpirun or the MPI workload is not there");
      return;
    }
  const char *args[] = { "--profile", "-n", "2", "-o", "run.mgprof", workload, "late", NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, args);
  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (output, &error);
  g_assert_no_error (error);
  int waiting = -1;
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    if (mg_profile_get_process (profile, p)->rank == 0)
      waiting = (int) p;
  g_assert_cmpint (waiting, >=, 0);

  /* Rank 0: its samples are nearly all the barrier's wait: the wrapper's
   * MPI_Barrier, the call site in the workload, then its callers up to
   * the process's start (walked from the wrapper's frame, no signal). */
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, waiting, -INFINITY, INFINITY);
  guint64 in_mpi = 0;
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n, flags;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n, &flags);
      if (!(flags & MG_STACK_MPI))
        continue;
      g_assert_cmpuint (n, >=, 2);
      g_assert_cmpuint (frames[0].module, <, mg_stack_set_get_n_modules (set));
      /* The wrapper is part of the sampler (plugins/meson.build). */
      g_assert_nonnull (strstr (mg_stack_set_get_module (set, frames[0].module)->path,
                                "libmetrograph-sampler.so"));
      g_assert_cmpuint (frames[1].module, <, mg_stack_set_get_n_modules (set));
      g_assert_true (g_str_has_suffix (mg_stack_set_get_module (set, frames[1].module)->path,
                                       "mg-cli-mpi-workload"));
      in_mpi += mg_stack_set_get_count (set, s);
    }
  guint64 rank0 = mg_stack_set_get_total (set);
  assert_mpi_frame_presented (profile, set);
  g_test_message ("rank 0: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples in MPI",
                  in_mpi, rank0);
  /* 3 s at 20 ms: about 150 samples of the wait. */
  g_assert_cmpuint (in_mpi, >=, 100);
  g_assert_cmpfloat (100.0 * (double) in_mpi / (double) rank0, >=, 90.0);

  /* The folded export of rank 0: the whole stack,
   * "main;in_flight;MPI_Barrier" from main (in_flight inlined in main at
   * -O2, its own frame at -O0: the same names), under the C library's
   * start frames only, at least 90 % of rank 0's samples but those of
   * MPI_Init and MPI_Finalize (the run's start and end, whose length
   * follows the machine's load: 3 to 31 samples of rank 0's seen). */
  g_autofree char *selection = g_strdup_printf ("--processes=%d", waiting);
  const char *export[] = { "--export=run.folded", selection, "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);
  g_autoptr (GHashTable) by_leaf = read_folded (folded, &total, &n_lines);
  g_assert_cmpuint (total, ==, rank0);
  guint64 at_site = count_of_chain (folded, "main;in_flight;MPI_Barrier");
  guint64 start_end = count_of (by_leaf, "MPI_Init") + count_of (by_leaf, "MPI_Finalize");
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_test_message ("rank 0's folded export:\n%s", text);
  g_assert_cmpuint (rank0, >, start_end);
  g_assert_cmpfloat (100.0 * (double) at_site / (double) (rank0 - start_end), >=, 90.0);
  g_assert_cmpuint (count_of (by_leaf, "MPI_Barrier"), ==, at_site);

  /* The report: the late barrier's line, rank 0, about 3 s. */
  guint line = source_line_of ("tests/plugins/mpi-workload.c", "the late barrier");
  g_autofree char *prefix = g_strdup_printf ("MPI_Barrier (mpi-workload.c:%u, in in_flight), "
                                             "rank 0", line);
  const char *report_args[] = { "--report=-", "run.mgprof", NULL };
  g_autoptr (CliTestRun) report = cli_test_run (f->dir, report_args);
  assert_status (report, 0);
  g_test_message ("%s", strstr (report->out, "MPI call sites"));
  double waited = report_seconds (report->out, "MPI call sites that waited longest", prefix);
  g_assert_cmpfloat_with_epsilon (waited, 3.0, 0.4);
}

/* Runs the MPI workload's mode on 2 ranks and exports the folded stacks;
 * *rank0 gets rank 0's sample count. FALSE (skipped) without mpirun. */
static gboolean
run_mpi_mode (Fixture *f, const char *mode, guint64 *rank0, guint64 *discarded)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autofree char *workload = cli_test_build_path ("tests/cli/mg-cli-mpi-workload");
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (GError) error = NULL;

  if (mpirun == NULL || !g_file_test (workload, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mpirun or the MPI workload is not there");
      return FALSE;
    }
  const char *args[] = { "--profile", "-n", "2", "-o", "run.mgprof", workload, mode, NULL };
  /* The sampler's verbose log says how the waits' walks went (walked,
   * reused, discarded because the call ended meanwhile). */
  const char *env[] = { "METROGRAPH_SAMPLER_VERBOSE=1", NULL };
  g_autoptr (CliTestRun) run = cli_test_run_with_env (f->dir, args, env);
  assert_status (run, 0);
  g_auto (GStrv) err_lines = g_strsplit (run->err, "\n", -1);
  *discarded = 0;
  for (guint i = 0; err_lines[i] != NULL; i++)
    {
      const char *line = strstr (err_lines[i], "MPI waits:");
      const char *reused = line != NULL ? strstr (line, " reused, ") : NULL;
      if (reused == NULL)
        continue;
      g_test_message ("%s", err_lines[i]);
      *discarded += g_ascii_strtoull (reused + strlen (" reused, "), NULL, 10);
    }
  g_autoptr (MgProfile) profile = mg_profile_load (output, &error);
  g_assert_no_error (error);
  *rank0 = 0;
  for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
    if (mg_profile_get_process (profile, p)->rank == 0)
      {
        g_autoptr (MgStackSet) set = mg_stack_set_new (profile, (int) p, -INFINITY, INFINITY);
        *rank0 = mg_stack_set_get_total (set);
      }
  const char *export[] = { "--export=run.folded", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);
  return TRUE;
}

/* A deeper chain: rank 0 waits 3 s in MPI_Barrier called from
 * chain_inner, called from chain_outer, called from in_flight in main:
 * the folded stack reads it whole from main. */
static void
test_mpi_chain (Fixture *f, gconstpointer data)
{
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  guint64 rank0, discarded;
  if (!run_mpi_mode (f, "chain", &rank0, &discarded))
    return;
  guint64 whole = count_of_chain (folded, "main;in_flight;chain_outer;chain_inner;MPI_Barrier");
  g_test_message ("rank 0: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                  " samples in the chain's barrier, whole", whole, rank0);
  g_assert_cmpuint (whole, >=, 100);
  g_assert_cmpfloat (100.0 * (double) whole / (double) rank0, >=, 90.0);
}

/* Many collectives from two call chains while the sampler walks the
 * waits' stacks, waits of every length, then calls so short that they
 * end while they are walked (the sampler discards those walks). Every
 * MPI stack in the folded export is one of the program's real chains (a
 * marked partial stack: the end of one), never a mix of two calls; and
 * both chains are read whole. */
static void
test_mpi_churn (Fixture *f, gconstpointer data)
{
  static const char *const chains[] = {
    "main;MPI_Init",
    "main;MPI_Comm_rank",
    "main;MPI_Comm_size",
    "main;in_flight;MPI_Barrier",
    "main;in_flight;churn;churn_reduce;MPI_Allreduce",
    "main;in_flight;churn;churn_outer;churn_inner;MPI_Barrier",
    "main;in_flight;MPI_Finalize",
    /* At -O2 GCC merges in_flight's MPI_Finalize call (inlined in main)
     * with main's own: the return address is main's. */
    "main;MPI_Finalize",
    NULL,
  };
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *text = NULL;
  guint64 rank0, discarded, whole_reduce = 0, whole_barrier = 0, partial = 0, in_mpi = 0;
  if (!run_mpi_mode (f, "churn", &rank0, &discarded))
    return;
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *above = NULL;
      guint64 count;
      if (lines[i][0] == '\0' || !g_str_has_prefix (strrchr (lines[i], ';') + 1, "MPI_"))
        continue;
      g_autofree char *from_main = split_at_main (lines[i], &above, &count);
      in_mpi += count;
      if (g_str_has_prefix (from_main, "[unknown];"))
        {
          /* A walk that stopped (or a call that ended during it): the
           * frames it has are the end of a real chain. */
          const char *tail = from_main + strlen ("[unknown]");
          gboolean real = FALSE;
          for (guint c = 0; chains[c] != NULL && !real; c++)
            real = g_str_has_suffix (chains[c], tail);
          if (!real)
            g_error ("an MPI stack that is no chain's end: %s", lines[i]);
          partial += count;
          continue;
        }
      if (above == NULL || !is_start_frames (above)
          || !g_strv_contains ((const char *const *) chains, from_main))
        g_error ("an MPI stack that is no real call chain: %s", lines[i]);
      if (strcmp (from_main, chains[4]) == 0)
        whole_reduce += count;
      else if (strcmp (from_main, chains[5]) == 0)
        whole_barrier += count;
    }
  g_test_message ("MPI samples %" G_GUINT64_FORMAT " (rank 0's samples %" G_GUINT64_FORMAT
                  "): whole Allreduce chain %" G_GUINT64_FORMAT ", whole Barrier chain %"
                  G_GUINT64_FORMAT ", partial %" G_GUINT64_FORMAT, in_mpi, rank0, whole_reduce,
                  whole_barrier, partial);
  g_assert_cmpuint (whole_reduce, >=, 1);
  g_assert_cmpuint (whole_barrier, >=, 1);
  /* Walks the sampler discarded (the call ended meanwhile) are not
   * asserted: on a machine with fewer free cores than threads the
   * sampler's thread preempts the rank it walks, which then stays in its
   * call (2 cores beside other builds: 0 or 1 in a run); the sampler's
   * own test walks a thread that runs (/unwind/frame-race). */
  g_test_message ("walks discarded: %" G_GUINT64_FORMAT, discarded);
}

/* The samples of a thread's stacks by leaf function (named by the
 * symboliser), *total all of them. */
static GHashTable *
leaves_of_thread (MgProfile *profile, int thread, MgSymbolizer *symbolizer, guint64 *total)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new_for_thread (profile, -1, thread, -INFINITY,
                                                            INFINITY);
  GHashTable *by_leaf = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  *total = mg_stack_set_get_total (set);
  for (guint s = 0; s < mg_stack_set_get_n_stacks (set); s++)
    {
      guint n;
      const MgStackFrame *frames = mg_stack_set_get_frames (set, s, &n, NULL);
      if (thread != MG_STACK_THREAD_ALL)
        g_assert_cmpint (mg_stack_set_get_thread (set, s), ==, thread);
      const char *name = "?";
      g_autoptr (GPtrArray) resolved = NULL;
      if (n > 0 && frames[0].module < mg_stack_set_get_n_modules (set))
        {
          const MgStackModule *m = mg_stack_set_get_module (set, frames[0].module);
          resolved = mg_symbolizer_resolve (symbolizer, m->path, m->build_id, m->build_id_len,
                                            frames[0].vaddr, NULL);
          const MgSymbolFrame *leaf = g_ptr_array_index (resolved, 0);
          if (leaf->function != NULL)
            name = leaf->function;
        }
      guint64 *sum = g_hash_table_lookup (by_leaf, name);
      if (sum == NULL)
        g_hash_table_insert (by_leaf, g_strdup (name), sum = g_new0 (guint64, 1));
      *sum += mg_stack_set_get_count (set, s);
    }
  return by_leaf;
}

/* Stacks know their thread: the main thread runs a(), the thread
 * "mg-worker" b() at the same time, as much CPU time each. The main
 * thread's stacks hold only a, the worker's (ordinal 1, the only other
 * thread) only b, all threads both, about half each. */
static void
test_thread_filter (Fixture *f, gconstpointer data)
{
  const char *options[] = { "--interval=4", NULL };
  const char *args[] = { "main-worker", "4", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  guint64 main_total, worker_total, all_total;

  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (output, &error);
  g_assert_no_error (error);
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_n_threads (all), ==, 2);

  g_autoptr (GHashTable) main_leaves = leaves_of_thread (profile, MG_STACK_THREAD_MAIN,
                                                         symbolizer, &main_total);
  g_autoptr (GHashTable) worker_leaves = leaves_of_thread (profile, 1, symbolizer,
                                                           &worker_total);
  g_autoptr (GHashTable) all_leaves = leaves_of_thread (profile, MG_STACK_THREAD_ALL,
                                                        symbolizer, &all_total);
  g_test_message ("main: a %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT "; worker: b %"
                  G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT, count_of (main_leaves, "a"),
                  main_total, count_of (worker_leaves, "b"), worker_total);
  /* 2 s of CPU time each at 4 ms: up to 500 samples each (a loaded
   * machine loses some, see docs/sampler.md). */
  g_assert_cmpuint (count_of (main_leaves, "a"), >=, 150);
  g_assert_cmpuint (count_of (main_leaves, "b"), ==, 0);
  g_assert_cmpuint (count_of (worker_leaves, "b"), >=, 150);
  g_assert_cmpuint (count_of (worker_leaves, "a"), ==, 0);
  /* Nearly every sample of each is its function (the rest: starting and
   * ending the thread, in libc). */
  g_assert_cmpfloat (100.0 * (double) count_of (main_leaves, "a") / (double) main_total, >=, 90.0);
  g_assert_cmpfloat (100.0 * (double) count_of (worker_leaves, "b") / (double) worker_total, >=,
                     90.0);
  /* All threads: exactly the two together (each thread's counts), each a
   * fair part of them: the split itself is the split test's business, and
   * on a loaded machine the CPU-time timers lose a different share of each
   * thread's samples (docs/sampler.md: 44 to 54 % seen at a load of 15 on
   * 2 cores, 37 % once beside eight builds). */
  g_assert_cmpuint (all_total, ==, mg_stack_set_get_total (all));
  g_assert_cmpuint (count_of (all_leaves, "a"), ==, count_of (main_leaves, "a"));
  g_assert_cmpuint (count_of (all_leaves, "b"), ==, count_of (worker_leaves, "b"));
  guint64 a = count_of (all_leaves, "a"), b = count_of (all_leaves, "b");
  g_assert_cmpuint (all_total, ==, main_total + worker_total);
  g_assert_cmpfloat (100.0 * (double) a / (double) (a + b), >=, 25.0);
  g_assert_cmpfloat (100.0 * (double) b / (double) (a + b), >=, 25.0);
  /* A thread the process never had: nothing. */
  g_autoptr (MgStackSet) none = mg_stack_set_new_for_thread (profile, -1, 7, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (none), ==, 0);
}

/* The function of the most samples among a thread's leaves, and its share. */
static const char *
top_leaf (GHashTable *by_leaf, guint64 total, double *percent)
{
  GHashTableIter it;
  gpointer key, value;
  const char *top = NULL;
  guint64 most = 0;
  g_hash_table_iter_init (&it, by_leaf);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (*(guint64 *) value > most)
      most = *(guint64 *) value, top = key;
  *percent = total ? 100.0 * (double) most / (double) total : 0;
  return top;
}

/* Thread names reach the profile: the main thread (its comm, the
 * program's name cut to 15 bytes), "alpha", "beta" and a name that is not
 * UTF-8, each the last name the thread gave itself (first "early-N"),
 * each with its own id and the stacks of its own function; the sampler's
 * thread is not listed. */
static void
test_thread_names (Fixture *f, gconstpointer data)
{
  const char *options[] = { "--interval=4", NULL };
  const char *args[] = { "named", "1", NULL };
  g_autoptr (CliTestRun) run = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *output = g_build_filename (f->dir, "run.mgprof", NULL);
  g_autoptr (MgSymbolizer) symbolizer = mg_symbolizer_new ();
  const struct {
    const char *name, *function;
  } want[] = {
    { "mg-stacks-workl", "a" }, { "alpha", "thread_1" }, { "beta", "thread_2" },
    { "gamma\xe9", "thread_3" },
  };
  gboolean seen[G_N_ELEMENTS (want)] = { FALSE };
  gint32 tids[G_N_ELEMENTS (want)] = { 0 };

  profile_and_export (f, options, args, NULL, &run);
  assert_status (run, 0);
  g_autoptr (MgProfile) profile = mg_profile_load (output, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 1);
  g_autoptr (MgStackSet) all = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_n_threads (all), ==, 4);
  /* Four threads, no more: not the sampler's own. */
  g_assert_cmpuint (mg_profile_get_n_thread_names (profile), ==, 4);
  for (guint ordinal = 0; ordinal < 4; ordinal++)
    {
      gint32 tid;
      const char *name = mg_profile_get_thread_name (profile, 0, ordinal, &tid);
      g_assert_nonnull (name);
      guint k = 0;
      while (k < G_N_ELEMENTS (want) && g_strcmp0 (want[k].name, name) != 0)
        k++;
      if (k == G_N_ELEMENTS (want))
        g_error ("thread %u named \"%s\": not one of the workload's", ordinal, name);
      g_assert_false (seen[k]);
      seen[k] = TRUE;
      tids[k] = tid;
      /* The main thread is ordinal 0, its id the process's. */
      g_assert_cmpint (ordinal == 0, ==, k == 0);
      guint64 total;
      g_autoptr (GHashTable) leaves = leaves_of_thread (profile, (int) ordinal, symbolizer,
                                                        &total);
      double percent;
      const char *top = top_leaf (leaves, total, &percent);
      g_test_message ("thread %u \"%s\" (%d): %s, %.1f %% of %" G_GUINT64_FORMAT, ordinal, name,
                      tid, top, percent, total);
      g_assert_cmpstr (top, ==, want[k].function);
      g_assert_cmpfloat (percent, >=, 80.0);
    }
  g_assert_cmpint (tids[0], ==, mg_profile_get_process (profile, 0)->pid);
  for (guint k = 1; k < G_N_ELEMENTS (want); k++)
    {
      g_assert_cmpint (tids[k], >, tids[0]);
      for (guint j = 1; j < k; j++)
        g_assert_cmpint (tids[k], !=, tids[j]);
    }
  /* Shown: valid UTF-8 as it is, else with U+FFFD. */
  for (guint ordinal = 0; ordinal < 4; ordinal++)
    {
      g_autofree char *shown = mg_profile_dup_thread_display_name (profile, 0, ordinal);
      const char *raw = mg_profile_get_thread_name (profile, 0, ordinal, NULL);
      g_assert_true (g_utf8_validate (shown, -1, NULL));
      if (g_str_equal (raw, "gamma\xe9"))
        g_assert_cmpstr (shown, ==, "gamma\xef\xbf\xbd");
      else
        g_assert_cmpstr (shown, ==, raw);
    }

  /* The pprof export labels each sample with its thread: its name and
   * ordinal, the samples of each label those of that thread. */
  g_autofree char *protoc = g_find_program_in_path ("protoc");
  if (protoc == NULL)
    {
      g_test_message ("protoc is not installed: the pprof labels are not read back");
      return;
    }
  const char *export[] = { "--export=run.pb.gz", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);
  g_autofree char *schema_dir = g_test_build_filename (G_TEST_DIST, "fixtures", "cli", NULL);
  g_autofree char *command = g_strdup_printf (
    "gzip -dc run.pb.gz | protoc --decode=mgtest.Profile -I '%s' '%s/pprof-profile.proto'",
    schema_dir, schema_dir);
  const char *argv[] = { "sh", "-c", command, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;
  g_spawn_sync (f->dir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("protoc could not read the export: %s", err);
  g_autoptr (GHashTable) ordinals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_thread = read_pprof_threads (out, ordinals);
  g_assert_cmpuint (g_hash_table_size (by_thread), ==, 4);
  for (guint ordinal = 0; ordinal < 4; ordinal++)
    {
      g_autofree char *shown = mg_profile_dup_thread_display_name (profile, 0, ordinal);
      g_autoptr (MgStackSet) one = mg_stack_set_new_for_thread (profile, -1, (int) ordinal,
                                                                -INFINITY, INFINITY);
      g_test_message ("pprof: thread \"%s\": %" G_GUINT64_FORMAT " samples", shown,
                      count_of (by_thread, shown));
      g_assert_cmpuint (count_of (by_thread, shown), ==, mg_stack_set_get_total (one));
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (ordinals, shown)), ==, ordinal);
    }
}

/* A program without a build-id that replaces its own binary while it
 * runs (a rebuild during a long run), with a build whose functions lie
 * elsewhere: computes, copies the file NEW over itself (once its stacks
 * started: the path they keep is its own, not "… (deleted)"), computes
 * again. */
static const char replaced_source[] =
  "#include <stdio.h>\n"
  "#include <stdlib.h>\n"
  "#include <sys/stat.h>\n"
  "#include <time.h>\n"
  "#include <unistd.h>\n"
  "#ifdef PAD\n"
  "__attribute__((noinline)) void pad_a (volatile double *x) { for (int i = 0; i < 300; i++) *x += i * 3.0; }\n"
  "__attribute__((noinline)) void pad_b (volatile double *x) { for (int i = 0; i < 300; i++) *x -= i * 2.0; }\n"
  "__attribute__((noinline)) void pad_c (volatile double *x) { for (int i = 0; i < 300; i++) *x *= 1.0001; }\n"
  "#endif\n"
  "static double tcpu (void) { struct timespec t; clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }\n"
  "volatile double sink;\n"
  "__attribute__((noinline)) void compute_kernel (double s) { double e = tcpu () + s, x = 0; while (tcpu () < e) for (int i = 0; i < 1000; i++) x += i * 0.5; sink = x; }\n"
  "int main (int argc, char **argv) {\n"
  "  compute_kernel (0.5);\n"
  "  if (argc > 2) {\n"
  "    char tmp[4096]; snprintf (tmp, sizeof tmp, \"%s.new\", argv[2]);\n"
  "    FILE *in = fopen (argv[1], \"rb\"), *out = fopen (tmp, \"wb\"); char buf[65536]; size_t n;\n"
  "    if (!in || !out) return 3;\n"
  "    while ((n = fread (buf, 1, sizeof buf, in)) > 0) fwrite (buf, 1, n, out);\n"
  "    fclose (in); fclose (out); chmod (tmp, 0755);\n"
  "    if (rename (tmp, argv[2]) != 0) return 4;\n"
  "  }\n"
  "  compute_kernel (1.0); puts (\"done\"); return 0; }\n";

/* A binary without a build-id, rebuilt while it ran: its file cannot be
 * checked by build-id, and was named as it is now: the new build's
 * pad_b stood for compute_kernel (the worst outcome). A module without a
 * build-id whose file changed after the run started is not named from
 * it: its frames keep the module and the offset. */
static void
test_rebuilt_no_build_id (Fixture *f, gconstpointer data)
{
  g_autofree char *source = g_build_filename (f->dir, "replaced.c", NULL);
  g_autofree char *binary = g_build_filename (f->dir, "replaced", NULL);
  g_autofree char *rebuilt = g_build_filename (f->dir, "replaced-pad", NULL);
  g_autofree char *folded = g_build_filename (f->dir, "run.folded", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  g_assert_true (g_file_set_contents (source, replaced_source, -1, &error));
  for (int pad = 0; pad < 2; pad++)
    {
      const char *cc[] = { CLI_TEST_CC, "-O2", "-g", "-Wl,--build-id=none", pad ? "-DPAD" : "-UPAD", "-o",
                           pad ? rebuilt : binary, source, NULL };
      g_assert_true (g_spawn_sync (f->dir, (char **) cc, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                   NULL, NULL, &status, &error));
      g_assert_true (g_spawn_check_wait_status (status, &error));
    }
  const char *profile_args[] = { "--profile", "-o", "run.mgprof", binary, rebuilt, binary, NULL };
  g_autoptr (CliTestRun) run = cli_test_run (f->dir, profile_args);
  assert_status (run, 0);
  g_assert_cmpstr (run->out, ==, "done\n");

  const char *export[] = { "--export=run.folded", "run.mgprof", NULL };
  g_autoptr (CliTestRun) exported = cli_test_run (f->dir, export);
  assert_status (exported, 0);
  g_assert_true (g_file_get_contents (folded, &text, NULL, &error));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint64 total = 0;
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    total += g_ascii_strtoull (strrchr (lines[i], ' ') + 1, NULL, 10);
  g_test_message ("%" G_GUINT64_FORMAT " samples:\n%s", total, text);
  g_assert_cmpuint (total, >=, 20);
  g_assert_null (strstr (text, "pad_"));
  g_assert_null (strstr (text, "compute_kernel"));
  g_assert_nonnull (strstr (text, "replaced+0x"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, cli_test_folder_setup, fn, \
                                  cli_test_folder_teardown)
  ADD ("/cli/stacks/split", test_split);
  ADD ("/cli/stacks/report-where", test_report_where);
  ADD ("/cli/stacks/pprof", test_pprof);
  ADD ("/cli/stacks/threads", test_threads);
  ADD ("/cli/stacks/no-stacks", test_no_stacks);
  ADD ("/cli/stacks/no-eintr", test_no_eintr);
  ADD ("/cli/stacks/program-handler", test_program_handler);
  ADD ("/cli/stacks/fork-exec", test_fork_exec);
  ADD ("/cli/stacks/vfork-reset", test_vfork_reset);
  ADD ("/cli/stacks/exec-chain", test_exec_chain);
  ADD ("/cli/stacks/program-ignores", test_program_ignores);
  ADD ("/cli/stacks/sigwait", test_sigwait);
  ADD ("/cli/stacks/late-block", test_late_block);
  ADD ("/cli/stacks/table-full", test_table_full);
  ADD ("/cli/stacks/range", test_range);
  ADD ("/cli/stacks/self-contained", test_self_contained);
  ADD ("/cli/stacks/tsan-program", test_tsan_program);
  ADD ("/cli/stacks/rebuilt-no-build-id", test_rebuilt_no_build_id);
  ADD ("/cli/stacks/recover-names", test_recover_names);
  ADD ("/cli/stacks/mpi-late", test_mpi_late);
  ADD ("/cli/stacks/mpi-chain", test_mpi_chain);
  ADD ("/cli/stacks/mpi-churn", test_mpi_churn);
  ADD ("/cli/stacks/thread-filter", test_thread_filter);
  ADD ("/cli/stacks/thread-names", test_thread_names);
  return g_test_run ();
}
