/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include <unistd.h>

#include "mg-test-common.h"

#include "session/mg-run-folder.h"

void
mg_test_remove_tree (const char *path)
{
  /* The app's own remover: tests clean up exactly as a run does. */
  mg_run_folder_remove (path);
}

char *
mg_test_make_dir (const char *name)
{
  g_autofree char *template = g_strdup_printf ("metrograph-test-%s-XXXXXX", name);
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

void
mg_test_spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

double
mg_test_steal_seconds (void)
{
  g_autofree char *text = NULL;
  unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;

  if (!g_file_get_contents ("/proc/stat", &text, NULL, NULL)
      || sscanf (text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                 &idle, &iowait, &irq, &softirq, &steal) != 8)
    return 0;
  return (double) steal / (double) sysconf (_SC_CLK_TCK);
}

char *
mg_test_kept_run_folder (const char *message)
{
  g_autoptr (GRegex) named = g_regex_new ("metrograph --recover (\\S+)", 0, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *run_dir = NULL;
  g_autofree char *records = NULL;
  g_autoptr (GDir) dir = NULL;

  if (!g_regex_match (named, message, 0, &match))
    g_error ("no “metrograph --recover DIR” in:\n%s", message);
  run_dir = g_match_info_fetch (match, 1);
  records = g_build_filename (run_dir, "records", NULL);
  dir = g_dir_open (records, 0, NULL);
  g_assert_nonnull (dir);
  g_assert_nonnull (g_dir_read_name (dir));
  return g_steal_pointer (&run_dir);
}
