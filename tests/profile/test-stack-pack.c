/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The call stacks as format 7 stores them (app/profile/mg-stack-pack.c):
 * one table for the run, windows and counts packed, read back as they
 * were, and damaged members refused. */
#include "mg-config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <zlib.h>

#include "profile/mg-export-folded.h"
#include "profile/mg-profile-header.h"
#include "profile/mg-profile-internal.h"
#include "profile/mg-profile-layout.h"
#include "profile/mg-stack-pack.h"
#include "profile/mg-stack-set.h"
#include "profile/mg-stack-windows.h"
#include "profile-fixture.h"
#include "stacks-fixture.h"
#include "mg-test-common.h"

/* Processes 0 and 1 share stacks a (three frames) and b (two, truncated)
 * in other orders, 1 has its own c (four, stopped at an unknown frame);
 * with_idle, process 2 sampled nothing. Each took 100 samples and lost 3.
 * Process 1's windows are not whole nanoseconds (1/3 s), process 0's are. */
static GVariant *
stack_pack_test_stacks (gboolean with_idle)
{
  g_autoptr (StacksFixture) f = stacks_fixture_new ();

  stacks_fixture_read (f, "module /opt/demo/prog 0102\n"
                          "process 0 taken 100 lost 3\n"
                          "windows 0+0.25 0.25+0.25 0.5+0.25 1.75+0.25\n"
                          "0 0x1020;0x1010;0x1000 7         # a\n"
                          "0 0x2010;0x2000 2 truncated      # b\n"
                          "1 0x2010;0x2000 1 truncated\n"
                          "3 0x1020;0x1010;0x1000 4000000000\n"
                          "process 1 taken 100 lost 3\n"
                          "windows 1/3+0.25 2/3+0.25 5e-10+0.25\n"
                          "stack 0x2010;0x2000 truncated\n"
                          "stack 0x3030;0x3020;0x3010;0x3000 unknown-frame   # c\n"
                          "0 0x1020;0x1010;0x1000 1\n"
                          "2 0x2010;0x2000 5 truncated\n"
                          "2 0x3030;0x3020;0x3010;0x3000 9 unknown-frame\n"
                          "1 0x3030;0x3020;0x3010;0x3000 1 unknown-frame\n");
  if (with_idle)
    stacks_fixture_read (f, "process 2 taken 100 lost 3\n");
  GVariant *v = stacks_fixture_end (f);
  return v;
}

/* Each stack once in the table, every process's windows and counts back
 * as they were, bit for bit (1/3 s is no whole nanosecond). */
static void
test_stack_pack_round_trip (void)
{
  g_autoptr (GVariant) stacks = stack_pack_test_stacks (TRUE);
  g_autoptr (GVariant) packed = mg_stack_pack (stacks);
  g_assert_true (g_variant_is_of_type (packed, G_VARIANT_TYPE (MG_PAYLOAD_STACKS_PACKED_TYPE)));

  g_autoptr (GVariant) table = g_variant_get_child_value (packed, 1);
  g_assert_cmpuint (g_variant_n_children (table), ==, 3);
  g_autoptr (GVariant) entry = g_variant_get_child_value (table, 2);
  guint32 flags, thread;
  g_variant_get_child (entry, 1, "u", &flags);
  g_variant_get_child (entry, 2, "u", &thread);
  g_assert_cmpuint (flags, ==, 2);   /* c, the third met */
  g_assert_cmpuint (thread, ==, 0);
  g_autoptr (GVariant) procs = g_variant_get_child_value (packed, 2);
  g_autoptr (GVariant) proc1 = g_variant_get_child_value (procs, 1);
  g_autoptr (GVariant) which = g_variant_get_child_value (proc1, 4);
  gsize n;
  const guint32 *w = g_variant_get_fixed_array (which, &n, sizeof (guint32));
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (w[0], ==, 1);
  g_assert_cmpuint (w[1], ==, 2);
  g_assert_cmpuint (w[2], ==, 0);

  g_autoptr (GVariant) back = mg_stack_unpack (packed);
  g_assert_nonnull (back);
  g_assert_true (g_variant_equal (back, stacks));
  g_assert_true (mg_stack_set_check_payload (back, 3));
}

/* The member with process 0's tuple replaced by one with its stack
 * indices and packed bytes as given. */
