/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "run-test-support.h"

#include "mg-install-paths.h"

char *
run_test_fixture_metrics_dir (void)
{
  return g_build_filename (g_getenv ("MG_SOURCE_ROOT"), "tests", "session", "metrics", NULL);
}

MgCatalogue *
run_test_fixture_catalogue (void)
{
  g_autofree char *fixture = run_test_fixture_metrics_dir ();
  g_autofree char *builtin = mg_install_paths_get_metrics_dir ();
  const char *dirs[] = { fixture, builtin, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

MgCatalogue *
run_test_builtin_catalogue (void)
{
  g_autofree char *builtin = mg_install_paths_get_metrics_dir ();
  const char *dirs[] = { builtin, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

char *
run_test_program (const char *name)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "session", name, NULL);
}

gboolean
run_test_wait (gboolean (*check) (gpointer), gpointer data, double timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (!check (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (2000);
    }
  return TRUE;
}
