/* SPDX-License-Identifier: GPL-3.0-or-later */
/* allinea_read_config_file, the core counts, the error functions and
 * allinea_get_custom_data. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "allinea_metric_plugin_api.h"
#include "test-hooks.h"
#include "mg-test-common.h"

#define METRIC "org.example.metrics.conf_test"

static char *tmpdir;

static const char config_text[] =
  "# a comment line\n"
  "  name1 = value one   \n"
  "name2=v2\n"
  "   # indented comment = not a value\n"
  "\n"
  "spaced   =   x y\t \n"
  "bad_decl\n"
  "empty =\n"
  "long = 0123456789abcdef\n"
  "name2 = second definition ignored";

static void
setup_config_hooks (void)
{
  test_hooks.config_metric_id = METRIC;
  test_hooks.config_env = "MG_TEST_CONFIG_FILE";
}

static void
test_config_found (void)
{
  setup_config_hooks ();
  g_autofree char *path = g_build_filename (tmpdir, "metric.conf", NULL);
  g_assert_true (g_file_set_contents (path, config_text, -1, NULL));
  g_setenv ("MG_TEST_CONFIG_FILE", path, TRUE);
  char value[64];
  g_assert_cmpint (allinea_read_config_file ("name1", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "value one");
  g_assert_cmpint (allinea_read_config_file ("name2", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "v2");
  g_assert_cmpint (allinea_read_config_file ("spaced", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "x y");
  g_assert_cmpint (allinea_read_config_file ("empty", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "");
  g_assert_cmpint (allinea_read_config_file ("long", METRIC, value, 5), ==, 0);
  g_assert_cmpstr (value, ==, "0123");
}

static void
test_config_not_found (void)
{
  setup_config_hooks ();
  g_autofree char *path = g_build_filename (tmpdir, "metric.conf", NULL);
  g_assert_true (g_file_set_contents (path, config_text, -1, NULL));
  g_setenv ("MG_TEST_CONFIG_FILE", path, TRUE);
  char value[64] = "untouched";
  g_assert_cmpint (allinea_read_config_file ("missing", METRIC, value, sizeof value), ==, -3);
  g_assert_cmpint (allinea_read_config_file ("bad_decl", METRIC, value, sizeof value), ==, -3);
  g_assert_cmpint (allinea_read_config_file ("# indented comment", METRIC, value, sizeof value), ==, -3);
  g_assert_cmpint (allinea_read_config_file ("name", METRIC, value, sizeof value), ==, -3);
  g_assert_cmpstr (value, ==, "untouched");
  /* A metric that declares no <configFile>. */
  g_assert_cmpint (allinea_read_config_file ("name1", "org.example.other", value, sizeof value), ==, -3);
}

static void
test_config_missing_file (void)
{
  setup_config_hooks ();
  g_setenv ("MG_TEST_CONFIG_FILE", "/nonexistent/metrograph/metric.conf", TRUE);
  char value[16];
  g_assert_cmpint (allinea_read_config_file ("name1", METRIC, value, sizeof value), ==, -2);
}

static void
test_config_name_too_long (void)
{
  setup_config_hooks ();
  GString *path = g_string_new ("/tmp");
  while (path->len <= PATH_MAX)
    g_string_append (path, "/abcdefgh");
  g_setenv ("MG_TEST_CONFIG_FILE", path->str, TRUE);
  char value[16];
  g_assert_cmpint (allinea_read_config_file ("name1", METRIC, value, sizeof value), ==, -1);
  g_string_free (path, TRUE);
}