static GVariant *
stack_pack_test_with (GVariant *packed, const guint32 *which, gsize n_which, const guint8 *bytes,
                      gsize n_bytes)
{
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  g_autoptr (GVariant) table = g_variant_get_child_value (packed, 1);
  GVariantBuilder procs;
  g_variant_builder_init (&procs, G_VARIANT_TYPE ("a" MG_STACK_PACKED_PROCESS_TYPE));
  g_variant_builder_add (&procs, "(ittu@au@ay)", 0, (guint64) 1, (guint64) 0, 0u,
                         g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, which, n_which,
                                                    sizeof (guint32)),
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, bytes, n_bytes, 1));
  return g_variant_ref_sink (g_variant_new ("(@a(ayay)@a" MG_STACK_PACKED_ENTRY_TYPE
                                            "@a" MG_STACK_PACKED_PROCESS_TYPE ")",
                                            modules, table, g_variant_builder_end (&procs)));
}

/* A stack index past the table, counts naming a stack the process does
 * not have, packed bytes cut short, flipped or lying about their length:
 * each refused, none read out of bounds. */
static void
test_stack_pack_damaged (void)
{
  g_autoptr (GVariant) stacks = stack_pack_test_stacks (TRUE);
  g_autoptr (GVariant) packed = mg_stack_pack (stacks);
  g_autoptr (GVariant) procs = g_variant_get_child_value (packed, 2);
  g_autoptr (GVariant) proc0 = g_variant_get_child_value (procs, 0);
  g_autoptr (GVariant) blob = g_variant_get_child_value (proc0, 5);
  gsize len;
  const guint8 *bytes = g_variant_get_fixed_array (blob, &len, 1);
  g_autofree guint8 *copy = g_memdup2 (bytes, len);
  const guint32 good[] = { 0, 1 }, past[] = { 0, 3 }, one[] = { 0 };

  /* The untouched tuple reads back: the rebuilding is not what fails. */
  g_autoptr (GVariant) same = stack_pack_test_with (packed, good, 2, copy, len);
  g_autoptr (GVariant) back = mg_stack_unpack (same);
  g_assert_nonnull (back);

  g_autoptr (GVariant) v1 = stack_pack_test_with (packed, past, 2, copy, len);
  g_assert_null (mg_stack_unpack (v1));
  /* Process 0 counts stack 1: one stack is not enough. */
  g_autoptr (GVariant) v2 = stack_pack_test_with (packed, one, 1, copy, len);
  g_assert_null (mg_stack_unpack (v2));
  g_autoptr (GVariant) v3 = stack_pack_test_with (packed, good, 2, copy, len - 1);
  g_assert_null (mg_stack_unpack (v3));
  g_autoptr (GVariant) v4 = stack_pack_test_with (packed, good, 2, copy, 3);
  g_assert_null (mg_stack_unpack (v4));
  copy[0]++;  /* the unpacked length one more than it is */
  g_autoptr (GVariant) v5 = stack_pack_test_with (packed, good, 2, copy, len);
  g_assert_null (mg_stack_unpack (v5));
  copy[0]--;
  copy[3] = 0x7f; /* more than deflate could pack into these bytes */
  g_autoptr (GVariant) v6 = stack_pack_test_with (packed, good, 2, copy, len);
  g_assert_null (mg_stack_unpack (v6));
  copy[3] = bytes[3];
  copy[len - 2] ^= 0x55;
  g_autoptr (GVariant) v7 = stack_pack_test_with (packed, good, 2, copy, len);
  g_assert_null (mg_stack_unpack (v7));

  /* A frame in module 7 of a member with one: not seen when the file is
   * opened (the frames are not read then), refused when unpacked. */
  g_autoptr (GVariant) modules = g_variant_get_child_value (packed, 0);
  g_autoptr (GVariant) procs_all = g_variant_get_child_value (packed, 2);
  GVariantBuilder t;
  g_variant_builder_init (&t, G_VARIANT_TYPE ("a" MG_STACK_PACKED_ENTRY_TYPE));
  for (guint i = 0; i < 3; i++)
    g_variant_builder_add (&t, "(@a(ut)uu)",
                           g_variant_new_parsed (i == 1 ? "[(@u 0, @t 4096), (7, 4112)]"
                                                        : "[(@u 0, @t 4096)]"),
                           0u, 0u);
  g_autoptr (GVariant) v8 = g_variant_ref_sink (
    g_variant_new ("(@a(ayay)@a" MG_STACK_PACKED_ENTRY_TYPE "@a" MG_STACK_PACKED_PROCESS_TYPE ")",
                   modules, g_variant_builder_end (&t), procs_all));
  g_assert_true (mg_stack_packed_check (v8, 3));
  g_assert_null (mg_stack_unpack (v8));
  g_assert_null (mg_stack_unpack_process (v8, 0));
  /* Process 2 has no stacks: it reads alone. */
  g_autoptr (GVariant) idle = mg_stack_unpack_process (v8, 2);
  g_assert_nonnull (idle);
  g_assert_cmpuint (g_variant_n_children (idle), ==, 1);
}

