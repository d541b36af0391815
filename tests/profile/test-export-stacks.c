/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stack exports as the tools users pair them with read them
 * (docs/export.md): the folded lines split as flamegraph.pl splits them
 * (a name never splits a frame nor reads as a count, the SVG it draws
 * stays XML), and the pprof file's strings are UTF-8, as protoc and the
 * protobuf libraries require of profile.proto's strings, with the run's
 * time and duration, each location within its mapping. Names come from a namer that names the fixture's
 * addresses as hostile programs are named. */
#include "mg-config.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "profile/mg-export-folded.h"
#include "profile/mg-export-pprof.h"
#include "profile/mg-profile-internal.h"
#include "profile-fixture.h"
#include "stacks-fixture.h"
#include "mg-test-common.h"

typedef struct {
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->dir = mg_test_make_dir ("export-stacks");
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  mg_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* Process 0's stacks under main (return address 0x1203): five leaves,
 * the last one named by nobody, in a module whose name is not UTF-8 and
 * holds a ';'. */
static MgProfile *
hostile_profile (void)
{
  MgProfile *profile = profile_fixture_profile ();

  stacks_fixture_set (profile, "module /opt/demo/prog;caf\xe9 abcdef01\n"
                               "process 0\n"
                               "windows 0..0.5 0.5..1\n"
                               "0 0x1203;0x1100 30\n"
                               "0 0x1203;0x1180 10\n"
                               "1 0x1203;0x1300 5\n"
                               "1 0x1203;0x1400 4\n"
                               "1 0x1203;0x1500 2\n");
  return profile;
}

static void
add_name (GPtrArray *names, const char *function)
{
  MgStackFrameName *n = g_new0 (MgStackFrameName, 1);
  n->function = g_strdup (function);
  n->file = g_strdup ("/src/caf\xe9.c");
  n->line = 7;
  n->label = g_strdup (function);
  g_ptr_array_add (names, n);
}

/* Names as a symbol table may hold them: C++ templates with ';' (asm
 * labels), control characters, a trailing number, bytes not UTF-8. */
static gboolean
hostile_name (gpointer data, const char *module_path, const guint8 *id, gsize id_len,
              guint64 vaddr, GPtrArray *names)
{
  switch (vaddr)
    {
    case 0x1100:
      add_name (names, "ns::f<a;b>(int)");
      return TRUE;
    case 0x1180:
      add_name (names, "ctl\tab\r\x1b[31m");
      return TRUE;
    case 0x1202:
      add_name (names, "main");
      return TRUE;
    case 0x1300:
      add_name (names, "with space fn 42");
      return TRUE;
    case 0x1400:
      add_name (names, "caf\xe9 \xff 1.5");
      return TRUE;
    default:
      return FALSE;
    }
}

static char *
read_file (Fixture *f, const char *name)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  return text;
}

/* Each line as flamegraph.pl reads it: the stack and its count from the
 * end of the line, then a second count when the stack itself ends in one
 * (a differential graph's); the frames split at ';'. */
static void
assert_flamegraph_reads (const char *text, const char *const *expected_stacks,
                         const guint64 *expected_counts, guint n_expected)
{
  g_autoptr (GRegex) count = g_regex_new ("^(.*)\\s+?(\\d+(?:\\.\\d*)?)$", G_REGEX_RAW, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = 0;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++, n++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_autoptr (GMatchInfo) second = NULL;

      for (const char *c = lines[i]; *c != '\0'; c++)
        g_assert_false ((guchar) *c < 0x20 || *c == 0x7f);
      g_assert_true (g_regex_match (count, lines[i], 0, &match));
      g_autofree char *stack = g_match_info_fetch (match, 1);
      g_autofree char *value = g_match_info_fetch (match, 2);
      g_assert_false (g_regex_match (count, stack, 0, &second));
      g_assert_cmpuint (i, <, n_expected);
      g_assert_cmpstr (stack, ==, expected_stacks[i]);
      g_assert_cmpuint (g_ascii_strtoull (value, NULL, 10), ==, expected_counts[i]);
      g_auto (GStrv) frames = g_strsplit (stack, ";", -1);
      g_assert_cmpuint (g_strv_length (frames), ==, 2);
    }
  g_assert_cmpuint (n, ==, n_expected);
}

