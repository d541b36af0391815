/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The .mgprof file: round trip, and damaged, truncated, foreign and future
 * files rejected with the right error naming the file. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "mg-config.h"

#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <json-glib/json-glib.h>

#include "profile/mg-crc32.h"
#include "profile/mg-export-json.h"
#include "profile/mg-process-block.h"
#include "profile/mg-profile-header.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-profile-layout.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stop-event.h"
#include "profile-fixture.h"
#include "mg-test-common.h"

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("mg-profile-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}


/* A process's block in a saved file, as the saving encodes it. */
static GBytes *
block_of (MgProfile *profile, guint process)
{
  guint n_metrics = mg_profile_get_n_metrics (profile);
  g_autofree guint8 *reported = g_new0 (guint8, n_metrics);
  const MgProcessSeries *first = mg_profile_get_process_series (profile, process, 0);

  for (guint m = 0; m < n_metrics; m++)
    reported[m] = mg_profile_get_process_series (profile, process, m)->n > 0;
  return mg_process_block_encode (profile->process_n[process], n_metrics, first->times,
                                  first->mins, reported, MG_PROCESS_PRECISION_EXACT);
}

/* Where that block starts in the file's bytes (0: not found). */
static gsize
block_offset (const guchar *data, gsize size, MgProfile *profile, guint process)
{
  g_autoptr(GBytes) block = block_of (profile, process);
  gsize len;
  const guchar *bytes = g_bytes_get_data (block, &len);

  g_assert_cmpuint (len, >, 8);
  for (gsize at = MG_PROFILE_HEADER_LEN; at + len <= size; at++)
    if (memcmp (data + at, bytes, len) == 0)
      return at;
  return 0;
}


/* The bytes of the fixture profile as saved. */
static GBytes *
saved_fixture (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "p.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  char *data;
  gsize size;

  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, &size, &error));
  mg_test_remove_tree (dir);
  return g_bytes_new_take (data, size);
}

/* The same bytes loaded from memory and from a file (which reads the
 * processes' series in place, when asked for: a path of its own). */
static void
load_both (const void *data, gsize size, MgProfile **from_bytes, GError **bytes_error,
           MgProfile **from_file, GError **file_error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "damaged.mgprof", NULL);

  *from_bytes = mg_profile_load_bytes (bytes, "damaged.mgprof", bytes_error);
  g_assert_true (g_file_set_contents (path, data, (gssize) size, NULL));
  *from_file = mg_profile_load (path, file_error);
  mg_test_remove_tree (dir);
}

static void
assert_load_fails (const void *data, gsize size, int code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) file_error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autoptr(MgProfile) from_file = NULL;

  load_both (data, size, &profile, &error, &from_file, &file_error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, code);
  g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
  g_assert_null (from_file);
  g_assert_error (file_error, MG_PROFILE_ERROR, code);
  g_assert_nonnull (strstr (file_error->message, "damaged.mgprof"));
}

static void
test_file_round_trip (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autoptr(MgProfile) loaded = NULL;
  g_autoptr(MgProfile) again = NULL;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "run.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) d = NULL;

  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  profile_fixture_assert_profiles_equal (profile, loaded);
  /* Spot checks that the fixture is not trivially empty. */
  g_assert_cmpuint (mg_profile_get_n_windows (loaded), ==, 4);
  g_assert_cmpuint (mg_profile_get_process_series (loaded, 1, 1)->n, ==, 0);
  g_assert_cmpuint (mg_profile_get_process_series (loaded, 0, 1)->n, ==, 4);
  g_assert_cmpfloat (mg_profile_get_single_value (loaded, 2)->sum, ==, 3072.0);
  g_assert_cmpstr (mg_profile_get_metric (loaded, 0)->colour_spec, ==, "#336699");

  /* Saving a loaded profile over the file gives the same profile again and
   * leaves no temporary file behind. */
  g_assert_true (mg_profile_save (loaded, path, &error));
  g_assert_no_error (error);
  again = mg_profile_load (path, &error);
  g_assert_no_error (error);
  profile_fixture_assert_profiles_equal (profile, again);
  d = g_dir_open (dir, 0, NULL);
  g_assert_cmpstr (g_dir_read_name (d), ==, "run.mgprof");
  g_assert_null (g_dir_read_name (d));
  mg_test_remove_tree (dir);
}

static void
test_file_save_fails (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  g_autoptr(GError) error = NULL;

  g_assert_false (mg_profile_save (profile, "/nonexistent-dir/x.mgprof", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.mgprof"));
}

static void
test_file_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = mg_profile_load ("/nonexistent/none.mgprof", &error);

  g_assert_null (profile);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "none.mgprof"));
}

static void
test_file_corrupted (void)
{
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size;
  const guchar *data = g_bytes_get_data (bytes, &size);
  g_autofree guchar *copy = g_memdup2 (data, size);

  copy[size / 2] ^= 0x40;
  assert_load_fails (copy, size, MG_PROFILE_ERROR_CORRUPT);
  copy[size / 2] ^= 0x40;
  copy[12] ^= 1; /* the checksum itself */
  assert_load_fails (copy, size, MG_PROFILE_ERROR_CORRUPT);
}

