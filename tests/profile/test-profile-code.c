/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The names and source text a profile carries (format 7,
 * profile/mg-profile-code.h): stored once per distinct frame through a
 * namer, saved and read back, asked before any other namer by the exports;
 * the source text within its bound, the files left out named; a profile of
 * format 6 still opens, naming nothing itself. */
#include "mg-config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "profile/mg-export-folded.h"
#include "profile/mg-profile-code.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-profile-threads.h"
#include "profile/mg-stack-set.h"
#include "report/mg-report.h"
#include "session/mg-run-summary.h"
#include "symbols/mg-source-bundle.h"
#include "profile-fixture.h"
#include "stacks-fixture.h"
#include "mg-test-common.h"

static const guint8 build_id[] = { 0xab, 0xcd, 0xef, 0x01 };

/* The fixture profile with three stacks of process 0, innermost first:
 * (0x1100, ret 0x1203) 30 times, (0x1180, ret 0x1203) 10 times and one
 * frame outside every module 5 times: the stacks of
 * tests/fixtures/profile/format-v6.mgprof, and one more. The module's
 * build-id is build_id. */
static MgProfile *
stacks_profile (void)
{
  MgProfile *profile = profile_fixture_profile ();

  stacks_fixture_set (profile, "module /opt/demo/prog abcdef01\n"
                               "process 0\n"
                               "windows 0..0.5 0.5..1\n"
                               "0 0x1203;0x1100 30\n"
                               "1 0x1203;0x1180 10\n"
                               "1 ?:0x999 5\n");
  return profile;
}

/* Sources in a folder of the test's own: hot.c (small) and cold.c (2000
 * bytes), named by the fake symboliser below. */
typedef struct {
  char *dir;
  char *hot, *cold;
  char *hot_text, *cold_text;
  guint calls;       /* the namer's */
  GHashTable *asked; /* the addresses it was asked for */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = mg_test_make_dir ("profile-code");
  f->hot = g_build_filename (f->dir, "hot.c", NULL);
  f->cold = g_build_filename (f->dir, "cold.c", NULL);
  f->hot_text = g_strdup ("int\nhot (int x)\n{\n  return x * 3;\n}\n");
  GString *cold = g_string_new ("/* cold */\n");
  while (cold->len < 2000)
    g_string_append (cold, "int cold_line;\n");
  f->cold_text = g_string_free (cold, FALSE);
  g_assert_true (g_file_set_contents (f->hot, f->hot_text, -1, &error));
  g_assert_true (g_file_set_contents (f->cold, f->cold_text, -1, &error));
  f->asked = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->hot);
  g_free (f->cold);
  g_free (f->hot_text);
  g_free (f->cold_text);
  g_hash_table_unref (f->asked);
}

static void
add_name (GPtrArray *names, const char *function, const char *file, guint line)
{
  MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
  n->function = g_strdup (function);
  n->file = g_strdup (file);
  n->line = line;
  n->label = g_strdup (function);
  g_ptr_array_add (names, n);
}

/* What a symboliser would say of the fixture's addresses: 0x1100 is in
 * square() inlined into hot(), 0x1180 in cold(), the return address
 * 0x1203 (looked up at 0x1202) in main() (hot.c); nothing else. */
static gboolean
fake_name (gpointer data, const char *module_path, const guint8 *id, gsize id_len, guint64 vaddr,
           GPtrArray *names)
{
  Fixture *f = data;

  f->calls++;
  g_hash_table_add (f->asked, g_memdup2 (&vaddr, sizeof vaddr));
  g_assert_cmpstr (module_path, ==, "/opt/demo/prog");
  g_assert_cmpmem (id, id_len, build_id, sizeof build_id);
  switch (vaddr)
    {
    case 0x1100:
      add_name (names, "square", f->hot, 4);
      add_name (names, "hot", f->hot, 2);
      return TRUE;
    case 0x1180:
      add_name (names, "cold", f->cold, 3);
      return TRUE;
    case 0x1202:
      add_name (names, "main", f->hot, 9);
      return TRUE;
    default:
      return FALSE;
    }
}

