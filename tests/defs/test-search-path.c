/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The metrics search path: order, environment, listing and name resolution. */
#include <glib/gstdio.h>
#include <string.h>

#include "defs-test-support.h"
#include "defs/mg-search-path.h"

static void
touch (const char *dir, const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "x", -1, NULL));
}

static void
test_order (void)
{
  g_autofree char *root = defs_test_copy_fixture (NULL);
  g_autofree char *cli1 = g_build_filename (root, "cli1", NULL);
  g_autofree char *cli2 = g_build_filename (root, "cli2", NULL);
  g_autofree char *env1 = g_build_filename (root, "env1", NULL);
  g_autofree char *env2 = g_build_filename (root, "env2", NULL);
  g_autofree char *config = g_build_filename (root, "config", NULL);
  g_autofree char *data = g_build_filename (root, "data", NULL);
  g_autofree char *installed = g_build_filename (root, "installed", NULL);
  g_autofree char *env_list = g_strjoin (":", env1, "", env2, cli1, NULL);
  g_autofree char *config_metrics = g_build_filename (config, "map", "metrics", NULL);
  g_autofree char *data_metrics = g_build_filename (data, "metrograph", "metrics", NULL);
  const char *cli[] = { cli1, cli2, NULL };
  g_autoptr (MgSearchPath) path = NULL;
  g_autoptr (MgSearchPath) home_path = NULL;
  g_autofree char *home_metrics = NULL;
  const char *const *dirs;

  g_setenv ("METROGRAPH_METRICS_PATH", env_list, TRUE);
  g_setenv ("ALLINEA_CONFIG_DIR", config, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  path = mg_search_path_new (cli, installed);
  dirs = mg_search_path_get_dirs (path);
  g_assert_cmpuint (g_strv_length ((char **) dirs), ==, 7);
  g_assert_cmpstr (dirs[0], ==, cli1);
  g_assert_cmpstr (dirs[1], ==, cli2);
  g_assert_cmpstr (dirs[2], ==, env1);
  g_assert_cmpstr (dirs[3], ==, env2); /* empty entries skipped, cli1 not repeated */
  g_assert_cmpstr (dirs[4], ==, config_metrics);
  g_assert_cmpstr (dirs[5], ==, data_metrics);
  g_assert_cmpstr (dirs[6], ==, installed);

  g_unsetenv ("METROGRAPH_METRICS_PATH");
  g_unsetenv ("ALLINEA_CONFIG_DIR");
  home_path = mg_search_path_new (NULL, NULL);
  dirs = mg_search_path_get_dirs (home_path);
  home_metrics = g_build_filename (g_get_home_dir (), ".allinea", "map", "metrics", NULL);
  g_assert_cmpuint (g_strv_length ((char **) dirs), ==, 2);
  g_assert_cmpstr (dirs[0], ==, home_metrics);
  g_assert_cmpstr (dirs[1], ==, data_metrics);
  g_unsetenv ("XDG_DATA_HOME");
  mg_test_remove_tree (root);
}

static void
test_list_files (void)
{
  g_autofree char *root = defs_test_copy_fixture (NULL);
  g_autofree char *a = g_build_filename (root, "a", NULL);
  g_autofree char *b = g_build_filename (root, "b", NULL);
  g_autofree char *missing = g_build_filename (root, "missing", NULL);
  const char *dirs[] = { b, missing, a, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  g_autoptr (GPtrArray) diagnostics = mg_diagnostic_list_new ();
  g_autoptr (GPtrArray) files = NULL;
  const char *expected[] = { "b/X.xml", "b/a.xml", "a/m.xml", "a/z.xml" };

  touch (a, "z.xml");
  touch (a, "m.xml");
  touch (a, "notes.txt");
  touch (a, "sub/deeper.xml");
  touch (b, "a.xml");
  touch (b, "X.xml");
  touch (b, ".hidden.xml");

  files = mg_search_path_list_files (path, diagnostics);
  g_assert_cmpuint (diagnostics->len, ==, 0); /* missing folders are quiet */
  g_assert_cmpuint (files->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *want = g_build_filename (root, expected[i], NULL);

      g_assert_cmpstr (g_ptr_array_index (files, i), ==, want);
    }
  mg_test_remove_tree (root);
}

static void
test_resolve (void)
{
  g_autofree char *root = defs_test_copy_fixture (NULL);
  g_autofree char *a = g_build_filename (root, "a", NULL);
  g_autofree char *b = g_build_filename (root, "b", NULL);
  g_autofree char *def = g_build_filename (a, "plugin.xml", NULL);
  const char *dirs[] = { a, b, NULL };
  g_autoptr (MgSearchPath) path = mg_search_path_new_for_dirs (dirs);
  g_autoptr (GError) error = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *elsewhere = NULL;
  g_autofree char *nested = NULL;
  g_autofree char *want = NULL;
  char *refused;

  touch (a, "plugin.xml");
  touch (a, "libbeside.so");
  touch (a, "lib/libnested.so");
  touch (b, "libelsewhere.so");
  touch (b, "lib/libonlyinb.so");
  touch (root, "libevil.so");

  beside = mg_search_path_resolve (path, def, "libbeside.so", &error);
  g_assert_no_error (error);
  want = g_build_filename (a, "libbeside.so", NULL);
  g_assert_cmpstr (beside, ==, want);
  g_clear_pointer (&want, g_free);

  elsewhere = mg_search_path_resolve (path, def, "libelsewhere.so", &error);
  g_assert_no_error (error);
  want = g_build_filename (b, "libelsewhere.so", NULL);
  g_assert_cmpstr (elsewhere, ==, want);
  g_clear_pointer (&want, g_free);

  nested = mg_search_path_resolve (path, def, "lib/./libnested.so", &error);
  g_assert_no_error (error);
  want = g_build_filename (a, "lib", "libnested.so", NULL);
  g_assert_cmpstr (nested, ==, want);

  /* Names with a folder are looked up beside their file only. */
  refused = mg_search_path_resolve (path, def, "lib/libonlyinb.so", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "'lib/libonlyinb.so' was not found"));
  g_clear_error (&error);

  refused = mg_search_path_resolve (path, def, "../libevil.so", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_ESCAPES);
  g_assert_nonnull (strstr (error->message, "'../libevil.so' leaves the folder"));
  g_clear_error (&error);

  refused = mg_search_path_resolve (path, def, "lib/../../libevil.so", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_ESCAPES);
  g_clear_error (&error);

  refused = mg_search_path_resolve (path, def, "/usr/lib/libc.so.6", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_ESCAPES);
  g_assert_nonnull (strstr (error->message, "is an absolute path"));
  g_clear_error (&error);

  refused = mg_search_path_resolve (path, def, "libnowhere.so", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_NOT_FOUND);
  g_clear_error (&error);

  refused = mg_search_path_resolve (path, def, "", &error);
  g_assert_null (refused);
  g_assert_error (error, MG_SEARCH_PATH_ERROR, MG_SEARCH_PATH_ERROR_INVALID);
  mg_test_remove_tree (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/defs/search-path/order", test_order);
  g_test_add_func ("/defs/search-path/list-files", test_list_files);
  g_test_add_func ("/defs/search-path/resolve", test_resolve);
  return g_test_run ();
}
