/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MgSourceBundle: the most sampled files first, whole, within the bound;
 * what is left out is named with its reason. */
#include "symbols/mg-source-bundle.h"

#include "mg-test-common.h"

#include <string.h>

static char *
write_file (const char *dir, const char *name, char fill, gsize length)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = g_malloc (length);
  g_autoptr (GError) error = NULL;

  memset (text, fill, length);
  g_assert_true (g_file_set_contents (path, text, (gssize) length, &error));
  g_assert_no_error (error);
  return path;
}

static void
assert_text (MgSourceText *text, const char *path, char fill, gsize length)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (text->text, &size);

  g_assert_cmpstr (text->path, ==, path);
  g_assert_cmpuint (size, ==, length);
  for (gsize i = 0; i < size; i++)
    g_assert_cmpint (data[i], ==, fill);
}

static void
test_bounded (void)
{
  g_autofree char *dir = mg_test_make_dir ("source-bundle");
  g_autofree char *a = write_file (dir, "a.c", 'a', 1000);
  g_autofree char *b = write_file (dir, "b.c", 'b', 3000);
  g_autofree char *c = write_file (dir, "c.c", 'c', 500);
  g_autofree char *binary = write_file (dir, "binary.o", '\0', 16);
  g_autofree char *missing = g_build_filename (dir, "missing.c", NULL);
  g_autoptr (MgSourceBundle) bundle = mg_source_bundle_new (2000);
  GPtrArray *texts;
  GPtrArray *omissions;
  MgSourceOmission *omission;

  mg_source_bundle_add (bundle, b, 10);
  mg_source_bundle_add (bundle, a, 5);
  mg_source_bundle_add (bundle, c, 1);
  mg_source_bundle_add (bundle, missing, 8);
  /* A system library's file, named relative to where it was built. */
  mg_source_bundle_add (bundle, "../csu/mg-nowhere.c", 5);
  mg_source_bundle_add (bundle, a, 2);
  mg_source_bundle_add (bundle, binary, 3);
  mg_source_bundle_collect (bundle);

  /* Tried by samples: b 10, missing 8, a 7, mg-nowhere 5, binary 3, c 1. b does not fit
   * in 2000 bytes; a and c do, 1500 bytes together. */
  texts = mg_source_bundle_get_texts (bundle);
  g_assert_cmpuint (texts->len, ==, 2);
  assert_text (texts->pdata[0], a, 'a', 1000);
  assert_text (texts->pdata[1], c, 'c', 500);
  g_assert_cmpuint (mg_source_bundle_get_size (bundle), ==, 1500);

  omissions = mg_source_bundle_get_omissions (bundle);
  g_assert_cmpuint (omissions->len, ==, 4);
  omission = omissions->pdata[0];
  g_assert_cmpstr (omission->path, ==, b);
  /* In the units of the report's "at most 4.0 MiB", not "4.2 MB". */
  g_assert_cmpstr (omission->reason, ==,
                   "its 2.9\u00a0KiB do not fit in the 2.0\u00a0KiB left of the 2.0\u00a0KiB the profile keeps for source text");
  omission = omissions->pdata[1];
  g_assert_cmpstr (omission->path, ==, missing);
  g_assert_cmpstr (omission->reason, ==, "it is not on this machine");
  omission = omissions->pdata[2];
  g_assert_cmpstr (omission->path, ==, "../csu/mg-nowhere.c");
  g_assert_cmpstr (omission->reason, ==,
                   "it is not on this machine (the path is relative to the folder the module was built in)");
  omission = omissions->pdata[3];
  g_assert_cmpstr (omission->path, ==, binary);
  g_assert_nonnull (strstr (omission->reason, "not a text file"));
  mg_test_remove_tree (dir);
}

/* The copy is taken at collect time: a source edited afterwards does not
 * change what the profile carries. */
static void
test_copy_kept (void)
{
  g_autofree char *dir = mg_test_make_dir ("source-bundle-copy");
  g_autofree char *a = write_file (dir, "a.c", 'a', 100);
  g_autoptr (MgSourceBundle) bundle = mg_source_bundle_new (MG_SOURCE_BUNDLE_DEFAULT_LIMIT);
  g_autofree char *edited = NULL;

  mg_source_bundle_add (bundle, a, 1);
  mg_source_bundle_collect (bundle);
  edited = write_file (dir, "a.c", 'z', 100);
  assert_text (mg_source_bundle_get_texts (bundle)->pdata[0], a, 'a', 100);
  g_assert_cmpuint (mg_source_bundle_get_omissions (bundle)->len, ==, 0);
  mg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/source-bundle/bounded", test_bounded);
  g_test_add_func ("/source-bundle/copy-kept", test_copy_kept);
  return g_test_run ();
}