/* The front ends' collector, on MgSourceBundle. */
static void
bundle_collect (gpointer data, const char *const *files, const guint64 *samples, guint n_files,
                gsize limit, GPtrArray *texts, GPtrArray *omissions)
{
  g_autoptr (MgSourceBundle) bundle = mg_source_bundle_new (limit);
  for (guint i = 0; i < n_files; i++)
    mg_source_bundle_add (bundle, files[i], samples[i]);
  mg_source_bundle_collect (bundle);
  GPtrArray *kept = mg_source_bundle_get_texts (bundle);
  for (guint i = 0; i < kept->len; i++)
    {
      const MgSourceText *t = g_ptr_array_index (kept, i);
      MgCodeSource *s = g_new0 (MgCodeSource, 1);
      s->path = g_strdup (t->path);
      s->text = g_bytes_ref (t->text);
      g_ptr_array_add (texts, s);
    }
  GPtrArray *left = mg_source_bundle_get_omissions (bundle);
  for (guint i = 0; i < left->len; i++)
    {
      const MgSourceOmission *o = g_ptr_array_index (left, i);
      MgCodeOmission *m = g_new0 (MgCodeOmission, 1);
      m->path = g_strdup (o->path);
      m->reason = g_strdup (o->reason);
      g_ptr_array_add (omissions, m);
    }
}