/* Damage with a recomputed checksum: the structure checks must catch it (or
 * the profile still loads consistently), never a crash. */
static void
test_file_corrupted_structure (void)
{
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size;
  const guchar *data = g_bytes_get_data (bytes, &size);
  guint n_rejected = 0;

  for (gsize pos = 24; pos < size; pos += 7)
    {
      g_autofree guchar *copy = g_memdup2 (data, size);
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) file_error = NULL;
      g_autoptr(MgProfile) profile = NULL;
      g_autoptr(MgProfile) from_file = NULL;
      guint32 crc;

      copy[pos] ^= 0xff;
      crc = GUINT32_TO_LE (mg_profile_payload_crc (copy + 24, size - 24, MG_PROFILE_VERSION));
      memcpy (copy + 12, &crc, 4);
      load_both (copy, size, &profile, &error, &from_file, &file_error);
      if (profile == NULL)
        {
          g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
          g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
          /* Read in place, the file is judged the same. */
          g_assert_null (from_file);
          g_assert_error (file_error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
          n_rejected++;
        }
      else
        {
          /* A value changed: every getter still works, and the file read in
           * place gives the same profile. */
          g_assert_no_error (file_error);
          for (guint p = 0; p < mg_profile_get_n_processes (profile); p++)
            for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
              {
                const MgProcessSeries *s = mg_profile_get_process_series (profile, p, m);

                if (s->n > 0)
                  (void) (s->times[s->n - 1] + s->means[s->n - 1]);
              }
          profile_fixture_assert_profiles_equal (profile, from_file);
        }
    }
  g_assert_cmpuint (n_rejected, >, 0);
}

/* A payload of tests/fixtures/fuzz/profile (which the fuzz replay also
 * reads) with a right header: version, CRC and length. */
static MgProfile *
load_payload_fixture (const char *name, GError **error)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "fuzz", "profile",
                                                 name, NULL);
  g_autofree char *payload = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len = 0;
  guchar *file;
  guint32 version = GUINT32_TO_LE (MG_PROFILE_VERSION), crc;
  guint64 len_le;

  g_assert_true (g_file_get_contents (path, &payload, &len, NULL));
  file = g_malloc (MG_PROFILE_HEADER_LEN + len);
  memcpy (file, MG_PROFILE_MAGIC, MG_PROFILE_MAGIC_LEN);
  memcpy (file + 8, &version, 4);
  len_le = GUINT64_TO_LE ((guint64) len);
  memcpy (file + 16, &len_le, 8);
  memcpy (file + MG_PROFILE_HEADER_LEN, payload, len);
  crc = GUINT32_TO_LE (mg_profile_payload_crc (file + MG_PROFILE_HEADER_LEN, len,
                                               MG_PROFILE_VERSION));
  memcpy (file + 12, &crc, 4);
  bytes = g_bytes_new_take (file, MG_PROFILE_HEADER_LEN + len);
  return mg_profile_load_bytes (bytes, name, error);
}

/* Hostile files with a right checksum: a payload length of 2^64 - 1 (its
 * message said "57820 of 23 bytes are there": the length plus the header
 * wrapped around), and sample windows at NaN or -1e308 s (drawn nowhere,
 * exported as null), are refused as damaged. */
static void
test_file_hostile (void)
{
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size;
  const guchar *data = g_bytes_get_data (bytes, &size);
  g_autofree guchar *copy = g_memdup2 (data, size);
  g_autoptr(GBytes) hostile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autofree char *expected = NULL;
  guint64 len = G_MAXUINT64;

  memcpy (copy + 16, &len, 8);
  hostile = g_bytes_new (copy, size);
  g_assert_null (mg_profile_load_bytes (hostile, "long.mgprof", &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "payload length beyond any file"));
  g_clear_error (&error);
  g_clear_pointer (&hostile, g_bytes_unref);

  /* The longest a file can say: truncated, both sizes right. */
  len = GUINT64_TO_LE (G_MAXUINT64 - MG_PROFILE_HEADER_LEN);
  memcpy (copy + 16, &len, 8);
  hostile = g_bytes_new (copy, size);
  g_assert_null (mg_profile_load_bytes (hostile, "long.mgprof", &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_TRUNCATED);
  expected = g_strdup_printf ("%zu of 18446744073709551615 bytes are there", size);
  g_assert_nonnull (strstr (error->message, expected));
  g_clear_error (&error);

  profile = load_payload_fixture ("window-start-nan.payload", &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "sample window times"));
  g_clear_error (&error);
  profile = load_payload_fixture ("window-end-minus-1e308.payload", &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "sample window times"));
  g_clear_error (&error);
  /* A real run's payload, with the same header, loads. */
  profile = load_payload_fixture ("format-v5-bytes.payload", &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_clear_object (&profile);
  /* The same run with call stacks packed as format 7 stores them. */
  profile = load_payload_fixture ("stacks-packed.payload", &error);
  g_assert_no_error (error);
  {
    g_autoptr(MgStackSet) set = mg_stack_set_new (profile, -1, -G_MAXDOUBLE, G_MAXDOUBLE);

    g_assert_cmpuint (mg_stack_set_get_n_stacks (set), ==, 3);
    g_assert_cmpuint (mg_stack_set_get_total (set), ==, 30 + 10 + 40 + 8);
    g_assert_cmpuint (mg_stack_set_get_n_modules (set), ==, 2);
    g_assert_cmpstr (mg_stack_set_get_module (set, 1)->path, ==, "/lib/libmpi.so");
  }
}

