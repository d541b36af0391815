/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "symbols-test-support.h"

#include <string.h>

char *
symbols_test_built (const char *name)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "symbols", name, NULL);
}

char *
symbols_test_source (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("MG_SOURCE_ROOT"), "tests", "symbols", name, NULL);

  return g_canonicalize_filename (path, NULL);
}

guint
symbols_test_marker_line (const char *source, const char *marker)
{
  g_autofree char *path = symbols_test_source (source);
  g_autofree char *text = NULL;
  g_autofree char *mark = g_strconcat ("MARK:", marker, NULL);
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *at = strstr (lines[i], mark);

      /* The mark alone, not a longer one that starts with it. */
      if (at != NULL && !g_ascii_isalnum (at[strlen (mark)]) && at[strlen (mark)] != '-')
        return i + 1;
    }
  g_error ("no %s in %s", mark, path);
  return 0;
}

static GByteArray *
parse_hex (const char *hex)
{
  GByteArray *bytes = g_byte_array_new ();

  g_assert_cmpuint (strlen (hex) % 2, ==, 0);
  for (const char *at = hex; *at != '\0'; at += 2)
    {
      guint8 byte = (guint8) ((g_ascii_xdigit_value (at[0]) << 4) | g_ascii_xdigit_value (at[1]));

      g_byte_array_append (bytes, &byte, 1);
    }
  return bytes;
}

SymbolsTestRun *
symbols_test_run (const char *program)
{
  const char *argv[] = { program, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  SymbolsTestRun *run = g_new0 (SymbolsTestRun, 1);
  int status = -1;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  run->program = g_strdup (program);
  run->vaddrs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (lines[i], " ", 2);

      if (words[0] == NULL || words[1] == NULL)
        continue;
      if (g_str_equal (words[0], "build-id"))
        run->build_id = parse_hex (words[1]);
      else
        {
          guint64 *vaddr = g_new (guint64, 1);

          *vaddr = g_ascii_strtoull (words[1], NULL, 16);
          g_hash_table_insert (run->vaddrs, g_strdup (words[0]), vaddr);
        }
    }
  g_assert_nonnull (run->build_id);
  g_assert_cmpuint (run->build_id->len, >=, 8);
  return run;
}

guint64
symbols_test_vaddr (SymbolsTestRun *run, const char *label)
{
  guint64 *vaddr = g_hash_table_lookup (run->vaddrs, label);

  g_assert_nonnull (vaddr);
  return *vaddr;
}

void
symbols_test_run_free (SymbolsTestRun *run)
{
  if (run == NULL)
    return;
  g_free (run->program);
  if (run->build_id != NULL)
    g_byte_array_unref (run->build_id);
  g_hash_table_unref (run->vaddrs);
  g_free (run);
}

void
symbols_test_copy (const char *from, const char *to)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (to);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_get_contents (from, &text, &length, &error));
  g_assert_no_error (error);
  /* Replaced, not rewritten in place: what a rebuild does. */
  g_assert_true (g_file_set_contents_full (to, text, (gssize) length, G_FILE_SET_CONTENTS_CONSISTENT, 0755, &error));
  g_assert_no_error (error);
}

void
symbols_test_assert_frame (const MgSymbolFrame *frame,
                           const char *function,
                           const char *source,
                           const char *marker,
                           gboolean inlined)
{
  g_autofree char *path = symbols_test_source (source);

  g_assert_cmpstr (frame->function, ==, function);
  g_assert_cmpstr (frame->file, ==, path);
  g_assert_cmpuint (frame->line, ==, symbols_test_marker_line (source, marker));
  g_assert_cmpint (frame->inlined, ==, inlined);
}