/* Saved and read back. */
static MgProfile *
reload (Fixture *f, MgProfile *profile)
{
  g_autofree char *path = g_build_filename (f->dir, "code.mgprof", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (mg_profile_save (profile, path, &error));
  MgProfile *loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  return loaded;
}

static char *
folded (Fixture *f, MgProfile *profile)
{
  g_autofree char *path = g_build_filename (f->dir, "run.folded", NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (mg_export_folded (profile, path, NULL, -INFINITY, INFINITY, NULL, &error));
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  return text;
}

static void
assert_text (MgProfile *profile, const char *file, const char *expected)
{
  g_autoptr (GBytes) text = mg_profile_get_source_text (profile, file);
  g_assert_nonnull (text);
  g_assert_cmpmem (g_bytes_get_data (text, NULL), g_bytes_get_size (text), expected,
                   strlen (expected));
}

/* Each distinct frame named once; after a save and a load, without the
 * sources or the namer, the export names every frame the namer named and
 * the texts come back as they were. */
static void
test_round_trip (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  MgStackNamer namer = { fake_name, f };
  MgSourceCollector sources = { bundle_collect, NULL };

  g_assert_false (mg_profile_has_stored_names (profile));
  mg_profile_store_code (profile, &namer, &sources, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  /* 0x1100, 0x1180, 0x1202 (0x1203 of two stacks, one byte back). */
  g_assert_cmpuint (f->calls, ==, 3);
  guint64 ret = 0x1202;
  g_assert_true (g_hash_table_contains (f->asked, &ret));

  g_assert_cmpint (g_unlink (f->hot), ==, 0);
  g_assert_cmpint (g_unlink (f->cold), ==, 0);
  g_autoptr (MgProfile) loaded = reload (f, profile);
  g_assert_true (mg_profile_has_stored_names (loaded));
  g_autofree char *text = folded (f, loaded);
  g_assert_cmpstr (text, ==, "0x999 5\nmain;cold 10\nmain;hot;square 30\n");

  /* By module path and build-id, innermost first, with files and lines. */
  MgStackNamer stored = mg_profile_get_stored_namer (loaded);
  g_autoptr (GPtrArray) names =
    g_ptr_array_new_with_free_func ((GDestroyNotify) mg_stack_frame_name_free);
  g_assert_true (stored.func (stored.data, "/opt/demo/prog", build_id, 4, 0x1100, names));
  g_assert_cmpuint (names->len, ==, 2);
  const MgStackFrameName *inner = names->pdata[0], *outer = names->pdata[1];
  g_assert_cmpstr (inner->function, ==, "square");
  g_assert_cmpstr (inner->file, ==, f->hot);
  g_assert_cmpuint (inner->line, ==, 4);
  g_assert_cmpstr (outer->function, ==, "hot");
  g_assert_cmpuint (outer->line, ==, 2);
  /* Another build of the module is not named by this one's names. */
  const guint8 other[] = { 1, 2, 3, 4 };
  g_assert_false (stored.func (stored.data, "/opt/demo/prog", other, 4, 0x1100, names));
  g_assert_false (stored.func (stored.data, "/opt/demo/prog", build_id, 4, 0x1203, names));
  g_assert_cmpuint (names->len, ==, 2);

  /* hot.c holds 30 + 10 + 30 samples' lines, cold.c 10: kept in that order. */
  g_assert_cmpuint (mg_profile_get_n_sources (loaded), ==, 2);
  g_assert_cmpstr (mg_profile_get_source_path (loaded, 0), ==, f->hot);
  g_assert_cmpstr (mg_profile_get_source_path (loaded, 1), ==, f->cold);
  assert_text (loaded, f->hot, f->hot_text);
  assert_text (loaded, f->cold, f->cold_text);
  g_assert_cmpuint (mg_profile_get_sources_size (loaded), ==,
                    strlen (f->hot_text) + strlen (f->cold_text));
  g_assert_cmpuint (mg_profile_get_source_limit (loaded), ==, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  g_assert_cmpuint (mg_profile_get_n_source_omissions (loaded), ==, 0);
  g_assert_null (mg_profile_get_source_text (loaded, "/nowhere.c"));
  /* Nothing left out: the report says nothing of it. */
  g_autoptr (MgReport) report = mg_report_new (loaded, NULL, NULL);
  for (guint i = 0; i < report->sections->len; i++)
    g_assert_cmpstr (((MgReportSection *) report->sections->pdata[i])->heading, !=,
                     "Source text left out");
}

/* A bound smaller than cold.c leaves it out, named with its reason, and
 * keeps hot.c. */
static void
test_bound (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  MgStackNamer namer = { fake_name, f };
  MgSourceCollector sources = { bundle_collect, NULL };
  const char *reason = NULL;

  mg_profile_store_code (profile, &namer, &sources, 500);
  g_autoptr (MgProfile) loaded = reload (f, profile);
  g_assert_cmpuint (mg_profile_get_n_sources (loaded), ==, 1);
  assert_text (loaded, f->hot, f->hot_text);
  g_assert_null (mg_profile_get_source_text (loaded, f->cold));
  g_assert_cmpuint (mg_profile_get_source_limit (loaded), ==, 500);
  g_assert_cmpuint (mg_profile_get_n_source_omissions (loaded), ==, 1);
  g_assert_cmpstr (mg_profile_get_source_omission (loaded, 0, &reason), ==, f->cold);
  g_test_message ("left out: %s", reason);
  g_assert_nonnull (strstr (reason, "2"));
  /* The names do not depend on the bound. */
  g_autofree char *text = folded (f, loaded);
  g_assert_cmpstr (text, ==, "0x999 5\nmain;cold 10\nmain;hot;square 30\n");

  /* The report names the file left out, with why. */
  g_autoptr (MgReport) report = mg_report_new (loaded, NULL, NULL);
  const MgReportSection *section = NULL;
  for (guint i = 0; i < report->sections->len; i++)
    {
      const MgReportSection *s = g_ptr_array_index (report->sections, i);
      if (g_strcmp0 (s->heading, "Source text left out") == 0)
        section = s;
    }
  g_assert_nonnull (section);
  g_assert_nonnull (strstr (section->text, "1 source file"));
  g_assert_cmpuint (section->lines->len, ==, 1);
  const MgReportLine *line = g_ptr_array_index (section->lines, 0);
  g_assert_cmpstr (line->name, ==, f->cold);
  g_assert_cmpstr (line->value_text, ==, reason);

  /* The run's summary counts it and says which command names it (it said
   * "the report names it": which report, a new user asked). */
  MgRunSummaryRequest request = { .output = "run.mgprof" };
  g_autoptr (MgRunSummary) summary = mg_run_summary_new (loaded, &request);
  const char *said = NULL;
  for (guint i = 0; summary->lines[i] != NULL; i++)
    if (strstr (summary->lines[i], "source text") != NULL)
      said = summary->lines[i];
  g_assert_nonnull (said);
  g_test_message ("%s", said);
  g_assert_true (g_str_has_prefix (said, "metrograph: the profile keeps the source text of 1 file ("));
  g_assert_true (g_str_has_suffix (said, "; 1 file with sampled lines is left out "
                                         "(metrograph --report names it)\n"));
}

/* Without a collector the names are stored and no text. */
static void
test_names_only (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  MgStackNamer namer = { fake_name, f };

  mg_profile_store_code (profile, &namer, NULL, MG_PROFILE_SOURCE_DEFAULT_LIMIT);
  g_autoptr (MgProfile) loaded = reload (f, profile);
  g_assert_true (mg_profile_has_stored_names (loaded));
  g_assert_cmpuint (mg_profile_get_n_sources (loaded), ==, 0);
  g_assert_cmpuint (mg_profile_get_source_limit (loaded), ==, 0);
  g_assert_null (mg_profile_get_source_text (loaded, f->hot));
}

/* A profile of format 6 (tests/fixtures/profile/format-v6.mgprof, written
 * by Metrograph before profiles carried names) opens with its stacks,
 * names nothing itself, and is saved in the current format with the same
 * stacks. */
static void
test_format_v6 (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v6.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);

  g_assert_cmpuint (mg_stack_set_get_n_stacks (set), ==, 2);
  g_assert_cmpuint (mg_stack_set_get_total (set), ==, 40);
  g_assert_false (mg_profile_has_stored_names (profile));
  g_assert_cmpuint (mg_profile_get_n_sources (profile), ==, 0);
  g_assert_null (mg_profile_get_source_text (profile, "/opt/demo/prog.c"));
  g_autofree char *text = folded (f, profile);
  g_assert_cmpstr (text, ==, "prog+0x1203;prog+0x1100 30\nprog+0x1203;prog+0x1180 10\n");

  /* Named now, as a run's end would, and saved in the current format. */
  MgStackNamer namer = { fake_name, f };
  mg_profile_store_code (profile, &namer, NULL, 0);
  g_autoptr (MgProfile) again = reload (f, profile);
  g_autofree char *named = folded (f, again);
  g_assert_cmpstr (named, ==, "main;cold 10\nmain;hot;square 30\n");
}

/* A profile of format 7 (tests/fixtures/profile/format-v7.mgprof: the
 * fixture's first two stacks of process 0 in its main thread, the second
 * one's frames also in thread 1 ×5, named by fake_name; written as the
 * format 7 writer wrote it: the payload's first 17 members, unchanged in
 * format 8, under a header of version 7) opens with its stacks, their
 * threads and its names, names no thread, and is saved as format 8 the
 * same, naming none. */
static void
test_format_v7 (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v7.mgprof", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (MgProfile) profile = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_autofree char *version = NULL;
  g_assert_true (g_file_get_contents (path, &version, NULL, &error));
  g_assert_cmpint (version[8], ==, 7);

  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (set), ==, 45);
  g_assert_cmpuint (mg_stack_set_get_n_threads (set), ==, 2);
  g_autoptr (MgStackSet) main_thread = mg_stack_set_new_for_thread (profile, -1,
                                                                    MG_STACK_THREAD_MAIN,
                                                                    -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (main_thread), ==, 40);
  g_assert_true (mg_profile_has_stored_names (profile));
  g_autofree char *text = folded (f, profile);
  g_assert_cmpstr (text, ==, "main;cold 15\nmain;hot;square 30\n");
  g_assert_cmpuint (mg_profile_get_n_thread_names (profile), ==, 0);
  g_assert_null (mg_profile_get_thread_name (profile, 0, 0, NULL));
  g_assert_null (mg_profile_dup_thread_display_name (profile, -1, 1));

  g_autoptr (MgProfile) again = reload (f, profile);
  g_autofree char *saved = NULL;
  g_autofree char *saved_path = g_build_filename (f->dir, "code.mgprof", NULL);
  g_assert_true (g_file_get_contents (saved_path, &saved, NULL, &error));
  g_assert_cmpint (saved[8], ==, 8);
  g_autoptr (MgStackSet) set_again = mg_stack_set_new (again, -1, -INFINITY, INFINITY);
  g_assert_cmpuint (mg_stack_set_get_total (set_again), ==, 45);
  g_assert_cmpuint (mg_stack_set_get_n_threads (set_again), ==, 2);
  g_autofree char *text_again = folded (f, again);
  g_assert_cmpstr (text_again, ==, text);
  g_assert_cmpuint (mg_profile_get_n_thread_names (again), ==, 0);
}

/* Thread names are saved and read back as bytes (one not UTF-8), shown
 * valid; a process index out of range or a name with a NUL inside is a
 * damaged member, which leaves the names as they were. */
static void
test_thread_names (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (GVariant) threads = g_variant_ref_sink (g_variant_new_parsed (
    "@a(iuiay) [(0, 0, 500, b'prog'), (0, 1, 501, b'alpha'), (0, 2, 502, b'gamma\\351'),"
    " (1, 0, 600, b'prog'), (1, 1, 601, b'beta')]"));
  g_autoptr (GVariant) out_of_range = g_variant_ref_sink (
    g_variant_new_parsed ("@a(iuiay) [(2, 0, 1, b'x')]"));
  g_autoptr (GVariant) nul_inside = g_variant_ref_sink (
    g_variant_new_parsed ("@a(iuiay) [(0, 0, 1, [byte 0x61, 0x00, 0x62, 0x00])]"));

  g_assert_true (mg_profile_set_threads (profile, threads));
  g_autoptr (MgProfile) loaded = reload (f, profile);
  gint32 tid = 0;
  g_assert_cmpuint (mg_profile_get_n_thread_names (loaded), ==, 5);
  g_assert_cmpstr (mg_profile_get_thread_name (loaded, 0, 1, &tid), ==, "alpha");
  g_assert_cmpint (tid, ==, 501);
  g_assert_cmpstr (mg_profile_get_thread_name (loaded, 0, 2, NULL), ==, "gamma\351");
  g_assert_cmpstr (mg_profile_get_thread_name (loaded, 1, 1, &tid), ==, "beta");
  g_assert_cmpint (tid, ==, 601);
  g_assert_null (mg_profile_get_thread_name (loaded, 1, 2, &tid));
  g_assert_cmpint (tid, ==, 0);
  g_autofree char *gamma = mg_profile_dup_thread_display_name (loaded, 0, 2);
  g_assert_cmpstr (gamma, ==, "gamma\xef\xbf\xbd");
  /* Every process: the main threads agree, threads 1 do not. */
  g_autofree char *main_all = mg_profile_dup_thread_display_name (loaded, -1, 0);
  g_assert_cmpstr (main_all, ==, "prog");
  g_assert_null (mg_profile_dup_thread_display_name (loaded, -1, 1));
  g_autofree char *gamma_all = mg_profile_dup_thread_display_name (loaded, -1, 2);
  g_assert_cmpstr (gamma_all, ==, "gamma\xef\xbf\xbd");

  g_assert_false (mg_profile_set_threads (loaded, out_of_range));
  g_assert_false (mg_profile_set_threads (loaded, nul_inside));
  g_assert_cmpuint (mg_profile_get_n_thread_names (loaded), ==, 5);
}

/* Names of a module the stacks do not have are a damaged file. */
static void
test_damaged (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = stacks_profile ();
  g_autoptr (GVariant) code = g_variant_ref_sink (
    g_variant_new_parsed ("@(a(uta(sayu))a(ayay)a(ays)t) ([(7, 16, [('f', b'a.c', 1)])], [], [], 0)"));
  g_autoptr (GVariant) path_not_name = g_variant_ref_sink (
    g_variant_new_parsed ("@(a(uta(sayu))a(ayay)a(ays)t) ([], [([], b'x')], [], 0)"));

  g_assert_false (mg_profile_set_code (profile, code));
  g_assert_false (mg_profile_set_code (profile, path_not_name));
  /* What it had stays. */
  g_assert_false (mg_profile_has_stored_names (profile));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/profile/code/round-trip", test_round_trip);
  ADD ("/profile/code/bound", test_bound);
  ADD ("/profile/code/names-only", test_names_only);
  ADD ("/profile/code/format-v6", test_format_v6);
  ADD ("/profile/code/format-v7", test_format_v7);
  ADD ("/profile/code/thread-names", test_thread_names);
  ADD ("/profile/code/damaged", test_damaged);
  return g_test_run ();
}