static void
test_file_truncated (void)
{
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size;
  const guchar *data = g_bytes_get_data (bytes, &size);

  g_assert_cmpuint (size, >, 400);
  assert_load_fails (data, 0, MG_PROFILE_ERROR_NOT_A_PROFILE);
  for (gsize len = 1; len < 400; len++)
    assert_load_fails (data, len, MG_PROFILE_ERROR_TRUNCATED);
  assert_load_fails (data, size / 2, MG_PROFILE_ERROR_TRUNCATED);
  assert_load_fails (data, size - 1, MG_PROFILE_ERROR_TRUNCATED);
}

static void
test_file_foreign (void)
{
  static const guchar png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
                                'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0 };
  const char *text = "# not a profile\nsome text that is long enough to have a header\n";
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "empty.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;

  assert_load_fails (png, sizeof png, MG_PROFILE_ERROR_NOT_A_PROFILE);
  assert_load_fails (text, strlen (text), MG_PROFILE_ERROR_NOT_A_PROFILE);

  profile = mg_profile_load (dir, &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  profile = mg_profile_load (path, &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_NOT_A_PROFILE);
  g_assert_nonnull (strstr (error->message, "empty.mgprof"));
  mg_test_remove_tree (dir);
}

static void
test_file_future_version (void)
{
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size;
  const guchar *data = g_bytes_get_data (bytes, &size);
  g_autofree guchar *copy = g_memdup2 (data, size);
  guint32 version = GUINT32_TO_LE (MG_PROFILE_VERSION + 1);
  g_autoptr(GBytes) future = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;

  memcpy (copy + 8, &version, 4);
  future = g_bytes_new (copy, size);
  profile = mg_profile_load_bytes (future, "future.mgprof", &error);
  g_assert_null (profile);
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_VERSION);
  g_assert_nonnull (strstr (error->message, "future.mgprof"));
  g_assert_nonnull (strstr (error->message, "newer"));
}

/* A profile with no samples at all still saves and loads. */
static void
test_file_empty_profile (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) def = profile_fixture_metric ("alpha", MG_DOMAIN_TIME);
  MgProcessInfo info = { 1, 0, -1, (char *) "h", NULL, 0.0, 0.0, MG_PROCESS_END_UNKNOWN, 0, FALSE };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "empty.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autoptr(MgProfile) loaded = NULL;

  mg_profile_builder_add_metric (builder, def);
  mg_profile_builder_add_process (builder, &info);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 0);
  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  profile_fixture_assert_profiles_equal (profile, loaded);
  g_assert_null (mg_profile_get_process (loaded, 0)->program);
  mg_test_remove_tree (dir);
}

/* A file written by format version 1 (tests/fixtures/profile) stays
 * readable: this catches format changes made without a version bump. */
static void
test_file_version1_fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v1.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = mg_profile_load (path, &error);
  g_autoptr(MgProfile) expected = profile_fixture_profile ();
  const MgSeries *s;

  g_assert_no_error (error);
  g_assert_cmpuint (mg_profile_get_n_metrics (profile), ==, 3);
  g_assert_cmpstr (mg_profile_get_metric (profile, 2)->id, ==, "gamma");
  g_assert_cmpstr (mg_profile_get_metric (profile, 0)->display_units, ==, "kB/s");
  g_assert_cmpuint (mg_profile_get_n_processes (profile), ==, 2);
  g_assert_cmpint (mg_profile_get_process (profile, 1)->status, ==, 9);
  g_assert_cmpuint (mg_profile_get_n_windows (profile), ==, 4);
  s = mg_profile_get_series (profile, 0);
  for (guint w = 0; w < 4; w++)
    {
      g_assert_cmpfloat (s->means[w], ==, mg_profile_get_series (expected, 0)->means[w]);
      g_assert_cmpint (s->max_process[w], ==, mg_profile_get_series (expected, 0)->max_process[w]);
    }
  g_assert_cmpfloat (mg_profile_get_single_value (profile, 2)->var, ==, 262144.0);
  g_assert_cmpstr (mg_profile_get_event (profile, 1)->message, ==, "disk full");
  /* Format 1 had no program output. */
  g_assert_null (mg_profile_get_run_info (profile)->output);
  g_assert_cmpuint (mg_profile_get_run_info (profile)->output_cut, ==, 0);
}

/* So does a file of format version 2 (one array of doubles per process,
 * read in place): every field and series as the fixture has them. */
