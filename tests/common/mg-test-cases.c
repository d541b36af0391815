/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <string.h>

#include "mg-test-cases.h"

#include "defs/mg-diagnostic.h"

typedef struct {
  char *input;
  char *expected;
  MgTestCaseDump dump;
} Case;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->input);
  g_free (c->expected);
  g_free (c);
}

gboolean
mg_test_cases_print (int argc, char **argv, MgTestCaseDump dump)
{
  if (argc < 2 || strcmp (argv[1], "--print") != 0)
    return FALSE;
  for (int i = 2; i < argc; i++)
    {
      g_autofree char *text = dump (argv[i]);

      fputs (text, stdout);
    }
  return TRUE;
}

/* C escapes for quotes, backslashes and control characters; UTF-8 is kept
 * as it is, to stay readable. */
char *
mg_test_cases_escape (const char *text)
{
  static char high[129];

  if (high[0] == '\0')
    for (int i = 0; i < 128; i++)
      high[i] = (char) (0x80 + i);
  return g_strescape (text, high);
}

void
mg_test_cases_put_str (GString *out, const char *key, const char *value)
{
  g_autofree char *escaped = NULL;

  if (value == NULL)
    {
      g_string_append_printf (out, "  %s: (none)\n", key);
      return;
    }
  escaped = mg_test_cases_escape (value);
  g_string_append_printf (out, "  %s: \"%s\"\n", key, escaped);
}

void
mg_test_cases_put_bool (GString *out, const char *key, gboolean value)
{
  g_string_append_printf (out, "  %s: %s\n", key, value ? "true" : "false");
}

void
mg_test_cases_put_colour (GString *out, const char *key, MgRgba c)
{
  g_string_append_printf (out, "  %s: #%02x%02x%02x%02x\n", key, (guint) (c.r * 255 + 0.5),
                          (guint) (c.g * 255 + 0.5), (guint) (c.b * 255 + 0.5),
                          (guint) (c.a * 255 + 0.5));
}

void
mg_test_cases_put_diagnostics (GString *out, GPtrArray *diagnostics, const char *path)
{
  g_string_append_printf (out, "diagnostics: %u\n", diagnostics->len);
  for (guint i = 0; i < diagnostics->len; i++)
    {
      const MgDiagnostic *d = g_ptr_array_index (diagnostics, i);
      g_autofree char *file_base = d->file != NULL ? g_path_get_basename (d->file) : NULL;
      g_autofree char *message = mg_test_cases_strip_path (d->message, path);

      g_string_append_printf (out, "  %s:%d: %s: %s\n", file_base != NULL ? file_base : "(none)",
                              d->line, mg_severity_to_string (d->severity), message);
    }
}

char *
mg_test_cases_strip_path (const char *text, const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_auto (GStrv) parts = NULL;

  if (text == NULL)
    return NULL;
  parts = g_strsplit (text, path, -1);
  return g_strjoinv (base, parts);
}

#define CONTEXT_LINES 3

/* A line diff of the longest common subsequence, in hunks of changed lines
 * with 3 lines around: small files only, which is what a case is. */
static char *
line_diff (char **a, guint n, char **b, guint m)
{
  g_autofree guint *lcs = g_new0 (guint, (gsize) (n + 1) * (m + 1));
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) changed = g_array_new (FALSE, FALSE, sizeof (gboolean));
  GString *out = g_string_new ("--- expected\n+++ actual\n");
  guint i = 0, j = 0;
  guint last = G_MAXUINT;

#define LCS(x, y) lcs[(gsize) (x) * (m + 1) + (y)]
  for (guint x = n; x-- > 0;)
    for (guint y = m; y-- > 0;)
      LCS (x, y) = strcmp (a[x], b[y]) == 0 ? LCS (x + 1, y + 1) + 1
                                             : MAX (LCS (x + 1, y), LCS (x, y + 1));
  while (i < n || j < m)
    {
      gboolean change = TRUE;

      if (i < n && j < m && strcmp (a[i], b[j]) == 0)
        {
          g_ptr_array_add (lines, g_strconcat (" ", a[i++], NULL));
          j++;
          change = FALSE;
        }
      else if (i < n && (j == m || LCS (i + 1, j) >= LCS (i, j + 1)))
        g_ptr_array_add (lines, g_strconcat ("-", a[i++], NULL));
      else
        g_ptr_array_add (lines, g_strconcat ("+", b[j++], NULL));
      g_array_append_val (changed, change);
    }
#undef LCS
  for (guint k = 0; k < lines->len; k++)
    {
      gboolean near = FALSE;

      for (guint d = k >= CONTEXT_LINES ? k - CONTEXT_LINES : 0;
           d <= k + CONTEXT_LINES && d < lines->len && !near; d++)
        near = g_array_index (changed, gboolean, d);
      if (!near)
        continue;
      if (last != G_MAXUINT && k != last + 1)
        g_string_append (out, "@@\n");
      g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (lines, k));
      last = k;
    }
  return g_string_free (out, FALSE);
}

void
mg_test_cases_assert_expected (const char *actual, const char *expected_path)
{
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;
  g_autofree char *diff = NULL;
  g_autofree char *input = NULL;

  if (!g_file_get_contents (expected_path, &expected, NULL, &error))
    {
      g_test_fail_printf ("%s; write it with --print and read it through", error->message);
      return;
    }
  if (strcmp (expected, actual) == 0)
    return;
  a = g_strsplit (expected, "\n", -1);
  b = g_strsplit (actual, "\n", -1);
  diff = line_diff (a, g_strv_length (a), b, g_strv_length (b));
  input = g_strndup (expected_path, strlen (expected_path) - strlen (".expected"));
  g_printerr ("%s\nThe parse of %s.xml differs from %s (above). If the new output is right, "
              "write it with --print %s.xml and read it through.\n",
              diff, input, expected_path, input);
  g_test_fail_printf ("%s: the dump differs from the expected text", expected_path);
}

static void
run_case (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *actual = c->dump (c->input);

  mg_test_cases_assert_expected (actual, c->expected);
}

static void
no_cases (gconstpointer data)
{
  g_test_fail_printf ("no NAME.xml case in %s", (const char *) data);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

void
mg_test_cases_add (const char *prefix, const char *folder, MgTestCaseDump dump)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".xml"))
      g_ptr_array_add (names, g_strndup (name, strlen (name) - 4));
  g_ptr_array_sort (names, compare_names);
  if (names->len == 0)
    {
      g_autofree char *path = g_strdup_printf ("%s/no-cases", prefix);

      g_test_add_data_func_full (path, g_strdup (folder), no_cases, g_free);
      return;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *stem = g_ptr_array_index (names, i);
      Case *c = g_new0 (Case, 1);
      g_autofree char *path = g_strdup_printf ("%s/%s", prefix, stem);
      g_autofree char *xml = g_strconcat (stem, ".xml", NULL);
      g_autofree char *expected = g_strconcat (stem, ".expected", NULL);

      c->input = g_build_filename (folder, xml, NULL);
      c->expected = g_build_filename (folder, expected, NULL);
      c->dump = dump;
      g_test_add_data_func_full (path, c, run_case, case_free);
    }
}

int
mg_test_cases_main (int argc, char **argv, const char *prefix, const char *area,
                    MgTestCaseDump dump)
{
  g_autofree char *folder = NULL;

  if (mg_test_cases_print (argc, argv, dump))
    return 0;
  g_test_init (&argc, &argv, NULL);
  folder = g_test_build_filename (G_TEST_DIST, "fixtures", area, "cases", NULL);
  mg_test_cases_add (prefix, folder, dump);
  return g_test_run ();
}