static void
test_config_default_location (void)
{
  setup_config_hooks ();
  g_unsetenv ("MG_TEST_CONFIG_FILE");
  g_autofree char *dir = g_build_filename (tmpdir, "cfg", "map", "metrics", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_autofree char *path = g_build_filename (dir, METRIC ".conf", NULL);
  g_assert_true (g_file_set_contents (path, "where = config dir\n", -1, NULL));
  g_autofree char *config_dir = g_build_filename (tmpdir, "cfg", NULL);
  g_setenv ("ALLINEA_CONFIG_DIR", config_dir, TRUE);
  char value[64];
  g_assert_cmpint (allinea_read_config_file ("where", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "config dir");

  /* Without ALLINEA_CONFIG_DIR: $HOME/.allinea/map/metrics/. */
  g_unsetenv ("ALLINEA_CONFIG_DIR");
  g_autofree char *home = g_build_filename (tmpdir, "home", NULL);
  g_autofree char *home_dir = g_build_filename (home, ".allinea", "map", "metrics", NULL);
  g_assert_cmpint (g_mkdir_with_parents (home_dir, 0755), ==, 0);
  g_autofree char *home_path = g_build_filename (home_dir, METRIC ".conf", NULL);
  g_assert_true (g_file_set_contents (home_path, "where=home\n", -1, NULL));
  g_autofree char *old_home = g_strdup (g_getenv ("HOME"));
  g_setenv ("HOME", home, TRUE);
  g_assert_cmpint (allinea_read_config_file ("where", METRIC, value, sizeof value), ==, 0);
  g_assert_cmpstr (value, ==, "home");
  g_remove (home_path);
  g_assert_cmpint (allinea_read_config_file ("where", METRIC, value, sizeof value), ==, -2);
  if (old_home)
    g_setenv ("HOME", old_home, TRUE);
}

/* Independent reading of sysfs with GLib. */
static GList *
online_cpus (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/sys/devices/system/cpu/online", &text, NULL, NULL))
    return NULL;
  GList *cpus = NULL;
  g_auto (GStrv) ranges = g_strsplit (g_strstrip (text), ",", -1);
  for (char **r = ranges; *r; r++)
    {
      g_auto (GStrv) ends = g_strsplit (*r, "-", 2);
      long first = atol (ends[0]);
      long last = ends[1] ? atol (ends[1]) : first;
      for (long cpu = first; cpu <= last; cpu++)
        cpus = g_list_append (cpus, GINT_TO_POINTER ((int) cpu));
    }
  return cpus;
}

static void
test_core_counts (void)
{
  GList *cpus = online_cpus ();
  if (cpus == NULL)
    {
      g_assert_cmpint (allinea_get_logical_core_count (), ==, -1);
      return;
    }
  g_assert_cmpint (allinea_get_logical_core_count (), ==, (int) g_list_length (cpus));
  g_assert_cmpint (allinea_get_logical_core_count (), ==, sysconf (_SC_NPROCESSORS_ONLN));
  GHashTable *cores = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean known = TRUE;
  for (GList *l = cpus; l; l = l->next)
    {
      int cpu = GPOINTER_TO_INT (l->data);
      g_autofree char *pkg_path = g_strdup_printf ("/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
      g_autofree char *core_path = g_strdup_printf ("/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
      g_autofree char *pkg = NULL, *core = NULL;
      if (!g_file_get_contents (pkg_path, &pkg, NULL, NULL) || !g_file_get_contents (core_path, &core, NULL, NULL))
        {
          known = FALSE;
          break;
        }
      g_hash_table_add (cores, g_strdup_printf ("%s:%s", g_strstrip (pkg), g_strstrip (core)));
    }
  int expected = known ? (int) g_hash_table_size (cores) : -1;
  g_test_message ("logical %d, physical %d", allinea_get_logical_core_count (), expected);
  g_assert_cmpint (allinea_get_physical_core_count (), ==, expected);
  g_assert_cmpint (allinea_get_physical_core_count (), <=, allinea_get_logical_core_count ());
  g_hash_table_unref (cores);
  g_list_free (cpus);
}

static void
test_error_functions (void)
{
  memset (&test_hooks, 0, sizeof test_hooks);
  allinea_set_plugin_error_messagef ((plugin_id_t) 0x1234, ENOENT, "Error accessing %s: %s (%d)",
                                     "/proc/stat", "No such file", 2);
  g_assert_cmpint (test_hooks.plugin_calls, ==, 1);
  g_assert_cmpuint (test_hooks.plugin, ==, 0x1234);
  g_assert_cmpint (test_hooks.plugin_code, ==, ENOENT);
  g_assert_cmpstr (test_hooks.plugin_message, ==, "Error accessing /proc/stat: No such file (2)");

  allinea_set_plugin_error_message ((plugin_id_t) 7, 1000, "100% plain, no %s substitution");
  g_assert_cmpint (test_hooks.plugin_calls, ==, 2);
  g_assert_cmpstr (test_hooks.plugin_message, ==, "100% plain, no %s substitution");

  allinea_set_metric_error_messagef ((metric_id_t) 99, 5, "value %.2f over %lu", 3.14159, 10ul);
  g_assert_cmpint (test_hooks.metric_calls, ==, 1);
  g_assert_cmpuint (test_hooks.metric, ==, 99);
  g_assert_cmpint (test_hooks.metric_code, ==, 5);
  g_assert_cmpstr (test_hooks.metric_message, ==, "value 3.14 over 10");

  allinea_set_metric_error_message ((metric_id_t) 98, -1, "plain");
  g_assert_cmpuint (test_hooks.metric, ==, 98);
  g_assert_cmpstr (test_hooks.metric_message, ==, "plain");

  /* Longer than the record's 256 bytes: truncated to 255 characters. */
  char long_arg[600];
  memset (long_arg, 'm', sizeof long_arg - 1);
  long_arg[sizeof long_arg - 1] = '\0';
  allinea_set_metric_error_messagef ((metric_id_t) 97, 1, "%s", long_arg);
  g_assert_cmpuint (strlen (test_hooks.metric_message), ==, 255);
}

static void
test_custom_data (void)
{
  test_hooks.custom_data = NULL;
  g_assert_cmpstr (allinea_get_custom_data ((metric_id_t) 1), ==, "");
  test_hooks.custom_data = "mydata";
  g_assert_cmpstr (allinea_get_custom_data ((metric_id_t) 1), ==, "mydata");
  test_hooks.custom_data = NULL;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmpdir = mg_test_make_dir ("api-misc");
  g_test_add_func ("/config-file/found", test_config_found);
  g_test_add_func ("/config-file/not-found", test_config_not_found);
  g_test_add_func ("/config-file/missing-file", test_config_missing_file);
  g_test_add_func ("/config-file/name-too-long", test_config_name_too_long);
  g_test_add_func ("/config-file/default-location", test_config_default_location);
  g_test_add_func ("/system-info/core-counts", test_core_counts);
  g_test_add_func ("/errors/reach-hooks", test_error_functions);
  g_test_add_func ("/errors/custom-data", test_custom_data);
  int status = g_test_run ();
  mg_test_remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