static void
test_file_version2_fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v2.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = mg_profile_load (path, &error);
  g_autoptr(MgProfile) expected = profile_fixture_profile ();

  g_assert_no_error (error);
  g_assert_null (profile->packed);
  profile_fixture_assert_profiles_equal (expected, profile);
}

/* So does a file of format version 3 (each process one compact block, no
 * precision member: exact), written from the format 2 fixture by the last
 * build that wrote format 3. */
static void
test_file_version3_fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v3.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = mg_profile_load (path, &error);
  g_autoptr(MgProfile) expected = profile_fixture_profile ();

  g_assert_no_error (error);
  g_assert_nonnull (profile->packed);
  g_assert_cmpint (mg_profile_get_process_precision (profile), ==, MG_PROCESS_PRECISION_EXACT);
  profile_fixture_assert_profiles_equal (expected, profile);
}

/* So does a file of format version 4 (argv, folder, hosts, programs and
 * output as UTF-8 text), written from the fixture by the last build that
 * wrote format 4. */
static void
test_file_version4_fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "profile",
                                                 "format-v4.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = mg_profile_load (path, &error);
  g_autoptr(MgProfile) expected = profile_fixture_profile ();

  g_assert_no_error (error);
  g_assert_cmpstr (mg_profile_get_run_info (profile)->argv[1], ==, "a b");
  g_assert_cmpstr (mg_profile_get_run_info (profile)->output, ==, "starting\nrank 1: ü done\n");
  profile_fixture_assert_profiles_equal (expected, profile);
}

/* n_proc processes of one metric "wave", 8 windows: process p holds
 * p·10 + k in window k (min half below, max half above). */
static MgProfile *
many_processes_profile (guint n_proc)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) def = profile_fixture_metric ("wave", MG_DOMAIN_TIME);
  g_autoptr(GError) error = NULL;
  MgProfile *built;

  mg_profile_builder_add_metric (builder, def);
  for (guint p = 0; p < n_proc; p++)
    {
      MgProcessInfo info = { 100 + (int) p, 1, (int) p, (char *) "h", (char *) "a", 0.0, 8.0,
                             MG_PROCESS_END_EXITED, 0, FALSE };

      mg_profile_builder_add_process (builder, &info);
      for (guint k = 0; k < 8; k++)
        {
          double min = p * 10.0 + k - 0.5, max = min + 1, mean = p * 10.0 + k;

          mg_profile_builder_add_sample (builder, p, k, k + 1, &min, &max, &mean);
        }
    }
  built = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  return built;
}

/* A saved profile's processes stay packed until asked for, one at a time;
 * only the last MG_PROFILE_UNPACKED_MAX asked for stay decoded, and one
 * asked for again decodes to the same values. */
static void
test_file_unpacked_on_demand (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "many.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  guint n_proc = MG_PROFILE_UNPACKED_MAX + 4, unpacked = 0;
  g_autoptr(MgProfile) built = many_processes_profile (n_proc);
  g_autoptr(MgProfile) loaded = NULL;
  const MgProcessSeries *s;

  g_assert_true (mg_profile_save (built, path, &error));
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);

  g_assert_nonnull (loaded->packed);
  for (guint p = 0; p < n_proc; p++)
    g_assert_null (loaded->packed[p].memory);
  s = mg_profile_get_process_series (loaded, 3, 0);
  g_assert_cmpuint (s->n, ==, 8);
  g_assert_cmpfloat (s->means[5], ==, 35.0);
  g_assert_cmpfloat (s->mins[5], ==, 34.5);
  g_assert_cmpfloat (s->maxs[5], ==, 35.5);
  g_assert_cmpfloat (s->times[7], ==, 8.0);
  for (guint p = 0; p < n_proc; p++)
    unpacked += loaded->packed[p].memory != NULL;
  g_assert_cmpuint (unpacked, ==, 1);

  for (guint p = 4; p < n_proc; p++)
    g_assert_cmpuint (mg_profile_get_process_series (loaded, p, 0)->n, ==, 8);
  g_assert_null (loaded->packed[3].memory);
  g_assert_cmpuint (s->n, ==, 0);
  g_assert_cmpfloat (mg_profile_get_process_series (loaded, 3, 0)->means[5], ==, 35.0);
  profile_fixture_assert_profiles_equal (built, loaded);
  mg_test_remove_tree (dir);
}

/* Copies of every process's series (the rank overview's) hold the values,
 * from a file and from memory alike, and leave the process the graphs
 * show decoded where it was: its series' memory is not freed. */