/* Bytes deflated as a process's packed windows and counts are. */
static GBytes *
stack_pack_test_deflate (const guint8 *raw, gsize len)
{
  uLongf packed = compressBound (len);
  guint8 *out = g_malloc (4 + packed);
  guint32 head = GUINT32_TO_LE ((guint32) len);
  memcpy (out, &head, 4);
  g_assert_cmpint (compress2 (out + 4, &packed, raw, len, 6), ==, Z_OK);
  return g_bytes_new_take (out, 4 + packed);
}

/* Varints that deflate right but say anything: process 0's own bytes
 * with bytes changed, cut or added, and random ones. Each unpacks or is
 * refused; whatever unpacks has every count within its windows and
 * stacks (what the sanitizer build checks is that nothing is read out of
 * bounds). */
static void
test_stack_pack_mutated (void)
{
  g_autoptr (GVariant) stacks = stack_pack_test_stacks (TRUE);
  g_autoptr (GVariant) packed = mg_stack_pack (stacks);
  g_autoptr (GVariant) procs = g_variant_get_child_value (packed, 2);
  g_autoptr (GVariant) proc0 = g_variant_get_child_value (procs, 0);
  g_autoptr (GVariant) blob = g_variant_get_child_value (proc0, 5);
  gsize len;
  const guint8 *bytes = g_variant_get_fixed_array (blob, &len, 1);
  guint32 raw_len;
  memcpy (&raw_len, bytes, 4);
  raw_len = GUINT32_FROM_LE (raw_len);
  g_autofree guint8 *raw = g_malloc (raw_len);
  uLongf got = raw_len;
  g_assert_cmpint (uncompress (raw, &got, bytes + 4, len - 4), ==, Z_OK);
  g_assert_cmpuint (got, ==, raw_len);
  const guint32 which[] = { 0, 1 };
  guint n_ok = 0, n_refused = 0;

  for (guint round = 0; round < 3000; round++)
    {
      g_autoptr (GByteArray) m = g_byte_array_new ();
      if (round % 3 == 2)
        for (guint i = g_test_rand_int_range (1, 64); i > 0; i--)
          g_byte_array_append (m, (guint8[]) { (guint8) g_test_rand_int_range (0, 256) }, 1);
      else
        {
          g_byte_array_append (m, raw, raw_len);
          for (guint i = g_test_rand_int_range (1, 4); i > 0; i--)
            m->data[g_test_rand_int_range (0, (gint32) m->len)] =
              (guint8) g_test_rand_int_range (0, 256);
          if (round % 3 == 1)
            g_byte_array_set_size (m, g_test_rand_int_range (1, (gint32) m->len + 8));
        }
      g_autoptr (GBytes) deflated = stack_pack_test_deflate (m->data, m->len);
      gsize n;
      const guint8 *d = g_bytes_get_data (deflated, &n);
      g_autoptr (GVariant) v = stack_pack_test_with (packed, which, 2, d, n);
      g_autoptr (GVariant) back = mg_stack_unpack (v);
      if (back == NULL)
        {
          n_refused++;
          continue;
        }
      n_ok++;
      g_assert_true (mg_stack_set_check_payload (back, 1));
    }
  /* Both ways were taken: the refusals are not all there is. */
  g_assert_cmpuint (n_ok, >, 0);
  g_assert_cmpuint (n_refused, >, 0);
}

/* Saved and loaded: the stacks come back as they were, and the file
 * stores them packed (smaller than the member unpacked would be). */
static void
test_stack_pack_file (void)
{
  g_autofree char *dir = mg_test_make_dir ("stack-pack");
  g_autofree char *path = g_build_filename (dir, "stacks.mgprof", NULL);
  g_autofree char *bare_path = g_build_filename (dir, "bare.mgprof", NULL);
  g_autoptr (MgProfile) profile = profile_fixture_profile ();
  g_autoptr (GVariant) stacks = stack_pack_test_stacks (FALSE);
  g_autoptr (GError) error = NULL;
  GStatBuf with, without;

  g_assert_true (mg_profile_save (profile, bare_path, &error));
  g_assert_no_error (error);
  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref (stacks);
  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);
  g_autoptr (MgProfile) loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_equal (mg_profile_peek_stacks (loaded), stacks));
  g_autoptr (MgStackSet) set = mg_stack_set_new (loaded, 1, -G_MAXDOUBLE, G_MAXDOUBLE);
  g_assert_cmpuint (mg_stack_set_get_n_stacks (set), ==, 3);
  g_assert_cmpuint (mg_stack_set_get_total (set), ==, 1 + 5 + 9 + 1);
  g_assert_cmpint (g_stat (path, &with), ==, 0);
  g_assert_cmpint (g_stat (bare_path, &without), ==, 0);
  g_autoptr (GVariant) packed = mg_stack_pack (stacks);
  g_assert_cmpint (with.st_size - without.st_size, <, (goffset) g_variant_get_size (stacks));
  g_assert_cmpint (with.st_size - without.st_size, <=, (goffset) g_variant_get_size (packed) + 16);
  mg_test_remove_tree (dir);
}

