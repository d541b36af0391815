/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the tests of the definitions area. */
#include "defs-test-support.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

char *
defs_test_fixture_path (const char *relative)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "defs", relative, NULL);
}

char *
defs_test_copy_fixture (const char *relative)
{
  g_autoptr (GError) error = NULL;
  char *tmp = g_dir_make_tmp ("mg-defs-XXXXXX", &error);
  g_autofree char *source = NULL;
  g_autoptr (GDir) dir = NULL;
  const char *name;

  g_assert_no_error (error);
  if (relative == NULL)
    return tmp;
  source = defs_test_fixture_path (relative);
  dir = g_dir_open (source, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *from = g_build_filename (source, name, NULL);
      g_autofree char *to = g_build_filename (tmp, name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (!g_file_test (from, G_FILE_TEST_IS_REGULAR))
        continue;
      g_file_get_contents (from, &contents, &length, &error);
      g_assert_no_error (error);
      g_file_set_contents (to, contents, (gssize) length, &error);
      g_assert_no_error (error);
    }
  return tmp;
}

void
defs_test_fake_library (const char *dir, const char *name)
{
  static const char header[] = "\177ELF\002\001\001\000fake plugin for tests";
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, header, sizeof header, &error);
  g_assert_no_error (error);
}

const MgDiagnostic *
defs_test_find_diagnostic (GPtrArray *diagnostics, const char *basename, int line,
                           MgSeverity severity)
{
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);
      g_autofree char *base = diagnostic->file != NULL ? g_path_get_basename (diagnostic->file)
                                                       : NULL;

      if (g_strcmp0 (base, basename) == 0 && diagnostic->line == line
          && diagnostic->severity == severity)
        return diagnostic;
    }
  for (guint i = 0; i < diagnostics->len; i++)
    {
      g_autofree char *text = mg_diagnostic_to_string (g_ptr_array_index (diagnostics, i));

      g_test_message ("have: %s", text);
    }
  g_error ("no %s diagnostic at %s:%d", mg_severity_to_string (severity), basename, line);
  return NULL;
}

guint
defs_test_count_diagnostics_for (GPtrArray *diagnostics, const char *basename)
{
  guint count = 0;

  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *diagnostic = g_ptr_array_index (diagnostics, i);
      g_autofree char *base = diagnostic->file != NULL ? g_path_get_basename (diagnostic->file)
                                                       : NULL;

      count += g_strcmp0 (base, basename) == 0;
    }
  return count;
}
