/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Where partial reports are found: the order, what replaces what, the same
 * name twice, and refused files that never stop the others. */
#include "mg-config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "defs/mg-diagnostic.h"
#include "report/mg-report-set.h"
#include "mg-test-common.h"

static char *root;

static void
write_report (const char *dir, const char *file, const char *name)
{
  g_autofree char *path = g_build_filename (root, dir, file, NULL);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *xml = g_strdup_printf (
    "<partialReport name=\"%s\" xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\">\n"
    "<subsections><subsection id=\"s\" heading=\"%s\"/></subsections>\n</partialReport>\n",
    name, file);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, xml, -1, NULL));
}

static char *
at (const char *relative)
{
  return g_build_filename (root, relative, NULL);
}

/* "name@folder/file" for each file, in search order. */
static char *
describe (MgReportSet *set)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < set->files->len; i++)
    {
      const MgReportFile *file = g_ptr_array_index (set->files, i);
      g_autofree char *dir = g_path_get_dirname (file->path);
      g_autofree char *folder = g_path_get_basename (dir);
      g_autofree char *base = g_path_get_basename (file->path);

      g_string_append_printf (out, "%s%s/%s:%c", i > 0 ? " " : "", folder, base,
                              "urs"[file->status]);
    }
  return g_string_free (out, FALSE);
}

static char *
shown (MgReportSet *set)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < set->reports->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            ((MgPartialReport *) set->reports->pdata[i])->name);
  return g_string_free (out, FALSE);
}