/* The file at path with the first copy of bytes in it changed by one
 * byte (before its last), its CRC made right again: a profile whose
 * stacks member is damaged where only decoding it can tell. */
static void
stack_pack_test_damage_file (const char *path, const char *out, GBytes *bytes)
{
  g_autofree guint8 *file = NULL;
  gsize size, n;
  const guint8 *find = g_bytes_get_data (bytes, &n);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, (char **) &file, &size, &error));
  g_assert_no_error (error);
  guint8 *at = NULL;
  for (gsize i = 0; at == NULL && i + n <= size; i++)
    if (memcmp (file + i, find, n) == 0)
      at = file + i;
  g_assert_nonnull (at);
  at[n - 2] ^= 0x55;
  guint32 version, crc;
  memcpy (&version, file + 8, 4);
  crc = GUINT32_TO_LE (mg_profile_payload_crc (file + MG_PROFILE_HEADER_LEN,
                                               size - MG_PROFILE_HEADER_LEN,
                                               GUINT32_FROM_LE (version)));
  memcpy (file + 12, &crc, 4);
  g_assert_true (g_file_set_contents (out, (const char *) file, (gssize) size, &error));
  g_assert_no_error (error);
}

static gpointer
stack_pack_test_query (gpointer profile)
{
  g_autoptr (MgStackSet) set = mg_stack_set_new (profile, -1, -G_MAXDOUBLE, G_MAXDOUBLE);
  return GSIZE_TO_POINTER ((gsize) mg_stack_set_get_total (set));
}

/* Opening a profile does not decode its stacks: the summary's counts and
 * the module table read without them, the first query decodes them once
 * (four threads asking at once), and a member damaged where only
 * decoding can tell opens with its metrics, the damage told at first use
 * and the stacks then empty. A damage the cheap check sees (a stack
 * index past the table) still refuses the file. */
