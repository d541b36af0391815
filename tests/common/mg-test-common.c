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
