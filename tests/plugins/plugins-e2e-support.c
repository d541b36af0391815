/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "plugins-e2e-support.h"

char *
plugins_test_build_path (const char *relative)
{
  return g_build_filename (g_getenv ("MG_BUILD_ROOT"), relative, NULL);
}

static char **
run_environment (const char *dir, const char *const *changes)
{
  char **env = g_get_environ ();
  env = g_environ_unsetenv (env, "METROGRAPH_METRICS_PATH");
  env = g_environ_unsetenv (env, "LD_PRELOAD");
  env = g_environ_unsetenv (env, "DISPLAY");
  env = g_environ_setenv (env, "ALLINEA_CONFIG_DIR", dir, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", dir, TRUE);
  for (const char *const *c = changes; c != NULL && *c != NULL; c++)
    {
      g_auto (GStrv) kv = g_strsplit (*c, "=", 2);
      env = kv[1] != NULL ? g_environ_setenv (env, kv[0], kv[1], TRUE)
                          : g_environ_unsetenv (env, kv[0]);
    }
  return env;
}

int
plugins_test_run_metrograph (const char *dir, const char *const *args,
                             const char *const *env, char **out, char **err)
{
  g_autofree char *metrograph = plugins_test_build_path ("app/cli/metrograph");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) environment = run_environment (dir, env);
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, metrograph);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (dir, (char **) argv->pdata, environment, G_SPAWN_DEFAULT, NULL, NULL,
                &stdout_text, &stderr_text, &status, &error);
  g_assert_no_error (error);
  g_test_message ("%s%s", stdout_text, stderr_text);
  if (out != NULL)
    *out = g_steal_pointer (&stdout_text);
  if (err != NULL)
    *err = g_steal_pointer (&stderr_text);
  return status;
}