/* Folded: ';' in a name is ':', control characters are escapes, bytes
 * that are not UTF-8 are U+FFFD, and a space before a name's trailing
 * number is '_', so that flamegraph.pl reads one frame per name and the
 * line's own count (it read "with space fn 42 5" as 42 samples, 5 in a
 * second profile, and drew an SVG that no XML reader opens). */
static void
test_folded_names (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = hostile_profile ();
  g_autofree char *path = g_build_filename (f->dir, "run.folded", NULL);
  g_autoptr (GError) error = NULL;
  MgStackNamer namer = { hostile_name, NULL };
  const char *const stacks[] = {
    "main;caf\xef\xbf\xbd \xef\xbf\xbd_1.5",
    "main;ctl\\tab\\r\\x1b[31m",
    "main;ns::f<a:b>(int)",
    "main;prog:caf\xef\xbf\xbd+0x1500",
    "main;with space fn_42",
  };
  const guint64 counts[] = { 4, 10, 30, 2, 5 };

  g_assert_true (mg_export_folded (profile, path, NULL, -INFINITY, INFINITY, &namer, &error));
  g_assert_no_error (error);
  g_autofree char *text = read_file (f, "run.folded");
  assert_flamegraph_reads (text, stacks, counts, G_N_ELEMENTS (stacks));
}

/* profile.proto's top-level fields as the wire has them: a reader of our
 * own, not the encoder's. */
typedef struct {
  GPtrArray *strings;
  guint64 time_nanos, duration_nanos;
  gboolean has_time, has_duration;
  GHashTable *mapping_limits;     /* Mapping id → memory_limit */
  guint n_mappings, n_locations;
} Pprof;

static guint64
wire_varint (const guint8 *data, gsize len, gsize *at)
{
  guint64 v = 0;

  for (guint shift = 0; *at < len && shift < 64; shift += 7)
    {
      guint8 b = data[(*at)++];
      v |= (guint64) (b & 0x7f) << shift;
      if (b < 0x80)
        return v;
    }
  g_error ("pprof: a varint runs past the end at byte %" G_GSIZE_FORMAT, *at);
}

/* A nested message's varint fields 1 to 15 (the last of each), the
 * length-delimited ones skipped; absent fields are 0, as proto3 reads
 * them. */
static void
wire_varints (const guint8 *data, gsize len, guint64 values[16])
{
  memset (values, 0, 16 * sizeof *values);
  for (gsize at = 0; at < len;)
    {
      guint64 key = wire_varint (data, len, &at);
      guint field = (guint) (key >> 3), type = (guint) (key & 7);

      if (type == 0)
        {
          guint64 v = wire_varint (data, len, &at);
          if (field < 16)
            values[field] = v;
        }
      else if (type == 2)
        {
          guint64 n = wire_varint (data, len, &at);
          g_assert_cmpuint (n, <=, len - at);
          at += n;
        }
      else
        g_error ("pprof: wire type %u of field %u in a message", type, field);
    }
}

/* Mapping: memory_start 0, offset 0, memory_limit recorded. Location:
 * within its mapping, read after the mappings (the encoder writes them
 * first). */
static void
read_nested (Pprof *out, guint field, const guint8 *data, gsize len)
{
  guint64 v[16];

  if (field == 3)
    {
      wire_varints (data, len, v);
      g_assert_cmpuint (v[1], >, 0);
      g_assert_cmpuint (v[2], ==, 0);
      g_assert_cmpuint (v[4], ==, 0);
      g_hash_table_insert (out->mapping_limits, GSIZE_TO_POINTER (v[1]), g_memdup2 (&v[3], 8));
      out->n_mappings++;
    }
  else if (field == 4)
    {
      wire_varints (data, len, v);
      out->n_locations++;
      if (v[2] == 0)
        return;
      guint64 *limit = g_hash_table_lookup (out->mapping_limits, GSIZE_TO_POINTER (v[2]));
      g_assert_nonnull (limit);
      g_assert_cmpuint (v[3], <, *limit);
    }
}