static void
test_file_dup_keeps_decoded (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "many.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  guint n_proc = MG_PROFILE_UNPACKED_MAX * 2;
  g_autoptr(MgProfile) built = many_processes_profile (n_proc);
  g_autoptr(MgProfile) loaded = NULL;
  const MgProcessSeries *shown;
  const double *shown_means;

  g_assert_true (mg_profile_save (built, path, &error));
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  shown = mg_profile_get_process_series (loaded, 3, 0);
  shown_means = shown->means;
  for (guint i = 0; i < 2; i++)
    {
      MgProfile *profile = i == 0 ? loaded : built;

      for (guint p = 0; p < n_proc; p++)
        {
          g_autofree MgProcessSeries *copy = mg_profile_dup_process_series (profile, p, 0, &error);

          g_assert_no_error (error);
          g_assert_cmpuint (copy->n, ==, 8);
          for (guint k = 0; k < 8; k++)
            {
              g_assert_cmpfloat (copy->means[k], ==, p * 10.0 + k);
              g_assert_cmpfloat (copy->mins[k], ==, p * 10.0 + k - 0.5);
              g_assert_cmpfloat (copy->maxs[k], ==, p * 10.0 + k + 0.5);
              g_assert_cmpfloat (copy->times[k], ==, k + 1);
            }
        }
    }
  g_assert_nonnull (loaded->packed[3].memory);
  g_assert_true (shown->means == shown_means);
  g_assert_cmpfloat (shown->means[5], ==, 35.0);
  for (guint p = 0; p < n_proc; p++)
    if (p != 3)
      g_assert_null (loaded->packed[p].memory);
  mg_test_remove_tree (dir);
}

/* A block damaged with its CRC made to match: it passes the check of its
 * bytes, so saving it as it is works; saving it at single precision, which
 * decodes it, fails with the reader's error naming the file and the
 * process, and writes nothing. */
