/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The normal test suite's side of the fuzz harnesses: runs one harness on
 * every file of the folders (or files) given, the crash inputs that fuzzing
 * found (tests/fixtures/fuzz/<harness>/) and the seeds, in the sanitized
 * build like any test. Fails when it read no input at all. */
#include <glib.h>
#include <stdio.h>

#include "fuzz-input.h"

static guint
replay (const char *path)
{
  g_autofree char *data = NULL;
  gsize size;
  g_autoptr (GError) error = NULL;

  /* A harness's crash folder exists once fuzzing found something. */
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return 0;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, &error);
      const char *name;
      guint n = 0;

      g_assert_no_error (error);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          n += replay (child);
        }
      return n;
    }
  if (!g_file_get_contents (path, &data, &size, &error))
    g_error ("%s", error->message);
  LLVMFuzzerTestOneInput ((const uint8_t *) data, size);
  return 1;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    n += replay (argv[i]);
  printf ("%u inputs replayed\n", n);
  return n > 0 ? 0 : 1;
}
