/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The built-in report sections in German: their headings, display names,
 * tooltips and texts come from data/reports through the catalogue
 * (po/its extracts them, po/de.po translates them, compiled into
 * <build>/po); a user's partial report is shown as written. */
#include "mg-config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "report/mg-report-set.h"
#include "report/mg-report-writer.h"
#include "report-fixture.h"

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

static void
test_builtin_german (void)
{
  g_autofree char *example = report_fixture_source_path ("examples/report.xml");
  g_autofree char *installed = report_fixture_source_path ("data/reports");
  const char *paths[] = { example, NULL };
  g_autoptr (MgProfile) profile = report_fixture_profile ();
  g_autoptr (MgReportSet) set = NULL;
  g_autoptr (MgReport) report = NULL;
  g_autofree char *text = NULL, *html = NULL;

  g_setenv ("XDG_DATA_HOME", "/nonexistent", TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", "/nonexistent", TRUE);
  g_unsetenv ("METROGRAPH_REPORTS_PATH");
  g_unsetenv ("ALLINEA_PARTIAL_REPORT_SOURCE");
  set = mg_report_set_load (paths, installed);
  report = mg_report_new (profile, "/runs/solver.mgprof", set->reports);
  text = mg_report_to_text (report);
  html = mg_report_to_html (report);

  /* Headings, each section's text and its lines' names. */
  assert_contains (text, "\nE/A\n---\n");
  assert_contains (text, "\nSpeicher\n--------\n");
  assert_contains (text, "Wie viel der Echtzeit die Prozesse auf der CPU verbrachten.");
  assert_contains (text, "CPU-Zeit (Mittel der Prozesse)");
  assert_contains (text, "Mittlerer Prozessspeicher");
  assert_contains (html, ">Speicher</h2>");
  g_assert_null (strstr (text, "CPU time (mean process)"));
  g_assert_null (strstr (text, "\nMemory\n"));
  /* examples/report.xml is no built-in section: as written. */
  assert_contains (text, "Interrupts");
}

int
main (int argc, char **argv)
{
  /* C.UTF-8 is always there; LANGUAGE then picks the German catalogue
   * compiled into the build tree. */
  g_setenv ("LANGUAGE", "de", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, MG_BUILD_ROOT "/po");
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/german/builtin", test_builtin_german);
  return g_test_run ();
}