static void
setup_env (void)
{
  g_autofree char *xdg = at ("xdg");
  g_autofree char *config = at ("config");
  g_autofree char *own = at ("own");

  g_setenv ("XDG_DATA_HOME", xdg, TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", config, TRUE);
  g_setenv ("METROGRAPH_REPORTS_PATH", own, TRUE);
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
}

/* Only what a test names: the other locations point at an empty folder. */
static void
isolate_env (void)
{
  g_autofree char *empty = at ("empty");

  g_setenv ("XDG_DATA_HOME", empty, TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", empty, TRUE);
  g_unsetenv ("METROGRAPH_REPORTS_PATH");
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
}

static void
test_order (void)
{
  g_autofree char *installed = at ("installed");
  g_autofree char *cli = at ("cli/one.xml");
  const char *cli_paths[] = { cli, NULL };
  g_autoptr (MgReportSet) set = NULL;
  g_autofree char *files = NULL, *names = NULL;

  write_report ("installed", "10-cpu.xml", "org.metrograph.report.cpu");
  write_report ("installed", "20-io.xml", "org.metrograph.report.io");
  write_report ("config/perf-report/reports", "b.xml", "vendor.b");
  write_report ("config/perf-report/reports", "a.xml", "vendor.a");
  write_report ("xdg/metrograph/reports", "mine.xml", "user.mine");
  write_report ("own", "io.xml", "org.metrograph.report.io");
  write_report ("cli", "one.xml", "user.one");
  write_report ("cli", "ignored.xml", "user.ignored");
  setup_env ();

  set = mg_report_set_load (cli_paths, installed);
  files = describe (set);
  g_assert_cmpstr (files, ==, "cli/one.xml:u own/io.xml:u reports/a.xml:u reports/b.xml:u "
                              "reports/mine.xml:u installed/10-cpu.xml:u installed/20-io.xml:s");
  /* Built-in sections first, the user's io.xml in place of the installed
   * one; then the others in search order. */
  names = shown (set);
  g_assert_cmpstr (names, ==, "org.metrograph.report.cpu org.metrograph.report.io user.one "
                              "vendor.a vendor.b user.mine");
  g_assert_false (((MgPartialReport *) set->reports->pdata[1])->builtin);
  g_assert_true (((MgPartialReport *) set->reports->pdata[0])->builtin);
}

/* ALLINEA_PARTIAL_REPORT_SOURCE replaces the ALLINEA_CONFIG_DIR folder: a
 * file, or a folder read in alphabetical order, not recursively. */
static void
test_partial_report_source (void)
{
  g_autofree char *folder = at ("source");
  g_autofree char *file = at ("source/z.xml");
  g_autofree char *missing = at ("nowhere.xml");
  g_autofree char *empty = at ("empty");
  g_autoptr (MgReportSet) by_folder = NULL, by_file = NULL, by_missing = NULL;
  g_autofree char *a = NULL, *b = NULL;
  g_autofree char *message = NULL;

  write_report ("source", "z.xml", "s.z");
  write_report ("source", "m.xml", "s.m");
  write_report ("source/sub", "deep.xml", "s.deep");
  write_report ("config/perf-report/reports", "a.xml", "vendor.a");
  setup_env ();
  g_unsetenv ("METROGRAPH_REPORTS_PATH");
  g_setenv ("XDG_DATA_HOME", empty, TRUE);

  g_setenv ("ALLINEA_PARTIAL_REPORT_SOURCE", folder, TRUE);
  by_folder = mg_report_set_load (NULL, NULL);
  a = describe (by_folder);
  g_assert_cmpstr (a, ==, "source/m.xml:u source/z.xml:u");

  g_setenv ("ALLINEA_PARTIAL_REPORT_SOURCE", file, TRUE);
  by_file = mg_report_set_load (NULL, NULL);
  b = describe (by_file);
  g_assert_cmpstr (b, ==, "source/z.xml:u");

  g_setenv ("ALLINEA_PARTIAL_REPORT_SOURCE", missing, TRUE);
  by_missing = mg_report_set_load (NULL, NULL);
  g_assert_cmpuint (by_missing->files->len, ==, 0);
  g_assert_cmpuint (by_missing->diagnostics->len, ==, 1);
  message = mg_diagnostic_to_string (by_missing->diagnostics->pdata[0]);
  g_assert_nonnull (strstr (message, "nowhere.xml: warning: partial report location from "
                                     "ALLINEA_PARTIAL_REPORT_SOURCE not found"));
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
}

static void
test_refused_file (void)
{
  g_autofree char *folder = at ("mixed");
  g_autofree char *bad = at ("mixed/b-bad.xml");
  const char *cli_paths[] = { folder, NULL };
  g_autoptr (MgReportSet) set = NULL;
  g_autofree char *files = NULL, *message = NULL;

  write_report ("mixed", "a.xml", "m.a");
  write_report ("mixed", "c.xml", "m.c");
  g_assert_true (g_file_set_contents (bad, "<partialReport name=\"x\">\n</partialReport>", -1,
                                      NULL));
  isolate_env ();
  set = mg_report_set_load (cli_paths, NULL);
  files = describe (set);
  g_assert_cmpstr (files, ==, "mixed/a.xml:u mixed/b-bad.xml:r mixed/c.xml:u");
  g_assert_cmpuint (set->reports->len, ==, 2);
  message = mg_diagnostic_to_string (set->diagnostics->pdata[0]);
  g_assert_true (g_str_has_suffix (message, "b-bad.xml:1: error: xmlns missing: <partialReport> "
                                            "must have xmlns=\"" MG_PARTIAL_REPORT_XMLNS "\""));
}


/* Each file's origin names the variable only when it chose the folder:
 * with ALLINEA_CONFIG_DIR unset the folder is ~/.allinea's. */
static void
test_origins (void)
{
  g_autofree char *installed = at ("origins/installed");
  g_autofree char *home = at ("origins/home");
  g_autofree char *config = at ("origins/config");
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReportSet) again = NULL;

  isolate_env ();
  write_report ("origins/config/perf-report/reports", "a.xml", "vendor.a");
  write_report ("origins/home/.allinea/perf-report/reports", "h.xml", "vendor.h");
  g_setenv ("ALLINEA_CONFIG_DIR", config, TRUE);
  set = mg_report_set_load (NULL, installed);
  g_assert_cmpuint (set->files->len, ==, 1);
  g_assert_cmpstr (((MgReportFile *) set->files->pdata[0])->origin, ==, "ALLINEA_CONFIG_DIR");

  g_unsetenv ("ALLINEA_CONFIG_DIR");
  g_setenv ("HOME", home, TRUE);
  again = mg_report_set_load (NULL, installed);
  g_assert_cmpuint (again->files->len, ==, 1);
  g_assert_true (g_str_has_suffix (((MgReportFile *) again->files->pdata[0])->path,
                                   "home/.allinea/perf-report/reports/h.xml"));
  g_assert_cmpstr (((MgReportFile *) again->files->pdata[0])->origin, ==,
                   "~/.allinea, ALLINEA_CONFIG_DIR unset");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  root = g_dir_make_tmp ("metrograph-report-set-XXXXXX", NULL);
  g_test_add_func ("/report/set/order", test_order);
  g_test_add_func ("/report/set/partial-report-source", test_partial_report_source);
  g_test_add_func ("/report/set/refused-file", test_refused_file);
  g_test_add_func ("/report/set/origins", test_origins);
  status = g_test_run ();
  mg_test_remove_tree (root);
  g_free (root);
  return status;
}