static void
test_stack_pack_lazy (void)
{
  g_autofree char *dir = mg_test_make_dir ("stack-pack-lazy");
  g_autofree char *path = g_build_filename (dir, "stacks.mgprof", NULL);
  g_autofree char *damaged_path = g_build_filename (dir, "damaged.mgprof", NULL);
  g_autofree char *index_path = g_build_filename (dir, "index.mgprof", NULL);
  g_autoptr (MgProfile) profile = profile_fixture_profile ();
  g_autoptr (GVariant) stacks = stack_pack_test_stacks (FALSE);
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&profile->stacks, g_variant_unref);
  profile->stacks = g_variant_ref (stacks);
  g_assert_true (mg_profile_save (profile, path, &error));
  g_assert_no_error (error);

  g_autoptr (MgProfile) loaded = mg_profile_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loaded->stacks_decodes, ==, 0);
  MgStackCounts counts;
  mg_profile_get_stack_counts (loaded, &counts);
  g_assert_cmpuint (counts.taken, ==, 200);
  g_assert_cmpuint (counts.lost, ==, 6);
  g_assert_cmpuint (counts.n_processes, ==, 2);
  g_assert_cmpuint (counts.n_stepped_aside, ==, 0);
  g_assert_cmpuint (mg_profile_get_n_stack_modules (loaded), ==, 1);
  MgStackModule module;
  mg_profile_get_stack_module (loaded, 0, &module);
  g_assert_cmpstr (module.path, ==, "/opt/demo/prog");
  g_assert_cmpuint (module.build_id_len, ==, 2);
  g_assert_cmpuint (module.build_id[1], ==, 2);
  g_assert_cmpuint (loaded->stacks_decodes, ==, 0);
  /* One process's windows (a window's thread activity) unpack it alone. */
  {
    g_autoptr (MgStackWindows) one = mg_stack_windows_new (loaded, 1);
    g_assert_cmpuint (mg_stack_windows_get_n_counts (one), ==, 4);
    g_assert_cmpuint (mg_stack_windows_get_n_stacks (one), ==, 3);
    g_assert_cmpuint (mg_stack_windows_get_count (one, 1)->count, ==, 5);
    g_assert_cmpfloat (mg_stack_windows_get_count (one, 1)->start_s, ==, 5e-10);
  }
  g_assert_cmpuint (loaded->stacks_decodes, ==, 0);

  GThread *threads[4];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("stack-query", stack_pack_test_query, loaded);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_cmpuint (GPOINTER_TO_SIZE (g_thread_join (threads[i])), ==,
                      7 + 2 + 1 + 4000000000u + 1 + 5 + 9 + 1);
  g_assert_cmpuint (loaded->stacks_decodes, ==, 1);
  g_assert_true (mg_profile_read_stacks (loaded, &error));
  g_assert_no_error (error);
  g_assert_true (g_variant_equal (mg_profile_peek_stacks (loaded), stacks));
  g_assert_cmpuint (loaded->stacks_decodes, ==, 1);

  /* Process 0's windows and counts, their deflated bytes flipped. */
  g_autoptr (GVariant) packed = mg_stack_pack (stacks);
  g_autoptr (GVariant) procs = g_variant_get_child_value (packed, 2);
  g_autoptr (GVariant) proc0 = g_variant_get_child_value (procs, 0);
  g_autoptr (GVariant) blob = g_variant_get_child_value (proc0, 5);
  g_autoptr (GBytes) blob_bytes = g_variant_get_data_as_bytes (blob);
  stack_pack_test_damage_file (path, damaged_path, blob_bytes);
  g_autoptr (MgProfile) damaged = mg_profile_load (damaged_path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (damaged);
  profile_fixture_assert_profiles_equal (loaded, damaged);
  mg_profile_get_stack_counts (damaged, &counts);
  g_assert_cmpuint (counts.taken, ==, 200);
  g_assert_cmpuint (damaged->stacks_decodes, ==, 0);
  {
    /* Process 1 is whole; process 0's damage is found when it is read. */
    g_autoptr (MgStackWindows) whole = mg_stack_windows_new (damaged, 1);
    g_assert_cmpuint (mg_stack_windows_get_n_counts (whole), ==, 4);
    g_assert_cmpuint (damaged->stacks_decodes, ==, 0);
    g_autoptr (MgStackWindows) broken = mg_stack_windows_new (damaged, 0);
    g_assert_cmpuint (mg_stack_windows_get_n_counts (broken), ==, 0);
    g_assert_cmpuint (damaged->stacks_decodes, ==, 1);
  }
  g_assert_false (mg_profile_read_stacks (damaged, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
  g_assert_nonnull (strstr (error->message, "(call stacks)"));
  g_clear_error (&error);
  g_assert_cmpuint (GPOINTER_TO_SIZE (stack_pack_test_query (damaged)), ==, 0);
  g_assert_false (mg_profile_read_stacks (damaged, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_clear_error (&error);
  /* The folded export says why it has nothing to write. */
  g_autofree char *folded = g_build_filename (dir, "run.folded", NULL);
  g_assert_false (mg_export_folded (damaged, folded, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, NULL,
                                    &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "damaged.mgprof"));
  g_clear_error (&error);
  g_assert_false (g_file_test (folded, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (damaged->stacks_decodes, ==, 1);
  for (guint p = 0; p < mg_profile_get_n_processes (damaged); p++)
    {
      g_assert_true (mg_profile_read_process_series (damaged, p, &error));
      g_assert_no_error (error);
    }

  /* Saved as read (the packed member as it is), and refused at open when
   * a process names a stack past the table. */
  const guint32 past[] = { 0, 3 };
  gsize len;
  const guint8 *bytes = g_variant_get_fixed_array (blob, &len, 1);
  g_clear_pointer (&profile->stacks_packed, g_variant_unref);
  profile->stacks_packed = stack_pack_test_with (packed, past, 2, bytes, len);
  g_assert_true (mg_profile_save (profile, index_path, &error));
  g_assert_no_error (error);
  g_assert_null (mg_profile_load (index_path, &error));
  g_assert_error (error, MG_PROFILE_ERROR, MG_PROFILE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "index.mgprof"));
  g_assert_nonnull (strstr (error->message, "(call stacks)"));
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/stack-pack/round-trip", test_stack_pack_round_trip);
  g_test_add_func ("/profile/stack-pack/damaged", test_stack_pack_damaged);
  g_test_add_func ("/profile/stack-pack/file", test_stack_pack_file);
  g_test_add_func ("/profile/stack-pack/mutated", test_stack_pack_mutated);
  g_test_add_func ("/profile/stack-pack/lazy", test_stack_pack_lazy);
  return g_test_run ();
}