static void
read_pprof (Fixture *f, const char *name, Pprof *out)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  g_autoptr (GFileInputStream) raw = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) in = g_converter_input_stream_new (G_INPUT_STREAM (raw),
                                                             G_CONVERTER (gunzip));
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_output_stream_splice (mem, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  const guint8 *data = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (mem));
  gsize len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (mem));

  memset (out, 0, sizeof *out);
  out->strings = g_ptr_array_new_with_free_func (g_free);
  out->mapping_limits = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (gsize at = 0; at < len;)
    {
      guint64 key = wire_varint (data, len, &at);
      guint field = (guint) (key >> 3), type = (guint) (key & 7);

      if (type == 0)
        {
          guint64 v = wire_varint (data, len, &at);
          if (field == 9)
            out->time_nanos = v, out->has_time = TRUE;
          else if (field == 10)
            out->duration_nanos = v, out->has_duration = TRUE;
        }
      else if (type == 2)
        {
          guint64 n = wire_varint (data, len, &at);
          g_assert_cmpuint (n, <=, len - at);
          if (field == 6)
            g_ptr_array_add (out->strings, g_strndup ((const char *) data + at, n));
          else
            read_nested (out, field, data + at, n);
          at += n;
        }
      else
        g_error ("pprof: wire type %u of field %u at the top level", type, field);
    }
}

/* pprof: every string valid UTF-8 (the module's path and the unnamed
 * frame's name hold \xe9: protoc refused the file, "String field
 * 'perftools.profiles.Profile.string_table' contains invalid UTF-8
 * data"); time_nanos the run's start, duration_nanos its length, or
 * --range's part of it (neither was written); each location's address
 * within its mapping's [memory_start, memory_limit) (the mapping was
 * [0, 0), holding none). */
static void
test_pprof_strings_and_span (Fixture *f, gconstpointer data)
{
  g_autoptr (MgProfile) profile = hostile_profile ();
  const MgRunInfo *run = mg_profile_get_run_info (profile);
  g_autofree char *all = g_build_filename (f->dir, "all.pb.gz", NULL);
  g_autofree char *part = g_build_filename (f->dir, "part.pb.gz", NULL);
  g_autoptr (GError) error = NULL;
  MgStackNamer namer = { hostile_name, NULL };
  Pprof p;

  g_assert_cmpint (run->start_time_us, ==, 1763791200123456);
  g_assert_cmpfloat (run->duration_s, >, 1.0);
  g_assert_true (mg_export_pprof (profile, all, NULL, -INFINITY, INFINITY, &namer, &error));
  g_assert_no_error (error);
  read_pprof (f, "all.pb.gz", &p);
  g_assert_cmpstr (g_ptr_array_index (p.strings, 0), ==, "");
  for (guint i = 0; i < p.strings->len; i++)
    g_assert_true (g_utf8_validate (g_ptr_array_index (p.strings, i), -1, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (p.strings, "/opt/demo/prog;caf\xef\xbf\xbd",
                                                   g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (p.strings, "prog;caf\xef\xbf\xbd+0x1500",
                                                   g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (p.strings, "caf\xef\xbf\xbd \xef\xbf\xbd 1.5",
                                                   g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (p.strings, "/src/caf\xef\xbf\xbd.c",
                                                   g_str_equal, NULL));
  g_assert_true (p.has_time && p.has_duration);
  g_assert_cmpuint (p.time_nanos, ==, G_GUINT64_CONSTANT (1763791200123456000));
  g_assert_cmpuint (p.duration_nanos, ==, (guint64) llround (run->duration_s * 1e9));
  /* One module; every location (main's, the leaves') within it. */
  g_assert_cmpuint (p.n_mappings, ==, 1);
  g_assert_cmpuint (p.n_locations, ==, 6);
  g_assert_cmpuint (*(guint64 *) g_hash_table_lookup (p.mapping_limits, GSIZE_TO_POINTER (1)), ==,
                    G_MAXUINT64);
  g_ptr_array_unref (p.strings);
  g_hash_table_unref (p.mapping_limits);

  /* (0.25, 0.75]: a quarter of a second in, half a second long. */
  g_assert_true (mg_export_pprof (profile, part, NULL, 0.25, 0.75, &namer, &error));
  g_assert_no_error (error);
  read_pprof (f, "part.pb.gz", &p);
  g_assert_cmpuint (p.time_nanos, ==, G_GUINT64_CONSTANT (1763791200373456000));
  g_assert_cmpuint (p.duration_nanos, ==, 500000000);
  g_ptr_array_unref (p.strings);
  g_hash_table_unref (p.mapping_limits);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/profile/export-stacks/folded-names", test_folded_names);
  ADD ("/profile/export-stacks/pprof-strings-and-span", test_pprof_strings_and_span);
  return g_test_run ();
}