static void
test_file_damaged_block_single (void)
{
  g_autoptr(MgProfile) expected = profile_fixture_profile ();
  g_autoptr(GBytes) bytes = saved_fixture ();
  g_autoptr(GBytes) block = block_of (expected, 0);
  gsize size, at, len = g_bytes_get_size (block);
  const guchar *data = g_bytes_get_data (bytes, &size);
  g_autofree guchar *copy = g_memdup2 (data, size);
  g_autoptr(GBytes) damaged = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *as_is = g_build_filename (dir, "as-is.mgprof", NULL);
  g_autofree char *single = g_build_filename (dir, "single.mgprof", NULL);
  g_autofree char *process = g_strdup_printf ("process %d", mg_profile_get_process (expected, 0)->pid);
  guint32 crc;

  at = block_offset (data, size, expected, 0);
  g_assert_cmpuint (at, >, 0);
  /* The block's last byte: its last stream no longer unpacks as it should. */
  copy[at + len - 1] ^= 0xff;
  crc = GUINT32_TO_LE (mg_crc32_update (0, copy + at + 4, len - 4));
  memcpy (copy + at, &crc, 4);
  damaged = g_bytes_new (copy, size);
  profile = mg_profile_load_bytes (damaged, "damaged.mgprof", &error);
  g_assert_no_error (error);
  g_assert_true (mg_profile_save (profile, as_is, &error));
  g_assert_no_error (error);

  mg_profile_set_process_precision (profile, MG_PROCESS_PRECISION_SINGLE);
  g_assert_false (mg_profile_save (profile, single, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
  g_assert_nonnull (strstr (error->message, process));
  g_assert_false (g_file_test (single, G_FILE_TEST_EXISTS));
  mg_test_remove_tree (dir);
}

/* A block whose bytes are damaged: the file's checksum leaves the blocks out
 * (each carries its own), so the profile opens; the process's series read
 * as empty, and the error names the file and the process. */
static void
test_file_damaged_block (void)
{
  g_autoptr(MgProfile) expected = profile_fixture_profile ();
  g_autoptr(GBytes) bytes = saved_fixture ();
  gsize size, at;
  const guchar *data = g_bytes_get_data (bytes, &size);
  g_autofree guchar *copy = g_memdup2 (data, size);
  g_autoptr(GBytes) damaged = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) profile = NULL;
  g_autofree char *process = g_strdup_printf ("process %d", mg_profile_get_process (expected, 0)->pid);

  at = block_offset (data, size, expected, 0);
  g_assert_cmpuint (at, >, 0);
  copy[at + 4] ^= 0xff;
  damaged = g_bytes_new (copy, size);
  profile = mg_profile_load_bytes (damaged, "damaged.mgprof", &error);
  g_assert_no_error (error);
  g_assert_false (mg_profile_read_process_series (profile, 0, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
  g_assert_nonnull (strstr (error->message, process));
  for (guint m = 0; m < mg_profile_get_n_metrics (profile); m++)
    g_assert_cmpuint (mg_profile_get_process_series (profile, 0, m)->n, ==, 0);
  /* The other process is intact. */
  g_assert_true (mg_profile_read_process_series (profile, 1, NULL));
  g_assert_cmpuint (mg_profile_get_process_series (profile, 1, 0)->n, ==,
                    mg_profile_get_process_series (expected, 1, 0)->n);

  /* Read in place, the file opens without reading the blocks, and the
   * damage shows when the process is read. */
  {
    g_autofree char *dir = make_tmpdir ();
    g_autofree char *path = g_build_filename (dir, "damaged.mgprof", NULL);
    g_autoptr(MgProfile) from_file = NULL;

    g_clear_error (&error);
    g_assert_true (g_file_set_contents (path, (const char *) copy, size, &error));
    from_file = mg_profile_load (path, &error);
    g_assert_no_error (error);
    g_assert_false (mg_profile_read_process_series (from_file, 0, &error));
    g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
    g_assert_nonnull (strstr (error->message, process));
    g_assert_true (mg_profile_read_process_series (from_file, 1, NULL));
    mg_test_remove_tree (dir);
  }
}

/* The program's output is kept to its last MG_PROFILE_OUTPUT_MAX bytes,
 * cut at a character, what was left out counted; it survives the file. */
static void
test_file_output (void)
{
  g_autoptr(MgProfile) profile = profile_fixture_profile ();
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgProfile) big = NULL;
  g_autoptr(MgProfile) loaded = NULL;
  g_autoptr(GString) text = g_string_new ("é");  /* 2 bytes: the cut falls inside it */
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "output.mgprof", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (run->output, ==, "starting\nrank 1: ü done\n");
  g_assert_cmpuint (run->output_cut, ==, 12);

  while (text->len < MG_PROFILE_OUTPUT_MAX + 1)
    g_string_append (text, "line of output\n");
  g_string_prepend_c (text, 'x');
  mg_profile_builder_set_output (builder, text->str, 100);
  big = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  run = mg_profile_get_run_info (big);
  g_assert_cmpuint (strlen (run->output), <=, MG_PROFILE_OUTPUT_MAX);
  g_assert_true (g_str_has_suffix (run->output, "line of output\n"));
  g_assert_true (g_utf8_validate (run->output, -1, NULL));
  g_assert_cmpuint (run->output_cut + strlen (run->output), ==, 100 + text->len);
  g_assert_true (mg_profile_save (big, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mg_profile_get_run_info (loaded)->output, ==, run->output);
  g_assert_cmpuint (mg_profile_get_run_info (loaded)->output_cut, ==, run->output_cut);
  mg_test_remove_tree (dir);
}

/* The stop a user asked for is an event of the front end (process -1),
 * in the existing layout: saved, read back, found; a process's own signal
 * event is not one, and a run not stopped has none. */
static void
test_file_stop_event (void)
{
  g_autoptr(MgProfile) fixture = profile_fixture_profile ();
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgProfile) stopped = NULL, loaded = NULL;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "stopped.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  MgProcessEvent stop = mg_stop_event_make (2.5);
  MgProcessEvent killed = { 0, 2.6, MG_EVENT_SIGNAL, SIGTERM, NULL };
  const MgProcessEvent *found;

  g_assert_null (mg_stop_event_find (fixture));
  g_assert_true (mg_stop_event_is (&stop));
  g_assert_false (mg_stop_event_is (&killed));
  mg_profile_builder_add_event (builder, &stop);
  g_free (stop.message);
  stopped = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);
  g_assert_true (mg_profile_save (stopped, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  found = mg_stop_event_find (loaded);
  g_assert_nonnull (found);
  g_assert_cmpint (found->process, ==, -1);
  g_assert_cmpfloat (found->time_s, ==, 2.5);
  g_assert_cmpint (found->status, ==, SIGTERM);
  g_assert_nonnull (strstr (found->message, "as asked"));
  mg_test_remove_tree (dir);
}

/* Linux names are bytes: argv, the working folder, hosts, a process's
 * program and the output that are not UTF-8 are saved (no assertion),
 * read back byte for byte, and exported as valid JSON (the command line
 * quoted so that a shell gives the bytes back, a host with U+FFFD). Text
 * that a plugin gave (a message) is stored with its invalid bytes
 * replaced. */
static void
test_file_any_bytes (void)
{
  g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
  g_autoptr(MgMetricDef) alpha = profile_fixture_metric ("alpha", MG_DOMAIN_TIME);
  const char *argv[] = { "./caf\xe9", "a \xff\xfe", "ok", NULL };
  MgProcessInfo p0 = { 10, 1, -1, (char *) "node-\xe9", (char *) "/bin/\xff\x80x", 0.0, 1.0,
                       MG_PROCESS_END_EXITED, 0, TRUE };
  MgPluginError pe = { 0, (char *) "com.example.source", (char *) "/lib/\xe9.so", -3,
                       (char *) "bad \xc3 text" };
  double value = 1.0;
  g_autoptr(MgProfile) profile = NULL, loaded = NULL;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "bytes.mgprof", NULL);
  g_autofree char *json_path = g_build_filename (dir, "bytes.json", NULL);
  g_autofree char *json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const MgRunInfo *run;
  JsonObject *info;

  mg_profile_builder_set_command (builder, argv, "/tmp/d\xe9" "f");
  mg_profile_builder_set_output (builder, "out \xe9\xff\n", 0);
  mg_profile_builder_add_metric (builder, alpha);
  mg_profile_builder_add_process (builder, &p0);
  mg_profile_builder_add_sample (builder, 0, 0.0, 1.0, &value, &value, &value);
  mg_profile_builder_add_plugin_error (builder, &pe);
  profile = mg_profile_builder_finish (builder, 0, &error);
  g_assert_no_error (error);

  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  run = mg_profile_get_run_info (loaded);
  g_assert_cmpstr (run->argv[0], ==, "./caf\xe9");
  g_assert_cmpstr (run->argv[1], ==, "a \xff\xfe");
  g_assert_cmpstr (run->argv[2], ==, "ok");
  g_assert_null (run->argv[3]);
  g_assert_cmpstr (run->working_dir, ==, "/tmp/d\xe9" "f");
  g_assert_cmpstr (run->hosts[0], ==, "node-\xe9");
  g_assert_cmpstr (run->output, ==, "out \xe9\xff\n");
  g_assert_cmpstr (mg_profile_get_process (loaded, 0)->host, ==, "node-\xe9");
  g_assert_cmpstr (mg_profile_get_process (loaded, 0)->program, ==, "/bin/\xff\x80x");
  g_assert_cmpstr (mg_profile_get_plugin_error (loaded, 0)->message, ==, "bad \xef\xbf\xbd text");

  g_assert_true (mg_export_json (loaded, json_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (json_path, &json, NULL, NULL));
  g_assert_true (g_utf8_validate (json, -1, NULL));
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  info = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                        "info");
  g_assert_cmpstr (json_object_get_string_member (info, "command_line"), ==,
                   "$'./caf\\xe9' $'a \\xff\\xfe' ok");
  g_assert_cmpstr (json_object_get_string_member (info, "machine"), ==, "node-\xef\xbf\xbd");
  mg_test_remove_tree (dir);
}

/* The last place of a double in a saved file (the processes' own series
 * come after the aggregates, so a value only process 0 has is found in its
 * own block); 0 if nowhere. */
static void
overwrite (const char *path, gsize at, const void *bytes, gsize n)
{
  FILE *f = fopen (path, "r+b");

  g_assert_nonnull (f);
  g_assert_cmpint (fseek (f, (long) at, SEEK_SET), ==, 0);
  g_assert_cmpuint (fwrite (bytes, 1, n, f), ==, n);
  g_assert_cmpint (fclose (f), ==, 0);
}

/* A file opened and then changed on disk (rewritten in place, or cut
 * short): the processes' series not read yet are an error naming the file
 * and the process, and read as empty; series read before stay right; a
 * file replaced by renaming (as saving does) keeps serving the old one. */
static void
test_file_changed_after_open (void)
{
  g_autoptr(MgProfile) expected = profile_fixture_profile ();
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "changing.mgprof", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(MgProfile) loaded = NULL;
  g_autoptr(MgProfile) replaced = NULL;
  g_autofree guchar *data = NULL;
  const MgProcessSeries *s, *e;
  gsize size, at;
  guchar changed[8] = { 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa };
  int pid;

  g_assert_true (mg_profile_save (expected, path, &error));
  g_assert_true (g_file_get_contents (path, (char **) &data, &size, &error));
  /* Metric 1 is process 0's alone (process 1 has no value). */
  e = mg_profile_get_process_series (expected, 0, 1);
  g_assert_cmpuint (e->n, >, 0);
  at = block_offset (data, size, expected, 0) + 8;
  g_assert_cmpuint (at, >, 8);

  /* Rewritten in place after opening, before process 0 is asked for. */
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  s = mg_profile_get_process_series (loaded, 1, 0);
  g_assert_cmpuint (s->n, ==, mg_profile_get_process_series (expected, 1, 0)->n);
  overwrite (path, at, changed, 8);
  pid = mg_profile_get_process (loaded, 0)->pid;
  g_assert_false (mg_profile_read_process_series (loaded, 0, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "changing.mgprof"));
  g_assert_nonnull (strstr (error->message, "changed on disk"));
  {
    g_autofree char *process = g_strdup_printf ("process %d", pid);

    g_assert_nonnull (strstr (error->message, process));
  }
  g_clear_error (&error);
  for (guint m = 0; m < mg_profile_get_n_metrics (loaded); m++)
    g_assert_cmpuint (mg_profile_get_process_series (loaded, 0, m)->n, ==, 0);
  /* Asked again: the same answer, no second read. */
  g_assert_false (mg_profile_read_process_series (loaded, 0, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_clear_error (&error);
  /* Process 1 was read before the change: intact. */
  g_assert_true (mg_profile_read_process_series (loaded, 1, &error));
  g_assert_cmpfloat (s->means[0], ==, 5.5);
  g_assert_cmpfloat (s->times[s->n - 1], ==,
                     mg_profile_get_process_series (expected, 1, 0)->times[s->n - 1]);
  /* Saving a profile missing series says why instead of writing it. */
  {
    g_autofree char *other = g_build_filename (dir, "copy.mgprof", NULL);

    g_assert_false (mg_profile_save (loaded, other, &error));
    g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
    g_assert_false (g_file_test (other, G_FILE_TEST_EXISTS));
    g_clear_error (&error);
  }
  g_clear_object (&loaded);

  /* Cut short after opening. */
  g_assert_true (g_file_set_contents (path, (char *) data, (gssize) size, &error));
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (truncate (path, (off_t) at), ==, 0);
  g_assert_false (mg_profile_read_process_series (loaded, 0, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "changing.mgprof"));
  g_clear_error (&error);
  g_clear_object (&loaded);

  /* Replaced by a save (a rename) after opening: the old file still reads. */
  g_assert_true (g_file_set_contents (path, (char *) data, (gssize) size, &error));
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  {
    g_autoptr(MgProfileBuilder) builder = mg_profile_builder_new ();
    g_autoptr(MgMetricDef) def = profile_fixture_metric ("other", MG_DOMAIN_TIME);
    MgProcessInfo info = { 7, 0, -1, (char *) "h", NULL, 0.0, 0.0, MG_PROCESS_END_UNKNOWN, 0, FALSE };

    mg_profile_builder_add_metric (builder, def);
    mg_profile_builder_add_process (builder, &info);
    replaced = mg_profile_builder_finish (builder, 0, &error);
    g_assert_true (mg_profile_save (replaced, path, &error));
  }
  profile_fixture_assert_profiles_equal (expected, loaded);
  mg_test_remove_tree (dir);
}

/* A save makes no name in the folder but the profile's own: the file is
 * written unnamed (O_TMPFILE) and linked once it is on disk, so a kill
 * during the save leaves nothing beside the profile (a partial
 * "x.mgprof.XXXXXX" stayed there for good). Saved over an existing
 * profile, the complete file is linked beside it and renamed over it. */
static void
test_file_save_unnamed (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "x.mgprof", NULL);
  g_autoptr (MgProfile) profile = profile_fixture_profile ();
  g_autoptr (MgProfile) loaded = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) created = g_ptr_array_new_with_free_func (g_free);
  union {
    struct inotify_event event;
    char bytes[4096];
  } buf;
  int probe = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  int fd;
  ssize_t n;

  if (probe < 0)
    {
      g_test_skip ("the temporary folder's file system has no unnamed files (O_TMPFILE)");
      mg_test_remove_tree (dir);
      return;
    }
  close (probe);
  fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (inotify_add_watch (fd, dir, IN_CREATE | IN_MOVED_TO), >=, 0);
  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  while ((n = read (fd, buf.bytes, sizeof buf.bytes)) > 0)
    for (char *p = buf.bytes; p < buf.bytes + n;)
      {
        const struct inotify_event *e = (const struct inotify_event *) (void *) p;

        if (e->len > 0)
          g_ptr_array_add (created, g_strdup (e->name));
        p += sizeof *e + e->len;
      }
  close (fd);
  g_assert_cmpuint (created->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (created, 0), ==, "x.mgprof");
  /* Again, over it: replaced, nothing else left. */
  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  profile_fixture_assert_profiles_equal (profile, loaded);
  {
    g_autoptr (GDir) folder = g_dir_open (dir, 0, &error);
    guint entries = 0;

    g_assert_no_error (error);
    while (g_dir_read_name (folder) != NULL)
      entries++;
    g_assert_cmpuint (entries, ==, 1);
  }
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/file/round-trip", test_file_round_trip);
  g_test_add_func ("/profile/file/save-fails", test_file_save_fails);
  g_test_add_func ("/profile/file/save-unnamed", test_file_save_unnamed);
  g_test_add_func ("/profile/file/missing", test_file_missing);
  g_test_add_func ("/profile/file/corrupted", test_file_corrupted);
  g_test_add_func ("/profile/file/corrupted-structure", test_file_corrupted_structure);
  g_test_add_func ("/profile/file/truncated", test_file_truncated);
  g_test_add_func ("/profile/file/hostile", test_file_hostile);
  g_test_add_func ("/profile/file/foreign", test_file_foreign);
  g_test_add_func ("/profile/file/future-version", test_file_future_version);
  g_test_add_func ("/profile/file/empty-profile", test_file_empty_profile);
  g_test_add_func ("/profile/file/version1-fixture", test_file_version1_fixture);
  g_test_add_func ("/profile/file/version2-fixture", test_file_version2_fixture);
  g_test_add_func ("/profile/file/version3-fixture", test_file_version3_fixture);
  g_test_add_func ("/profile/file/version4-fixture", test_file_version4_fixture);
  g_test_add_func ("/profile/file/damaged-block-single", test_file_damaged_block_single);
  g_test_add_func ("/profile/file/unpacked-on-demand", test_file_unpacked_on_demand);
  g_test_add_func ("/profile/file/dup-keeps-decoded", test_file_dup_keeps_decoded);
  g_test_add_func ("/profile/file/damaged-block", test_file_damaged_block);
  g_test_add_func ("/profile/file/output", test_file_output);
  g_test_add_func ("/profile/file/stop-event", test_file_stop_event);
  g_test_add_func ("/profile/file/any-bytes", test_file_any_bytes);
  g_test_add_func ("/profile/file/changed-after-open", test_file_changed_after_open);
  return g_test_run ();
}
