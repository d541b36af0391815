/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "session-test-support.h"

#include <glib/gstdio.h>

#include "session/mg-install-paths.h"

char *
session_test_fixture_metrics_dir (void)
{
  return g_build_filename (g_getenv ("MG_SOURCE_ROOT"), "tests", "session", "metrics", NULL);
}

MgCatalogue *
session_test_fixture_catalogue (void)
{
  g_autofree char *fixture = session_test_fixture_metrics_dir ();
  g_autofree char *builtin = mg_install_paths_get_metrics_dir ();
  const char *dirs[] = { fixture, builtin, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

MgCatalogue *
session_test_builtin_catalogue (void)
{
  g_autofree char *builtin = mg_install_paths_get_metrics_dir ();
  const char *dirs[] = { builtin, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  MgCatalogue *catalogue = mg_catalogue_new ();

  mg_catalogue_load (catalogue, path);
  return catalogue;
}

char *
session_test_program (const char *name)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "session", name, NULL);
}

gboolean
session_test_wait (gboolean (*check) (gpointer), gpointer data, double timeout_s)
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

MgCatalogue *
session_test_hang_catalogue (const char *dir)
{
  static const char xml[] =
    "<?xml version=\"1.0\"?>\n<metricdefinition version=\"1\">\n"
    "  <metric id=\"ft_hang\"><enabled>default_no</enabled><units>calls</units>\n"
    "    <dataType>uint64_t</dataType><domain>time</domain>\n"
    "    <source ref=\"ft_src\" functionName=\"faulty_hang\"/>\n"
    "    <display><displayName>Hangs at 5</displayName><type>other</type></display>\n"
    "  </metric>\n"
    "  <metric id=\"ft_crash\"><enabled>default_no</enabled><units>calls</units>\n"
    "    <dataType>uint64_t</dataType><domain>time</domain>\n"
    "    <source ref=\"ft_src\" functionName=\"faulty_crash\"/>\n"
    "    <display><displayName>Crashes at 20</displayName><type>other</type></display>\n"
    "  </metric>\n"
    "  <source id=\"ft_src\"><sharedLibrary>libmg-test-faulty.so</sharedLibrary></source>\n"
    "</metricdefinition>\n";
  g_autofree char *built = g_build_filename (g_getenv ("MG_BUILD_ROOT"), "tests", "sampler",
                                             "libmg-test-faulty.so", NULL);
  g_autofree char *lib_path = g_build_filename (dir, "libmg-test-faulty.so", NULL);
  g_autofree char *xml_path = g_build_filename (dir, "faulty.xml", NULL);
  g_autofree char *lib = NULL;
  gsize len;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (built, &lib, &len, NULL));
  g_assert_true (g_file_set_contents (lib_path, lib, (gssize) len, NULL));
  g_assert_true (g_file_set_contents (xml_path, xml, -1, NULL));
  {
    g_autofree char *builtin = mg_install_paths_get_metrics_dir ();
    const char *dirs[] = { dir, builtin, NULL };
    g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
    MgCatalogue *catalogue = mg_catalogue_new ();

    mg_catalogue_load (catalogue, path);
    return catalogue;
  }
}

void
session_test_remove_hang_metrics (const char *dir)
{
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *file = g_build_filename (dir, i ? "faulty.xml" : "libmg-test-faulty.so",
                                                NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}
